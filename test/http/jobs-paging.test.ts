// Paging of /v1/jobs: cursor and offset agree, cursors are bound to their query, collapse, totals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalLine } from '../../src/model/record.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createJobsFixture, type Fixture, id, ids, LIVE } from '../helpers/jobs-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await createJobsFixture();
});
afterAll(async () => {
  await f?.close();
});

type Page = { data: { id: string; posted_at: string; openings?: number }[]; [k: string]: unknown };

async function byCursor(qs: string, limit: number): Promise<{ ids: string[]; pages: Page[] }> {
  const out: string[] = [];
  const pages: Page[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const url = `/v1/jobs?limit=${limit}${qs ? `&${qs}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const { status, body } = await f.json(url);
    expect(status, JSON.stringify(body)).toBe(200);
    pages.push(body);
    out.push(...body.data.map((j: { id: string }) => j.id));
    cursor = body.next_cursor;
    if (cursor === null) return { ids: out, pages };
  }
  throw new Error('cursor paging did not end');
}

async function byOffset(qs: string, limit: number): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; offset < 1000; offset += limit) {
    const { body } = await f.json(`/v1/jobs?limit=${limit}&offset=${offset}${qs ? `&${qs}` : ''}`);
    out.push(...body.data.map((j: { id: string }) => j.id));
    if (body.data.length < limit) break;
  }
  return out;
}

describe('cursor and offset paging', () => {
  for (const [qs, limit] of [
    ['', 3],
    ['', 4],
    ['', 7],
    ['country=US', 2],
    ['organization=northstar', 3],
    ['remote=false&has_salary=false', 5],
  ] as const) {
    it(`same sequence, no gaps or repeats: ${qs || 'all'} by ${limit}`, async () => {
      const full = (await f.json(`/v1/jobs?limit=200${qs ? `&${qs}` : ''}`)).body;
      const want = full.data.map((j: { id: string }) => j.id);
      const c = await byCursor(qs, limit);
      const o = await byOffset(qs, limit);
      expect(c.ids).toEqual(want);
      expect(o).toEqual(want);
      expect(new Set(c.ids).size).toBe(c.ids.length);
      expect(c.ids.length).toBe(full.total);
      // Every page but the first omits offset; every page reports the same total.
      expect(c.pages[0].offset).toBe(0);
      for (const p of c.pages.slice(1)) expect('offset' in p).toBe(false);
      for (const p of c.pages) expect(p.total).toBe(full.total);
      expect(c.pages.at(-1)!.next_cursor).toBeNull();
    });
  }

  it('order is newest first, ties broken stably across ten rows sharing one posted_at', async () => {
    const { body } = await f.json('/v1/jobs?organization=northstar&limit=200');
    const at = new Set(body.data.map((j: { posted_at: string }) => j.posted_at));
    expect(at.size).toBe(1);
    const c = await byCursor('organization=northstar', 1);
    expect(c.ids.sort()).toEqual(ids(23, 24, 25, 26, 27, 28, 29, 30, 31, 32));
    expect(c.pages.length).toBe(10);
  });

  it('all live postings by cursor, limit 1', async () => {
    const c = await byCursor('', 1);
    expect([...c.ids].sort()).toEqual(ids(...LIVE));
  });

  it('next_cursor is null on the last page and when the page is exactly full', async () => {
    const exact = (await f.json(`/v1/jobs?limit=${LIVE.length}`)).body;
    expect(exact.data.length).toBe(LIVE.length);
    expect(exact.next_cursor).toBeNull();
    const short = (await f.json(`/v1/jobs?limit=${LIVE.length - 1}`)).body;
    expect(typeof short.next_cursor).toBe('string');
    const empty = (await f.json('/v1/jobs?title=nonexistentword')).body;
    expect(empty).toEqual({ data: [], total: 0, limit: 50, offset: 0, next_cursor: null });
  });

  it('offset is ignored when cursor is given', async () => {
    const first = (await f.json('/v1/jobs?limit=3')).body;
    const a = (await f.json(`/v1/jobs?limit=3&cursor=${encodeURIComponent(first.next_cursor)}`)).body;
    const b = (await f.json(`/v1/jobs?limit=3&offset=7&cursor=${encodeURIComponent(first.next_cursor)}`))
      .body;
    expect(b.data).toEqual(a.data);
    expect('offset' in b).toBe(false);
  });
});

