// Duplicate folding measured against the generator's ground truth: generates a dataset with syndicated
// copies, agency re-posts, re-spelled copies and siblings, loads it into a fresh database through the
// ingest pipeline, and reports precision and recall of folding, overall, per source type and per kind.
//   npx tsx bench/folding.ts [--jobs 100000] [--seed 1] [--database-url URL]
// Without --database-url (or DATABASE_URL) an embedded PostgreSQL runs under bench/data/folding.
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { openDb } from '../src/db/pool.ts';
import { DemoDataset, type PostingKind, type PostingLabel } from '../src/demo/generate.ts';
import { startEnrichThread } from '../src/ingest/enrich-thread.ts';
import { ingestRecords } from '../src/ingest/pipeline.ts';
import type { CanonicalLine } from '../src/model/record.ts';
import { prepareDatabase } from '../src/service/setup.ts';

const say = (msg: string) => process.stderr.write(`${msg}\n`);
const USAGE =
  'usage: npx tsx bench/folding.ts [--jobs N (default 100000)] [--seed S (default 1)] [--database-url URL]';

function options(argv: string[]): { jobs: number; seed: number; databaseUrl?: string } {
  const o: { jobs: number; seed: number; databaseUrl?: string } = {
    jobs: 100_000,
    seed: 1,
    databaseUrl: process.env.DATABASE_URL || undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    if (argv[i] === '--jobs' && /^\d+$/.test(v ?? '')) o.jobs = Number(argv[++i]);
    else if (argv[i] === '--seed' && /^\d+$/.test(v ?? '')) o.seed = Number(argv[++i]);
    else if (argv[i] === '--database-url' && v) o.databaseUrl = argv[++i];
    else throw new Error(`unknown or incomplete option ${argv[i]}`);
  }
  if (o.jobs < 1) throw new Error('--jobs must be at least 1');
  return o;
}

/** A fresh database `folding_bench` on the server of `serverUrl`. */
async function freshDatabase(serverUrl: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS folding_bench WITH (FORCE)');
  await admin.query('CREATE DATABASE folding_bench');
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = '/folding_bench';
  return u.toString();
}

interface Tally {
  /** Rows that should fold into another row of their job. */
  expected: number;
  /** Of those, rows folded into a row of their job. */
  found: number;
  /** Rows folded (rightly or not). */
  folded: number;
  /** Rows folded into a row of another job. */
  wrong: number;
}

const tally = (): Tally => ({ expected: 0, found: 0, folded: 0, wrong: 0 });
const pct = (a: number, b: number) => (b === 0 ? null : Math.round((10000 * a) / b) / 100);

