// /v1/jobs, /v1/jobs/count and /v1/jobs/{id}: every bad value is a 400 naming its parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDUCATION,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  SENIORITY,
  TAXONOMIES,
  WORK_ARRANGEMENTS,
  CONTINENTS,
  SIZE_BUCKETS,
} from '../../src/enums.ts';
import { createJobsFixture, expect400, type Fixture, id, LIVE } from '../helpers/jobs-fixture.ts';

let f: Fixture;
let noFts: Fixture;
beforeAll(async () => {
  [f, noFts] = await Promise.all([createJobsFixture(), createJobsFixture({ fullTextSearch: false })]);
});
afterAll(async () => {
  await Promise.all([f?.close(), noFts?.close()]);
});

const q = (v: string) => encodeURIComponent(v);

describe('bad values give 400 naming the parameter', () => {
  const cases: [string, string][] = [
    [`title=${q('"unbalanced')}`, 'title'],
    ['title=-', 'title'],
    [`title=${q('engineer OR')}`, 'title'],
    [`title=${q('the and of')}`, 'title'],
    [`title=${'a'.repeat(600)}`, 'title'],
    [`description=${q('"open')}`, 'description'],
    [`title_advanced=${q('engineer &')}`, 'title_advanced'],
    [`title_advanced=${q('(engineer')}`, 'title_advanced'],
    [`description_advanced=${q('a <-> ')}`, 'description_advanced'],
    [`organization=${q('   ')}`, 'organization'],
    [`organization=${'x'.repeat(201)}`, 'organization'],
    ['exclude_organization=acme,,x', 'exclude_organization'],
    ['company_industry=a,', 'company_industry'],
    ['company_size=huge', 'company_size'],
    ['employee_count_gte=-1', 'employee_count_gte'],
    ['employee_count_gte=1.5', 'employee_count_gte'],
    ['employee_count_gte=abc', 'employee_count_gte'],
    ['employee_count_lt=0', 'employee_count_lt'],
    ['funding_gte=-5', 'funding_gte'],
    ['funding_gte=1e6', 'funding_gte'],
    ['funding_lt=0', 'funding_lt'],
    ['company_country=XX', 'company_country'],
    ['company_country=Narnia', 'company_country'],
    ['domain=,', 'domain'],
    ['country=XX', 'country'],
    ['country=ZZ', 'country'],
    ['country=Narnia', 'country'],
    ['country=US,', 'country'],
    ['city=,paris', 'city'],
    ['region=a,,b', 'region'],
    ['continent=europe', 'continent'],
    ['continent=Atlantis', 'continent'],
    ['remote=yes', 'remote'],
    ['remote=TRUE', 'remote'],
    ['remote=2', 'remote'],
    ['work_arrangement=remote', 'work_arrangement'],
    ['work_arrangement=Onsite', 'work_arrangement'],
    ['skill=python,', 'skill'],
    [`skill=${q('c++,,go')}`, 'skill'],
    ['taxonomies=software', 'taxonomies'],
    ['employment_type=full_time', 'employment_type'],
    ['employment_type=FULL-TIME', 'employment_type'],
    ['seniority=senior', 'seniority'],
    ['experience_level=3-5', 'experience_level'],
    ['education=phd', 'education'],
    ['language=klingon', 'language'],
    ['language=xx', 'language'],
    ['visa_sponsorship=true', 'visa_sponsorship'],
    ['visa_sponsorship=ONLY', 'visa_sponsorship'],
    ['has_salary=1', 'has_salary'],
    ['has_salary=yes', 'has_salary'],
    ['salary_gte=-1', 'salary_gte'],
    ['salary_gte=100k', 'salary_gte'],
    ['salary_lte=abc', 'salary_lte'],
    ['salary_lte=-0.5', 'salary_lte'],
    ['salary_currency=dollars', 'salary_currency'],
    ['salary_currency=XYZ', 'salary_currency'],
    ['source=greenhouse,', 'source'],
    ['source_type=ATS', 'source_type'],
    ['source_type=board', 'source_type'],
    ['exclude_source=,', 'exclude_source'],
    ['time_frame=1w', 'time_frame'],
    ['time_frame=1mo', 'time_frame'],
    ['time_frame=24', 'time_frame'],
    ['time_frame=0h', 'time_frame'],
    ['time_frame=h', 'time_frame'],
    ['time_frame=-1d', 'time_frame'],
    ['posted_gte=yesterday', 'posted_gte'],
    ['posted_gte=2026-02-30', 'posted_gte'],
    ['posted_lt=2026-13-01', 'posted_lt'],
    ['posted_lt=12345', 'posted_lt'],
    ['created_gte=2026-11-01T25:00:00Z', 'created_gte'],
    ['created_lt=not-a-date', 'created_lt'],
    ['description_format=markdown', 'description_format'],
    ['description_format=TEXT', 'description_format'],
    ['collapse=false', 'collapse'],
    ['collapse=organization,title', 'collapse'],
    ['collapse=1', 'collapse'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=100001', 'offset'],
    ['offset=-1', 'offset'],
    ['offset=x', 'offset'],
    ['cursor=garbage', 'cursor'],
    // Traps and unknown names
    ['location=Berlin', 'location'],
    ['salary_min=100000', 'salary_min'],
    ['posted_since=2026-01-01', 'posted_since'],
    ['q=engineer', 'q'],
    ['sort=posted_at', 'sort'],
    ['page=2', 'page'],
    ['lat=52.5', 'lat'],
    ['Country=US', 'Country'],
    // Repeated and empty
    ['country=US&country=DE', 'country'],
    ['limit=5&limit=5', 'limit'],
    ['title=a&title=b', 'title'],
    ['country=', 'country'],
    ['title=', 'title'],
    ['limit=', 'limit'],
    ['remote=', 'remote'],
    ['source=', 'source'],
  ];
  for (const [qs, param] of cases) {
    it(`${qs.slice(0, 60)} → 400 on ${param}`, async () => {
      await expect400(f, `/v1/jobs?${qs}`, param);
    });
  }

  it('the rejected parameter is named even when valid ones come first', async () => {
    await expect400(f, '/v1/jobs?country=US&remote=true&limit=0', 'limit');
  });

  it('unknown ISO-2 country says so', async () => {
    const body = await expect400(f, '/v1/jobs?country=XX', 'country');
    expect(body.hint).toMatch(/XX/);
  });

  it('traps say what to use instead', async () => {
    expect((await expect400(f, '/v1/jobs?location=Berlin', 'location')).hint).toMatch(/country|city|region/);
    expect((await expect400(f, '/v1/jobs?salary_min=1', 'salary_min')).hint).toMatch(/salary_gte/);
    expect((await expect400(f, '/v1/jobs?posted_since=1', 'posted_since')).hint).toMatch(
      /time_frame|posted_gte/,
    );
  });

  const enums: [string, readonly string[]][] = [
    ['continent', CONTINENTS],
    ['work_arrangement', WORK_ARRANGEMENTS],
    ['employment_type', EMPLOYMENT_TYPES],
    ['seniority', SENIORITY],
    ['experience_level', EXPERIENCE_LEVELS],
    ['education', EDUCATION],
    ['taxonomies', TAXONOMIES],
    ['company_size', SIZE_BUCKETS],
    ['source_type', ['ats', 'jobboard', 'aggregator']],
    ['visa_sponsorship', ['only', 'exclude']],
    ['description_format', ['text', 'html']],
    ['remote', ['true', 'false', '1', '0']],
    ['has_salary', ['true', 'false']],
  ];
  for (const [param, values] of enums) {
    it(`${param}: a wrong member lists the allowed values in hint`, async () => {
      const body = await expect400(f, `/v1/jobs?${param}=Nope`, param);
      for (const v of values) expect(body.hint).toContain(v);
    });
  }

  it('a wrong member inside a list is rejected, not dropped', async () => {
    await expect400(f, '/v1/jobs?seniority=Director,director', 'seniority');
    await expect400(f, `/v1/jobs?taxonomies=${q('Software,Sofware')}`, 'taxonomies');
  });

  it('limit and offset at their bounds are accepted', async () => {
    for (const qs of ['limit=1', 'limit=200', 'offset=0', 'offset=100000']) {
      expect((await f.json(`/v1/jobs?${qs}`)).status, qs).toBe(200);
    }
    const far = (await f.json('/v1/jobs?offset=100000')).body;
    expect(far.data).toEqual([]);
    expect(far.total).toBe(LIVE.length);
    expect(far.offset).toBe(100000);
  });

  it('unknown source is an empty 200, not a 400', async () => {
    const { status, body } = await f.json('/v1/jobs?source=no_such_board');
    expect(status).toBe(200);
    expect(body.data).toEqual([]);
    expect(body.total).toBe(0);
    expect(body.next_cursor).toBeNull();
  });

  it('the legacy form of a source slug is accepted as input but never returned', async () => {
    const { body } = await f.json('/v1/jobs?source=greenhouse_io&limit=200');
    expect(body.data.length).toBe(5);
    for (const j of body.data) expect(j.source).toBe('greenhouse');
  });

  it('api_key in the query is not a filter', async () => {
    const res = await f.app.fastify.inject({ url: `/v1/jobs?api_key=${f.key}&country=NG` });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).data.map((j: { id: string }) => j.id)).toEqual([id(14)]);
  });
});

