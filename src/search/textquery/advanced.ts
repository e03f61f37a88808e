// Operator queries (`title_advanced`, `description_advanced`) in to_tsquery's own syntax:
//   or     := and ('|' and)*
//   and    := phrase ('&' phrase)*
//   phrase := unary (('<->' | '<N>') unary)*        N in 0..16384, <-> is <1>
//   unary  := '!' unary | '(' or ')' | operand
//   operand:= (word | 'quoted phrase') [':' modifiers]   modifiers: '*' (prefix) and weights A-D
// Everything is validated here, then each operand is re-emitted as a quoted literal, so to_tsquery never
// sees user punctuation as syntax and never raises.
import {
  DistanceTooLargeError,
  MAX_PHRASE_DISTANCE,
  type QueryNode,
  printQuery,
  removeEmptyTerms,
} from './ast.ts';
import { NO_SEARCHABLE_TERM, TextQueryError, checkTermCount, codePoints, isSpace } from './errors.ts';
import { forecastLexeme, sanitizeTerm, termWords } from './lexeme.ts';

type Token =
  | { kind: '&' | '|' | '!' | '(' | ')'; pos: number }
  | { kind: 'phrase'; pos: number; distance: number; text: string }
  | { kind: 'operand'; pos: number; node: QueryNode; words: number; text: string }
  | { kind: 'end'; pos: number };

// As in to_tsquery, a word ends at whitespace or one of these; quotes and '>' inside a word are just
// characters (the text parser then treats them as blanks).
const WORD_END = new Set(['&', '|', '!', '(', ')', '<', ':']);
const PHRASE_OPERATOR_HINT = 'use <-> (followed by) or <N> with N from 0 to 16384';
// to_tsquery keeps pending operators on a 32-deep stack and `!` is right-associative, so about 30
// stacked negations overflow it ("tsquery stack too small"); a tighter cap keeps a clear margin.
const MAX_STACKED_NOT = 16;

/** The longest run of directly nested `!` in a tree (what to_tsquery stacks). */
function stackedNots(node: QueryNode, run = 0): number {
  switch (node.kind) {
    case 'term':
      return run;
    case 'not':
      return stackedNots(node.child, run + 1);
    default:
      return Math.max(run, stackedNots(node.left), stackedNots(node.right));
  }
}

function fail(message: string, pos: number): never {
  throw new TextQueryError(message, pos);
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'end':
      return 'the end of the query';
    case 'operand':
      return `the term ${t.text}`;
    case 'phrase':
      return `"${t.text}"`;
    default:
      return `"${t.kind}"`;
  }
}

function tokenize(chars: string[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i];
    const pos = i + 1;
    if (isSpace(ch)) {
      i++;
    } else if (ch === '&' || ch === '|' || ch === '!' || ch === '(' || ch === ')') {
      tokens.push({ kind: ch, pos });
      i++;
    } else if (ch === '<') {
      let j = i + 1;
      let distance: number;
      if (chars[j] === '-' && chars[j + 1] === '>') {
        distance = 1;
        j += 2;
      } else {
        let digits = '';
        while (j < chars.length && /^[0-9]$/.test(chars[j])) digits += chars[j++];
        if (digits === '' || chars[j] !== '>') {
          fail(`Malformed phrase operator at position ${pos}: ${PHRASE_OPERATOR_HINT}.`, pos);
        }
        j++;
        distance = Number(digits.length > 6 ? Number.MAX_SAFE_INTEGER : digits);
        if (distance > MAX_PHRASE_DISTANCE) {
          fail(`Phrase distance too large at position ${pos}: ${PHRASE_OPERATOR_HINT}.`, pos);
        }
      }
      tokens.push({ kind: 'phrase', pos, distance, text: chars.slice(i, j).join('') });
      i = j;
    } else if (ch === ':') {
      fail(
        `Unexpected ":" at position ${pos}: ":*" and weights must directly follow a term, as in manag:*.`,
        pos,
      );
    } else {
      let raw = '';
      let j = i;
      if (ch === "'") {
        // Quoted operand: '' is a quote, a backslash escapes the next character (as in to_tsquery).
        j++;
        for (;;) {
          if (j >= chars.length) fail(`Unclosed quote: the quote at position ${pos} is never closed.`, pos);
          if (chars[j] === "'") {
            if (chars[j + 1] !== "'") break;
            raw += "'";
            j += 2;
          } else if (chars[j] === '\\' && j + 1 < chars.length) {
            raw += chars[j + 1];
            j += 2;
          } else {
            raw += chars[j++];
          }
        }
        j++;
        if (raw === '') fail(`Empty quoted phrase at position ${pos}.`, pos);
      } else {
        while (j < chars.length && !isSpace(chars[j]) && !WORD_END.has(chars[j])) {
          if (chars[j] === '\\') {
            if (j + 1 >= chars.length) fail(`Backslash at position ${j + 1} has nothing to escape.`, j + 1);
            j++;
          }
          raw += chars[j++];
        }
      }
      let prefix = false;
      const weights = new Set<string>();
      if (chars[j] === ':') {
        const colonPos = j + 1;
        j++;
        while (j < chars.length && /^[*a-dA-D]$/.test(chars[j])) {
          if (chars[j] === '*') prefix = true;
          else weights.add(chars[j].toUpperCase());
          j++;
        }
        if (j < chars.length && !isSpace(chars[j]) && !WORD_END.has(chars[j])) {
          fail(
            `Bad ":" at position ${colonPos}: only * (prefix match) and the weights A, B, C, D may follow it.`,
            colonPos,
          );
        }
      }
      const text = sanitizeTerm(raw, true);
      const node: QueryNode = {
        kind: 'term',
        text,
        prefix,
        weights: [...weights].sort().join(''),
        lexeme: forecastLexeme(text),
      };
      tokens.push({
        kind: 'operand',
        pos,
        node,
        words: Math.max(1, termWords(text)),
        text: chars.slice(i, j).join(''),
      });
      i = j;
    }
  }
  tokens.push({ kind: 'end', pos: chars.length + 1 });
  return tokens;
}

