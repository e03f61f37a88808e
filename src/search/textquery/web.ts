// Google-style queries (`title`, `description`): words are ANDed, "quoted phrases" are phrases, an
// uppercase OR between two terms is OR and binds tighter than the implicit AND (a b OR c = a & (b | c)),
// and a leading - excludes a word or a phrase.
import { type QueryNode, printQuery, removeEmptyTerms } from './ast.ts';
import { NO_SEARCHABLE_TERM, TextQueryError, checkTermCount, codePoints, isSpace } from './errors.ts';
import { forecastLexeme, sanitizeTerm, termWords } from './lexeme.ts';

type Token = { kind: 'or'; pos: number } | { kind: 'unit'; pos: number; node: QueryNode; words: number };

function termNode(raw: string): { node: QueryNode; words: number } {
  const text = sanitizeTerm(raw);
  return {
    node: { kind: 'term', text, prefix: false, weights: '', lexeme: forecastLexeme(text) },
    words: termWords(text),
  };
}

function tokenize(chars: string[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    if (isSpace(chars[i])) {
      i++;
      continue;
    }
    const start = i;
    let negated = false;
    if (chars[i] === '-') {
      if (i + 1 >= chars.length || isSpace(chars[i + 1])) {
        throw new TextQueryError(
          `Lone "-" at position ${start + 1}: put the word or quoted phrase to exclude right after it, as in -intern.`,
          start + 1,
        );
      }
      negated = true;
      i++;
    }
    let raw: string;
    if (chars[i] === '"') {
      const close = chars.indexOf('"', i + 1);
      if (close < 0) {
        throw new TextQueryError(`Unbalanced quote: the quote at position ${i + 1} is never closed.`, i + 1);
      }
      raw = chars.slice(i + 1, close).join('');
      i = close + 1;
    } else {
      const from = i;
      while (i < chars.length && !isSpace(chars[i]) && chars[i] !== '"') i++;
      raw = chars.slice(from, i).join('');
      if (!negated && raw === 'OR') {
        tokens.push({ kind: 'or', pos: start + 1 });
        continue;
      }
    }
    const { node, words } = termNode(raw);
    tokens.push({ kind: 'unit', pos: start + 1, node: negated ? { kind: 'not', child: node } : node, words });
  }
  return tokens;
}

export function compileWebQuery(input: string): string {
  const tokens = tokenize(codePoints(input));
  if (tokens.length === 0) throw new TextQueryError('Query is empty.');
  tokens.forEach((t, k) => {
    if (t.kind === 'or' && (k === 0 || k === tokens.length - 1 || tokens[k + 1].kind === 'or')) {
      throw new TextQueryError(
        `Dangling OR at position ${t.pos}: OR must stand between two terms, as in "java OR kotlin".`,
        t.pos,
      );
    }
  });
  checkTermCount(tokens.reduce((n, t) => n + (t.kind === 'unit' ? t.words : 0), 0));

  // Validation above guarantees units and ORs alternate inside each OR group.
  let query: QueryNode | null = null;
  let k = 0;
  while (k < tokens.length) {
    let group = (tokens[k] as Extract<Token, { kind: 'unit' }>).node;
    k++;
    while (k < tokens.length && tokens[k].kind === 'or') {
      group = { kind: 'or', left: group, right: (tokens[k + 1] as Extract<Token, { kind: 'unit' }>).node };
      k += 2;
    }
    query = query ? { kind: 'and', left: query, right: group } : group;
  }
  if (!query || !removeEmptyTerms(query, true)) throw new TextQueryError(NO_SEARCHABLE_TERM);
  return printQuery(removeEmptyTerms(query, false)!);
}
