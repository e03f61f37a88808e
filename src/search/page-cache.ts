// Search pages kept per data version (versioned-cache.ts, the one cache of pages and totals): a page is
// a function of the data and the request alone (windows relative to the clock aside, which are never
// kept), so a page computed in one snapshot is the exact answer to the same request at that version.

/** A page of a search (jobs or companies) as it is answered and kept. */
export interface SearchPage {
  /**
   * The page's items as one JSON array in UTF-8: encoded once, so a kept page is written as it is
   * (encoding 100 kB of text per response cost a worker a third of its time).
   */
  data: Buffer;
  /** Exact number of matches (of groups when collapsed). */
  total: number;
  /** Flat pages of jobs: the cursor of the next page, null at the end. Other pages have none. */
  nextCursor?: string | null;
  /** Job pages: true when the page was paged by cursor (it then has no offset). */
  byCursor?: boolean;
  /**
   * The whole response body, once a job page has been answered (http/envelopes.ts): a kept page's key
   * holds everything its envelope says, so each later answer is these bytes, with no copy made.
   */
  body?: Buffer;
}

/** What a kept search page holds, in bytes. */
export function pageSize(page: SearchPage): number {
  return page.data.length + 2 * (64 + (page.nextCursor?.length ?? 0));
}

export { type Computed, VersionedCache as PageCache } from './versioned-cache.ts';