class Parser {
  private k = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly doubleQuoted: boolean,
  ) {}

  private peek(): Token {
    return this.tokens[this.k];
  }

  parse(): QueryNode {
    const node = this.or();
    const t = this.peek();
    if (t.kind === ')') fail(`Unmatched ")" at position ${t.pos}.`, t.pos);
    if (t.kind !== 'end') this.missingOperator(t);
    return node;
  }

  private missingOperator(t: Token): never {
    const quoteHint = this.doubleQuoted ? " Quote a phrase with single quotes, as in 'senior engineer'." : '';
    fail(
      `Missing operator before ${describe(t)} at position ${t.pos}: join terms with & (and), | (or) or <-> (followed by).${quoteHint}`,
      t.pos,
    );
  }

  private or(): QueryNode {
    let left = this.and();
    while (this.peek().kind === '|') {
      this.k++;
      left = { kind: 'or', left, right: this.and() };
    }
    return left;
  }

  private and(): QueryNode {
    let left = this.phrase();
    while (this.peek().kind === '&') {
      this.k++;
      left = { kind: 'and', left, right: this.phrase() };
    }
    return left;
  }

  private phrase(): QueryNode {
    let left = this.unary();
    for (let t = this.peek(); t.kind === 'phrase'; t = this.peek()) {
      this.k++;
      left = { kind: 'phrase', distance: t.distance, left, right: this.unary() };
    }
    return left;
  }

  private unary(): QueryNode {
    const t = this.peek();
    if (t.kind === 'operand') {
      this.k++;
      const next = this.peek();
      if (next.kind === 'operand' || next.kind === '(' || next.kind === '!') this.missingOperator(next);
      return t.node;
    }
    if (t.kind === '!') {
      this.k++;
      return { kind: 'not', child: this.unary() };
    }
    if (t.kind === '(') {
      this.k++;
      if (this.peek().kind === ')') fail(`Empty parentheses at position ${t.pos}.`, t.pos);
      const inner = this.or();
      const close = this.peek();
      if (close.kind === 'end') fail(`Unclosed "(" at position ${t.pos}.`, t.pos);
      if (close.kind !== ')') this.missingOperator(close);
      this.k++;
      const next = this.peek();
      if (next.kind === 'operand' || next.kind === '(' || next.kind === '!') this.missingOperator(next);
      return inner;
    }
    // An operand was expected: say after what.
    const prev = this.k > 0 ? this.tokens[this.k - 1] : undefined;
    if (!prev) {
      if (t.kind === 'end') fail('Query is empty.', t.pos);
      fail(`Query cannot start with ${describe(t)} (position ${t.pos}): a term must come first.`, t.pos);
    }
    fail(`Missing term after ${describe(prev)} at position ${prev.pos}: found ${describe(t)}.`, prev.pos);
  }
}

/** Whether a term's lexeme is left for PostgreSQL to find (it may have none). */
function hasUnknown(node: QueryNode): boolean {
  if (node.kind === 'term') return node.lexeme === 'unknown';
  if (node.kind === 'not') return hasUnknown(node.child);
  return hasUnknown(node.left) || hasUnknown(node.right);
}

export function compileAdvancedQuery(input: string): string {
  const tokens = tokenize(codePoints(input));
  checkTermCount(tokens.reduce((n, t) => n + (t.kind === 'operand' ? t.words : 0), 0));
  const tree = new Parser(tokens, input.includes('"')).parse();
  // The caps hold for what we send and for the worst case PostgreSQL may arrive at (every term of unknown
  // lexeme dropped too).
  const sent = removeEmptyTerms(tree, false);
  const worst = removeEmptyTerms(tree, true);
  if (!sent || !worst) throw new TextQueryError(NO_SEARCHABLE_TERM);
  // With a term of unknown lexeme the tree is sent whole: PostgreSQL removes what has no lexeme in one
  // pass, as it does for the text typed. Stop words removed here first, and that term by PostgreSQL
  // after, lost the distance a stop word adds ('java <-> (!x & the <-> kotlin)' is 'java' <2> 'kotlin').
  // PostgreSQL may then arrive at `sent` itself (no such term empty), so every cap judges all three.
  const out = hasUnknown(tree) ? tree : sent;
  const trees = [sent, worst, out];
  if (Math.max(...trees.map((t) => stackedNots(t))) > MAX_STACKED_NOT) {
    throw new TextQueryError(`Too many stacked "!": at most ${MAX_STACKED_NOT} negations in a row.`);
  }
  try {
    for (const t of trees) printQuery(t);
    return printQuery(out);
  } catch (err) {
    if (err instanceof DistanceTooLargeError) {
      throw new TextQueryError(
        `Phrase distance too large once stop words are removed: at most ${MAX_PHRASE_DISTANCE} is allowed.`,
      );
    }
    throw err;
  }
}
