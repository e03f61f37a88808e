// Cost per request of the limiter: take() on each store, next to a no-op limiter measured in the same run.
//   node --import tsx bench/limiter.ts [--requests N] [--concurrency C] [--keys K]
// PostgreSQL: DATABASE_URL (a scratch database is created on that server and dropped), else an embedded
// cluster in a temporary directory. Redis: REDIS_URL (skipped when unset; keys under a scratch prefix).
// Figures: sequential latency (p50/p99 in µs, one call at a time) and throughput (requests/s with C calls
// in flight). Every call is admitted (100 keys, generous limits), the common case.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { KeyOwner } from '../src/db/keys.ts';
import { migrate } from '../src/db/migrations.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import type { LimitDecision, Limiter } from '../src/limiter/limits.ts';
import { MemoryLimiter, PgLimiter, RedisLimiter } from '../src/limiter/limiter.ts';

const say = (msg: string) => process.stderr.write(`${msg}\n`);
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const REQUESTS = arg('requests', 5000);
const CONCURRENCY = arg('concurrency', 16);
const KEYS = arg('keys', 100);

class NoopLimiter implements Limiter {
  readonly store = 'none';
  async take(owner: KeyOwner): Promise<LimitDecision> {
    return { limit: owner.rate_limit, remaining: owner.rate_limit - 1, reset: 60 };
  }
  async healthy() {
    return true;
  }
  async close() {}
}

const owners: KeyOwner[] = Array.from({ length: KEYS }, (_, i) => ({
  key_id: 1_000_000 + i,
  account_id: 1_000_000 + (i % 10),
  rate_limit: 10_000_000,
  monthly_quota: 2_000_000_000,
}));

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface Row {
  store: string;
  seq_p50_us: number;
  seq_p99_us: number;
  seq_rps: number;
  conc_rps: number;
  conc_p50_us: number;
  conc_p99_us: number;
}

async function measure(store: string, limiter: Limiter): Promise<Row> {
  for (let i = 0; i < Math.min(500, REQUESTS); i++) await limiter.take(owners[i % KEYS]);
  // Sequential: one call at a time.
  const lat: number[] = [];
  let t0 = process.hrtime.bigint();
  for (let i = 0; i < REQUESTS; i++) {
    const s = process.hrtime.bigint();
    await limiter.take(owners[i % KEYS]);
    lat.push(Number(process.hrtime.bigint() - s) / 1000);
  }
  const seqSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  lat.sort((a, b) => a - b);
  // Concurrent: C calls in flight.
  const clat: number[] = [];
  let next = 0;
  t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        const s = process.hrtime.bigint();
        await limiter.take(owners[i % KEYS]);
        clat.push(Number(process.hrtime.bigint() - s) / 1000);
      }
    }),
  );
  const concSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
  clat.sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return {
    store,
    seq_p50_us: r(pct(lat, 50)),
    seq_p99_us: r(pct(lat, 99)),
    seq_rps: Math.round(REQUESTS / seqSeconds),
    conc_rps: Math.round(REQUESTS / concSeconds),
    conc_p50_us: r(pct(clat, 50)),
    conc_p99_us: r(pct(clat, 99)),
  };
}

const cleanup: (() => Promise<void>)[] = [];
try {
  // PostgreSQL: a scratch database.
  let base = process.env.DATABASE_URL;
  if (!base) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-bench-limiter-'));
    await fs.chmod(dir, 0o755);
    const server = await startEmbedded(dir, 55442);
    cleanup.push(async () => {
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
    });
    base = server.url;
  }
  const name = `bench_limiter_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  cleanup.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: CONCURRENCY });
  pool.on('error', () => {});
  cleanup.push(() => pool.end());
  await migrate(pool);

  const rows: Row[] = [];
  say(`limiter bench: ${REQUESTS} calls per phase, ${CONCURRENCY} in flight, ${KEYS} keys`);
  rows.push(await measure('none (baseline)', new NoopLimiter()));
  rows.push(await measure('memory (one process)', new MemoryLimiter()));
  rows.push(await measure('postgres', new PgLimiter(pool)));
  if (process.env.REDIS_URL) {
    const prefix = `jps-bench-${randomBytes(4).toString('hex')}`;
    const redis = await RedisLimiter.connect(process.env.REDIS_URL, { prefix });
    cleanup.push(async () => {
      const keys = await redis.redis.keys(`${prefix}:*`);
      for (let i = 0; i < keys.length; i += 500) await redis.redis.del(...keys.slice(i, i + 500));
      await redis.close();
    });
    if (!(await redis.healthy())) throw new Error(`redis at ${process.env.REDIS_URL} does not answer`);
    rows.push(await measure('redis', redis));
  } else say('REDIS_URL is not set: the Redis store is skipped');

  const head = ['store', 'seq p50 µs', 'seq p99 µs', 'seq req/s', 'conc req/s', 'conc p50 µs', 'conc p99 µs'];
  const cells = rows.map((r) => [
    r.store,
    String(r.seq_p50_us),
    String(r.seq_p99_us),
    String(r.seq_rps),
    String(r.conc_rps),
    String(r.conc_p50_us),
    String(r.conc_p99_us),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) =>
    c.map((x, i) => (i === 0 ? x.padEnd(widths[i]) : x.padStart(widths[i]))).join('  ');
  say(line(head));
  for (const c of cells) say(line(c));
  process.stdout.write(
    `${JSON.stringify({ requests: REQUESTS, concurrency: CONCURRENCY, node: process.version, cpus: os.availableParallelism(), rows })}\n`,
  );
} finally {
  for (const fn of cleanup.reverse()) await fn().catch((e) => say(`cleanup: ${(e as Error).message}`));
}
