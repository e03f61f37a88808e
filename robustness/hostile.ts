// Hostile inputs: values for every parameter of every endpoint, path segments, raw HTTP shapes and
// tampered cursors. Values are already percent-encoded for a URL.
import { endpointParams } from '../src/http/params/registry.ts';
import fc from 'fast-check';

export const ENDPOINT_PATHS: Record<keyof typeof endpointParams, string> = {
  jobs: '/v1/jobs',
  count: '/v1/jobs/count',
  feed: '/v1/jobs/feed',
  modified: '/v1/jobs/modified',
  expired: '/v1/jobs/expired',
  job: '/v1/jobs/greenhouse:1',
  companies: '/v1/companies',
  company: '/v1/companies/acme',
  facets: '/v1/jobs/facets',
  salary: '/v1/jobs/salary',
  trends: '/v1/jobs/trends',
  history: '/v1/jobs/greenhouse:1/history',
  sources: '/v1/sources',
};

const enc = encodeURIComponent;

/** Hand-picked values that broke, or could break, a parser, a codec or the database. */
export const HOSTILE_VALUES: string[] = [
  '%00',
  'a%00b',
  'java%00,python',
  '%ED%A0%80', // a lone surrogate in UTF-8
  '%FF%FE',
  '%C3%28',
  '%',
  '%%',
  '%2',
  enc("' OR 1=1 --"),
  enc('"; DROP TABLE jobs; --'),
  enc('\\'),
  enc('\\\\\\'),
  enc("''''"),
  enc('x'.repeat(513)),
  enc('x'.repeat(5000)),
  enc('a,'.repeat(60)),
  enc(','),
  enc(' '),
  enc('\t\n\r'),
  enc('-1'),
  enc('-0'),
  enc('1e309'),
  enc('NaN'),
  enc('Infinity'),
  enc('0x10'),
  enc('9'.repeat(40)),
  enc('1.5'),
  enc('true,false'),
  enc('__proto__'),
  enc('constructor'),
  enc('toString'),
  enc('!'.repeat(33) + 'java'),
  enc('!'.repeat(200) + 'java'),
  enc('('.repeat(300) + 'java' + ')'.repeat(300)),
  enc('!('.repeat(100) + 'java' + ')'.repeat(100)),
  enc('java:*' + ' | x:*'.repeat(40)),
  enc('a <16385> b'),
  enc('a <99999999999999999999> b'),
  enc('"unbalanced'),
  enc("'unbalanced"),
  enc('- - -'),
  enc('OR OR OR'),
  enc('the of and'),
  enc('😀'.repeat(200)),
  enc('İ:*'),
  enc('\u202e\u200b\ufeff'),
  enc('2026-02-30'),
  enc('9999-12-31T23:59:59.999999+14:00'),
  enc('1969-12-31'),
  enc('24h,7d'),
  enc('0m'),
  enc('99999999d'),
  enc('<script>alert(1)</script>'),
  enc('$' + '{jndi:ldap://x}'),
  enc('../../etc/passwd'),
];

/** Random strings of every kind (unicode, control characters), percent-encoded. */
export function randomValues(n: number, seed: number): string[] {
  const arb = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.stringMatching(/^[!&|()<>:*'" a-z0-9-]{1,60}$/),
  );
  return fc.sample(arb, { numRuns: n, seed }).map((s) => {
    try {
      return encodeURIComponent(s);
    } catch {
      // Lone surrogates cannot be encoded: send their UTF-8-ish bytes instead.
      return [...s].map((c) => `%${(c.charCodeAt(0) & 0xff).toString(16).padStart(2, '0')}`).join('');
    }
  });
}

/** Every parameter of every endpoint with every value, plus hostile names and path segments. */
export function fuzzPaths(values: string[]): string[] {
  const out: string[] = [];
  for (const [endpoint, defs] of Object.entries(endpointParams)) {
    const base = ENDPOINT_PATHS[endpoint as keyof typeof endpointParams];
    for (const def of defs) for (const v of values) out.push(`${base}?${def.name}=${v}`);
    for (const v of values.slice(0, 20)) out.push(`${base}?${v}=1`);
    out.push(`${base}?${defs[0]?.name ?? 'x'}=a&${defs[0]?.name ?? 'x'}=b`);
  }
  for (const v of values) {
    out.push(`/v1/jobs/${v}`, `/v1/companies/${v}`, `/v1/jobs/${v}/x`, `/v1/${v}`);
  }
  return out.filter((p) => p.length < 16_000);
}

/** Raw requests and the statuses each may get. */
export const RAW_SHAPES: { name: string; data: string; statuses: number[] }[] = [
  { name: 'garbage request line', data: 'GARBAGE\r\n\r\n', statuses: [400, 405] },
  { name: 'HTTP/9.9', data: 'GET /v1/jobs HTTP/9.9\r\n\r\n', statuses: [400, 505] },
  {
    name: 'header without colon',
    data: 'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    statuses: [400],
  },
  {
    name: 'CL + TE smuggling',
    data: 'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    statuses: [400],
  },
  {
    name: 'duplicate Content-Length',
    data: 'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    statuses: [400],
  },
  {
    name: 'oversized header',
    data: `GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-A: ${'a'.repeat(20_000)}\r\n\r\n`,
    statuses: [431],
  },
  { name: 'bad percent-encoding', data: 'GET /v1/jobs/%C3%28 HTTP/1.1\r\nHost: x\r\n\r\n', statuses: [400] },
  {
    name: 'over-long id',
    data: `GET /v1/jobs/${'a'.repeat(3000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    statuses: [414],
  },
  { name: 'unknown method', data: 'BREW /v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n', statuses: [405] },
  {
    name: 'CONNECT',
    data: 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n',
    statuses: [405],
  },
  { name: 'NUL in request line', data: 'GET /v1/jobs\0 HTTP/1.1\r\nHost: x\r\n\r\n', statuses: [400] },
  {
    name: 'absolute-form URL',
    data: 'GET http://evil.example/v1/jobs HTTP/1.1\r\nHost: x\r\n\r\n',
    // The path of an absolute-form target is routed (RFC 9112 §3.2.2); the request carries the key.
    statuses: [200, 404],
  },
  { name: 'asterisk-form', data: 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n', statuses: [400, 404] },
];

/** Variants of a valid cursor: every character flipped, truncations, extensions, junk. */
export function tamperedCursors(cursor: string): string[] {
  const out = new Set<string>();
  const alphabet = 'AZaz09-_=.+/';
  for (let i = 0; i < cursor.length; i++) {
    for (const c of alphabet.slice(0, 4))
      if (cursor[i] !== c) out.add(cursor.slice(0, i) + c + cursor.slice(i + 1));
  }
  for (let i = 1; i < cursor.length; i += 3) out.add(cursor.slice(0, i));
  for (const extra of ['A', '==', '.x', '%00', ' ', cursor]) out.add(cursor + extra);
  out.add(Buffer.from(`{"t":"${'9'.repeat(30)}","id":"x"}`).toString('base64url'));
  out.add('');
  out.delete(cursor);
  return [...out].filter((c) => c !== '').map((c) => encodeURIComponent(c));
}
