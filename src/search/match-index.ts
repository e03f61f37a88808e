// The live jobs of one data version in memory, in search order (posted_at DESC, id DESC, as PostgreSQL
// sorted them), beside the gone ones the expired feed lists (dead rows, with their expiry: for trends),
// with the values of the dimensions it holds (dimensions.ts): a sorted set of rows per value
// (countries, skills, taxonomies …) or a code per row (seniority, the company's industry …), a flag per
// row (remote, salary), the salary bounds, the collapse group; posting-time bounds are a range of the
// rows. It answers the exact total, the rows of a page, the groups of a collapsed page and the facet
// counts of any request whose filters it holds, without visiting a heap row: a count that PostgreSQL
// answers in hundreds of milliseconds when cold (every match's row is read) takes milliseconds here.
// Requests with other filters are answered by PostgreSQL as before.
import {
  DIMENSIONS,
  type Fact,
  factKey,
  filteredByIndex,
  HELD_CODES,
  HELD_FACTS,
  HELD_SETS,
  INDEXED_FACETS,
  type JobFilters,
  timeFrameStartMs,
} from './dimensions.ts';
import { CodeValues, FactColumn } from './match-codes.ts';
import {
  all,
  type Codes,
  complement,
  difference,
  EMPTY,
  IdTable,
  Ids,
  intersect,
  intersectAll,
  NumberList,
  narrowCodes,
  RowList,
  type RowSet,
  Strings,
  union,
  unionAll,
} from './match-sets.ts';
import type { LeftRow, MatchIdentity, MatchRow, PurgedRow } from '../db/match-rows.ts';
import { parseTsVector, type TsNode } from './match-tsquery.ts';
import { ValueSets } from './match-value-sets.ts';
import {
  type Bits,
  BitsBuilder,
  bitsToRows,
  countAndPage,
  doneWords,
  hasPhrase,
  PackedRows,
  readLexemes,
  type Words,
  rowsIn,
  wordBits,
} from './match-words.ts';

/** The filters the index holds (its text queries too); a request with any other is answered by PostgreSQL. */
const HELD = new Set<keyof JobFilters>([
  ...DIMENSIONS.filter(filteredByIndex).map((d) => d.filter!),
  'title',
  'title_advanced',
  'description',
  'description_advanced',
]);

/** The filters of a description search alone (select counts and pages it on its bitmap). */
const WORDS_ONLY = new Set(['description', 'description_advanced']);

/** The filters on values the index keeps: the sets it intersects, the codes it tests row by row. */
const TESTED_SETS = HELD_SETS.filter(filteredByIndex);
const TESTED_CODES = DIMENSIONS.filter((d) => d.index === 'codes' && filteredByIndex(d));

/** The filters that take an instant, which the index reads as microseconds (printedMicros). */
const INSTANTS = new Set(['posted_gte', 'posted_lt', 'created_gte', 'created_lt']);

/** The bounds on created_at a request gives, in microseconds since the epoch. */
function createdBounds(f: JobFilters): { gte: number | undefined; lt: number | undefined } {
  const us = (at: string | undefined) => (at === undefined ? undefined : printedMicros(at));
  return { gte: us(f.created_gte), lt: us(f.created_lt) };
}

/** Whether the index can answer a request with these filters (its text queries aside). */
export function holds(f: JobFilters): boolean {
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined) continue;
    if (!HELD.has(k as keyof JobFilters)) return false;
    // PostgreSQL orders NaN above every number; a bound past the finite numbers is left to it.
    if ((k === 'salary_gte' || k === 'salary_lte') && !Number.isFinite(v)) return false;
    if (INSTANTS.has(k) && printedMicros(v as string) === undefined) return false;
  }
  return true;
}

const REMOTE = 1;
const HAS_SALARY = 2;
const VISA = 4;

/** The flags a request fixes (`mask`) and the values it wants of them: every flag filter, tested in one step. */
function flagTest(f: JobFilters): { mask: number; want: number } {
  let mask = 0;
  let want = 0;
  const fix = (bit: number, on: boolean) => {
    mask |= bit;
    if (on) want |= bit;
  };
  if (f.remote !== undefined) fix(REMOTE, f.remote);
  if (f.has_salary !== undefined) fix(HAS_SALARY, f.has_salary);
  if (f.visa_sponsorship !== undefined) fix(VISA, f.visa_sponsorship === 'only');
  return { mask, want };
}
/** A position packs with its lexeme's number: lexeme * POS_SPAN + position (shifts and masks read it). */
const POS_BITS = 10;
export const POS_SPAN = 1 << POS_BITS;
const POS_MASK = POS_SPAN - 1;
/**
 * The top values kept of a facet (at least: those of the largest limit asked), and the filters whose
 * facets are kept (at most ~5 MB with five facets each).
 */
const KEPT_FACET_VALUES = 20;
const KEPT_FACET_FILTERS = 500;
/** What a request asks of the index, its text queries parsed (match-tsquery.ts). */
export interface MatchRequest {
  filters: JobFilters;
  /** The trees of `title` and `title_advanced`, both to match. */
  text: TsNode[];
  /** The trees of `description` and `description_advanced`, both to match (match-words.ts). */
  words?: TsNode[];
}

/**
 * A timestamptz as PostgreSQL prints it (`2026-11-20 10:11:12.123456+00`), or as an instant parameter is
 * given to it (`2026-11-20T10:11:12.123456+00:00`), in microseconds since the epoch; undefined for any
 * other text (the request is then left to PostgreSQL).
 */
export function printedMicros(at: string): number | undefined {
  const m =
    /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?$/.exec(
      at,
    );
  // Date.UTC reads years below 100 as 19xx.
  if (!m || Number(m[1]) < 1000) return undefined;
  const seconds = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) / 1000;
  const offset = (+m[9] * 3600 + +(m[10] ?? 0) * 60 + +(m[11] ?? 0)) * (m[8] === '-' ? -1 : 1);
  return (seconds - offset) * 1e6 + Number((m[7] ?? '').padEnd(6, '0'));
}

/** Builds an index from rows given in search order. */
export class MatchIndexBuilder {
  private n = 0;
  private ids = new IdTable();
  private posted = new NumberList();
  private created = new NumberList();
  private goneAt = new NumberList();
  private gone: number[] = [];
  private groups = new RowList();
  private groupOf = new Map<string, number>();
  private flags = new RowList();
  private salMin = new NumberList();
  private salMax = new NumberList();
  /** Per dimension held as sets (HELD_SETS' order): its rows per value, and the rows with none. */
  private sets = HELD_SETS.map(() => new Map<string, RowList>());
  private none = HELD_SETS.map(() => new RowList());
  /** Per dimension held as codes (HELD_CODES' order): a code per row, and the code of each value. */
  private codes = HELD_CODES.map(() => ({ rows: new RowList(), values: new Map<string, number>() }));
  /** Per fact (HELD_FACTS' order): its code column, and the fact of what each code names, by code. */
  private facts = HELD_FACTS.map((f) => ({ ...f, at: codeColumn(f.of), byCode: [null] as Fact[] }));
  private lexemes = new Map<string, { n: number; rows: RowList }>();
  private positions = new RowList();
  private positionsAt = new RowList();
  private phrases = true;
  /** False when a title vector could not be read: text queries are then left to PostgreSQL. */
  private text = true;
  /** The description lexemes held as bitmaps (by their number), and every other one's rows. */
  private heldWords: Map<string, number>;
  private wordBits: BitsBuilder[];
  private wordLists = new Map<string, PackedRows>();
  /** False when a row came without its description lexemes: description searches are then PostgreSQL's. */
  private words = true;

  /** `heldWords`: the description lexemes to hold as bitmaps (match-rows.ts, commonWords). */
  constructor(heldWords: readonly string[] = []) {
    this.heldWords = new Map(heldWords.map((w, i) => [w, i]));
    this.wordBits = heldWords.map(() => new BitsBuilder());
  }

  add(r: MatchRow): void {
    const row = this.n++;
    if (row === 0) this.positionsAt.push(0);
    this.ids.push(r.id);
    this.posted.push(Number(r.posted_us));
    this.created.push(Number(r.created_us));
    if (r.expired_us !== null) {
      this.gone.push(row);
      this.goneAt.push(Number(r.expired_us));
    }
    let g = this.groupOf.get(r.collapse_key);
    if (g === undefined) {
      g = this.groupOf.size;
      this.groupOf.set(r.collapse_key, g);
    }
    this.groups.push(g);
    this.flags.push(
      (r.remote ? REMOTE : 0) | (r.has_salary ? HAS_SALARY : 0) | (r.visa_sponsorship ? VISA : 0),
    );
    this.salMin.push(salary(r.salary_annual_min));
    this.salMax.push(salary(r.salary_annual_max));
    for (let i = 0; i < HELD_SETS.length; i++) {
      const values = (r.values[HELD_SETS[i].name] as string[] | null) ?? [];
      if (values.length) add(this.sets[i], values, row);
      else this.none[i].push(row);
    }
    for (let i = 0; i < HELD_CODES.length; i++) {
      const c = this.codes[i];
      c.rows.push(code(c.values, r.values[HELD_CODES[i].name] as string | null | undefined));
    }
    for (const f of this.facts) {
      const c = this.codes[f.at].rows.last();
      if (c > 0) f.byCode[c] = (r.values[factKey(f)] as Fact | undefined) ?? null;
    }
    const title = parseTsVector(r.title_tsv);
    if (!title) this.text = false;
    for (const [lexeme, at] of title ?? []) {
      let e = this.lexemes.get(lexeme);
      if (!e) {
        e = { n: this.lexemes.size, rows: new RowList() };
        this.lexemes.set(lexeme, e);
      }
      e.rows.push(row);
      if (!at.length) this.phrases = false;
      for (const p of at) {
        if (p >= POS_SPAN) this.phrases = false;
        else this.positions.push(e.n * POS_SPAN + p);
      }
    }
    this.positionsAt.push(this.positions.length);
    if (this.words) {
      const read =
        r.words !== undefined &&
        readLexemes(r.words, (lexeme) => {
          const k = this.heldWords.get(lexeme);
          if (k !== undefined) this.wordBits[k].set(row);
          else {
            let list = this.wordLists.get(lexeme);
            if (!list) {
              list = new PackedRows();
              this.wordLists.set(lexeme, list);
            }
            list.push(row);
          }
        });
      if (!read) this.words = false;
    }
  }

