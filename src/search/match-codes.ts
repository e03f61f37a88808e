// The values of the match index's code columns and the facts of what each code names, kept as one string
// and where each value ends instead of a Map of strings: at a million jobs 75,000 employer names and
// 67,000 company slugs, with four facts of each company, are ~22 MB of JavaScript values as Maps and
// arrays, ~6 MB kept this way. A value is read as a slice of the one string (no copy).
import type { Fact } from './dimensions.ts';

/** Strings joined into one, and where each ends (in UTF-16 units). */
class Joined {
  constructor(
    private readonly text: string,
    private readonly ends: Uint32Array,
  ) {}

  static join(values: readonly string[]): { text: string; ends: Uint32Array } {
    const ends = new Uint32Array(values.length);
    let at = 0;
    for (let i = 0; i < values.length; i++) ends[i] = at += values[i].length;
    return { text: values.join(''), ends };
  }

  get count(): number {
    return this.ends.length;
  }

  /** The i-th string (from 0). */
  item(i: number): string {
    return this.text.slice(i === 0 ? 0 : this.ends[i - 1], this.ends[i]);
  }
}

/**
 * The values of a code column: code c's is at(c), from 1 (0 is no value: ''). Looked up by value through
 * the codes in the order of their values.
 */
export class CodeValues extends Joined {
  private readonly order: Uint32Array;

  private constructor(values: readonly string[]) {
    const { text, ends } = Joined.join(values);
    super(text, ends);
    const codes = Uint32Array.from(values, (_, i) => i + 1);
    // Sorted on the values themselves (one pass of comparisons of whole strings), not on slices.
    this.order = codes.sort((a, b) =>
      values[a - 1] < values[b - 1] ? -1 : values[a - 1] > values[b - 1] ? 1 : 0,
    );
  }

  /** The values of codes 1, 2, … in that order. */
  static of(values: Iterable<string>): CodeValues {
    return new CodeValues([...values]);
  }

  /** How many values (the highest code). */
  get size(): number {
    return this.count;
  }

  /** Codes and one: a table by code (0 included) has this many entries. */
  get length(): number {
    return this.count + 1;
  }

  /** Code c's value ('' for 0). */
  at(c: number): string {
    return c === 0 ? '' : this.item(c - 1);
  }

  /** The code of a value, or undefined when no row has it. */
  get(value: string): number | undefined {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.at(this.order[mid]);
      if (v === value) return this.order[mid];
      if (v < value) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  /** Each value with its code, in code order. */
  *entries(): IterableIterator<[string, number]> {
    for (let c = 1; c <= this.count; c++) yield [this.at(c), c];
  }

  /** The values in code order (from code 1). */
  list(): string[] {
    return Array.from({ length: this.count }, (_, i) => this.item(i));
  }
}

/**
 * A fact of each code (a company's employee count, HQ country …), by code, null where unknown: numbers
 * kept as doubles (NaN for null) when every known one is a number, else as joined strings.
 */
export class FactColumn {
  private constructor(
    private readonly numbers: Float64Array | undefined,
    private readonly texts: Joined | undefined,
    /** 1 where the fact is null (for texts). */
    private readonly missing: Uint8Array | undefined,
    readonly length: number,
  ) {}

  /** The facts of codes 0, 1, 2, … (an absent one is null). */
  static of(facts: readonly (Fact | undefined)[]): FactColumn {
    const n = facts.length;
    if (facts.every((x) => x === null || x === undefined || typeof x === 'number'))
      return new FactColumn(
        Float64Array.from(facts, (x) => (x ?? Number.NaN) as number),
        undefined,
        undefined,
        n,
      );
    const missing = Uint8Array.from(facts, (x) => (x === null || x === undefined ? 1 : 0));
    const { text, ends } = Joined.join(
      Array.from(facts, (x) => (x === null || x === undefined ? '' : String(x))),
    );
    return new FactColumn(undefined, new Joined(text, ends), missing, n);
  }

  /** Code c's fact. */
  at(c: number): Fact {
    if (c >= this.length) return null;
    if (this.numbers) {
      const x = this.numbers[c];
      return Number.isNaN(x) ? null : x;
    }
    return this.missing![c] ? null : this.texts!.item(c);
  }

  /** The facts by code, from 0. */
  list(): Fact[] {
    return Array.from({ length: this.length }, (_, c) => this.at(c));
  }
}
