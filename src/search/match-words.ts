// The description lexemes the match index holds (of title plus description, the vector jobs.text_tsv
// holds), every one of them: the most common as a bitmap of rows each, every other as a packed list of
// its rows, in a sorted vocabulary. A description search without a phrase is answered from them: a word
// most descriptions hold is counted by a few word-wise operations instead of a visit to each of its
// matches in PostgreSQL, and a rarer one costs its own rows, never a read. A phrase is PostgreSQL's (no
// positions are kept). Bit r of a bitmap is row r.
import { type RowSet, type Strings, StringTable } from './match-sets.ts';
import { readQuoted, type TsNode } from './match-tsquery.ts';

/** One bit per row: row r is bit (r & 31) of word r >>> 5. */
export type Bits = Uint32Array;

export interface Words {
  /** The bitmap of each lexeme held as one, the most common (as many words as the index has rows, over 32). */
  held: Map<string, Bits>;
  /** Every lexeme of any row the index holds or held, sorted (UTF-16 order), for prefix terms. */
  vocab: Strings;
  /**
   * The rows of every other lexeme, packed (PackedRows): vocabulary entry i's are the bytes
   * `lists[listAt[i]]` up to `lists[listAt[i + 1]]` (none for one held as a bitmap).
   */
  lists: Uint8Array;
  listAt: Uint32Array;
}

export const bitWords = (rows: number): number => Math.ceil(rows / 32);

/** A bitmap being built, row by row: it grows as rows are set. */
export class BitsBuilder {
  private bits = new Uint32Array(1024);

  set(row: number): void {
    const w = row >>> 5;
    if (w >= this.bits.length) {
      const grown = new Uint32Array(Math.max(this.bits.length * 2, w + 1));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[w] |= 1 << (row & 31);
  }

  /** The bitmap of `rows` rows. */
  done(rows: number): Bits {
    const out = new Uint32Array(bitWords(rows));
    out.set(this.bits.subarray(0, Math.min(out.length, this.bits.length)));
    return out;
  }
}

/**
 * A lexeme's rows, ascending, as the gaps between them (row minus the previous row minus one; the first
 * row itself) in 7-bit groups, low first, the high bit set on every byte but a number's last: one byte a
 * row for a lexeme in more than 1/128 of the rows, a bitmap's eighth of a byte a row only above 1/8.
 */
export class PackedRows {
  private bytes = new Uint8Array(8);
  private used = 0;
  private last = -1;

