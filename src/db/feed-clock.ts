// The feed clock. Every feed timestamp (created_at, modified_at, expired_at) is taken inside a
// transaction that holds one advisory lock until it commits, and is strictly greater than every
// timestamp already committed. PostgreSQL makes a commit visible before it releases the
// transaction's locks, so timestamps become visible in increasing order: a reader that has seen
// position P can never later find a new row at or before P. Millisecond precision keeps every
// position exactly representable in the public ISO timestamps.
import type pg from 'pg';

const FEED_LOCK = 7_410_002;

/** Takes the feed lock for the rest of the transaction and returns the next feed timestamp (ISO). */
export async function nextFeedTimestamp(client: pg.PoolClient): Promise<string> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [FEED_LOCK]);
  const { rows } = await client.query<{ ts: string }>(
    `UPDATE feed_clock
        SET last = greatest(date_trunc('milliseconds', clock_timestamp()), last + interval '1 millisecond')
      WHERE id = 1
      RETURNING to_char(last AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts`,
  );
  return rows[0].ts;
}

/** Live-population changes that cached totals can replay (see data_changes, migration 6). */
export interface LiveChange {
  left: string[];
  entered: string[];
  /** Jobs deleted from the pool (never live: the purge of expired ones), with their posting time. */
  purged?: { id: string; posted_us: string }[];
}

/**
 * Marks that what the API shows has changed (keys caches of totals). `change` is given when the only
 * change is rows leaving or entering the live population; otherwise cached totals are counted again.
 * The version also names every job this transaction wrote (noted by a trigger on jobs, migration 26),
 * so that the match index reads only those again: jobs are written on `client` in the transaction that
 * bumps (a pool only when none are). `jobsOnly` false when more than jobs changed (a company profile),
 * and the index is built again.
 */
export async function bumpDataVersion(
  client: pg.Pool | pg.PoolClient,
  change?: LiveChange,
  jobsOnly = true,
): Promise<void> {
  await client.query('SELECT bump_data_version($1, $2, $3, $4)', [
    change?.left ?? null,
    change?.entered ?? null,
    change?.purged ? JSON.stringify(change.purged) : null,
    jobsOnly,
  ]);
}
