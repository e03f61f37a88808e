// Cached totals stay exact: every commit that changes the data bumps the version they are keyed by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { expireDue } from '../../src/ingest/expiry.ts';
import type { JobFilters } from '../../src/search/filters.ts';
import { countJobs } from '../../src/search/jobs.ts';
import { PgTotalsStore, purgeSharedTotals } from '../../src/db/totals-store.ts';
import { TotalsCache } from '../../src/search/totals.ts';
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
  id: `lever:tot-${n}`,
  source: 'lever',
  title: `Analyst ${n}`,
  company: { name: 'Totals Co' },
  url: `https://totals.example/${n}`,
  location: { countries: [country] },
});

describe('totals cache', () => {
  it('serves the same total again and follows every load', async () => {
    const total = async (qs: string) => JSON.parse((await t.get(`/v1/jobs?${qs}`)).body).total as number;
    const count = async (qs: string) =>
      JSON.parse((await t.get(`/v1/jobs/count?${qs}`)).body).count as number;
    expect(await total('country=US')).toBe(2);
    const before = await count('country=US');
    expect(before).toBe(2);
    await ingestRecords(t.db, [posting(1, 'United States'), posting(2, 'Germany')]);
    expect(await total('country=US')).toBe(3);
    expect(await count('country=US')).toBe(3);
    expect(await count('country=DE')).toBe(2);
    await ingestRecords(t.db, [{ ...posting(1, 'United States'), gone: true }]);
    expect(await total('country=US')).toBe(2);
    expect(await count('country=US')).toBe(2);
    // A relative window is never cached.
    expect(await count('country=US&time_frame=3650d')).toBe(2);
  });

  it('follows a load of company profiles alone (company filters and the embedded company change)', async () => {
    const company = (industry: string) => ({
      kind: 'company' as const,
      slug: 'tot-co',
      name: 'Tot Co',
      industry,
    });
    await ingestRecords(t.db, [
      company('Mining'),
      { ...posting(7, 'France'), company: { name: 'Tot Co', slug: 'tot-co' } },
    ]);
    const count = async (qs: string) =>
      JSON.parse((await t.get(`/v1/jobs/count?${qs}`)).body).count as number;
    expect(await count('company_industry=mining')).toBe(1);
    expect(await count('company_industry=fishing')).toBe(0);
    await ingestRecords(t.db, [company('Fishing')]);
    expect(await count('company_industry=mining')).toBe(0);
    expect(await count('company_industry=fishing')).toBe(1);
    const page = JSON.parse((await t.get('/v1/jobs?company_industry=fishing')).body);
    expect(page.data.map((j: { company: { industry: string } }) => j.company.industry)).toEqual(['Fishing']);
  });
});

describe('TotalsCache.resolve', () => {
  it('counts once for concurrent requests of one total, caches it, and retries after a failure', async () => {
    const cache = new TotalsCache();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const count = async () => {
      calls++;
      await gate;
      return { n: 42, version: 7 };
    };
    const waiting = Array.from({ length: 10 }, () => cache.resolve(7, 'k', count));
    release();
    expect(await Promise.all(waiting)).toEqual(Array(10).fill(42));
    expect(calls).toBe(1);
    expect(await cache.resolve(7, 'k', count)).toBe(42);
    expect(calls).toBe(1);

    let failures = 0;
    const failing = async () => {
      failures++;
      throw new Error('canceling statement due to statement timeout');
    };
    const both = [cache.resolve(8, 'k', failing), cache.resolve(8, 'k', failing)];
    for (const p of both) await expect(p).rejects.toThrow(/statement timeout/);
    expect(failures).toBe(1);
    expect(await cache.resolve(8, 'k', async () => ({ n: 5, version: 8 }))).toBe(5);
  });
});

