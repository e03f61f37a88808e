// How a page of jobs in `posted_at DESC, id DESC` order is fetched. Two ways: walking the live rows
// newest first and keeping the matches (cheap when matches are common: about (offset + limit) / share
// rows), or fetching every match through the filter indexes and sorting (cheap when they are rare).
// PostgreSQL guesses the share from per-column statistics and misses correlations (two skills that go
// together, a company filter), and then sorts tens of thousands of rows. Here the share is known exactly
// from the cached totals, so the walk is chosen when it reads fewer rows than there are matches, with a
// budget of WALK_SLACK times the expected rows; a walk that ends before filling the page is redone
// through the indexes. When the matches are few (at most MAX_SORTED), they are all fetched and sorted
// ('sort'), whatever PostgreSQL estimates: its own plan for a rare company filter walked 90,000 rows for
// the 21 of a page of 190 matches (1 s). They are also all fetched and sorted when there are fewer of
// them than rows the walk is expected to read (a deep offset): `offset=4321&country=FR`, 47,391 matches,
// PostgreSQL walked 96,478 rows of the sort index in 107 ms, the matches sorted took 80. Otherwise
// PostgreSQL chooses ('index').

export type PageStrategy = { kind: 'walk'; budget: number } | { kind: 'sort' } | { kind: 'index' };

const WALK_SLACK = 4;
export const MAX_WALK = 100_000;
export const MAX_SORTED = 20_000;

/** `needed` rows of a page (offset + limit + 1) among `total` matches of `live` live rows. */
export function pageStrategy(needed: number, total: number, live: number): PageStrategy {
  if (total <= 0 || live <= 0) return { kind: 'index' };
  const expected = (needed * live) / total;
  const budget = Math.ceil(expected * WALK_SLACK);
  if (budget < total && budget <= MAX_WALK) return { kind: 'walk', budget };
  return total <= MAX_SORTED || total < expected ? { kind: 'sort' } : { kind: 'index' };
}

/** Where a total is read from, in the order a plan tries them. */
export type TotalSource =
  /** Kept in this process (or the store) under the request's data version. */
  | 'kept'
  /** The match index, when it is at the request's version (it answers the page with it). */
  | 'index'
  /** value_totals: one value of one kept dimension, a posting-time start or a salary range. */
  | 'value_total'
  /** Counted in the statement that reads the page, when totals of the request's shape are mostly few. */
  | 'with_page'
  /** Counted by PostgreSQL (or brought forward from an earlier version), then kept and shared. */
  | 'count';

/** Where a page is read from, in the order a plan tries them. */
export type PageSource = 'kept' | 'index' | 'postgres';

/** What is known of a request before it is answered: nothing here costs a round trip. */
export interface Known {
  /** The data version the request read, when it was read with its key (not on a replica). */
  version: number | undefined;
  /** This process keeps pages, and totals. */
  pages: boolean;
  totals: boolean;
  /** The match index holds the request's filters (it may still decline: another version, a text it lacks). */
  indexHolds: boolean;
  /** One kept value total answers the filters (valueTotalOf). */
  valueTotal: boolean;
  /** Totals of the request's shape were mostly few (or the shape is new). */
  likelyFew: boolean;
}

/** The request as the plan sees it: its filters' clock dependence and its kind. */
export interface PlannedRequest {
  /** A window relative to the clock (`time_frame`): nothing of it is kept. */
  clockRelative: boolean;
  collapse: boolean;
  /** A page is wanted (a search), or the total alone (a count). */
  page: boolean;
}

/**
 * Which sources answer a request, in the order they are tried, and why: the one place the read path
 * decides. A source that cannot answer (the index at another version, nothing kept) passes to the next.
 */
export interface ReadPlan {
  /** The sources of the page (absent for a count). */
  page?: PageSource[];
  /** The sources of the total when PostgreSQL reads the page (or of a count). */
  total: TotalSource[];
  /** The page is kept under the data version its snapshot read. */
  keepPage: boolean;
  /** Totals are kept and shared. */
  keepTotal: boolean;
  /** PostgreSQL reads the page in one snapshot (a kept page, or a collapse's several statements). */
  snapshot: boolean;
  why: string;
}

export function planRead(req: PlannedRequest, k: Known): ReadPlan {
  const keepTotal = k.totals && !req.clockRelative;
  const index = k.indexHolds;
  const total: TotalSource[] = [];
  if (!req.page) {
    if (keepTotal && k.version !== undefined) total.push('kept');
    if (index) total.push('index');
  }
  // A collapse counts groups: neither value totals nor a count with its page hold them.
  if (!req.collapse && k.valueTotal) total.push('value_total');
  else if (req.page && !req.collapse && k.likelyFew) total.push('with_page');
  total.push('count');
  const why = [
    index ? 'the match index holds the filters' : 'PostgreSQL answers',
    req.clockRelative ? 'a window relative to the clock is never kept' : '',
  ]
    .filter(Boolean)
    .join('; ');
  if (!req.page) return { total, keepPage: false, keepTotal, snapshot: false, why };
  const keepPage = k.pages && !req.clockRelative;
  const page: PageSource[] = [
    ...(keepPage ? ['kept' as const] : []),
    ...(index ? ['index' as const] : []),
    'postgres',
  ];
  return { page, total, keepPage, keepTotal, snapshot: keepPage || req.collapse, why };
}
