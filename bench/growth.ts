// `npx tsx bench/growth.ts [options]`: the growth curve. Generates one dataset (one seed, no rounds), loads
// its base snapshot in parts into one embedded database, and after each part runs `npm run bench`'s
// measurement on what is loaded so far (bench/run.ts --reuse: a fresh service as `npm start` runs it, the
// varied mix, the fixed mix, the feed drain, memory). Each part is at least as large as what came before,
// so every part is a bulk load, as the first load of that size would be. Prints one table and writes it
// with a plot and the figures per row (per live job) extrapolated to 10M, labelled so.
//
//   --sizes A,B,C   cumulative lines of the dataset after each part (postings, and the company profiles
//                   the generator writes among them; default 475000,950000,1900000,3800000)
//   --seed S        generator seed (default 1)
//   --duration D    seconds per measurement (default 15), passed to bench/run.ts
//   --kinds K,…     kinds to drive alone at every size, passed to bench/run.ts
//   --resume        keep the dataset and the parts already loaded (state in the data directory)
//   --report FILE   only print and write the report of a run's state file (its growth.json)
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startEmbedded } from '../src/db/embedded.ts';
import { cli, finished, ROOT, spawnTs } from './lib/proc.ts';

const say = (msg: string) => process.stderr.write(`${msg}\n`);
const r1 = (x: number) => Math.round(x * 10) / 10;
const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const sizes = opt('sizes', '475000,950000,1900000,3800000').split(',').map(Number);
if (!sizes.every((s, i) => Number.isInteger(s) && s > 0 && (i === 0 || s >= 2 * sizes[i - 1]))) {
  say('--sizes: increasing integers, each at least twice the one before (every part a bulk load)');
  process.exit(2);
}
const seed = Number(opt('seed', '1'));
const duration = opt('duration', '15');
const kinds = opt('kinds', '');
const resume = argv.includes('--resume');
const jobs = sizes[sizes.length - 1];
// The directory bench/run.ts uses for --jobs <last size> --rounds 0, so that its --reuse finds this database.
const dataDir = path.join(ROOT, 'bench/data', `jobs-${jobs}-seed-${seed}-rounds-0`);
const datasetFile = path.join(dataDir, 'dataset', 'jobs.jsonl');
const stateFile = path.join(dataDir, 'growth.json');

interface Point {
  /** Lines of the dataset loaded so far. */
  lines: number;
  /** The commit the service measured ran (absent in older runs). */
  commit?: string;
  /** Postings among them (the report's inserted, updated, unchanged and rejected), so far. */
  postings: number;
  population: Record<string, number>;
  load: { lines: number; postings: number; seconds: number; postings_per_s: number };
  result: string;
  varied: { p50_ms: number; p99_ms: number; max_ms: number; rps: number; non2xx: number };
  fixed: { p50_ms: number; p99_ms: number; rps: number };
  kinds: Record<string, { p50_ms: number; p99_ms: number; rps: number }>;
  service_end_mb: number;
  /** The same as a proportional set size (the node binary's pages once over the processes); absent in older runs. */
  service_end_pss_mb?: number;
  service_processes_mb: number[];
  postgres_pss_mb: number | null;
  database_mb: number;
  match_index_file_mb: number | null;
}

