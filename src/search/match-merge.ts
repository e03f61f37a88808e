// The match index carried over a load: the rows of the jobs a load wrote taken out, and those jobs as they
// are now put in at their place in search order, without reading the other rows from PostgreSQL again.
// The new rows come as an index of their own (built as any index is, match-index.ts); the two are merged
// column by column and set by set, every row renumbered in one pass. At a million rows that is 1.5 s of a
// core, where a build reads every row (15–65 s).
import { type CodeColumn, MatchIndex, narrowFloats, POS_SPAN, type Parts } from './match-index.ts';
import { CodeValues, FactColumn } from './match-codes.ts';
import { type Codes, Ids, narrowCodes, type RowSet, Strings, StringTable } from './match-sets.ts';
import { ValueSets } from './match-value-sets.ts';
import { bitWords, PackedRows, remapBits, unpackRows, type Words } from './match-words.ts';

/** Where the rows of `added` go, and which group of the old index each joins. */
export interface Placement {
  /** Rows of the old index taken out (1): the jobs written since, as they were. */
  removed: Uint8Array;
  /** For each row of `added`, how many rows of the old index come before it in search order. */
  before: Uint32Array;
  /** For each row of `added`, the group of the old index it joins (a live row of its collapse key), or -1. */
  group: Int32Array;
}

/**
 * The old index without its removed rows, with the rows of `added` at their places, at `version`.
 * Every set stays sorted: a kept row's new number grows with its old one, and so does an added row's.
 */