  push(row: number): void {
    let gap = row - this.last - 1;
    this.last = row;
    if (this.used + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    while (gap >= 0x80) {
      this.bytes[this.used++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    this.bytes[this.used++] = gap;
  }

  get length(): number {
    return this.used;
  }

  /** Starts another list after this one's bytes: its first row is packed as itself. */
  restart(): void {
    this.last = -1;
  }

  /** Its bytes (a view: copy them before pushing more). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.used);
  }
}

/** Each row packed in `bytes[from..to)` (PackedRows), ascending. */
export function eachPacked(bytes: Uint8Array, from: number, to: number, each: (row: number) => void): void {
  let row = -1;
  let i = from;
  while (i < to) {
    let b = bytes[i++];
    let gap = b & 0x7f;
    // Four groups hold any gap below 2^28 rows: more than an index holds.
    for (let shift = 7; b & 0x80; shift += 7) {
      b = bytes[i++];
      gap |= (b & 0x7f) << shift;
    }
    row += gap + 1;
    each(row);
  }
}

/**
 * The rows packed in `bytes[from..to)` (PackedRows), ascending; `count` of them when known, else counted
 * first (a row's last byte has the high bit clear). eachPacked's loop written out: a call per row doubles
 * the time of a request that names a rare value.
 */
export function unpackRows(bytes: Uint8Array, from: number, to: number, count?: number): RowSet {
  let n = count ?? 0;
  if (count === undefined) for (let i = from; i < to; i++) n += (bytes[i] >> 7) ^ 1;
  const out = new Uint32Array(n);
  let row = -1;
  let k = 0;
  let i = from;
  while (i < to) {
    let b = bytes[i++];
    let gap = b & 0x7f;
    for (let shift = 7; b & 0x80; shift += 7) {
      b = bytes[i++];
      gap |= (b & 0x7f) << shift;
    }
    row += gap + 1;
    out[k++] = row;
  }
  return out;
}

/** The rows of a bitmap below `rows` (all of them when not given), ascending. */
export function bitsToRows(bits: Bits, rows = bits.length * 32): RowSet {
  let n = 0;
  for (let w = 0; w < bits.length; w++) n += popcount(bits[w]);
  const out = new Uint32Array(n);
  let k = 0;
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    while (x !== 0) {
      const low = x & -x;
      out[k++] = w * 32 + 31 - Math.clz32(low);
      x ^= low;
    }
  }
  // Bits past the last row (a NOT sets them) are not rows.
  while (k > 0 && out[k - 1] >= rows) k--;
  return out.subarray(0, k);
}

/** The rows of `rows` set in `bits`. */
export function rowsIn(rows: RowSet, bits: Bits): RowSet {
  const out = new Uint32Array(rows.length);
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (bits[r >>> 5] & (1 << (r & 31))) out[k++] = r;
  }
  return out.subarray(0, k);
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Sets in `out` the new row of each row of `bits` that `map` keeps (a negative new row: taken out). */
export function remapBits(bits: Bits, map: Int32Array | Uint32Array, out: Bits): void {
  for (let w = 0; w < bits.length; w++) {
    let x = bits[w];
    while (x !== 0) {
      const low = x & -x;
      const to = map[w * 32 + 31 - Math.clz32(low)];
      if (to >= 0) out[to >>> 5] |= 1 << (to & 31);
      x ^= low;
    }
  }
}

/**
 * The stripped tsvector text `'a' 'b' 'it''s'` (positions, if any, skipped) as its lexemes, each handed
 * to `each`; false when the text is not of that form (the index then holds no description words).
 */
export function readLexemes(text: string, each: (lexeme: string) => void): boolean {
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (text.charCodeAt(i) === 32) {
      i++;
      continue;
    }
    if (text.charCodeAt(i) !== 39) return false;
    // The common case: no quote or backslash inside, the lexeme is a slice.
    const end = text.indexOf("'", i + 1);
    if (end < 0) return false;
    let lexeme: string;
    const plain = text.slice(i + 1, end);
    if (text.charCodeAt(end + 1) !== 39 && !plain.includes('\\')) {
      lexeme = plain;
      i = end + 1;
    } else {
      // A quote doubled or a backslash: read as the title vectors are.
      const quoted = readQuoted(text, i);
      if (!quoted) return false;
      [lexeme, i] = quoted;
    }
    // Positions and weights of an unstripped vector: not needed.
    if (text[i] === ':') while (i < n && text.charCodeAt(i) !== 32) i++;
    each(lexeme);
  }
  return true;
}

/** The words of an index: the bitmaps of the lexemes held as such, and every other lexeme's packed rows. */
export function doneWords(held: Map<string, Bits>, lists: Map<string, PackedRows>): Words {
  const vocab = [...new Set([...held.keys(), ...lists.keys()])].sort();
  const t = new StringTable();
  const listAt = new Uint32Array(vocab.length + 1);
  let bytes = 0;
  vocab.forEach((l, i) => {
    t.push(l);
    bytes += lists.get(l)?.length ?? 0;
    listAt[i + 1] = bytes;
  });
  const packed = new Uint8Array(bytes);
  vocab.forEach((l, i) => {
    const p = lists.get(l);
    if (p) packed.set(p.view(), listAt[i]);
  });
  return { held, vocab: t.done(), lists: packed, listAt };
}

/** The first position in sorted `vocab` whose lexeme is not below `s`. */
function lowerBound(vocab: Strings, s: string): number {
  let lo = 0;
  let hi = vocab.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (vocab.at(mid) < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The vocabulary positions [from, to) of the lexemes a term names: itself, or with a prefix every one that starts so. */
function named(vocab: Strings, lexeme: string, prefix: boolean): [number, number] {
  const from = lowerBound(vocab, lexeme);
  let to = from;
  while (to < vocab.length && (prefix ? vocab.at(to).startsWith(lexeme) : vocab.at(to) === lexeme)) {
    to++;
    if (!prefix) break;
  }
  return [from, to];
}

/** Whether the tree has a phrase, which the words cannot answer (no positions are kept). */
export function hasPhrase(node: TsNode): boolean {
  switch (node.op) {
    case 'lex':
      return false;
    case 'not':
      return hasPhrase(node.arg);
    case 'and':
    case 'or':
      return hasPhrase(node.left) || hasPhrase(node.right);
    case 'phrase':
      return true;
  }
}

/**
 * The rows of `rows` rows matching the tree, as a bitmap (one of the held ones themselves for a lone
 * lexeme: never write to it); undefined for a phrase. A NOT sets the rows past the last one too: they are
 * never read.
 */
function matchWords(node: TsNode, words: Words, rows: number): Bits | undefined {
  switch (node.op) {
    case 'lex': {
      const [from, to] = named(words.vocab, node.lexeme, node.prefix);
      const lone = to - from === 1 ? words.held.get(words.vocab.at(from)) : undefined;
      if (lone) return lone;
      const out = new Uint32Array(bitWords(rows));
      for (let i = from; i < to; i++) {
        const b = words.listAt[i] === words.listAt[i + 1] ? words.held.get(words.vocab.at(i)) : undefined;
        if (b) for (let w = 0; w < out.length; w++) out[w] |= b[w];
        else
          eachPacked(words.lists, words.listAt[i], words.listAt[i + 1], (r) => {
            out[r >>> 5] |= 1 << (r & 31);
          });
      }
      return out;
    }
    case 'not': {
      const a = matchWords(node.arg, words, rows);
      if (!a) return undefined;
      const out = new Uint32Array(a.length);
      for (let w = 0; w < out.length; w++) out[w] = ~a[w];
      return out;
    }
    case 'and':
    case 'or': {
      const a = matchWords(node.left, words, rows);
      const b = a && matchWords(node.right, words, rows);
      if (!a || !b) return undefined;
      const out = new Uint32Array(a.length);
      if (node.op === 'and') for (let w = 0; w < out.length; w++) out[w] = a[w] & b[w];
      else for (let w = 0; w < out.length; w++) out[w] = a[w] | b[w];
      return out;
    }
    case 'phrase':
      return undefined;
  }
}

/**
 * The bitmap of the rows matching every tree (bits past the last row may be set: never read them);
 * undefined unless matchWords answers each. A lone lexeme's is the held bitmap itself: never write to it.
 */
export function wordBits(nodes: TsNode[], words: Words, rows: number): Bits | undefined {
  let acc: Bits | undefined;
  for (const node of nodes) {
    const m = matchWords(node, words, rows);
    if (!m) return undefined;
    if (!acc) acc = m;
    else {
      const out = new Uint32Array(acc.length);
      for (let w = 0; w < out.length; w++) out[w] = acc[w] & m[w];
      acc = out;
    }
  }
  return acc;
}

/**
 * Of the rows set in `bits` and not in `dead` (both of `rows` rows), how many there are and the `limit`
 * from the `offset`-th one at or after row `from`, without listing them all.
 */
export function countAndPage(
  bits: Bits,
  dead: Bits,
  rows: number,
  from: number,
  offset: number,
  limit: number,
): { total: number; page: RowSet } {
  const words = bitWords(rows);
  const tail = rows % 32 === 0 ? 0xffffffff : (1 << (rows % 32)) - 1;
  let total = 0;
  for (let w = 0; w < words; w++) {
    let x = bits[w] & ~dead[w];
    if (w === words - 1) x &= tail;
    total += popcount(x);
  }
  const page: number[] = [];
  let skip = offset;
  for (let w = from >>> 5; w < words && page.length < limit; w++) {
    let x = bits[w] & ~dead[w];
    if (w === words - 1) x &= tail;
    if (w === from >>> 5) x &= ~((1 << (from & 31)) - 1);
    while (x !== 0 && page.length < limit) {
      const low = x & -x;
      x ^= low;
      if (skip > 0) skip--;
      else page.push(w * 32 + 31 - Math.clz32(low));
    }
  }
  return { total, page: Uint32Array.from(page) };
}
