// First-run setup shared by `npm start` and the CLI: migrations, known sources, the demo dataset
// in an empty index, and the demo account with its key.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { IndexProgress } from '../db/bulk-indexes.ts';
import { seedSources } from '../db/companies-write.ts';
import { createKey, ensureAccount } from '../db/keys.ts';
import { migrate } from '../db/migrations.ts';
import { JobState } from '../model/job-state.ts';
import type { Db } from '../db/pool.ts';
import { startModuleProcess } from '../ingest/threads.ts';
import { afterLoad } from './schedules.ts';

export interface PrepareOptions {
  /** Progress of the search indexes that a bulk load left unbuilt (built by migrate). */
  onIndexProgress?: IndexProgress;
}

export async function prepareDatabase(db: Db, opts: PrepareOptions = {}): Promise<void> {
  await migrate(db.write, opts.onIndexProgress);
  await seedSources(db.write);
}

/** Whether the demo dataset is to be loaded: it is configured, and the index is empty. */
async function demoWanted(db: Db, config: Config): Promise<boolean> {
  if (!config.DEMO_DATA || config.DEMO_JOBS === 0) return false;
  const { rows } = await db.write.query('SELECT EXISTS (SELECT 1 FROM jobs) AS any');
  return !rows[0].any;
}

/** What a demo load left: postings stored, and of those how many are live, expired or folded. */
export interface DemoLoad {
  stored: number;
  live: number;
  expired: number;
  folded: number;
}

/** The log line of a demo load: the postings loaded, and why fewer of them are live. */
export const describeDemoLoad = (d: DemoLoad): string =>
  `demo dataset loaded: ${d.stored} postings, ${d.live} live (${d.folded} folded into the posting they repeat, ${d.expired} expired)`;

async function countStates(db: Db): Promise<DemoLoad> {
  const { rows } = await db.write.query<{ state: number; n: number }>(
    'SELECT state, count(*)::int AS n FROM jobs GROUP BY state',
  );
  const of = (state: number) => rows.find((r) => r.state === state)?.n ?? 0;
  const d = { live: of(JobState.Live), expired: of(JobState.Expired), folded: of(JobState.Folded) };
  return { stored: d.live + d.expired + d.folded, ...d };
}

/** Loads the demo dataset when the index is empty; undefined when it was not loaded. */
export async function loadDemoIfEmpty(
  db: Db,
  config: Config,
  log: (m: string) => void,
): Promise<DemoLoad | undefined> {
  if (!(await demoWanted(db, config))) return undefined;
  const dir = path.resolve(config.DATA_DIR, 'demo');
  await fs.mkdir(dir, { recursive: true });
  log(`generating the demo dataset (${config.DEMO_JOBS} postings) in ${dir}`);
  // The generator and the write path are loaded only for this first run.
  const [{ writeDemoDataset }, { ingestFile }] = await Promise.all([
    import('../demo/write.ts'),
    import('../ingest/jsonl.ts'),
  ]);
  const files = await writeDemoDataset(dir, config.DEMO_JOBS, 42);
  let loaded = 0;
  for (const file of files) {
    const report = await ingestFile(db, file);
    loaded += report.inserted;
    log(`loaded ${path.basename(file)}: ${report.inserted} inserted, ${report.rejected.length} rejected`);
  }
  await afterLoad(db, loaded);
  return countStates(db);
}

/**
 * loadDemoIfEmpty in a child process (demo-load.ts), its messages passed to `log` as they come:
 * what a load needs stays out of the calling process.
 */
export async function loadDemoApart(
  db: Db,
  config: Config,
  log: (m: string) => void,
): Promise<DemoLoad | undefined> {
  if (!(await demoWanted(db, config))) return undefined;
  const child = startModuleProcess(import.meta.url, './demo-load', {
    JPS_DEMO_LOAD: JSON.stringify({ config: { ...config, DATABASE_URL: db.url } }),
  });
  let out = '';
  let pending = '';
  const lines: string[] = [];
  child.stdout?.on('data', (c) => {
    out += c;
  });
  child.stderr?.on('data', (c) => {
    const parts = (pending + c).split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      log(line);
    }
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (pending) lines.push(pending);
  if (code !== 0)
    throw new Error(`the demo load failed: ${lines.slice(-3).join('; ') || `exit code ${code}`}`);
  return (JSON.parse(out) as DemoLoad | null) ?? undefined;
}

/** Creates the `demo` account with one key on first run; returns the key only when it was created now. */
export async function ensureDemoKey(db: Db, config: Config): Promise<string | undefined> {
  const account = await ensureAccount(db.write, 'demo', config.RATE_LIMIT_PER_MINUTE, config.MONTHLY_QUOTA);
  const { rows } = await db.write.query('SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1', [
    account.id,
  ]);
  if (rows[0].n > 0) return undefined;
  return (await createKey(db.write, account.id, config.KEY_PREFIX)).key;
}
