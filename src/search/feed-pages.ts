// Feed pages: kept per data version for clients that ask for the same page, and read ahead for clients
// that page a feed to its end.
//
// Kept pages. Mirrors that start from the same window and follow their cursors ask for the same pages.
// A page is kept under the data version read in its own snapshot (search/page-cache.ts), so nothing kept
// outlives a load, an expiry or a changed profile. A window relative to the clock ("since=24h") starts
// later at every request; the page read for an earlier start is still the exact answer while the window's
// start has not passed its first item (the rows at or after the later start are a subset of those at or
// after the earlier one, and the page's rows are all among them): `fits`.
//
// Read-ahead. While a page travels to the client and the client
// parses it, the next page (the one its `next_cursor` names) is already read from PostgreSQL; the
// client's next request takes it instead of waiting for the query. A page read ahead is served only to
// the request for exactly that cursor, window, size and format, only when the data version is still the
// one of the request that started it (any load, expiry or fold in between discards it), and within a
// few seconds; otherwise the request reads its page as it always does.
//
// HTTP workers are separate processes and a client's connections may land on different ones (Node's
// fetch alternates two connections for back-to-back requests). A process therefore reads ahead only
// for a client that came back to it: one whose cursor this process handed out itself. A client that
// hops between processes costs no speculative query at all.
import type pg from 'pg';
import { type FeedPage, type FeedRequest, isLargeFeedPage, readFeed, readNextCursor } from './feeds.ts';
import type { PageCache } from './page-cache.ts';

/** Pages smaller than this are cheap to read on demand and rarely part of a bulk sync. */
export const READ_AHEAD_MIN_LIMIT = 100;
/**
 * Pages held or being read at once per process (each up to 3 MB): a bound on memory and on the pool's
 * connections that speculative reads may take (one per page, and one more for a moment while the cursor
 * of the page after it is read from the index; the rest stay with requests).
 */
const MAX_PAGES = 2;
/** Handed-out cursors remembered at once per process. */
const MAX_CURSORS = 256;
/** A page nobody asked for within this time is dropped, and a handed-out cursor forgotten. */
const TTL_MS = 5_000;

interface Ahead {
  version: number;
  at: number;
  page: Promise<FeedPage | undefined>;
  /** The page's `next_cursor`, read from the index before the page itself is (null at the end or on error). */
  next: Promise<string | null>;
  /** Dropped unserved (expired, or the data changed): the pages after it are not wanted either. */
  dropped?: boolean;
}

const pages = new Map<string, Ahead>();
/** Cursors (as request keys) this process handed out lately, with when. */
const handedOut = new Map<string, number>();
/** What became of requests that could have used a page read ahead (for tests and metrics). */
export const readAheadStats = { started: 0, served: 0, discarded: 0 };

const keyOf = (req: FeedRequest) =>
  JSON.stringify([req.kind, req.start, req.limit, req.descriptionFormat ?? null, req.cursor ?? null]);

function dropExpired(now: number): void {
  for (const [k, a] of pages)
    if (now - a.at > TTL_MS) {
      a.dropped = true;
      pages.delete(k);
    }
  for (const [k, at] of handedOut) if (now - at > TTL_MS) handedOut.delete(k);
}

/**
 * Whether `page`, read earlier for `req`'s window, is still its answer now: always for an absolute
 * window; for a relative one while the window's start has moved less than the page's first item lies
 * past it. The start moved at most the time since `readAt`, taken before the page's query began.
 */
export function fits(req: FeedRequest, page: FeedPage, now = Date.now()): boolean {
  return !('ms' in req.start) || page.slackMs === undefined || now - page.readAt <= page.slackMs;
}

/**
 * A feed page: read ahead, or kept, or read now. `version` is the data version the request was admitted
 * at; without it (a replica whose visible data version is not known) pages are neither kept nor read
 * ahead.
 */
export async function readFeedPage(
  pool: pg.Pool,
  secret: string,
  req: FeedRequest,
  version: number | undefined,
  kept?: PageCache<FeedPage>,
): Promise<FeedPage> {
  let page: FeedPage | undefined;
  const now = Date.now();
  dropExpired(now);
  const key = keyOf(req);
  // Whether this client follows cursors on this process: then its next page is worth reading ahead.
  let cameBack = false;
  if (req.cursor !== undefined) {
    cameBack = handedOut.delete(key);
    const ahead = pages.get(key);
    if (ahead) {
      cameBack = true;
      // Left in place while it is awaited, so that the chain reading ahead does not read it again; gone
      // in the same turn as the page is kept below.
      if (ahead.version === version) page = await ahead.page;
      else ahead.dropped = true;
      if (pages.get(key) === ahead) pages.delete(key);
      if (page && !fits(req, page)) page = undefined;
      if (page) readAheadStats.served++;
      else readAheadStats.discarded++;
    }
  }
  if (page?.version !== undefined) kept?.put(page.version, key, page);
  if (!page) {
    const read = () => readFeed(pool, secret, req);
    page =
      kept && version !== undefined
        ? await kept.resolve(
            version,
            key,
            async () => {
              const p = await read();
              return { version: p.version, value: p };
            },
            (p) => fits(req, p),
          )
        : await read();
  }
  // Large pages with descriptions are expensive work, bounded per process and account: not read unasked.
  const skip = req.limit < READ_AHEAD_MIN_LIMIT || isLargeFeedPage(req.limit, req.descriptionFormat);
  if (version === undefined || !page.nextCursor || skip) return page;
  const next = { ...req, cursor: page.nextCursor };
  if (!cameBack) {
    if (handedOut.size < MAX_CURSORS) handedOut.set(keyOf(next), now);
  } else readAhead(pool, secret, next, version, kept);
  return page;
}

/** What a kept feed page holds, in bytes. */
export function feedPageSize(page: FeedPage): number {
  return 2 * (64 + (page.nextCursor?.length ?? 0)) + page.data.length;
}

/**
 * Reads `req` ahead unless it is already being read or the process holds its limit of pages, and the
 * pages after it while there is room. The cursor of the page after a page comes from the feed's index
 * (`readNextCursor`), so the two pages are read at the same time by two connections: a drain that finds
 * its documents out of the cache waits on two reads from disk at once instead of one after the other.
 * A client that keeps paging finds the next page ready instead of in flight, and the service's own work
 * on a page (the driver's and the envelope's) overlaps the client's too, not only PostgreSQL's.
 */
function readAhead(
  pool: pg.Pool,
  secret: string,
  req: FeedRequest,
  version: number,
  kept: PageCache<FeedPage> | undefined,
): void {
  const key = keyOf(req);
  // Pages read at an earlier data version would never be served: they give way.
  for (const [k, a] of pages)
    if (a.version < version) {
      a.dropped = true;
      pages.delete(k);
      readAheadStats.discarded++;
    }
  let entry = pages.get(key);
  if (!entry) {
    if (pages.size >= MAX_PAGES) return;
    // Kept already (another client read it): the request will find it there.
    const held = kept?.peek(version, key);
    if (held && fits(req, held)) return;
    // A failed read ahead costs nothing: the request for that page reads it again.
    entry = {
      version,
      at: Date.now(),
      page: readFeed(pool, secret, req).catch(() => undefined),
      next: readNextCursor(pool, secret, req).catch(() => null),
    };
    readAheadStats.started++;
    pages.set(key, entry);
  }
  const self = entry;
  void self.next.then((cursor) => {
    if (cursor && !self.dropped) readAhead(pool, secret, { ...req, cursor }, version, kept);
  });
}
