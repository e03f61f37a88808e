// The match index as a service: one process builds it (match-index.ts) for the current data version and
// builds it again when the version moves on; requests ask it for a total and the ids of a page, and use
// the answer only when it was computed at the very version they read (jobs.ts), so no answer is ever
// stale. Workers ask the process that holds it over IPC (match-client.ts): one copy in memory.
import type pg from 'pg';
import { type FileHandle, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  commonWords,
  type LiveChanges,
  databaseDigest,
  matchIdentity,
  orderIds,
  readLiveChangesSince,
  readMatchRows,
  readWrittenSince,
} from '../db/match-rows.ts';
import { dataVersion } from '../db/stats.ts';
import { factKey, HELD_CODES, HELD_FACTS, HELD_SETS, type JobFilters } from './dimensions.ts';
import {
  type FacetCounts,
  type HeldRows,
  holds,
  type TrendTally,
  columnsStart,
  loadIndex,
  type MatchIndex,
  MatchIndexBuilder,
  type MatchRequest,
  saveIndex,
  savedHeader,
  FORMAT as INDEX_FORMAT,
} from './match-index.ts';
import { mergeIndexes, placeRows } from './match-merge.ts';
import { parseTsQuery, type TsNode } from './match-tsquery.ts';
import { byCount, type CurrencySalary, currencyFigures } from './salary-figures.ts';

export interface MatchQuery {
  /** The data version the request read; answered only by an index of that version. */
  version: number;
  filters: JobFilters;
  /** Groups (company + title) instead of jobs. */
  collapse: boolean;
  offset: number;
  /** Rows (or groups) of the page wanted from `offset`; 0 for the total alone. */
  limit: number;
  /**
   * A cursor page: the rows after this job in search order (`offset` counts from there). Answered only
   * when the job is one of the index's rows (live, or left since the build), as the keyset then is.
   */
  after?: { postedUs: number; id: string };
  /** Facet counts of these dimensions (by name) among the matches (groups when collapsed) instead of a page. */
  facets?: { names: string[]; limit: number };
  /** The salary distribution of the matches instead of a page (the client's bucket edges, if given). */
  salary?: { edges?: number[] };
  /** The trend of the matches (live and gone) over a window (microseconds) instead of a page. */
  trend?: { since: number; step: number; until: number };
  /**
   * Whether the index would answer these filters without reading anything from PostgreSQL (an empty
   * answer when it would, none when not), without answering: the expensive-work gate asks it of
   * description searches, and of every search while rows are held apart (MatchService.apart).
   */
  probe?: boolean;
}

export interface MatchAnswer {
  /** Exact number of matching jobs (groups when collapsed). */
  total: number;
  /** The ids of the page, in search order (of each group's newest job when collapsed). */
  ids: string[];
  /** Collapsed: each group's number of matching jobs. */
  openings?: number[];
  /** Asked for facets: the counts of each, by name. */
  facets?: Record<string, FacetCounts>;
  /** Asked for the salary distribution: each currency's figures, most values first. */
  salary?: CurrencySalary[];
  /** Asked for a trend: the matches' entries and exits before the window ([0]) and in each interval. */
  trend?: TrendTally;
}

/** Where a request asks for its answer: the index in this process, or the one that holds it. */
export interface MatchSource {
  ask(q: MatchQuery): Promise<MatchAnswer | undefined>;
  /**
   * Brings the index up to `version` when it is behind it (a commit since its last look: an expiry runs
   * every minute), so that a request admitted at that version is answered by the index, not by a cold
   * count in PostgreSQL. Resolves once the index has tried (it does not wait for a build), within CATCH_UP_MS.
   */
  catchUp?(version: number): Promise<void>;
}

/**
 * How long at most a request admitted at a data version the index has not reached waits for it. Carrying
 * an expiry takes 0.1-0.6 s of a loaded machine at a million jobs (reading the changes, the facet counts
 * kept); a request that stops waiting is PostgreSQL's, cold, and costs it seconds. What needs a build
 * (a load) is PostgreSQL's at once.
 */
