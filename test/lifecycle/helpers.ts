// Shared pieces of the lifecycle tests: a posting factory and a small API client.
import type { CanonicalLine, PostingRecord } from '../../src/model/record.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

export type Posting = PostingRecord & { kind: 'posting' };

const WORDS = [
  'build',
  'reliable',
  'services',
  'with',
  'a',
  'small',
  'team',
  'that',
  'ships',
  'often',
  'and',
  'cares',
  'about',
  'quality',
  'customers',
  'data',
  'pipelines',
  'design',
  'reviews',
  'mentoring',
];

/** A deterministic description of ~60 words, distinct per seed. */
export function description(seed: number): string {
  const out: string[] = [];
  let x = seed * 2654435761;
  for (let i = 0; i < 60; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(WORDS[x % WORDS.length] + (i % 7 === 0 ? String((x >>> 8) % 97) : ''));
  }
  return `<p>${out.join(' ')}</p>`;
}

export function posting(source: string, n: number | string, over: Partial<PostingRecord> = {}): Posting {
  return {
    kind: 'posting',
    id: `${source}:${n}`,
    source,
    title: `Software Engineer ${n}`,
    company: { name: `Acme ${n}`, domain: `acme${n}.example` },
    url: `https://${source}.example/jobs/${n}`,
    description_html: description(typeof n === 'number' ? n : n.length * 31 + n.charCodeAt(0)),
    location: { raw: ['Berlin, Germany'] },
    posted_at: '2026-01-05T10:00:00.000Z',
    ...over,
  };
}

export async function lifecycleApp(): Promise<TestApp> {
  return createTestApp({ sample: false });
}

// biome-ignore lint/suspicious/noExplicitAny: response JSON is inspected freely in tests
export async function getJson(t: TestApp, url: string): Promise<{ status: number; body: any }> {
  const res = await t.get(url);
  return { status: res.statusCode, body: res.json() };
}

export type Lines = CanonicalLine[];