describe('cursor integrity', () => {
  let cursor: string;
  beforeAll(async () => {
    cursor = (await f.json('/v1/jobs?limit=2&country=US')).body.next_cursor;
  });

  const bad = async (url: string) => {
    const res = await f.json(url);
    expect(res.status, url).toBe(400);
    expect(res.body.param).toBe('cursor');
  };

  it('a tampered cursor is a 400 on cursor', async () => {
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    await bad(`/v1/jobs?limit=2&country=US&cursor=${encodeURIComponent(flip(cursor, 3))}`);
    await bad(`/v1/jobs?limit=2&country=US&cursor=${encodeURIComponent(flip(cursor, cursor.length - 2))}`);
    await bad(`/v1/jobs?limit=2&country=US&cursor=${encodeURIComponent(`${cursor}x`)}`);
    await bad(`/v1/jobs?limit=2&country=US&cursor=${encodeURIComponent(cursor.split('.')[0])}`);
    await bad('/v1/jobs?limit=2&country=US&cursor=.');
    await bad(`/v1/jobs?limit=2&country=US&cursor=${'a'.repeat(3000)}`);
    // A forged body with a recomputed-looking signature of another secret.
    const body = Buffer.from(JSON.stringify(['x', '2026-01-01 00:00:00+00', 'a:b'])).toString('base64url');
    await bad(`/v1/jobs?limit=2&country=US&cursor=${body}.AAAAAAAAAAAAAAAAAAAAAA`);
  });

  it('a cursor replayed on another query is a 400 on cursor', async () => {
    await bad(`/v1/jobs?limit=2&country=DE&cursor=${encodeURIComponent(cursor)}`);
    await bad(`/v1/jobs?limit=2&cursor=${encodeURIComponent(cursor)}`);
    await bad(`/v1/jobs?limit=2&country=US&remote=false&cursor=${encodeURIComponent(cursor)}`);
  });

  it('the same filters in another order or spelling keep the cursor valid; the page size may change', async () => {
    const a = await f.json(`/v1/jobs?limit=2&country=US&cursor=${encodeURIComponent(cursor)}`);
    expect(a.status).toBe(200);
    const b = await f.json(`/v1/jobs?country=United%20States&limit=5&cursor=${encodeURIComponent(cursor)}`);
    expect(b.status).toBe(200);
    expect(b.body.data.slice(0, 2)).toEqual(a.body.data);
  });

  it('the same values of a list in another order are the same query', async () => {
    const first = (await f.json('/v1/jobs?limit=2&country=US,DE,NO&taxonomies=Software,Engineering')).body;
    expect(first.total).toBe(5);
    const c = encodeURIComponent(first.next_cursor);
    const a = await f.json(`/v1/jobs?limit=2&country=US,DE,NO&taxonomies=Software,Engineering&cursor=${c}`);
    const b = await f.json(
      `/v1/jobs?limit=2&taxonomies=Engineering,Software&country=NO,Germany,US,US&cursor=${c}`,
    );
    expect(a.status).toBe(200);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.data).toEqual(a.body.data);
  });

  it('a cursor is a 400 with collapse', async () => {
    const res = await f.json(`/v1/jobs?collapse=true&cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(400);
    expect(res.body.param).toBe('cursor');
  });
});

describe('collapse', () => {
  for (const value of ['true', 'title,organization']) {
    it(`collapse=${value}: groups, newest of each, openings, collapsed:true, no next_cursor`, async () => {
      const { status, body } = await f.json(
        `/v1/jobs?collapse=${encodeURIComponent(value)}&organization=acme`,
      );
      expect(status).toBe(200);
      expect(body.collapsed).toBe(true);
      expect('next_cursor' in body).toBe(false);
      expect(body.total).toBe(4);
      expect(body.offset).toBe(0);
      expect(body.limit).toBe(50);
      expect(body.data.map((j: { id: string }) => j.id)).toEqual([id(1), id(7), id(10), id(16)]);
      expect(body.data.map((j: { openings: number }) => j.openings)).toEqual([1, 1, 1, 3]);
    });
  }

  it('a title shared by two companies stays two groups', async () => {
    const { body } = await f.json('/v1/jobs?collapse=true&title=support');
    expect(body.data.map((j: { id: string }) => j.id)).toEqual([id(13), id(16), id(19)]);
    expect(body.data.map((j: { openings: number }) => j.openings)).toEqual([1, 3, 1]);
    expect(body.total).toBe(3);
  });

  it('the group counts only matching rows and picks the newest matching one', async () => {
    const { body } = await f.json('/v1/jobs?collapse=true&title=support&city=boston,miami');
    expect(body.data.map((j: { id: string }) => j.id)).toEqual([id(17)]);
    expect(body.data[0].openings).toBe(2);
  });

  it('total counts groups and equals the collapsed count; offset pages the groups', async () => {
    const all = (await f.json('/v1/jobs?collapse=true&limit=200')).body;
    expect(all.total).toBe(LIVE.length - 2);
    expect(all.data.length).toBe(all.total);
    expect((await f.json('/v1/jobs/count?collapse=true')).body.count).toBe(all.total);
    expect((await f.json('/v1/jobs/count?collapse=title,organization')).body.count).toBe(all.total);
    const paged: string[] = [];
    for (let offset = 0; offset < all.total; offset += 4) {
      const p = (await f.json(`/v1/jobs?collapse=true&limit=4&offset=${offset}`)).body;
      expect(p.offset).toBe(offset);
      paged.push(...p.data.map((j: { id: string }) => j.id));
    }
    expect(paged).toEqual(all.data.map((j: { id: string }) => j.id));
    const sum = all.data.reduce((a: number, j: { openings: number }) => a + j.openings, 0);
    expect(sum).toBe(LIVE.length);
  });

  it('collapse with description_format keeps the description', async () => {
    const { body } = await f.json('/v1/jobs?collapse=true&description=patients&description_format=text');
    expect(body.data[0].description).toBe('Care for patients in a busy clinic.');
    expect(body.data[0].openings).toBe(1);
  });
});

describe('total equals /v1/jobs/count', () => {
  for (const qs of [
    '',
    'country=US',
    'remote=true',
    'title=engineer',
    'skill=python',
    'source=nope',
    'has_salary=false&country=US',
    'company_industry=software%20development',
    'organization=northstar&time_frame=30d',
    'exclude_source=jobposter&visa_sponsorship=exclude',
  ]) {
    it(qs || '(no filters)', async () => {
      const search = (await f.json(`/v1/jobs?limit=1${qs ? `&${qs}` : ''}`)).body;
      const count = (await f.json(`/v1/jobs/count${qs ? `?${qs}` : ''}`)).body;
      expect(search.total).toBe(count.count);
      expect((await f.search(qs)).length).toBe(count.count);
      const collapsed = (await f.json(`/v1/jobs?limit=1&collapse=true${qs ? `&${qs}` : ''}`)).body;
      const ccount = (await f.json(`/v1/jobs/count?collapse=true${qs ? `&${qs}` : ''}`)).body;
      expect(collapsed.total).toBe(ccount.count);
    });
  }
});

describe('collapse over groups larger than a walk chunk', () => {
  // 70 openings of one title at one employer (in 70 cities, so none folds as a duplicate), newest
  // first, then two older groups: the page is found only after walking several chunks of matches.
  let t: TestApp;
  const base = Date.parse('2026-06-01T00:00:00Z');
  const rec = (n: number, title: string, company: string, ageMin: number): CanonicalLine => ({
    kind: 'posting',
    id: `greenhouse:big${n}`,
    source: 'greenhouse',
    title,
    company: { name: company },
    url: `https://jobs.example/big/${n}`,
    description_text: `Opening number ${n} for ${title}.`,
    location: { raw: [`Town ${n}, Texas, United States`] },
    posted_at: new Date(base - ageMin * 60_000).toISOString(),
  });
  beforeAll(async () => {
    t = await createTestApp({ sample: false });
    const lines = [
      ...Array.from({ length: 70 }, (_, i) => rec(i, 'Courier', 'Swift Parcel', i)),
      rec(100, 'Dispatcher', 'Swift Parcel', 200),
      rec(101, 'Courier', 'Other Parcel', 300),
      rec(102, 'Courier', 'Other Parcel', 301),
    ];
    const r = await ingestRecords(t.db, lines);
    expect(r.rejected).toEqual([]);
    expect(r.inserted).toBe(73);
  });
  afterAll(async () => {
    await t?.close();
  });
  const json = async (url: string) => JSON.parse((await t.get(url)).body);

  it('pages the groups in order of their newest row, with exact openings', async () => {
    const all = await json('/v1/jobs?collapse=true');
    expect(all.total).toBe(3);
    expect(all.data.map((j: { id: string; openings: number }) => [j.id, j.openings])).toEqual([
      ['greenhouse:big0', 70],
      ['greenhouse:big100', 1],
      ['greenhouse:big101', 2],
    ]);
    const second = await json('/v1/jobs?collapse=true&limit=1&offset=1');
    expect(second.data.map((j: { id: string }) => j.id)).toEqual(['greenhouse:big100']);
    const third = await json('/v1/jobs?collapse=true&limit=1&offset=2');
    expect(third.data.map((j: { id: string }) => j.id)).toEqual(['greenhouse:big101']);
    expect((await json('/v1/jobs?collapse=true&offset=3')).data).toEqual([]);
    // Filters apply to the walk and to the openings alike.
    const courier = await json('/v1/jobs?collapse=true&title=courier&organization=other');
    expect(courier.data.map((j: { openings: number }) => j.openings)).toEqual([2]);
  });
});