export const CATCH_UP_MS = 2000;

/**
 * A page and total of `index` with the rows held apart that the request matches (`held`, rows of
 * `apart`) taken in, in search order. Undefined when a held row's posting time is that of a row it is
 * ordered against (the page's, the next one's, the cursor's, another held row's): ids then order them, in
 * the database's collation.
 */
function withHeld(
  index: MatchIndex,
  held: HeldRows,
  request: MatchRequest,
  q: MatchQuery,
  after: number | undefined,
): MatchAnswer | undefined {
  const at = held.index.parts.posted;
  const heldIds = held.index.ids(held.rows);
  let extra = Array.from(held.rows, (r, k) => ({ us: at[r], id: heldIds[k] }));
  if (new Set(extra.map((e) => e.us)).size < extra.length) return undefined;
  if (q.after) {
    const cursor = q.after.postedUs;
    if (extra.some((e) => e.us === cursor)) return undefined;
    extra = extra.filter((e) => e.us < cursor);
  }
  const want = q.offset + q.limit;
  // One row past the page: a held row after the page's last may still come before it.
  const s = index.select(request, 0, want + 1, after);
  if (!s) return undefined;
  const rows = s.rows.slice();
  const times = Array.from(rows, (r) => index.parts.posted[r]);
  const taken = new Set(times);
  if (extra.some((e) => taken.has(e.us))) return undefined;
  const ids = index.ids(rows);
  const merged: string[] = [];
  for (let i = 0, j = 0; merged.length < want && (i < ids.length || j < extra.length); )
    merged.push(j >= extra.length || (i < ids.length && times[i] > extra[j].us) ? ids[i++] : extra[j++].id);
  return { total: s.total + held.rows.length, ids: merged.slice(q.offset) };
}

/** Two ascending arrays as one, ascending. */
function mergeSorted(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  for (let i = 0, j = 0, k = 0; k < out.length; k++)
    out[k] = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
  return out;
}

/** The counts of two trends of the same window, added. */
function addTrends(a: TrendTally, b: TrendTally): TrendTally {
  const add = (x: number[], y: number[]) => x.map((v, i) => v + y[i]);
  return { entered: add(a.entered, b.entered), added: add(a.added, b.added), left: add(a.left, b.left) };
}

/** Whether the index could answer these filters: requests it cannot are never sent to it. */
export const indexable = (f: JobFilters): boolean => holds(f);

/** A built index, and the file it is saved in when the builder saved it already (another process). */
export interface Built {
  index: MatchIndex;
  file?: string;
}

export type IndexBuilder = () => Promise<Built>;

/** The columns the index reads. */
const HELD = [
  ...[...HELD_SETS, ...HELD_CODES].map((d) => ({ name: d.name, column: d.column!, company: d.company })),
  ...HELD_FACTS.map((f) => ({ name: factKey(f), column: f.column, company: f.company, source: f.source })),
];

/** Builds the index from the live jobs `pool` reads, in this thread (`words`: the description lexemes held). */
export async function buildIndex(pool: pg.Pool, words?: string[]): Promise<MatchIndex> {
  const b = new MatchIndexBuilder(words ?? (await commonWords(pool)));
  const version = await readMatchRows(pool, HELD, (rows) => {
    for (const r of rows) b.add(r);
  });
  return b.done(version);
}

export interface MatchStatus {
  version?: number;
  rows?: number;
  builds: number;
  /** Versions reached without a build: the jobs that left marked, or the jobs written put in place. */
  carried: number;
  /** How long the last carry over written jobs took (ms). */
  lastMergeMs?: number;
  /** The index was read from its saved file (at start, or later when the file was newer). */
  loaded?: boolean;
  /** Rows that entered since the index was built, held apart until a build merges them (MatchService.apart). */
  apart?: number;
  lastBuildMs?: number;
}

/**
 * How often an index carried forward is saved again. A restart reads the saved index and carries it over
 * the versions since, which `data_changes` logs for an hour; older than that, it would be built anew.
 */
