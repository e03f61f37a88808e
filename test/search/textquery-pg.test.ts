// The compiled queries against a real PostgreSQL: to_tsquery('english', ...) must accept every one of them
// and never reduce it to an empty query; for the operator syntax PostgreSQL's own parser is the oracle.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseAdvancedQuery, parseWebQuery, TextQueryError } from '../../src/search/textquery.ts';

let client: pg.Client;
const notices: string[] = [];

beforeAll(async () => {
  client = new pg.Client({ connectionString: inject('pgUrl') });
  await client.connect();
  client.on('notice', (n) => notices.push(n.message ?? ''));
});

afterAll(async () => {
  await client?.end();
});

type PgResult = { ok: true; text: string; nodes: number } | { ok: false; code: string; message: string };

async function toTsquery(q: string): Promise<PgResult> {
  try {
    const { rows } = await client.query<{ text: string; nodes: number }>(
      "SELECT to_tsquery('english', $1)::text AS text, numnode(to_tsquery('english', $1)) AS nodes",
      [q],
    );
    return { ok: true, text: rows[0].text, nodes: rows[0].nodes };
  } catch (err) {
    const e = err as { code?: string; message: string };
    return { ok: false, code: e.code ?? '?', message: e.message };
  }
}

function tryParse(parse: (s: string) => string, input: string): string | null {
  try {
    return parse(input);
  } catch (err) {
    if (err instanceof TextQueryError) return null;
    throw err;
  }
}

async function expectUsable(compiled: string): Promise<PgResult> {
  notices.length = 0;
  const res = await toTsquery(compiled);
  expect(res, `to_tsquery(${JSON.stringify(compiled)})`).toMatchObject({ ok: true });
  if (res.ok) expect(res.nodes, `to_tsquery(${JSON.stringify(compiled)}) is empty`).toBeGreaterThan(0);
  expect(notices).toEqual([]);
  return res;
}

describe('compiled queries in PostgreSQL', () => {
  const web: [string, string][] = [
    ['senior engineers', "'senior' & 'engin'"],
    ['"senior manager" -intern', "'senior' <-> 'manag' & !'intern'"],
    ['-"senior manager"', "!( 'senior' <-> 'manag' )"],
    ['-intern', "!'intern'"],
    ['backend java OR kotlin', "'backend' & ( 'java' | 'kotlin' )"],
    ['node.js', "'node.js'"],
    ['c++', "'c'"],
    ['full-stack', "'full-stack' <-> 'full' <-> 'stack'"],
    ['"head of sales"', "'head' <2> 'sale'"],
    ["o'reilly", "'o' <-> 'reilli'"],
    ['jane@example.com', "'jane@example.com'"],
    ['of-the', "'of-th'"],
    ['"t-shirt of the month"', "'t-shirt' <2> 'shirt' <3> 'month'"],
  ];
  it.each(web)('web %j → %s', async (input, pgText) => {
    const res = await expectUsable(parseWebQuery(input));
    expect(res).toMatchObject({ text: pgText });
  });

  const advanced: [string, string][] = [
    ["'senior engineer' & !intern", "'senior' <-> 'engin' & !'intern'"],
    ['develop:* & (java | kotlin)', "'develop':* & ( 'java' | 'kotlin' )"],
    ['head <-> of <-> sales', "'head' <2> 'sale'"],
    ['x <-> ((a <-> the) | the) <-> y', "'x' <3> 'y'"],
    ['!the & java', "'java'"],
    // punctuation stays as typed, so paths and blanks split where PostgreSQL splits them
    ['..*java', "'java'"],
    ['java..&go', "'java' <-> '..' & 'go'"],
    ['.. & java', "'..' & 'java'"],
    ['~java & x.com/a*b', "'~java' & 'x.com/a*b' <-> 'x.com' <-> '/a*b'"],
    // an escaped tag stays a tag, whose letters PostgreSQL drops; an escaped & that starts no entity is a blank
    ['\\<b>java & go', "'java' & 'go'"],
    ['c\\&d | go', "'c' <-> 'd' | 'go'"],
    // a term PostgreSQL finds empty beside a stop word in a phrase: the stop word's distance stays
    ["(java) <-> (!'<->the of' & !'the of'<->kotlin)", "'java' <2> 'kotlin'"],
    ["java <-> ('<->the of' & 'the'<->kotlin)", "'java' <2> 'kotlin'"],
    // a lone escaped backslash has no lexeme, beside a term whose lexeme PostgreSQL decides ('..')
    ['\\\\<2>..<2>java', "'..' <2> 'java'"],
  ];
  it.each(advanced)('advanced %j → %s', async (input, pgText) => {
    const res = await expectUsable(parseAdvancedQuery(input));
    expect(res).toMatchObject({ text: pgText });
    // The raw input, where PostgreSQL can read it, means the same thing.
    expect(await toTsquery(input)).toMatchObject({ ok: true, text: pgText });
  });

  it('an escaped tag alone has no lexeme, for PostgreSQL as for us', async () => {
    expect(() => parseAdvancedQuery('\\<java>')).toThrow(/searchable/);
    expect(await toTsquery('\\<java>')).toMatchObject({ ok: true, text: '' });
  });

  it('a compiled query matches the tsvector of the text it was written for', async () => {
    const cases: [string, string, boolean][] = [
      ['Senior Node.js Developer', parseWebQuery('node.js developer'), true],
      ['Full-Stack Engineer (C++)', parseWebQuery('"full-stack engineer" c++'), true],
      ['Head of Sales, EMEA', parseWebQuery('"head of sales"'), true],
      ['Head Sales Of', parseWebQuery('"head of sales"'), false],
      ['Marketing Intern', parseWebQuery('marketing -intern'), false],
      ['Software Engineering Manager', parseAdvancedQuery('engineer:* <-> manag:*'), true],
    ];
    for (const [doc, q, expected] of cases) {
      const { rows } = await client.query(
        "SELECT to_tsvector('english', $1) @@ to_tsquery('english', $2) AS m",
        [doc, q],
      );
      expect(rows[0].m, `${doc} @@ ${q}`).toBe(expected);
    }
  });
});

