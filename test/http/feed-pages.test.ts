// Feed pages kept and read ahead. Kept: the same page asked again at the same data version is answered
// from memory, and a window relative to the clock only while its start has not passed the page's first
// item. Read-ahead: a client that follows its cursors gets the next page read while it reads this one,
// the pages are exactly those of a feed read on demand, and a change between two pages discards the page
// read ahead. The two pages after a page are read at the same time: the second's cursor comes from the
// feed's index, and is always the first's next_cursor. Reads from a replica have no read-ahead (the visible data version is not known there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import client from 'prom-client';
import { feedPageSize, fits, readAheadStats, readFeedPage } from '../../src/search/feed-pages.ts';
import { type FeedPage, type FeedRequest, readFeed, readNextCursor } from '../../src/search/feeds.ts';
import { PageCache } from '../../src/search/page-cache.ts';
import type { TestApp } from '../helpers/app.ts';
import { getJson, lifecycleApp, posting } from '../lifecycle/helpers.ts';

let t: TestApp;
const N = 450;
const id = (i: number) => `greenhouse:r${String(i).padStart(3, '0')}`;
beforeAll(async () => {
  t = await lifecycleApp();
  // One batch: every row shares one feed timestamp, so the pages are cut by the id tie-breaker.
  await ingestRecords(
    t.db,
    Array.from({ length: N }, (_, i) => posting('greenhouse', `r${String(i).padStart(3, '0')}`)),
  );
});
afterAll(async () => {
  await t?.close();
});

const FIRST = '/v1/jobs/feed?since=3650d&limit=100';
const next = (cursor: string) => `${FIRST}&cursor=${encodeURIComponent(cursor)}`;

/** A new data version (a posting at the feed's end): the pages kept so far are no longer served. */
let added = 0;
const newVersion = () => ingestRecords(t.db, [posting('greenhouse', `v${added++}`)]);

async function page(url: string): Promise<{ ids: string[]; cursor: string | null }> {
  const r = await getJson(t, url);
  expect(r.status, `${url} ${JSON.stringify(r.body)}`).toBe(200);
  return { ids: r.body.data.map((j: { id: string }) => j.id), cursor: r.body.next_cursor };
}

