// /v1/jobs/facets, /v1/jobs/salary and /v1/jobs/trends over HTTP: the filters and validation of /v1/jobs,
// the agreed shapes (checked against /openapi.json by the fixture's app), the total of /v1/jobs, a trend
// series that agrees with the feeds row for row, and a 400 naming the parameter for every bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIMENSION_NAMES } from '../../src/search/dimensions.ts';
import { createJobsFixture, expect400, type Fixture, LIVE } from '../helpers/jobs-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await createJobsFixture();
});
afterAll(async () => {
  await f?.close();
});

const DAY = 86_400_000;

describe('facets', () => {
  it('answers every dimension, in the order asked, with the total of /v1/jobs', async () => {
    const all = DIMENSION_NAMES.join(',');
    const res = await f.json(`/v1/jobs/facets?facets=${all}&facet_limit=100`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['total', 'facets']);
    expect(res.body.total).toBe(LIVE.length);
    expect(Object.keys(res.body.facets)).toEqual([...DIMENSION_NAMES]);
    const remote = res.body.facets.remote;
    expect(remote.missing).toBe(0);
    expect(remote.values.map((v: { value: unknown }) => typeof v.value)).toEqual(
      remote.values.map(() => 'boolean'),
    );
    expect(remote.values.reduce((s: number, v: { count: number }) => s + v.count, 0)).toBe(LIVE.length);
    for (const v of res.body.facets.company.values) expect(typeof v.name).toBe('string');
  });

  it('sorts by count then value, keeps the top facet_limit, and counts groups with collapse', async () => {
    for (const qs of ['', '&remote=false', '&country=US,DE', '&collapse=true']) {
      const res = await f.json(`/v1/jobs/facets?facets=country,skills,company&facet_limit=2${qs}`);
      const search = await f.json(`/v1/jobs?limit=1${qs}`);
      expect(res.body.total).toBe(search.body.total);
      for (const facet of Object.values(res.body.facets) as {
        values: { value: string; count: number }[];
        distinct: number;
      }[]) {
        expect(facet.values.length).toBe(Math.min(2, facet.distinct));
        const [a, b] = facet.values;
        if (a && b) expect(a.count > b.count || (a.count === b.count && a.value < b.value)).toBe(true);
      }
    }
  });

  it('a value count is the count of /v1/jobs/count with that value', async () => {
    const res = await f.json('/v1/jobs/facets?facets=country,seniority&facet_limit=3');
    for (const v of res.body.facets.country.values) {
      const n = await f.json(`/v1/jobs/count?country=${v.value}`);
      expect(n.body.count).toBe(v.count);
    }
    for (const v of res.body.facets.seniority.values) {
      const n = await f.json(`/v1/jobs/count?seniority=${encodeURIComponent(v.value)}`);
      expect(n.body.count).toBe(v.count);
    }
  });

  it('refuses bad input with a 400 naming the parameter', async () => {
    await expect400(f, '/v1/jobs/facets', 'facets');
    const bad = await expect400(f, '/v1/jobs/facets?facets=country,planet', 'facets');
    for (const name of DIMENSION_NAMES) expect(bad.hint).toContain(name);
    await expect400(f, '/v1/jobs/facets?facets=country,country', 'facets');
    await expect400(f, '/v1/jobs/facets?facets=country&facet_limit=0', 'facet_limit');
    await expect400(f, '/v1/jobs/facets?facets=country&facet_limit=101', 'facet_limit');
    await expect400(f, '/v1/jobs/facets?facets=country&country=XX', 'country');
    await expect400(f, '/v1/jobs/facets?facets=country&limit=10', 'limit');
    await expect400(f, '/v1/jobs/facets?facets=country&collapse=yes', 'collapse');
  });
});

