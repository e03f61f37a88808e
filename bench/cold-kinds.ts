// The cold cost of each kind of the varied mix, one request at a time: empties shared_totals (each
// process's own cache only empties with a restart, so start the service fresh), then sends N varied
// requests of each kind in turn and prints the median and the maximum.
//   DATABASE_URL=<the bench database> npx tsx bench/cold-kinds.ts http://127.0.0.1:PORT KEY [N=8]
import pg from 'pg';
import { buildVariedKinds, sampleData } from './lib/mix.ts';

const [base, key, count] = process.argv.slice(2);
if (!base || !key) {
  process.stderr.write('usage: DATABASE_URL=… npx tsx bench/cold-kinds.ts BASE_URL KEY [N]\n');
  process.exit(2);
}
const n = Number(count ?? 8);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const kinds = buildVariedKinds(await sampleData(pool));
await pool.query('TRUNCATE shared_totals');
await pool.end();
for (const k of kinds) {
  // From the middle of the list: the varied mix of `npm run bench` starts at its head.
  const paths = k.paths.slice(Math.min(100, Math.max(0, k.paths.length - n))).slice(0, n);
  const ms: number[] = [];
  let failed = 0;
  for (const p of paths) {
    const t = performance.now();
    const res = await fetch(base + p, { headers: { authorization: `Bearer ${key}` } });
    await res.text();
    if (res.status !== 200) failed++;
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const f = (x: number) => x.toFixed(0).padStart(6);
  process.stdout.write(
    `${k.name.padEnd(16)} median ${f(ms[ms.length >> 1])} max ${f(ms[ms.length - 1])} ms  non-200 ${failed}  e.g. ${paths[0]}\n`,
  );
}
