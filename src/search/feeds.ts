// The three sync feeds, keyset-paged in ascending order of their feed timestamp.
// Feed timestamps are assigned under one lock in commit order (see db/feed-clock.ts), so a row
// can never appear behind a cursor that was already handed out.
import type pg from 'pg';
import { type CursorPosition, decodeCursor, encodeCursor, fingerprint } from './cursor.ts';
import { copyRows } from '../db/copy-out.ts';
import { type DescriptionFormat, descriptionColumn, jobParts, joinItems } from './render.ts';
import { raw, sql } from './sql.ts';
import { VERSION_SQL } from './totals.ts';
import { JobState } from '../model/job-state.ts';

export type FeedKind = 'feed' | 'modified' | 'expired';

export interface FeedRequest {
  kind: FeedKind;
  /** Absolute start (ISO) or relative window in ms. */
  start: { instant: string } | { ms: number };
  limit: number;
  cursor?: string;
  descriptionFormat?: DescriptionFormat;
}

const KEY: Record<FeedKind, { col: string; where: string }> = {
  feed: { col: 'j.created_at', where: `j.state = ${JobState.Live}` },
  modified: { col: 'j.modified_at', where: `j.state = ${JobState.Live} AND j.modified_at IS NOT NULL` },
  // Expired jobs and published postings later folded into another: both are deletions for a mirror.
  expired: { col: 'j.expired_at', where: `j.expired_at IS NOT NULL AND j.state <> ${JobState.Live}` },
};

/** Feed pages above this size that include descriptions take megabytes to build and to hold. */
export const LARGE_FEED_PAGE = 200;

/** A page that is expensive work (http/expensive.ts) and that is never read ahead. */
export const isLargeFeedPage = (limit: number, descriptionFormat: unknown): boolean =>
  descriptionFormat !== undefined && limit > LARGE_FEED_PAGE;

export interface FeedPage {
  count: number;
  /** The items as a JSON array in UTF-8, put together from their bytes without decoding them (`joinItems`). */
  data: Buffer;
  nextCursor: string | null;
  /** The data version read in the page's snapshot (undefined for an empty page). */
  version?: number;
  /** `Date.now()` before the page was read. */
  readAt: number;
  /**
   * How far the first item's timestamp lies past the window's start, in ms (undefined for an empty
   * page): a window relative to the clock may move this far before the page stops being its answer.
   */
  slackMs?: number;
}

/**
 * What a page reads of each item: for the jobs, the stored document, the company's profile and the
 * description asked for, put together by `jobParts` (render.ts) rather than by `replace` in SQL, which
 * costs PostgreSQL a search and a copy of every document; for the expired feed, the whole item.
 */
function itemColumns(kind: FeedKind, format: DescriptionFormat): string {
  if (kind === 'expired')
    return `'{"id":' || to_json(j.id)::text || ',"expired_at":"' || to_char(j.expired_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || '"}', NULL, NULL`;
  const description = format === undefined ? 'NULL' : descriptionColumn(format);
  return `j.doc, coalesce(c.profile_json, j.company_fallback), ${description}`;
}

/** What every read of `req`'s page shares: its fingerprint, its key column and its rows' conditions. */
function pageOf(secret: string, req: FeedRequest) {
  const { col, where } = KEY[req.kind];
  // The window belongs to the cursor's query: a cursor replayed on another window is refused.
  const fp = fingerprint(req.kind, { start: req.start, fmt: req.descriptionFormat ?? null });
  const after: CursorPosition | undefined = req.cursor ? decodeCursor(secret, fp, req.cursor) : undefined;
  const c = raw(col);
  const from =
    'instant' in req.start
      ? sql`${req.start.instant}::timestamptz`
      : sql`(now() - ${req.start.ms} * interval '1 millisecond')`;
  const start = sql`${c} >= ${from}`;
  const keyset = after ? sql`AND (${c}, j.id) > (${after.at}::timestamptz, ${after.id})` : sql``;
  return { fp, c, from, rows: sql`${raw(where)} AND ${start} ${keyset}` };
}

/**
 * The `next_cursor` that `readFeed` hands out with `req`'s page (null at the feed's end), read from the
 * feed's index alone (an index-only scan: no row and no document is fetched). The page after `req`'s can
 * then be read at the same time as `req`'s own.
 */
export async function readNextCursor(
  pool: pg.Pool,
  secret: string,
  req: FeedRequest,
): Promise<string | null> {
  const { fp, c, rows } = pageOf(secret, req);
  const { rows: edge } = await pool.query<{ at: string; id: string }>(sql`
    SELECT ${c}::text AS at, j.id FROM jobs j WHERE ${rows}
    ORDER BY ${c}, j.id OFFSET ${req.limit - 1} LIMIT 2`);
  return edge.length === 2 ? encodeCursor(secret, fp, { at: edge[0]!.at, id: edge[0]!.id }) : null;
}

export async function readFeed(pool: pg.Pool, secret: string, req: FeedRequest): Promise<FeedPage> {
  const { fp, c, from, rows: where } = pageOf(secret, req);
  const join = raw(req.kind === 'expired' ? '' : 'LEFT JOIN companies c ON c.slug = j.company_slug');
  // Rendered by PostgreSQL and read as bytes (db/copy-out.ts): the page is passed on, not parsed.
  const readAt = Date.now();
  const rows = await copyRows(
    pool,
    sql`
    SELECT ${raw(itemColumns(req.kind, req.descriptionFormat))}, ${c}::text, j.id,
      ${raw(VERSION_SQL)}::text, floor(extract(epoch FROM ${c} - ${from}) * 1000)::text
    FROM jobs j ${join}
    WHERE ${where}
    ORDER BY ${c}, j.id
    LIMIT ${req.limit + 1}`,
  );
  const page = rows.slice(0, req.limit);
  const first = page[0];
  const last = page[page.length - 1];
  return {
    count: page.length,
    data: joinItems(
      page.map(([item, company, description]) => (company ? jobParts(item!, company, description) : [item!])),
    ),
    nextCursor:
      rows.length > req.limit && last
        ? encodeCursor(secret, fp, { at: last[3]!.toString(), id: last[4]!.toString() })
        : null,
    readAt,
    version: first && Number(first[5]!.toString()),
    slackMs: first && Number(first[6]!.toString()),
  };
}