export const SAVE_CARRIED_MS = 15 * 60_000;

/** A saved index's header is its value lists (a few MB at a million jobs); a longer one is not an index. */
const MAX_HEADER = 256 * 2 ** 20;

/** The jobs written since an index of `live` jobs that a carry takes on: above it, a build reads less. */
export const carryLimit = (live: number): number => Math.max(1000, live / 4);

/** What a saved index file says of itself (its header alone) and when it was written. */
export interface SavedFile {
  db: string;
  version: number;
  live: number;
  mtimeMs: number;
}

/**
 * A saved index file read in two parts, its header and its columns, for readIndex: the index then keeps
 * the columns' bytes only, not the header's (the names it holds, megabytes of them).
 */
export async function readIndexParts(file: string): Promise<{ head: Buffer; columns: Buffer }> {
  const fh = await open(file, 'r');
  try {
    const head = await readHead(fh);
    const start = columnsStart(head.length - 8);
    // Not from Node's pool: a buffer of its own starts at offset 0, aligned for every column's type.
    const columns = Buffer.allocUnsafeSlow(Math.max(0, (await fh.stat()).size - start));
    await readFully(fh, columns, start);
    return { head, columns };
  } finally {
    await fh.close();
  }
}

/** A saved index's length and header (savedHeader reads them); throws for a file that holds none. */
async function readHead(fh: FileHandle): Promise<Buffer> {
  const length = Buffer.alloc(8);
  await readFully(fh, length, 0);
  const headLength = length.readUInt32LE(0);
  if (headLength > MAX_HEADER) throw new Error(`match index: a header of ${headLength} bytes`);
  const head = Buffer.alloc(8 + headLength);
  await readFully(fh, head, 0);
  return head;
}

async function readFully(fh: FileHandle, into: Buffer, position: number): Promise<void> {
  for (let at = 0; at < into.length; ) {
    const { bytesRead } = await fh.read(into, at, into.length - at, position + at);
    if (!bytesRead) throw new Error('match index: the file ended early');
    at += bytesRead;
  }
}

