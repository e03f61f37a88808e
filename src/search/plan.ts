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
