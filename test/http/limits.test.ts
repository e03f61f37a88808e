// Rate limits and monthly quotas through the HTTP layer, on the PostgreSQL store, with a fake clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, ensureAccount } from '../../src/db/keys.ts';
import { purgeRateHits } from '../../src/db/usage.ts';
import { type App, buildApp } from '../../src/http/app.ts';
import { limiterHealth, PgLimiter } from '../../src/limiter/limiter.ts';
import { ensureDemoKey, prepareDatabase } from '../../src/service/setup.ts';
import { checkedApp } from '../helpers/conformance.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
let app: App;
let clock = Date.UTC(2026, 2, 10, 12, 0, 0);
const now = () => clock;
let accounts = 0;

beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
  await ensureDemoKey(db, db.config);
  app = checkedApp(
    await buildApp({
      ctx: { db, config: db.config, cursorSecret: 's', version: '1.0.0', fullTextSearch: true },
      limiter: new PgLimiter(db.write, now),
      logger: false,
    }),
  );
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

/** A new account with the given limits, and keys of it. */
async function account(rateLimit: number, quota: number, keys = 1): Promise<{ id: number; keys: string[] }> {
  const acc = await ensureAccount(db.write, `acct-${++accounts}`, rateLimit, quota);
  const out: string[] = [];
  for (let i = 0; i < keys; i++) out.push((await createKey(db.write, acc.id, db.config.KEY_PREFIX)).key);
  return { id: acc.id, keys: out };
}

const get = (url: string, key?: string) =>
  app.fastify.inject({ url, headers: key ? { authorization: `Bearer ${key}` } : {} });

function limits(res: { headers: Record<string, unknown> }) {
  const h = res.headers;
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(String(h[name]), name).toMatch(/^\d+$/);
  }
  return {
    limit: Number(h['x-ratelimit-limit']),
    remaining: Number(h['x-ratelimit-remaining']),
    reset: Number(h['x-ratelimit-reset']),
    retryAfter: h['retry-after'] === undefined ? undefined : Number(h['retry-after']),
  };
}

const usage = async (accountId: number) =>
  (
    await db.write.query<{ n: number }>(
      'SELECT coalesce(sum(n), 0)::int AS n FROM usage_account_month WHERE account_id = $1',
      [accountId],
    )
  ).rows[0].n;

describe('rate-limit headers', () => {
  it('are on every authenticated response, successes and errors, integers and consistent', async () => {
    const { keys } = await account(10, 1000);
    const urls = [
      ['/v1/jobs?limit=1', 200],
      ['/v1/jobs?bogus=1', 400],
      ['/v1/jobs/no-such-job', 404],
      ['/v1/companies/no-such-company', 404],
      ['/v1/meta', 200],
      ['/v1/jobs/count', 200],
      ['/v1/companies', 200],
    ] as const;
    let expected = 10;
    for (const [url, status] of urls) {
      clock += 1000;
      const res = await get(url, keys[0]);
      expect(res.statusCode, url).toBe(status);
      const l = limits(res);
      expect(l.limit).toBe(10);
      expect(l.remaining, url).toBe(--expected);
      // One request per second: the first one's slot frees 60 s after it was taken.
      expect(l.reset).toBe(60 - (10 - expected - 1));
      expect(l.retryAfter).toBeUndefined();
    }
  });

  it('are absent from 401s, health and the OpenAPI description', async () => {
    for (const url of ['/v1/jobs', '/v1/health', '/openapi.json']) {
      const res = await get(url);
      expect(res.headers['x-ratelimit-limit'], url).toBeUndefined();
    }
  });
});

