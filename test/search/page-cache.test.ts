// Kept search pages: asked again, a page comes from the cache; after any commit that changes the data
// it is read again; a page is kept under the version of the snapshot it was read in.
import client from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDue } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { PageCache } from '../../src/search/page-cache.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const posting = (n: number, country: string) => ({
  kind: 'posting' as const,
  id: `lever:pc-${n}`,
  source: 'lever',
  title: `Cartographer ${n}`,
  company: { name: 'Page Co', slug: 'page-co' },
  url: `https://pages.example/${n}`,
  location: { countries: [country] },
});

async function lookups(): Promise<{ hit: number; miss: number; carried: number }> {
  const metric = client.register.getSingleMetric('page_cache_lookups_total');
  const { values } = await metric!.get();
  const of = (result: string) =>
    values.find((v) => v.labels.pages === 'search' && v.labels.result === result)?.value ?? 0;
  return { hit: of('hit'), miss: of('miss'), carried: of('carried') };
}

const page = async (qs: string) => {
  const res = await t.get(`/v1/jobs?${qs}`);
  expect(res.statusCode).toBe(200);
  return { body: res.body, json: JSON.parse(res.body) as { total: number; data: { id: string }[] } };
};

describe('kept search pages', () => {
  it('answer a request asked again, and never outlive a load, an expiry or a changed profile', async () => {
    const qs = 'title=cartographer&limit=5';
    const first = await page(qs);
    expect(first.json.total).toBe(0);
    const before = await lookups();
    expect((await page(qs)).body).toBe(first.body);
    expect((await lookups()).hit).toBe(before.hit + 1);

    await ingestRecords(t.db, [
      { kind: 'company', slug: 'page-co', name: 'Page Co', industry: 'Mining' },
      posting(1, 'France'),
      posting(2, 'Germany'),
    ]);
    const loaded = await page(qs);
    expect(loaded.json.total).toBe(2);
    expect(loaded.json.data.map((j) => j.id).sort()).toEqual(['lever:pc-1', 'lever:pc-2']);
    const again = await lookups();
    expect((await page(qs)).body).toBe(loaded.body);
    expect((await lookups()).hit).toBe(again.hit + 1);

    // A profile loaded alone changes the company inside every job.
    await ingestRecords(t.db, [{ kind: 'company', slug: 'page-co', name: 'Page Co', industry: 'Fishing' }]);
    const industries = (await page(qs)).json.data.map(
      (j) => (j as unknown as { company: { industry: string } }).company.industry,
    );
    expect(industries).toEqual(['Fishing', 'Fishing']);

    await t.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'lever:pc-1'",
    );
    expect(await expireDue(t.db)).toBe(1);
    const expired = await page(qs);
    expect(expired.json.total).toBe(1);
    expect(expired.json.data.map((j) => j.id)).toEqual(['lever:pc-2']);
  });

  it('carry a page over an expiry that no job of it, nor any that left or entered, matches', async () => {
    await ingestRecords(t.db, [
      { ...posting(11, 'Spain'), title: 'Surveyor 11' },
      { ...posting(12, 'Spain'), title: 'Surveyor 12' },
      { ...posting(13, 'Italy'), title: 'Surveyor 13' },
    ]);
    const spain = 'title=surveyor&country=ES&limit=5';
    const italy = 'title=surveyor&country=IT&limit=5';
    const pages = { spain: await page(spain), italy: await page(italy) };
    expect(pages.spain.json.total).toBe(2);
    expect(pages.italy.json.total).toBe(1);
    await t.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'lever:pc-11'",
    );
    expect(await expireDue(t.db)).toBe(1);
    // Italy's page holds no job that left: the same page, carried. Spain's held one: searched again.
    const before = await lookups();
    expect((await page(italy)).body).toBe(pages.italy.body);
    const after = await lookups();
    expect(after.carried).toBe(before.carried + 1);
    const spainNow = await page(spain);
    expect(spainNow.json.total).toBe(1);
    expect(spainNow.json.data.map((j) => j.id)).toEqual(['lever:pc-12']);
    expect((await lookups()).carried).toBe(after.carried);
    // Carried, the page is kept at the new version: asked again, a hit.
    const again = await lookups();
    expect((await page(italy)).body).toBe(pages.italy.body);
    expect((await lookups()).hit).toBe(again.hit + 1);
  });

  it('never keeps a page of a window relative to the clock', async () => {
    const qs = 'title=cartographer&time_frame=30d';
    await page(qs);
    const before = await lookups();
    await page(qs);
    await page(qs);
    expect(await lookups()).toEqual(before);
  });

  it('keeps collapsed pages and cursor pages apart from flat pages of the same filters', async () => {
    const flat = await page('country=US&limit=1');
    const collapsed = await page('country=US&limit=1&collapse=true');
    expect(collapsed.body).not.toBe(flat.body);
    expect(collapsed.body).toContain('"collapsed":true');
    const cursor = (flat.json as unknown as { next_cursor: string }).next_cursor;
    const next = await page(`country=US&limit=1&cursor=${encodeURIComponent(cursor)}`);
    expect(next.json.data.map((j) => j.id)).not.toEqual(flat.json.data.map((j) => j.id));
    expect((await page('country=US&limit=1')).body).toBe(flat.body);
    expect((await page(`country=US&limit=1&cursor=${encodeURIComponent(cursor)}`)).body).toBe(next.body);
  });
});

