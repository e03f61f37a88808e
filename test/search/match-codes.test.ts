import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodeValues, FactColumn } from '../../src/search/match-codes.ts';

describe('the values of a code column', () => {
  it('give each value its code and each code its value, and no code to any other string', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: 'grapheme', maxLength: 12 }), { maxLength: 60 }),
        fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 10 }),
        (values, others) => {
          const v = CodeValues.of(values);
          expect(v.size).toBe(values.length);
          expect(v.length).toBe(values.length + 1);
          expect(v.at(0)).toBe('');
          expect(v.list()).toEqual(values);
          expect([...v.entries()]).toEqual(values.map((x, i) => [x, i + 1]));
          values.forEach((x, i) => {
            expect(v.at(i + 1)).toBe(x);
            expect(v.get(x)).toBe(i + 1);
          });
          for (const o of others)
            expect(v.get(o)).toBe(values.includes(o) ? values.indexOf(o) + 1 : undefined);
        },
      ),
    );
  });

  it('keep names with any characters, prefixes of one another among them', () => {
    const names = ['acme', 'acme corp', 'ac', 'straße', '株式会社', 'a\u0000b', '😀 emoji', 'Acme'];
    const v = CodeValues.of(names);
    for (const [i, n] of names.entries()) expect(v.get(n)).toBe(i + 1);
    expect(v.get('acm')).toBeUndefined();
    expect(v.get('')).toBeUndefined();
  });
});

describe('the facts of a code column', () => {
  it('read back as given, numbers as numbers and text as text, null where unknown', () => {
    const numbers = fc.array(fc.option(fc.double({ noNaN: true }), { nil: null }), { maxLength: 40 });
    const texts = fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 10 }), { nil: null }), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(fc.oneof(numbers, texts), (facts) => {
        const f = FactColumn.of(facts);
        expect(f.length).toBe(facts.length);
        expect(f.list()).toEqual(facts);
        for (const [c, x] of facts.entries()) expect(f.at(c)).toBe(x);
        expect(f.at(facts.length)).toBeNull();
      }),
    );
  });

  it('reads a code no fact was given for as null', () => {
    const facts: (string | null)[] = [null];
    facts[2] = 'DE';
    const f = FactColumn.of(facts);
    expect(f.list()).toEqual([null, null, 'DE']);
  });

  it('keeps a figure past 2^53 as its text, exactly', () => {
    const f = FactColumn.of([null, '9007199254740993', '1000000']);
    expect(f.at(1)).toBe('9007199254740993');
    expect(f.at(2)).toBe('1000000');
  });
});