describe('admission', () => {
  it('takes one statement on the primary: the key, the limiter step and the data version', async () => {
    const { keys } = await account(100, 1000);
    const { rows } = await db.read.query<{ id: string }>('SELECT id FROM jobs LIMIT 1');
    const url = rows.length ? `/v1/jobs/${rows[0].id}` : '/v1/jobs/no-such-job';
    const statements: string[] = [];
    const query = db.write.query.bind(db.write);
    db.write.query = ((...args: Parameters<typeof query>) => {
      const q = args[0] as string | { text: string };
      statements.push(typeof q === 'string' ? q : q.text);
      return query(...args);
    }) as typeof db.write.query;
    try {
      clock += 1000;
      const res = await get(url, keys[0]);
      expect([200, 404]).toContain(res.statusCode);
      expect(limits(res)).toMatchObject({ limit: 100, remaining: 99 });
    } finally {
      db.write.query = query;
    }
    // The batched last_used_at write runs on its own timer, not per request.
    const perRequest = statements.filter((q) => !q.includes('SET last_used_at'));
    expect(perRequest).toEqual(['SELECT * FROM api_admit_many($1, $2, $3, $4, $5)']);
  });

  it('sees a revocation on the very next request', async () => {
    const { id, keys } = await account(100, 1000);
    clock += 1000;
    expect((await get('/v1/meta', keys[0])).statusCode).toBe(200);
    await db.write.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [id]);
    expect((await get('/v1/meta', keys[0])).statusCode).toBe(401);
  });

  it('takes the requests of a key that arrive during its take as one, each with its own decision', async () => {
    const { id, keys } = await account(5, 7);
    const takes: number[] = [];
    const query = db.write.query.bind(db.write);
    db.write.query = ((...args: Parameters<typeof query>) => {
      const q = args[0] as { text?: string; values?: unknown[] };
      if (q.text?.includes('api_admit_many')) takes.push(Number(q.values?.[4]));
      return query(...args);
    }) as typeof db.write.query;
    let res: Awaited<ReturnType<typeof get>>[];
    try {
      clock += 1000;
      res = await Promise.all(Array.from({ length: 12 }, () => get('/v1/meta', keys[0])));
    } finally {
      db.write.query = query;
    }
    // The first request went alone; those that came while a take was in flight went together.
    expect(takes[0]).toBe(1);
    expect(takes.length).toBeLessThan(12);
    expect(takes.reduce((a, b) => a + b, 0)).toBe(12);
    // Admitted in the order they came, each seeing the window after itself; the rest refused by the window.
    expect(res.map((r) => r.statusCode)).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    expect(res.map((r) => limits(r).remaining)).toEqual([4, 3, 2, 1, 0, ...Array(7).fill(0)]);
    expect(res.slice(5).every((r) => limits(r).retryAfter === 60)).toBe(true);
    const stored = await db.write.query<{ hits: number; window: number }>(
      `SELECT (SELECT coalesce(sum(h.n), 0)::int FROM rate_hits h JOIN api_keys k ON k.id = h.key_id WHERE k.account_id = $1) AS hits,
              (SELECT count(*)::int FROM rate_hits h JOIN api_keys k ON k.id = h.key_id WHERE k.account_id = $1) AS rows,
              (SELECT coalesce(sum(w.n), 0)::int FROM rate_windows w JOIN api_keys k ON k.id = w.key_id WHERE k.account_id = $1) AS window`,
      [id],
    );
    // One window row per take that admitted any (with its count), not one per request.
    let left = 5;
    const admitting = takes.filter((n) => {
      const admitted = Math.min(n, left);
      left -= admitted;
      return admitted > 0;
    }).length;
    expect(stored.rows[0]).toEqual({ hits: 5, rows: admitting, window: 5 });
    expect(await usage(id)).toBe(5);

    // A minute later the window is empty and the quota (7) has 2 left: of a batch, 2 pass, the rest are
    // refused by the quota, which wins.
    clock += 61_000;
    res = await Promise.all(Array.from({ length: 6 }, () => get('/v1/meta', keys[0])));
    expect(res.map((r) => r.statusCode)).toEqual([200, 200, 429, 429, 429, 429]);
    expect(JSON.parse(res[5].body).error).toBe('monthly quota exhausted');
    expect(res[5].headers['retry-after']).toBeUndefined();
    expect(await usage(id)).toBe(7);
  });
});

