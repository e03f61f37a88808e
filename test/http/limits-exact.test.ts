// Exactness across processes: two worker processes hammer one key (and one account) in parallel through
// the shared store; the number admitted equals the limit exactly, on PostgreSQL and on Redis.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { runWorkers } from '../helpers/limiter-procs.ts';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('limits-exact: REDIS_URL is not set; the Redis exactness tests are skipped');

const NOW = String(Date.UTC(2026, 6, 15, 12, 0, 0));
const sum = (xs: { admitted: number }[]) => xs.reduce((a, x) => a + x.admitted, 0);

describe('exact across processes: PostgreSQL store', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
  });
  afterAll(async () => {
    await db?.drop();
  });

  const base = () => ({ STORE: 'pg', DATABASE_URL: db.url, NOW });

  it('admits exactly the per-minute limit when two processes hammer one key', async () => {
    const env = { ...base(), KEY_ID: '101', ACCOUNT_ID: '1', LIMIT: '150', QUOTA: '1000000', N: '300' };
    const counts = await runWorkers([env, env]);
    expect(sum(counts)).toBe(150);
    expect(counts.reduce((a, c) => a + c.rate, 0)).toBe(450);
    const { rows } = await db.write.query('SELECT sum(n)::int AS n FROM rate_hits WHERE key_id = 101');
    expect(rows[0].n).toBe(150);
  });

  it('admits exactly the monthly quota when two processes use two keys of one account', async () => {
    const common = { ...base(), ACCOUNT_ID: '2', LIMIT: '1000000', QUOTA: '170', N: '250' };
    const counts = await runWorkers([
      { ...common, KEY_ID: '201' },
      { ...common, KEY_ID: '202' },
    ]);
    expect(sum(counts)).toBe(170);
    expect(counts.reduce((a, c) => a + c.quota, 0)).toBe(330);
    const { rows } = await db.write.query(
      'SELECT (SELECT sum(n)::int FROM usage_account_month WHERE account_id = 2) AS account, (SELECT sum(n)::int FROM usage_key_month WHERE key_id IN (201, 202)) AS keys',
    );
    expect(rows[0]).toEqual({ account: 170, keys: 170 });
  });
});

describe.skipIf(!REDIS_URL)('exact across processes: Redis store', () => {
  const prefix = `jps-test-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    const { Redis } = await import('ioredis');
    const r = new Redis(REDIS_URL!);
    const keys = await r.keys(`${prefix}:*`);
    if (keys.length) await r.del(...keys);
    r.disconnect();
  });

  const base = () => ({ STORE: 'redis', REDIS_URL: REDIS_URL!, PREFIX: prefix, NOW });

  it('admits exactly the per-minute limit when two processes hammer one key', async () => {
    const env = { ...base(), KEY_ID: '101', ACCOUNT_ID: '1', LIMIT: '150', QUOTA: '1000000', N: '300' };
    const counts = await runWorkers([env, env]);
    expect(sum(counts)).toBe(150);
    expect(counts.reduce((a, c) => a + c.rate, 0)).toBe(450);
  });

  it('admits exactly the monthly quota when two processes use two keys of one account', async () => {
    const common = { ...base(), ACCOUNT_ID: '2', LIMIT: '1000000', QUOTA: '170', N: '250' };
    const counts = await runWorkers([
      { ...common, KEY_ID: '201' },
      { ...common, KEY_ID: '202' },
    ]);
    expect(sum(counts)).toBe(170);
    expect(counts.reduce((a, c) => a + c.quota, 0)).toBe(330);
  });
});
