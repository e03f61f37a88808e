// Turning one user term into a tsquery literal, and predicting without a database whether PostgreSQL's
// english configuration will find a lexeme in it.
//
// Every term is sent as a quoted literal, so to_tsquery runs it through the same parser and dictionaries
// as to_tsvector ('node.js' stays a host token, 'full-stack' becomes a phrase of its parts). Before that,
// every character that could start a token type the english configuration discards (tags `<b>`, entities
// `&amp;`, protocols `http://`), a backslash (an escape in to_tsquery's own words) and every character
// whose class depends on the database locale is replaced by a space. Other ASCII punctuation stays: the
// parser builds paths and URLs from it ('~java', 'x.com/a?b') and a space in its place would end such a
// token where PostgreSQL does not ('..*java' is a blank and a word; '.. java' would be the path '..').
// What is left is predictable enough to decide "has a lexeme".
import { ENGLISH_STOP_WORDS } from '../stopwords.ts';

// Punctuation that joins the parts of one term (hosts and versions, hyphenated words and signed numbers,
// emails, paths, c++ / c#): a term counts as one word however many of these it holds.
const JOINING_PUNCTUATION = new Set(['.', '-', '_', '@', '/', '+', '#']);
// ASCII characters replaced by a space: tags, entities, protocols and to_tsquery's escape.
const DISCARDED_ASCII = new Set(['<', '&', ':', '\\']);
// A tag or an entity, as far as it matters here: what the parser may swallow whole.
const MARKUP = /<[^>]*>|&[#\w]+;/;
const WORDLIKE = /^[\p{L}\p{M}\p{N}]$/u;
const LETTER = /^\p{L}$/u;
// Letters newer than the glibc 2.36 Unicode tables: a C.UTF-8 database does not treat them as letters.
const RECENT_BMP_LETTERS = new Set([
  0x88f, 0xc5c, 0xcdc, 0x1c89, 0x1c8a, 0xa7cb, 0xa7cc, 0xa7cd, 0xa7ce, 0xa7cf, 0xa7d2, 0xa7d4, 0xa7da, 0xa7db,
  0xa7dc, 0xa7f1,
]);
// glibc lowercases these two to ASCII letters, which can complete a stop word (İS → is).
const ASCII_LOWER: Record<string, string> = { '\u0130': 'i', '\u212a': 'k' };

function isAsciiAlnum(cp: number): boolean {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
}

/**
 * NFC-normalises and replaces every character the parser would not keep in a word by a space. With
 * `keepMarkup` (an operator syntax term, which holds `<` and `&` only when the user escaped them), a term
 * that looks like it holds a tag or an entity keeps its `<` and `&`: the parser drops the letters inside a
 * tag ('<java>' has no lexeme), so such a term's lexeme is left to PostgreSQL (forecastLexeme: 'unknown').
 */
export function sanitizeTerm(text: string, keepMarkup = false): string {
  const markup = keepMarkup && MARKUP.test(text);
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    const printableAscii = cp > 0x20 && cp < 0x7f;
    const kept = !DISCARDED_ASCII.has(ch) || (markup && (ch === '<' || ch === '&'));
    if ((printableAscii && kept) || (cp > 0x7f && WORDLIKE.test(ch))) out += ch;
    else out += ' ';
  }
  return out.replace(/ +/g, ' ').trim();
}

function joinsWords(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return isAsciiAlnum(cp) || JOINING_PUNCTUATION.has(ch) || (cp > 0x7f && WORDLIKE.test(ch));
}

/** Words of a sanitised term, as counted against the term cap: other punctuation separates words too. */
export function termWords(sanitized: string): number {
  let words = 0;
  let inWord = false;
  for (const ch of sanitized) {
    const joins = joinsWords(ch);
    if (joins && !inWord) words++;
    inWord = joins;
  }
  return words;
}

// Characters PostgreSQL treats as word characters whatever the database locale (C or a UTF-8 one).
function isSureAlnum(ch: string): boolean {
  return isAsciiAlnum(ch.codePointAt(0)!) || isSureLetter(ch);
}

function isSureLetter(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return true;
  return cp > 0x7f && cp < 0x10000 && LETTER.test(ch) && !RECENT_BMP_LETTERS.has(cp);
}

function isStopWord(run: string): boolean {
  let lower = '';
  for (const ch of run) lower += ASCII_LOWER[ch] ?? ch;
  return ENGLISH_STOP_WORDS.has(lower.toLowerCase());
}

/**
 * Whether to_tsquery('english', literal) yields at least one lexeme for a sanitised term. Conservative:
 * a run of sure letters/digits that is not a stop word always ends up in some kept token; when in doubt
 * (only stop words, marks, exotic digits) the term counts as having no lexeme.
 */
function hasLexeme(sanitized: string): boolean {
  // Letters joined by one hyphen form a hyphenated word ('t-shirt', 'of-the'), indexed whole and never a
  // stop word.
  const chars = Array.from(sanitized);
  for (let i = 1; i + 1 < chars.length; i++) {
    if (chars[i] === '-' && isSureLetter(chars[i - 1]) && isSureLetter(chars[i + 1])) return true;
  }
  let run = '';
  for (const ch of `${sanitized} `) {
    if (isSureAlnum(ch)) {
      run += ch;
      continue;
    }
    if (run !== '' && !isStopWord(run)) return true;
    run = '';
  }
  return false;
}

/**
 * What to_tsquery('english', literal) will make of a sanitised term: 'sure' it yields a lexeme, 'none'
 * (nothing but stop words), or 'unknown' (punctuation the parser may keep as a path or a number: '..' and
 * '~_' are file names, '*' is a blank). Unknown terms are sent as they are and PostgreSQL decides.
 */
export type LexemeForecast = 'sure' | 'none' | 'unknown';

export function forecastLexeme(sanitized: string): LexemeForecast {
  if (sanitized.includes('<') || sanitized.includes('&')) return 'unknown';
  if (hasLexeme(sanitized)) return 'sure';
  for (const ch of sanitized) if (ch !== ' ' && !isSureAlnum(ch)) return 'unknown';
  return 'none';
}

/**
 * A tsquery quoted literal: backslashes and quotes escaped so nothing inside acts as an operator. A term
 * left empty (a lone escaped backslash) is a blank: `''` is a syntax error in to_tsquery, `' '` has no
 * lexeme, as the term typed has none.
 */
export function tsLiteral(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''") || ' '}'`;
}