describe('totals brought forward across expiries', () => {
  it('replays expiries and promotions of copies exactly, and counts again after a load', async () => {
    const cache = new TotalsCache();
    const ctx = { pool: t.db.read, cursorSecret: 's', totals: cache };
    const fresh = (f: JobFilters, groups = false) =>
      countJobs({ pool: t.db.read, cursorSecret: 's' }, f, groups);
    // Two countries each (AQ has no jobs): one value of one filter is a kept total, never replayed.
    const us: JobFilters = { country: ['US', 'AQ'] };
    const de: JobFilters = { country: ['DE', 'AQ'] };
    const later = new Date(Date.now() + 3_600_000).toISOString();
    // Distinct titles: postings alike in employer, title and place would fold as duplicates.
    const rec = (id: string, source: string, country: string) => ({
      ...posting(0, country),
      title: `Replay ${id.replace(/c$/, '')}`,
      id: `${source}:${id}`,
      source,
      url: `https://replay.example/${id}`,
      expires_at: later,
    });
    await ingestRecords(t.db, [
      rec('rp1', 'greenhouse', 'United States'),
      rec('rp2', 'lever', 'United States'),
    ]);
    const n0 = await countJobs(ctx, us, false);
    const d0 = await countJobs(ctx, de, false);
    // A copy of rp1 on a job board folds into it: a load, so the totals are counted again.
    await ingestRecords(t.db, [
      { ...rec('rp1', 'greenhouse', 'United States'), id: 'careerboard:rp1c', source: 'careerboard' },
    ]);
    expect(await countJobs(ctx, us, false)).toBe(n0);
    expect(await countJobs(ctx, de, false)).toBe(d0);
    const g0 = await countJobs(ctx, us, true);
    expect(g0).toBe(await fresh(us, true));
    expect(cache.replayed).toBe(0);
    const state = async (id: string) =>
      (await t.db.write.query('SELECT state FROM jobs WHERE id = $1', [id])).rows[0].state;
    expect(await state('careerboard:rp1c')).toBe(2);

    // rp2 expires: the US total loses it, replayed from the log.
    await t.db.write.query("UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'lever:rp2'");
    expect(await expireDue(t.db)).toBe(1);
    expect(await countJobs(ctx, us, false)).toBe(n0 - 1);
    expect(await countJobs(ctx, de, false)).toBe(d0);
    // rp2 was the only posting of its group.
    expect(await countJobs(ctx, us, true)).toBe(g0 - 1);
    expect(cache.replayed).toBe(3);
    // rp1 expires and its copy takes its place: one left, one entered.
    await t.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'greenhouse:rp1'",
    );
    expect(await expireDue(t.db)).toBe(1);
    expect(await state('careerboard:rp1c')).toBe(0);
    expect(await countJobs(ctx, us, false)).toBe(n0 - 1);
    // The copy keeps the group of rp1 alive.
    expect(await countJobs(ctx, us, true)).toBe(g0 - 1);
    expect(cache.replayed).toBe(5);
    expect(await fresh(us)).toBe(n0 - 1);
    expect(await fresh(de)).toBe(d0);
    expect(await fresh(us, true)).toBe(g0 - 1);

    // A load in between: counted again, never replayed.
    await ingestRecords(t.db, [rec('rp3', 'lever', 'United States')]);
    await t.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'careerboard:rp1c'",
    );
    expect(await expireDue(t.db)).toBe(1);
    expect(await countJobs(ctx, us, false)).toBe(n0 - 1);
    expect(await countJobs(ctx, us, true)).toBe(await fresh(us, true));
    expect(cache.replayed).toBe(5);
  });
});

