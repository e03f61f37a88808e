// PostgreSQL's text form of a normalised tsquery (what `to_tsquery(...)::text` prints) read back into a
// tree, for the in-memory match index. Only what the index can answer exactly is accepted: lexemes with
// or without prefix, NOT, AND, OR, and phrases whose right side is one lexeme; weights and every other
// shape return undefined, and the request is then answered by PostgreSQL.

export type TsNode =
  | { op: 'lex'; lexeme: string; prefix: boolean }
  | { op: 'not'; arg: TsNode }
  | { op: 'and' | 'or'; left: TsNode; right: TsNode }
  | { op: 'phrase'; left: TsNode; right: TsNode; distance: number };

type Token = { t: 'lex'; lexeme: string; prefix: boolean } | { t: 'op'; op: string; distance?: number };

function tokenize(text: string): Token[] | undefined {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === ' ') {
      i++;
    } else if (ch === "'") {
      const quoted = readQuoted(text, i);
      if (!quoted) return undefined;
      const [lexeme] = quoted;
      i = quoted[1];
      let prefix = false;
      if (text[i] === ':') {
        const m = /^:([*A-D]+)/.exec(text.slice(i));
        if (m?.[1] !== '*') return undefined; // weights: not held by the index
        prefix = true;
        i += m[0].length;
      }
      out.push({ t: 'lex', lexeme, prefix });
    } else if (ch === '&' || ch === '|' || ch === '!' || ch === '(' || ch === ')') {
      out.push({ t: 'op', op: ch });
      i++;
    } else if (ch === '<') {
      const m = /^<(-|\d+)>/.exec(text.slice(i));
      if (!m) return undefined;
      out.push({ t: 'op', op: '<>', distance: m[1] === '-' ? 1 : Number(m[1]) });
      i += m[0].length;
    } else return undefined;
  }
  return out;
}

/** The tree of a normalised tsquery's text, or undefined when the index cannot answer it. */
export function parseTsQuery(text: string): TsNode | undefined {
  const tokens = tokenize(text);
  if (!tokens?.length) return undefined;
  let at = 0;
  const peek = () => tokens[at];
  const isOp = (op: string) => {
    const t = peek();
    return t?.t === 'op' && t.op === op;
  };
  // Precedence, loosest first: | then & then <N> then !; every binary operator groups to the left.
  const or = (): TsNode | undefined => {
    let left = and();
    while (left && isOp('|')) {
      at++;
      const right = and();
      left = right && { op: 'or', left, right };
    }
    return left;
  };
  const and = (): TsNode | undefined => {
    let left = phrase();
    while (left && isOp('&')) {
      at++;
      const right = phrase();
      left = right && { op: 'and', left, right };
    }
    return left;
  };
  const phrase = (): TsNode | undefined => {
    let left = unary();
    while (left && isOp('<>')) {
      const distance = (peek() as { distance: number }).distance;
      at++;
      const right = unary();
      left = right && { op: 'phrase', left, right, distance };
    }
    return left;
  };
  const unary = (): TsNode | undefined => {
    const t = peek();
    if (!t) return undefined;
    at++;
    if (t.t === 'lex') return { op: 'lex', lexeme: t.lexeme, prefix: t.prefix };
    if (t.op === '!') {
      const arg = unary();
      return arg && { op: 'not', arg };
    }
    if (t.op === '(') {
      const inner = or();
      if (!inner || !isOp(')')) return undefined;
      at++;
      return inner;
    }
    return undefined;
  };
  const tree = or();
  if (!tree || at !== tokens.length || !phrasesHeld(tree)) return undefined;
  return tree;
}

/** Phrases the index verifies: a chain of lexemes, each right side one lexeme. */
function phrasesHeld(n: TsNode): boolean {
  switch (n.op) {
    case 'lex':
      return true;
    case 'not':
      return phrasesHeld(n.arg);
    case 'and':
    case 'or':
      return phrasesHeld(n.left) && phrasesHeld(n.right);
    case 'phrase':
      return n.right.op === 'lex' && chain(n.left);
  }
}

const chain = (n: TsNode): boolean =>
  n.op === 'lex' || (n.op === 'phrase' && n.right.op === 'lex' && chain(n.left));

/** The tsvector's text form (`'lexeme':1,3 'other':2`) as lexemes and their positions. */
export function parseTsVector(text: string): [string, number[]][] | undefined {
  const out: [string, number[]][] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ' ') {
      i++;
      continue;
    }
    const quoted = text[i] === "'" ? readQuoted(text, i) : undefined;
    if (!quoted) return undefined;
    const [lexeme] = quoted;
    i = quoted[1];
    const positions: number[] = [];
    if (text[i] === ':') {
      const m = /^:([0-9A-D,]+)/.exec(text.slice(i));
      if (!m) return undefined;
      for (const p of m[1].split(',')) {
        if (!/^\d+$/.test(p)) return undefined; // a weight: not held by the index
        positions.push(Number(p));
      }
      i += m[0].length;
    }
    out.push([lexeme, positions]);
  }
  return out;
}

/**
 * The quoted lexeme at `text[at]` (a quote) as PostgreSQL prints it (a quote doubled, a backslash before
 * a quote or backslash), and where the text goes on after it.
 */
export function readQuoted(text: string, at: number): [string, number] | undefined {
  let lexeme = '';
  let i = at + 1;
  for (;;) {
    if (i >= text.length) return undefined;
    if (text[i] === "'") {
      if (text[i + 1] !== "'") return [lexeme, i + 1];
      lexeme += "'";
      i += 2;
      continue;
    }
    if (text[i] === '\\') {
      i++;
      if (i >= text.length) return undefined;
    }
    lexeme += text[i++];
  }
}
