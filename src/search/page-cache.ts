// Search pages kept per data version. A page is a function of the data and the request alone (windows
// relative to the clock aside, which are never kept), and the data changes only when a commit bumps
// data_version; a page computed in one snapshot is stored under the version read in that snapshot, so it
// is the exact answer to the same request at that version, whichever request asks. A request looks its
// page up under the version it read, so nothing kept can outlive a load, an expiry or a changed profile.
//
// Bounded by the bytes it holds (its values as `sizeOf` counts them, its keys at two bytes a character,
// V8's widest); the least recently used page goes first. Concurrent misses of one page share one
// computation.

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
}

/** What a kept search page holds, in bytes. */
export function pageSize(page: SearchPage): number {
  return page.data.length + 2 * (64 + (page.nextCursor?.length ?? 0));
}

export interface Computed<T> {
  /** The data version read in the snapshot the value was computed in (undefined: not kept). */
  version: number | undefined;
  value: T;
}

export class PageCache<T> {
  private map = new Map<string, { value: T; bytes: number }>();
  private running = new Map<string, Promise<T>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: T) => number,
  ) {}

  /**
   * The value of `key` at `version`: kept, or being computed by a concurrent request, or computed now
   * by `compute` and kept under the version it reports. `fits` tells whether a value computed earlier
   * still answers this request (feeds: a window relative to the clock); one that does not is computed
   * again.
   */
  resolve(
    version: number,
    key: string,
    compute: () => Promise<Computed<T>>,
    fits: (value: T) => boolean = () => true,
  ): Promise<T> {
    const k = `${version}|${key}`;
    const kept = this.map.get(k);
    if (kept && fits(kept.value)) {
      this.hits++;
      // Re-insert: the map's order is the eviction order.
      this.map.delete(k);
      this.map.set(k, kept);
      return Promise.resolve(kept.value);
    }
    this.misses++;
    const fresh = () =>
      compute().then((c) => {
        if (c.version !== undefined) this.put(c.version, key, c.value);
        return c.value;
      });
    const running = this.running.get(k);
    if (running) return running.then((value) => (fits(value) ? value : fresh()));
    const started = fresh().finally(() => this.running.delete(k));
    this.running.set(k, started);
    return started;
  }

  /** The value kept for `key` at `version`, if any (not counted as a look-up). */
  peek(version: number, key: string): T | undefined {
    return this.map.get(`${version}|${key}`)?.value;
  }

  /** Keeps `value` as the value of `key` at `version` (read in a snapshot of that version). */
  put(version: number, key: string, value: T): void {
    this.keep(`${version}|${key}`, value);
  }

  private keep(k: string, value: T): void {
    const bytes = this.sizeOf(value) + 2 * k.length;
    if (bytes > this.maxBytes / 8) return; // one page never takes more than an eighth
    const old = this.map.get(k);
    if (old) {
      this.bytes -= old.bytes;
      this.map.delete(k);
    }
    this.map.set(k, { value, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(oldest);
      this.bytes -= entry.bytes;
    }
  }

  /** Bytes held (an upper bound). */
  get size(): number {
    return this.bytes;
  }
}
