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

/** Marks that what the API shows has changed (keys caches of totals). */
export async function bumpDataVersion(client: pg.PoolClient): Promise<void> {
  await client.query('UPDATE data_version SET version = version + 1 WHERE id = 1');
}