export function mergeIndexes(old: MatchIndex, added: MatchIndex, at: Placement, version: number): MatchIndex {
  const a = old.parts;
  const b = added.parts;
  const nA = a.ids.length;
  const nB = b.ids.length;
  // Each kept row's new number (-1: removed), each added row's, and where each new row comes from
  // (r >= 0: old row r; -1 - j: added row j).
  const mapA = new Int32Array(nA);
  const mapB = new Uint32Array(nB);
  let n = 0;
  let j = 0;
  for (let r = 0; r < nA; r++) {
    while (j < nB && at.before[j] <= r) mapB[j++] = n++;
    mapA[r] = at.removed[r] ? -1 : n++;
  }
  while (j < nB) mapB[j++] = n++;
  const from = new Int32Array(n);
  for (let r = 0; r < nA; r++) if (mapA[r] >= 0) from[mapA[r]] = r;
  for (let k = 0; k < nB; k++) from[mapB[k]] = -1 - k;

  const column = <T extends Float64Array | Uint32Array | Uint8Array>(
    make: (n: number) => T,
    x: ArrayLike<number>,
    y: ArrayLike<number>,
  ): T => {
    const out = make(n);
    for (let i = 0; i < n; i++) {
      const f = from[i];
      out[i] = f >= 0 ? x[f] : y[-1 - f];
    }
    return out;
  };
  const floats = (x: ArrayLike<number>, y: ArrayLike<number>) => column((k) => new Float64Array(k), x, y);

  // Groups: an added row joins its old group when a live row of its key stayed; the others of one key
  // share a new group.
  const groupOfB = new Map<number, number>();
  for (let k = 0; k < nB; k++) if (at.group[k] >= 0) groupOfB.set(b.groups[k], at.group[k]);
  let groupCount = a.groupCount;
  for (let k = 0; k < nB; k++) if (!groupOfB.has(b.groups[k])) groupOfB.set(b.groups[k], groupCount++);
  const groupsB = Uint32Array.from(b.groups, (g) => groupOfB.get(g)!);

  const codes: Record<string, CodeColumn> = {};
  for (const [name, ca] of Object.entries(a.codes)) {
    const cb = b.codes[name];
    const values = new Map(ca.values.entries());
    const recode = new Uint32Array(cb.values.size + 1);
    for (const [v, c] of cb.values.entries()) {
      let to = values.get(v);
      if (to === undefined) {
        to = values.size + 1;
        values.set(v, to);
      }
      recode[c] = to;
    }
    const rows = column((k) => new Uint32Array(k), ca.rows, mapped(cb.rows, recode));
    // The facts of what each code names: `b`'s, read later, over `a`'s.
    let facts: CodeColumn['facts'];
    if (ca.facts && cb.facts) {
      facts = {};
      for (const [k, fa] of Object.entries(ca.facts)) {
        const f = fa.list();
        for (let c = 1; c <= cb.values.size; c++) f[recode[c]] = cb.facts[k].at(c);
        for (let c = 0; c <= values.size; c++) f[c] ??= null;
        facts[k] = FactColumn.of(f);
      }
    }
    codes[name] = {
      rows: narrowCodes(rows, values.size),
      values: CodeValues.of(values.keys()),
      ...(facts && { facts }),
    };
  }

  const sets: Record<string, ValueSets> = {};
  const none: Record<string, RowSet> = {};
  for (const [name, sa] of Object.entries(a.sets)) {
    sets[name] = mergeSets(sa, b.sets[name], mapA, mapB, n);
    none[name] = mergeRows(a.none[name], b.none[name], mapA, mapB);
  }

  // Lexemes keep their numbers; a new one takes the next free number.
  let lexemes: Parts['lexemes'];
  let positions: Uint32Array | undefined;
  let positionsAt: Uint32Array | undefined;
  if (a.lexemes && b.lexemes) {
    const la = a.lexemes;
    const lb = b.lexemes;
    let next = 0;
    for (const k of la.numbers) next = Math.max(next, k + 1);
    const renumber = new Uint32Array(lb.rows.size);
    const numbers: number[] = [];
    function* merged(): Generator<[string, RowSet]> {
      for (let i = 0; i < la.rows.size; i++) {
        const lexeme = la.rows.values[i];
        const m = mergeRows(la.rows.rowsOf(i), lb.rows.get(lexeme), mapA, mapB);
        if (!m.length) continue;
        numbers.push(la.numbers[i]);
        yield [lexeme, m];
      }
      for (let i = 0; i < lb.rows.size; i++) {
        const lexeme = lb.rows.values[i];
        const known = la.rows.indexOf(lexeme);
        renumber[lb.numbers[i]] = known === undefined ? next++ : la.numbers[known];
        if (known !== undefined) continue;
        numbers.push(renumber[lb.numbers[i]]);
        yield [lexeme, mergeRows(undefined, lb.rows.rowsOf(i), mapA, mapB)];
      }
    }
    // The numbers are those of the lexemes merged() yields, in its order: read once it is done.
    const rows = ValueSets.of(merged(), n);
    lexemes = { rows, numbers: Uint32Array.from(numbers) };
    if (a.positions && a.positionsAt && b.positions && b.positionsAt && next * POS_SPAN < 2 ** 32) {
      positionsAt = new Uint32Array(n + 1);
      positions = new Uint32Array(a.positions.length + b.positions.length);
      let k = 0;
      for (let i = 0; i < n; i++) {
        const f = from[i];
        if (f >= 0) {
          positions.set(a.positions.subarray(a.positionsAt[f], a.positionsAt[f + 1]), k);
          k += a.positionsAt[f + 1] - a.positionsAt[f];
        } else {
          const g = -1 - f;
          for (let p = b.positionsAt[g]; p < b.positionsAt[g + 1]; p++) {
            const x = b.positions[p];
            positions[k++] = renumber[Math.floor(x / POS_SPAN)] * POS_SPAN + (x % POS_SPAN);
          }
        }
        positionsAt[i + 1] = k;
      }
      positions = positions.slice(0, k);
    }
  }

  const index = new MatchIndex({
    version,
    ids: mergeIds(a.ids, b.ids, from),
    posted: floats(a.posted, b.posted),
    created: floats(a.created, b.created),
    ...mergeGone(a, b, mapA, mapB),
    groups: column((k) => new Uint32Array(k), a.groups, groupsB),
    groupCount,
    flags: column((k) => new Uint8Array(k), a.flags, b.flags),
    salMin: narrowFloats(floats(a.salMin, b.salMin)),
    salMax: narrowFloats(floats(a.salMax, b.salMax)),
    sets,
    none,
    codes,
    lexemes,
    positions,
    positionsAt,
    words: mergeWords(a.words, b.words, mapA, mapB, n),
  });
  index.markDead(column((k) => new Uint8Array(k), old.deadRows, added.deadRows));
  return index;
}

/**
 * The description lexemes of the merged rows: each bitmap's and each list's kept rows of `a` and rows of
 * `b` renumbered, the vocabularies as one. None unless both hold them, `b` with the same bitmaps.
 */
