import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLimiter } from '../../src/limiter/limiter.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});

let t: TestApp;
let locker: pg.Client;
beforeAll(async () => {
  t = await createTestApp({
    env: { STATEMENT_TIMEOUT_MS: '300' },
    // debug: every request gets its own line (info only has the periodic summary).
    logger: { level: 'debug', stream: sink },
    limiter: new MemoryLimiter(),
  });
  locker = new pg.Client({ connectionString: t.db.url });
  await locker.connect();
});
afterAll(async () => {
  await locker.end();
  await t.close();
});

describe('database failures', () => {
  it('a query cancelled by statement_timeout is a JSON 503, and the next request succeeds', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE');
    try {
      const r = await t.get('/v1/jobs?limit=1');
      expect(r.statusCode).toBe(503);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.json().error).toBe('service unavailable');
      // Still an authenticated response: it carries the rate-limit headers.
      expect(r.headers['x-ratelimit-limit']).toBe('600');
    } finally {
      await locker.query('ROLLBACK');
    }
    expect((await t.get('/v1/jobs?limit=1')).statusCode).toBe(200);
  });

  it('a backend killed mid-request gives a JSON error and the process keeps serving', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE');
    // time_frame is relative to the clock, so this total is never served from the totals cache.
    const pending = t.get('/v1/jobs/count?time_frame=3650d');
    // Wait until the request's backend is blocked on the lock, then kill it.
    let killed = 0;
    for (let i = 0; i < 50 && !killed; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const { rows } = await locker.query(
        `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
      );
      killed = rows.length;
    }
    await locker.query('ROLLBACK');
    expect(killed).toBeGreaterThan(0);
    const r = await pending;
    expect(r.statusCode).toBe(503);
    expect(r.json()).toEqual({ error: 'service unavailable', hint: expect.any(String) });
    expect(r.body).not.toMatch(/terminat|pg_|at \w+ \(/i);
    expect((await t.get('/v1/jobs/count?time_frame=3650d')).statusCode).toBe(200);
  });
});

describe('logs', () => {
  it('never show an API key, from the header or the query', async () => {
    lines.length = 0;
    await t.app.fastify.inject({ url: `/v1/meta?api_key=${t.key}` });
    await t.get('/v1/meta');
    const text = lines.join('');
    expect(text).toContain('/v1/meta');
    expect(text).toContain('api_key=[REDACTED]');
    expect(text).not.toContain(t.key);
    expect(text).not.toContain(t.key.slice(4, 30));
  });

  it('never show a key whose parameter name is percent-encoded, which authentication still accepts', async () => {
    const hex = t.key.slice(4);
    for (const name of ['api%5Fkey', '%61pi_key', '%61%70%69%5f%6b%65%79', 'api_k%65y']) {
      lines.length = 0;
      const r = await t.app.fastify.inject({ url: `/v1/meta?${name}=${t.key}` });
      expect(r.statusCode, name).toBe(200);
      const text = lines.join('');
      expect(text, name).toContain('[REDACTED]');
      expect(text, name).not.toContain(hex.slice(0, 24));
    }
    // A key anywhere else in the URL (a path, another parameter, percent-encoded) is not logged either.
    lines.length = 0;
    const enc = [...t.key].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join('');
    await t.get(`/v1/jobs/${t.key}`);
    await t.get(`/v1/jobs?title=${t.key}`);
    await t.get(`/v1/jobs?title=${enc}`);
    await t.get(`/v1/companies/${enc}`);
    const text = lines.join('');
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(hex.slice(0, 24));
    expect(text).not.toContain(enc.slice(12, 60));
  });

  it('log URLs are cut to 512 characters', async () => {
    lines.length = 0;
    await t.get(`/v1/jobs?organization=${'x'.repeat(190)}&city=${'y'.repeat(190)}&region=${'z'.repeat(190)}`);
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request');
    expect(line.url.length).toBeLessThan(540);
    expect(line.url).toMatch(/…\(\d+ chars\)$/);
  });
});