// Inputs close to what users type in both syntaxes, with every kind of trouble mixed in.
const WORDS = [
  'java',
  'Kotlin',
  'senior',
  'engineer',
  'node.js',
  'c++',
  'full-stack',
  'the',
  'a',
  'of',
  'OR',
];
const PIECES = [
  ...WORDS,
  ...WORDS,
  ' ',
  ' ',
  ' ',
  '&',
  '|',
  '!',
  '(',
  ')',
  '<->',
  '<2>',
  '<',
  '>',
  ':*',
  ':A',
  ':',
  '*',
  "'",
  "'senior engineer'",
  "'the of'",
  '"',
  '-',
  '\\',
  '+',
  '#',
  '.',
  '\u0000',
  'é',
  '東京',
  '\u0130',
  '\u0301',
  '😀',
];
const userish = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 14 }).map((p) => p.join(''));
const anything = fc.oneof(
  userish,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
);

describe('property: every accepted query is usable', () => {
  it('parseWebQuery output is accepted by to_tsquery and not empty', async () => {
    await fc.assert(
      fc.asyncProperty(anything, async (input) => {
        const out = tryParse(parseWebQuery, input);
        if (out !== null) await expectUsable(out);
      }),
      { numRuns: 400 },
    );
  });

  it('parseAdvancedQuery output is accepted by to_tsquery and not empty', async () => {
    await fc.assert(
      fc.asyncProperty(anything, async (input) => {
        const out = tryParse(parseAdvancedQuery, input);
        if (out !== null) await expectUsable(out);
      }),
      { numRuns: 400 },
    );
  });
});

// Operator syntax built mostly from the grammar's own pieces, so that PostgreSQL accepts a good share.
const OPERAND = fc.constantFrom(
  'java',
  'kotlin',
  'engineer',
  'develop:*',
  'manag:*B',
  "'senior engineer'",
  "'head of sales'",
  'the',
  'a',
  'of:*',
  "'the of'",
  'full-stack',
  'node.js',
  't-he',
  "o'reilly",
);
const OPERATOR = fc.constantFrom(' & ', ' | ', ' <-> ', ' <2> ', ' <0> ', '&', '|', '<->');
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    OPERAND,
    fc.tuple(tie('e'), OPERATOR, tie('e')).map(([l, op, r]) => l + op + r),
    tie('e').map((e) => `!${e}`),
    tie('e').map((e) => `(${e})`),
  ),
})).e;
// Valid expressions, then sometimes damaged: a piece deleted, duplicated or inserted.
const DAMAGE = ['&', '|', '!', '(', ')', '<->', ':*', ':', "'", ' ', 'java', '<', '>'];
const operatorSyntax = fc.oneof(
  expr,
  fc
    .tuple(expr, fc.nat(), fc.nat(), fc.constantFrom(...DAMAGE), fc.constantFrom('delete', 'insert', 'dup'))
    .map(([e, at, len, piece, how]) => {
      const i = at % (e.length + 1);
      if (how === 'insert') return e.slice(0, i) + piece + e.slice(i);
      const n = 1 + (len % 3);
      return how === 'delete'
        ? e.slice(0, i) + e.slice(i + n)
        : e.slice(0, i) + e.slice(i, i + n).repeat(2) + e.slice(i + n);
    }),
  userish,
);

