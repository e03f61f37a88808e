// Where PostgreSQL's time goes under a load: samples the active statements of the database every 5 ms
// (pg_stat_activity, this sampler's own left out) for SECONDS and prints each statement's share of the
// samples, most first. Run it beside a load, e.g. bench/varied.ts against a fresh service.
//   DATABASE_URL=<the database> npx tsx bench/pg-activity.ts [SECONDS=20]
import pg from 'pg';

const seconds = Number(process.argv[2] ?? 20);
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
const counts = new Map<string, number>();
let samples = 0;
let active = 0;
const end = Date.now() + seconds * 1000;
while (Date.now() < end) {
  const { rows } = await client.query<{ q: string }>(
    `SELECT left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q FROM pg_stat_activity
      WHERE state = 'active' AND datname = current_database() AND pid <> pg_backend_pid()`,
  );
  samples++;
  for (const { q } of rows) {
    counts.set(q, (counts.get(q) ?? 0) + 1);
    active++;
  }
  await new Promise((r) => setTimeout(r, 5));
}
await client.end();
process.stdout.write(`${samples} samples, ${active} active statements seen\n`);
for (const [q, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 30))
  process.stdout.write(`${((100 * n) / active).toFixed(1).padStart(5)} %  ${q}\n`);