  done(version: number): MatchIndex {
    const done = (m: Map<string, RowList>) => new Map([...m].map(([k, v]) => [k, v.done()]));
    const lexemes: Lexemes = {
      rows: ValueSets.of(
        [...this.lexemes].map(([k, v]) => [k, v.rows.done()]),
        this.n,
      ),
      numbers: Uint32Array.from(this.lexemes.values(), (v) => v.n),
    };
    const phrases = this.phrases && this.lexemes.size * POS_SPAN < 2 ** 32;
    const index = new MatchIndex({
      version,
      ids: this.ids.done(),
      posted: this.posted.done(),
      created: this.created.done(),
      gone: Uint32Array.from(this.gone),
      goneAt: this.goneAt.done(),
      groups: this.groups.done(),
      groupCount: this.groupOf.size,
      flags: Uint8Array.from(this.flags.done()),
      salMin: narrowFloats(this.salMin.done()),
      salMax: narrowFloats(this.salMax.done()),
      sets: Object.fromEntries(HELD_SETS.map((d, i) => [d.name, ValueSets.of(done(this.sets[i]), this.n)])),
      none: Object.fromEntries(HELD_SETS.map((d, i) => [d.name, this.none[i].done()])),
      codes: Object.fromEntries(
        HELD_CODES.map((d, i) => {
          const c = this.codes[i];
          const of = this.facts.filter((f) => f.of === d.name);
          const facts = of.length
            ? Object.fromEntries(of.map((f) => [f.column, FactColumn.of(f.byCode)]))
            : undefined;
          return [
            d.name,
            {
              rows: narrowCodes(c.rows.done(), c.values.size),
              values: CodeValues.of(c.values.keys()),
              ...(facts && { facts }),
            },
          ];
        }),
      ),
      lexemes: this.text ? lexemes : undefined,
      positions: phrases ? this.positions.done() : undefined,
      positionsAt: phrases ? this.positionsAt.done() : undefined,
      words: this.words ? this.doneWords() : undefined,
    });
    const dead = new Uint8Array(this.n);
    for (const r of this.gone) dead[r] = 1;
    index.markDead(dead);
    return index;
  }

  private doneWords(): Words {
    const held = new Map([...this.heldWords].map(([w, k]) => [w, this.wordBits[k].done(this.n)]));
    return doneWords(held, this.wordLists);
  }
}

/**
 * A salary bound as compared: NULL never matches (NaN compares false); PostgreSQL's NaN sorts above
 * every number, as Infinity does against the finite bounds the index is asked about.
 */
function salary(x: number | null): number {
  if (x === null) return NaN;
  return Number.isNaN(x) ? Infinity : x;
}

/** Where the builder keeps the code column of that name (HELD_CODES' order). */
function codeColumn(name: string): number {
  const i = HELD_CODES.findIndex((d) => d.name === name);
  if (i < 0) throw new Error(`match index: no code column ${name}`);
  return i;
}

function code(codes: Map<string, number>, value: string | null | undefined): number {
  if (value === null || value === undefined) return 0;
  let c = codes.get(value);
  if (c === undefined) {
    c = codes.size + 1;
    codes.set(value, c);
  }
  return c;
}

function add(sets: Map<string, RowList>, values: string[], row: number): void {
  for (const v of values) {
    let list = sets.get(v);
    if (!list) {
      list = new RowList();
      sets.set(v, list);
    }
    // A value twice in one row is one match.
    if (list.last() !== row) list.push(row);
  }
}

export interface Parts {
  version: number;
  ids: Ids;
  posted: Float64Array;
  /** When each row was first indexed (created_at), in microseconds since the epoch. */
  created: Float64Array;
  /**
   * The rows the expired feed lists (gone), ascending, and when each left (expired_at, microseconds since
   * the epoch): a column of the gone rows only (a live row has no expiry; most rows are live).
   */
  gone: Uint32Array;
  goneAt: Float64Array;
  groups: Uint32Array;
  groupCount: number;
  flags: Uint8Array;
  /** 32-bit where every bound is exact in 32 bits (whole amounts under 2^24 are). */
  salMin: Floats;
  salMax: Floats;
  /** By name, of the dimensions held as sets: the rows of each value, and the rows with no value. */
  sets: Record<string, ValueSets>;
  none: Record<string, RowSet>;
  /** By name, of the dimensions held as codes: a code per row (0: no value), as few bytes as they need. */
  codes: Record<string, CodeColumn>;
  lexemes?: Lexemes;
  positions?: Uint32Array;
  positionsAt?: Uint32Array;
  /** The description lexemes (match-words.ts); undefined when some row's could not be read. */
  words?: Words;
}

/** The title lexemes: each one's rows, and its number in `positions` (that of `rows.values[i]` is `numbers[i]`). */
export interface Lexemes {
  rows: ValueSets;
  numbers: Uint32Array;
}

export interface CodeColumn {
  rows: Codes;
  /** The value of each code, from 1. */
  values: CodeValues;
  /** Facts of what each code names (a company's figures), by column, then by code (HELD_FACTS). */
  facts?: Record<string, FactColumn>;
}

/** The counts of one facet: its values with their matches (most first), how many have any, and none. */
export interface FacetCounts {
  values: [value: string, count: number][];
  distinct: number;
  missing: number;
}

/** The facet counts kept of one request's filters: each dimension's top values, and the total once known. */
interface KeptFacets {
  total?: number;
  counts: Map<string, FacetCounts>;
}

/** Values by position: an array, or a code column's values. */
interface Indexed {
  readonly length: number;
  at(i: number): string | undefined;
}

/** A dimension's values (by position), each one's count, and the rows with none. */
interface FacetTally {
  values: Indexed;
  n: Uint32Array;
  missing: number;
}

/**
 * Rows held apart from an index (MatchService.holdApart) that a request matches: `rows` of `index`, and
 * for each row of `index` its group in the main one (numbered past the main one's groups when no live row
 * of the main one has its collapse key: a group of its own).
 */
export interface HeldRows {
  index: MatchIndex;
  rows: RowSet;
  group: Int32Array;
}

/**
 * The ArrayBuffers reachable from `root` through objects, arrays and maps (their values: keys are
 * strings or numbers), each once, leaving out those already in `known`.
 */
function stores(root: unknown, known?: ReadonlySet<ArrayBufferLike>): Set<ArrayBufferLike> {
  const seen = new Set<unknown>();
  const found = new Set<ArrayBufferLike>();
  const add = (b: ArrayBufferLike) => {
    if (!known?.has(b)) found.add(b);
  };
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object' || seen.has(x)) return;
    seen.add(x);
    if (ArrayBuffer.isView(x)) add(x.buffer);
    else if (x instanceof ArrayBuffer) add(x);
    else if (x instanceof Map || x instanceof Set) for (const v of x.values()) walk(v);
    else if (Array.isArray(x)) {
      for (const v of x) if (typeof v === 'object') walk(v);
    } else for (const v of Object.values(x)) walk(v);
  };
  walk(root);
  return found;
}

/** Rows ordered so that each group's are adjacent: group k's are rows[starts[k]..starts[k + 1]]. */
export interface GroupedRows {
  rows: Uint32Array;
  starts: Uint32Array;
}

/** A trend's counts per interval ([0]: before the window): entered, entered and live now, left. */
export interface TrendTally {
  entered: number[];
  added: number[];
  left: number[];
}

/** A set of rows, or every row but those (a NOT not yet applied to anything). */
type Signed = { rows: RowSet; not: boolean };

export class MatchIndex {
  version: number;
  /** Rows not live: gone when the index was built, or left since (an expiry), and how many. */
  private dead: Uint8Array;
  private deadCount = 0;
  /** Where keep writes the rows it tested (made at its first use). */
  private scratch: Uint32Array | undefined;
  /** The dead rows in ascending order (made when first wanted after a change). */
  private deadSorted: RowSet | undefined;
  private sortedLexemes: string[] | undefined;
  private epoch = 0;
  private seen: Uint32Array;
  private counts: Uint32Array;

  constructor(private readonly p: Parts) {
    this.version = p.version;
    this.dead = new Uint8Array(p.ids.length);
    this.seen = new Uint32Array(p.groupCount);
    this.counts = new Uint32Array(p.groupCount);
  }

  private every: RowSet | undefined;

  /** Every row, built once (sets are never written to once made). */
  private everyRow(): RowSet {
    if (!this.every) this.every = all(this.p.ids.length);
    return this.every;
  }

  /** What the index holds (to save it). */
  get parts(): Readonly<Parts> {
    return this.p;
  }

  /** 1 for each row not live. */
  get deadRows(): Uint8Array {
    return this.dead;
  }

  /**
   * The memory of what the index holds and has made (every typed array's backing store, counted once; a
   * saved index read from its file holds views of that file's bytes): the index's share of the process.
   */
  bytes(): number {
    // The parts never change once made (a carry makes new arrays, a merge a new index): their stores
    // are walked once, and what the index made since (a handful of maps) each time.
    this.partStores ??= stores(this.p);
    const { p, partStores, ...made } = this;
    let n = 0;
    for (const b of partStores) n += b.byteLength;
    for (const b of stores(made, partStores)) n += b.byteLength;
    return n;
  }

  private partStores: Set<ArrayBufferLike> | undefined;

  /** Marks the rows not live (of a build, or of a saved index when it was saved). */
  markDead(dead: Uint8Array): void {
    this.dead = dead;
    this.deadCount = dead.reduce((n, d) => n + d, 0);
    this.deadSorted = undefined;
    this.deadSalaryOrder = undefined;
    this.deadBitmap = undefined;
    this.everyTallies.clear();
    this.everyGroups = undefined;
    this.facetsKept.clear();
  }

  /** The description lexemes held as bitmaps (a carry's new rows hold the same). */
  get heldWords(): string[] {
    return [...(this.p.words?.held.keys() ?? [])];
  }

  /** Whether the index answers the description trees: it holds their words, and they have no phrase. */
  holdsWords(nodes: TsNode[]): boolean {
    return this.p.words !== undefined && !nodes.some(hasPhrase);
  }

  /** Live rows. */
  get size(): number {
    return this.p.ids.length - this.deadCount;
  }

  /**
   * The matching rows, in search order; undefined when a text query needs what the index lacks. Rows
   * tested one by one are written to a buffer the next call reuses: use them before asking again.
   */
  matches(req: MatchRequest): RowSet | undefined {
    const c = this.candidates(req);
    return c && this.keep(c.rows, req.filters);
  }

