// The query tree both parsers build, PostgreSQL's stop-word cleanup, and printing as to_tsquery input.
import { type LexemeForecast, tsLiteral } from './lexeme.ts';

export const MAX_PHRASE_DISTANCE = 16384; // PostgreSQL's MAXENTRYPOS

export type QueryNode =
  | { kind: 'term'; text: string; prefix: boolean; weights: string; lexeme: LexemeForecast }
  | { kind: 'not'; child: QueryNode }
  | { kind: 'and' | 'or'; left: QueryNode; right: QueryNode }
  | { kind: 'phrase'; distance: number; left: QueryNode; right: QueryNode };

export class DistanceTooLargeError extends Error {}

interface Cleaned {
  node: QueryNode | null;
  ladd: number;
  radd: number;
}

/**
 * Removes terms without a lexeme exactly as PostgreSQL's clean_stopwords_intree does for to_tsquery:
 * binary operators with one side gone collapse to the other, NOT of nothing is nothing, and a phrase
 * operator that loses an operand passes its distance on to the nearest surviving phrase operator
 * ('x <-> the <-> y' is 'x <2> y'). Terms whose lexeme is unknown go too when `unknownAsEmpty`: that tree
 * is the worst case PostgreSQL may arrive at, the one the caps and the "no searchable term" check judge.
 */
export function removeEmptyTerms(root: QueryNode, unknownAsEmpty: boolean): QueryNode | null {
  return clean(root, unknownAsEmpty).node;
}

function clean(node: QueryNode, unknownAsEmpty: boolean): Cleaned {
  switch (node.kind) {
    case 'term': {
      const empty = node.lexeme === 'none' || (unknownAsEmpty && node.lexeme === 'unknown');
      return { node: empty ? null : node, ladd: 0, radd: 0 };
    }
    case 'not': {
      const c = clean(node.child, unknownAsEmpty);
      return { node: c.node ? { kind: 'not', child: c.node } : null, ladd: c.ladd, radd: c.radd };
    }
    default: {
      const l = clean(node.left, unknownAsEmpty);
      const r = clean(node.right, unknownAsEmpty);
      const isPhrase = node.kind === 'phrase';
      const dist = node.kind === 'phrase' ? node.distance : 0;
      if (!l.node && !r.node) {
        const add = isPhrase ? l.ladd + dist + r.ladd : Math.max(l.ladd, r.ladd);
        return { node: null, ladd: add, radd: add };
      }
      if (!l.node) {
        return isPhrase
          ? { node: r.node, ladd: l.ladd + dist + r.ladd, radd: r.radd }
          : { node: r.node, ladd: r.ladd, radd: r.radd };
      }
      if (!r.node) {
        return isPhrase
          ? { node: l.node, ladd: l.ladd, radd: l.radd + dist + r.radd }
          : { node: l.node, ladd: l.ladd, radd: l.radd };
      }
      if (node.kind === 'phrase') {
        const distance = dist + l.radd + r.ladd;
        return { node: { ...node, distance, left: l.node, right: r.node }, ladd: l.ladd, radd: r.radd };
      }
      return { node: { ...node, left: l.node, right: r.node }, ladd: 0, radd: 0 };
    }
  }
}

// to_tsquery priorities: ! binds tightest, then <->, &, |.
const PRIORITY = { term: 5, not: 4, phrase: 3, and: 2, or: 1 } as const;

/** Prints a tree as to_tsquery input that parses back to the same tree shape. */
export function printQuery(node: QueryNode): string {
  switch (node.kind) {
    case 'term': {
      const mods = (node.prefix ? '*' : '') + node.weights;
      return tsLiteral(node.text) + (mods ? `:${mods}` : '');
    }
    case 'not':
      return `!${wrap(node.child, PRIORITY.not, false)}`;
    default: {
      let op: string = node.kind === 'and' ? '&' : '|';
      if (node.kind === 'phrase') {
        if (node.distance > MAX_PHRASE_DISTANCE) throw new DistanceTooLargeError();
        op = node.distance === 1 ? '<->' : `<${node.distance}>`;
      }
      const p = PRIORITY[node.kind];
      return `${wrap(node.left, p, false)} ${op} ${wrap(node.right, p, true)}`;
    }
  }
}

// Operators associate to the left, so an equal-priority right operand keeps its parentheses.
function wrap(child: QueryNode, parent: number, right: boolean): string {
  const p = PRIORITY[child.kind];
  const text = printQuery(child);
  return p < parent || (right && p === parent) ? `(${text})` : text;
}
