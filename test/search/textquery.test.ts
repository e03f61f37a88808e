import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseAdvancedQuery,
  parseWebQuery,
  TEXT_QUERY_MAX_LENGTH,
  TEXT_QUERY_MAX_TERMS,
  TextQueryError,
} from '../../src/search/textquery.ts';
import { ENGLISH_STOP_WORDS } from '../../src/search/stopwords.ts';

const NO_TERM =
  'Query has no searchable term: it contains only stop words (like "the", "and", "of") or punctuation.';

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof TextQueryError) return err.message;
    throw err;
  }
  throw new Error('expected a TextQueryError');
}

describe('parseWebQuery', () => {
  const valid: [string, string][] = [
    ['senior engineer', "'senior' & 'engineer'"],
    ['  Senior   ENGINEER  ', "'Senior' & 'ENGINEER'"],
    ['"senior manager"', "'senior manager'"],
    ['"senior manager" -intern', "'senior manager' & !'intern'"],
    ['java OR kotlin', "'java' | 'kotlin'"],
    ['java OR kotlin OR scala', "'java' | 'kotlin' | 'scala'"],
    ['backend java OR kotlin', "'backend' & ('java' | 'kotlin')"],
    ['java OR kotlin developer', "('java' | 'kotlin') & 'developer'"],
    ['java OR kotlin go OR rust', "('java' | 'kotlin') & ('go' | 'rust')"],
    ['java or kotlin', "'java' & 'kotlin'"], // lowercase "or" is a stop word, not the operator
    ['-intern', "!'intern'"],
    ['-intern -"senior manager"', "!'intern' & !'senior manager'"],
    ['-intern OR remote', "!'intern' | 'remote'"],
    ['remote OR -intern', "'remote' | !'intern'"],
    ['--intern', "!'-intern'"],
    ['node.js c++ full-stack', "'node.js' & 'c++' & 'full-stack'"],
    ['c# .net', "'c#' & '.net'"],
    ['the manager', "'manager'"],
    ['of-the', "'of-the'"], // a hyphenated word is indexed whole, and is not a stop word
    ['manager -the', "'manager'"],
    ['the OR manager', "'manager'"],
    ['head "of sales"', "'head' & 'of sales'"],
    ['"head of sales"', "'head of sales'"],
    ['"the a" manager', "'manager'"],
    ["o'reilly", "'o''reilly'"],
    ["it's java", "'it''s' & 'java'"], // 'it''s' has no sure lexeme: sent as typed, PostgreSQL drops it
    ['(java OR kotlin) -"senior manager"', "('(java' | 'kotlin)') & !'senior manager'"],
    ['a&b|c!d', "'a b|c!d'"], // operators are not operators here: one word, to_tsquery makes it a phrase
    ["x'y\\z", "'x''y z'"],
    ['<b>bold</b>', "'b>bold /b>'"], // '<' would start a tag, which PostgreSQL discards whole
    ['http://example.com', "'http //example.com'"],
    ['java + kotlin', "'java' & '+' & 'kotlin'"], // '+' is sent and PostgreSQL drops it
    ['C++ "foo"bar', "'C++' & 'foo' & 'bar'"],
    ['münchen straße', "'münchen' & 'straße'"],
    ['東京 エンジニア', "'東京' & 'エンジニア'"],
    ['OR-mapper', "'OR-mapper'"],
    ['e\u0301cole', "'\u00e9cole'"], // NFC
  ];
  it.each(valid)('%j → %s', (input, expected) => {
    expect(parseWebQuery(input)).toBe(expected);
  });

  const invalid: [string, string][] = [
    ['', 'Query is empty.'],
    ['   ', 'Query is empty.'],
    ['"senior manager', 'Unbalanced quote: the quote at position 1 is never closed.'],
    ['java "senior', 'Unbalanced quote: the quote at position 6 is never closed.'],
    ['"a" "b" "c', 'Unbalanced quote: the quote at position 9 is never closed.'],
    ['-', 'Lone "-" at position 1: put the word or quoted phrase to exclude right after it, as in -intern.'],
    [
      'java - intern',
      'Lone "-" at position 6: put the word or quoted phrase to exclude right after it, as in -intern.',
    ],
    ['OR java', 'Dangling OR at position 1: OR must stand between two terms, as in "java OR kotlin".'],
    ['java OR', 'Dangling OR at position 6: OR must stand between two terms, as in "java OR kotlin".'],
    [
      'java OR OR kotlin',
      'Dangling OR at position 6: OR must stand between two terms, as in "java OR kotlin".',
    ],
    ['OR', 'Dangling OR at position 1: OR must stand between two terms, as in "java OR kotlin".'],
    ['the', NO_TERM],
    ['The And OF', NO_TERM],
    ['"to be or not to be"', NO_TERM],
    ['+', NO_TERM],
    ['+++ ... ---', NO_TERM],
    ['!!! ()', NO_TERM],
    ["don't", NO_TERM],
    ['-the', NO_TERM],
    ['the- the--a', NO_TERM],
    ['"OR"', NO_TERM], // quoted, OR is the stop word "or"
    ['""', NO_TERM],
    ['\u0130s', NO_TERM], // glibc lowercases İ to i: "is"
    ['\u0000', NO_TERM],
  ];
  it.each(invalid)('%j is rejected', (input, message) => {
    expect(errorOf(() => parseWebQuery(input))).toBe(message);
  });

  it('caps length and terms', () => {
    expect(TEXT_QUERY_MAX_LENGTH).toBe(512);
    expect(TEXT_QUERY_MAX_TERMS).toBe(32);
    const long = 'x'.repeat(512);
    expect(parseWebQuery(long)).toBe(`'${long}'`);
    expect(errorOf(() => parseWebQuery(`${long}y`))).toBe(
      'Query is too long: 513 characters, the maximum is 512.',
    );
    // characters, not UTF-16 units
    expect(() => parseWebQuery('😀'.repeat(400))).toThrow(NO_TERM);
    expect(() => parseWebQuery('😀'.repeat(513))).toThrow('Query is too long: 513 characters');
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(parseWebQuery(words(32))).toContain("'w31'");
    expect(errorOf(() => parseWebQuery(words(33)))).toBe('Query has too many terms: 33, the maximum is 32.');
    // words inside phrases count, and so do stop words
    expect(errorOf(() => parseWebQuery(`"${words(30)}" the of a`))).toBe(
      'Query has too many terms: 33, the maximum is 32.',
    );
  });

  it('every stop word alone has no searchable term', () => {
    for (const w of ENGLISH_STOP_WORDS) expect(errorOf(() => parseWebQuery(w))).toBe(NO_TERM);
  });
});

