// The HTTP surface under arbitrary input: every answer is JSON with a documented status; never a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointParams } from '../../src/http/params/registry.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PATHS: Record<string, keyof typeof endpointParams> = {
  '/v1/jobs': 'jobs',
  '/v1/jobs/count': 'count',
  '/v1/jobs/feed': 'feed',
  '/v1/jobs/modified': 'modified',
  '/v1/jobs/expired': 'expired',
  '/v1/jobs/greenhouse:1001': 'job',
  '/v1/companies': 'companies',
  '/v1/companies/northwind-labs': 'company',
};

// Values that reach deep into the parsers and the SQL: near-valid ones more often than noise.
const value = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    'true',
    'false',
    '1',
    '0',
    '-1',
    '0.5',
    '1e309',
    'NaN',
    '24h',
    '0m',
    '9999999d',
    'US',
    'us',
    'XX',
    'Germany',
    'FULL_TIME,PART_TIME',
    'Remote',
    'c++,python',
    'en',
    'English',
    'a OR b',
    '"quoted phrase"',
    '-intern',
    "a & 'b c' | !d:*",
    '(a <-> b)',
    '2026-11-01',
    '2026-13-45T99:00:00Z',
    'only',
    'html',
    'title,organization',
    '%',
    '_',
    '\\',
    "'",
    '""',
    ',',
    'a,,b',
    'x'.repeat(600),
  ),
);

function expectSane(status: number, body: string, url: string) {
  expect([200, 400, 404], url).toContain(status);
  const json = JSON.parse(body);
  if (status === 400) {
    expect(json.error, url).toBe('invalid request');
    expect(typeof json.param, url).toBe('string');
    expect(typeof json.hint, url).toBe('string');
  }
}

describe('fuzzing the HTTP surface', () => {
  it('known parameters with arbitrary values never give a 5xx', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(PATHS)),
        fc.array(fc.tuple(fc.nat(), value), { maxLength: 4 }),
        async (path, pairs) => {
          const names = [...endpointParams[PATHS[path]].map((p) => p.name), 'cursor', 'api_key', 'unknown'];
          const qs = new URLSearchParams(pairs.map(([i, v]) => [names[i % names.length], v])).toString();
          const url = `${path}?${qs}`;
          const r = await t.get(url);
          seen.set(r.statusCode, (seen.get(r.statusCode) ?? 0) + 1);
          expectSane(r.statusCode, r.body, url);
        },
      ),
      { numRuns: 600 },
    );
    // The property must reach the database, not only the validators.
    expect(seen.get(200) ?? 0).toBeGreaterThan(60);
    expect(seen.get(400) ?? 0).toBeGreaterThan(60);
  });

  it('arbitrary paths and raw query strings never give a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 60 }), async (p, q) => {
        const url = `/v1/${encodeURI(p)}?${q.replace(/#/g, '%23')}`;
        const r = await t.get(url);
        expect(r.statusCode, url).toBeLessThan(500);
        JSON.parse(r.body);
      }),
      { numRuns: 300 },
    );
  });
});

describe('prototype keys', () => {
  it('__proto__, constructor and toString are unknown parameters like any other', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const r = await t.get(`/v1/jobs?${name}=1`);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toEqual({ error: 'invalid request', param: name, hint: 'unknown parameter' });
    }
  });
});