  /**
   * The exact number of matches and the rows of a page: `limit` matches from the `offset`-th match after
   * row `after` (from the first match without it). Unless a filter is tested per row, the matches are
   * not listed: the dead rows among the candidates are counted apart, and skipped while the page is
   * read. Undefined when a text query needs what the index lacks.
   */
  select(
    req: MatchRequest,
    offset: number,
    limit: number,
    after?: number,
  ): { total: number; rows: RowSet } | undefined {
    const f = req.filters;
    // A description search alone: counted and paged on its bitmap, its rows never listed.
    if (
      req.words?.length &&
      !req.text.length &&
      Object.keys(f).every((k) => WORDS_ONLY.has(k) || f[k as keyof JobFilters] === undefined)
    ) {
      const n = this.p.ids.length;
      const bits = this.p.words && wordBits(req.words, this.p.words, n);
      if (!bits) return undefined;
      const { total, page } = countAndPage(
        bits,
        this.deadBits(),
        n,
        after === undefined ? 0 : after + 1,
        offset,
        limit,
      );
      return { total, rows: page };
    }
    const c = this.candidates(req);
    if (!c) return undefined;
    const perRow =
      flagTest(f).mask !== 0 ||
      f.salary_gte !== undefined ||
      f.salary_lte !== undefined ||
      f.created_gte !== undefined ||
      f.created_lt !== undefined ||
      TESTED_CODES.some((d) => f[d.filter!] !== undefined);
    // A salary range alone is counted on the sorted bounds and paged by testing rows until the page is full.
    // The candidates are then the salaried rows themselves: no set, text or posting-time bound narrowed them.
    if (perRow && c.rows !== undefined && c.rows === this.salariedRows && salaryOnly(f)) {
      const total = this.salaryCount(f.salary_gte, f.salary_lte);
      if (total !== undefined)
        return {
          total,
          rows: this.salaryPage(
            c.rows,
            f,
            after === undefined ? 0 : firstAbove(c.rows, after),
            offset,
            limit,
          ),
        };
    }
    const rows = perRow ? this.keep(c.rows, f) : (c.rows ?? this.everyRow());
    const start = after === undefined ? 0 : firstAbove(rows, after);
    if (perRow || !this.deadCount)
      return { total: rows.length, rows: rows.subarray(start + offset, start + offset + limit) };
    const page: number[] = [];
    let skip = offset;
    for (let i = start; i < rows.length && page.length < limit; i++) {
      const r = rows[i];
      if (this.dead[r]) continue;
      if (skip > 0) skip--;
      else page.push(r);
    }
    return { total: rows.length - this.deadIn(rows), rows: Uint32Array.from(page) };
  }

  /** The dead rows as a bitmap (made when first wanted after a change). */
  private deadBitmap: Bits | undefined;

  private deadBits(): Bits {
    if (!this.deadBitmap) {
      const bits = new Uint32Array(Math.ceil(this.dead.length / 32));
      for (let r = 0; r < this.dead.length; r++) if (this.dead[r]) bits[r >>> 5] |= 1 << (r & 31);
      this.deadBitmap = bits;
    }
    return this.deadBitmap;
  }

  /** How many of `rows` are dead: each dead row looked up when they are few, else one pass. */
  private deadIn(rows: RowSet): number {
    if (rows.length === this.p.ids.length) return this.deadCount;
    if (this.deadCount * 32 > rows.length) {
      let n = 0;
      for (let i = 0; i < rows.length; i++) n += this.dead[rows[i]];
      return n;
    }
    let n = 0;
    for (const d of this.deadList()) {
      const at = firstAbove(rows, d) - 1;
      if (at >= 0 && rows[at] === d) n++;
    }
    return n;
  }

  /** The dead rows, ascending (made when first wanted after a change). */
  private deadList(): RowSet {
    if (!this.deadSorted) {
      const sorted = new Uint32Array(this.deadCount);
      let k = 0;
      for (let r = 0; r < this.dead.length; r++) if (this.dead[r]) sorted[k++] = r;
      this.deadSorted = sorted;
    }
    return this.deadSorted;
  }

  /** The rows the sets of the filters allow (undefined: every row), before the tests of each row. */
  private candidates(req: MatchRequest): { rows: RowSet | undefined } | undefined {
    const f = req.filters;
    const sets: RowSet[] = [];
    const without: RowSet[] = [];
    for (const d of TESTED_SETS) {
      const values = f[d.filter!] as string[] | undefined;
      if (!values) continue;
      const of = this.p.sets[d.name];
      // Every value required (skill) is a set each; any of them, their union.
      if (d.all) for (const v of new Set(values)) sets.push(of.get(v) ?? EMPTY);
      else sets.push(unionAll(values.map((v) => of.get(v) ?? EMPTY)));
    }
    if (req.text.length && !this.p.lexemes) return undefined;
    for (const node of req.text) {
      const m = this.text(node);
      if (!m) return undefined;
      (m.not ? without : sets).push(m.rows);
    }
    let words: Bits | undefined;
    if (req.words?.length) {
      words = this.p.words && wordBits(req.words, this.p.words, this.p.ids.length);
      if (!words) return undefined;
    }
    let rows = sets.length ? intersectAll(sets) : undefined;
    if (without.length) rows ??= this.everyRow();
    for (const w of without) rows = difference(rows!, w);
    // The words' bitmap tests the rows the other filters left, or is listed when there are none.
    if (words) rows = rows ? rowsIn(rows, words) : bitsToRows(words, this.p.ids.length);
    rows ??= this.narrowest(f);
    return { rows: this.inPostedBounds(rows, f) };
  }

  /**
   * The rows of `rows` (every row when undefined) in the posting-time bounds of the filters: rows are
   * newest first, so those posted since a start are a prefix, and those posted before an end a suffix.
   */
  private inPostedBounds(rows: RowSet | undefined, f: JobFilters): RowSet | undefined {
    const n = this.p.ids.length;
    const since = (us: number | undefined) => (us === undefined ? n : this.postedSince(us));
    const start = f.time_frame && timeFrameStartMs(f.time_frame) * 1000;
    const gte = f.posted_gte === undefined ? undefined : printedMicros(f.posted_gte);
    const lt = f.posted_lt === undefined ? undefined : printedMicros(f.posted_lt);
    if (start === undefined && gte === undefined && lt === undefined) return rows;
    const to = Math.min(since(start), since(gte));
    const from = lt === undefined ? 0 : this.postedSince(lt);
    if (from >= to) return EMPTY;
    if (!rows) return this.everyRow().subarray(from, to);
    return rows.subarray(firstAbove(rows, from - 1), firstAbove(rows, to - 1));
  }