describe('parseAdvancedQuery', () => {
  const valid: [string, string][] = [
    ['senior & engineer', "'senior' & 'engineer'"],
    ['java | kotlin', "'java' | 'kotlin'"],
    ['!intern', "!'intern'"],
    ['!!intern', "!!'intern'"],
    ['senior <-> engineer', "'senior' <-> 'engineer'"],
    ['senior <2> engineer', "'senior' <2> 'engineer'"],
    ['senior <0> engineer', "'senior' <0> 'engineer'"],
    ['senior <016384> engineer', "'senior' <16384> 'engineer'"],
    ['engineer:*', "'engineer':*"],
    ['engineer:*ba', "'engineer':*AB"],
    ['engineer:Ca', "'engineer':AC"],
    ["'senior engineer'", "'senior engineer'"],
    ["'senior engineer':*", "'senior engineer':*"],
    ["'o''reilly' & java", "'o''reilly' & 'java'"],
    ["'a\\'b' & java", "'a''b' & 'java'"],
    ['!intern & (java | kotlin)', "!'intern' & ('java' | 'kotlin')"],
    ['java | kotlin & go', "'java' | 'kotlin' & 'go'"],
    ['(java | kotlin) & go', "('java' | 'kotlin') & 'go'"],
    ['java & kotlin | go', "'java' & 'kotlin' | 'go'"],
    ['java & (kotlin | go)', "'java' & ('kotlin' | 'go')"],
    ['java & (kotlin & go)', "'java' & ('kotlin' & 'go')"],
    ['java <-> kotlin & go', "'java' <-> 'kotlin' & 'go'"],
    ['java <-> (kotlin & go)', "'java' <-> ('kotlin' & 'go')"],
    ['!java <-> kotlin', "!'java' <-> 'kotlin'"],
    ['!(java <-> kotlin)', "!('java' <-> 'kotlin')"],
    ['x <-> (y <-> z)', "'x' <-> ('y' <-> 'z')"],
    ['((((java))))', "'java'"],
    ['c++ & node.js & full-stack', "'c++' & 'node.js' & 'full-stack'"],
    ['c\\&d', "'c d'"],
    // as in to_tsquery, quotes and '>' inside a word are characters, and an empty weight list is allowed
    ["java'x'", "'java''x'''"],
    ["o'reilly & x", "'o''reilly' & 'x'"],
    ['senior>', "'senior>'"],
    ['"java"', '\'"java"\''],
    ['java: & go', "'java' & 'go'"],
    ['java\\ script', "'java script'"],
    ["!'senior manager'", "!'senior manager'"],
    // stop words are removed as to_tsquery does, phrase distances included
    ['the & manager', "'manager'"],
    ['manager & !the', "'manager'"],
    ['head <-> of <-> sales', "'head' <2> 'sales'"],
    ['head <-> (of <-> the) <-> sales', "'head' <3> 'sales'"],
    ['(x <-> the) <2> y', "'x' <3> 'y'"],
    ['the | java', "'java'"],
    ['+ & java', "'+' & 'java'"],
    ['the:* & java', "'java'"],
    ['!the & !java', "!'java'"],
  ];
  it.each(valid)('%j → %s', (input, expected) => {
    expect(parseAdvancedQuery(input)).toBe(expected);
  });

  const invalid: [string, string][] = [
    ['', 'Query is empty.'],
    ['  ', 'Query is empty.'],
    [
      'java kotlin',
      'Missing operator before the term kotlin at position 6: join terms with & (and), | (or) or <-> (followed by).',
    ],
    [
      'java (kotlin)',
      'Missing operator before "(" at position 6: join terms with & (and), | (or) or <-> (followed by).',
    ],
    [
      '(java) kotlin',
      'Missing operator before the term kotlin at position 8: join terms with & (and), | (or) or <-> (followed by).',
    ],
    [
      'java !kotlin',
      'Missing operator before "!" at position 6: join terms with & (and), | (or) or <-> (followed by).',
    ],
    [
      "'x'java",
      'Missing operator before the term java at position 4: join terms with & (and), | (or) or <-> (followed by).',
    ],
    ['java & & kotlin', 'Missing term after "&" at position 6: found "&".'],
    ['java &', 'Missing term after "&" at position 6: found the end of the query.'],
    ['java |', 'Missing term after "|" at position 6: found the end of the query.'],
    ['java <->', 'Missing term after "<->" at position 6: found the end of the query.'],
    ['java & )', 'Missing term after "&" at position 6: found ")".'],
    ['!', 'Missing term after "!" at position 1: found the end of the query.'],
    ['& java', 'Query cannot start with "&" (position 1): a term must come first.'],
    ['<-> java', 'Query cannot start with "<->" (position 1): a term must come first.'],
    [')', 'Query cannot start with ")" (position 1): a term must come first.'],
    ['()', 'Empty parentheses at position 1.'],
    ['java & ( )', 'Empty parentheses at position 8.'],
    ['(java', 'Unclosed "(" at position 1.'],
    ['((java) & go', 'Unclosed "(" at position 1.'],
    ['(', 'Missing term after "(" at position 1: found the end of the query.'],
    ['java)', 'Unmatched ")" at position 5.'],
    ['(java))', 'Unmatched ")" at position 7.'],
    [
      'java < kotlin',
      'Malformed phrase operator at position 6: use <-> (followed by) or <N> with N from 0 to 16384.',
    ],
    [
      'java <-1> kotlin',
      'Malformed phrase operator at position 6: use <-> (followed by) or <N> with N from 0 to 16384.',
    ],
    [
      'java <16385> go',
      'Phrase distance too large at position 6: use <-> (followed by) or <N> with N from 0 to 16384.',
    ],
    [
      'java <99999999999999999999> go',
      'Phrase distance too large at position 6: use <-> (followed by) or <N> with N from 0 to 16384.',
    ],
    [
      'java > go',
      'Missing operator before the term > at position 6: join terms with & (and), | (or) or <-> (followed by).',
    ],
    ['java\\', 'Backslash at position 5 has nothing to escape.'],
    ['java:x', 'Bad ":" at position 5: only * (prefix match) and the weights A, B, C, D may follow it.'],
    ['java:*x', 'Bad ":" at position 5: only * (prefix match) and the weights A, B, C, D may follow it.'],
    ["java:*'x'", 'Bad ":" at position 5: only * (prefix match) and the weights A, B, C, D may follow it.'],
    ['java :*', 'Unexpected ":" at position 6: ":*" and weights must directly follow a term, as in manag:*.'],
    [':*', 'Unexpected ":" at position 1: ":*" and weights must directly follow a term, as in manag:*.'],
    [
      'java:*:*',
      'Unexpected ":" at position 7: ":*" and weights must directly follow a term, as in manag:*.',
    ],
    ["'senior engineer", 'Unclosed quote: the quote at position 1 is never closed.'],
    ["java & 'x\\'", 'Unclosed quote: the quote at position 8 is never closed.'],
    ["''", 'Empty quoted phrase at position 1.'],
    [
      '"senior engineer"',
      'Missing operator before the term engineer" at position 9: join terms with & (and), | (or) or <-> (followed by). ' +
        "Quote a phrase with single quotes, as in 'senior engineer'.",
    ],
    ['the', NO_TERM],
    ['the & !a', NO_TERM],
    ["'to be' | +", NO_TERM],
    [
      'java <16384> the <16384> go',
      'Phrase distance too large once stop words are removed: at most 16384 is allowed.',
    ],
  ];
  it.each(invalid)('%j is rejected', (input, message) => {
    expect(errorOf(() => parseAdvancedQuery(input))).toBe(message);
  });

  it('reports positions in characters', () => {
    try {
      parseAdvancedQuery('😀 & &');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(TextQueryError);
      expect((err as TextQueryError).position).toBe(3);
    }
  });

  it('caps length and terms', () => {
    expect(errorOf(() => parseAdvancedQuery('x'.repeat(513)))).toBe(
      'Query is too long: 513 characters, the maximum is 512.',
    );
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' & ');
    expect(parseAdvancedQuery(terms(32))).toContain("'w31'");
    expect(errorOf(() => parseAdvancedQuery(terms(33)))).toBe(
      'Query has too many terms: 33, the maximum is 32.',
    );
    expect(errorOf(() => parseAdvancedQuery(`'${'w '.repeat(33)}'`))).toBe(
      'Query has too many terms: 33, the maximum is 32.',
    );
  });
});

