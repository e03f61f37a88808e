// Sorted sets of row numbers (ascending Uint32Array, no repeats) and the operations a search needs on
// them. Row numbers follow the search order (newest first), so a set read in order is a sorted page.

export type RowSet = Uint32Array;

export const EMPTY: RowSet = new Uint32Array(0);

/** Rows in both; a much smaller side is looked up in the larger by binary search. */
export function intersect(a: RowSet, b: RowSet): RowSet {
  if (a.length > b.length) [a, b] = [b, a];
  const out = new Uint32Array(a.length);
  let n = 0;
  if (a.length * 16 < b.length) {
    let lo = 0;
    for (const x of a) {
      let hi = b.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (b[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      if (lo === b.length) break;
      if (b[lo] === x) out[n++] = x;
    }
  } else {
    // Without branches on the comparisons: sets of like sizes interleave unpredictably, and a mispredicted
    // branch a row made this merge up to twice as slow (bench/README.md, "A slower machine: where the
    // varied mix's time goes").
    const na = a.length;
    const nb = b.length;
    let i = 0;
    let j = 0;
    while (i < na && j < nb) {
      const x = a[i];
      const y = b[j];
      // n <= i < na: the slot is in range, and kept only when x is in both.
      out[n] = x;
      n += +(x === y);
      i += +(x <= y);
      j += +(x >= y);
    }
  }
  return out.subarray(0, n);
}

/** Rows in either. */
export function union(a: RowSet, b: RowSet): RowSet {
  if (!a.length) return b;
  if (!b.length) return a;
  const out = new Uint32Array(a.length + b.length);
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      out[n++] = x;
      i++;
      j++;
    } else if (x < y) {
      out[n++] = x;
      i++;
    } else {
      out[n++] = y;
      j++;
    }
  }
  while (i < a.length) out[n++] = a[i++];
  while (j < b.length) out[n++] = b[j++];
  return out.subarray(0, n);
}

/** Rows of `a` not in `b`. */
export function difference(a: RowSet, b: RowSet): RowSet {
  if (!a.length || !b.length) return a;
  const out = new Uint32Array(a.length);
  let n = 0;
  let j = 0;
  for (const x of a) {
    while (j < b.length && b[j] < x) j++;
    if (j < b.length && b[j] === x) continue;
    out[n++] = x;
  }
  return out.subarray(0, n);
}

/** The rows below `n` not in `rows` (ascending). */
export function complement(rows: RowSet, n: number): RowSet {
  const out = new Uint32Array(n - rows.length);
  let k = 0;
  let next = 0;
  for (const r of rows) {
    while (next < r) out[k++] = next++;
    next = r + 1;
  }
  while (next < n) out[k++] = next++;
  return out.subarray(0, k);
}

/** Every row below `n`. */
export function all(n: number): RowSet {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** The union of many sets, merged pairwise (smallest first keeps the merges short). */
export function unionAll(sets: RowSet[]): RowSet {
  const rest = [...sets].sort((x, y) => x.length - y.length);
  while (rest.length > 1) {
    const merged = union(rest.shift()!, rest.shift()!);
    let at = rest.findIndex((s) => s.length >= merged.length);
    if (at < 0) at = rest.length;
    rest.splice(at, 0, merged);
  }
  return rest[0] ?? EMPTY;
}

/** The intersection of many sets, smallest first. */
export function intersectAll(sets: RowSet[]): RowSet {
  const sorted = [...sets].sort((x, y) => x.length - y.length);
  let acc = sorted[0];
  for (let i = 1; i < sorted.length && acc.length; i++) acc = intersect(acc, sorted[i]);
  return acc;
}

/** A typed array that grows as numbers are appended (a column or a set of an index being built). */
class Growing<T extends Uint32Array | Float64Array> {
  private a: T;
  length = 0;

  constructor(private readonly make: (n: number) => T) {
    this.a = make(4);
  }

  push(x: number): void {
    if (this.length === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.length++] = x;
  }

  last(): number {
    return this.length ? this.a[this.length - 1] : -1;
  }

  /** The numbers, in an array of their exact size. */
  done(): T {
    return this.a.slice(0, this.length) as T;
  }
}

/** Row numbers (or any unsigned 32-bit numbers), appended in ascending order for a set. */
export class RowList extends Growing<Uint32Array> {
  constructor() {
    super((n) => new Uint32Array(n));
  }
}

/** Numbers of a column. */
export class NumberList extends Growing<Float64Array> {
  constructor() {
    super((n) => new Float64Array(n));
  }
}

/** Strings kept as one UTF-8 buffer and their offsets: a million job ids in a third of the memory. */
export class StringTable {
  private bytes = Buffer.alloc(1 << 16);
  private used = 0;
  private ends = new RowList();

  push(s: string): void {
    const need = Buffer.byteLength(s);
    if (this.used + need > this.bytes.length) {
      const b = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + need));
      this.bytes.copy(b, 0, 0, this.used);
      this.bytes = b;
    }
    this.used += this.bytes.write(s, this.used);
    this.ends.push(this.used);
  }

  /** The table, in buffers of their exact size. */
  done(): Strings {
    return new Strings(new Uint8Array(this.bytes.subarray(0, this.used)), this.ends.done());
  }
}

export type Codes = Uint8Array | Uint16Array | Uint32Array;

/** Codes from 0 to `max` in the narrowest unsigned type that holds them. */
export function narrowCodes(a: Uint32Array, max: number): Codes {
  return max < 2 ** 8 ? Uint8Array.from(a) : max < 2 ** 16 ? Uint16Array.from(a) : a;
}

/**
 * Job ids (`<source>:<native id>`) as a code per row for the source part and a StringTable of the rest:
 * the source's ten-odd bytes are kept once, not once a row (the saved index 10 MB smaller at a million).
 */
export class IdTable {
  private prefixOf = new Map<string, number>();
  private codes = new RowList();
  private rest = new StringTable();

  push(id: string): void {
    const cut = id.indexOf(':') + 1;
    const prefix = id.slice(0, cut);
    let c = this.prefixOf.get(prefix);
    if (c === undefined) {
      c = this.prefixOf.size;
      this.prefixOf.set(prefix, c);
    }
    this.codes.push(c);
    this.rest.push(id.slice(cut));
  }

  done(): Ids {
    return new Ids(
      [...this.prefixOf.keys()],
      narrowCodes(this.codes.done(), this.prefixOf.size),
      this.rest.done(),
    );
  }
}

/** A finished IdTable: the source parts, each row's code of its own, and the rest of each id. */
export class Ids {
  constructor(
    readonly prefixes: readonly string[],
    readonly codes: Codes,
    readonly rest: Strings,
  ) {}

  get length(): number {
    return this.codes.length;
  }

  at(i: number): string {
    return this.prefixes[this.codes[i]] + this.rest.at(i);
  }
}

/** A finished StringTable: the UTF-8 bytes of every string, and where each ends. */
export class Strings {
  private readonly buf: Buffer;

  constructor(
    readonly bytes: Uint8Array,
    readonly ends: Uint32Array,
  ) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get length(): number {
    return this.ends.length;
  }

  at(i: number): string {
    return this.buf.toString('utf8', i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}