/** The header of the index saved in `file`; undefined without one this code can read (of its format). */
export async function readSaved(file: string): Promise<SavedFile | undefined> {
  const fh = await open(file, 'r').catch(() => undefined);
  if (!fh) return undefined;
  try {
    const { format, db, version, live } = savedHeader(await readHead(fh));
    // A file of another format (an earlier release's) is one this code cannot read: as if there were none.
    if (format !== INDEX_FORMAT) return undefined;
    if (typeof version !== 'number' || typeof live !== 'number' || typeof db !== 'string') return undefined;
    return { db, version, live, mtimeMs: (await fh.stat()).mtimeMs };
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

export class MatchService implements MatchSource {
  private index: MatchIndex | undefined;
  private building: Promise<void> | undefined;
  /** The refresh under way: one at a time, so that two carries cannot leave the index at the older version. */
  private refreshing: Promise<void> | undefined;
  private nextBuildAt = 0;
  private nextMergeAt = 0;
  /** When the saved file was written (ms since the epoch; 0 when unknown). */
  private savedAt = 0;
  private queries = new Map<string, TsNode | null>();
  readonly status: MatchStatus = { builds: 0, carried: 0 };
  /** Told the version the index is at whenever it changes (the host tells the workers). */
  onVersion: (version: number) => void = () => {};
  /**
   * The rows that entered the live population since the index was built (an expired job's best copy,
   * promoted), held in a small index of their own, with `index` and the version it is at: a merge renumbers
   * every row, so it is left to the build process (seconds), and meanwhile the main index, carried over
   * the rows that left, answers with these (ask). `group`: each held row's group in the main index.
   */
  private held:
    | { of: MatchIndex; version: number; ids: string[]; index: MatchIndex; group: Int32Array }
    | undefined;

  /**
   * `file`: where the index is saved after each build and read back at start, so that a restart does not
   * wait for a build (a million jobs: 15–60 s of one core against a second to read the file).
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly log: (msg: string, err?: unknown) => void = () => {},
    private readonly file?: string,
    private readonly builder: IndexBuilder = () => buildIndex(pool).then((index) => ({ index })),
    private readonly saveCarriedMs = SAVE_CARRIED_MS,
    /**
     * Whether a load is merged in this process. A merge renumbers every row (1.5 s of a core at a million
     * jobs, holding the thread): the process that answers requests leaves it to its builder, which carries
     * the saved index in a process of its own.
     */
    private readonly mergeHere = true,
    private readonly catchUpMs = CATCH_UP_MS,
    /** Whether rows that entered are held apart (above) rather than merged or built at once. */
    private readonly holdEntered = false,
  ) {}

  /**
   * Carries the index to the current version in this process, merging loads whatever `mergeHere` says, and
   * builds nothing: for a service at start, before it answers any request. Whether it is at that version.
   */
  async carryNow(): Promise<boolean> {
    if (this.refreshing) return false;
    let carried = false;
    this.refreshing = (async () => {
      const version = await dataVersion(this.pool);
      carried = this.index?.version === version || (await this.carry(version, Date.now(), true)) === true;
    })().finally(() => {
      this.refreshing = undefined;
    });
    await this.refreshing;
    return carried;
  }

  /** The index, at the version it is at (undefined before one is read or built). */
  get current(): MatchIndex | undefined {
    return this.index;
  }

  /** The memory of the index and of the rows held apart from it (MatchIndex.bytes); 0 before one is read or built. */
  bytes(): number {
    return (this.index?.bytes() ?? 0) + (this.held?.index.bytes() ?? 0);
  }

  /** Reads the saved index, if there is one of this database that can be used or carried forward. */
  async load(): Promise<boolean> {
    if (!this.file) return false;
    const saved = await readIndexParts(this.file).catch(() => undefined);
    if (!saved) return false;
    try {
      const index = loadIndex(saved.head, await matchIdentity(this.pool), saved.columns);
      if (!index) return false;
      this.index = index;
      // Rows held apart were of the index this one replaces.
      this.hold(undefined);
      this.savedAt = (await stat(this.file).catch(() => undefined))?.mtimeMs ?? 0;
      Object.assign(this.status, { version: index.version, rows: index.size });
      this.status.loaded = true;
      this.announce(index.version);
      return true;
    } catch (err) {
      this.log('match index: the saved index could not be read', err);
      return false;
    }
  }

  private async save(built: Built): Promise<void> {
    if (!this.file) {
      if (built.file) await rm(built.file, { force: true });
      return;
    }
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      if (built.file) await rename(built.file, tmp);
      else await writeFile(tmp, saveIndex(built.index, { db: await databaseDigest(this.pool) }));
      await rename(tmp, this.file);
      this.savedAt = Date.now();
    } catch (err) {
      await rm(tmp, { force: true });
      this.log('match index: could not be saved', err);
    }
  }

  /**
   * Brings the index to the current data version: carried over an expiry, else read from the saved file
   * when that is newer (the `ingest` command saves the index of what it loaded), else built again. A build
   * costs 15–60 s of one core at a million jobs, so builds start at most every four build times (a fifth
   * of a core at most); until the new one is done, requests are answered by PostgreSQL.
   */
  refresh(now = Date.now()): Promise<void> {
    this.refreshing ??= this.carryOrBuild(now).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  async catchUp(version: number): Promise<void> {
    const until = Date.now() + this.catchUpMs;
    // Twice at most: a refresh already under way may have read the version before the commit.
    for (let tries = 0; tries < 2; tries++) {
      const at = this.index?.version;
      const left = until - Date.now();
      if (at === undefined || at >= version || left <= 0) return;
      let timer: NodeJS.Timeout | undefined;
      let woken: (() => void) | undefined;
      await Promise.race([
        // A refresh that fails leaves the request to PostgreSQL, as before it. A build (or a merge in the
        // build process) takes seconds and holds the refresh: an expiry meanwhile is carried on its own.
        (this.building ? this.carryAlone() : this.refresh()).catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, left);
          // The index reaches the version before its refresh ends when it goes on to save it, and a
          // refresh that starts a build ends with it.
          woken = resolve;
          this.waking.add(woken);
        }),
      ]);
      clearTimeout(timer);
      this.waking.delete(woken!);
    }
  }

  /** An expiry carried while a build holds the refresh, one at a time; a load waits for the build. */
  private carryAlone(): Promise<unknown> {
    this.alone ??= dataVersion(this.pool)
      .then((version) => this.carry(version, Date.now(), false))
      .finally(() => {
        this.alone = undefined;
      });
    return this.alone;
  }

  private alone: Promise<unknown> | undefined;

  /** Waiting catch-ups, told when the index reaches a version and when a build starts. */
  private waking = new Set<() => void>();

  private wake(): void {
    for (const w of this.waking) w();
  }

  private announce(version: number): void {
    this.onVersion(version);
    this.wake();
  }

  private async carryOrBuild(now: number): Promise<void> {
    const version = await dataVersion(this.pool);
    // Rows held apart are merged by a build (in the build process, which carries the saved index).
    if (this.index?.version === version && !this.held) return;
    const carried = this.index?.version === version || (await this.carry(version, now));
    if (carried === 'later' || (carried && !this.held)) return;
    const saved = carried ? undefined : await this.savedVersion();
    if (
      saved !== undefined &&
      saved > (this.index?.version ?? -1) &&
      saved <= version &&
      (await this.load())
    ) {
      this.log(`match index: read the index saved at version ${saved} (${this.file})`);
      if (this.index?.version === version || (await this.carry(version, now))) return;
    }
    if (now < this.nextBuildAt) return;
    const started = Date.now();
    this.building = this.builder()
      .then(async (built) => {
        const { index } = built;
        const ms = Date.now() - started;
        this.index = index;
        this.hold(undefined);
        Object.assign(this.status, { version: index.version, rows: index.size, lastBuildMs: ms });
        this.status.builds++;
        this.nextBuildAt = Date.now() + 3 * ms;
        this.log(`match index: version ${index.version} built in ${ms} ms (${index.size} live rows)`);
        this.announce(index.version);
        await this.save(built);
      })
      .catch((err) => {
        this.nextBuildAt = Date.now() + 10_000;
        this.log('match index build failed', err);
      })
      .finally(() => {
        this.building = undefined;
      });
    this.wake();
    await this.building;
  }

  /**
   * Carried forward without a build: over an expiry, the jobs that left are marked (milliseconds); over a
   * load, the jobs it wrote are read and put in place (match-merge.ts). A merge renumbers every row, so
   * merges start at most every four merge times: during a load the index follows it in steps, and a
   * request of a version between them is PostgreSQL's. 'later': not now, and no build either.
   */
  private async carry(version: number, now = Date.now(), merge = this.mergeHere): Promise<boolean | 'later'> {
    const index = this.index;
    if (!index || version <= index.version) return false;
    const since = await readLiveChangesSince(this.pool, index.version, HELD, this.held?.ids);
    // A build done meanwhile replaced the index: the next refresh carries that one.
    if (index !== this.index) return false;
    if (since && !since.entered.length && index.leave(since.left, since.version, since.purged)) {
      this.hold(undefined);
      return this.carried(index);
    }
    if (since && this.holdEntered && !merge && this.holdApart(index, since)) return this.carried(index);
    // Rows held apart are not in the index a merge would start from: a build takes them in.
    if (!merge || this.held) return false;
    if (now < this.nextMergeAt) return 'later';
    const started = Date.now();
    // More than a quarter of the rows written: a build reads fewer rows than the merge's reads and work.
    const written = await readWrittenSince(this.pool, index.version, HELD, carryLimit(index.size));
    if (!written || written.version <= index.version || index !== this.index) return false;
    const b = new MatchIndexBuilder(index.heldWords);
    for (const r of written.rows) b.add(r);
    const added = b.done(written.version);
    const keys = written.rows.map((r) => r.collapse_key);
    const at = await placeRows(index, added, keys, new Set(written.touched), written.peers, (lists) =>
      orderIds(this.pool, lists),
    );
    if (!at || index !== this.index) return false;
    const merged = mergeIndexes(index, added, at, written.version);
    this.index = merged;
    const ms = Date.now() - started;
    this.status.lastMergeMs = ms;
    this.nextMergeAt = Date.now() + 3 * ms;
    return this.carried(merged);
  }

  /**
   * Carries the index over the rows that left, the rows that entered held apart (`held`); false (nothing
   * changed) when one that entered is a row of the index (only a build places it again).
   */
  private holdApart(index: MatchIndex, since: LiveChanges): boolean {
    const ids = new Set(since.entered.map((r) => r.id));
    if (since.entered.some((r) => index.rowOf(r.id, Number(r.posted_us)) !== undefined)) return false;
    const b = new MatchIndexBuilder(index.heldWords);
    for (const r of since.entered) b.add(r);
    const apart = b.done(since.version);
    // Each held row's group in the index: that of a live job of its collapse key the index holds, else
    // one of its own (numbered past the index's, one per key).
    const group = new Int32Array(apart.parts.groups.length);
    const keys = new Map(since.entered.map((r) => [r.id, r.collapse_key]));
    const heldIds = apart.ids(Uint32Array.from(group.keys()));
    for (let k = 0; k < group.length; k++) {
      const peer = since.peers.get(keys.get(heldIds[k])!)?.find(([id]) => !ids.has(id));
      const r = peer && index.rowOf(peer[0], Number(peer[1]));
      if (peer && r === undefined) return false;
      group[k] = r === undefined ? index.parts.groupCount + apart.parts.groups[k] : index.parts.groups[r];
    }
    // The rows that entered and left since are not the index's.
    const left = since.left.filter((l) => !ids.has(l.id));
    if (!index.leave(left, since.version, since.purged)) return false;
    this.hold({ of: index, version: since.version, ids: [...ids], index: apart, group });
    this.log(
      `match index: version ${since.version} carried, ${ids.size} rows that entered held apart until a build`,
    );
    return true;
  }

  private hold(held: typeof this.held): void {
    this.held = held;
    this.status.apart = held?.ids.length;
  }

  /** The rows held apart of `index` at its version, if any. */
  private apart(index: MatchIndex): MatchIndex | undefined {
    const h = this.held;
    return h && h.of === index && h.version === index.version ? h.index : undefined;
  }

  private async carried(index: MatchIndex): Promise<true> {
    Object.assign(this.status, { version: index.version, rows: index.size + (this.apart(index)?.size ?? 0) });
    this.status.carried++;
    this.announce(index.version);
    // Written while no other refresh runs, so no carry marks rows while the file is written; never with
    // rows held apart, which the file would not hold, nor during a build, which saves its own.
    if (!this.held && !this.building && Date.now() - this.savedAt >= this.saveCarriedMs)
      await this.save({ index });
    return true;
  }

  /** The version of the saved index, read from its header alone; undefined without a readable one. */
  private async savedVersion(): Promise<number | undefined> {
    return this.file ? (await readSaved(this.file))?.version : undefined;
  }

  async ask(q: MatchQuery): Promise<MatchAnswer | undefined> {
    const index = this.index;
    if (!index || index.version !== q.version || !holds(q.filters)) return undefined;
    const text = await this.textQueries([q.filters.title, q.filters.title_advanced]);
    const words = text && (await this.textQueries([q.filters.description, q.filters.description_advanced]));
    if (!words) return undefined;
    // The index may have been carried to a newer version while the text was read: matched only at q's.
    if (index !== this.index || index.version !== q.version) return undefined;
    // A phrase in a description search is PostgreSQL's (the index keeps no positions of words).
    if (words.length && !index.holdsWords(words)) return undefined;
    const request = { filters: q.filters, text, words };
    // Rows held apart that the request matches: a trend, facets and salary figures add theirs; a page, a
    // total and groups take them in.
    const apart = this.apart(index);
    let held: HeldRows | undefined;
    if (apart && !q.trend) {
      const rows = apart.matches(request);
      if (!rows) return undefined;
      if (rows.length) held = { index: apart, rows: rows.slice(), group: this.held!.group };
    }
    if (q.probe) return { total: 0, ids: [] };
    // Analytics of the matches instead of a page.
    if (q.trend) {
      const { since, step, until } = q.trend;
      const trend = q.collapse ? undefined : index.trend(request, since, step, until);
      const more = apart && trend && apart.trend(request, since, step, until);
      if (apart && !more) return undefined;
      return trend && { total: 0, ids: [], trend: more ? addTrends(trend, more) : trend };
    }
    if (q.facets) {
      // No filter: every live row, whose counts the index keeps.
      const given = Object.entries(q.filters).filter(([, v]) => v !== undefined);
      const rows = given.length ? () => index.matches(request) : undefined;
      // Counts are kept per filters, but never of a window relative to the clock.
      const key = q.filters.time_frame
        ? undefined
        : JSON.stringify(given.sort(([a], [b]) => (a < b ? -1 : 1)));
      const a = index.facets(rows, q.facets.names, q.facets.limit, q.collapse, key, held);
      return a && { total: a.total, ids: [], facets: a.counts };
    }
    if (q.salary) {
      const rows = q.collapse ? undefined : index.matches(request);
      if (!rows) return undefined;
      const edges = q.salary.edges;
      const values = index.salaries(rows);
      for (const [c, v] of held ? apart!.salaries(held.rows) : []) {
        const main = values.get(c);
        values.set(c, main ? mergeSorted(main, v) : v);
      }
      const salary = [...values].map(([c, v]) => currencyFigures(c, v, edges)).sort(byCount);
      return { total: rows.length + (held?.rows.length ?? 0), ids: [], salary };
    }
    if (q.collapse) {
      const rows = index.matches(request);
      if (!rows) return undefined;
      if (held) {
        const g = index.groupsWithHeld(rows, q.offset, q.limit, held);
        if (!g) return undefined;
        const ids = g.page.map((e) =>
          e.held ? apart!.ids(Uint32Array.of(e.row))[0] : index.ids(Uint32Array.of(e.row))[0],
        );
        return { total: g.total, ids, openings: g.page.map((e) => e.openings) };
      }
      const { total, page } = index.groups(rows, q.offset, q.limit);
      return {
        total,
        ids: index.ids(Uint32Array.from(page, (g) => g.row)),
        openings: page.map((g) => g.openings),
      };
    }
    let after: number | undefined;
    if (q.after) {
      after = index.rowOf(q.after.id, q.after.postedUs);
      if (after === undefined) return undefined;
    }
    if (held) return withHeld(index, held, request, q, after);
    const s = index.select(request, q.offset, q.limit, after);
    return s && { total: s.total, ids: index.ids(s.rows) };
  }

  /** The trees of the text queries given; undefined when one is not held. */
  private async textQueries(texts: (string | undefined)[]): Promise<TsNode[] | undefined> {
    const out: TsNode[] = [];
    for (const t of texts) {
      if (t === undefined) continue;
      const node = await this.textQuery(t);
      if (!node) return undefined;
      out.push(node);
    }
    return out;
  }

  /** A text query as PostgreSQL normalises it (stemmed, stop words gone), parsed; null if not held. */
  private async textQuery(text: string): Promise<TsNode | undefined> {
    let node = this.queries.get(text);
    if (node === undefined) {
      const { rows } = await this.pool.query<{ q: string }>("SELECT to_tsquery('english', $1)::text AS q", [
        text,
      ]);
      node = parseTsQuery(rows[0].q) ?? null;
      this.queries.set(text, node);
      if (this.queries.size > 10_000) this.queries.delete(this.queries.keys().next().value as string);
    }
    return node ?? undefined;
  }
}