describe('feed read-ahead', () => {
  it('serves a client that follows its cursors the same pages, from the third page on read ahead', async () => {
    const served = readAheadStats.served;
    const ids: string[] = [];
    let url: string | null = FIRST;
    let pages = 0;
    while (url) {
      const p = await page(url);
      ids.push(...p.ids);
      pages++;
      url = p.cursor ? next(p.cursor) : null;
    }
    expect(pages).toBe(5);
    expect(ids).toEqual(Array.from({ length: N }, (_, i) => id(i)));
    // Page 2 shows the client came back; pages 3, 4 and 5 were read while it read the page before.
    expect(readAheadStats.served - served).toBe(t.db.readIsPrimary ? 3 : 0);
  });

  it('keeps two pages ready for a client slower than the reads', async () => {
    await newVersion();
    const { started, served } = readAheadStats;
    const p1 = await page(FIRST);
    const p2 = await page(next(p1.cursor!));
    if (!t.db.readIsPrimary) {
      // No read-ahead on a replica: its visible data version is not known.
      await new Promise((r) => setTimeout(r, 200));
      expect(readAheadStats.started - started).toBe(0);
      return;
    }
    // The client pauses: pages 3 and 4 are read, and no further (two pages per process).
    for (let i = 0; i < 100 && readAheadStats.started - started < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    expect(readAheadStats.started - started).toBe(2);
    const p3 = await page(next(p2.cursor!));
    const p4 = await page(next(p3.cursor!));
    expect([...p3.ids, ...p4.ids]).toEqual(Array.from({ length: 200 }, (_, i) => id(200 + i)));
    expect(readAheadStats.served - served).toBe(2);
  });

  it('discards a page read ahead when the data changed after it was read', async () => {
    await newVersion();
    const started = readAheadStats.started;
    const p1 = await page(FIRST);
    const p2 = await page(next(p1.cursor!));
    // Pages 3 and 4 are now read ahead (pages of earlier versions gave way); one row of page 3 ends (a
    // new data version).
    if (t.db.readIsPrimary)
      for (let i = 0; i < 100 && readAheadStats.started - started < 2; i++)
        await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const discarded = readAheadStats.discarded;
    const ending = id(250);
    await ingestRecords(t.db, [posting('greenhouse', 'r250', { gone: true })]);
    const p3 = await page(next(p2.cursor!));
    expect(p3.ids).not.toContain(ending);
    expect(p3.ids).toEqual(Array.from({ length: 101 }, (_, i) => id(200 + i)).filter((x) => x !== ending));
    // Page 3 is not served, and page 4 gives way to its read at the new version.
    expect(readAheadStats.discarded - discarded).toBe(t.db.readIsPrimary ? 2 : 0);
  });

  it('the cursor read from the index is the next_cursor of the page, in every feed, to its end', async () => {
    for (const kind of ['feed', 'modified', 'expired'] as const) {
      const { rows } = await t.db.read.query<{ n: number }>(
        kind === 'feed'
          ? 'SELECT count(*)::int AS n FROM jobs WHERE state = 0'
          : kind === 'modified'
            ? 'SELECT count(*)::int AS n FROM jobs WHERE state = 0 AND modified_at IS NOT NULL'
            : 'SELECT count(*)::int AS n FROM jobs WHERE state <> 0 AND expired_at IS NOT NULL',
      );
      // Sizes that end the feed on a full page, one past it, and short of it.
      for (const limit of [1, 7, 100, Math.max(1, rows[0].n), rows[0].n + 1]) {
        let req: FeedRequest | undefined = { kind, start: { ms: 3650 * 86_400_000 }, limit };
        let pages = 0;
        while (req) {
          const cursor = await readNextCursor(t.db.read, 'secret', req);
          const p = await readFeed(t.db.read, 'secret', req);
          expect(cursor, `${kind} limit ${limit} page ${pages}`).toBe(p.nextCursor);
          req = p.nextCursor ? { ...req, cursor: p.nextCursor } : undefined;
          pages++;
        }
        expect(pages).toBe(Math.max(1, Math.ceil(rows[0].n / limit)));
      }
    }
  });
});

async function feedLookups(): Promise<{ hit: number; miss: number }> {
  const { values } = await client.register.getSingleMetric('page_cache_lookups_total')!.get();
  const of = (result: string) =>
    values.find((v) => v.labels.pages === 'feed' && v.labels.result === result)?.value ?? 0;
  return { hit: of('hit'), miss: of('miss') };
}

describe('kept feed pages', () => {
  it('answers the same page asked again from memory, byte for byte, until the data changes', async () => {
    const url = '/v1/jobs/feed?since=3650d&limit=50';
    const before = await feedLookups();
    const first = await t.get(url);
    const again = await t.get(url);
    expect(first.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    const after = await feedLookups();
    const kept = t.db.readIsPrimary;
    expect(after.hit - before.hit).toBe(kept ? 1 : 0);
    expect(after.miss - before.miss).toBe(kept ? 1 : 0);

    // A new posting (a new data version) is on the last page: it is read again, not kept.
    const whole = '/v1/jobs/feed?since=3650d&limit=1000';
    const old = await getJson(t, whole);
    await ingestRecords(t.db, [posting('greenhouse', 'r999')]);
    const now = await getJson(t, whole);
    expect(now.body.data.map((j: { id: string }) => j.id)).toEqual([
      ...old.body.data.map((j: { id: string }) => j.id),
      id(999),
    ]);
  });

  it('reads no page ahead that another request already kept', async () => {
    await newVersion();
    const walk = async () => {
      const ids: string[] = [];
      for (let url: string | null = FIRST; url; ) {
        const p = await page(url);
        ids.push(...p.ids);
        url = p.cursor ? next(p.cursor) : null;
      }
      return ids;
    };
    const started = readAheadStats.started;
    const first = await walk();
    expect(readAheadStats.started - started).toBe(t.db.readIsPrimary ? 3 : 0);
    // A second client on the same pages finds each of them kept: nothing is read ahead for it.
    const again = readAheadStats.started;
    expect(await walk()).toEqual(first);
    expect(readAheadStats.started - again).toBe(0);
  });

  it('does not answer a window relative to the clock once its start has passed the first item', async () => {
    // A window starting 2 s before the newest row's feed timestamp: it holds that row, and maybe others.
    const { rows } = await t.db.read.query<{ at: number; version: string }>(
      `SELECT extract(epoch FROM max(created_at)) * 1000 AS at, (SELECT version FROM data_version WHERE id = 1) AS version
       FROM jobs WHERE state = 0`,
    );
    const version = Number(rows[0].version);
    const kept = new PageCache<FeedPage>(2 ** 24, feedPageSize);
    const req: FeedRequest = {
      kind: 'feed',
      start: { ms: Date.now() - Number(rows[0].at) + 2000 },
      limit: 10,
    };
    const read = () => readFeedPage(t.db.read, 'secret', req, version, kept);
    const first = await read();
    expect(first.count).toBeGreaterThan(0);
    expect(first.slackMs).toBeGreaterThanOrEqual(0);
    expect(first.slackMs).toBeLessThanOrEqual(2000);
    expect(fits(req, first, first.readAt + first.slackMs!)).toBe(true);
    expect(fits(req, first, first.readAt + first.slackMs! + 1)).toBe(false);
    // An absolute window never moves.
    expect(fits({ ...req, start: { instant: '2020-01-01T00:00:00Z' } }, first, Date.now() + 1e9)).toBe(true);
    // Past the slack the first item has left the window: the page is read again, without it.
    await new Promise((r) => setTimeout(r, first.slackMs! + 50));
    const later = await read();
    const ids = (p: FeedPage) => (JSON.parse(p.data.toString()) as { id: string }[]).map((j) => j.id);
    expect(ids(later)).not.toContain(ids(first)[0]);
    expect(kept.hits).toBe(0);
    expect(kept.misses).toBe(2);
  });
});

describe('feed read-ahead from the index', () => {
  it('reads the next two pages at the same time, the second from the cursor the index gives', async () => {
    // Enough rows for six pages of 100.
    await ingestRecords(
      t.db,
      Array.from({ length: 200 }, (_, i) => posting('greenhouse', `s${String(i).padStart(3, '0')}`)),
    );
    const all = async () => {
      const ids: string[] = [];
      let req: FeedRequest | undefined = { kind: 'feed', start: { ms: 3650 * 86_400_000 }, limit: 100 };
      while (req) {
        const p = await readFeed(t.db.read, 'test-secret', req);
        ids.push(...(JSON.parse(p.data.toString()) as { id: string }[]).map((j) => j.id));
        req = p.nextCursor ? { ...req, cursor: p.nextCursor } : undefined;
      }
      return ids;
    };
    const expected = (await all()).slice(200, 600);
    const { started, served } = readAheadStats;
    const p1 = await page(FIRST);
    const p2 = await page(next(p1.cursor!));
    if (!t.db.readIsPrimary) return; // no read-ahead on a replica (above)
    // Pages 3 and 4 are read ahead (a page of 100 takes milliseconds: they are read well within the wait).
    for (let i = 0; i < 100 && readAheadStats.started - started < 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    // Then every page read waits in PostgreSQL, for the companies it joins are locked; the cursors the
    // index gives do not.
    const lock = await t.db.write.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE companies IN ACCESS EXCLUSIVE MODE');
      const p3 = await page(next(p2.cursor!));
      const p4 = await page(next(p3.cursor!));
      // Page 5 waits; page 6 was started all the same: its cursor came from the index, not from page 5.
      for (let i = 0; i < 200 && readAheadStats.started - started < 4; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(readAheadStats.started - started).toBe(4);
      await lock.query('COMMIT');
      const p5 = await page(next(p4.cursor!));
      const p6 = await page(next(p5.cursor!));
      expect([...p3.ids, ...p4.ids, ...p5.ids, ...p6.ids]).toEqual(expected);
      expect(readAheadStats.served - served).toBe(4);
    } finally {
      await lock.query('ROLLBACK').catch(() => {});
      lock.release();
    }
  });
});
