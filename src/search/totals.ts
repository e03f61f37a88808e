// Exact totals, shared per data version. The data changes only when ingestion or the expiry schedule
// commits, and each such commit bumps data_version; a total is stored under the version read in the
// same snapshot as the count, so a stored total is the exact count of that version, whichever process,
// host or replica counted it. Windows relative to the clock (time_frame) are never stored. When the
// versions since a stored total only moved rows out of (or into) the live population, the total is
// brought forward by checking those rows alone.
//
// Two levels: each process keeps the totals it served (versioned-cache.ts, as pages), and a TotalsStore shares them
// between processes and hosts (db/totals-store.ts, on the primary). Concurrent requests of one process
// for the same total share one computation; across processes, the first to claim a total counts it and
// the others wait for it in the store.
import type { Counted, TotalsStore } from '../model/totals.ts';
import { VersionedCache } from './versioned-cache.ts';

/** The store of a single process: the latest total of each key, the starting point of a replay. */
class MemoryTotals implements TotalsStore {
  private latest = new Map<string, Counted>();

  constructor(private readonly max = 10_000) {}

  async find(key: string, version: number) {
    const last = this.latest.get(key);
    if (!last || last.version > version) return {};
    return last.version === version ? { exact: last.n } : { earlier: last };
  }
  async claim() {
    return true;
  }
  async await() {
    return undefined;
  }
  async put(key: string, _claimed: number, counted: Counted) {
    const last = this.latest.get(key);
    if (last && last.version > counted.version) return;
    this.latest.delete(key);
    this.latest.set(key, counted);
    while (this.latest.size > this.max) this.latest.delete(this.latest.keys().next().value as string);
  }
  async release() {}
}

export class TotalsCache {
  /** The totals this process served, the latest `max` of them, one unit each. */
  private kept: VersionedCache<number>;
  /** Per shape of request (the names of its filters), the recent share of totals that were few. */
  private few = new Map<string, number>();
  /** Totals taken from the store, counted by another process (or earlier by this one). */
  shared = 0;
  replayed = 0;

  constructor(
    private readonly store: TotalsStore = new MemoryTotals(),
    private readonly max = 10_000,
  ) {
    this.kept = new VersionedCache<number>(max, () => 1, { units: true, maxShare: 1 });
  }

  get hits(): number {
    return this.kept.hits;
  }

  get misses(): number {
    return this.kept.misses;
  }

  get(version: number, key: string): number | undefined {
    return this.kept.get(version, key);
  }

  /**
   * The total of `key` at `version` when this process has not cached it: from the store, else brought
   * forward from the latest earlier stored total by `replay` when the versions between allow it (it
   * returns the total and the version it reached, or undefined), else counted. Both functions report
   * the version of their own snapshot. The store is an optimisation: when it fails, the total is counted.
   */
  resolve(
    version: number,
    key: string,
    count: () => Promise<Counted>,
    replay?: (from: Counted) => Promise<Counted | undefined>,
  ): Promise<number> {
    return this.kept.resolve(version, key, () =>
      this.compute(version, key, count, replay).then((r) => ({ version: r.version, value: r.n })),
    );
  }

  private async compute(
    version: number,
    key: string,
    count: () => Promise<Counted>,
    replay?: (from: Counted) => Promise<Counted | undefined>,
  ): Promise<Counted> {
    const found = await this.store
      .find(key, version)
      .catch(() => ({}) as { exact?: number; earlier?: Counted });
    if (found.exact !== undefined) {
      this.shared++;
      return { n: found.exact, version };
    }
    const mine = await this.store.claim(key, version).catch(() => true);
    if (!mine) {
      const n = await this.store.await(key, version).catch(() => undefined);
      if (n !== undefined) {
        this.shared++;
        return { n, version };
      }
    }
    try {
      // From the latest stored total, else from the latest this process served (the match index's
      // answers among them, which are not stored): at an expiry, a total is replayed, not counted.
      const kept = this.kept.earlier(version, key);
      const earlier =
        kept && !(found.earlier && found.earlier.version >= kept.version)
          ? { n: kept.value, version: kept.version }
          : found.earlier;
      const replayed = earlier && replay ? await replay(earlier) : undefined;
      if (replayed) this.replayed++;
      const r = replayed ?? (await count());
      await this.store.put(key, version, r).catch(() => {});
      return r;
    } catch (err) {
      if (mine) await this.store.release(key, version).catch(() => {});
      throw err;
    }
  }

  /**
   * Whether a total of this shape is likely to be few (by `observe`): unknown shapes are. Salary ranges,
   * for one, are counted from their index alone and always run to tens of thousands; two skills rarely do.
   */
  likelyFew(shape: string): boolean {
    const share = this.few.get(shape);
    return share === undefined || share >= 0.5;
  }

  /** Records whether a total of this shape was few; recent totals weigh most. */
  observe(shape: string, few: boolean): void {
    const x = few ? 1 : 0;
    const share = this.few.get(shape);
    this.few.delete(shape);
    this.few.set(shape, share === undefined ? x : share + (x - share) / 4);
    while (this.few.size > this.max) this.few.delete(this.few.keys().next().value as string);
  }

  /** The total of `key` at `version` if this process keeps it; not counted as a look-up. */
  peek(version: number, key: string): number | undefined {
    return this.kept.peek(version, key);
  }

  /** A total counted outside `resolve` (in the statement that read its page): kept here and shared. */
  async learned(key: string, counted: Counted): Promise<void> {
    this.remember(counted.version, key, counted.n);
    await this.store.put(key, counted.version, counted).catch(() => {});
  }

  /** Keeps a total known exact at `version` (counted, or read from value_totals). */
  remember(version: number, key: string, total: number): void {
    this.kept.put(version, key, total);
  }
}

/** SQL of the data version, to read in the same statement (and snapshot) as a count. */
export const VERSION_SQL = '(SELECT version FROM data_version WHERE id = 1)';