describe('salary', () => {
  it('distributes the annualised midpoints per currency', async () => {
    const res = await f.json('/v1/jobs/salary');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['total', 'with_salary', 'currencies']);
    expect(res.body.total).toBe(LIVE.length);
    const withSalary = await f.json('/v1/jobs/count?has_salary=true');
    expect(res.body.with_salary).toBe(withSalary.body.count);
    expect(res.body.currencies.length).toBeGreaterThan(0);
    for (const c of res.body.currencies) {
      const n = await f.json(`/v1/jobs/count?has_salary=true&salary_currency=${c.currency}`);
      expect(c.count).toBe(n.body.count);
      expect(c.min <= c.p10 && c.p10 <= c.p25 && c.p25 <= c.median && c.median <= c.p75).toBe(true);
      expect(c.p75 <= c.p90 && c.p90 <= c.max).toBe(true);
      expect(c.histogram.reduce((s: number, b: { count: number }) => s + b.count, 0)).toBe(c.count);
    }
  });

  it('takes given edges, with an open last bucket', async () => {
    const res = await f.json('/v1/jobs/salary?salary_buckets=50000,100000');
    for (const c of res.body.currencies) {
      expect(c.histogram.map((b: { from: number; to: number | null }) => [b.from, b.to])).toEqual([
        [0, 50000],
        [50000, 100000],
        [100000, null],
      ]);
    }
  });

  it('refuses bad edges and unknown parameters', async () => {
    await expect400(f, '/v1/jobs/salary?salary_buckets=100,50', 'salary_buckets');
    await expect400(f, '/v1/jobs/salary?salary_buckets=100,100', 'salary_buckets');
    await expect400(f, '/v1/jobs/salary?salary_buckets=-5', 'salary_buckets');
    await expect400(f, '/v1/jobs/salary?salary_buckets=1,,2', 'salary_buckets');
    await expect400(f, '/v1/jobs/salary?facets=country', 'facets');
  });
});

describe('trends', () => {
  /** How many items a feed lists from `start` to its end. */
  async function feedCount(feed: string, param: string, start: string): Promise<number> {
    let n = 0;
    let url = `/v1/jobs/${feed}?${param}=${encodeURIComponent(start)}&limit=1000`;
    for (;;) {
      const res = await f.json(url);
      n += res.body.count;
      if (!res.body.next_cursor) return n;
      url = `/v1/jobs/${feed}?${param}=${encodeURIComponent(start)}&limit=1000&cursor=${res.body.next_cursor}`;
    }
  }

  it('agrees with the feeds row for row', async () => {
    const since = new Date(Math.floor(f.now / DAY) * DAY - 2 * DAY).toISOString();
    const until = new Date(Math.floor(f.now / DAY) * DAY + 3 * DAY).toISOString();
    const res = await f.json(`/v1/jobs/trends?since=${since}&until=${until}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['interval', 'since', 'until', 'series']);
    expect(res.body).toMatchObject({ interval: 'day', since, until });
    const series = res.body.series as { start: string; added: number; expired: number; live: number }[];
    expect(series.length).toBe(5);
    const ends = [...series.slice(1).map((p) => p.start), until];
    for (const [i, p] of series.entries()) {
      expect(p.start).toBe(new Date(Date.parse(since) + i * DAY).toISOString());
      expect(p.added).toBe(
        (await feedCount('feed', 'created_gte', p.start)) -
          (await feedCount('feed', 'created_gte', ends[i]!)),
      );
      expect(p.expired).toBe(
        (await feedCount('expired', 'expired_gte', p.start)) -
          (await feedCount('expired', 'expired_gte', ends[i]!)),
      );
    }
    // Everything was indexed today: live at the end of today and after is what is live now.
    expect(series.reduce((s, p) => s + p.added, 0)).toBe(LIVE.length);
    expect(series[series.length - 1]!.live).toBe(LIVE.length);
    expect(series[0]!.live).toBe(0);
  });

  it('defaults to the 90 days before now, and takes weeks', async () => {
    const res = await f.json('/v1/jobs/trends');
    expect(Date.parse(res.body.until) - Date.parse(res.body.since)).toBe(90 * DAY);
    expect(res.body.series.length).toBe(90);
    const weeks = await f.json('/v1/jobs/trends?since=2026-01-01&until=2026-03-01&interval=week');
    expect(weeks.body.series.map((p: { start: string }) => p.start.slice(0, 10))).toEqual([
      '2026-01-01',
      '2026-01-08',
      '2026-01-15',
      '2026-01-22',
      '2026-01-29',
      '2026-02-05',
      '2026-02-12',
      '2026-02-19',
      '2026-02-26',
    ]);
  });

  it('refuses reversed, empty and over-long windows', async () => {
    await expect400(f, '/v1/jobs/trends?since=2026-03-01&until=2026-02-01', 'since');
    await expect400(f, '/v1/jobs/trends?since=2026-03-01&until=2026-03-01', 'since');
    await expect400(f, '/v1/jobs/trends?since=2025-01-01&until=2026-01-02', 'since');
    await expect400(f, '/v1/jobs/trends?since=2025-13-01', 'since');
    await expect400(f, '/v1/jobs/trends?until=tomorrow', 'until');
    await expect400(f, '/v1/jobs/trends?interval=month', 'interval');
    await expect400(f, '/v1/jobs/trends?since=24h', 'since');
    const ok = await f.json('/v1/jobs/trends?since=2025-01-01&until=2026-01-01');
    expect(ok.status).toBe(200);
    expect(ok.body.series.length).toBe(365);
  });
});
