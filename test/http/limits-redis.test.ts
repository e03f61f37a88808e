// The Redis limiter: window and quota with a fake clock, the store choice, and Redis outages (fail-open).
// Tests that need a Redis server are skipped unless REDIS_URL is set (locally: redis://127.0.0.1:6379).
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { KeyOwner } from '../../src/db/keys.ts';
import type { Db } from '../../src/db/pool.ts';
import { ApiError } from '../../src/errors.ts';
import { type App, buildApp } from '../../src/http/app.ts';
import { createLimiter, limiterHealth, PgLimiter, RedisLimiter } from '../../src/limiter/limiter.ts';
import { ensureDemoKey, prepareDatabase } from '../../src/service/setup.ts';
import { checkedApp } from '../helpers/conformance.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL)
  console.warn('limits-redis: REDIS_URL is not set; the tests against a live Redis are skipped');

let clock = Date.UTC(2026, 7, 31, 23, 59, 0);
const now = () => clock;
let ids = 1000;
const owner = (rate_limit: number, monthly_quota: number, account_id = ++ids): KeyOwner => ({
  key_id: ++ids,
  account_id,
  rate_limit,
  monthly_quota,
});

async function denial(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a 429');
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe.skipIf(!REDIS_URL)('Redis store', () => {
  const prefix = `jps-test-${randomBytes(4).toString('hex')}`;
  let limiter: RedisLimiter;
  beforeAll(async () => {
    limiter = await RedisLimiter.connect(REDIS_URL!, { now, prefix, log: () => {} });
  });
  afterAll(async () => {
    const keys = await limiter.redis.keys(`${prefix}:*`);
    if (keys.length) await limiter.redis.del(...keys);
    await limiter.close();
  });

  it('slides the window with the clock; Retry-After and Reset agree', async () => {
    const o = owner(3, 1000);
    const t0 = clock;
    clock = t0;
    expect(await limiter.take(o)).toEqual({ limit: 3, remaining: 2, reset: 60 });
    clock = t0 + 10_000;
    expect(await limiter.take(o)).toEqual({ limit: 3, remaining: 1, reset: 50 });
    clock = t0 + 20_000;
    expect(await limiter.take(o)).toEqual({ limit: 3, remaining: 0, reset: 40 });
    clock = t0 + 30_000;
    let e = await denial(limiter.take(o));
    expect(e.status).toBe(429);
    expect(e.body.error).toBe('rate limit exceeded');
    expect(e.headers).toMatchObject({
      'retry-after': '30',
      'x-ratelimit-reset': '30',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-limit': '3',
    });
    clock = t0 + 59_999;
    e = await denial(limiter.take(o));
    expect(e.headers['retry-after']).toBe('1');
    clock = t0 + 60_000;
    expect(await limiter.take(o)).toEqual({ limit: 3, remaining: 0, reset: 10 });
    clock = t0 + 200_000;
    expect(await limiter.take(o)).toEqual({ limit: 3, remaining: 2, reset: 60 });
  });

  it('denied requests take no slot and no quota', async () => {
    const o = owner(2, 1000);
    clock += 1000;
    const t0 = clock;
    await limiter.take(o);
    await limiter.take(o);
    for (let i = 0; i < 5; i++) await denial(limiter.take(o));
    expect((await limiter.usage(o.account_id, [o.key_id], clock)).account).toBe(2);
    clock = t0 + 60_000;
    expect((await limiter.take(o)).remaining).toBe(1);
  });

  it('exhausts the monthly quota per account (429 without Retry-After) and rolls over with the month', async () => {
    clock = Date.UTC(2026, 8, 30, 23, 59, 30);
    const a = owner(100, 3);
    const b = { ...owner(100, 3), account_id: a.account_id };
    await limiter.take(a);
    await limiter.take(b);
    await limiter.take(a);
    for (const o of [a, b]) {
      const e = await denial(limiter.take(o));
      expect(e.body).toEqual({
        error: 'monthly quota exhausted',
        hint: expect.stringContaining('2026-10-01T00:00:00Z'),
      });
      expect(e.headers['retry-after']).toBeUndefined();
      expect(e.headers['x-ratelimit-limit']).toBe('100');
    }
    expect(await limiter.usage(a.account_id, [a.key_id, b.key_id], clock)).toEqual({
      account: 3,
      keys: [2, 1],
    });
    clock = Date.UTC(2026, 9, 1, 0, 0, 0);
    expect((await limiter.take(a)).remaining).toBe(97);
    expect((await limiter.usage(a.account_id, [a.key_id], clock)).account).toBe(1);
  });

  it('is healthy', async () => {
    expect(await limiterHealth(limiter)).toEqual({ store: 'redis', status: 'ok' });
    expect(limiter.failingOpen).toBe(false);
  });

  it('fails open while Redis is away and restores the shared limits when it is back', async () => {
    // A TCP relay to Redis that the test can cut.
    const target = new URL(REDIS_URL!);
    const sockets = new Set<net.Socket>();
    let relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    const listen = (srv: net.Server, port: number) =>
      new Promise<void>((r) => srv.listen(port, '127.0.0.1', () => r()));
    await listen(relay, 0);
    const port = (relay.address() as net.AddressInfo).port;
    const logs: string[] = [];
    const l = await RedisLimiter.connect(`redis://127.0.0.1:${port}`, {
      now,
      prefix,
      log: (level, msg) => logs.push(`${level}: ${msg}`),
    });
    try {
      const o = owner(2, 1000);
      clock += 120_000;
      await l.take(o);
      expect(await l.healthy()).toBe(true);

      // Cut it: requests are still answered, under a per-process window.
      const handler = relay.listeners('connection')[0] as (s: net.Socket) => void;
      const closed = new Promise<void>((r) => relay.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
      const d = await l.take(o);
      expect(d).toMatchObject({ limit: 2, remaining: 1 });
      await l.take(o);
      await denial(l.take(o));
      expect(l.failingOpen).toBe(true);
      expect(await limiterHealth(l)).toEqual({ store: 'redis', status: 'unavailable', failing_open: true });
      expect(logs.filter((m) => m.startsWith('warn')).length).toBe(1);

      // Back: the shared window (which holds the one request taken before the cut) applies again.
      relay = net.createServer(handler);
      await listen(relay, port);
      await expect.poll(() => l.healthy(), { timeout: 10_000, interval: 100 }).toBe(true);
      await expect.poll(async () => (await l.take(o)).remaining, { timeout: 5_000, interval: 100 }).toBe(0);
      expect(l.failingOpen).toBe(false);
      expect(logs.some((m) => m.startsWith('info') && m.includes('available again'))).toBe(true);
    } finally {
      await l.close();
      const closed = new Promise<void>((r) => relay.close(() => r()));
      for (const s of sockets) s.destroy();
      await closed;
    }
  });
});

describe('Redis outage (REDIS_URL pointing at a closed port)', () => {
  let db: TestDb;
  let app: App;
  let limiter: RedisLimiter;
  let key: string;
  const logs: string[] = [];

  beforeAll(async () => {
    db = await createTestDb();
    await prepareDatabase(db);
    key = (await ensureDemoKey(db, db.config))!;
    await db.write.query("UPDATE accounts SET rate_limit = 3, monthly_quota = 1 WHERE name = 'demo'");
    const config = loadConfig({ DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    const started = Date.now();
    limiter = (await createLimiter(config, db, {
      now,
      log: (level, msg) => logs.push(`${level}: ${msg}`),
    })) as RedisLimiter;
    expect(Date.now() - started).toBeLessThan(5000);
    app = checkedApp(
      await buildApp({
        ctx: { db, config: db.config, cursorSecret: 's', version: '1.0.0', fullTextSearch: true },
        limiter,
        logger: false,
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('createLimiter gives the Redis limiter when REDIS_URL is set', () => {
    expect(limiter).toBeInstanceOf(RedisLimiter);
  });

  it('keeps serving: a per-process window with its headers, the quota not counted', async () => {
    clock += 120_000;
    const get = () => app.fastify.inject({ url: '/v1/meta', headers: { authorization: `Bearer ${key}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await get();
      statuses.push(res.statusCode);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
    }
    // Quota 1 is not enforced while Redis is away; the per-minute limit 3 still is, per process.
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await app.fastify.inject({ url: '/v1/health' })).statusCode).toBe(200);
  });

  it('says so in its logs (once, not per request) and in its health', async () => {
    expect(logs.filter((m) => m.startsWith('warn')).length).toBe(1);
    expect(logs[0]).toMatch(/redis unavailable.*failing open/);
    expect(await limiter.healthy()).toBe(false);
    expect(await limiterHealth(limiter)).toEqual({
      store: 'redis',
      status: 'unavailable',
      failing_open: true,
    });
  });
});

describe('store choice', () => {
  it('createLimiter gives the PostgreSQL limiter without REDIS_URL', async () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1:1/x' });
    const l = await createLimiter(config, { write: {} } as unknown as Db);
    expect(l).toBeInstanceOf(PgLimiter);
  });
});