export function mergeWords(
  a: Words | undefined,
  b: Words | undefined,
  mapA: Int32Array,
  mapB: Uint32Array,
  n: number,
): Words | undefined {
  if (!a || !b || a.held.size !== b.held.size || ![...a.held.keys()].every((w) => b.held.has(w)))
    return undefined;
  const held = new Map<string, Uint32Array>();
  for (const [w, bits] of a.held) {
    const out = new Uint32Array(bitWords(n));
    remapBits(bits, mapA, out);
    remapBits(b.held.get(w)!, mapB, out);
    held.set(w, out);
  }
  const vocab = new StringTable();
  const listAt: number[] = [0];
  const lists = new PackedRows();
  const list = (w: Words, i: number) => unpackRows(w.lists, w.listAt[i], w.listAt[i + 1]);
  const push = (lexeme: string, x: RowSet | undefined, y: RowSet | undefined) => {
    vocab.push(lexeme);
    lists.restart();
    for (const r of mergeRows(x, y, mapA, mapB)) lists.push(r);
    listAt.push(lists.length);
  };
  let i = 0;
  let j = 0;
  while (i < a.vocab.length || j < b.vocab.length) {
    const x = i < a.vocab.length ? a.vocab.at(i) : undefined;
    const y = j < b.vocab.length ? b.vocab.at(j) : undefined;
    if (y === undefined || (x !== undefined && x < y)) push(x!, list(a, i++), undefined);
    else if (x === undefined || y < x) push(y, undefined, list(b, j++));
    else push(x, list(a, i++), list(b, j++));
  }
  return { held, vocab: vocab.done(), lists: lists.view().slice(), listAt: Uint32Array.from(listAt) };
}

function mapped(codes: Codes, to: Uint32Array): Uint32Array {
  return Uint32Array.from(codes, (c) => to[c]);
}

/** The gone rows of both, renumbered and in order, with their expiries. */
function mergeGone(
  a: Readonly<Parts>,
  b: Readonly<Parts>,
  mapA: Int32Array,
  mapB: Uint32Array,
): { gone: Uint32Array; goneAt: Float64Array } {
  const gone = mergeRows(a.gone, b.gone, mapA, mapB);
  const at = new Map<number, number>();
  a.gone.forEach((r, i) => {
    if (mapA[r] >= 0) at.set(mapA[r], a.goneAt[i]);
  });
  b.gone.forEach((r, i) => {
    at.set(mapB[r], b.goneAt[i]);
  });
  return { gone, goneAt: Float64Array.from(gone, (r) => at.get(r)!) };
}

/** Each value's rows: the kept old ones and the added ones, renumbered; values left with none dropped. */
function mergeSets(sa: ValueSets, sb: ValueSets, mapA: Int32Array, mapB: Uint32Array, n: number): ValueSets {
  function* merged(): Generator<[string, RowSet]> {
    for (const [v, rows] of sa.entries()) {
      const m = mergeRows(rows, sb.get(v), mapA, mapB);
      if (m.length) yield [v, m];
    }
    for (const [v, rows] of sb.entries()) if (!sa.has(v)) yield [v, mergeRows(undefined, rows, mapA, mapB)];
  }
  return ValueSets.of(merged(), n);
}

/** A set of old rows (their kept ones) and one of added rows, renumbered and merged in order. */
function mergeRows(
  x: RowSet | undefined,
  y: RowSet | undefined,
  mapA: Int32Array,
  mapB: Uint32Array,
): RowSet {
  const nx = x?.length ?? 0;
  const ny = y?.length ?? 0;
  const out = new Uint32Array(nx + ny);
  let k = 0;
  let i = 0;
  let j = 0;
  let next = i < nx ? nextKept(x!, i, mapA) : nx;
  while (next < nx || j < ny) {
    const u = next < nx ? mapA[x![next]] : Infinity;
    const w = j < ny ? mapB[y![j]] : Infinity;
    if (u < w) {
      out[k++] = u;
      i = next + 1;
      next = nextKept(x!, i, mapA);
    } else {
      out[k++] = w;
      j++;
    }
  }
  return k === out.length ? out : out.slice(0, k);
}

/** The position of the first kept row of `x` from `i` (x.length: none). */
function nextKept(x: RowSet, i: number, mapA: Int32Array): number {
  while (i < x.length && mapA[x[i]] < 0) i++;
  return i;
}

/**
 * The ids of the new rows: their source parts, `a`'s codes and then any new ones of `b`, and the rest of
 * each copied from either table.
 */
export function mergeIds(a: Ids, b: Ids, from: Int32Array): Ids {
  const prefixes = [...a.prefixes];
  const codeOf = new Map(prefixes.map((p, c) => [p, c]));
  const bCode = b.prefixes.map((p) => {
    let c = codeOf.get(p);
    if (c === undefined) {
      c = prefixes.push(p) - 1;
      codeOf.set(p, c);
    }
    return c;
  });
  const codes = new Uint32Array(from.length);
  for (let r = 0; r < from.length; r++) {
    const f = from[r];
    codes[r] = f >= 0 ? a.codes[f] : bCode[b.codes[-1 - f]];
  }
  return new Ids(prefixes, narrowCodes(codes, prefixes.length), mergeStrings(a.rest, b.rest, from));
}