  /** How many rows were posted at or after `us` (microseconds since the epoch). */
  private postedSince(us: number): number {
    const { posted } = this.p;
    let lo = 0;
    let hi = posted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (posted[mid] >= us) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Rows by company code, made at the first request that wants them: one array, ordered by code. */
  private byCode = new Map<string, CodeRows>();
  private salariedRows: RowSet | undefined;

  /**
   * With no set to narrow them, the rows the filters tested per row are tested on: the smallest of the
   * rows of the one company value (industry, size) and of the rows with a salary that the filters ask for
   * (undefined: every row). keep tests every filter again, so any of them gives the same matches; none is
   * intersected, so a request allocates nothing for it. Only company codes are listed by value: a list
   * per held code column would cost 4 bytes a row each, where testing a million codes takes a millisecond.
   */
  private narrowest(f: JobFilters): RowSet | undefined {
    let best: RowSet | undefined;
    const take = (rows: RowSet) => {
      if (!best || rows.length < best.length) best = rows;
    };
    for (const d of TESTED_CODES) {
      const values = f[d.filter!] as string[] | undefined;
      if (d.company && !d.codesOf && values?.length === 1) take(this.withCode(d.name, values[0]));
    }
    if (f.has_salary === true || f.salary_gte !== undefined || f.salary_lte !== undefined)
      take(this.salaried());
    return best;
  }

  /** The rows whose value of a code column is this one: none for a value no row has. */
  private withCode(name: string, value: string): RowSet {
    const column = this.p.codes[name];
    const c = column.values.get(value);
    if (c === undefined) return EMPTY;
    let by = this.byCode.get(name);
    if (!by) {
      by = codeRows(column.rows, column.values.size);
      this.byCode.set(name, by);
    }
    return by.rows.subarray(by.starts[c], by.starts[c + 1]);
  }

  /** The rows with a salary. */
  private salaried(): RowSet {
    if (!this.salariedRows) {
      const { flags } = this.p;
      let n = 0;
      for (let r = 0; r < flags.length; r++) if (flags[r] & HAS_SALARY) n++;
      const rows = new Uint32Array(n);
      let k = 0;
      for (let r = 0; r < flags.length; r++) if (flags[r] & HAS_SALARY) rows[k++] = r;
      this.salariedRows = rows;
    }
    return this.salariedRows;
  }

  /**
   * The salaried rows' bounds sorted, NaN (no bound) left out: every maximum, every minimum, the minimums
   * of rows with both bounds, and the maximums of rows without a minimum. Null when a row's minimum is
   * above its maximum (a range could then not be counted from them).
   */
  private salaryOrder: SalaryOrder | null | undefined;

  /**
   * How many live rows have a maximum ≥ gte and a minimum ≤ lte (a bound not given: no test), counted on
   * the sorted bounds; undefined when they cannot tell (gte above lte, a minimum above its maximum).
   */
  private salaryCount(gte: number | undefined, lte: number | undefined): number | undefined {
    if (gte !== undefined && lte !== undefined && gte > lte) return undefined;
    if (this.salaryOrder === undefined) this.salaryOrder = this.sortSalaries(this.salaried());
    const o = this.salaryOrder;
    if (!o) return undefined;
    let n = boundsCount(o, this.salaried().length, gte, lte);
    if (this.deadCount) {
      // The dead rows' bounds sorted apart, when first wanted after a change, and counted the same way:
      // a few binary searches, not a look at each dead row (90,000 of them at a million jobs).
      if (!this.deadSalaryOrder) {
        const { flags } = this.p;
        const rows = this.deadList().filter((r) => flags[r] & HAS_SALARY);
        this.deadSalaryOrder = { order: this.sortSalaries(rows)!, count: rows.length };
      }
      n -= boundsCount(this.deadSalaryOrder.order, this.deadSalaryOrder.count, gte, lte);
    }
    return n;
  }

  /** The salaried dead rows' bounds sorted (sortSalaries), and how many they are. */
  private deadSalaryOrder: { order: SalaryOrder; count: number } | undefined;

  private sortSalaries(rows: RowSet): SalaryOrder | null {
    const { salMin, salMax } = this.p;
    const max: number[] = [];
    const min: number[] = [];
    const minOfBoth: number[] = [];
    const maxAlone: number[] = [];
    for (const r of rows) {
      const lo = salMin[r];
      const hi = salMax[r];
      if (!Number.isNaN(lo) && !Number.isNaN(hi) && lo > hi) return null;
      if (!Number.isNaN(hi)) max.push(hi);
      if (!Number.isNaN(lo)) min.push(lo);
      if (!Number.isNaN(lo) && !Number.isNaN(hi)) minOfBoth.push(lo);
      if (Number.isNaN(lo) && !Number.isNaN(hi)) maxAlone.push(hi);
    }
    // As narrow as the columns: bounds a Float32Array holds exactly sort and compare as they are.
    const T = salMin instanceof Float32Array && salMax instanceof Float32Array ? Float32Array : Float64Array;
    const sorted = (a: number[]): Floats => T.from(a).sort();
    return { max: sorted(max), min: sorted(min), minOfBoth: sorted(minOfBoth), maxAlone: sorted(maxAlone) };
  }

  /** The `limit` live rows of `rows` from `start` that meet the salary bounds, after skipping `offset`. */
  private salaryPage(rows: RowSet, f: JobFilters, start: number, offset: number, limit: number): RowSet {
    const { salMin, salMax } = this.p;
    const { salary_gte: gte, salary_lte: lte } = f;
    const page: number[] = [];
    let skip = offset;
    for (let i = start; i < rows.length && page.length < limit; i++) {
      const r = rows[i];
      if (
        this.dead[r] ||
        (gte !== undefined && !(salMax[r] >= gte)) ||
        (lte !== undefined && !(salMin[r] <= lte))
      )
        continue;
      if (skip > 0) skip--;
      else page.push(r);
    }
    return Uint32Array.from(page);
  }

  /**
   * Brings the index to `version` when all that changed since is that `left` left the live population
   * and `purged` were deleted from the pool: false (and nothing changed) when a row that left cannot be
   * found, and the index must be built again. A purged row is no longer listed by the expired feed; one
   * the index never held (gone before a build that left it out) needs nothing.
   */
  leave(left: LeftRow[], version: number, purged: PurgedRow[] = []): boolean {
    if (version < this.version) return false;
    const rows: number[] = [];
    for (const l of left) {
      const r = this.rowOf(l.id, Number(l.posted_us));
      if (r === undefined) return false;
      rows.push(r);
    }
    // What changes of the gone rows and their expiry: a row's expiry set, or the row taken out (null).
    const changed = new Map<number, number | null>();
    const newly: number[] = [];
    left.forEach((l, i) => {
      const r = rows[i];
      if (!this.dead[r]) {
        this.deadCount++;
        newly.push(r);
      }
      this.dead[r] = 1;
      changed.set(r, l.expired_us === null ? null : Number(l.expired_us));
    });
    for (const p of purged) {
      const r = this.rowOf(p.id, Number(p.posted_us));
      if (r !== undefined && this.dead[r]) changed.set(r, null);
    }
    Object.assign(this.p, withChanged(this.p.gone, this.p.goneAt, changed));
    this.deadSorted = undefined;
    this.deadSalaryOrder = undefined;
    this.deadBitmap = undefined;
    this.carryEvery(Uint32Array.from(newly));
    this.facetsKept.clear();
    this.version = version;
    return true;
  }

  /**
   * The counts of every live row and group, kept over the rows that left (`newly`, marked dead): what they
   * counted taken off, instead of every row and group counted again at the next request (0.1–0.4 s of
   * the thread that answers every worker, at a million jobs, after each minute's expiry of a few rows).
   * A group is counted again only if a row of it left: its rows before and after, each tallied.
   */
  private carryEvery(newly: RowSet): void {
    if (!newly.length) return;
    let grouped: { before: GroupedRows; after: GroupedRows } | undefined;
    const groupedRows = () => {
      if (!grouped) {
        const { groups } = this.p;
        const hit = new Uint8Array(this.p.groupCount);
        for (const r of newly) hit[groups[r]] = 1;
        const after: number[] = [];
        for (let r = 0; r < groups.length; r++) if (hit[groups[r]] && !this.dead[r]) after.push(r);
        grouped = {
          before: this.byGroup(Uint32Array.from([...after, ...newly])),
          after: this.byGroup(Uint32Array.from(after)),
        };
      }
      return grouped;
    };
    for (const [key, t] of this.everyTallies) {
      const [kind, name] = key.split(':');
      let gone: FacetTally | undefined;
      if (kind === 'rows') gone = this.tally(newly, name);
      else {
        const { before, after } = groupedRows();
        const was = this.groupTally(before, name);
        const is = this.groupTally(after, name);
        gone = was &&
          is && {
            values: was.values,
            n: was.n.map((x, i) => x - is.n[i]),
            missing: was.missing - is.missing,
          };
      }
      if (gone)
        this.everyTallies.set(key, {
          values: t.values,
          n: t.n.map((x, i) => x - gone.n[i]),
          missing: t.missing - gone.missing,
        });
      else this.everyTallies.delete(key);
    }
    if (this.everyGroups !== undefined) {
      const { before, after } = groupedRows();
      this.everyGroups -= before.starts.length - after.starts.length;
    }
  }

  /** The row of a job, found by its posting time (rows are in descending order of it). */
  rowOf(id: string, postedUs: number): number | undefined {
    const { posted, ids } = this.p;
    // Times are whole microseconds: the rows posted after it are those posted at or after it + 1.
    for (let r = this.postedSince(postedUs + 1); r < posted.length && posted[r] === postedUs; r++)
      if (ids.at(r) === id) return r;
    return undefined;
  }

  /**
   * The rows of `rows` (every row when undefined) that pass the filters held per row and are still live:
   * one loop with every test written out, since at a million rows a test called per row costs tens of
   * milliseconds.
   */
  private keep(rows: RowSet | undefined, f: JobFilters, gone = false): RowSet {
    const { flags, salMin, salMax, created } = this.p;
    const dead = this.deadCount ? this.dead : undefined;
    const { mask, want } = flagTest(f);
    const gte = f.salary_gte;
    const lte = f.salary_lte;
    const since = createdBounds(f);
    // A code column tested against the wanted codes; no value (0) is never wanted, so a company filter
    // matches the verified profile only, as in PostgreSQL.
    const codes: { rows: Codes; want: Uint8Array }[] = [];
    for (const d of TESTED_CODES) {
      const v = f[d.filter!];
      if (v === undefined) continue;
      const column = this.p.codes[d.codesOf ?? d.name];
      const want = !d.accepts
        ? wanted(column.values, v as string[])
        : d.codesOf && d.column
          ? acceptedFacts(column.facts?.[d.column], column.values, d.accepts(v as never), d.source === true)
          : accepted(column.values, d.accepts(v as never));
      codes.push({ rows: column.rows, want });
    }
    const tested =
      gone ||
      dead ||
      mask ||
      gte !== undefined ||
      lte !== undefined ||
      since.gte !== undefined ||
      since.lt !== undefined ||
      codes.length;
    if (!tested) return rows ?? this.everyRow();
    const n = rows ? rows.length : this.p.ids.length;
    // One buffer of a row each, reused: a new one per request (4 MB at a million rows) is memory the
    // allocator keeps long after the request.
    this.scratch ??= new Uint32Array(this.p.ids.length);
    const out = this.scratch;
    let k = 0;
    const tests = codes.length;
    nextRow: for (let i = 0; i < n; i++) {
      const r = rows ? rows[i] : i;
      // Asked for gone rows, it is given only those; the live ones are those not dead.
      if (!gone && dead?.[r]) continue;
      const fl = flags[r];
      if ((fl & mask) !== want) continue;
      if (gte !== undefined && !((fl & HAS_SALARY) !== 0 && salMax[r] >= gte)) continue;
      if (lte !== undefined && !((fl & HAS_SALARY) !== 0 && salMin[r] <= lte)) continue;
      if (since.gte !== undefined && !(created[r] >= since.gte)) continue;
      if (since.lt !== undefined && !(created[r] < since.lt)) continue;
      for (let t = 0; t < tests; t++) if (!codes[t].want[codes[t].rows[r]]) continue nextRow;
      out[k++] = r;
    }
    return out.subarray(0, k);
  }

  private text(n: TsNode): Signed | undefined {
    switch (n.op) {
      case 'lex':
        return { rows: this.lexeme(n.lexeme, n.prefix), not: false };
      case 'not': {
        const a = this.text(n.arg);
        return a && { rows: a.rows, not: !a.not };
      }
      case 'and': {
        const a = this.text(n.left);
        const b = a && this.text(n.right);
        if (!a || !b) return undefined;
        if (!a.not && !b.not) return { rows: intersect(a.rows, b.rows), not: false };
        if (a.not && b.not) return { rows: union(a.rows, b.rows), not: true };
        return a.not
          ? { rows: difference(b.rows, a.rows), not: false }
          : { rows: difference(a.rows, b.rows), not: false };
      }
      case 'or': {
        const a = this.text(n.left);
        const b = a && this.text(n.right);
        if (!a || !b) return undefined;
        if (!a.not && !b.not) return { rows: union(a.rows, b.rows), not: false };
        if (a.not && b.not) return { rows: intersect(a.rows, b.rows), not: true };
        return a.not
          ? { rows: difference(a.rows, b.rows), not: true }
          : { rows: difference(b.rows, a.rows), not: true };
      }
      case 'phrase':
        return this.phrase(n);
    }
  }

  private lexeme(lexeme: string, prefix: boolean): RowSet {
    const { rows } = this.p.lexemes!;
    if (!prefix) return rows.get(lexeme) ?? EMPTY;
    return unionAll(this.prefixed(lexeme).map((l) => rows.get(l)!));
  }

  /** Every lexeme that starts with `prefix` (they are adjacent in sorted order). */
  private prefixed(prefix: string): string[] {
    if (!this.sortedLexemes) this.sortedLexemes = [...this.p.lexemes!.rows.values].sort();
    const sorted = this.sortedLexemes;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < sorted.length && sorted[i].startsWith(prefix); i++) out.push(sorted[i]);
    return out;
  }

