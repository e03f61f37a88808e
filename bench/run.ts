// `npm run bench`: generate (or reuse) a dataset, load it, start the service, drive it over loopback with a
// fixed mix of realistic requests, and compare every figure with a bare node:http baseline serving the
// same bytes. See bench/README.md.
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SETTING_NAMES } from '../src/config.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { WORKER_MALLOC_ENV } from '../src/service/supervisor.ts';
import { parseOptions, USAGE } from './lib/args.ts';
import { type Drain, drainInChild } from './lib/drain.ts';
import { drive } from './lib/drive.ts';
import { buildKinds, buildVariedKinds, type Kind, pickParameters, sampleData } from './lib/mix.ts';
import {
  buildService,
  cli,
  freePort,
  postgresMemory,
  ROOT,
  rssSampler,
  SERVICE_ENTRY,
  SERVICE_ENV,
  SERVICE_NODE_FLAGS,
  startServer,
} from './lib/proc.ts';
import { waitForAutoprewarm } from './lib/prewarm.ts';
import { type KindResult, svg, table } from './lib/report.ts';

const say = (msg: string) => process.stderr.write(`${msg}\n`);
const r1 = (x: number) => Math.round(x * 10) / 10;
const load = () => os.loadavg().map(r1);

let opts: ReturnType<typeof parseOptions>;
try {
  opts = parseOptions(process.argv.slice(2));
} catch (err) {
  say(`${(err as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

const startedAt = new Date();
const loadStart = load();
const dataDir = path.join(ROOT, 'bench/data', `jobs-${opts.jobs}-seed-${opts.seed}-rounds-${opts.rounds}`);
const datasetDir = path.join(dataDir, 'dataset');
const files = [
  path.join(datasetDir, 'jobs.jsonl'),
  ...Array.from({ length: opts.rounds }, (_, i) => path.join(datasetDir, `round-${i + 1}.jsonl`)),
];
const exists = (f: string) => {
  try {
    statSync(f);
    return true;
  } catch {
    return false;
  }
};

say(
  `bench: ${opts.jobs} jobs, seed ${opts.seed}, ${opts.rounds} round(s); load average ${loadStart.join(' ')}`,
);
if (!opts.reuse && !opts.databaseUrl) rmSync(path.join(dataDir, 'pg'), { recursive: true, force: true });
mkdirSync(datasetDir, { recursive: true });

const cleanup: (() => Promise<void>)[] = [];
async function shutdown() {
  for (const fn of cleanup.reverse()) await fn().catch((e) => say(`cleanup: ${(e as Error).message}`));
}
process.on('SIGINT', () => void shutdown().then(() => process.exit(130)));

/** The embedded server's memory at the end (`postgresMemory`), with its shared buffers and where they are. */
async function embeddedMemory(pool: pg.Pool, hugePages: string) {
  const { rows } = await pool.query<{ pid: number; shared_buffers: string }>(
    'SELECT pg_backend_pid() AS pid, current_setting($1) AS shared_buffers',
    ['shared_buffers'],
  );
  return { ...postgresMemory(rows[0].pid), shared_buffers: rows[0].shared_buffers, huge_pages: hugePages };
}

async function main() {
  // 1. The dataset.
  let generation: { seconds: number; postings_per_s: number; bytes: number } | null = null;
  if (!opts.reuse || !files.every(exists)) {
    say('generating the dataset…');
    const t = performance.now();
    const out = JSON.parse(
      await cli(
        [
          'demo',
          'generate',
          '--jobs',
          String(opts.jobs),
          '--seed',
          String(opts.seed),
          '--rounds',
          String(opts.rounds),
          '--out',
          datasetDir,
        ],
        {},
        false,
      ),
    ) as { postings: number; files: { bytes: number }[] };
    const seconds = (performance.now() - t) / 1000;
    generation = {
      seconds: r1(seconds),
      postings_per_s: Math.round(out.postings / seconds),
      bytes: out.files.reduce((a, f) => a + f.bytes, 0),
    };
    say(`generated ${out.postings} postings in ${r1(seconds)} s`);
  }

  // 2. The database.
  let url = opts.databaseUrl;
  if (!url) {
    const server = await startEmbedded(dataDir, 54_420);
    cleanup.push(() => server.stop());
    url = server.url;
  }
  const env = { DATABASE_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  await cli(['migrate'], env, false);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  cleanup.push(() => pool.end());
  const count = async () =>
    (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs')).rows[0].n;
  const before = await count();
  if (before > 0 && !opts.reuse)
    throw new Error(`the database already holds ${before} jobs: pass --reuse to benchmark them, or empty it`);

  // 3. The load: the base snapshot (the load rate), then the rounds.
  const loads: { file: string; seconds: number; lines: number; report: Record<string, unknown> }[] = [];
  const loadFile = async (file: string) => {
    say(`loading ${path.basename(file)}…`);
    const t = performance.now();
    const out = await cli(['ingest', file, '--quiet'], env, false);
    const seconds = (performance.now() - t) / 1000;
    const report = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
    delete report.rejections;
    const lines = ['inserted', 'updated', 'unchanged', 'rejected'].reduce(
      (a, k) => a + Number(report[k] ?? 0),
      0,
    );
    loads.push({ file: path.basename(file), seconds: r1(seconds), lines, report });
    say(
      `  ${lines} postings in ${r1(seconds)} s (${Math.round(lines / seconds)}/s): ${JSON.stringify(report)}`,
    );
  };
  // With --mix-during-round the rounds load later, under the mix (step 8b); with --reuse too, on top of
  // the reused database (which must then hold the base snapshot only).
  const later = opts.mixDuringRound && (before === 0 || opts.reuse) ? files.slice(1) : [];
  if (before === 0) {
    for (const file of files.slice(0, files.length - later.length)) await loadFile(file);
  } else say(`reusing the database: ${before} jobs`);
  // The base snapshot's load, when this run made it; every later load is a round.
  const base = before === 0 ? loads[0] : undefined;
  const rounds = () => loads.filter((l) => l !== base);
  const loaderRate = base ? Math.round(base.lines / base.seconds) : null;
  const t = performance.now();
  await pool.query('VACUUM (ANALYZE)');
  const vacuumSeconds = r1((performance.now() - t) / 1000);
  const { rows: popRows } = await pool.query<{ state: number; n: number }>(
    'SELECT state, count(*)::int AS n FROM jobs GROUP BY state ORDER BY state',
  );
  const population = Object.fromEntries(popRows.map((r) => [['live', 'expired', 'folded'][r.state], r.n]));
  const pgVersion = (await pool.query<{ server_version: string }>('SHOW server_version')).rows[0]
    .server_version;
  // Whether PostgreSQL's shared memory is in huge pages (the OS must reserve them): without them every new
  // backend faults in each buffer it touches, which doubles the cost of a cold count (bench/README.md).
  const hugePages = (
    await pool.query<{ huge_pages_status: string }>('SHOW huge_pages_status').catch(() => ({
      rows: [{ huge_pages_status: 'unknown' }],
    }))
  ).rows[0].huge_pages_status;
  say(`population ${JSON.stringify(population)}; VACUUM (ANALYZE) ${vacuumSeconds} s`);

  // 4. A key without practical limits, so the limiter admits everything (it still runs on every request).
  try {
    await cli(
      ['accounts', 'create', 'bench', '--rate-limit', '10000000', '--monthly-quota', '2000000000'],
      env,
      false,
    );
  } catch {
    await cli(
      ['accounts', 'set-limits', 'bench', '--rate-limit', '10000000', '--monthly-quota', '2000000000'],
      env,
      false,
    );
  }
  for (const line of (await cli(['keys', 'list', '--account', 'bench'], env, false)).split('\n')) {
    if (!line.trim()) continue;
    const k = JSON.parse(line) as { id: number; revoked_at: string | null };
    if (!k.revoked_at) await cli(['keys', 'revoke', String(k.id)], env, false);
  }
  const key = (await cli(['keys', 'create', '--account', 'bench'], env, false)).trim();

  // 5. Parameters and request kinds.
  const sample = await sampleData(pool);
  const picks = pickParameters(sample);
  const kinds = buildKinds(picks);
  const varied = buildVariedKinds(sample).filter((k) => !opts.skip.includes(k.name));
  const { ids, ...shown } = picks;
  say(`parameters: ${JSON.stringify(shown)} (+${ids.length} ids)`);
  say(`varied mix: ${varied.map((k) => `${k.name} ${k.paths.length}`).join(', ')} distinct requests`);
  say(
    `varied mix: description words ${Math.min(100, sample.descriptionWords.length)} (most common: ${sample.descriptionWords.slice(0, 5).join(', ')}), title words ${Math.min(80, sample.titleWords.length)}`,
  );
  // The service starts cold, as after a load: no totals shared by an earlier run.
  await pool.query('TRUNCATE shared_totals');
  const waited = await waitForAutoprewarm(pool);
  if (waited >= 1) say(`waited ${r1(waited)} s for the autoprewarm worker to load the shared buffers`);

  // 6. The service, as `npm start` runs it: every setting at its default but where its database and
  // files are, its port, and the workers when --workers is given (printed, and kept in the result).
  const port = await freePort();
  const metricsPort = await freePort();
  buildService();
  const serviceSettings: Record<string, string> = {
    DATABASE_URL: opts.databaseUrl ? '(external)' : '(the embedded bench database)',
    DATA_DIR: path.relative(ROOT, dataDir),
    PORT: `${port} (a free port)`,
    METRICS_PORT: `${metricsPort} (a free port: the match index's memory is read there)`,
    ...(opts.workers ? { WORKERS: `${opts.workers} (--workers)` } : {}),
  };
  // Settings the service inherits from this shell (it starts with this process's environment): a run
  // with any of them does not measure the defaults, and says so.
  // URLs may hold credentials: only that they were set is printed. Node's options and glibc's allocator
  // variables reach the service too (and every other process of the run).
  for (const name of [...SETTING_NAMES, 'NODE_OPTIONS', ...Object.keys(WORKER_MALLOC_ENV)]) {
    const v = process.env[name];
    if (v !== undefined && !(name in serviceSettings) && !(name in SERVICE_ENV))
      serviceSettings[name] = `${name.endsWith('_URL') ? '(set)' : v} (from the environment)`;
  }
  const settingsText = Object.entries(serviceSettings)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  say(
    `service: \`${Object.entries(SERVICE_ENV)
      .map(([k, v]) => `${k}=${v} `)
      .join(
        '',
      )}node ${[...SERVICE_NODE_FLAGS, SERVICE_ENTRY].join(' ')}\` as \`npm start\` runs it, with its defaults but ${settingsText}`,
  );
  const service = await startServer(
    'service',
    SERVICE_ENTRY,
    [],
    {
      DATABASE_URL: url,
      DATA_DIR: dataDir,
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      ...(opts.workers ? { WORKERS: String(opts.workers) } : {}),
    },
    port,
    '/v1/health',
  );
  cleanup.push(() => service.stop());
  const serviceReadyAt = new Date().toISOString();
  const serviceMem = rssSampler(service.child.pid!);

  // 7. One response per kind, recorded from the service; the baseline serves them.
  const recorded: Record<string, { status: number; contentType: string; body: string }> = {};
  const examples: Record<string, string> = {};
  const firstRequest: Record<string, number> = {};
  for (const k of kinds) {
    const started = performance.now();
    const res = await fetch(service.base + k.paths[0], { headers: { authorization: `Bearer ${key}` } });
    const body = await res.text();
    firstRequest[k.name] = r1(performance.now() - started);
    recorded[k.name] = {
      status: res.status,
      contentType: res.headers.get('content-type') ?? 'application/json',
      body,
    };
    examples[k.name] = k.paths[0];
    const total = /"total":(\d+)/.exec(body)?.[1] ?? /"count":(\d+)/.exec(body)?.[1];
    say(
      `  ${k.name.padEnd(16)} ${res.status} ${String(body.length).padStart(8)} B ${String(firstRequest[k.name]).padStart(7)} ms (first request)${total ? ` total/count ${total}` : ''}  ${k.paths[0]}`,
    );
    if (res.status !== 200) say(`    ${body.slice(0, 300)}`);
  }
  const responsesFile = path.join(dataDir, 'responses.json');
  writeFileSync(responsesFile, JSON.stringify(recorded));
  const basePort = await freePort();
  const baseline = await startServer(
    'baseline',
    'bench/lib/baseline-server.ts',
    [responsesFile],
    { PORT: String(basePort) },
    basePort,
    '/ready',
  );
  cleanup.push(() => baseline.stop());
  const baselineMem = rssSampler(baseline.child.pid!);

  // 8. Each kind alone, then the mix; the service and the baseline driven identically, one after the other.
  const results: KindResult[] = [];
  const run = async (name: string, ks: Kind[], weight: number) => {
    const startedAt = new Date().toISOString();
    const s = await drive(service.base, key, ks, opts.duration, opts.connections);
    const b = await drive(baseline.base, key, ks, opts.duration, opts.connections);
    results.push({
      kind: name,
      weight,
      started_at: startedAt,
      example:
        examples[name] ??
        (name === 'mix' ? 'weighted sequence of all kinds' : 'weighted sequence of all kinds, values varied'),
      service: s,
      baseline: b,
    });
    say(
      `  ${name.padEnd(16)} p50 ${s.p50_ms} p99 ${s.p99_ms} ms, ${s.rps} req/s, ${s.errors} errors, ${s.non2xx} non-2xx` +
        (s.first_pass
          ? ` (first ${s.first_pass.requests}, each request's first time: p50 ${s.first_pass.p50_ms} p99 ${s.first_pass.p99_ms} ms)`
          : '') +
        ` | baseline p50 ${b.p50_ms} ms, ${b.rps} req/s   (load ${load().join(' ')})`,
    );
    if (s.by_kind)
      say(
        `    per kind (p50/p99/max ms, requests): ${Object.entries(s.by_kind)
          .sort((x, y) => y[1].p50_ms * y[1].requests - x[1].p50_ms * x[1].requests)
          .map(
            ([k, f]) =>
              `${k} ${f.p50_ms}/${f.p99_ms}/${f.max_ms} ${f.requests}${f.non2xx ? ` (${f.non2xx} non-2xx)` : ''}`,
          )
          .join(', ')}`,
      );
  };
  say(`driving: ${opts.duration} s per kind, ${opts.connections} connections`);
  // The varied mix first, while the service has answered nothing but the first requests above.
  await run('varied mix', varied, 100);
  for (const name of opts.kinds) {
    const k = varied.find((v) => v.name === name);
    if (!k)
      throw new Error(`--kinds: no kind ${name} in the varied mix (${varied.map((v) => v.name).join(', ')})`);
    await run(`${name} (varied)`, [k], k.weight);
  }
  if (!opts.quick) for (const k of kinds) await run(k.name, [k], k.weight);
  await run('mix', kinds, 100);

  // 8b. The rounds, each loading while the mix runs in windows of --duration seconds until it is done.
  const duringRounds: (KindResult & { file: string })[] = [];
  for (const file of later) {
    let done = false;
    const loading = loadFile(file).finally(() => {
      done = true;
    });
    loading.catch(() => {});
    while (!done) {
      const s = await drive(service.base, key, kinds, opts.duration, opts.connections);
      duringRounds.push({
        file: path.basename(file),
        kind: 'mix during round',
        weight: 100,
        example: `weighted sequence of all kinds while ${path.basename(file)} loads`,
        service: s,
        baseline: results.find((r) => r.kind === 'mix')!.baseline,
      });
      say(
        `  mix during ${path.basename(file)}: p50 ${s.p50_ms} p99 ${s.p99_ms} ms, ${s.rps} req/s, ${s.errors} errors, ${s.non2xx} non-2xx   (load ${load().join(' ')})`,
      );
    }
    await loading;
  }
  // The table shows the worst window (by p99) of each round; the result file keeps every window.
  for (const file of new Set(duringRounds.map((r) => r.file))) {
    const windows = duringRounds.filter((r) => r.file === file);
    const worst = windows.reduce((a, b) => (b.service.p99_ms > a.service.p99_ms ? b : a));
    results.push({ ...worst, kind: `mix during ${file} (worst of ${windows.length})` });
  }

  // 9. Feed drain: one client (a process of its own) pages the whole feed, over one connection, then
  // with Node's fetch.
  const drains: Drain[] = [];
  for (const client of ['one connection', 'fetch'] as const) {
    say(`draining the feed (${client})…`);
    const d = await drainInChild(service.base, key, client);
    drains.push(d);
    say(`  ${d.rows} rows in ${d.pages} pages, ${d.seconds} s (${d.rows_per_s} rows/s)`);
  }

  const serviceRss = { ...serviceMem.stop(), match_index_mb: await matchIndexMb(metricsPort) };
  const baselineRss = baselineMem.stop();
  // The embedded server's own memory, apart from the service's (an external server may be another host's).
  const postgresRss = opts.databaseUrl ? undefined : await embeddedMemory(pool, hugePages);
  const warnings = service
    .stderr()
    .split('\n')
    // Warnings and errors: the service logs at its default level (info), whose lines are left out here.
    .filter((l) => l.trim() && !/^\{"level":(10|20|30),/.test(l))
    .filter((l) => !/created account|shown once|listening on|curl -H|OpenAPI:/.test(l))
    .slice(-20);
  await baseline.stop();
  await service.stop();
  const loadEnd = load();

  // 10. The result.
  const stamp = startedAt.toISOString().replace(/:/g, '-').replace(/\..*/, 'Z');
  const resultDir = path.join(ROOT, 'bench/results');
  mkdirSync(resultDir, { recursive: true });
  const result = {
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    options: { ...opts, databaseUrl: opts.databaseUrl ? '(external)' : '(embedded)' },
    machine: {
      cpus: os.availableParallelism(),
      cpu_model: os.cpus()[0]?.model,
      memory_gb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      postgres: pgVersion,
      huge_pages: hugePages,
      load_average_start: loadStart,
      load_average_end: loadEnd,
    },
    dataset: { dir: path.relative(ROOT, datasetDir), generation, population },
    load: {
      files: loads,
      loader_postings_per_s: loaderRate,
      round_postings_per_s: rounds().map((l) => Math.round(l.lines / l.seconds)),
      rounds_loaded_under_the_mix: later.length > 0,
      vacuum_analyze_s: vacuumSeconds,
    },
    parameters: shown,
    service_settings: serviceSettings,
    service_ready_at: serviceReadyAt,
    memory: { service: serviceRss, baseline: baselineRss, postgres: postgresRss },
    first_request_ms: firstRequest,
    feed_drain: drains,
    kinds: results,
    mix_during_rounds: duringRounds.map((r) => ({ file: r.file, ...r.service })),
    service_log_tail: warnings,
  };
  const jsonFile = path.join(resultDir, `${stamp}.json`);
  writeFileSync(jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  const svgFile = path.join(resultDir, `${stamp}.svg`);
  writeFileSync(
    svgFile,
    svg(
      results,
      `${population.live ?? 0} live jobs, ${opts.connections} connections, ${opts.duration} s per kind`,
    ),
  );

  const ratio = (a: number, b: number) => (b ? `${(a / b).toFixed(1)}×` : '-');
  const lines = [
    '',
    `dataset: ${opts.jobs} generated postings (seed ${opts.seed}, ${opts.rounds} round(s)); population ${JSON.stringify(population)}`,
    `machine: ${result.machine.cpus} cores, ${result.machine.memory_gb} GiB, node ${process.version}, PostgreSQL ${pgVersion} (huge pages ${hugePages})`,
    `load average (1/5/15 min): start ${loadStart.join(' ')}, end ${loadEnd.join(' ')}`,
    `loader: ${loaderRate ?? 'reused (not measured)'} postings/s${base ? ` (${base.lines} in ${base.seconds} s, incl. refresh and VACUUM of the ingest command)` : ''}; VACUUM (ANALYZE) ${vacuumSeconds} s`,
    `rounds: ${
      rounds()
        .map(
          (l) =>
            `${l.file} ${Math.round(l.lines / l.seconds)} postings/s (${l.lines} in ${l.seconds} s${later.length ? ', under the mix' : ''})`,
        )
        .join('; ') || 'none'
    }`,
    `feed drain: ${drains.map((d) => `${d.rows_per_s} rows/s (${d.client})`).join(', ')}; ${drains[0].rows} rows, ${drains[0].pages} pages of 1000`,
    `peak RSS: service ${serviceRss.peak_tree_rss_mb} MB over ${serviceRss.processes} processes (${serviceRss.end_tree_rss_mb} MB at the end: ${serviceRss.end_process_rss_mb.join(' + ')}; proportional set size ${serviceRss.end_tree_pss_mb} MB; the match index ${serviceRss.match_index_mb ?? '?'} MB of it) (largest process ${serviceRss.peak_process_hwm_mb} MB); baseline ${baselineRss.peak_tree_rss_mb} MB (${ratio(serviceRss.peak_tree_rss_mb, baselineRss.peak_tree_rss_mb)})`,
    ...(postgresRss
      ? [
          `embedded PostgreSQL at the end: ${postgresRss.pss_mb ?? '?'} MB (proportional set size over ${postgresRss.processes ?? '?'} processes), shared_buffers ${postgresRss.shared_buffers} ${postgresRss.huge_pages === 'on' ? 'in huge pages, not in that figure' : 'in ordinary pages, in that figure as far as touched'}`,
        ]
      : []),
    `service: the defaults of \`npm start\` but ${settingsText}; one key, of an account with a rate limit of 10,000,000/min and a quota of 2,000,000,000/month`,
    `${opts.duration} s per kind, ${opts.connections} connections; figures (ratio to the baseline):`,
    '',
    table(results),
    '',
    `result: ${path.relative(ROOT, jsonFile)}, plot: ${path.relative(ROOT, svgFile)}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (warnings.length) say(`service log (last lines):\n${warnings.join('\n')}`);
}

let code = 0;
try {
  await main();
} catch (err) {
  say(`bench failed: ${(err as Error).stack ?? err}`);
  code = 1;
}
await shutdown();
process.exit(code);

/** The match index's memory as the service reports it (`match_index_bytes`), in MB; undefined if unread. */
async function matchIndexMb(metricsPort: number): Promise<number | undefined> {
  const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
    .then((r) => r.text())
    .catch(() => '');
  const m = /^match_index_bytes (\d+)$/m.exec(text);
  return m ? Math.round(Number(m[1]) / 2 ** 20) : undefined;
}
