// Search indexes built once after a bulk load instead of row by row. Maintaining the jobs table's
// search indexes (11 of them GIN) dominates the cost of a load into an empty table; building them at
// the end is several times cheaper. The write path's own look-ups (primary key, folding, expiry,
// boards) keep their indexes throughout.
//
// Crash safety: the definitions of the dropped indexes are stored in deferred_indexes in the
// transaction that drops them, and are removed in the transaction that builds each one again. The
// loader holds BULK_LOCK for the whole load; every migrate (each process start) builds what a load
// that is no longer running left behind.
import os from 'node:os';
import pg from 'pg';

const BULK_LOCK = 7_410_003;

/** Indexes the write path reads itself: never deferred. */
const KEPT = ['jobs_expires', 'jobs_dedupe', 'jobs_canonical_url', 'jobs_duplicate_of', 'jobs_board'];

/** Loads smaller than this always maintain the indexes as they go. */
export const BULK_MIN = 20_000;

export type IndexProgress = (built: number, total: number) => void;

/** Deferring pays when the load is large and at least as large as the table it goes into. */
export function shouldDefer(incoming: number, existing: number): boolean {
  return incoming >= BULK_MIN && incoming >= existing;
}

/** The load's session, the writer and a builder need their own connections. */
export function canDefer(pool: pg.Pool): boolean {
  return (pool.options.max ?? 10) >= 3;
}

/** Rows of jobs, counted up to `cap` (enough to apply shouldDefer without counting a large table). */
export async function countJobsUpTo(pool: pg.Pool, cap: number): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM jobs LIMIT $1) t',
    [cap],
  );
  return rows[0].n;
}

/** A bulk load in progress: its session holds BULK_LOCK until finish() or the process ends. */
export interface BulkLoad {
  finish(onProgress?: IndexProgress): Promise<void>;
}

/** Drops the deferrable indexes of jobs (remembering their definitions) and holds BULK_LOCK. */
export async function beginBulkLoad(pool: pg.Pool): Promise<BulkLoad> {
  const session = await pool.connect();
  // A lost session only loses the lock: the definitions stay stored, and finish() still builds them.
  let lost: Error | undefined;
  session.on('error', (err) => {
    lost = err;
  });
  try {
    await session.query('SELECT pg_advisory_lock($1)', [BULK_LOCK]);
    await session.query('BEGIN');
    const { rows } = await session.query<{ name: string; def: string }>(
      `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid IN ('jobs'::regclass, 'job_texts'::regclass) AND NOT i.indisunique AND NOT (c.relname = ANY($1::text[]))`,
      [KEPT],
    );
    for (const r of rows) {
      await session.query('INSERT INTO deferred_indexes (name, def) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        r.name,
        r.def,
      ]);
      await session.query(`DROP INDEX ${quoteIdent(r.name)}`);
    }
    await session.query('COMMIT');
  } catch (err) {
    await session.query('ROLLBACK').catch(() => {});
    session.release(true);
    throw err;
  }
  let done = false;
  return {
    async finish(onProgress) {
      if (done) return;
      done = true;
      try {
        await buildIndexes(pool, onProgress);
      } finally {
        await session.query('SELECT pg_advisory_unlock($1)', [BULK_LOCK]).catch((err: Error) => {
          lost ??= err;
        });
        session.release(lost);
      }
    },
  };
}

/**
 * Builds the indexes a bulk load left unbuilt, unless that load is still running (it builds them at
 * its end). Called by every migrate.
 */
export async function buildDeferredIndexes(pool: pg.Pool, onProgress?: IndexProgress): Promise<void> {
  const session = await pool.connect();
  try {
    const { rows } = await session.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
      BULK_LOCK,
    ]);
    if (!rows[0].ok) return;
    try {
      await buildIndexes(pool, onProgress);
    } finally {
      await session.query('SELECT pg_advisory_unlock($1)', [BULK_LOCK]);
    }
  } finally {
    session.release();
  }
}

/**
 * A build reads the rows that some transaction could still see, with a horizon fixed when it starts; a
 * vacuum of the TOAST table (which a build does not lock) may meanwhile remove the out-of-line values of
 * such a row once the transaction holding the horizon back ends (seen at a million jobs: job_texts' index,
 * while autovacuum's ANALYZE of jobs was cancelled by another build). The next attempt's horizon no longer
 * sees that row. A table whose values are really missing fails every attempt.
 */
const BUILD_ATTEMPTS = 3;

function isToastRace(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === 'XX001' && /chunk number .* for toast value/.test(e.message ?? '');
}

/**
 * Builds every index of deferred_indexes, one per core at a time (CREATE INDEX builds share the table),
 * each builder on a connection of its own: the pool is sized for requests, not for the cores.
 */
async function buildIndexes(pool: pg.Pool, onProgress?: IndexProgress): Promise<void> {
  const { rows } = await pool.query<{ name: string; def: string }>(
    // The largest (the descriptions' vectors) first, so the builders finish together.
    `SELECT name, def FROM deferred_indexes ORDER BY (name IN ('jobs_live_text', 'job_texts_text')) DESC, name`,
  );
  if (!rows.length) return;
  let built = 0;
  onProgress?.(0, rows.length);
  const queue = [...rows];
  const builder = async () => {
    const client = new pg.Client(pool.options);
    // A backend lost between queries emits here; the query in flight rejects on its own.
    client.on('error', () => {});
    await client.connect();
    try {
      for (let r = queue.shift(); r; r = queue.shift()) {
        for (let attempt = 1; ; attempt++) {
          await client.query('BEGIN');
          try {
            await client.query(`SET LOCAL maintenance_work_mem = '256MB'`);
            await client.query(r.def.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
            await client.query('DELETE FROM deferred_indexes WHERE name = $1', [r.name]);
            await client.query('COMMIT');
            break;
          } catch (err) {
            await client.query('ROLLBACK').catch(() => {});
            if (attempt >= BUILD_ATTEMPTS || !isToastRace(err)) throw err;
          }
        }
        onProgress?.(++built, rows.length);
      }
    } finally {
      await client.end().catch(() => {});
    }
  };
  const builders = Math.max(1, Math.min(os.availableParallelism(), rows.length));
  await Promise.all(Array.from({ length: builders }, builder));
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
