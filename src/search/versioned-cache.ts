// The one cache of the read path: values kept per data version, for pages (page-cache.ts) and totals
// (totals.ts) alike. A value is a function of the data and the request alone, and the data changes only
// when a commit bumps data_version; a value computed in one snapshot is stored under the version read in
// that snapshot, so it is the exact answer at that version, whichever request asks. A request looks its
// value up under the version it read, so nothing kept can outlive a load, an expiry or a changed profile.
//
// Bounded by what its entries hold (pages: their bytes and their keys' at two bytes a character, V8's
// widest; totals: one unit each); the least recently used entry goes first. Concurrent misses
// of one value share one computation.

export interface Computed<T> {
  /** The data version read in the snapshot the value was computed in (undefined: not kept). */
  version: number | undefined;
  value: T;
}

export class VersionedCache<T> {
  private map = new Map<string, { value: T; bytes: number; version: number; key: string }>();
  /** The newest version each key is kept at: where a value is carried forward from (resolve's `carry`). */
  private newest = new Map<string, number>();
  private running = new Map<string, Promise<T>>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  /** Misses answered by a value of an earlier version, carried forward. */
  carried = 0;

  /**
   * `sizeOf`: an entry's units (bytes), to which its key's bytes are added unless `units` says each entry
   * is one unit (totals); `maxShare`: the largest part of the bound one entry may take (a larger one is
   * returned, not kept).
   */
  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: T) => number,
    private readonly opts: { units?: boolean; maxShare?: number } = {},
  ) {}

  /**
   * The value of `key` at `version`: kept, or being computed by a concurrent request, or computed now
   * by `compute` and kept under the version it reports. `fits` tells whether a value computed earlier
   * still answers this request (feeds: a window relative to the clock); one that does not is computed
   * again. `carry`, given the version of the newest value kept at an earlier version, returns the version
   * that value is still the answer at (nothing it depends on changed since), or undefined.
   */
  resolve(
    version: number,
    key: string,
    compute: () => Promise<Computed<T>>,
    fits: (value: T) => boolean = () => true,
    carry?: (from: number) => Promise<number | undefined>,
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
    const fresh = async () => {
      const earlier = carry && this.earlier(version, key);
      if (earlier && fits(earlier.value)) {
        // An optimisation: when it fails, the value is computed.
        const at = await carry(earlier.version).catch(() => undefined);
        if (at !== undefined && at >= version) {
          this.carried++;
          this.put(at, key, earlier.value);
          return earlier.value;
        }
      }
      const c = await compute();
      if (c.version !== undefined) this.put(c.version, key, c.value);
      return c.value;
    };
    const running = this.running.get(k);
    if (running) return running.then((value) => (fits(value) ? value : fresh()));
    const started = fresh().finally(() => this.running.delete(k));
    this.running.set(k, started);
    return started;
  }

  /** The value kept for `key` at `version`, counted as a hit or a miss. */
  get(version: number, key: string): T | undefined {
    const k = `${version}|${key}`;
    const kept = this.map.get(k);
    if (!kept) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(k);
    this.map.set(k, kept);
    return kept.value;
  }

  /** The newest value kept for `key` at a version before `version`, and that version. */
  earlier(version: number, key: string): { version: number; value: T } | undefined {
    const at = this.newest.get(key);
    const kept = at !== undefined && at < version ? this.map.get(`${at}|${key}`) : undefined;
    return kept && { version: at!, value: kept.value };
  }

  /** The value kept for `key` at `version`, if any (not counted as a look-up). */
  peek(version: number, key: string): T | undefined {
    return this.map.get(`${version}|${key}`)?.value;
  }

  /** Keeps `value` as the value of `key` at `version` (read in a snapshot of that version). */
  put(version: number, key: string, value: T): void {
    this.keep(version, key, value);
  }

  private keep(version: number, key: string, value: T): void {
    const k = `${version}|${key}`;
    const bytes = this.opts.units ? this.sizeOf(value) : this.sizeOf(value) + 2 * k.length;
    if (bytes > this.maxBytes * (this.opts.maxShare ?? 1 / 8)) return;
    const old = this.map.get(k);
    if (old) {
      this.bytes -= old.bytes;
      this.map.delete(k);
    }
    this.map.set(k, { value, bytes, version, key });
    this.bytes += bytes;
    // A newer value of a key replaces the older one kept: a request still at that version computes it.
    const before = this.newest.get(key);
    if (before === undefined || version > before) {
      this.newest.set(key, version);
      const older = before === undefined ? undefined : this.map.get(`${before}|${key}`);
      if (older) {
        this.map.delete(`${before}|${key}`);
        this.bytes -= older.bytes;
      }
    }
    for (const [oldest, entry] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(oldest);
      this.bytes -= entry.bytes;
      if (this.newest.get(entry.key) === entry.version) this.newest.delete(entry.key);
    }
  }

  /** Bytes held (an upper bound). */
  get size(): number {
    return this.bytes;
  }
}
