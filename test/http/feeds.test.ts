// The three feed endpoints: parameters and their 400s, defaults, order, paging and response keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { TestApp } from '../helpers/app.ts';
import { getJson, lifecycleApp, posting } from '../lifecycle/helpers.ts';

let t: TestApp;
const N = 25;
beforeAll(async () => {
  t = await lifecycleApp();
  // Many rows share one feed timestamp (one batch), so the id tie-breaker matters.
  await ingestRecords(
    t.db,
    Array.from({ length: N }, (_, i) => posting('greenhouse', `h${String(i).padStart(2, '0')}`)),
  );
  const all = Array.from({ length: N }, (_, i) => posting('greenhouse', `h${String(i).padStart(2, '0')}`));
  await ingestRecords(
    t.db,
    all.slice(0, 12).map((p) => ({ ...p, department: 'Changed' })),
  );
  await ingestRecords(
    t.db,
    all.slice(12, 20).map((p) => ({ ...p, gone: true })),
  );
});
afterAll(async () => {
  await t?.close();
});

const FEEDS = [
  {
    path: '/v1/jobs/feed',
    start: 'created_gte',
    max: 1000,
    def: 200,
    keys: ['since', 'count', 'data', 'next_cursor'],
  },
  {
    path: '/v1/jobs/modified',
    start: 'modified_gte',
    max: 1000,
    def: 200,
    keys: ['count', 'data', 'next_cursor'],
  },
  {
    path: '/v1/jobs/expired',
    start: 'expired_gte',
    max: 5000,
    def: 1000,
    keys: ['count', 'data', 'next_cursor'],
  },
] as const;

async function bad(url: string, param: string) {
  const r = await getJson(t, url);
  expect(r.status, url).toBe(400);
  expect(r.body.error).toBe('invalid request');
  expect(r.body.param).toBe(param);
  expect(typeof r.body.hint).toBe('string');
}

const sortKey = (path: string, row: Record<string, string>) =>
  path.endsWith('feed') ? row.created_at : path.endsWith('modified') ? row.modified_at : row.expired_at;

async function drain(url: string) {
  // biome-ignore lint/suspicious/noExplicitAny: response JSON is inspected freely in tests
  const rows: any[] = [];
  let next: string | null = null;
  let pages = 0;
  do {
    const r = await getJson(t, next ? `${url}&cursor=${encodeURIComponent(next)}` : url);
    expect(r.status).toBe(200);
    rows.push(...r.body.data);
    expect(r.body.count).toBe(r.body.data.length);
    next = r.body.next_cursor;
    pages++;
  } while (next !== null && pages < 100);
  return { rows, pages };
}

