// The set operations of the match index against the same operations on JS Sets: sets of like sizes (the
// merge without branches) and of very unlike sizes (the smaller looked up in the larger), empty ones,
// equal ones, disjoint ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { difference, intersect, intersectAll, union } from '../../src/search/match-sets.ts';

const set = (max: number, maxLength: number) =>
  fc.uniqueArray(fc.nat(max), { maxLength }).map((r) => Uint32Array.from(r.sort((a, b) => a - b)));

/** Two sets of any sizes in a small range (many common rows), or one tiny and one large. */
const pair = fc.oneof(
  fc.tuple(set(200, 150), set(200, 150)),
  fc.tuple(set(5_000, 8), set(5_000, 3_000)),
  set(300, 200).map((a) => [a, a.slice()] as const),
);

const naive = (a: Uint32Array, b: Uint32Array, keep: (inA: boolean, inB: boolean) => boolean) => {
  const inA = new Set(a);
  const inB = new Set(b);
  return [...new Set([...a, ...b])].filter((x) => keep(inA.has(x), inB.has(x))).sort((x, y) => x - y);
};

describe('set operations', () => {
  it('intersect, union and difference agree with Sets, in ascending order', () => {
    fc.assert(
      fc.property(pair, ([a, b]) => {
        expect([...intersect(a, b)]).toEqual(naive(a, b, (x, y) => x && y));
        expect([...intersect(b, a)]).toEqual(naive(a, b, (x, y) => x && y));
        expect([...union(a, b)]).toEqual(naive(a, b, (x, y) => x || y));
        expect([...difference(a, b)]).toEqual(naive(a, b, (x, y) => x && !y));
      }),
      { numRuns: 500 },
    );
  });

  it('intersects many sets as the intersection of each with the next', () => {
    fc.assert(
      fc.property(fc.array(set(100, 80), { minLength: 1, maxLength: 5 }), (sets) => {
        const want = sets.reduce((acc, s) => naive(Uint32Array.from(acc), s, (x, y) => x && y), [...sets[0]]);
        expect([...intersectAll(sets)]).toEqual(want);
      }),
    );
  });
});
