// The varied mix alone against a running service, for A/B runs and profiles: empties shared_totals
// (start the service fresh: each process's own totals only empty with a restart), drives the varied mix
// for SECONDS (16 connections) and prints its figures as JSON; KINDS=a,b drives those kinds alone;
// TIMELINE=file writes every response as a line (wall-clock ms, kind, latency ms, status, path): where a stall was.
//   DATABASE_URL=<the bench database> [KINDS=facets] npx tsx bench/varied.ts http://127.0.0.1:PORT KEY [SECONDS=20]
import { createWriteStream } from 'node:fs';
import pg from 'pg';
import { drive } from './lib/drive.ts';
import { buildVariedKinds, sampleData } from './lib/mix.ts';

const [base, key, seconds] = process.argv.slice(2);
if (!base || !key) {
  process.stderr.write('usage: DATABASE_URL=… npx tsx bench/varied.ts BASE_URL KEY [SECONDS]\n');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const only = process.env.KINDS?.split(',');
const kinds = buildVariedKinds(await sampleData(pool)).filter((k) => !only || only.includes(k.name));
await pool.query('TRUNCATE shared_totals');
await pool.end();
const out = process.env.TIMELINE ? createWriteStream(process.env.TIMELINE) : undefined;
const figures = await drive(base, key, kinds, Number(seconds ?? 20), 16, (kind, ms, status, path) =>
  out?.write(`${Date.now()} ${kind} ${ms.toFixed(1)} ${status} ${path}\n`),
);
await new Promise((resolve) => (out ? out.end(resolve) : resolve(undefined)));
process.stdout.write(`${JSON.stringify(figures, null, 1)}\n`);
