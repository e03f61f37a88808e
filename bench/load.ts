// `npx tsx bench/load.ts [options] FILE...`: the write path alone. Loads canonical JSON Lines files one
// after the other into a fresh embedded PostgreSQL and reports, per file, the loader rate (postings/s,
// wall), the CPU seconds of the loader's processes and of PostgreSQL's, the loader's peak RSS and, with
// --in-process, where the time of each batch went (stage timings). See bench/README.md, "The write path".
//
//   --dir DIR        cluster directory (default bench/data/load; its cluster removed first unless --keep)
//   --port P         port of the embedded server (default 54340)
//   --keep           keep the cluster and its rows (load on top of an earlier run)
//   --root DIR       run the ingest command of another checkout (A/B against a baseline commit)
//   --in-process     run the ingest command's body in this process (stage timings); otherwise the
//                    `ingest` command itself runs as a child process (whole-command figures)
//   --slice N        with --in-process: also print the rate and stage timings of every N lines, to
//                    see how the cost of a batch grows with the table
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded } from '../src/db/embedded.ts';
import { waitForAutoprewarm } from './lib/prewarm.ts';
import { CLI_NODE_FLAGS, cli, finished, ROOT, rssSampler, spawnTs } from './lib/proc.ts';

const say = (msg: string) => process.stderr.write(`${msg}\n`);
const r1 = (x: number) => Math.round(x * 10) / 10;
const load = () => os.loadavg().map(r1);

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const files = argv.filter(
  (a, i) => !a.startsWith('--') && !['--dir', '--port', '--root', '--slice'].includes(argv[i - 1]),
);
const root = path.resolve(opt('root', ROOT));
const dir = path.resolve(ROOT, opt('dir', 'bench/data/load'));
const port = Number(opt('port', '54340'));
if (!files.length) {
  say('usage: npx tsx bench/load.ts [--dir DIR] [--port P] [--keep] [--in-process] FILE...');
  process.exit(2);
}

const TICK = 1 / 100; // seconds per clock tick of /proc/<pid>/stat (USER_HZ is 100 on Linux)

function children(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(ppid, [...(map.get(ppid) ?? []), Number(d)]);
    } catch {
      // exited meanwhile
    }
  }
  return map;
}

function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK; // utime + stime
  } catch {
    return undefined; // exited: its last reading stands
  }
}

/** CPU seconds used by the trees under `roots` while sampling (per pid, last minus first reading). */
function cpuSampler(roots: () => number[]) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const sample = () => {
    const kids = children();
    const stack = roots().filter((p) => p > 0);
    while (stack.length) {
      const p = stack.pop()!;
      const s = cpuSeconds(p);
      if (s === undefined) continue;
      if (!first.has(p)) first.set(p, s);
      last.set(p, s);
      stack.push(...(kids.get(p) ?? []));
    }
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop() {
      sample();
      clearInterval(timer);
      let sum = 0;
      for (const [p, s] of last) sum += s - (first.get(p) ?? 0);
      return r1(sum);
    },
  };
}

// Only the cluster and its password go: a dataset kept in the same directory stays.
if (!flag('keep'))
  for (const part of ['pg', 'credentials.json'])
    rmSync(path.join(dir, part), { recursive: true, force: true });
const server = await startEmbedded(dir, port);
const postmaster = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
// The cluster's directory is the DATA_DIR, as a service on it has: the ingest command carries (or builds)
// the match index saved there, as it does for a user, not one in the working directory.
const env = { DATABASE_URL: server.url, DATA_DIR: dir, LOG_LEVEL: 'warn' };
await cli(['migrate'], env, false);
say(`postgres ${server.url} (postmaster ${postmaster}); load average ${load().join(' ')}`);
// Not timed beside autoprewarm's reading back the blocks of the last shutdown (at 200k, a round's
// PostgreSQL CPU 17.5–23.6 s beside it, 12.5–14.3 s after it).
{
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  const waited = await waitForAutoprewarm(client).finally(() => client.end());
  say(`autoprewarm: waited ${r1(waited)} s for the blocks of the last shutdown`);
}

