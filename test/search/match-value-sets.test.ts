// A dimension's rows per value: the common values' kept as they are, the others packed, every value's
// rows read back as given, in order, whole or one at a time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAIN_SHARE, ValueSets } from '../../src/search/match-value-sets.ts';

const sets = (rows: number) =>
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 8 })
    .chain((values) =>
      fc.tuple(
        ...values.map((v) =>
          fc
            .uniqueArray(fc.nat(rows - 1), { minLength: 1, maxLength: rows })
            .map((r) => [v, Uint32Array.from(r.sort((a, b) => a - b))] as [string, Uint32Array]),
        ),
      ),
    );

describe('ValueSets', () => {
  it('reads back each value’s rows, whether kept as they are or packed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }).chain(sets), (entries) => {
        const rowCount = Math.max(1, ...entries.flatMap(([, r]) => [...r].map((x) => x + 1)));
        const v = ValueSets.of(entries, rowCount);
        expect(v.values).toEqual(entries.map(([k]) => k));
        for (const [i, [k, rows]] of entries.entries()) {
          expect([...v.get(k)!]).toEqual([...rows]);
          expect(v.lengths[i]).toBe(rows.length);
          const seen: number[] = [];
          v.eachRow(i, (r) => seen.push(r));
          expect(seen).toEqual([...rows]);
          // Packed exactly when rarer than the share kept as is.
          expect(v.rowsAt[i + 1] > v.rowsAt[i]).toBe(rows.length >= rowCount * PLAIN_SHARE);
        }
        expect([...v.entries()].map(([k, r]) => [k, [...r]])).toEqual(entries.map(([k, r]) => [k, [...r]]));
        expect(v.get('\u0000none')).toBeUndefined();
      }),
    );
  });

  it('packs a rare value in about a byte a row', () => {
    const rare = Uint32Array.from({ length: 1000 }, (_, i) => i * 50);
    const v = ValueSets.of([['rare', rare]], 50_000);
    expect(v.rows.length).toBe(0);
    expect(v.packed.length).toBe(1000);
  });
});