describe('totals shared between processes (PgTotalsStore)', () => {
  const store = () => new PgTotalsStore(t.db.write, 2000);

  it('brings forward a total this process served but never stored (an answer of the match index), not counting it', async () => {
    const cache = new TotalsCache(store());
    const key = `served|${process.pid}`;
    cache.remember(200, key, 40);
    let counted = 0;
    const from: { n: number; version: number }[] = [];
    const n = await cache.resolve(
      201,
      key,
      async () => {
        counted++;
        return { n: 0, version: 201 };
      },
      async (earlier) => {
        from.push(earlier);
        return { n: earlier.n - 1, version: 201 };
      },
    );
    expect(n).toBe(39);
    expect(counted).toBe(0);
    expect(from).toEqual([{ n: 40, version: 200 }]);
    expect(cache.replayed).toBe(1);
  });

  it('counts a total once for every process, and never serves it at another data version', async () => {
    const caches = [new TotalsCache(store()), new TotalsCache(store()), new TotalsCache(store())];
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const count = (n: number, version: number) => async () => {
      calls++;
      await gate;
      return { n, version };
    };
    const waiting = caches.flatMap((c) => [
      c.resolve(100, 'shared|a', count(7, 100)),
      c.resolve(100, 'shared|a', count(7, 100)),
    ]);
    setTimeout(release, 100);
    expect(await Promise.all(waiting)).toEqual(Array(6).fill(7));
    expect(calls).toBe(1);
    expect(caches.reduce((s, c) => s + c.shared, 0)).toBe(2);
    // A process started later finds it in the store.
    const later = new TotalsCache(store());
    expect(await later.resolve(100, 'shared|a', count(99, 100))).toBe(7);
    expect(calls).toBe(1);
    // The next version is counted again (no replay given), by one process.
    const next = await Promise.all(
      caches.map((c) =>
        c.resolve(101, 'shared|a', async () => {
          calls++;
          return { n: 8, version: 101 };
        }),
      ),
    );
    expect(next).toEqual([8, 8, 8]);
    expect(calls).toBe(2);
    // An older version is not served from a newer total, and the newer one is the replay's start.
    let from: unknown;
    expect(
      await later.resolve(102, 'shared|a', count(0, 102), async (f) => {
        from = f;
        return { n: f.n + 1, version: 102 };
      }),
    ).toBe(9);
    expect(from).toEqual({ n: 8, version: 101 });
  });

  it('a failed count gives up its claim: the process waiting for it counts itself', async () => {
    const [a, b] = [new TotalsCache(store()), new TotalsCache(store())];
    let started!: () => void;
    const claimed = new Promise<void>((r) => {
      started = r;
    });
    const failing = a.resolve(5, 'shared|b', async () => {
      started();
      await new Promise((r) => setTimeout(r, 100));
      throw new Error('canceling statement due to statement timeout');
    });
    await claimed;
    const other = b.resolve(5, 'shared|b', async () => ({ n: 3, version: 5 }));
    await expect(failing).rejects.toThrow(/statement timeout/);
    expect(await other).toBe(3);
    expect(await new TotalsCache(store()).resolve(5, 'shared|b', async () => ({ n: -1, version: 5 }))).toBe(
      3,
    );
  });

  it('the service stores each total it counts in the shared table, under the data version counted', async () => {
    await t.db.write.query('DELETE FROM shared_totals');
    const res = await t.get('/v1/jobs/count?country=DE&remote=true');
    const { rows } = await t.db.write.query(
      'SELECT n::int, version::int, (SELECT version::int FROM data_version) AS current FROM shared_totals',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].n).toBe(res.json().count);
    expect(rows[0].version).toBe(rows[0].current);
  });

  it('the purge drops totals of earlier versions older than the replay log, and any a day old', async () => {
    await t.db.write.query('DELETE FROM shared_totals');
    const { rows } = await t.db.write.query('SELECT version::int AS v FROM data_version');
    const v = rows[0].v;
    await t.db.write.query(
      `INSERT INTO shared_totals (key, version, n, at) VALUES
         ('\\x01', $1, 1, now() - interval '2 hours'),   -- current version: kept
         ('\\x02', $1 - 1, 2, now() - interval '2 hours'), -- earlier version, past the replay log: dropped
         ('\\x03', $1 - 1, 3, now() - interval '10 minutes'), -- earlier version, recent: kept
         ('\\x04', $1, 4, now() - interval '25 hours')   -- a day old: dropped`,
      [v],
    );
    expect(await purgeSharedTotals(t.db.write)).toBe(2);
    const left = await t.db.write.query('SELECT n::int FROM shared_totals ORDER BY n');
    expect(left.rows.map((r) => r.n)).toEqual([1, 3]);
  });
});
