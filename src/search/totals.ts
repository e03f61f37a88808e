// Exact totals, cached per data version. The data changes only when ingestion or the expiry schedule
// commits, and each such commit bumps data_version; a total is stored under the version read in the
// same snapshot as the count, so a cached total is the exact count of that version. Windows relative to
// the clock (time_frame) are never cached.

export class TotalsCache {
  private map = new Map<string, number>();
  private counting = new Map<string, Promise<number>>();
  hits = 0;
  misses = 0;

  constructor(private readonly max = 10_000) {}

  get(version: number, key: string): number | undefined {
    const k = `${version}|${key}`;
    const v = this.map.get(k);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert: the map's order is the eviction order.
    this.map.delete(k);
    this.map.set(k, v);
    return v;
  }

  /**
   * The total of `key` at `version`, counting it (once: concurrent requests for the same total share
   * one count) when it is not cached. `count` returns the total with the version of its own snapshot.
   */
  resolve(
    version: number,
    key: string,
    count: () => Promise<{ n: number; version: number }>,
  ): Promise<number> {
    const cached = this.get(version, key);
    if (cached !== undefined) return Promise.resolve(cached);
    const k = `${version}|${key}`;
    let running = this.counting.get(k);
    if (!running) {
      running = count()
        .then((r) => {
          this.set(r.version, key, r.n);
          return r.n;
        })
        .finally(() => this.counting.delete(k));
      this.counting.set(k, running);
    }
    return running;
  }

  set(version: number, key: string, total: number): void {
    this.map.set(`${version}|${key}`, total);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
}

/** SQL of the data version, to read in the same statement (and snapshot) as a count. */
export const VERSION_SQL = '(SELECT version FROM data_version WHERE id = 1)';
