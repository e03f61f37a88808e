// A worker process of the exactness tests: builds a limiter on the shared store, waits for "go" on
// stdin, calls take() N times with a few in flight, prints {"admitted", "rate", "quota"}.
// env: STORE (pg | redis), DATABASE_URL or REDIS_URL, PREFIX, KEY_ID, ACCOUNT_ID, LIMIT, QUOTA, N, NOW.
import { createInterface } from 'node:readline';
import pg from 'pg';
import { ApiError } from '../../src/errors.ts';
import type { Limiter } from '../../src/limiter/limits.ts';
import { PgLimiter, RedisLimiter } from '../../src/limiter/limiter.ts';

const env = process.env;
const now = () => Number(env.NOW);
const owner = {
  key_id: Number(env.KEY_ID),
  account_id: Number(env.ACCOUNT_ID),
  rate_limit: Number(env.LIMIT),
  monthly_quota: Number(env.QUOTA),
};
const n = Number(env.N);
const inFlight = 8;

let pool: pg.Pool | undefined;
let limiter: Limiter;
if (env.STORE === 'redis') {
  limiter = await RedisLimiter.connect(env.REDIS_URL!, { now, prefix: env.PREFIX, log: () => {} });
  if (!(await limiter.healthy())) throw new Error('redis unavailable');
} else {
  pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: inFlight });
  await Promise.all(Array.from({ length: inFlight }, () => pool!.query('SELECT 1')));
  limiter = new PgLimiter(pool, now);
}

process.stdout.write('ready\n');
const rl = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => rl.once('line', () => resolve()));
rl.close();

const counts = { admitted: 0, rate: 0, quota: 0 };
let next = 0;
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next < n) {
      next++;
      try {
        await limiter.take(owner);
        counts.admitted++;
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 429) throw err;
        if (err.body.error === 'rate limit exceeded') counts.rate++;
        else counts.quota++;
      }
    }
  }),
);
process.stdout.write(`${JSON.stringify(counts)}\n`);
await limiter.close();
await pool?.end();