async function main() {
  const opts = options(process.argv.slice(2));
  const load0 = os.loadavg().map((x) => Math.round(x * 10) / 10);
  say(`folding: ${opts.jobs} postings, seed ${opts.seed}; load average ${load0.join(' ')}`);
  let stopServer: (() => Promise<void>) | undefined;
  let serverUrl = opts.databaseUrl;
  if (!serverUrl) {
    const dir = path.resolve(import.meta.dirname, 'data/folding');
    const server = await startEmbedded(dir, loadConfig().EMBEDDED_PG_PORT);
    stopServer = () => server.stop();
    serverUrl = server.url;
  }
  const url = await freshDatabase(serverUrl);
  const db = await openDb(loadConfig({ ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  const thread = startEnrichThread();
  try {
    await prepareDatabase(db);
    // Dated up to now (the current hour), so the postings are open as they would be in a fresh crawl.
    const ds = new DemoDataset({ jobs: opts.jobs, seed: opts.seed, nearDuplicates: true });
    const labels = new Map<string, PostingLabel>();
    let batch: CanonicalLine[] = [];
    let loaded = 0;
    const started = performance.now();
    const flush = async () => {
      if (!batch.length) return;
      await ingestRecords(db, batch, undefined, thread.enrich);
      loaded += batch.filter((l) => l.kind === 'posting').length;
      batch = [];
      if (loaded % 20_000 < 5000) say(`  ${loaded} postings loaded`);
    };
    for (const { line, label } of ds.labelled()) {
      if (label) labels.set(label.id, label);
      batch.push(line);
      if (batch.length >= 5000) await flush();
    }
    await flush();
    const seconds = (performance.now() - started) / 1000;

    const { rows } = await db.write.query<{
      id: string;
      state: number;
      duplicate_of: string | null;
      source_type: string;
    }>('SELECT id, state, duplicate_of, source_type FROM jobs');
    const byId = new Map(rows.map((r) => [r.id, r]));
    const survivor = (id: string): string => {
      let cur = byId.get(id);
      for (let hops = 0; cur?.duplicate_of && hops < 10; hops++) cur = byId.get(cur.duplicate_of);
      return cur?.id ?? id;
    };
    // Per job: its rows that can fold (not expired); the best-ranked one should survive, the rest fold.
    const RANK: Record<string, number> = { ats: 0, jobboard: 1, aggregator: 2 };
    const jobs = new Map<string, typeof rows>();
    for (const r of rows) {
      if (r.state === 1) continue;
      const job = labels.get(r.id)?.job ?? r.id;
      const list = jobs.get(job) ?? [];
      list.push(r);
      jobs.set(job, list);
    }
    const overall = tally();
    const byType = new Map<string, Tally>();
    const byKind = new Map<PostingKind, Tally>(
      (['original', 'syndicated', 'agency', 'respelled', 'sibling'] as const).map((k) => [k, tally()]),
    );
    const add = (r: { id: string; source_type: string }, f: (t: Tally) => void) => {
      f(overall);
      const kind = labels.get(r.id)?.kind ?? 'original';
      for (const [m, k] of [
        [byType, r.source_type],
        [byKind, kind],
      ] as [Map<string, Tally>, string][]) {
        const t = m.get(k) ?? tally();
        f(t);
        m.set(k, t);
      }
    };
    for (const [job, list] of jobs) {
      const keep = list.reduce((a, b) => ((RANK[b.source_type] ?? 3) < (RANK[a.source_type] ?? 3) ? b : a));
      for (const r of list) {
        const folded = r.state === 2;
        const sameJob = folded && (labels.get(survivor(r.id))?.job ?? survivor(r.id)) === job;
        if (r !== keep)
          add(r, (t) => {
            t.expected++;
            if (sameJob) t.found++;
          });
        if (folded)
          add(r, (t) => {
            t.folded++;
            if (!sameJob) t.wrong++;
          });
      }
    }
    const line = (name: string, t: Tally) => ({
      name,
      expected_folds: t.expected,
      found: t.found,
      folded: t.folded,
      wrong: t.wrong,
      recall_pct: pct(t.found, t.expected),
      precision_pct: pct(t.folded - t.wrong, t.folded),
    });
    const report = {
      jobs: opts.jobs,
      seed: opts.seed,
      postings: labels.size,
      rows: rows.length,
      expired: rows.filter((r) => r.state === 1).length,
      load_seconds: Math.round(seconds),
      load_average: { start: load0, end: os.loadavg().map((x) => Math.round(x * 10) / 10) },
      overall: line('overall', overall),
      by_source_type: [...byType].map(([k, t]) => line(k, t)),
      by_kind: [...byKind].map(([k, t]) => line(k, t)),
    };
    const head = ['', 'should fold', 'folded right', 'folded', 'wrongly', 'recall %', 'precision %'];
    const fmt = (cells: unknown[]) => cells.map((c, i) => String(c ?? '–').padStart(i ? 13 : 12)).join('');
    say(fmt(head));
    for (const l of [report.overall, ...report.by_source_type, ...report.by_kind])
      say(fmt([l.name, l.expected_folds, l.found, l.folded, l.wrong, l.recall_pct, l.precision_pct]));
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await thread.close();
    await db.close();
    if (stopServer) await stopServer();
  }
}

main().catch((err) => {
  say(`${(err as Error).message}\n${USAGE}`);
  process.exit(1);
});