describe('feed endpoints', () => {
  for (const f of FEEDS) {
    describe(f.path, () => {
      it('returns exactly the spec keys, with default limit and window', async () => {
        const r = await getJson(t, f.path);
        expect(r.status).toBe(200);
        expect(Object.keys(r.body)).toEqual(f.keys);
        if (f.path.endsWith('feed')) expect(r.body.since).toBe('24h');
        expect(r.body.next_cursor).toBeNull();
        if (f.path.endsWith('expired')) {
          expect(r.body.count).toBe(8);
          for (const row of r.body.data) {
            expect(Object.keys(row)).toEqual(['id', 'expired_at']);
            expect(row.expired_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
          }
        } else {
          expect(r.body.count).toBe(f.path.endsWith('feed') ? N - 8 : 12 - 0);
          for (const row of r.body.data) expect(row).not.toHaveProperty('description');
        }
      });

      it('rejects unknown parameters and bad values with 400 naming the parameter', async () => {
        await bad(`${f.path}?foo=1`, 'foo');
        await bad(`${f.path}?title=x`, 'title');
        await bad(`${f.path}?since=abc`, 'since');
        await bad(`${f.path}?since=`, 'since');
        await bad(`${f.path}?since=24`, 'since');
        await bad(`${f.path}?${f.start}=yesterday`, f.start);
        await bad(`${f.path}?limit=0`, 'limit');
        await bad(`${f.path}?limit=${f.max + 1}`, 'limit');
        await bad(`${f.path}?limit=abc`, 'limit');
        await bad(`${f.path}?cursor=garbage`, 'cursor');
        await bad(`${f.path}?cursor=`, 'cursor');
        for (const limit of [1, f.max])
          expect((await getJson(t, `${f.path}?limit=${limit}`)).status).toBe(200);
        if (f.path.endsWith('expired')) await bad(`${f.path}?description_format=text`, 'description_format');
        else {
          await bad(`${f.path}?description_format=pdf`, 'description_format');
          const r = await getJson(t, `${f.path}?description_format=text&limit=1`);
          expect(typeof r.body.data[0].description).toBe('string');
        }
      });

      it('pages in ascending order with the id tie-breaker until next_cursor is null', async () => {
        const whole = await drain(`${f.path}?since=1d&limit=${f.max}`);
        const paged = await drain(`${f.path}?since=1d&limit=3`);
        expect(paged.pages).toBe(Math.ceil(whole.rows.length / 3));
        expect(paged.rows).toEqual(whole.rows);
        const keys = paged.rows.map((r) => [sortKey(f.path, r), r.id] as const);
        for (let i = 1; i < keys.length; i++) {
          const [a, b] = [keys[i - 1], keys[i]];
          expect(a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]), `${a} before ${b}`).toBe(true);
        }
      });

      it('refuses a cursor replayed with another window, and a tampered cursor', async () => {
        const r = await getJson(t, `${f.path}?since=1d&limit=2`);
        const cursor = r.body.next_cursor as string;
        expect(cursor).toEqual(expect.any(String));
        expect(
          (await getJson(t, `${f.path}?since=1d&limit=2&cursor=${encodeURIComponent(cursor)}`)).status,
        ).toBe(200);
        await bad(`${f.path}?since=2d&limit=2&cursor=${encodeURIComponent(cursor)}`, 'cursor');
        await bad(`${f.path}?${f.start}=2020-01-01&limit=2&cursor=${encodeURIComponent(cursor)}`, 'cursor');
        const tampered = `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}`;
        await bad(`${f.path}?since=1d&limit=2&cursor=${encodeURIComponent(tampered)}`, 'cursor');
      });

      it('an absolute start wins over since', async () => {
        const future = await getJson(t, `${f.path}?since=1d&${f.start}=2100-01-01T00:00:00Z`);
        expect(future.status).toBe(200);
        expect(future.body.count).toBe(0);
        if (f.path.endsWith('feed'))
          expect(Date.parse(future.body.since)).toBe(Date.parse('2100-01-01T00:00:00Z'));
        const past = await getJson(t, `${f.path}?since=1m&${f.start}=2000-01-01`);
        const all = await getJson(t, `${f.path}?since=1d`);
        expect(past.body.data).toEqual(all.body.data);
      });
    });
  }

  it('the resume timestamp is inclusive on every feed', async () => {
    for (const f of FEEDS) {
      const all = (await getJson(t, `${f.path}?since=1d&limit=${f.max}`)).body.data;
      const last = all.at(-1);
      const at = f.path.endsWith('expired') ? `${last.expired_at.replace(' ', 'T')}Z` : sortKey(f.path, last);
      const r = await getJson(t, `${f.path}?${f.start}=${encodeURIComponent(at)}&limit=${f.max}`);
      expect(r.body.data.map((x: { id: string }) => x.id)).toContain(last.id);
    }
  });
});

describe('feed items', () => {
  it('are the same JSON, key for key, as the job by id, in every description format', async () => {
    // Text beyond ASCII, a company without a domain, and markup in the description: the feeds put
    // items together from their bytes undecoded (jobParts), the job by id renders them from strings.
    await ingestRecords(t.db, [
      { kind: 'company', slug: 'cafe-nandu', name: 'Café Ñandú', industry: 'Hospitality – Cafés' },
      posting('lever', 'u1', {
        title: 'Ingénieure logiciel – Zürich 🚀',
        company: { name: 'Café Ñandú', slug: 'cafe-nandu' },
        description_html:
          '<p>Wir suchen „dich“ – <b>mit</b> Erfahrung in C++ & SQL.</p><ul><li>naïve</li></ul>',
        location: { raw: ['Zürich, Switzerland'] },
      }),
      posting('lever', 'u2', { title: 'Data "Quoted" Engineer\\ back\\slash', company: { name: 'Nowhere' } }),
    ]);
    for (const fmt of ['', '&description_format=text', '&description_format=html']) {
      for (const path of ['/v1/jobs/feed', '/v1/jobs/modified']) {
        const { rows } = await drain(`${path}?since=1d&limit=7${fmt}`);
        if (path.endsWith('feed')) expect(rows.length).toBe(N + 2 - 8);
        else expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          const one = await getJson(t, `/v1/jobs/${encodeURIComponent(row.id)}?${fmt.slice(1)}`);
          expect(one.status).toBe(200);
          expect(JSON.stringify(row)).toBe(JSON.stringify(one.body));
        }
      }
    }
    const raw = (await t.get('/v1/jobs/feed?since=1d&limit=1000&description_format=html')).body;
    expect(raw).toContain('Ingénieure logiciel – Zürich 🚀');
    // Both kinds of company: a profile (with its slug) and the fallback without one.
    const companies = JSON.parse(raw).data.map((j: { company: { slug?: string } }) => j.company);
    expect(companies.some((c: { slug?: string }) => c.slug === 'cafe-nandu')).toBe(true);
    expect(companies.some((c: { slug?: string }) => c.slug === undefined)).toBe(true);
    const expired = (await getJson(t, '/v1/jobs/expired?since=1d&limit=3')).body.data;
    for (const e of expired) expect(Object.keys(e)).toEqual(['id', 'expired_at']);
    expect(expired[0].expired_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});