const results: Record<string, unknown>[] = [];
try {
  for (const file of files) {
    const loadBefore = load();
    const t = performance.now();
    let report: Record<string, unknown>;
    let loaderCpu: number;
    let pgCpu: number;
    let peakRssMb: number;
    let stages: Record<string, number> | undefined;
    let rssSeries: [number, number][] | undefined;
    if (flag('in-process')) {
      process.env.DATABASE_URL = server.url;
      const { loadConfig } = await import('../src/config.ts');
      const { openDb } = await import('../src/db/pool.ts');
      const { ingestFile } = await import('../src/ingest/jsonl.ts');
      const { startEnrichThread } = await import('../src/ingest/enrich-thread.ts');
      const { afterLoad, writtenBy } = await import('../src/service/schedules.ts');
      const { stageMs } = await import('../src/ingest/pipeline.ts');
      for (const k of Object.keys(stageMs)) delete stageMs[k];
      const pgCpuS = cpuSampler(() => [postmaster]);
      const selfCpu0 = process.cpuUsage();
      const db = await openDb(loadConfig());
      const thread = startEnrichThread();
      const timed = async (name: string, fn: () => Promise<unknown>) => {
        const t0 = performance.now();
        await fn();
        stageMs[name] = performance.now() - t0;
      };
      const slice = Number(opt('slice', '0'));
      let sliceAt = { lines: 0, ms: performance.now(), stages: { ...stageMs } };
      const onProgress = (p: { phase: string; lines?: number }) => {
        if (!slice || p.phase !== 'load' || !p.lines || p.lines < sliceAt.lines + slice) return;
        const now = performance.now();
        const delta = Object.fromEntries(
          Object.entries(stageMs).map(([k, v]) => [k, r1((v - (sliceAt.stages[k] ?? 0)) / 1000)]),
        );
        const rate = Math.round(((p.lines - sliceAt.lines) * 1000) / (now - sliceAt.ms));
        say(JSON.stringify({ lines: p.lines, postings_per_s: rate, stages_s: delta }));
        sliceAt = { lines: p.lines, ms: now, stages: { ...stageMs } };
      };
      let loaded: Awaited<ReturnType<typeof ingestFile>>;
      try {
        loaded = await ingestFile(db, file, onProgress, thread.enrich);
      } finally {
        await thread.close();
      }
      report = loaded as unknown as Record<string, unknown>;
      // As the ingest command does (its VACUUM only after a load of a fifth of the table).
      await timed('after_load', () => afterLoad(db, writtenBy(loaded)));
      await db.close();
      const c = process.cpuUsage(selfCpu0);
      loaderCpu = r1((c.user + c.system) / 1e6);
      pgCpu = pgCpuS.stop();
      peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
      stages = Object.fromEntries(Object.entries(stageMs).map(([k, v]) => [k, r1(v / 1000)]));
      report.rejected = (report.rejected as unknown[]).length;
    } else {
      const child = spawnTs(
        path.join(root, 'src/cli/index.ts'),
        ['ingest', path.resolve(file), '--quiet'],
        env,
        CLI_NODE_FLAGS,
      );
      const mem = rssSampler(child.pid!);
      // The loader's resident memory over time: it must level off, whatever the file's size.
      const series: [number, number][] = [];
      const rssTimer = setInterval(() => {
        try {
          const kb = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
          if (kb) series.push([Math.round((performance.now() - t) / 1000), Math.round(Number(kb) / 1024)]);
        } catch {
          // exited
        }
      }, 5000);
      const loaderCpuS = cpuSampler(() => [child.pid ?? 0]);
      const pgCpuS = cpuSampler(() => [postmaster]);
      const { code, out, err } = await finished(child);
      loaderCpu = loaderCpuS.stop();
      pgCpu = pgCpuS.stop();
      peakRssMb = mem.stop().peak_process_hwm_mb;
      clearInterval(rssTimer);
      rssSeries = series;
      if (code !== 0) throw new Error(`ingest exited with ${code}\n${err.slice(-2000)}`);
      report = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
      delete report.rejections;
    }
    const seconds = (performance.now() - t) / 1000;
    const lines = ['inserted', 'updated', 'unchanged', 'rejected'].reduce(
      (a, k) => a + Number(report[k] ?? 0),
      0,
    );
    const r = {
      file: path.relative(ROOT, path.resolve(file)),
      lines,
      seconds: r1(seconds),
      postings_per_s: Math.round(lines / seconds),
      cpu_s: { loader: loaderCpu, postgres: pgCpu, wall_x_cores: r1(seconds * os.availableParallelism()) },
      peak_rss_mb: peakRssMb,
      load_average: { before: loadBefore, after: load() },
      report,
      ...(stages ? { stages_s: stages } : {}),
      ...(rssSeries ? { rss_mb_every_5s: rssSeries.map(([, mb]) => mb) } : {}),
    };
    results.push(r);
    say(JSON.stringify(r));
  }
} finally {
  await server.stop();
}
process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