  /**
   * A phrase: the rows holding every lexeme, then those where each lexeme stands at its distance after
   * the end of the chain before it (PostgreSQL's reading of `a <-> b <-> c`).
   */
  private phrase(n: TsNode): Signed | undefined {
    const { positions, positionsAt } = this.p;
    if (!positions || !positionsAt) return undefined;
    const steps: { lexemes: Set<number>; distance: number }[] = [];
    let at: TsNode = n;
    while (at.op === 'phrase') {
      steps.unshift({
        lexemes: this.numbers(at.right as { lexeme: string; prefix: boolean }),
        distance: at.distance,
      });
      at = at.left;
    }
    const first = this.numbers(at as { lexeme: string; prefix: boolean });
    const parts = [at, ...chainRights(n)].map((l) =>
      this.lexeme((l as { lexeme: string }).lexeme, (l as { prefix: boolean }).prefix),
    );
    const candidates = intersectAll(parts);
    // Each step's lexemes as a mask by number, and the positions that end the phrase so far in two
    // buffers used in turn: a row's test allocates nothing.
    const bound = this.lexemeBound();
    const masks = [first, ...steps.map((st) => st.lexemes)].map((set) => {
      const m = new Uint8Array(bound);
      for (const x of set) m[x] = 1;
      return m;
    });
    let ends = new Uint16Array(64);
    let next = new Uint16Array(64);
    const out = new Uint32Array(candidates.length);
    let count = 0;
    for (const r of candidates) {
      const from = positionsAt[r];
      const to = positionsAt[r + 1];
      if (to - from > ends.length) {
        ends = new Uint16Array(to - from);
        next = new Uint16Array(to - from);
      }
      let e = 0;
      for (let i = from; i < to; i++)
        if (masks[0][positions[i] >>> POS_BITS]) ends[e++] = positions[i] & POS_MASK;
      for (let s = 0; s < steps.length && e > 0; s++) {
        const mask = masks[s + 1];
        const distance = steps[s].distance;
        let k = 0;
        for (let i = from; i < to; i++) {
          if (!mask[positions[i] >>> POS_BITS]) continue;
          const p = positions[i] & POS_MASK;
          let follows = false;
          for (let j = 0; j < e && !follows; j++) follows = ends[j] === p - distance;
          // Each position is visited once a step, so the buffer never holds more than the row's.
          if (follows) next[k++] = p;
        }
        [ends, next] = [next, ends];
        e = k;
      }
      if (e) out[count++] = r;
    }
    return { rows: out.subarray(0, count), not: false };
  }

  /** One more than the largest title lexeme number (a mask by number is this long). */
  private lexemeLimit: number | undefined;
  private lexemeBound(): number {
    if (this.lexemeLimit === undefined) {
      let max = -1;
      for (const x of this.p.lexemes!.numbers) if (x > max) max = x;
      this.lexemeLimit = max + 1;
    }
    return this.lexemeLimit;
  }

  private numbers(l: { lexeme: string; prefix: boolean }): Set<number> {
    const names = l.prefix ? this.prefixed(l.lexeme) : [l.lexeme];
    const { rows, numbers } = this.p.lexemes!;
    return new Set(
      names.flatMap((x) => {
        const i = rows.indexOf(x);
        return i === undefined ? [] : [numbers[i]];
      }),
    );
  }

  /**
   * Counts per value of each named dimension among the live matches (`rows` gives them, as `matches` does;
   * undefined: every live row), the `limit` values with most matches first (ties by value), how many values
   * have any, and how many rows have none; with `collapse`, of groups: those with a match of the value (or
   * with none). `total`: the matches (their groups). Undefined when a dimension is not one the index keeps
   * or the filters are not. `key`: the filters' identity; the counts of a key are kept (their top values)
   * until the index changes, so a facet asked again of the same filters is not counted again. `held`:
   * matches held apart from the index, whose counts are added (of rows, or of the groups they add a value
   * to), never kept.
   */
  facets(
    rows: (() => RowSet | undefined) | undefined,
    names: string[],
    limit: number,
    collapse = false,
    key?: string,
    held?: HeldRows,
  ): { total: number; counts: Record<string, FacetCounts> } | undefined {
    const counts: Record<string, FacetCounts> = {};
    // Every live row matching (no filter): the counts of this state of the index, made once.
    const every = rows === undefined;
    const keptKey = key === undefined || every || held ? undefined : `${collapse ? 'groups' : 'rows'}|${key}`;
    const kept =
      keptKey === undefined
        ? undefined
        : (this.facetsKept.get(keptKey) ?? ({ counts: new Map() } as KeptFacets));
    let matched: RowSet | undefined | null = null;
    const matches = () => {
      if (matched === null) matched = rows ? rows() : this.keep(undefined, {});
      return matched;
    };
    // The held rows' own counts (of rows), or what they add to the groups of these (collapsed).
    let extra: { total: number; counts: Record<string, FacetCounts> } | undefined;
    if (held) {
      extra = collapse
        ? this.heldGroupCounts(held, names, matches)
        : held.index.facets(() => held.rows, names, Number.MAX_SAFE_INTEGER);
      if (!extra) return undefined;
    }
    let grouped: GroupedRows | undefined;
    const groupedRows = () => {
      grouped ??= this.byGroup(matches()!);
      return grouped;
    };
    // The rows that do not match, once for every dimension, when they are the fewer.
    const size = this.p.ids.length;
    let others: RowSet | undefined | null = null;
    const othersOf = () => {
      if (others === null) others = matches()!.length * 2 > size ? complement(matches()!, size) : undefined;
      return others;
    };
    for (const name of names) {
      const known = kept?.counts.get(name);
      if (known && known.values.length >= Math.min(limit, known.distinct)) {
        counts[name] = {
          values: known.values.slice(0, limit),
          distinct: known.distinct,
          missing: known.missing,
        };
        continue;
      }
      if (!every && !matches()) return undefined;
      const make = () =>
        collapse ? this.groupTally(groupedRows(), name) : this.facet(matches()!, name, othersOf());
      const c = every ? this.everyTally(`${collapse ? 'groups' : 'rows'}:${name}`, make) : make();
      if (!c) return undefined;
      const more = extra?.counts[name];
      if (more) {
        const sum = addCounts(c, more);
        counts[name] = { ...top(sum.values, sum.n, limit), missing: c.missing + more.missing };
      } else if (kept) {
        // Any smaller limit's top values are the first of these; a larger limit counts again.
        const most = { ...top(c.values, c.n, Math.max(limit, KEPT_FACET_VALUES)), missing: c.missing };
        kept.counts.set(name, most);
        counts[name] = { ...most, values: most.values.slice(0, limit) };
      } else counts[name] = { ...top(c.values, c.n, limit), missing: c.missing };
    }
    if (!every) {
      if (kept?.total === undefined && !matches()) return undefined;
      const total =
        kept?.total ?? (collapse ? groupedRows().starts.length - 1 : matches()!.length) + (extra?.total ?? 0);
      // Kept once answered (most recently asked last, the oldest going first).
      if (kept && keptKey !== undefined) {
        kept.total = total;
        this.facetsKept.delete(keptKey);
        if (this.facetsKept.size >= KEPT_FACET_FILTERS)
          this.facetsKept.delete(this.facetsKept.keys().next().value!);
        this.facetsKept.set(keptKey, kept);
      }
      return { total, counts };
    }
    if (!collapse) return { total: this.size + (extra?.total ?? 0), counts };
    this.everyGroups ??= groupedRows().starts.length - 1;
    return { total: this.everyGroups + (extra?.total ?? 0), counts };
  }

  /**
   * Makes what the first requests of a fresh service would make on the thread that answers every worker
   * (2.3–3.4 s and ~100 MB at a million live jobs, bench/warm.ts): each row's values of the set
   * dimensions, the facet counts of every live row and group (kept over expiries, carryEvery), the sorted
   * salary bounds.
   */
  warm(): void {
    const names = [...INDEXED_FACETS];
    this.facets(undefined, names, 1);
    this.facets(undefined, names, 1, true);
    this.salaryCount(undefined, undefined);
  }

  /**
   * The facet counts kept per filters (their top values, most recently asked last), until the index
   * changes: a sidebar's counts are asked again by every visitor of the same search.
   */
  private facetsKept = new Map<string, KeptFacets>();

  /** The counts of every live row (of rows or of groups), per dimension, and their groups: until a row leaves. */
  private everyTallies = new Map<string, FacetTally>();
  private everyGroups: number | undefined;

  private everyTally(key: string, make: () => FacetTally | undefined): FacetTally | undefined {
    let made = this.everyTallies.get(key);
    if (!made) {
      made = make();
      if (!made) return undefined;
      this.everyTallies.set(key, made);
    }
    return made;
  }

  /**
   * Each value of a dimension (by position) and its count among `rows`, and how many rows have none.
   * When `others` (the rows not matching) are given, as the fewer, the counts are every row's (made once)
   * less theirs: a request of no filter then counts only the rows not live.
   */
  private facet(rows: RowSet, name: string, others: RowSet | undefined): FacetTally | undefined {
    if (!others) return this.tally(rows, name);
    const whole = this.wholeTally(name);
    const rest = whole && this.tally(others, name);
    if (!whole || !rest) return undefined;
    const n = new Uint32Array(whole.n.length);
    for (let i = 0; i < n.length; i++) n[i] = whole.n[i] - rest.n[i];
    return { values: whole.values, n, missing: whole.missing - rest.missing };
  }

  /** Every row's tally of a dimension (made once per index). */
  private wholes = new Map<string, FacetTally>();

  private wholeTally(name: string): FacetTally | undefined {
    let made = this.wholes.get(name);
    if (!made) {
      made = this.tally(all(this.p.ids.length), name, true);
      if (!made) return undefined;
      this.wholes.set(name, made);
    }
    return made;
  }

