// The description signature (desc_sig) is stored with every job and compared with those of later loads, so
// its value for a text may never change: the fast implementation must give what the definition gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simhash } from '../../src/ingest/stages/row.ts';

/** The definition, written plainly: FNV-1a of each word 3-shingle under two seeds, a vote per bit. */
function definition(text: string): string {
  const fnv = (s: string, seed: number) => {
    let h = seed;
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  };
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const votes = new Array<number>(64).fill(0);
  const n = Math.max(1, words.length - 2);
  for (let i = 0; i < n; i++) {
    const shingle = `${words[i] ?? ''} ${words[i + 1] ?? ''} ${words[i + 2] ?? ''}`;
    const lo = fnv(shingle, 0x811c9dc5);
    const hi = fnv(shingle, 0x050c5d1f);
    for (let b = 0; b < 32; b++) {
      votes[b] += (lo >>> b) & 1 ? 1 : -1;
      votes[b + 32] += (hi >>> b) & 1 ? 1 : -1;
    }
  }
  let hex = '';
  for (let nib = 0; nib < 16; nib++) {
    let v = 0;
    for (let k = 0; k < 4; k++) if (votes[nib * 4 + k] > 0) v |= 1 << k;
    hex += v.toString(16);
  }
  return hex;
}

const WORDS = ['engineer', 'Straße', 'ÉCOLE', 'data', 'a', '𝔘nicode', 'İstanbul', '42', 'x'];

describe('simhash', () => {
  it('gives the values stored by earlier loads', () => {
    expect(simhash('')).toBe('d82b5c1b772100be');
    expect(simhash('a')).toBe('c8b54ae4a6df1838');
    expect(simhash('a b c')).toBe('fa024f67dd46819b');
    expect(simhash('Ünïcode  straße 𝔘 x')).toBe('ca8061a800180106');
  });

  it('is the definition for any text, short or long (past the counters packed 255 shingles at a time)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          fc
            .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(' ', ', ', '\n', '–', '\ud800')), {
              maxLength: 1200,
            })
            .map((parts) => parts.map(([w, sep]) => w + sep).join('')),
        ),
        (text) => {
          expect(simhash(text)).toBe(definition(text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is the definition for a text of one word repeated, every shingle the same', () => {
    for (const n of [254, 255, 256, 257, 511, 512, 1000]) {
      const text = Array.from({ length: n }, () => 'same').join(' ');
      expect(simhash(text), String(n)).toBe(definition(text));
    }
  });
});