describe('property: PostgreSQL to_tsquery as the oracle for the operator syntax', () => {
  const tally = { bothAccept: 0, bothReject: 0, onlyPgAccepts: 0, onlyPgAcceptsEmpty: 0 };
  const onlyPg: string[] = [];

  afterAll(() => {
    // Visible with --reporter=verbose; useful to see that the generator exercises both sides.
    console.info('operator-syntax oracle tally', tally, onlyPg.slice(0, 20));
  });

  it('what we accept PostgreSQL accepts, with the same meaning; what PostgreSQL rejects we reject', async () => {
    await fc.assert(
      fc.asyncProperty(operatorSyntax, async (input) => {
        const ours = tryParse(parseAdvancedQuery, input);
        const raw = await toTsquery(input);
        if (ours === null) {
          if (raw.ok && raw.nodes > 0) {
            tally.onlyPgAccepts++;
            onlyPg.push(input);
          } else if (raw.ok) tally.onlyPgAcceptsEmpty++;
          else tally.bothReject++;
          return;
        }
        const compiled = await expectUsable(ours);
        // PostgreSQL rejecting the raw text with a syntax error means we must have rejected it too.
        if (!raw.ok && (raw.code === '42601' || raw.code === '22023')) {
          expect.fail(`PostgreSQL rejects ${JSON.stringify(input)} (${raw.message}) but we compiled ${ours}`);
        }
        tally.bothAccept++;
        // Same meaning, where we pass the text through unchanged (we NFC-normalise and blank out characters
        // whose class depends on the database locale).
        if (raw.ok && /^[\x20-\x7e]*$/.test(input)) {
          expect(compiled.ok && compiled.text, `meaning of ${JSON.stringify(input)}`).toBe(raw.text);
        }
      }),
      { numRuns: 500 },
    );
    expect(tally.bothAccept).toBeGreaterThan(50);
  });
});

describe('deep and stacked queries never reach PostgreSQL as an error', () => {
  const negations = (n: number) => `${'!'.repeat(n)}java`;
  it.each([1, 16, 17, 31, 32, 33, 64, 200])('%i stacked ! before a term', async (n) => {
    const ours = tryParse(parseAdvancedQuery, negations(n));
    if (n <= 16) await expectUsable(ours!);
    else expect(ours).toBeNull();
  });

  it.each([16, 17, 40, 200])(
    '%i stacked ! before a stop word, beside a term PostgreSQL may find empty',
    async (n) => {
      // Sent whole (a term of unknown lexeme), the stop word's negations reach PostgreSQL too.
      const ours = tryParse(parseAdvancedQuery, `${'!'.repeat(n)}the & java & ..`);
      if (n <= 16) await expectUsable(ours!);
      else expect(ours).toBeNull();
    },
  );

  it('nested parentheses with negations: accepted ones are usable, the rest are a TextQueryError', async () => {
    const shapes = [
      `${'!('.repeat(40)}java${')'.repeat(40)}`,
      `${'('.repeat(200)}java${')'.repeat(200)}`,
      `a | b & c <-> ${'!'.repeat(16)}d`,
      `a | b & c <-> ${'!'.repeat(29)}d`,
      Array.from({ length: 32 }, (_, i) => `w${i}`).join(' | '),
      Array.from({ length: 32 }, (_, i) => `!w${i}`).join(' <-> '),
      Array.from({ length: 16 }, (_, i) => `(w${i}`).join(' & ') + ')'.repeat(16),
    ];
    for (const q of shapes) {
      const ours = tryParse(parseAdvancedQuery, q);
      if (ours !== null) await expectUsable(ours);
    }
  });

  it('Google-style: many terms, exclusions and ORs stay within what PostgreSQL accepts', async () => {
    const shapes = [
      Array.from({ length: 32 }, (_, i) => `w${i}`).join(' OR '),
      Array.from({ length: 32 }, (_, i) => `-w${i}`).join(' '),
      Array.from({ length: 16 }, (_, i) => `-w${i} OR x${i}`).join(' '),
      `"${Array.from({ length: 32 }, (_, i) => `w${i}`).join(' ')}"`,
      '-'.repeat(100) + 'java',
    ];
    for (const q of shapes) {
      const ours = tryParse(parseWebQuery, q);
      expect(ours, q).not.toBeNull();
      await expectUsable(ours!);
    }
  });
});
