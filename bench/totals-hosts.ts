// How many counts a cold total costs with several hosts: starts HOSTS service instances (src/main.ts of
// APP_ROOT, WORKERS workers each) on DATABASE_URL, reads on DATABASE_READ_URL, sends CONCURRENCY requests
// at once for each cold filter, spread over the hosts, and counts the COUNT statements the read server
// executed (pg_stat_statements, which must be loaded there: scripts/replica.sh loads it).
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/db DATABASE_READ_URL=postgres://postgres@127.0.0.1:5433/db \
//   [APP_ROOT=checkout] [HOSTS=2] [WORKERS=2] [CONCURRENCY=16] [PORT_BASE=18310] npx tsx bench/totals-hosts.ts
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { createKey } from '../src/db/keys.ts';

const env = process.env;
const primaryUrl = env.DATABASE_URL!;
const readUrl = env.DATABASE_READ_URL!;
const root = path.resolve(env.APP_ROOT ?? path.join(import.meta.dirname, '..'));
const hosts = Number(env.HOSTS ?? 2);
const workers = Number(env.WORKERS ?? 2);
const concurrency = Number(env.CONCURRENCY ?? 16);
const portBase = Number(env.PORT_BASE ?? 18310);
const FILTERS = [
  'country=US',
  'title=engineer',
  'remote=true',
  'country=GB&collapse=true',
  'description=experience',
];

async function startHost(port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      ...env,
      DATABASE_URL: primaryUrl,
      DATABASE_READ_URL: readUrl,
      PORT: String(port),
      WORKERS: String(workers),
      POOL_MAX: '4',
      DEMO_DATA: 'false',
      // One account stands for many clients: keep the expensive-work gate out of the count.
      EXPENSIVE_PER_PROCESS: '1000',
      EXPENSIVE_PER_ACCOUNT: '1000',
      LOG_LEVEL: 'warn',
    },
  });
  let err = '';
  child.stdout.resume();
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (c) => {
      err += String(c);
      if (/listening on/.test(err)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`host exited with ${code}: ${err}`)));
  });
  return child;
}

const primary = new pg.Pool({ connectionString: primaryUrl, max: 2 });
const read = new pg.Pool({ connectionString: readUrl, max: 2 });
await primary.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
const { rows } = await primary.query<{ id: number }>(
  `INSERT INTO accounts (name, rate_limit, monthly_quota) VALUES ('bench-hosts', 10000000, 2000000000)
   ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id::int`,
);
const key = (await createKey(primary, rows[0].id, 'jps_')).key;
const version = async () => (await primary.query('SELECT version FROM data_version')).rows[0].version;
// Every trial starts cold: a new data version (nothing cached anywhere is valid for it).
await primary.query('UPDATE data_version SET version = version + 1');
const target = await version();
for (;;) {
  const r = await read.query('SELECT version FROM data_version');
  if (Number(r.rows[0].version) === Number(target)) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}

const children = await Promise.all(Array.from({ length: hosts }, (_, i) => startHost(portBase + i)));
const results: { filter: string; counts: number; statuses: number[]; ms: number }[] = [];
try {
  for (const filter of FILTERS) {
    await read.query('SELECT pg_stat_statements_reset()');
    const t0 = Date.now();
    const statuses = await Promise.all(
      Array.from({ length: concurrency }, async (_, i) => {
        const res = await fetch(`http://127.0.0.1:${portBase + (i % hosts)}/v1/jobs?${filter}&limit=10`, {
          headers: { authorization: `Bearer ${key}` },
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const ms = Date.now() - t0;
    // Counts of the filter (and of the whole live population, which the page plan also uses).
    const c = await read.query<{ calls: number }>(
      `SELECT coalesce(sum(calls), 0)::int AS calls FROM pg_stat_statements
        WHERE query ~* '^\\s*SELECT count\\(' AND query ILIKE '%FROM jobs j%'`,
    );
    results.push({ filter, counts: c.rows[0].calls, statuses: [...new Set(statuses)], ms });
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  await primary.query(
    "DELETE FROM api_keys WHERE account_id = (SELECT id FROM accounts WHERE name = 'bench-hosts')",
  );
  await primary.end();
  await read.end();
}
console.log(JSON.stringify({ root, hosts, workers, concurrency, results }, null, 2));
