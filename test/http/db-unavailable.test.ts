// The database going away in each way it can: every connection-class failure is a JSON 503 with
// Retry-After, never a 500, and the service recovers on its own once the database is back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isTimeoutOrConnectionError } from '../../src/db/pool.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let admin: pg.Client;
let dbName: string;
beforeAll(async () => {
  t = await createTestApp();
  dbName = new URL(t.db.url).pathname.slice(1);
  admin = new pg.Client({ connectionString: inject('pgUrl') });
  await admin.connect();
});
afterAll(async () => {
  await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`).catch(() => {});
  await admin.end();
  await t.close();
});

const kickEveryone = () =>
  admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [dbName]);

function expect503(r: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
  body: string;
}) {
  expect(r.statusCode).toBe(503);
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  expect(r.json()).toEqual({ error: 'service unavailable', hint: expect.any(String) });
  expect(r.body).not.toMatch(/accepting|terminat|pg_|SQLSTATE|at \w+ \(/i);
}

describe('a database refusing connections', () => {
  it('ALLOW_CONNECTIONS false (SQLSTATE 55000) after killing every backend: 503 on every endpoint, then recovery', async () => {
    await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS false`);
    await kickEveryone();
    try {
      for (const url of [
        '/v1/jobs',
        '/v1/jobs/count',
        '/v1/jobs/feed',
        '/v1/jobs/expired',
        '/v1/jobs/modified',
        '/v1/jobs/greenhouse:1',
        '/v1/companies',
        '/v1/companies/acme',
        '/v1/meta',
      ]) {
        expect503(await t.get(url));
      }
      // Health answers for itself.
      const h = await t.get('/v1/health');
      expect(h.statusCode).toBe(503);
      expect(h.json()).toMatchObject({ status: 'unavailable' });
    } finally {
      await admin.query(`ALTER DATABASE ${dbName} ALLOW_CONNECTIONS true`);
    }
    expect((await t.get('/v1/jobs?limit=1')).statusCode).toBe(200);
  });

  it('killed backends under idle pooled connections: the next requests are 503 or 200, never 500', async () => {
    await t.get('/v1/jobs?limit=1');
    await kickEveryone();
    const statuses = new Set<number>();
    for (let i = 0; i < 10; i++) statuses.add((await t.get('/v1/jobs?limit=1')).statusCode);
    expect([...statuses].every((s) => s === 200 || s === 503)).toBe(true);
    expect((await t.get('/v1/jobs?limit=1')).statusCode).toBe(200);
  });
});

describe('classification of database errors', () => {
  const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it.each([
    '08000',
    '08001',
    '08003',
    '08004',
    '08006',
    '08P01',
    '53000',
    '53100',
    '53200',
    '53300',
    '53400',
    '57P01',
    '57P02',
    '57P03',
    '57P04',
    '57014',
    '3D000',
    '28000',
    '28P01',
    '40001',
    'ECONNREFUSED',
    'ECONNRESET',
    'ETIMEDOUT',
    'EHOSTUNREACH',
    'ENOTFOUND',
  ])('%s means unavailable', (code) => {
    expect(isTimeoutOrConnectionError(err(code))).toBe(true);
  });

  it('55000 only when the database is not accepting connections', () => {
    expect(
      isTimeoutOrConnectionError(err('55000', 'database "x" is not currently accepting connections')),
    ).toBe(true);
    expect(isTimeoutOrConnectionError(err('55000', 'prepared transaction belongs to another database'))).toBe(
      false,
    );
  });

  it('an AggregateError of refused attempts (several addresses) means unavailable', () => {
    const agg = Object.assign(new AggregateError([err('ECONNREFUSED'), err('ECONNREFUSED')]), {});
    expect(isTimeoutOrConnectionError(agg)).toBe(true);
  });

  it.each(['22021', '42601', '23505', '42P01', 'XX000', '22P02'])('%s is not unavailability', (code) => {
    expect(isTimeoutOrConnectionError(err(code))).toBe(false);
  });
  it('nor are non-errors', () => {
    for (const v of [undefined, null, 'ECONNREFUSED', 42, {}])
      expect(isTimeoutOrConnectionError(v)).toBe(false);
  });
});

describe('a dropped database (3D000)', () => {
  it('is a 503, not a 500', async () => {
    const other = await createTestApp({ sample: false });
    try {
      const name = new URL(other.db.url).pathname.slice(1);
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      expect503(await other.get('/v1/jobs'));
      expect503(await other.get('/v1/companies'));
    } finally {
      await other.close();
    }
  });
});