describe('sliding window', () => {
  it('slides with the clock: Retry-After and Reset say when the oldest request leaves the window', async () => {
    const { keys } = await account(3, 1000);
    const t0 = clock;
    const at = async (offsetMs: number) => {
      clock = t0 + offsetMs;
      return get('/v1/meta', keys[0]);
    };
    let res = await at(0);
    expect(res.statusCode).toBe(200);
    expect(limits(res)).toMatchObject({ limit: 3, remaining: 2, reset: 60 });
    res = await at(10_000);
    expect(limits(res)).toMatchObject({ remaining: 1, reset: 50 });
    res = await at(20_000);
    expect(limits(res)).toMatchObject({ remaining: 0, reset: 40 });

    res = await at(30_000);
    expect(res.statusCode).toBe(429);
    expect(JSON.parse(res.body)).toEqual({ error: 'rate limit exceeded', hint: expect.any(String) });
    expect(limits(res)).toEqual({ limit: 3, remaining: 0, reset: 30, retryAfter: 30 });

    res = await at(59_999);
    expect(res.statusCode).toBe(429);
    expect(limits(res)).toMatchObject({ reset: 1, retryAfter: 1 });

    // At exactly 60 s the first request has left the window.
    res = await at(60_000);
    expect(res.statusCode).toBe(200);
    expect(limits(res)).toMatchObject({ remaining: 0, reset: 10 });

    res = await at(60_500);
    expect(res.statusCode).toBe(429);
    expect(limits(res)).toMatchObject({ reset: 10, retryAfter: 10 });

    // A quiet minute empties the window.
    res = await at(200_000);
    expect(limits(res)).toMatchObject({ remaining: 2, reset: 60 });
  });

  it('keeps the running count of a key equal to its window, through slides and the purge', async () => {
    const { id: accountId, keys } = await account(1000, 100_000);
    const keyId = (
      await db.write.query<{ id: number }>('SELECT id::int AS id FROM api_keys WHERE account_id = $1', [
        accountId,
      ])
    ).rows[0].id;
    const state = async () =>
      (
        await db.write.query<{ rows: number; n: number | null }>(
          `SELECT (SELECT coalesce(sum(n), 0)::int FROM rate_hits WHERE key_id = $1) AS rows,
                  (SELECT n FROM rate_windows WHERE key_id = $1) AS n`,
          [keyId],
        )
      ).rows[0];
    // The requests stored in the window that ends at `at`.
    const inWindow = async (at: number) =>
      (
        await db.write.query<{ n: number }>(
          'SELECT coalesce(sum(n), 0)::int AS n FROM rate_hits WHERE key_id = $1 AND at_ms > $2',
          [keyId, at - 60_000],
        )
      ).rows[0].n;
    const t0 = clock;
    for (const offset of [0, 1, 2, 30_000, 30_001, 60_001, 60_002, 95_000]) {
      clock = t0 + offset;
      const res = await get('/v1/meta', keys[0]);
      expect(res.statusCode).toBe(200);
      const n = await inWindow(clock);
      expect((await state()).n).toBe(n);
      expect(limits(res).remaining).toBe(1000 - n);
    }
    // Takes subtract the rows that left the window without deleting them (a delete at every take left
    // dead index entries for the next to walk): all eight are stored, and the window holds the requests
    // at 60,001, 60,002 and 95,000.
    expect(await state()).toEqual({ rows: 8, n: 3 });
    // The purge covers every key (other tests left rows too): it removes exactly the stale rows, and
    // every key's count still equals its rows.
    const purge = async (at: number) => {
      const stale = (
        await db.write.query<{ n: number }>(
          'SELECT coalesce(sum(n), 0)::int AS n FROM rate_hits WHERE at_ms <= $1',
          [at - 60_000],
        )
      ).rows[0].n;
      expect(await purgeRateHits(db.write, at)).toBe(stale);
      const { rows } = await db.write.query(
        `SELECT w.key_id FROM rate_windows w FULL JOIN (SELECT key_id, sum(n)::int AS c FROM rate_hits GROUP BY key_id) h
           USING (key_id) WHERE w.n IS DISTINCT FROM h.c`,
      );
      expect(rows).toEqual([]);
    };
    await purge(t0 + 120_002);
    expect(await state()).toEqual({ rows: 1, n: 1 });
    await purge(t0 + 155_000);
    expect(await state()).toEqual({ rows: 0, n: null });
    clock = t0 + 156_000;
    expect(limits(await get('/v1/meta', keys[0])).remaining).toBe(999);
  });

  it('is per key: two keys of one account have a window each', async () => {
    const { keys } = await account(1, 1000, 2);
    clock += 1000;
    expect((await get('/v1/meta', keys[0])).statusCode).toBe(200);
    expect((await get('/v1/meta', keys[0])).statusCode).toBe(429);
    expect((await get('/v1/meta', keys[1])).statusCode).toBe(200);
  });

  it('denied requests take no window slot and no quota', async () => {
    const acc = await account(2, 1000);
    clock += 1000;
    const t0 = clock;
    for (let i = 0; i < 10; i++) await get('/v1/meta', acc.keys[0]);
    expect(await usage(acc.id)).toBe(2);
    // Had the 8 denied requests taken slots, the window would still be full 60 s after the first two.
    clock = t0 + 60_000;
    const res = await get('/v1/meta', acc.keys[0]);
    expect(res.statusCode).toBe(200);
    expect(limits(res).remaining).toBe(1);
  });

  it('metadata and 404 look-ups count; health and the OpenAPI description never do', async () => {
    const { keys } = await account(2, 1000);
    clock += 1000;
    for (let i = 0; i < 30; i++) {
      expect((await get('/v1/health')).statusCode).toBe(200);
      expect((await get('/openapi.json')).statusCode).toBe(200);
      expect((await get(`/v1/health?api_key=${keys[0]}`)).statusCode).toBe(200);
    }
    expect((await get('/v1/jobs/not-there', keys[0])).statusCode).toBe(404);
    expect((await get('/v1/meta', keys[0])).statusCode).toBe(200);
    const res = await get('/v1/jobs/not-there', keys[0]);
    expect(res.statusCode).toBe(429);
    expect((await get('/v1/health')).statusCode).toBe(200);
  });

  it('a lowered limit applies on the next request', async () => {
    const acc = await account(5, 1000);
    clock += 1000;
    for (let i = 0; i < 3; i++) await get('/v1/meta', acc.keys[0]);
    await db.write.query('UPDATE accounts SET rate_limit = 2 WHERE id = $1', [acc.id]);
    const res = await get('/v1/meta', acc.keys[0]);
    expect(res.statusCode).toBe(429);
    expect(limits(res)).toMatchObject({ limit: 2, remaining: 0 });
  });
});

