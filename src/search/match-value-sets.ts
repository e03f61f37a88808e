// A dimension's rows per value, as the match index holds them (match-index.ts): a common value's (in at
// least an eighth of the rows) as its sorted rows, used by the set operations as they are; every other
// value's packed as gaps (PackedRows, match-words.ts), about a byte a row instead of four, unpacked when a
// request asks for it (at most an eighth of the rows; most values hold a few hundred).
import type { RowSet } from './match-sets.ts';
import { eachPacked, PackedRows, unpackRows } from './match-words.ts';

/** The share of the rows from which a value's rows are kept as they are rather than packed. */
export const PLAIN_SHARE = 1 / 8;

export class ValueSets {
  private readonly at: Map<string, number>;

  constructor(
    /** Each value (in the order they were first seen). */
    readonly values: readonly string[],
    /** How many rows each value has. */
    readonly lengths: Uint32Array,
    /** The common values' rows one after the other: value i's are rows[rowsAt[i]..rowsAt[i + 1]). */
    readonly rows: Uint32Array,
    readonly rowsAt: Uint32Array,
    /** Every other value's rows packed: value i's in packed[packedAt[i]..packedAt[i + 1]). */
    readonly packed: Uint8Array,
    readonly packedAt: Uint32Array,
  ) {
    this.at = new Map(values.map((v, i) => [v, i]));
  }

  /**
   * The sets of `entries` (each value's ascending rows, none empty) of an index of `rowCount` rows; a rare
   * value's rows are packed as they come, so a merge never holds all of them unpacked.
   */
  static of(entries: Iterable<[string, RowSet]>, rowCount: number): ValueSets {
    const values: string[] = [];
    const lengths: number[] = [];
    const plain: RowSet[] = [];
    const plainAt: number[] = [];
    const packed = new PackedRows();
    const packedAt = [0];
    for (const [value, set] of entries) {
      values.push(value);
      lengths.push(set.length);
      if (set.length >= rowCount * PLAIN_SHARE) {
        plain.push(set);
        plainAt.push(values.length - 1);
      } else {
        packed.restart();
        for (const r of set) packed.push(r);
      }
      packedAt.push(packed.length);
    }
    const rowsAt = new Uint32Array(values.length + 1);
    plain.forEach((set, k) => {
      rowsAt[plainAt[k] + 1] = set.length;
    });
    for (let i = 0; i < values.length; i++) rowsAt[i + 1] += rowsAt[i];
    const rows = new Uint32Array(rowsAt[values.length]);
    plain.forEach((set, k) => {
      rows.set(set, rowsAt[plainAt[k]]);
    });
    return new ValueSets(
      values,
      Uint32Array.from(lengths),
      rows,
      rowsAt,
      packed.view().slice(),
      Uint32Array.from(packedAt),
    );
  }

  get size(): number {
    return this.values.length;
  }

  /** Value i's rows, ascending (a view of a common value's, a new array of another's). */
  rowsOf(i: number): RowSet {
    const from = this.rowsAt[i];
    const to = this.rowsAt[i + 1];
    if (to > from) return this.rows.subarray(from, to);
    return unpackRows(this.packed, this.packedAt[i], this.packedAt[i + 1], this.lengths[i]);
  }

  /** The position of `value` in `values`; undefined for a value no row has. */
  indexOf(value: string): number | undefined {
    return this.at.get(value);
  }

  has(value: string): boolean {
    return this.at.has(value);
  }

  /** The rows of `value`; undefined for a value no row has. */
  get(value: string): RowSet | undefined {
    const i = this.at.get(value);
    return i === undefined ? undefined : this.rowsOf(i);
  }

  /** Calls `each` with every row of value i, ascending, without making an array of them. */
  eachRow(i: number, each: (row: number) => void): void {
    const from = this.rowsAt[i];
    const to = this.rowsAt[i + 1];
    if (to > from) for (let k = from; k < to; k++) each(this.rows[k]);
    else eachPacked(this.packed, this.packedAt[i], this.packedAt[i + 1], each);
  }

  /** Each value with its rows. */
  *entries(): IterableIterator<[string, RowSet]> {
    for (let i = 0; i < this.values.length; i++) yield [this.values[i], this.rowsOf(i)];
  }
}