describe('full-text search switched off', () => {
  it('the advanced parameters give 400 naming them', async () => {
    await expect400(noFts, `/v1/jobs?title_advanced=${q('engineer & senior')}`, 'title_advanced');
    await expect400(noFts, '/v1/jobs?description_advanced=patients', 'description_advanced');
    await expect400(noFts, '/v1/jobs/count?title_advanced=engineer', 'title_advanced');
  });
  it('plain title and description still work', async () => {
    expect(await noFts.search('title=data')).toEqual([id(2), id(3)].sort());
    expect(await noFts.search('description=patients')).toEqual([id(8)]);
  });
});

describe('GET /v1/jobs/count', () => {
  it('takes the filters and returns {count}', async () => {
    const { status, body } = await f.json('/v1/jobs/count?country=US&remote=false');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(['count']);
    expect(body.count).toBe((await f.search('country=US&remote=false')).length);
  });
  for (const qs of [
    'limit=10',
    'offset=0',
    'cursor=abc',
    'description_format=text',
    'location=x',
    'country=XX',
  ]) {
    it(`rejects ${qs}`, async () => {
      await expect400(f, `/v1/jobs/count?${qs}`, qs.split('=')[0]);
    });
  }
});

describe('GET /v1/jobs/{id}', () => {
  it('a colon id, raw and URL-encoded', async () => {
    const raw = await f.json(`/v1/jobs/${id(2)}`);
    expect(raw.status).toBe(200);
    expect(raw.body.id).toBe(id(2));
    expect('data' in raw.body).toBe(false);
    const enc = await f.json(`/v1/jobs/${encodeURIComponent(id(2))}`);
    expect(enc.status).toBe(200);
    expect(enc.body).toEqual(raw.body);
  });

  it('an expired job is still returned', async () => {
    const { status, body } = await f.json(`/v1/jobs/${q(id(33))}`);
    expect(status).toBe(200);
    expect(body.id).toBe(id(33));
    expect(body.expires_at).not.toBeNull();
  });

  it('a folded duplicate and an unknown id are 404 {error:"not found"}', async () => {
    for (const x of [id(20), 'greenhouse:nope', 'nope', 'GREENHOUSE:p01', `${id(1)} `]) {
      const res = await f.json(`/v1/jobs/${q(x)}`);
      expect(res.status, x).toBe(404);
      expect(res.body).toEqual({ error: 'not found' });
    }
  });

  it('description_format is the only accepted parameter', async () => {
    const none = await f.json(`/v1/jobs/${q(id(8))}`);
    expect('description' in none.body).toBe(false);
    const text = await f.json(`/v1/jobs/${q(id(8))}?description_format=text`);
    expect(text.body.description).toBe('Care for patients in a busy clinic.');
    const html = await f.json(`/v1/jobs/${q(id(8))}?description_format=html`);
    expect(html.body.description).toContain('<b>patients</b>');
    await expect400(f, `/v1/jobs/${q(id(8))}?description_format=pdf`, 'description_format');
    await expect400(f, `/v1/jobs/${q(id(8))}?country=US`, 'country');
    await expect400(f, `/v1/jobs/${q(id(8))}?limit=1`, 'limit');
    await expect400(
      f,
      `/v1/jobs/${q(id(8))}?description_format=text&description_format=text`,
      'description_format',
    );
    // A 404 id with a bad parameter: the parameter is checked first.
    await expect400(f, '/v1/jobs/nope?x=1', 'x');
  });

  it('embeds the full company profile, deep-equal to /v1/companies/{slug}', async () => {
    const job = (await f.json(`/v1/jobs/${q(id(1))}`)).body;
    const company = (await f.json('/v1/companies/acme-cloud')).body;
    expect(job.company).toEqual(company);
    expect(job.company.jobs_count).toBe(6);
  });

  it('an unresolved employer gets the slug-less fallback', async () => {
    const job = (await f.json(`/v1/jobs/${q(id(9))}`)).body;
    expect(job.company).toEqual({ name: 'Nimbus Ventures', domain: 'nimbus.example' });
  });

  it('the search row and the by-id job agree except for the company shape', async () => {
    const row = (await f.json('/v1/jobs?country=NG')).body.data[0];
    const one = (await f.json(`/v1/jobs/${q(id(14))}`)).body;
    const { company: a, ...restRow } = row;
    const { company: b, ...restOne } = one;
    expect(restRow).toEqual(restOne);
    for (const k of Object.keys(a)) expect(a[k]).toEqual(b[k]);
  });

  it('/v1/jobs/feed is the feed, not a job', async () => {
    const { status, body } = await f.json('/v1/jobs/feed');
    expect(status).toBe(200);
    expect(body).toHaveProperty('next_cursor');
  });
});
