// The match index's job ids: each row's source part as a code, the rest as bytes; read back as given,
// and merged (a carry) with the source parts of both tables, new ones of the added rows included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeIds } from '../../src/search/match-merge.ts';
import { IdTable, type Ids } from '../../src/search/match-sets.ts';

const table = (ids: string[]): Ids => {
  const t = new IdTable();
  for (const id of ids) t.push(id);
  return t.done();
};
const read = (ids: Ids) => Array.from({ length: ids.length }, (_, i) => ids.at(i));

const id = fc.oneof(
  fc
    .tuple(fc.constantFrom('greenhouse', 'lever', 'workday', 'böard', ''), fc.string())
    .map(([s, n]) => `${s}:${n}`),
  fc.string(),
);

describe('IdTable', () => {
  it('reads every id back as pushed: no source part, an empty one, several colons, any text', () => {
    fc.assert(
      fc.property(fc.array(id, { maxLength: 60 }), (ids) => {
        expect(read(table(ids))).toEqual(ids);
      }),
    );
    const t = table(['greenhouse:1', 'plain', ':x', 'lever:a:b', 'greenhouse:2', 'ünï:çödé']);
    expect(read(t)).toEqual(['greenhouse:1', 'plain', ':x', 'lever:a:b', 'greenhouse:2', 'ünï:çödé']);
    // Each source part once, a byte a row for its code.
    expect(t.prefixes).toEqual(['greenhouse:', '', ':', 'lever:', 'ünï:']);
    expect(t.codes).toBeInstanceOf(Uint8Array);
  });

  it('holds over 255 source parts in wider codes', () => {
    const ids = Array.from({ length: 300 }, (_, i) => `s${i}:${i}`);
    const t = table(ids);
    expect(t.codes).toBeInstanceOf(Uint16Array);
    expect(read(t)).toEqual(ids);
  });
});

describe('mergeIds', () => {
  it("takes each row from either table, the added rows' new source parts coded after the old ones", () => {
    fc.assert(
      fc.property(
        fc.array(id, { maxLength: 30 }),
        fc.array(id, { maxLength: 30 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 60 }),
        (a, b, picks) => {
          const from = picks.flatMap(([old, k]) =>
            old ? (a.length ? [k % a.length] : []) : b.length ? [-1 - (k % b.length)] : [],
          );
          const merged = mergeIds(table(a), table(b), Int32Array.from(from));
          expect(read(merged)).toEqual(from.map((f) => (f >= 0 ? a[f] : b[-1 - f])));
          expect(merged.prefixes.slice(0, table(a).prefixes.length)).toEqual(table(a).prefixes);
          expect(new Set(merged.prefixes).size).toBe(merged.prefixes.length);
        },
      ),
    );
  });
});
