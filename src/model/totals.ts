// Exact totals as the search path counts them and a store shares them between processes
// (src/search/totals.ts, src/db/totals-store.ts).

/** A total and the data version it is exact for. */
export interface Counted {
  n: number;
  version: number;
}

/** Where totals are shared (db/totals-store.ts), or kept by one process (MemoryTotals). */
export interface TotalsStore {
  /** The stored total of `key` at `version`, else the latest stored at an earlier version. */
  find(key: string, version: number): Promise<{ exact?: number; earlier?: Counted }>;
  /** Claims the count of `key` at `version`; false when another process has claimed it first. */
  claim(key: string, version: number): Promise<boolean>;
  /** The total of a claim held by another process, once stored; undefined if it was given up or is late. */
  await(key: string, version: number): Promise<number | undefined>;
  /** Stores a total; `claimed` is the version claimed, which the count's own snapshot may have passed. */
  put(key: string, claimed: number, counted: Counted): Promise<void>;
  /** Gives up a claim after a failed count, so that the waiting processes count themselves. */
  release(key: string, version: number): Promise<void>;
}