// Characters that stress both grammars: operators of either syntax, quotes, escapes, NUL, odd unicode.
const NASTY = [
  ...'&|!()<>:*\'"\\- -0123456789aAbBcCdDOR'.split(''),
  '<->',
  '<2>',
  ':*',
  'OR',
  'the',
  'java',
  'node.js',
  '\u0000',
  '\u0130',
  '\u0301',
  '\ud800',
  '😀',
  'é',
  '\t',
  '\n',
];
const nastyString = fc.array(fc.constantFrom(...NASTY), { maxLength: 40 }).map((parts) => parts.join(''));
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  nastyString,
  fc.string({ unit: 'binary', minLength: 500, maxLength: 600 }),
);

function onlyTextQueryErrors(parse: (s: string) => string) {
  return (input: string) => {
    try {
      const out = parse(input);
      expect(typeof out).toBe('string');
      expect(out).not.toContain('\u0000');
    } catch (err) {
      if (!(err instanceof TextQueryError)) throw err;
      expect(err.message.length).toBeGreaterThan(0);
    }
  };
}

describe('any input', () => {
  it('parseWebQuery returns a string or throws TextQueryError', () => {
    fc.assert(fc.property(anyString, onlyTextQueryErrors(parseWebQuery)), { numRuns: 2000 });
  });

  it('parseAdvancedQuery returns a string or throws TextQueryError', () => {
    fc.assert(fc.property(anyString, onlyTextQueryErrors(parseAdvancedQuery)), { numRuns: 2000 });
  });

  it('deep nesting does not overflow the stack', () => {
    expect(parseAdvancedQuery(`${'('.repeat(250)}java${')'.repeat(250)}`)).toBe("'java'");
    // 508 stacked negations parse without overflowing our stack, and are refused: to_tsquery cannot take them.
    expect(() => parseAdvancedQuery(`${'!'.repeat(508)}java`)).toThrow(TextQueryError);
    expect(() => parseAdvancedQuery(`${'!'.repeat(508)}java`)).toThrow(/stacked/);
    expect(parseAdvancedQuery(`${'!'.repeat(16)}java`)).toBe(`${'!'.repeat(16)}'java'`);
  });
});