/** The strings of the new rows, their UTF-8 bytes copied from either table. */
function mergeStrings(a: Strings, b: Strings, from: Int32Array): Strings {
  const ends = new Uint32Array(from.length);
  let k = 0;
  for (let r = 0; r < from.length; r++) {
    const f = from[r];
    const t = f >= 0 ? a : b;
    const i = f >= 0 ? f : -1 - f;
    k += t.ends[i] - (i === 0 ? 0 : t.ends[i - 1]);
    ends[r] = k;
  }
  const out = new Uint8Array(k);
  let o = 0;
  for (let r = 0; r < from.length; r++) {
    const f = from[r];
    const t = f >= 0 ? a : b;
    const i = f >= 0 ? f : -1 - f;
    const bytes = t.bytes;
    // Ids are a few dozen bytes: copied byte by byte, no view made per row.
    for (let p = i === 0 ? 0 : t.ends[i - 1]; p < t.ends[i]; p++) out[o++] = bytes[p];
  }
  return new Strings(out, ends);
}

/** The rows the index holds of these jobs (1 for each), found by id. */
function rowsOf(index: MatchIndex, ids: Set<string>): Uint8Array {
  const t = index.parts.ids;
  const out = new Uint8Array(t.length);
  if (!ids.size) return out;
  // Decoding every id costs seconds at a million rows: a row's id is decoded only when the hash of the
  // bytes after its source part is one of the wanted ids'.
  const hashes = new Set<number>();
  for (const id of ids) {
    const b = Buffer.from(id.slice(id.indexOf(':') + 1));
    hashes.add(fnv(b, 0, b.length));
  }
  const { bytes, ends } = t.rest;
  for (let r = 0; r < ends.length; r++)
    if (hashes.has(fnv(bytes, r === 0 ? 0 : ends[r - 1], ends[r])) && ids.has(t.at(r))) out[r] = 1;
  return out;
}

/** FNV-1a of bytes[from..to). */
function fnv(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h;
}

/**
 * Where the rows of `added` (the jobs written since, as they are now, in search order) go in `old`:
 * their places by posting time, a tie with old rows broken as PostgreSQL orders their ids (`order`, the
 * column's collation), and the old group of each one's collapse key (`peers`: the live jobs of each key).
 * Undefined when a job the log names as live is not where the index should hold it.
 */
export async function placeRows(
  old: MatchIndex,
  added: MatchIndex,
  keys: string[],
  touched: Set<string>,
  peers: Map<string, [id: string, postedUs: string][]>,
  order: (lists: string[][]) => Promise<string[][]>,
): Promise<Placement | undefined> {
  const a = old.parts;
  const b = added.parts;
  const removed = rowsOf(old, touched);
  const before = new Uint32Array(b.ids.length);
  const ties: { row: number; id: string; lo: number }[] = [];
  const lists: string[][] = [];
  for (let k = 0; k < b.ids.length; k++) {
    const p = b.posted[k];
    const lo = postedAbove(a.posted, p);
    const hi = postedAbove(a.posted, p - 1);
    before[k] = lo;
    const others: string[] = [];
    for (let r = lo; r < hi; r++) if (!removed[r]) others.push(a.ids.at(r));
    if (!others.length) continue;
    const id = b.ids.at(k);
    ties.push({ row: k, id, lo });
    lists.push([...others, id]);
  }
  const ordered = await order(lists);
  ties.forEach((t, i) => {
    // The old rows of the same time before it: in the index's order, so a count gives the place.
    const at = ordered[i].indexOf(t.id);
    let kept = 0;
    let r = t.lo;
    while (kept < at) if (!removed[r++]) kept++;
    before[t.row] = r;
  });
  const group = new Int32Array(b.ids.length).fill(-1);
  for (let k = 0; k < b.ids.length; k++) {
    const peer = peers.get(keys[k])?.find(([id]) => !touched.has(id));
    if (!peer) continue;
    const r = old.rowOf(peer[0], Number(peer[1]));
    if (r === undefined) return undefined;
    group[k] = a.groups[r];
  }
  return { removed, before, group };
}

/** How many rows were posted after `us` (rows are in descending order of posting time). */
function postedAbove(posted: Float64Array, us: number): number {
  let lo = 0;
  let hi = posted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (posted[mid] > us) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