  /** Each value's count among `rows`, row by row (`every`: `rows` is every row). */
  private tally(rows: RowSet, name: string, every = false): FacetTally | undefined {
    const sets = this.p.sets[name];
    if (sets && every) {
      // A value's count among every row is its set's length.
      return { values: sets.values, n: sets.lengths.slice(), missing: this.p.none[name].length };
    }
    if (sets) {
      // Row by row through each row's values: a count per value by intersection would merge the matches
      // with every value's rows (300 skills × 80,000 matches: 526 ms against 25 for roaring bitmaps,
      // on a loaded machine); a row's values are a handful.
      const { base, off, codes, values } = this.valuesByRow(name, sets);
      const n = new Uint32Array(values.length);
      let missing = 0;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i];
        const from = base[r >> ROW_BLOCK] + off[r];
        const to = base[(r + 1) >> ROW_BLOCK] + off[r + 1];
        if (from === to) missing++;
        for (let j = from; j < to; j++) n[codes[j]]++;
      }
      return { values, n, missing };
    }
    const column = this.p.codes[name];
    if (column) {
      const n = new Uint32Array(column.values.size + 1);
      const codes = column.rows;
      for (let i = 0; i < rows.length; i++) n[codes[rows[i]]]++;
      const missing = n[0];
      n[0] = 0; // code 0 is no value
      return { values: column.values, n, missing };
    }
    if (name === 'remote') {
      const { flags } = this.p;
      let remote = 0;
      for (let i = 0; i < rows.length; i++) remote += flags[rows[i]] & REMOTE;
      return { values: ['true', 'false'], n: Uint32Array.of(remote, rows.length - remote), missing: 0 };
    }
    return undefined;
  }

  /**
   * What held matches add to the collapsed counts of `matches` (this index's): per dimension, each value
   * a group gains (a held row has it, none of the group's matches here has), and each group that gains a
   * match of none; `total`, the groups no match here is of. Undefined when a dimension is not kept.
   */
  private heldGroupCounts(
    held: HeldRows,
    names: string[],
    matches: () => RowSet | undefined,
  ): { total: number; counts: Record<string, FacetCounts> } | undefined {
    const rows = matches();
    if (!rows) return undefined;
    const byGroup = new Map<number, { here: number[]; held: number[] }>();
    for (const h of held.rows) {
      const g = held.group[h];
      const e = byGroup.get(g) ?? { here: [], held: [] };
      byGroup.set(g, e);
      e.held.push(h);
    }
    const { groups, groupCount } = this.p;
    const hit = new Uint8Array(groupCount);
    for (const g of byGroup.keys()) if (g < groupCount) hit[g] = 1;
    for (const r of rows) if (hit[groups[r]]) byGroup.get(groups[r])!.here.push(r);
    const counts: Record<string, FacetCounts> = {};
    for (const name of names) {
      const gained = new Map<string, number>();
      let missing = 0;
      for (const { here, held: theirs } of byGroup.values()) {
        const had = new Set<string>();
        let hadNone = false;
        for (const r of here) {
          const v = this.rowValues(name, r);
          if (!v) return undefined;
          if (!v.length) hadNone = true;
          for (const x of v) had.add(x);
        }
        const gets = new Set<string>();
        let getsNone = false;
        for (const h of theirs) {
          const v = held.index.rowValues(name, h);
          if (!v) return undefined;
          if (!v.length) getsNone = true;
          for (const x of v) if (!had.has(x)) gets.add(x);
        }
        for (const x of gets) gained.set(x, (gained.get(x) ?? 0) + 1);
        if (getsNone && !hadNone) missing++;
      }
      counts[name] = { values: [...gained], distinct: gained.size, missing };
    }
    let total = 0;
    for (const e of byGroup.values()) if (!e.here.length) total++;
    return { total, counts };
  }

  /** A row's values in a dimension the index keeps (none: empty); undefined for one it does not keep. */
  rowValues(name: string, r: number): string[] | undefined {
    const sets = this.p.sets[name];
    if (sets) {
      const { base, off, codes, values } = this.valuesByRow(name, sets);
      const from = base[r >> ROW_BLOCK] + off[r];
      const to = base[(r + 1) >> ROW_BLOCK] + off[r + 1];
      return Array.from(codes.subarray(from, to), (c) => values[c]);
    }
    const column = this.p.codes[name];
    if (column) {
      const c = column.rows[r];
      return c ? [column.values.at(c)] : [];
    }
    if (name === 'remote') return [this.p.flags[r] & REMOTE ? 'true' : 'false'];
    return undefined;
  }

  /**
   * `rows` reordered so that each group's rows are adjacent (groups in the order of their newest match),
   * and where each group's run starts: a counting sort in two passes.
   */
  byGroup(rows: RowSet): GroupedRows {
    const { groups } = this.p;
    const e = this.nextEpoch();
    const firsts: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const g = groups[rows[i]];
      if (this.seen[g] !== e) {
        this.seen[g] = e;
        this.counts[g] = 0;
        firsts.push(g);
      }
      this.counts[g]++;
    }
    const starts = new Uint32Array(firsts.length + 1);
    for (let k = 0; k < firsts.length; k++) {
      const g = firsts[k];
      starts[k + 1] = starts[k] + this.counts[g];
      this.counts[g] = starts[k]; // from here on, where the group's next row goes
    }
    const out = new Uint32Array(rows.length);
    for (let i = 0; i < rows.length; i++) out[this.counts[groups[rows[i]]]++] = rows[i];
    return { rows: out, starts };
  }

  /**
   * Per value of a dimension, the groups with a match of that value, and the groups with a match of none:
   * a group's rows are adjacent, so a value is counted once per group by the last group it was seen in.
   */
  private groupTally(g: GroupedRows, name: string): FacetTally | undefined {
    const sets = this.p.sets[name];
    const column = this.p.codes[name];
    const { rows, starts: groupStarts } = g;
    const groups = groupStarts.length - 1;
    let missing = 0;
    // One loop per kind of dimension, each test written out (a call per value costs as much as the count).
    if (sets) {
      const { base, off, codes, values } = this.valuesByRow(name, sets);
      const n = new Uint32Array(values.length);
      const last = new Int32Array(values.length).fill(-1);
      for (let k = 0; k < groups; k++) {
        let none = false;
        for (let i = groupStarts[k]; i < groupStarts[k + 1]; i++) {
          const r = rows[i];
          const from = base[r >> ROW_BLOCK] + off[r];
          const to = base[(r + 1) >> ROW_BLOCK] + off[r + 1];
          if (from === to) none = true;
          for (let j = from; j < to; j++) {
            const c = codes[j];
            if (last[c] !== k) {
              last[c] = k;
              n[c]++;
            }
          }
        }
        if (none) missing++;
      }
      return { values, n, missing };
    }
    if (column) {
      const values = column.values;
      const n = new Uint32Array(values.length);
      const last = new Int32Array(values.length).fill(-1);
      const codes = column.rows;
      for (let k = 0; k < groups; k++) {
        for (let i = groupStarts[k]; i < groupStarts[k + 1]; i++) {
          const c = codes[rows[i]];
          if (last[c] !== k) {
            last[c] = k;
            n[c]++;
          }
        }
      }
      // Code 0 is no value: the groups with a match of none.
      missing = n[0];
      n[0] = 0;
      return { values, n, missing };
    }
    if (name !== 'remote') return undefined;
    const { flags } = this.p;
    let remote = 0;
    let onSite = 0;
    for (let k = 0; k < groups; k++) {
      let some = 0;
      for (let i = groupStarts[k]; i < groupStarts[k + 1]; i++) some |= 1 << (flags[rows[i]] & REMOTE);
      remote += some >> 1;
      onSite += some & 1;
    }
    return { values: ['true', 'false'], n: Uint32Array.of(remote, onSite), missing: 0 };
  }

  /** A new mark for `seen` (cleared when the marks run out). */
  private nextEpoch(): number {
    if (++this.epoch === 2 ** 32) {
      this.seen.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  /**
   * The salary distribution's values among `rows` (live matches): per currency, ascending, the midpoint
   * of each row's annual bounds, for rows with a salary, a currency and a finite midpoint (a bound the
   * index keeps as NaN or Infinity stands for NULL or NaN in PostgreSQL, which the distribution leaves out
   * too).
   */
  salaries(rows: RowSet): Map<string, Float64Array> {
    const { flags, salMin, salMax } = this.p;
    const column = this.p.codes.salary_currency;
    const byCode: number[][] = Array.from({ length: column.values.size + 1 }, () => []);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      const c = column.rows[r];
      if (c === 0 || (flags[r] & HAS_SALARY) === 0) continue;
      const v = (salMin[r] + salMax[r]) / 2;
      if (Number.isFinite(v)) byCode[c].push(v);
    }
    const out = new Map<string, Float64Array>();
    for (const [currency, c] of column.values.entries())
      if (byCode[c].length) out.set(currency, Float64Array.from(byCode[c]).sort());
    return out;
  }

  /**
   * The trend of a request's matches over a window (trends.ts), times in microseconds: per interval,
   * [0] before `since`, [i] in [since + (i − 1) × step, since + i × step), none at or after `until`, how
   * many of the matches the two feeds list were first indexed (`entered`), how many of those are live
   * (`added`), and how many left (`left`, by their expiry). Undefined when a text query needs what the
   * index lacks.
   */
  trend(req: MatchRequest, since: number, step: number, until: number): TrendTally | undefined {
    // The rows read of a lexeme not held are live ones: a trend's gone rows need PostgreSQL.
    if (req.words?.length && !this.holdsWords(req.words)) return undefined;
    const c = this.candidates(req);
    if (!c) return undefined;
    const { created, gone: goneRows, goneAt } = this.p;
    const zeros = () => new Array<number>(Math.ceil((until - since) / step) + 1).fill(0);
    const at = (t: number) => (t < since ? 0 : Math.floor((t - since) / step) + 1);
    const t: TrendTally = { entered: zeros(), added: zeros(), left: zeros() };
    // keep's rows are used before it is asked again.
    const live = this.keep(c.rows, req.filters);
    for (let i = 0; i < live.length; i++) {
      const ct = created[live[i]];
      if (ct < until) t.added[at(ct)]++;
    }
    t.entered = t.added.slice();
    const gone = this.keep(c.rows ? intersect(c.rows, goneRows) : goneRows, req.filters, true);
    // Both ascending: each row's expiry is found by walking the gone rows once.
    for (let i = 0, j = 0; i < gone.length; i++) {
      const r = gone[i];
      while (goneRows[j] < r) j++;
      if (created[r] < until) t.entered[at(created[r])]++;
      if (goneAt[j] < until) t.left[at(goneAt[j])]++;
    }
    return t;
  }

  /** Each row's values of a dimension held as sets, by code, made when its facet is first asked for. */
  private byRow = new Map<string, RowStarts & { codes: Codes; values: readonly string[] }>();

  private valuesByRow(name: string, sets: ValueSets) {
    let made = this.byRow.get(name);
    if (made) return made;
    const n = this.p.ids.length;
    const { values } = sets;
    const at = new Uint32Array(n + 1);
    for (let c = 0; c < values.length; c++)
      sets.eachRow(c, (r) => {
        at[r + 1]++;
      });
    for (let r = 0; r < n; r++) at[r + 1] += at[r];
    const starts = rowStarts(at);
    const codes =
      values.length < 2 ** 8
        ? new Uint8Array(at[n])
        : values.length < 2 ** 16
          ? new Uint16Array(at[n])
          : new Uint32Array(at[n]);
    for (let c = 0; c < values.length; c++)
      sets.eachRow(c, (r) => {
        codes[at[r]++] = c;
      });
    made = { ...starts, codes, values };
    this.byRow.set(name, made);
    return made;
  }

  /** The id of each row of a page of matches. */
  ids(rows: RowSet): string[] {
    return Array.from(rows, (r) => this.p.ids.at(r));
  }

  /**
   * Collapsed matches: the number of groups (company + title), and the `offset`..`offset + limit` groups
   * by their newest match, each with its newest row and its number of matches (`openings`).
   */
  groups(
    rows: RowSet,
    offset: number,
    limit: number,
  ): { total: number; page: { row: number; openings: number }[] } {
    const { groups } = this.p;
    const e = this.nextEpoch();
    const firsts: number[] = [];
    let total = 0;
    for (const r of rows) {
      const g = groups[r];
      if (this.seen[g] !== e) {
        this.seen[g] = e;
        this.counts[g] = 0;
        if (total >= offset && total < offset + limit) firsts.push(r);
        total++;
      }
      this.counts[g]++;
    }
    return { total, page: firsts.map((row) => ({ row, openings: this.counts[groups[row]] })) };
  }

  /**
   * `groups` with held matches taken in: a held row joins its group here (whose newest it may become) or
   * makes one of its own. A page entry's `held` row is a row of the held index. Undefined when a held row
   * is the newest of its group and its posting time is that of another group's newest, or of the newest
   * here of its own group: ids then order them, in the database's collation.
   */
  groupsWithHeld(
    rows: RowSet,
    offset: number,
    limit: number,
    held: HeldRows,
  ): { total: number; page: { row: number; held: boolean; openings: number }[] } | undefined {
    const { groups, posted } = this.p;
    const at = held.index.parts.posted;
    // The newest held row of each group (held rows are in search order) and how many there are.
    const theirs = new Map<number, { row: number; n: number }>();
    for (const h of held.rows) {
      const t = theirs.get(held.group[h]);
      if (t) t.n++;
      else theirs.set(held.group[h], { row: h, n: 1 });
    }
    const e = this.nextEpoch();
    const firsts: number[] = [];
    for (const r of rows) {
      const g = groups[r];
      if (this.seen[g] !== e) {
        this.seen[g] = e;
        this.counts[g] = 0;
        firsts.push(r);
      }
      this.counts[g]++;
    }
    const { groupCount } = this.p;
    const newest = new Map<number, number>();
    for (const r of firsts) if (theirs.has(groups[r])) newest.set(groups[r], r);
    // Groups whose newest is a held row, in search order.
    const lead: { us: number; row: number; openings: number }[] = [];
    let added = 0;
    for (const [g, t] of theirs) {
      const here = g < groupCount ? newest.get(g) : undefined;
      if (here === undefined) {
        added++;
        lead.push({ us: at[t.row], row: t.row, openings: t.n });
        continue;
      }
      this.counts[g] += t.n;
      if (at[t.row] === posted[here]) return undefined;
      if (at[t.row] > posted[here]) lead.push({ us: at[t.row], row: t.row, openings: this.counts[g] });
      else newest.delete(g);
    }
    lead.sort((a, b) => b.us - a.us);
    const times = new Set(lead.map((l) => l.us));
    if (times.size < lead.length) return undefined;
    const want = offset + limit;
    const page: { row: number; held: boolean; openings: number }[] = [];
    let k = 0;
    let j = 0;
    for (const r of firsts) {
      if (newest.get(groups[r]) === r) continue; // its newest is held
      if (times.has(posted[r])) return undefined;
      for (; j < lead.length && lead[j].us > posted[r]; j++, k++)
        if (k >= offset && k < want) page.push({ row: lead[j].row, held: true, openings: lead[j].openings });
      if (k >= offset && k < want) page.push({ row: r, held: false, openings: this.counts[groups[r]] });
      k++;
    }
    for (; j < lead.length; j++, k++)
      if (k >= offset && k < want) page.push({ row: lead[j].row, held: true, openings: lead[j].openings });
    return { total: firsts.length + added, page };
  }
}

