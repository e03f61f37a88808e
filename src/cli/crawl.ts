// crawl --boards FILE [--once] [--concurrency N]: fetch the registered boards and load their postings.
// One JSON line per board on stdout; messages on stderr.
import fs from 'node:fs/promises';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrations.ts';
import { type Db, openDb } from '../db/pool.ts';
import { type BoardReport, Crawler, type CrawlSink, type CrawlState } from '../ingest/crawl/crawler.ts';
import type { HttpOptions } from '../ingest/crawl/http.ts';
import { MemorySink } from '../ingest/crawl/memory-sink.ts';
import { loadRegistry, RegistryError } from '../ingest/crawl/registry.ts';
import { DEFAULT_BASES } from '../ingest/crawl/sources.ts';
import { startProgress, takeQuiet } from './progress.ts';
import { commandHelp, commandNamed } from './spec.ts';

const USAGE = commandHelp(commandNamed('crawl')!);

interface Args {
  boards?: string;
  once: boolean;
  interval: number;
  concurrency: number;
  state?: string;
  bases: Record<string, string>;
  http: Partial<HttpOptions>;
  dryRun: boolean;
}

class UsageError extends Error {}

function int(name: string, v: string | undefined, min: number, max: number): number {
  if (v === undefined || !/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(v);
}

export function parseCrawlArgs(argv: string[]): Args {
  const a: Args = { once: false, interval: 900, concurrency: 4, bases: {}, http: {}, dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--')
      ? (argv[i].split(/=(.*)/s, 2) as [string, string?])
      : [argv[i]];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--boards':
        a.boards = value();
        break;
      case '--once':
        a.once = true;
        break;
      case '--dry-run':
        a.dryRun = true;
        break;
      case '--interval':
        a.interval = int('interval', value(), 1, 604_800);
        break;
      case '--concurrency':
        a.concurrency = int('concurrency', value(), 1, 64);
        break;
      case '--state':
        a.state = value();
        break;
      case '--base': {
        const v = value();
        const eq = v.indexOf('=');
        const source = v.slice(0, eq);
        if (eq < 1 || !(source in DEFAULT_BASES))
          throw new UsageError(
            `--base must be SOURCE=URL with SOURCE one of ${Object.keys(DEFAULT_BASES).join(', ')}`,
          );
        a.bases[source] = v.slice(eq + 1);
        break;
      }
      case '--host-delay-ms':
        a.http.minHostDelayMs = int('host-delay-ms', value(), 0, 600_000);
        break;
      case '--timeout-ms':
        a.http.timeoutMs = int('timeout-ms', value(), 100, 600_000);
        break;
      case '--retries':
        a.http.retries = int('retries', value(), 0, 10);
        break;
      default:
        throw new UsageError(`unknown option ${argv[i]}`);
    }
  }
  if (!a.boards) throw new UsageError('--boards FILE is required');
  return a;
}

async function readState(file: string | undefined): Promise<CrawlState> {
  if (!file) return { validators: {} };
  try {
    const doc = JSON.parse(await fs.readFile(file, 'utf8'));
    return { validators: doc && typeof doc.validators === 'object' ? doc.validators : {} };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { validators: {} };
    throw new UsageError(`cannot read --state ${file}: ${(err as Error).message}`);
  }
}

async function writeState(file: string | undefined, state: CrawlState): Promise<void> {
  if (!file) return;
  const tmp = `${file}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`);
  await fs.rename(tmp, file);
}

export async function run(cliArgs: string[]): Promise<number> {
  const { quiet, args: argv } = takeQuiet(cliArgs);
  let args: Args;
  let state: CrawlState;
  try {
    args = parseCrawlArgs(argv);
    state = await readState(args.state);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`crawl: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  let boards: Awaited<ReturnType<typeof loadRegistry>>;
  try {
    boards = await loadRegistry(args.boards!);
  } catch (err) {
    const msg = err instanceof RegistryError ? err.message : (err as Error).message;
    process.stderr.write(`crawl: ${args.boards}: ${msg}\n`);
    return 2;
  }

  let db: Db | undefined;
  let sink: CrawlSink;
  if (args.dryRun) sink = new MemorySink();
  else {
    db = await openDb(loadConfig(), { log: (m) => process.stderr.write(`${m}\n`) });
    await migrate(db.write);
    const { seedSources } = await import('../db/companies-write.ts');
    await seedSources(db.write);
    const { pipelineSink } = await import('../ingest/crawl/pipeline-sink.ts');
    sink = pipelineSink(db);
  }

  const stop = new AbortController();
  const onSignal = () => {
    process.stderr.write('crawl: stopping after this round\n');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
  const crawler = new Crawler(
    sink,
    { concurrency: args.concurrency, bases: args.bases, http: args.http },
    state,
  );
  let failed = 0;
  try {
    process.stderr.write(`crawl: ${boards.length} board(s)\n`);
    for (;;) {
      const progress = startProgress('crawl', 'boards', { quiet });
      const reports = await crawler.round(boards, (r: BoardReport) => {
        process.stdout.write(`${JSON.stringify(r)}\n`);
        progress.tick(boards.length);
      });
      progress.stop();
      failed = reports.filter((r) => r.status === 'failed').length;
      await writeState(args.state, crawler.state);
      process.stderr.write(
        `crawl: round done: ${reports.length - failed} ok or unchanged, ${failed} failed\n`,
      );
      if (args.once || stop.signal.aborted) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, args.interval * 1000);
        stop.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            resolve();
          },
          { once: true },
        );
      });
      if (stop.signal.aborted) break;
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    await db?.close();
  }
  return args.once && failed > 0 ? 1 : 0;
}
