// The description lexemes the match index holds (of title plus description, the vector jobs.text_tsv
// holds): the most common ones as a bitmap of rows each, and every lexeme of any row in a sorted
// vocabulary. A description search whose every lexeme is held, or in no row at all, is answered from the
// bitmaps: a word most descriptions hold is counted by a few word-wise operations instead of a visit to
// each of its matches in PostgreSQL. The rows of a rarer lexeme are read from PostgreSQL's index, where
// its few matches are found quickly, and kept with the index (match.ts); a phrase is PostgreSQL's (no
// positions are kept). Bit r of a bitmap is row r.
import { type RowSet, type Strings, StringTable } from './match-sets.ts';
import { readQuoted, type TsNode } from './match-tsquery.ts';

/** One bit per row: row r is bit (r & 31) of word r >>> 5. */
export type Bits = Uint32Array;

export interface Words {
  /** The bitmap of each held lexeme (as many words as the index has rows, over 32). */
  held: Map<string, Bits>;
  /** Every lexeme of any row the index holds or held, sorted (UTF-16 order), for prefix terms. */
  vocab: Strings;
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

/** Strings sorted in UTF-16 order (as `<` compares), each once. */
export function sortedStrings(strings: Iterable<string>): Strings {
  const t = new StringTable();
  for (const s of [...new Set(strings)].sort()) t.push(s);
  return t.done();
}

/** The two sorted vocabularies as one. */
export function mergeVocab(a: Strings, b: Strings): Strings {
  const t = new StringTable();
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = i < a.length ? a.at(i) : undefined;
    const y = j < b.length ? b.at(j) : undefined;
    if (y === undefined || (x !== undefined && x < y)) {
      t.push(x!);
      i++;
    } else if (x === undefined || y < x) {
      t.push(y);
      j++;
    } else {
      t.push(x);
      i++;
      j++;
    }
  }
  return t.done();
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

/** The lexemes of the vocabulary a term names: itself, or with a prefix every one that starts so. */
function named(vocab: Strings, lexeme: string, prefix: boolean): string[] {
  const out: string[] = [];
  for (let i = lowerBound(vocab, lexeme); i < vocab.length; i++) {
    const v = vocab.at(i);
    if (prefix ? !v.startsWith(lexeme) : v !== lexeme) break;
    out.push(v);
  }
  return out;
}

/**
 * The lexemes of the tree that are in some row but not held (a prefix term's expansions among them),
 * added to `out`; false when the tree has a phrase (no positions are kept).
 */
export function wordsNeeded(node: TsNode, words: Words, out: Set<string>): boolean {
  switch (node.op) {
    case 'lex':
      for (const l of named(words.vocab, node.lexeme, node.prefix)) if (!words.held.has(l)) out.add(l);
      return true;
    case 'not':
      return wordsNeeded(node.arg, words, out);
    case 'and':
    case 'or':
      return wordsNeeded(node.left, words, out) && wordsNeeded(node.right, words, out);
    case 'phrase':
      return false;
  }
}

/** Lexemes not held, by lexeme: their rows (read from PostgreSQL, match.ts), or null when too many. */
type Rare = ReadonlyMap<string, RowSet | null>;

/**
 * The rows of `rows` rows matching the tree, as a bitmap (one of the held ones themselves for a lone
 * lexeme: never write to it); undefined when a lexeme is neither held nor in `rare`, or for a phrase. A
 * NOT sets the rows past the last one too: they are never read.
 */
function matchWords(node: TsNode, words: Words, rows: number, rare: Rare): Bits | undefined {
  switch (node.op) {
    case 'lex': {
      const names = named(words.vocab, node.lexeme, node.prefix);
      if (names.length === 1 && words.held.has(names[0])) return words.held.get(names[0]);
      const out = new Uint32Array(bitWords(rows));
      for (const l of names) {
        const b = words.held.get(l);
        if (b) for (let w = 0; w < out.length; w++) out[w] |= b[w];
        else {
          const found = rare.get(l);
          if (!found) return undefined;
          for (const r of found) out[r >>> 5] |= 1 << (r & 31);
        }
      }
      return out;
    }
    case 'not': {
      const a = matchWords(node.arg, words, rows, rare);
      if (!a) return undefined;
      const out = new Uint32Array(a.length);
      for (let w = 0; w < out.length; w++) out[w] = ~a[w];
      return out;
    }
    case 'and':
    case 'or': {
      const a = matchWords(node.left, words, rows, rare);
      const b = a && matchWords(node.right, words, rows, rare);
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
export function wordBits(nodes: TsNode[], words: Words, rows: number, rare: Rare): Bits | undefined {
  let acc: Bits | undefined;
  for (const node of nodes) {
    const m = matchWords(node, words, rows, rare);
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