/**
 * The gone rows (ascending) and their expiry with a few rows changed, in one merge: a Map of every gone
 * row, rebuilt at each expiry, cost the primary's thread 0.4–1.1 s at 63,000 of them on a loaded machine,
 * longer than a request waits for the index to catch up.
 */
function withChanged(
  rows: Uint32Array,
  at: Float64Array,
  changed: Map<number, number | null>,
): { gone: Uint32Array; goneAt: Float64Array } {
  const keys = Uint32Array.from(changed.keys()).sort();
  const gone = new Uint32Array(rows.length + keys.length);
  const goneAt = new Float64Array(gone.length);
  let n = 0;
  for (let i = 0, k = 0; i < rows.length || k < keys.length; ) {
    let r: number;
    let v: number | null;
    if (k >= keys.length || (i < rows.length && rows[i] < keys[k])) {
      r = rows[i];
      v = at[i++];
    } else {
      r = keys[k++];
      v = changed.get(r)!;
      if (i < rows.length && rows[i] === r) i++;
    }
    if (v === null) continue;
    gone[n] = r;
    goneAt[n++] = v;
  }
  return { gone: gone.slice(0, n), goneAt: goneAt.slice(0, n) };
}

/** A tally with other rows' counts of each value added (a value it has not, appended). */
function addCounts(c: FacetTally, more: FacetCounts): { values: string[]; n: number[] } {
  const values = Array.from({ length: c.values.length }, (_, i) => c.values.at(i)!);
  const n = Array.from(c.n);
  const at = new Map(values.map((v, i) => [v, i]));
  for (const [v, k] of more.values) {
    const i = at.get(v);
    if (i === undefined) {
      values.push(v);
      n.push(k);
    } else n[i] += k;
  }
  return { values, n };
}

/**
 * The `limit` values with the most matches (ties by value), and how many values have any: one pass that
 * keeps the best so far in order, instead of sorting every value (100,000 cities to show ten).
 */
export function top(
  values: Indexed,
  n: ArrayLike<number>,
  limit: number,
): { values: [value: string, count: number][]; distinct: number } {
  const best: [string, number][] = [];
  let distinct = 0;
  for (let c = 0; c < n.length; c++) {
    const k = n[c];
    if (k === 0) continue;
    distinct++;
    // Below the last of a full list: out, without reading its value (a slice of a code column's).
    if (best.length >= limit && (limit === 0 || k < best[best.length - 1][1])) continue;
    const v = values.at(c)!;
    let i = best.length;
    while (i > 0 && (k > best[i - 1][1] || (k === best[i - 1][1] && v < best[i - 1][0]))) i--;
    if (i >= limit) continue;
    best.splice(i, 0, [v, k]);
    if (best.length > limit) best.pop();
  }
  return { values: best, distinct };
}

