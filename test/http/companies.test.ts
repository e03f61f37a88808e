// /v1/companies and /v1/companies/{slug} on the hand-made fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalLine } from '../../src/model/record.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { bumpDataVersion } from '../../src/db/feed-clock.ts';
import { runRefresh } from '../../src/service/schedules.ts';
import { SIZE_BUCKETS } from '../../src/enums.ts';
import {
  COMPANIES,
  COMPANY_ORDER,
  createJobsFixture,
  expect400,
  type Fixture,
} from '../helpers/jobs-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await createJobsFixture();
});
afterAll(async () => {
  await f?.close();
});

const q = (v: string) => encodeURIComponent(v);

async function slugs(qs: string): Promise<string[]> {
  const { status, body } = await f.json(`/v1/companies?limit=200${qs ? `&${qs}` : ''}`);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.total).toBe(body.data.length);
  return body.data.map((c: { slug: string }) => c.slug);
}
/** The expected slugs in the fixed sort order. */
const ordered = (...s: string[]) => COMPANY_ORDER.filter((x) => s.includes(x));

describe('GET /v1/companies filters (exact slugs, fixed order)', () => {
  const cases: [string, string[]][] = [
    ['', COMPANY_ORDER],
    ['q=labs', ['gamma-labs']],
    ['q=E', COMPANY_ORDER.filter((s) => /e/i.test(COMPANIES.find((c) => c.slug === s)!.name))],
    [`q=${q('acme cl')}`, ['acme-cloud']],
    ['q=ACME', ['acme-cloud']],
    ['q=%25', []],
    ['q=_', []],
    ['q=zzz', []],
    [`industry=${q('software development')}`, ['acme-cloud', 'blue-fjord']],
    [`industry=${q('SOFTWARE DEVELOPMENT')}`, ['acme-cloud', 'blue-fjord']],
    [`industry=${q('Retail,manufacturing')}`, ['delta-motors', 'hollow']],
    ['industry=software', []],
    ['country=US', ['acme-cloud', 'fern-finance']],
    ['country=us', ['acme-cloud', 'fern-finance']],
    [`country=${q('United States')}`, ['acme-cloud', 'fern-finance']],
    [`country=${q('Germany,NO,gb')}`, ['cedar-health', 'blue-fjord', 'delta-motors']],
    ['country=JP', []],
    [`size=${q('51-200 employees')}`, ['echo-media', 'fern-finance']],
    [`size=${q('1-10 employees,10001+ employees')}`, ['gamma-labs', 'delta-motors']],
    ['employee_count_gte=5000', ['acme-cloud', 'delta-motors']],
    ['employee_count_gte=0', COMPANY_ORDER],
    ['employee_count_lt=150', ['gamma-labs', 'blue-fjord']],
    ['employee_count_lt=151', ['gamma-labs', 'blue-fjord', 'echo-media', 'fern-finance']],
    ['employee_count_gte=150&employee_count_lt=800', ['echo-media', 'fern-finance', 'hollow']],
    [
      'has_jobs=true',
      ordered('acme-cloud', 'blue-fjord', 'cedar-health', 'delta-motors', 'echo-media', 'fern-finance'),
    ],
    ['has_jobs=false', ['gamma-labs', 'hollow']],
    ['has_jobs=true&industry=software%20development', ['acme-cloud', 'blue-fjord']],
    ['has_jobs=false&country=CA', ['gamma-labs']],
  ];
  for (const [qs, want] of cases) {
    it(qs || '(no parameters)', async () => {
      expect(await slugs(qs)).toEqual(want);
    });
  }

  it('the sort: remco first, then followers descending, then slug on ties', async () => {
    const { body } = await f.json('/v1/companies');
    const rows = body.data as { slug: string; data_tier: string; followers: number }[];
    expect(rows.map((c) => c.slug)).toEqual(COMPANY_ORDER);
    // acme and blue-fjord tie on followers but differ in tier; echo and fern tie on both.
    expect(rows.map((c) => [c.data_tier, c.followers])).toEqual([
      ['remco', 10000],
      ['remco', 3000],
      ['remco', 100],
      ['basic', 10000],
      ['basic', 3000],
      ['basic', 500],
      ['basic', 500],
      ['basic', 50],
    ]);
    expect(body).toMatchObject({ total: 8, limit: 50, offset: 0 });
    expect('next_cursor' in body).toBe(false);
  });

  it('offset and limit page the fixed order', async () => {
    const paged: string[] = [];
    for (let offset = 0; offset < 8; offset += 3) {
      const { body } = await f.json(`/v1/companies?limit=3&offset=${offset}`);
      expect(body).toMatchObject({ total: 8, limit: 3, offset });
      paged.push(...body.data.map((c: { slug: string }) => c.slug));
    }
    expect(paged).toEqual(COMPANY_ORDER);
    const past = (await f.json('/v1/companies?offset=100000')).body;
    expect(past).toEqual({ data: [], total: 8, limit: 50, offset: 100000 });
  });

  // Fragments shorter than a trigram and longer ones take different scans; both page the same order.
  for (const frag of ['e', 'ac', 'acm', 'OUD']) {
    it(`offset and limit page a name match (q=${frag})`, async () => {
      const all = await slugs(`q=${frag}`);
      expect(all.length).toBeGreaterThan(0);
      const paged: string[] = [];
      for (let offset = 0; offset < all.length + 2; offset += 2) {
        const { body } = await f.json(`/v1/companies?q=${frag}&limit=2&offset=${offset}`);
        expect(body).toMatchObject({ total: all.length, limit: 2, offset });
        paged.push(...body.data.map((c: { slug: string }) => c.slug));
      }
      expect(paged).toEqual(all);
    });
  }

  it('jobs_count counts live jobs only: expired and folded duplicates do not count', async () => {
    const { body } = await f.json('/v1/companies?limit=200');
    const counts = Object.fromEntries(
      body.data.map((c: { slug: string; jobs_count: number }) => [c.slug, c.jobs_count]),
    );
    expect(counts).toEqual({
      'acme-cloud': 6,
      'blue-fjord': 3,
      'cedar-health': 2,
      'delta-motors': 2,
      'echo-media': 3,
      'fern-finance': 3,
      'gamma-labs': 0,
      hollow: 0,
    });
  });

  it('rows are the full profile, identical to /v1/companies/{slug}', async () => {
    const { body } = await f.json('/v1/companies?limit=200');
    for (const c of body.data) {
      const one = await f.json(`/v1/companies/${q(c.slug)}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(c);
    }
  });
});

describe('GET /v1/companies errors', () => {
  const cases: [string, string][] = [
    ['q=', 'q'],
    ['q=%20%20', 'q'],
    ['industry=a,', 'industry'],
    ['country=XX', 'country'],
    ['country=Narnia', 'country'],
    ['size=big', 'size'],
    ['size=51-200', 'size'],
    ['employee_count_gte=-1', 'employee_count_gte'],
    ['employee_count_gte=x', 'employee_count_gte'],
    ['employee_count_lt=0', 'employee_count_lt'],
    ['has_jobs=1', 'has_jobs'],
    ['has_jobs=yes', 'has_jobs'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=100001', 'offset'],
    ['offset=-1', 'offset'],
    ['cursor=abc', 'cursor'],
    ['name=acme', 'name'],
    ['sort=followers', 'sort'],
    ['title=engineer', 'title'],
    ['country=US&country=DE', 'country'],
  ];
  for (const [qs, param] of cases) {
    it(`${qs} → 400 on ${param}`, async () => {
      await expect400(f, `/v1/companies?${qs}`, param);
    });
  }

  it('size: the hint lists the buckets', async () => {
    const body = await expect400(f, '/v1/companies?size=big', 'size');
    for (const b of SIZE_BUCKETS) expect(body.hint).toContain(b);
  });
});

describe('GET /v1/companies/{slug}', () => {
  it('the profile at top level with every documented field', async () => {
    const { status, body } = await f.json('/v1/companies/acme-cloud');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      slug: 'acme-cloud',
      name: 'Acme Cloud',
      domain: 'acme.example',
      website: 'https://acme.example',
      logo: 'https://img.example/acme.png',
      industry: 'Software Development',
      employee_count: 5000,
      size_range: '1001-5000 employees',
      followers: 10000,
      founded_year: 2001,
      hq: { country: 'US', region: 'California', locality: 'San Jose', raw: 'San Jose, CA' },
      data_tier: 'remco',
      jobs_count: 6,
    });
    expect(body.funding.total_investment_usd).toBe(500_000_000);
    expect(typeof body.updated_at).toBe('string');
    const hollow = (await f.json('/v1/companies/hollow')).body;
    expect(hollow.hq).toBeNull();
    expect(hollow.funding).toBeNull();
    expect(hollow.stock).toBeNull();
  });

  it('exact match: no case folding, no lookup by name or domain', async () => {
    for (const s of ['ACME-CLOUD', 'Acme-Cloud', 'Acme Cloud', 'acme.example', 'acme', 'acme-cloud-x']) {
      const res = await f.json(`/v1/companies/${q(s)}`);
      expect(res.status, s).toBe(404);
      expect(res.body).toEqual({ error: 'not found' });
    }
  });

  it('URL-decoded before matching', async () => {
    const res = await f.json('/v1/companies/%61cme-cloud');
    expect(res.status).toBe(200);
    expect(res.body.slug).toBe('acme-cloud');
  });

  it('any query parameter is a 400', async () => {
    for (const qs of ['q=x', 'limit=1', 'description_format=text', 'foo=bar', 'x=']) {
      await expect400(f, `/v1/companies/acme-cloud?${qs}`, qs.split('=')[0]);
    }
  });
});

describe('the refresher after jobs expire', () => {
  it('jobs_count and has_jobs follow the live population after runRefresh', async () => {
    // Fern Finance's three postings are reported gone.
    const gone: CanonicalLine[] = (
      await Promise.all(
        ['personio:p06', 'workable:p13', 'personio:p36'].map((x) => f.json(`/v1/jobs/${q(x)}`)),
      )
    ).map(({ body }) => ({
      kind: 'posting',
      id: body.id,
      source: body.source,
      title: 'x',
      company: { name: 'Fern Finance', slug: 'fern-finance' },
      url: body.url,
      gone: true,
    }));
    const report = await ingestRecords(f.db, gone);
    expect(report.rejected).toEqual([]);
    expect(report.expired).toBe(3);
    // Before the refresh, the stored count is still the old one.
    expect((await f.json('/v1/companies/fern-finance')).body.jobs_count).toBe(3);
    await runRefresh(f.db);
    expect((await f.json('/v1/companies/fern-finance')).body.jobs_count).toBe(0);
    expect(await slugs('has_jobs=false')).toEqual(['gamma-labs', 'fern-finance', 'hollow']);
    expect(await slugs('has_jobs=true')).toEqual([
      'acme-cloud',
      'cedar-health',
      'blue-fjord',
      'delta-motors',
      'echo-media',
    ]);
    // The embedded profile of a job and the company search agree.
    const job = (await f.json('/v1/jobs/personio%3Ap06')).body;
    expect(job.company).toEqual((await f.json('/v1/companies/fern-finance')).body);
    expect((await f.json('/v1/jobs?company_industry=financial%20services')).body.total).toBe(0);
  });

  it('a feed page kept before the refresh is not served after it (the profiles in it changed)', async () => {
    type Item = { id: string; source: string; url: string; company: { slug: string; jobs_count: number } };
    const feed = async (): Promise<Item[]> => {
      const { status, body } = await f.json('/v1/jobs/feed?since=3650d&limit=1000');
      expect(status).toBe(200);
      expect(body.next_cursor).toBeNull();
      return body.data;
    };
    const acme = (items: Item[]) => items.filter((j) => j.company?.slug === 'acme-cloud');
    const before = acme(await feed());
    expect(before.length).toBeGreaterThan(1);
    const count = before[0].company.jobs_count;
    expect(count).toBe(before.length);
    // One of Acme Cloud's postings is reported gone: a load, so a new data version, whose feed page is
    // read (and kept) before the refresh has counted Acme Cloud's jobs again.
    const [goner, stays] = before;
    const report = await ingestRecords(f.db, [
      {
        kind: 'posting',
        id: goner.id,
        source: goner.source,
        title: 'x',
        company: { name: 'Acme Cloud', slug: 'acme-cloud' },
        url: goner.url,
        gone: true,
      },
    ]);
    expect(report.expired).toBe(1);
    expect(acme(await feed()).map((j) => j.company.jobs_count)).toEqual(Array(count - 1).fill(count));
    await runRefresh(f.db);
    const after = acme(await feed());
    expect(after.map((j) => j.id)).toContain(stays.id);
    expect(after.map((j) => j.company.jobs_count)).toEqual(Array(count - 1).fill(count - 1));
    expect((await f.json(`/v1/jobs/${q(stays.id)}`)).body.company.jobs_count).toBe(count - 1);
  });
});

describe('company pages kept per data version', () => {
  it('answers a page asked again from memory, and a new data version at once', async () => {
    const url = '/v1/companies?q=acme&limit=5';
    const first = await f.json(url);
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: { slug: string }) => c.slug)).toEqual(['acme-cloud']);
    const { rows } = await f.db.write.query<{ p: string }>(
      "SELECT profile_json AS p FROM companies WHERE slug = 'acme-cloud'",
    );
    const changed = JSON.stringify({ ...JSON.parse(rows[0].p), name: 'Acme Cloud Renamed' });
    try {
      // Written behind the service's back, without a new data version: the kept page is still served,
      // so it was not read again.
      await f.db.write.query("UPDATE companies SET profile_json = $1 WHERE slug = 'acme-cloud'", [changed]);
      expect((await f.json(url)).body).toEqual(first.body);
      // With a new data version, as every write of the service makes, the page is read again.
      await bumpDataVersion(f.db.write, { left: [], entered: [] });
      const second = await f.json(url);
      expect(second.body.data[0].name).toBe('Acme Cloud Renamed');
      expect(second.body.total).toBe(1);
      // Another page of the same search is a page of its own.
      expect((await f.json('/v1/companies?q=acme&limit=5&offset=1')).body).toMatchObject({
        data: [],
        total: 1,
      });
    } finally {
      await f.db.write.query("UPDATE companies SET profile_json = $1 WHERE slug = 'acme-cloud'", [rows[0].p]);
      await bumpDataVersion(f.db.write, { left: [], entered: [] });
    }
    expect((await f.json(url)).body).toEqual(first.body);
  });
});