describe('monthly quota', () => {
  it('is exhausted: 429 without Retry-After, its own body, the window headers still present', async () => {
    const acc = await account(100, 3, 2);
    clock = Date.UTC(2026, 3, 30, 23, 59, 0);
    expect((await get('/v1/meta', acc.keys[0])).statusCode).toBe(200);
    expect((await get('/v1/meta', acc.keys[1])).statusCode).toBe(200);
    expect((await get('/v1/jobs/none', acc.keys[0])).statusCode).toBe(404);
    for (const key of acc.keys) {
      const res = await get('/v1/meta', key);
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeUndefined();
      const body = JSON.parse(res.body);
      expect(body).toEqual({
        error: 'monthly quota exhausted',
        hint: expect.stringContaining('2026-05-01T00:00:00Z'),
      });
      const l = limits(res);
      expect(l.limit).toBe(100);
      expect(l.remaining).toBe(key === acc.keys[0] ? 98 : 99);
    }
    expect(await usage(acc.id)).toBe(3);
  });

  it('rolls over at the start of the calendar month (UTC)', async () => {
    const acc = await account(100, 2);
    clock = Date.UTC(2026, 4, 31, 23, 59, 59, 500);
    await get('/v1/meta', acc.keys[0]);
    await get('/v1/meta', acc.keys[0]);
    expect((await get('/v1/meta', acc.keys[0])).statusCode).toBe(429);
    clock = Date.UTC(2026, 5, 1, 0, 0, 0);
    const res = await get('/v1/meta', acc.keys[0]);
    expect(res.statusCode).toBe(200);
    // The window does not roll over with the month: the two May requests are still in it.
    expect(limits(res).remaining).toBe(97);
    const { rows } = await db.write.query<{ month: string; n: number }>(
      `SELECT to_char(month, 'YYYY-MM') AS month, n::int AS n FROM usage_account_month WHERE account_id = $1 ORDER BY month`,
      [acc.id],
    );
    expect(rows).toEqual([
      { month: '2026-05', n: 2 },
      { month: '2026-06', n: 1 },
    ]);
  });

  it('takes precedence over the per-minute limit when both are reached', async () => {
    const acc = await account(1, 1);
    clock += 120_000;
    expect((await get('/v1/meta', acc.keys[0])).statusCode).toBe(200);
    const res = await get('/v1/meta', acc.keys[0]);
    expect(res.statusCode).toBe(429);
    expect(JSON.parse(res.body).error).toBe('monthly quota exhausted');
  });

  it('usage survives a restart: a new limiter on the same database sees it', async () => {
    const acc = await account(100, 2);
    clock += 120_000;
    await get('/v1/meta', acc.keys[0]);
    await get('/v1/meta', acc.keys[0]);
    const again = checkedApp(
      await buildApp({
        ctx: { db, config: db.config, cursorSecret: 's', version: '1.0.0', fullTextSearch: true },
        limiter: new PgLimiter(db.write, now),
        logger: false,
      }),
    );
    try {
      const res = await again.fastify.inject({
        url: '/v1/meta',
        headers: { authorization: `Bearer ${acc.keys[0]}` },
      });
      expect(res.statusCode).toBe(429);
    } finally {
      await again.close();
    }
  });
});

describe('PostgreSQL store health', () => {
  it('reports the store and its state', async () => {
    expect(await limiterHealth(new PgLimiter(db.write, now))).toEqual({ store: 'postgres', status: 'ok' });
  });
});