/** The position of the first of `rows` (ascending) above `row`: how many are at most `row`. */
export function firstAbove(rows: ArrayLike<number>, row: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid] <= row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many of the sorted values are below x (the position of the first at least x). */
function firstAtLeast(sorted: Floats, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether the only filters tested per row are salary bounds (has_salary, if given, true). */
function salaryOnly(f: JobFilters): boolean {
  return (
    (f.salary_gte !== undefined || f.salary_lte !== undefined) &&
    (flagTest(f).mask & ~HAS_SALARY) === 0 &&
    f.has_salary !== false &&
    f.created_gte === undefined &&
    f.created_lt === undefined &&
    TESTED_CODES.every((d) => f[d.filter!] === undefined)
  );
}

/** The right sides of a chain of phrases, first to last. */
function chainRights(n: TsNode): TsNode[] {
  return n.op === 'phrase' ? [...chainRights(n.left), n.right] : [];
}

/** A table by code: 1 for the codes of `values` (0, no value, is never wanted). */
function wanted(known: CodeValues, values: string[]): Uint8Array {
  const t = new Uint8Array(known.size + 1);
  for (const v of values) {
    const c = known.get(v);
    if (c !== undefined) t[c] = 1;
  }
  return t;
}

/** A table by code: 1 for the codes of the values `accepts` takes (0, no value, is never wanted). */
function accepted(known: CodeValues, accepts: (stored: string, named: string) => boolean): Uint8Array {
  const t = new Uint8Array(known.size + 1);
  for (let c = 1; c <= known.size; c++) {
    const v = known.at(c);
    if (accepts(v, v)) t[c] = 1;
  }
  return t;
}

/**
 * A table by code: 1 for the codes whose fact (and value, `named`, when `byName`) `accepts` takes (0,
 * nothing named, is never wanted). Only a source filter tests the code's own value (its slug): a
 * company's is not read (each is a slice of the joined values).
 */
function acceptedFacts(
  facts: FactColumn | undefined,
  named: CodeValues,
  accepts: (fact: Fact, named: string) => boolean,
  byName: boolean,
): Uint8Array {
  const t = new Uint8Array(named.size + 1);
  for (let c = 1; c <= named.size; c++)
    if (accepts(facts?.at(c) ?? null, byName ? named.at(c) : '')) t[c] = 1;
  return t;
}

/** Rows per block of a RowStarts: 2^4. */
const ROW_BLOCK = 4;

/**
 * Where each row's values start in a list of them (row r's are [start(r), start(r + 1))), kept as a
 * 32-bit start per block of 16 rows and each row's offset from its block's start, in a byte where every
 * block holds fewer than 256 values: start(r) = base[r >> 4] + off[r]. 1.25 bytes a row instead of 4 (2.25
 * for the dimensions of many values a row): the faceted dimensions' rows of a million jobs in ~25 MB less.
 */
interface RowStarts {
  base: Uint32Array;
  off: Uint8Array | Uint16Array | Uint32Array;
}

/** `starts` (n + 1 ascending starts, the last the end) as RowStarts. */
export function rowStarts(starts: Uint32Array): RowStarts {
  const base = new Uint32Array((starts.length >> ROW_BLOCK) + 1);
  let widest = 0;
  for (let r = 0; r < starts.length; r++) {
    if ((r & ((1 << ROW_BLOCK) - 1)) === 0) base[r >> ROW_BLOCK] = starts[r];
    widest = Math.max(widest, starts[r] - base[r >> ROW_BLOCK]);
  }
  const off =
    widest < 2 ** 8
      ? new Uint8Array(starts.length)
      : widest < 2 ** 16
        ? new Uint16Array(starts.length)
        : new Uint32Array(starts.length);
  for (let r = 0; r < starts.length; r++) off[r] = starts[r] - base[r >> ROW_BLOCK];
  return { base, off };
}

/** The rows of every code (0, no value, left out), in ascending order: code c's are rows[starts[c]..starts[c + 1]]. */
interface CodeRows {
  rows: Uint32Array;
  starts: Uint32Array;
}

function codeRows(codes: Codes, max: number): CodeRows {
  const starts = new Uint32Array(max + 2);
  for (let r = 0; r < codes.length; r++) if (codes[r] !== 0) starts[codes[r] + 1]++;
  for (let c = 1; c < starts.length; c++) starts[c] += starts[c - 1];
  const rows = new Uint32Array(starts[starts.length - 1]);
  const at = starts.slice(0, -1);
  for (let r = 0; r < codes.length; r++) if (codes[r] !== 0) rows[at[codes[r]]++] = r;
  return { rows, starts };
}

/**
 * Format of a saved index; a file of another format is not read (2: the dimensions of dimensions.ts; 3: each
 * row's created_at, for trends; 4: the gone rows the expired feed lists, with their expired_at; 5: the
 * description lexemes; 6: the rows of every description lexeme; 7: a dimension's and the title lexemes' rare
 * values packed, the lexemes' numbers saved, the expiries of the gone rows only; 8: ids as a code of their source part
 * and the rest; 9: the visa sponsorship flag; 10: the employer's name as codes; 11: the companies' own figures; 12: the sources' legacy slugs; a code column's values listed in code order).
 */
export const FORMAT = 12;

/** A dimension's ValueSets as saved: its values, and the columns of its arrays. */
interface SavedValueSets {
  keys: string[];
  lengths: number;
  rows: number;
  rowsAt: number;
  packed: number;
  packedAt: number;
}

type Column = Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array;
/** Salaries: in 32 bits when every one of them is exact in them (narrowFloats). */
type Floats = Float64Array | Float32Array;

/** Salaried rows' bounds, each sorted (MatchIndex.sortSalaries). */
interface SalaryOrder {
  max: Floats;
  min: Floats;
  minOfBoth: Floats;
  maxAlone: Floats;
}

/**
 * How many of `count` salaried rows, whose bounds `o` holds, meet the bounds. Given gte ≤ lte and min ≤ max,
 * a minimum above lte has its maximum above gte: of the rows whose maximum meets gte, those that fail lte
 * are the ones without a minimum and those whose minimum is above.
 */
function boundsCount(
  o: SalaryOrder,
  count: number,
  gte: number | undefined,
  lte: number | undefined,
): number {
  if (gte === undefined) return lte === undefined ? count : firstAbove(o.min, lte);
  const n = o.max.length - firstAtLeast(o.max, gte);
  if (lte === undefined) return n;
  return (
    n -
    (o.maxAlone.length - firstAtLeast(o.maxAlone, gte)) -
    (o.minOfBoth.length - firstAbove(o.minOfBoth, lte))
  );
}

/** The column in 32-bit floats when that keeps every value exact (NaN and the infinities too). */
export function narrowFloats(a: Float64Array): Floats {
  const f = Float32Array.from(a);
  for (let i = 0; i < a.length; i++)
    if (f[i] !== a[i] && !(Number.isNaN(a[i]) && Number.isNaN(f[i]))) return a;
  return f;
}

/**
 * The index as bytes: a JSON header (its scalars, its value lists and where each column lies) and its
 * columns, each at a multiple of 8 bytes. `identity` names what it was built from (db/match-rows.ts).
 */
export function saveIndex(index: MatchIndex, identity: Pick<MatchIdentity, 'db'>): Buffer[] {
  const p = index.parts;
  // A column is one typed array, or several of one type written one after the other (the description
  // words' bitmaps, without copying them into one).
  const cols: Column[][] = [];
  const col = (...c: Column[]) => cols.push(c) - 1;
  const valueSets = (v: ValueSets): SavedValueSets => ({
    keys: [...v.values],
    lengths: col(v.lengths),
    rows: col(v.rows),
    rowsAt: col(v.rowsAt),
    packed: col(v.packed),
    packedAt: col(v.packedAt),
  });
  const ids = p.ids;
  const header = {
    format: FORMAT,
    db: identity.db,
    version: index.version,
    live: index.size,
    groupCount: p.groupCount,

    ids: {
      prefixes: ids.prefixes,
      codes: col(ids.codes),
      bytes: col(ids.rest.bytes),
      ends: col(ids.rest.ends),
    },
    posted: col(p.posted),
    created: col(p.created),
    gone: col(p.gone),
    goneAt: col(p.goneAt),
    groups: col(p.groups),
    flags: col(p.flags),
    salMin: col(p.salMin),
    salMax: col(p.salMax),
    dead: col(index.deadRows),
    sets: Object.fromEntries(Object.entries(p.sets).map(([k, v]) => [k, valueSets(v)])),
    none: Object.fromEntries(Object.entries(p.none).map(([k, rows]) => [k, col(rows)])),
    codes: Object.fromEntries(
      Object.entries(p.codes).map(([k, c]) => [
        k,
        {
          values: c.values.list(),
          rows: col(c.rows),
          facts: c.facts && Object.fromEntries(Object.entries(c.facts).map(([f, x]) => [f, x.list()])),
        },
      ]),
    ),
    lexemes: p.lexemes && { ...valueSets(p.lexemes.rows), numbers: col(p.lexemes.numbers) },
    positions: p.positions && col(p.positions),
    positionsAt: p.positionsAt && col(p.positionsAt),
    // The bitmaps one after the other, each as long.
    words: p.words && {
      held: [...p.words.held.keys()],
      bits: col(new Uint32Array(0), ...p.words.held.values()),
      vocab: { bytes: col(p.words.vocab.bytes), ends: col(p.words.vocab.ends) },
      lists: col(p.words.lists),
      listAt: col(p.words.listAt),
    },
    columns: [] as [string, number, number][],
  };
  let offset = 0;
  for (const c of cols) {
    const bytes = c.reduce((n, part) => n + part.byteLength, 0);
    header.columns.push([c[0].constructor.name, offset, bytes / c[0].BYTES_PER_ELEMENT]);
    offset += Math.ceil(bytes / 8) * 8;
  }
  const head = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeUInt32LE(head.length, 0);
  const pad = (n: number) => Buffer.alloc((8 - (n % 8)) % 8);
  return [
    len,
    head,
    pad(head.length),
    ...cols.flatMap((c) => [
      ...c.map((part) => Buffer.from(part.buffer, part.byteOffset, part.byteLength)),
      pad(c.reduce((n, part) => n + part.byteLength, 0)),
    ]),
  ];
}

/**
 * The index saved in `file`'s bytes, if they are of this format and of this database, and the database is
 * at its version with as many live jobs, or at a later version (it is then carried or built again).
 */
export function loadIndex(file: Buffer, identity: MatchIdentity, columns?: Buffer): MatchIndex | undefined {
  const header = savedHeader(file);
  if (header.format !== FORMAT || header.db !== identity.db || header.version > identity.version)
    return undefined;
  if (header.version === identity.version && header.live !== identity.live) return undefined;
  return readIndex(file, columns);
}

/** Where a saved index's columns start: after its length, its header and the header's padding. */
export const columnsStart = (headerLength: number): number => 8 + Math.ceil(headerLength / 8) * 8;

/**
 * The header of saved index bytes (saveIndex): the first 8 bytes give its length. `bytes` may be the
 * start of a file only, as long as it holds the header.
 */
export function savedHeader(bytes: Buffer): { format: number; db: string; version: number; live: number } {
  return JSON.parse(bytes.toString('utf8', 8, 8 + bytes.readUInt32LE(0)));
}

/**
 * The index in `bytes` (as saveIndex wrote them): its columns are views of those bytes, not copies. With
 * `columns`, `bytes` need hold only the header, and `columns` holds what follows it (columnsStart on):
 * a file read in those two parts keeps none of its header's bytes (megabytes of names) once read.
 */
export function readIndex(bytes: Buffer, columns?: Buffer): MatchIndex {
  const headLen = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString('utf8', 8, 8 + headLen));
  if (header.format !== FORMAT) throw new Error(`match index of format ${header.format}`);
  // Views need each column aligned for its type: bytes that do not start at a multiple of 8 are copied.
  const aligned = (b: Buffer) => (b.byteOffset % 8 === 0 ? b : Buffer.from(new Uint8Array(b)));
  const file = aligned(columns ?? bytes);
  const base = file.byteOffset + (columns ? 0 : columnsStart(headLen));
  const cols = (header.columns as [string, number, number][]).map(([type, at, length]) => {
    const T = { Float64Array, Float32Array, Uint32Array, Uint16Array, Uint8Array }[
      type as 'Float64Array' | 'Float32Array' | 'Uint32Array' | 'Uint16Array' | 'Uint8Array'
    ];
    if (!T) throw new Error(`match index: a column of type ${type}`);
    return new T(file.buffer as ArrayBuffer, base + at, length);
  });
  const valueSets = (s: SavedValueSets) =>
    new ValueSets(
      s.keys,
      cols[s.lengths] as Uint32Array,
      cols[s.rows] as Uint32Array,
      cols[s.rowsAt] as Uint32Array,
      cols[s.packed] as Uint8Array,
      cols[s.packedAt] as Uint32Array,
    );
  const lexemes = header.lexemes as (SavedValueSets & { numbers: number }) | undefined;
  const words = header.words as
    | {
        held: string[];
        bits: number;
        vocab: { bytes: number; ends: number };
        lists: number;
        listAt: number;
      }
    | undefined;
  const bits = words && (cols[words.bits] as Uint32Array);
  const each = words?.held.length ? bits!.length / words.held.length : 0;
  const index = new MatchIndex({
    version: header.version,
    ids: new Ids(
      header.ids.prefixes,
      cols[header.ids.codes] as Codes,
      new Strings(cols[header.ids.bytes] as Uint8Array, cols[header.ids.ends] as Uint32Array),
    ),
    posted: cols[header.posted] as Float64Array,
    created: cols[header.created] as Float64Array,
    gone: cols[header.gone] as Uint32Array,
    goneAt: cols[header.goneAt] as Float64Array,
    groups: cols[header.groups] as Uint32Array,
    groupCount: header.groupCount,
    flags: cols[header.flags] as Uint8Array,
    salMin: cols[header.salMin] as Floats,
    salMax: cols[header.salMax] as Floats,
    sets: Object.fromEntries(
      Object.entries(header.sets as Record<string, SavedValueSets>).map(([k, s]) => [k, valueSets(s)]),
    ),
    none: Object.fromEntries(
      Object.entries(header.none as Record<string, number>).map(([k, c]) => [k, cols[c] as Uint32Array]),
    ),
    codes: Object.fromEntries(
      Object.entries(
        header.codes as Record<string, { values: string[]; rows: number; facts?: Record<string, Fact[]> }>,
      ).map(([k, c]) => [
        k,
        {
          values: CodeValues.of(c.values),
          rows: cols[c.rows] as Codes,
          ...(c.facts && {
            facts: Object.fromEntries(Object.entries(c.facts).map(([f, x]) => [f, FactColumn.of(x)])),
          }),
        },
      ]),
    ),
    lexemes: lexemes && { rows: valueSets(lexemes), numbers: cols[lexemes.numbers] as Uint32Array },
    positions: header.positions === undefined ? undefined : (cols[header.positions] as Uint32Array),
    positionsAt: header.positionsAt === undefined ? undefined : (cols[header.positionsAt] as Uint32Array),
    words: words && {
      held: new Map(words.held.map((w, i) => [w, bits!.subarray(i * each, (i + 1) * each)])),
      vocab: new Strings(cols[words.vocab.bytes] as Uint8Array, cols[words.vocab.ends] as Uint32Array),
      lists: cols[words.lists] as Uint8Array,
      listAt: cols[words.listAt] as Uint32Array,
    },
  });
  index.markDead(cols[header.dead] as Uint8Array);
  return index;
}
