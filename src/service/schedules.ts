// Background work inside the service: the expiry schedule, the purge of old expired jobs, the
// refresh of jobs_count, and the vacuum of the PostgreSQL limiter's window rows. Each run
// takes a session advisory lock, so with several processes only one does the work at a time and
// requests are never blocked.
import type { Config } from '../config.ts';
import { refreshJobsCounts } from '../db/companies-write.ts';
import { purgeExpired } from '../db/jobs-write.ts';
import type { Db } from '../db/pool.ts';
import { purgeSharedTotals } from '../db/totals-store.ts';
import { purgeRateHits, vacuumRateHits } from '../db/usage.ts';
import type { BoardReport, Crawler } from '../ingest/crawl/crawler.ts';
import { expireDue } from '../ingest/expiry.ts';
import { countCrawl } from './metrics-server.ts';

const EXPIRY_LOCK = 7_410_010;
const REFRESH_LOCK = 7_410_011;
const CRAWL_LOCK = 7_410_012;
const LIMITER_VACUUM_LOCK = 7_410_013;
/** Period of the vacuum of the PostgreSQL limiter's window rows (usage.ts, vacuumRateHits). */
const LIMITER_VACUUM_S = 5;

async function exclusively(db: Db, lock: number, work: () => Promise<void>): Promise<boolean> {
  const client = await db.write.connect();
  try {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [lock]);
    if (!rows[0].ok) return false;
    try {
      await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lock]);
    }
    return true;
  } finally {
    client.release();
  }
}

async function runExpiry(db: Db, config: Config): Promise<void> {
  await exclusively(db, EXPIRY_LOCK, async () => {
    await expireDue(db);
    await purgeExpired(db.write, config.EXPIRED_RETENTION_DAYS);
    await purgeSharedTotals(db.write);
  });
}

export async function runRefresh(db: Db): Promise<void> {
  await exclusively(db, REFRESH_LOCK, async () => {
    await refreshJobsCounts(db.write);
  });
}

/** Share of the jobs table a load must rewrite to be sizeable: the match index is then saved after it. */
const SIZEABLE_SHARE = 0.01;
/**
 * Share a load must rewrite before it vacuums the table itself: autovacuum's own scale factor (20 %), at
 * which autovacuum would start at once anyway. A change round (a few percent) leaves its dead rows to
 * autovacuum, which then takes several rounds in one pass over the indexes instead of one pass each.
 */
const VACUUM_SHARE = 0.2;

/**
 * After every load: jobs whose expires_at has passed leave the live population, then the companies'
 * jobs_count (the fill rates of /v1/meta are kept per commit, migration 29), then, after a load that rewrote a fifth of the table (a bulk load), `VACUUM (ANALYZE)` of the
 * jobs heap. Given the row versions the load wrote (`written`), the refresh runs only when something
 * changed. Returns whether the load was a sizeable share of the table (≥ 1 %).
 * Without `written` (a crawl round) it refreshes and leaves vacuuming to autovacuum.
 */
export async function afterLoad(db: Db, written?: number): Promise<boolean> {
  const expired = await expireDue(db);
  if (written === undefined || written + expired > 0) await runRefresh(db);
  if (written === undefined) return false;
  const { rows } = await db.write.query<{ n: number }>(
    "SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'jobs'::regclass",
  );
  // reltuples is -1 before the table's first VACUUM or ANALYZE.
  const share = rows[0].n < 0 ? 1 : (written + expired) / Math.max(1, rows[0].n);
  if (share < SIZEABLE_SHARE) return false;
  // The heap only: its visibility map is what index-only scans need. The TOAST table's dead chunks
  // are autovacuum's (migration 15).
  if (share >= VACUUM_SHARE) await db.write.query('VACUUM (ANALYZE, PROCESS_TOAST false) jobs');
  return true;
}

/** The row versions a load wrote: every posting it inserted, changed, expired or folded. */
export const writtenBy = (r: {
  inserted: number;
  updated: number;
  expired: number;
  folded: number;
}): number => r.inserted + r.updated + r.expired + r.folded;

/**
 * One crawl round over the boards registry, by one process at a time; undefined when another process
 * is crawling. jobs_count is refreshed after it, as after every load.
 */
export async function runCrawl(
  db: Db,
  crawler: Crawler,
  registryFile: string,
): Promise<BoardReport[] | undefined> {
  let reports: BoardReport[] | undefined;
  await exclusively(db, CRAWL_LOCK, async () => {
    const { loadRegistry } = await import('../ingest/crawl/registry.ts');
    reports = await crawler.round(await loadRegistry(registryFile));
    await afterLoad(db);
  });
  return reports;
}

export interface Schedules {
  stop(): void;
}

export function startSchedules(db: Db, config: Config, log: (msg: string, err?: unknown) => void): Schedules {
  const every = (seconds: number, name: string, fn: () => Promise<void>) => {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      fn()
        .catch((err) => log(`${name} failed`, err))
        .finally(() => {
          running = false;
        });
    }, seconds * 1000);
    t.unref();
    return t;
  };
  const timers = [
    every(config.EXPIRY_INTERVAL_S, 'expiry', () => runExpiry(db, config)),
    every(config.REFRESH_INTERVAL_S, 'refresh', () => runRefresh(db)),
  ];
  // The PostgreSQL limiter (no Redis): the rows that left their windows are deleted here, in bulk, and
  // vacuumed; takes never delete (migration 21).
  if (!config.REDIS_URL)
    timers.push(
      every(LIMITER_VACUUM_S, 'limiter vacuum', async () => {
        await exclusively(db, LIMITER_VACUUM_LOCK, async () => {
          await purgeRateHits(db.write, Date.now());
          await vacuumRateHits(db.write);
        });
      }),
    );
  const boards = config.CRAWL_BOARDS;
  if (boards) {
    // The crawler keeps its conditional-request validators between rounds. It and the write path it
    // feeds (enrichment and its reference data) are loaded by the first round, not by every service.
    let crawler: Crawler | undefined;
    timers.push(
      every(config.CRAWL_INTERVAL_S, 'crawl', async () => {
        if (!crawler) {
          const [{ Crawler }, { pipelineSink }] = await Promise.all([
            import('../ingest/crawl/crawler.ts'),
            import('../ingest/crawl/pipeline-sink.ts'),
          ]);
          crawler = new Crawler(pipelineSink(db));
        }
        const reports = await runCrawl(db, crawler, boards);
        if (!reports) return;
        countCrawl(reports);
        const failed = reports.filter((r) => r.status === 'failed');
        log(`crawl: ${reports.length - failed.length} boards ok, ${failed.length} failed`);
        for (const f of failed) log(`crawl: ${f.board} failed: ${f.error ?? 'unknown error'}`);
      }),
    );
  }
  return { stop: () => timers.forEach(clearInterval) };
}