describe('PageCache', () => {
  const sized = (s: string) => 2 * s.length;

  it('keeps a value under the version its snapshot read, not the version it was asked at', async () => {
    const cache = new PageCache<string>(1 << 20, sized);
    let calls = 0;
    const compute = (version: number, value: string) => async () => {
      calls++;
      return { version, value };
    };
    // Asked at 7, read at 8 (a commit came in between): kept under 8 only.
    expect(await cache.resolve(7, 'k', compute(8, 'eight'))).toBe('eight');
    expect(await cache.resolve(8, 'k', compute(8, 'never'))).toBe('eight');
    expect(calls).toBe(1);
    expect(await cache.resolve(7, 'k', compute(7, 'seven'))).toBe('seven');
    expect(calls).toBe(2);
    expect(await cache.resolve(9, 'k', compute(9, 'nine'))).toBe('nine');
    expect(calls).toBe(3);
  });

  it('computes once for concurrent misses, and keeps nothing of a failure', async () => {
    const cache = new PageCache<string>(1 << 20, sized);
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = async () => {
      calls++;
      await gate;
      return { version: 1, value: 'v' };
    };
    const waiting = Array.from({ length: 5 }, () => cache.resolve(1, 'k', slow));
    release();
    expect(await Promise.all(waiting)).toEqual(Array(5).fill('v'));
    expect(calls).toBe(1);

    const failing = async (): Promise<{ version: number; value: string }> => {
      throw new Error('canceling statement due to statement timeout');
    };
    await expect(cache.resolve(2, 'k', failing)).rejects.toThrow(/timeout/);
    expect(await cache.resolve(2, 'k', async () => ({ version: 2, value: 'w' }))).toBe('w');
  });

  it('holds at most its budget, dropping the least recently used first', async () => {
    // 2 bytes a character: each value of 100 characters with its key takes a little over 200 bytes.
    const cache = new PageCache<string>(2000, sized);
    const put = (key: string) => cache.resolve(1, key, async () => ({ version: 1, value: 'x'.repeat(100) }));
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) await put(k);
    expect(cache.size).toBeLessThanOrEqual(2000);
    // 'a' is used again, so 'b' is the oldest and goes when 'j' arrives.
    const hits = cache.hits;
    await put('a');
    expect(cache.hits).toBe(hits + 1);
    await put('j');
    expect(cache.size).toBeLessThanOrEqual(2000);
    await put('a');
    expect(cache.hits).toBe(hits + 2);
    const misses = cache.misses;
    await put('b');
    expect(cache.misses).toBe(misses + 1);
    // A value over an eighth of the budget is returned but not kept.
    const big = 'y'.repeat(200);
    expect(await cache.resolve(1, 'big', async () => ({ version: 1, value: big }))).toBe(big);
    await cache.resolve(1, 'big', async () => ({ version: 1, value: big }));
    expect(cache.misses).toBe(misses + 3);
  });
});
