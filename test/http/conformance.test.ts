// The document against real responses. Every suite's responses are validated when its app closes
// (helpers/conformance.ts); this suite makes sure each path is met with a success and with each error
// status it can give here, that the checker does catch drift, and that the document's examples are
// themselves valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { conformanceChecker, type OpenApiDoc, schemaValidator } from '../helpers/conformance.ts';

let t: TestApp;
let doc: OpenApiDoc;
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.get('/openapi.json')).json();
});
afterAll(async () => {
  await t?.close(); // validates every response below
});

describe('every path of the document', () => {
  it('answers each status it declares that a request can provoke here', async () => {
    const job = (await t.get('/v1/jobs?limit=1')).json().data[0];
    const slug = (await t.get('/v1/companies?limit=1')).json().data[0].slug;
    // The parameters a path requires.
    const needs: Record<string, string> = { '/v1/jobs/facets': '?facets=country' };
    const concrete = (p: string) =>
      p.replace('{id}', encodeURIComponent(job.id)).replace('{slug}', encodeURIComponent(slug)) +
      (needs[p] ?? '');
    const missing = (p: string) => p.replace('{id}', 'nowhere%3A0').replace('{slug}', 'no-such-company');
    const met: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const declared = Object.keys(item.get.responses);
      const status = async (url: string, headers?: Record<string, string>) => {
        const res = await t.get(url, headers);
        met.push(`${path} ${res.statusCode}`);
        return res.statusCode;
      };
      expect(await status(concrete(path)), path).toBe(200);
      const more = needs[path] ? '&' : '?';
      if (declared.includes('400'))
        expect(await status(`${concrete(path)}${more}no_such_param=1`), path).toBe(400);
      if (declared.includes('401'))
        expect(await status(concrete(path), { authorization: 'Bearer jps_wrong' }), path).toBe(401);
      if (declared.includes('404')) expect(await status(missing(path)), path).toBe(404);
      // Other methods and the preflight on the same path.
      const post = await t.app.fastify.inject({ method: 'POST', url: concrete(path) });
      expect(post.statusCode, path).toBe(405);
      const pre = await t.app.fastify.inject({ method: 'OPTIONS', url: concrete(path) });
      expect(pre.statusCode, path).toBe(204);
    }
    expect((await t.get('/v1/nothing-here')).statusCode).toBe(404);
    expect(met.length).toBeGreaterThan(25);
  });
});

describe('the checker', () => {
  it('catches an undeclared field, a wrong type, an undeclared status and a success off the document', () => {
    const check = conformanceChecker(doc);
    const x = (url: string, status: number, body: unknown) => ({
      method: 'GET',
      url,
      status,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify(body),
    });
    expect(check(x('/v1/jobs/count', 200, { count: 3 }))).toBeUndefined();
    expect(check(x('/v1/jobs/count', 200, { count: 3, extra: 1 }))).toMatch(/additional properties/);
    expect(check(x('/v1/jobs/count', 200, { count: '3' }))).toMatch(/must be integer/);
    expect(check(x('/v1/jobs/count', 418, { error: 'teapot' }))).toMatch(/not declared/);
    expect(check(x('/v1/elsewhere', 200, {}))).toMatch(/outside the document/);
    expect(check(x('/v1/jobs/a%3Ab', 404, { error: 'not found' }))).toBeUndefined();
    expect(check(x('/v1/jobs/a%3Ab', 404, { message: 'not found' }))).toMatch(/required/);
  });
});

describe('the examples of the document', () => {
  it('are real-looking responses that satisfy their own schemas, one per path at least', () => {
    const validate = schemaValidator(doc);
    const withExample = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [status, res] of Object.entries(item.get.responses)) {
        const media = (res as { content?: Record<string, { schema: unknown; example?: unknown }> }).content?.[
          'application/json'
        ];
        if (media?.example === undefined) continue;
        withExample.add(path);
        expect(validate(media.schema, media.example), `${path} ${status}`).toBeUndefined();
      }
    }
    expect([...withExample].sort()).toEqual(
      Object.keys(doc.paths)
        .filter((p) => p !== '/openapi.json')
        .sort(),
    );
  });
});