/** Writes lines [from, to) of the dataset to `file`. */
async function part(from: number, to: number, file: string) {
  const out = createWriteStream(file);
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(datasetFile) })) {
    if (n >= to) break;
    if (n++ >= from && !out.write(`${line}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end(() => r()).once('error', j));
}

async function main() {
  const only = opt('report', '');
  if (only) {
    report((JSON.parse(readFileSync(only, 'utf8')) as { points: Point[] }).points);
    return;
  }
  const state: { points: Point[] } =
    resume && existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : { points: [] };
  if (!resume) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(path.dirname(datasetFile), { recursive: true });
  // At the end: about 11 KB of database a line, the WAL (16 GB at most) and the last part's file
  // (3.5 KB a line; the dataset is gone by then).
  const needGb = Math.round((jobs * 11e3 + 16e9 + (jobs - (sizes.at(-2) ?? 0)) * 3.5e3) / 1e9);
  const fs = statfsSync(dataDir);
  const freeGb = Math.round((fs.bavail * fs.bsize) / 1e9);
  if (!resume && freeGb < needGb)
    say(`warning: ${freeGb} GB free on the disk of ${dataDir}; this run wants about ${needGb} GB`);
  if (state.points.length < sizes.length && !existsSync(datasetFile)) {
    say(`generating ${jobs} lines (seed ${seed})…`);
    await cli(
      [
        'demo',
        'generate',
        '--jobs',
        String(jobs),
        '--seed',
        String(seed),
        '--out',
        path.dirname(datasetFile),
      ],
      {},
      false,
    );
  }
  if (state.points.length < sizes.length) await loadAndMeasure(state);
  report(state.points);
}

/** Each part not loaded yet: loaded, then measured. */
async function loadAndMeasure(state: { points: Point[] }) {
  const server = await startEmbedded(dataDir, 54_420);
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const env = { DATABASE_URL: server.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  try {
    await cli(['migrate'], env, false);
    for (let i = state.points.length; i < sizes.length; i++) {
      const from = i === 0 ? 0 : sizes[i - 1];
      const file = path.join(dataDir, `part-${i + 1}.jsonl`);
      await part(from, sizes[i], file);
      // The last part is written: the dataset's disk goes to the database (--resume generates it again).
      if (i === sizes.length - 1) rmSync(datasetFile);
      say(`loading lines ${from + 1}–${sizes[i]}…`);
      const t = performance.now();
      const out = await cli(['ingest', file, '--quiet'], env, false);
      const seconds = r1((performance.now() - t) / 1000);
      rmSync(file);
      const report = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
      const lines = sizes[i] - from;
      // Postings as bench/run.ts counts them: the company profiles among the lines are not.
      const postings = ['inserted', 'updated', 'unchanged', 'rejected'].reduce(
        (a, k) => a + Number(report[k] ?? 0),
        0,
      );
      say(
        `  ${lines} lines, ${postings} postings in ${seconds} s (${Math.round(postings / seconds)} postings/s): ${JSON.stringify({ ...report, rejections: undefined })}`,
      );

      say(`measuring at ${sizes[i]} lines…`);
      const args = [
        '--jobs',
        String(jobs),
        '--seed',
        String(seed),
        '--rounds',
        '0',
        '--reuse',
        '--quick',
        '--duration',
        duration,
      ];
      const bench = spawnTs('bench/run.ts', kinds ? [...args, '--kinds', kinds] : args, {});
      const { code, out: text } = await finished(bench, true);
      if (code !== 0) throw new Error(`bench/run.ts exited with ${code}`);
      process.stderr.write(text);
      const resultFile = /result: (\S+\.json)/.exec(text)?.[1];
      if (!resultFile) throw new Error('bench/run.ts printed no result file');
      const result = JSON.parse(readFileSync(path.join(ROOT, resultFile), 'utf8'));
      const kind = (name: string) => result.kinds.find((k: { kind: string }) => k.kind === name)?.service;
      const v = kind('varied mix');
      const f = kind('mix');
      const size = await pool.query<{ mb: number }>(
        'SELECT (pg_database_size(current_database()) / 1048576)::int AS mb',
      );
      const indexFile = path.join(dataDir, 'match-index.bin');
      state.points.push({
        lines: sizes[i],
        commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(),
        postings: (state.points.at(-1)?.postings ?? 0) + postings,
        population: result.dataset.population,
        load: { lines, postings, seconds, postings_per_s: Math.round(postings / seconds) },
        result: resultFile,
        varied: { p50_ms: v.p50_ms, p99_ms: v.p99_ms, max_ms: v.max_ms, rps: v.rps, non2xx: v.non2xx },
        fixed: { p50_ms: f.p50_ms, p99_ms: f.p99_ms, rps: f.rps },
        kinds: Object.fromEntries(
          result.kinds
            .filter((k: { kind: string }) => k.kind.endsWith('(varied)'))
            .map((k: { kind: string; service: Point['fixed'] }) => [
              k.kind,
              { p50_ms: k.service.p50_ms, p99_ms: k.service.p99_ms, rps: k.service.rps },
            ]),
        ),
        service_end_mb: result.memory.service.end_tree_rss_mb,
        service_end_pss_mb: result.memory.service.end_tree_pss_mb,
        service_processes_mb: result.memory.service.end_process_rss_mb,
        postgres_pss_mb: result.memory.postgres?.pss_mb ?? null,
        database_mb: size.rows[0].mb,
        match_index_file_mb: existsSync(indexFile) ? r1(statSync(indexFile).size / 2 ** 20) : null,
      });
      writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    }
  } finally {
    await pool.end();
    await server.stop();
  }
}

/** The table, the plot and the per-row extrapolation to 10M live jobs. */
function report(points: Point[]) {
  const live = (p: Point) => p.population.live ?? 0;
  const rows = points.map(
    (p) =>
      `| ${live(p).toLocaleString('en')} | ${p.commit ?? '–'} | ${p.postings.toLocaleString('en')} | ${p.load.postings_per_s} | ${p.varied.p50_ms} / ${p.varied.p99_ms} / ${p.varied.max_ms} | ${p.varied.non2xx} | ${p.fixed.p50_ms} / ${p.fixed.p99_ms} | ${p.service_end_mb} (${p.service_processes_mb.join(' + ')}); PSS ${p.service_end_pss_mb ?? '–'} | ${p.match_index_file_mb ?? '–'} | ${p.postgres_pss_mb ?? '–'} | ${p.database_mb.toLocaleString('en')} |`,
  );
  // Per live job between the smallest and the largest size: the slope, so fixed costs drop out.
  const a = points[0];
  const b = points[points.length - 1];
  const per = (f: (p: Point) => number) => (f(b) - f(a)) / (live(b) - live(a));
  const at10M = (f: (p: Point) => number) => Math.round(f(b) + per(f) * (10_000_000 - live(b)));
  // The proportional set size counts the pages the processes share once: what the service holds.
  const pss = points.every((p) => p.service_end_pss_mb !== undefined);
  const serviceMb = (p: Point) => (pss ? p.service_end_pss_mb! : p.service_end_mb);
  const lines = [
    '| live jobs | commit | postings loaded | load rate of the part (postings/s) | varied mix p50 / p99 / max ms | varied non-2xx | fixed mix p50 / p99 ms | service memory at the end MB (RSS of each process; proportional set size) | match index file MB | PostgreSQL PSS MB | database MB |',
    '|---:|---|---:|---:|---|---:|---|---|---:|---:|---:|',
    ...rows,
    '',
    `Extrapolated to 10M live jobs (linear in live jobs, from the slope between ${live(a).toLocaleString('en')} and ${live(b).toLocaleString('en')}; not measured):`,
    `service memory (${pss ? 'PSS' : 'RSS'}) ${at10M(serviceMb).toLocaleString('en')} MB (${r1(per(serviceMb) * 1e6)} MB per million), ` +
      `match index file ${at10M((p) => p.match_index_file_mb ?? 0).toLocaleString('en')} MB, database ${at10M((p) => p.database_mb).toLocaleString('en')} MB (${r1(per((p) => p.database_mb) * 1e6)} MB per million)`,
  ];
  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*/, 'Z');
  const dir = path.join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, `growth-${stamp}.json`),
    `${JSON.stringify({ machine: { cpus: os.availableParallelism(), cpu_model: os.cpus()[0]?.model }, points }, null, 2)}\n`,
  );
  writeFileSync(path.join(dir, `growth-${stamp}.md`), `${lines.join('\n')}\n`);
  writeFileSync(path.join(dir, `growth-${stamp}.svg`), plot(points));
  process.stdout.write(`${lines.join('\n')}\n\nwritten: bench/results/growth-${stamp}.{md,svg,json}\n`);
}

/** Three panels against live jobs: latency (varied mix p50, p99; fixed mix p50), the service's memory (and its index), PostgreSQL's (and the database / 4). */
function plot(points: Point[]): string {
  const W = 440;
  const H = 260;
  const xs = points.map((p) => p.population.live ?? 0);
  const xMax = Math.max(...xs) * 1.05;
  const panel = (x0: number, title: string, unit: string, series: [string, string, number[]][]) => {
    const yMax = Math.max(1, ...series.flatMap(([, , v]) => v)) * 1.1;
    const px = (x: number) => x0 + 50 + (x / xMax) * (W - 70);
    const py = (y: number) => H - 40 - (y / yMax) * (H - 80);
    const out = [
      `<text x="${x0 + W / 2}" y="20" text-anchor="middle" font-weight="bold">${title}</text>`,
      `<line x1="${px(0)}" y1="${py(0)}" x2="${px(xMax)}" y2="${py(0)}" stroke="#444"/>`,
      `<line x1="${px(0)}" y1="${py(0)}" x2="${px(0)}" y2="${py(yMax)}" stroke="#444"/>`,
      `<text x="${px(0) - 6}" y="${py(yMax) + 4}" text-anchor="end">${Math.round(yMax)}</text>`,
      `<text x="${px(0) - 6}" y="${py(0) + 4}" text-anchor="end">0 ${unit}</text>`,
      ...xs.map((x) => `<text x="${px(x)}" y="${H - 22}" text-anchor="middle">${r1(x / 1e6)}M</text>`),
      `<text x="${x0 + W / 2}" y="${H - 6}" text-anchor="middle">live jobs</text>`,
    ];
    series.forEach(([name, color, v], i) => {
      out.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2" points="${v.map((y, j) => `${px(xs[j])},${py(y)}`).join(' ')}"/>`,
      );
      out.push(...v.map((y, j) => `<circle cx="${px(xs[j])}" cy="${py(y)}" r="3" fill="${color}"/>`));
      out.push(`<text x="${px(0) + 8}" y="${40 + i * 14}" fill="${color}">${name}</text>`);
    });
    return out.join('\n');
  };
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${3 * W}" height="${H}" font-family="sans-serif" font-size="11">
<title>The growth curve: latency, the service's and PostgreSQL's memory against live jobs</title>
<rect width="100%" height="100%" fill="white"/>
${panel(0, 'Latency, 16 connections', 'ms', [
  ['varied mix p99', '#c0392b', points.map((p) => p.varied.p99_ms)],
  ['varied mix p50', '#e67e22', points.map((p) => p.varied.p50_ms)],
  ['fixed mix p50', '#2980b9', points.map((p) => p.fixed.p50_ms)],
])}
${panel(W, 'The service at the end', 'MB', [
  ['all processes (PSS, else RSS)', '#8e44ad', points.map((p) => p.service_end_pss_mb ?? p.service_end_mb)],
  ['match index (its saved file)', '#d35400', points.map((p) => p.match_index_file_mb ?? 0)],
])}
${panel(2 * W, 'PostgreSQL at the end', 'MB', [
  ['memory (PSS: shared buffers as touched)', '#16a085', points.map((p) => p.postgres_pss_mb ?? 0)],
  ['database on disk / 4', '#7f8c8d', points.map((p) => p.database_mb / 4)],
])}
</svg>
`;
}

try {
  await main();
} catch (err) {
  say(`growth failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
}
