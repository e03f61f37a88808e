// The description words of the match index: rows packed as gaps read back as written, and two indexes'
// words merged (a carry) as if built from the merged rows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BitsBuilder,
  doneWords,
  eachPacked,
  PackedRows,
  type Words,
  wordBits,
} from '../../src/search/match-words.ts';
import { mergeWords } from '../../src/search/match-merge.ts';

const rowsOf = (w: Words, lexeme: string): number[] => {
  const out: number[] = [];
  for (let i = 0; i < w.vocab.length; i++)
    if (w.vocab.at(i) === lexeme) eachPacked(w.lists, w.listAt[i], w.listAt[i + 1], (r) => out.push(r));
  return out;
};

/** Words of `n` rows built from each lexeme's rows, those in `bitmaps` as bitmaps. */
function build(n: number, rows: Record<string, number[]>, bitmaps: string[]): Words {
  const held = new Map<string, Uint32Array>();
  const lists = new Map<string, PackedRows>();
  for (const [l, rs] of Object.entries(rows)) {
    if (bitmaps.includes(l)) {
      const b = new BitsBuilder();
      for (const r of rs) b.set(r);
      held.set(l, b.done(n));
    } else {
      const p = new PackedRows();
      for (const r of rs) p.push(r);
      lists.set(l, p);
    }
  }
  for (const l of bitmaps) if (!held.has(l)) held.set(l, new BitsBuilder().done(n));
  return doneWords(held, lists);
}

const sortedRows = (max: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: max - 1 }), { maxLength: 40 }).map((a) => a.sort((x, y) => x - y));
const LEXEMES = ['data', 'dat', 'team', 'teamwork', 'teammat', 'zeta', 'été'];

describe('description words as packed rows', () => {
  it('read back every row as pushed, whatever the gaps', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 28 - 1 }), { maxLength: 200 }), (rows) => {
        rows.sort((a, b) => a - b);
        const p = new PackedRows();
        for (const r of rows) p.push(r);
        const out: number[] = [];
        eachPacked(p.view(), 0, p.length, (r) => out.push(r));
        expect(out).toEqual(rows);
      }),
    );
    // One byte a row while the gaps stay under 128.
    const p = new PackedRows();
    for (let r = 0; r < 1000; r += 100) p.push(r);
    expect(p.length).toBe(10);
  });

  it('match a word, a prefix and NOT as the rows say, bitmaps and lists alike', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 300 })
          .chain((n) =>
            fc.tuple(
              fc.constant(n),
              fc.record(Object.fromEntries(LEXEMES.map((l) => [l, sortedRows(n)]))),
              fc.subarray(LEXEMES),
            ),
          ),
        ([n, rows, bitmaps]) => {
          const w = build(n, rows as Record<string, number[]>, bitmaps);
          const set = (bits: Uint32Array) =>
            [...Array(n).keys()].filter((r) => bits[r >>> 5] & (1 << (r & 31)));
          for (const l of LEXEMES) {
            const bits = wordBits([{ op: 'lex', lexeme: l, prefix: false }], w, n)!;
            expect(set(bits), l).toEqual(rows[l as keyof typeof rows]);
          }
          const team = wordBits([{ op: 'lex', lexeme: 'team', prefix: true }], w, n)!;
          const want = new Set(['team', 'teamwork', 'teammat'].flatMap((l) => rows[l as keyof typeof rows]));
          expect(set(team)).toEqual([...want].sort((a, b) => a - b));
          const not = wordBits([{ op: 'not', arg: { op: 'lex', lexeme: 'zeta', prefix: false } }], w, n)!;
          expect(set(not)).toEqual([...Array(n).keys()].filter((r) => !rows.zeta.includes(r)));
          expect(wordBits([{ op: 'lex', lexeme: 'absent', prefix: false }], w, n)).toBeDefined();
          expect(
            wordBits(
              [
                {
                  op: 'phrase',
                  left: { op: 'lex', lexeme: 'data', prefix: false },
                  right: { op: 'lex', lexeme: 'team', prefix: false },
                  distance: 1,
                },
              ],
              w,
              n,
            ),
          ).toBeUndefined();
        },
      ),
    );
  });

  it('merged (a carry: rows taken out, rows added between), equal words built from the merged rows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }).chain((nA) =>
          fc.tuple(
            fc.constant(nA),
            fc.array(fc.boolean(), { minLength: nA, maxLength: nA }),
            fc
              .integer({ min: 0, max: 60 })
              .chain((nB) =>
                fc.tuple(
                  fc.constant(nB),
                  fc.array(fc.integer({ min: 0, max: nA }), { minLength: nB, maxLength: nB }),
                ),
              ),
          ),
        ),
        fc.subarray(LEXEMES),
        fc.infiniteStream(fc.double({ min: 0, max: 1, noNaN: true })),
        ([nA, removed, [nB, before]], bitmaps, coin) => {
          before.sort((x, y) => x - y);
          // Row numbers after the merge: b's rows go before a's row `before[j]` (or at the end).
          const mapA = new Int32Array(nA);
          const mapB = new Uint32Array(nB);
          let n = 0;
          let j = 0;
          for (let r = 0; r < nA; r++) {
            while (j < nB && before[j] <= r) mapB[j++] = n++;
            mapA[r] = removed[r] ? -1 : n++;
          }
          while (j < nB) mapB[j++] = n++;
          const pick = (count: number) => {
            const out: Record<string, number[]> = {};
            for (const l of LEXEMES) out[l] = [...Array(count).keys()].filter(() => coin.next().value < 0.3);
            // A lexeme of one side only.
            delete out[LEXEMES[Math.floor(coin.next().value * LEXEMES.length) % LEXEMES.length]];
            return out;
          };
          const rowsA = pick(nA);
          const rowsB = pick(nB);
          const merged = mergeWords(build(nA, rowsA, bitmaps), build(nB, rowsB, bitmaps), mapA, mapB, n)!;
          for (const l of LEXEMES) {
            const want = [
              ...(rowsA[l] ?? []).filter((r) => mapA[r] >= 0).map((r) => mapA[r]),
              ...(rowsB[l] ?? []).map((r) => mapB[r]),
            ].sort((x, y) => x - y);
            const bits = wordBits([{ op: 'lex', lexeme: l, prefix: false }], merged, n)!;
            expect(
              [...Array(n).keys()].filter((r) => bits[r >>> 5] & (1 << (r & 31))),
              l,
            ).toEqual(want);
            if (!bitmaps.includes(l) && (rowsA[l] || rowsB[l])) expect(rowsOf(merged, l)).toEqual(want);
          }
          // The vocabulary: every lexeme of either side, sorted.
          const vocab = [...Array(merged.vocab.length).keys()].map((i) => merged.vocab.at(i));
          expect(vocab).toEqual([...vocab].sort());
          expect(new Set(vocab)).toEqual(new Set([...Object.keys(rowsA), ...Object.keys(rowsB), ...bitmaps]));
        },
      ),
    );
  });
});
