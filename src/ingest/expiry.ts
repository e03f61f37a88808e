// Expiry, apart from the write path's enrichment: jobs whose expires_at has passed, and postings a board
// no longer lists, leave the live population, and the best remaining copy of each becomes live again.
// The service's schedules import this without loading enrichment and its reference data.
import type pg from 'pg';
import { bumpDataVersion, nextFeedTimestamp } from '../db/feed-clock.ts';
import {
  boardMissing,
  copiesOf,
  expireRows,
  markGone,
  promote,
  recordExpiry,
  repoint,
} from '../db/jobs-write.ts';
import { type Db, withTransaction } from '../db/pool.ts';

/** When originals expire, their best remaining copy becomes live again (through the modified feed). */
export async function unfold(client: pg.PoolClient, expiredIds: string[], ts: string): Promise<string[]> {
  const promoted: string[] = [];
  if (!expiredIds.length) return promoted;
  const copies = await copiesOf(client, expiredIds);
  const done = new Set<string>();
  for (const c of copies) {
    if (done.has(c.duplicate_of) || !c.eligible) continue;
    done.add(c.duplicate_of);
    const doc = JSON.parse(c.doc) as Record<string, unknown>;
    doc.modified_at = ts;
    doc.modified_fields = [];
    await promote(client, c.id, ts, JSON.stringify(doc));
    await repoint(client, c.duplicate_of, c.id);
    promoted.push(c.id);
  }
  return promoted;
}

/** Expires the live postings of a board that a successful fetch no longer lists. */
export async function expireMissingFromBoard(db: Db, board: string, seenIds: string[]): Promise<number> {
  return withTransaction(db.write, async (client) => {
    const ts = await nextFeedTimestamp(client);
    const missing = await boardMissing(client, board, seenIds);
    if (!missing.length) return 0;
    await markGone(client, missing);
    const expired = await expireRows(client, ts, missing);
    await recordExpiry(client, expired, 'removed_from_source');
    const promoted = await unfold(client, expired, ts);
    await bumpDataVersion(client, { left: expired, entered: promoted });
    return expired.length;
  });
}

/** The expiry schedule: live jobs whose expires_at has passed move to the expired population. */
export async function expireDue(db: Db): Promise<number> {
  return withTransaction(db.write, async (client) => {
    const ts = await nextFeedTimestamp(client);
    const expired = await expireRows(client, ts);
    if (!expired.length) return 0;
    await recordExpiry(client, expired, 'valid_through_passed');
    const promoted = await unfold(client, expired, ts);
    await bumpDataVersion(client, { left: expired, entered: promoted });
    return expired.length;
  });
}