describe('pages found by walking the newest rows', () => {
  // 20 bakers (the newest postings) and 80 couriers: a courier page is first looked for among the
  // newest rows (80 % of the postings are couriers), finds none there, and is then found the other way.
  let t: TestApp;
  const base = Date.parse('2026-06-01T00:00:00Z');
  const rec = (n: number, title: string): CanonicalLine => ({
    kind: 'posting',
    id: `lever:walk${String(n).padStart(3, '0')}`,
    source: 'lever',
    title,
    company: { name: `Walk Co ${n}` },
    url: `https://jobs.example/walk/${n}`,
    description_text: `Walk opening ${n}.`,
    location: { raw: ['Denver, Colorado, United States'] },
    posted_at: new Date(base - n * 60_000).toISOString(),
  });
  beforeAll(async () => {
    t = await createTestApp({ sample: false });
    const lines = Array.from({ length: 100 }, (_, n) => rec(n, n < 20 ? 'Baker' : 'Courier'));
    expect((await ingestRecords(t.db, lines)).inserted).toBe(100);
  });
  afterAll(async () => {
    await t?.close();
  });
  const json = async (url: string) => JSON.parse((await t.get(url)).body);
  const couriers = Array.from({ length: 80 }, (_, i) => `lever:walk${String(i + 20).padStart(3, '0')}`);

  it('finds the page when the newest rows hold no match, by offset and by cursor', async () => {
    const all = await json('/v1/jobs?title=courier&limit=200');
    expect(all.data.map((j: { id: string }) => j.id)).toEqual(couriers);
    for (const [offset, limit] of [
      [0, 1],
      [0, 3],
      [5, 3],
      [78, 5],
      [79, 1],
    ]) {
      const page = await json(`/v1/jobs?title=courier&limit=${limit}&offset=${offset}`);
      expect(page.data.map((j: { id: string }) => j.id)).toEqual(couriers.slice(offset, offset + limit));
      expect(page.total).toBe(80);
      expect(page.next_cursor === null).toBe(offset + limit >= 80);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await json(
        `/v1/jobs?title=courier&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      seen.push(...page.data.map((j: { id: string }) => j.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(couriers);
  });

  it('the newest rows serve a page of common matches, also for a filter on them alone', async () => {
    const page = await json('/v1/jobs?limit=2&offset=1');
    expect(page.data.map((j: { id: string }) => j.id)).toEqual(['lever:walk001', 'lever:walk002']);
    const bakers = await json('/v1/jobs?title=baker&limit=4&offset=17');
    expect(bakers.data.map((j: { id: string }) => j.id)).toEqual([
      'lever:walk017',
      'lever:walk018',
      'lever:walk019',
    ]);
    expect(bakers.next_cursor).toBeNull();
  });
});
