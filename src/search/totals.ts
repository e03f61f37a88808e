// Exact totals, cached per data version. The data changes only when ingestion or the expiry schedule
// commits, and each such commit bumps data_version; a total is stored under the version read in the
// same snapshot as the count, so a cached total is the exact count of that version. Windows relative to
// the clock (time_frame) are never cached. When the versions since a cached total only moved rows out of
// (or into) the live population, the total is brought forward by checking those rows alone.

/** A total and the data version it is exact for. */
export interface Counted {
  n: number;
  version: number;
}

export class TotalsCache {
  private map = new Map<string, number>();
  private counting = new Map<string, Promise<number>>();
  /** The most recent total of each key, the starting point of a replay. */
  private latest = new Map<string, Counted>();
  hits = 0;
  misses = 0;
  replayed = 0;

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
   * The total of `key` at `version` when it is not cached: brought forward from the latest earlier
   * total of the key by `replay` when the versions between allow it (it returns the total and the
   * version it reached, or undefined), else counted. Concurrent requests for the same total share one
   * such computation. Both functions report the version of their own snapshot.
   */
  resolve(
    version: number,
    key: string,
    count: () => Promise<Counted>,
    replay?: (from: Counted) => Promise<Counted | undefined>,
  ): Promise<number> {
    const cached = this.get(version, key);
    if (cached !== undefined) return Promise.resolve(cached);
    const k = `${version}|${key}`;
    let running = this.counting.get(k);
    if (!running) {
      const earlier = this.latest.get(key);
      const work = async () => {
        const replayed = earlier && earlier.version < version && replay ? await replay(earlier) : undefined;
        if (replayed) this.replayed++;
        return replayed ?? (await count());
      };
      running = work()
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
    const last = this.latest.get(key);
    if (!last || last.version <= version) {
      this.latest.delete(key);
      this.latest.set(key, { n: total, version });
    }
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
    while (this.latest.size > this.max) this.latest.delete(this.latest.keys().next().value as string);
  }
}

/** SQL of the data version, to read in the same statement (and snapshot) as a count. */
export const VERSION_SQL = '(SELECT version FROM data_version WHERE id = 1)';
