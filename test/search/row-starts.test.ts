// The facets' per-row values: each row's start kept as a block start and a narrow offset reads back as
// written, whatever the number of values a row holds (offsets of one, two or four bytes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rowStarts } from '../../src/search/match-index.ts';

const startsOf = (counts: number[]): Uint32Array => {
  const starts = new Uint32Array(counts.length + 1);
  counts.forEach((c, r) => {
    starts[r + 1] = starts[r] + c;
  });
  return starts;
};

describe('rowStarts', () => {
  it('gives back every start, the end included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat(3), fc.nat(40), fc.constant(70_000)), { maxLength: 200 }),
        (counts) => {
          const starts = startsOf(counts);
          const { base, off } = rowStarts(starts);
          const read = Array.from(starts, (_, r) => base[r >> 4] + off[r]);
          expect(read).toEqual([...starts]);
        },
      ),
    );
  });

  it('keeps an offset in a byte while every block of 16 rows holds fewer than 256 values', () => {
    expect(rowStarts(startsOf(Array(100).fill(15))).off).toBeInstanceOf(Uint8Array);
    expect(rowStarts(startsOf(Array(100).fill(20))).off).toBeInstanceOf(Uint16Array);
    expect(rowStarts(startsOf([70_000, 1, 1])).off).toBeInstanceOf(Uint32Array);
  });
});
