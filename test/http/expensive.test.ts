// The bound on expensive work: per account and per process, with 429/503 and Retry-After past it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, ensureAccount } from '../../src/db/keys.ts';
import { isExpensive } from '../../src/http/expensive.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let other: string;
let locker: pg.Client;
beforeAll(async () => {
  t = await createTestApp({
    // Held requests must outlast the test's own waiting on a loaded machine.
    env: { EXPENSIVE_PER_PROCESS: '3', EXPENSIVE_PER_ACCOUNT: '2', STATEMENT_TIMEOUT_MS: '60000' },
  });
  const account = await ensureAccount(t.db.write, 'other', 600, 1_000_000);
  other = (await createKey(t.db.write, account.id, 'jps_')).key;
  locker = new pg.Client({ connectionString: t.db.url });
  await locker.connect();
});
afterAll(async () => {
  await locker.end();
  await t.close();
});

describe('what is expensive', () => {
  it.each([
    ['/v1/jobs', { collapse: 'true' }, true],
    ['/v1/jobs/count', { collapse: 'true' }, true],
    ['/v1/jobs', { offset: 1000 }, true],
    ['/v1/jobs', { offset: 999 }, false],
    ['/v1/jobs', { description: "'java'" }, true],
    ['/v1/jobs/count', { description_advanced: "'java'" }, true],
    ['/v1/jobs', { title_advanced: "'manag':*" }, true],
    ['/v1/jobs', { title_advanced: "'manag'" }, false],
    ['/v1/jobs', { title: "'java'", country: ['US'] }, false],
    ['/v1/jobs/feed', { limit: 1000 }, false],
    ['/v1/jobs/feed', { limit: 200, description_format: 'html' }, false],
    ['/v1/jobs/feed', { limit: 201, description_format: 'html' }, true],
    ['/v1/jobs/modified', { limit: 1000, description_format: 'text' }, true],
    ['/v1/jobs/expired', { limit: 5000 }, false],
  ] as const)('%s %j → %s', (path, params, expected) => {
    expect(isExpensive(path, params)).toBe(expected);
  });
});

describe('the gate', () => {
  it('past the account share: 429 with Retry-After; past the process bound: 503 with Retry-After', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE');
    const held: Promise<{ statusCode: number }>[] = [];
    // inject() is lazy until then() is called: start each request now.
    try {
      held.push(t.get('/v1/jobs?collapse=true').then((r) => r));
      held.push(t.get('/v1/jobs/count?collapse=true&time_frame=3650d').then((r) => r));
      held.push(t.get('/v1/jobs?offset=5000', { authorization: `Bearer ${other}` }).then((r) => r));
      // Wait until the three are blocked on the lock, i.e. hold their slots.
      let waiting = 0;
      for (let i = 0; i < 200 && waiting < 3; i++) {
        // Activity statistics are a snapshot per transaction: take a fresh one.
        await locker.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await locker.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        waiting = rows[0].n;
        if (waiting < 3) await new Promise((r) => setTimeout(r, 20));
      }
      expect(waiting).toBe(3);
      const mine = await t.get('/v1/jobs?description=java');
      expect(mine.statusCode).toBe(429);
      expect(mine.headers['retry-after']).toBe('1');
      expect(mine.json()).toMatchObject({ error: 'too many expensive requests', hint: expect.any(String) });
      // Still an authenticated response: rate-limit headers are there when a limiter runs; none here.
      const theirs = await t.get('/v1/jobs?collapse=true', { authorization: `Bearer ${other}` });
      expect(theirs.statusCode).toBe(503);
      expect(theirs.headers['retry-after']).toBe('1');
      expect(theirs.json()).toMatchObject({ error: 'service unavailable' });
    } finally {
      await locker.query('ROLLBACK');
    }
    for (const r of await Promise.all(held)) expect(r.statusCode).toBe(200);
    // Slots are given back: the same requests now pass.
    expect((await t.get('/v1/jobs?description=java')).statusCode).toBe(200);
    expect((await t.get('/v1/jobs?collapse=true', { authorization: `Bearer ${other}` })).statusCode).toBe(
      200,
    );
  });

  it('slots are given back when the request fails', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.get('/v1/jobs?collapse=true&cursor=abc')).statusCode).toBe(400);
    }
    expect((await t.get('/v1/jobs?collapse=true')).statusCode).toBe(200);
  });
});
