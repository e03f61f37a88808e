import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgLimiter } from '../../src/limiter/limiter.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

function expectCommonHeaders(headers: Record<string, unknown>) {
  expect(headers['content-type']).toBe('application/json; charset=utf-8');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(headers['cache-control']).toBeUndefined();
  expect(headers.etag).toBeUndefined();
}

describe('global HTTP behaviour', () => {
  it('sets the three headers on success and on every kind of error', async () => {
    for (const [url, status] of [
      ['/v1/jobs', 200],
      ['/v1/jobs?limit=0', 400],
      ['/v1/nowhere', 404],
      ['/v1/jobs/nosuch:1', 404],
      ['/v1/health', 200],
      ['/openapi.json', 200],
    ] as const) {
      const r = await t.get(url);
      expect(r.statusCode, url).toBe(status);
      expectCommonHeaders(r.headers);
    }
    const unauth = await t.app.fastify.inject({ url: '/v1/jobs' });
    expect(unauth.statusCode).toBe(401);
    expectCommonHeaders(unauth.headers);
  });

  it('answers OPTIONS preflight with 204 allowing Authorization', async () => {
    const r = await t.app.fastify.inject({
      method: 'OPTIONS',
      url: '/v1/jobs',
      headers: { origin: 'https://example.org', 'access-control-request-headers': 'authorization' },
    });
    expect(r.statusCode).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(String(r.headers['access-control-allow-headers'])).toMatch(/Authorization/);
  });

  it('gives 405 for every other method', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const) {
      const r = await t.app.fastify.inject({
        method,
        url: '/v1/jobs',
        headers: { authorization: `Bearer ${t.key}` },
      });
      expect(r.statusCode, method).toBe(405);
      if (method !== 'HEAD') expect(r.json()).toEqual({ error: 'method not allowed' });
      expect(r.headers.allow).toBe('GET, OPTIONS');
    }
  });

  it('gives 404 with error and see for unknown paths', async () => {
    const r = await t.get('/v2/jobs');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toEqual({ error: 'unknown endpoint', see: '/openapi.json' });
  });

  it('strips trailing slashes', async () => {
    const a = await t.get('/v1/jobs/');
    const b = await t.get('/v1/jobs');
    expect(a.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    expect((await t.get('/v1/meta/')).statusCode).toBe(200);
  });

  it('ignores request bodies and never leaks internals on malformed input', async () => {
    const r = await t.app.fastify.inject({
      method: 'GET',
      url: '/v1/jobs?limit=1',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/x-weird' },
      payload: 'garbage',
    });
    expect(r.statusCode).toBe(200);
    const bad = await t.get('/v1/jobs/%E0%A4%A');
    expect([400, 404]).toContain(bad.statusCode);
    expect(bad.body).not.toMatch(/stack|at \w+ \(/);
  });
});

describe('authentication', () => {
  it('accepts Bearer, a bare key in the header, and api_key in the query', async () => {
    expect(
      (await t.app.fastify.inject({ url: '/v1/meta', headers: { authorization: `Bearer ${t.key}` } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.fastify.inject({ url: '/v1/meta', headers: { authorization: t.key } })).statusCode,
    ).toBe(200);
    expect((await t.app.fastify.inject({ url: `/v1/meta?api_key=${t.key}` })).statusCode).toBe(200);
  });

  it('gives the same 401 for missing, malformed, unknown and revoked keys', async () => {
    const body = { error: 'invalid or missing api key', hint: 'Authorization: Bearer <key>' };
    const unknown = `${t.db.config.KEY_PREFIX}${'ab'.repeat(24)}`;
    const cases: Record<string, string>[] = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer not-a-key' },
      { authorization: `Bearer ${t.key}x` },
      { authorization: `Bearer ${unknown}` },
    ];
    for (const headers of cases) {
      const r = await t.app.fastify.inject({ url: '/v1/jobs', headers });
      expect(r.statusCode, JSON.stringify(headers)).toBe(401);
      expect(r.json()).toEqual(body);
    }
    const q = await t.app.fastify.inject({ url: `/v1/jobs?api_key=${unknown}` });
    expect(q.statusCode).toBe(401);
  });

  it('lets the header win over the query parameter', async () => {
    const unknown = `${t.db.config.KEY_PREFIX}${'cd'.repeat(24)}`;
    const good = await t.app.fastify.inject({
      url: `/v1/meta?api_key=${unknown}`,
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(good.statusCode).toBe(200);
    const bad = await t.app.fastify.inject({
      url: `/v1/meta?api_key=${t.key}`,
      headers: { authorization: `Bearer ${unknown}` },
    });
    expect(bad.statusCode).toBe(401);
  });

  it('needs no key for health and openapi', async () => {
    expect((await t.app.fastify.inject({ url: '/v1/health' })).statusCode).toBe(200);
    expect((await t.app.fastify.inject({ url: '/openapi.json' })).statusCode).toBe(200);
  });
});

describe('health and meta', () => {
  it('health reports the live count, equal to meta.jobs', async () => {
    const health = (await t.app.fastify.inject({ url: '/v1/health' })).json();
    const meta = (await t.get('/v1/meta')).json();
    expect(health).toEqual({ status: 'ok', jobs: 5 });
    expect(meta.jobs).toBe(5);
  });

  it('meta has exactly the spec keys with values recomputed from the fixture', async () => {
    const meta = (await t.get('/v1/meta?anything=ignored')).json();
    expect(Object.keys(meta).sort()).toEqual(
      ['companies', 'coverage_pct', 'full_text_search', 'jobs', 'newest', 'sources', 'version'].sort(),
    );
    expect(meta.companies).toBe(3);
    expect(meta.newest).toBe('2026-11-20T10:00:00.000Z');
    expect(meta.sources).toEqual({ greenhouse: 2, ashby: 1, lever: 1, workable: 1 });
    expect(Object.keys(meta.sources)).toEqual(['greenhouse', 'ashby', 'lever', 'workable']);
    expect(meta.full_text_search).toBe(true);
    expect(meta.version).toBe('1.0.0');
    // Five live jobs: salary on 3, skills on 3, education on 2 (expired and folded rows do not count).
    expect(meta.coverage_pct).toEqual({
      country: 100,
      skills: 60,
      work_arrangement: 100,
      seniority: 100,
      taxonomies: 100,
      salary: 60,
      education: 40,
      language: 100,
    });
  });
});

describe('health with a limiter', () => {
  it('reports the limiter store and stays exempt from limits', async () => {
    const limited = await createTestApp({ sample: false });
    const app = await (await import('../../src/http/app.ts')).buildApp({
      ctx: {
        db: limited.db,
        config: limited.db.config,
        cursorSecret: 's',
        version: '1.0.0',
        fullTextSearch: true,
      },
      limiter: new PgLimiter(limited.db.write),
      logger: false,
    });
    try {
      const r = await app.fastify.inject({ url: '/v1/health' });
      expect(r.json()).toEqual({ status: 'ok', jobs: 0, limiter: { store: 'postgres', status: 'ok' } });
      expect(r.headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      await app.close();
      await limited.close();
    }
  });
});
