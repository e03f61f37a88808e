// /v1/jobs filters on the hand-made fixture: every parameter of the spec's tables gives its exact id set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { createTestApp } from '../helpers/app.ts';
import { createJobsFixture, type Fixture, id, ids, LIVE, liveExcept } from '../helpers/jobs-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await createJobsFixture();
});
afterAll(async () => {
  await f?.close();
});

const ACME = [1, 7, 10, 16, 17, 18];
const BLUE = [2, 14, 19];
const CEDAR = [3, 8];
const DELTA = [4, 11];
const ECHO = [5, 12, 35];
const FERN = [6, 13, 36];
const NORTHSTAR = [23, 24, 25, 26, 27, 28, 29, 30, 31, 32];
const US = [1, 6, 7, 15, 16, 17, 18, ...NORTHSTAR, 36];
const REMOTE = [1, 5, 12, 14, 35];
const SALARY = [1, 2, 4, 6, 8, 12, 15, 36];

const q = (v: string) => encodeURIComponent(v);

describe('GET /v1/jobs filters: exact id sets', () => {
  const cases: [string, number[]][] = [
    ['', LIVE],
    // Text search
    ['title=engineer', [1, 2, 4, 7, 10, 14, 15, 16, 17, 18, 19]],
    [`title=${q('software engineer')}`, [1, 7]],
    [`title=${q('"data engineer"')}`, [2]],
    [`title=${q('"engineer data"')}`, []],
    [`title=${q('designer OR accountant')}`, [5, 6]],
    [`title=${q('engineer -support -senior')}`, [4, 7, 10, 14, 15]],
    ['title=data', [2, 3]],
    ['title=DATA', [2, 3]],
    ['title=analyst', [3, 36]],
    ['description=patients', [8]],
    [`description=${q('clinic OR welding')}`, [8, 11]],
    [`description=${q('duties engineer -support')}`, [1, 2, 4, 7, 10, 14, 15]],
    [`title_advanced=${q('engineer & !support')}`, [1, 2, 4, 7, 10, 14, 15]],
    [`title_advanced=${q('soft:*')}`, [1, 7]],
    [`title_advanced=${q('machine <-> learning')}`, [4]],
    [`title_advanced=${q("'learning machine'")}`, []],
    [`title_advanced=${q('(designer | accountant) & !staff')}`, [5]],
    [`description_advanced=${q('patients | welding')}`, [8, 11]],
    ['organization=acme', ACME],
    ['organization=ACME%20cl', ACME],
    ['organization=northstar', NORTHSTAR],
    ['organization=100%25', []],
    [`exclude_organization=${q('acme cloud')}`, liveExcept(...ACME)],
    [`exclude_organization=${q('ACME CLOUD,Northstar Logistics')}`, liveExcept(...ACME, ...NORTHSTAR)],
    ['exclude_organization=acme', LIVE],
    // Company filters
    [`company_industry=${q('software development')}`, [...ACME, ...BLUE]],
    [`company_industry=${q('Manufacturing,retail')}`, DELTA],
    [`company_size=${q('51-200 employees')}`, [...ECHO, ...FERN]],
    [`company_size=${q('11-50 employees,10001+ employees')}`, [...BLUE, ...DELTA]],
    ['employee_count_gte=5000', [...ACME, ...DELTA]],
    ['employee_count_gte=0', [...ACME, ...BLUE, ...CEDAR, ...DELTA, ...ECHO, ...FERN]],
    ['employee_count_lt=100', BLUE],
    ['employee_count_gte=100&employee_count_lt=1000', [...CEDAR, ...ECHO, ...FERN]],
    ['funding_gte=50000000', [...ACME, ...FERN]],
    ['funding_lt=10000000', BLUE],
    ['funding_gte=10000000&funding_lt=50000000', ECHO],
    ['company_country=US', [...ACME, ...FERN]],
    [`company_country=${q('Germany,no')}`, [...BLUE, ...DELTA]],
    ['domain=cedar.example', CEDAR],
    ['domain=cedar.example,DELTA.example', [...CEDAR, ...DELTA]],
    ['domain=nimbus.example', []],
    ['domain=northstar.example', []],
    // Location
    ['country=US', US],
    [`country=${q('United States')}`, US],
    ['country=us', US],
    [`country=${q('germany,FR')}`, [4, 11, 5, 35]],
    ['country=NG', [14]],
    ['city=oslo', [2]],
    [`city=${q('London,Paris')}`, [3, 5]],
    [`city=${q('são paulo')}`, [12]],
    ['region=england', [3, 8]],
    [`region=${q('New York,Texas')}`, [6, 15, 36]],
    ['continent=Asia', [10]],
    ['continent=Africa,Oceania', [13, 14]],
    [`continent=${q('South America')}`, [12]],
    ['remote=true', REMOTE],
    ['remote=1', REMOTE],
    ['remote=false', liveExcept(...REMOTE)],
    ['remote=0', liveExcept(...REMOTE)],
    ['work_arrangement=Hybrid', [2, 4, 10, 36]],
    ['work_arrangement=Remote,Hybrid', [...REMOTE, 2, 4, 10, 36]],
    ['work_arrangement=On-site', liveExcept(...REMOTE, 2, 4, 10, 36)],
    // Classification
    ['skill=cpp', [1, 4]],
    [`skill=${q('c++')}`, [1, 4]],
    [`skill=${q('python,c++')}`, [4]],
    [`skill=${q('C++,Python')}`, [4]],
    ['skill=python', [2, 4, 7]],
    [`skill=${q('c#')}`, [14]],
    [`skill=${q('.net')}`, [14]],
    [`skill=${q('c#,.net')}`, [14]],
    ['skill=golang', [10]],
    ['skill=go', [10]],
    [`skill=${q('node.js')}`, [1]],
    ['skill=node', [1]],
    ['skill=sql,excel', [3, 36]],
    ['skill=cobol', []],
    ['taxonomies=Healthcare', [8]],
    [`taxonomies=${q('Data & Analytics,Healthcare')}`, [2, 3, 8]],
    ['taxonomies=Technology', [1, 4, 16, 17, 18, 19]],
    ['employment_type=PART_TIME', [8]],
    ['employment_type=CONTRACTOR,INTERN', [5, 7, 37]],
    ['employment_type=VOLUNTEER', []],
    ['seniority=Director', [10]],
    ['seniority=Internship,Management', [7, 9]],
    [`seniority=${q('Entry level')}`, [6, 11, ...NORTHSTAR]],
    ['experience_level=10%2B', [9, 10]],
    ['experience_level=5-10', [1, 2, 4]],
    ['experience_level=0-2,10%2B', [6, 7, 11, 9, 10]],
    [`education=${q('postgraduate degree')}`, [2, 4]],
    [`education=${q('high school,associate degree')}`, [7, 11]],
    [`education=${q('bachelor degree')}`, [1, 4, 9]],
    ['language=German', [4, 11]],
    ['language=de', [4, 11]],
    ['language=DE', [4, 11]],
    ['language=fr,Japanese', [5, 10]],
    ['language=portuguese', [12]],
    ['visa_sponsorship=only', [1, 4, 14]],
    ['visa_sponsorship=exclude', liveExcept(1, 4, 14)],
    // Salary
    ['has_salary=true', SALARY],
    ['has_salary=false', liveExcept(...SALARY)],
    ['salary_gte=200000', [1, 2, 36]],
    ['salary_gte=210000', [1, 2, 36]],
    ['salary_gte=210001', [2, 36]],
    ['salary_lte=50000', [8]],
    ['salary_gte=100000&salary_lte=100000', [1, 4]],
    ['salary_gte=0', SALARY],
    ['salary_currency=usd', [1, 6, 15, 36]],
    ['salary_currency=USD,eur', [1, 4, 6, 15, 36]],
    ['salary_currency=JPY', []],
    // Source
    ['source=greenhouse', [1, 15, 16, 17, 18]],
    ['source=greenhouse_io', [1, 15, 16, 17, 18]],
    ['source=GREENHOUSE', [1, 15, 16, 17, 18]],
    ['source=lever,ashby', [2, 14, 19, 3, 35]],
    ['source=nope', []],
    ['source=nope,lever', [2, 14, 19]],
    ['source=jobmirror', [10]],
    ['source_type=jobboard', [7, 9, 12, 37]],
    ['source_type=aggregator', [10, 11]],
    ['source_type=jobboard,aggregator', [7, 9, 12, 37, 10, 11]],
    ['source_type=ats', liveExcept(7, 9, 12, 37, 10, 11)],
    ['exclude_source=greenhouse,jobposter', liveExcept(1, 15, 16, 17, 18, ...NORTHSTAR)],
    ['exclude_source=lever_co', liveExcept(2, 14, 19)],
    ['exclude_source=nope', LIVE],
    // Time
    ['time_frame=60m', [1]],
    ['time_frame=1h', [1]],
    ['time_frame=2h', [1, 2]],
    ['time_frame=24h', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]],
    ['time_frame=1d', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]],
    ['time_frame=2d', liveExcept(35, 36, 37)],
    ['time_frame=30d', LIVE],
    // AND across parameters
    ['country=US&remote=true', [1]],
    ['skill=python&country=DE', [4]],
    ['source=lever&title=engineer&work_arrangement=Remote', [14]],
    ['company_industry=software%20development&has_salary=true', [1, 2]],
  ];
  for (const [qs, want] of cases) {
    it(qs || '(no parameters)', async () => {
      expect(await f.search(qs)).toEqual(ids(...want));
    });
  }

  it('posted_gte / posted_lt take ISO 8601 instants', async () => {
    const at = (h: number) => new Date(f.now - h * 3_600_000).toISOString();
    expect(await f.search(`posted_gte=${q(at(3))}`)).toEqual(ids(1, 2, 3));
    expect(await f.search(`posted_lt=${q(at(45))}`)).toEqual(ids(35, 36, 37));
    expect(await f.search(`posted_gte=${q(at(16))}&posted_lt=${q(at(13))}`)).toEqual(ids(14, 15, 16));
    // Exactly the shared instant of the Northstar postings: inclusive lower bound, exclusive upper bound.
    const shared = (await f.json(`/v1/jobs/${q(id(23))}`)).body.posted_at as string;
    expect(await f.search(`posted_gte=${q(shared)}&posted_lt=${q(at(39))}`)).toEqual(ids(...NORTHSTAR));
    expect(await f.search(`posted_lt=${q(shared)}&posted_gte=${q(at(41))}`)).toEqual([]);
    // Offsets and dates alone are accepted.
    const plus2 = new Date(f.now - 3 * 3_600_000 + 2 * 3_600_000).toISOString().slice(0, 19);
    expect(await f.search(`posted_gte=${q(`${plus2}+02:00`)}`)).toEqual(ids(1, 2, 3));
    expect(await f.search('posted_gte=1970-01-01')).toEqual(ids(...LIVE));
    expect(await f.search('posted_lt=1970-01-01')).toEqual([]);
  });

  it('created_gte / created_lt split the two loading batches', async () => {
    const late = (await f.json(`/v1/jobs/${q(id(35))}`)).body.created_at as string;
    const early = (await f.json(`/v1/jobs/${q(id(1))}`)).body.created_at as string;
    expect(late > early).toBe(true);
    expect(await f.search(`created_gte=${q(late)}`)).toEqual(ids(35, 36, 37));
    expect(await f.search(`created_lt=${q(late)}`)).toEqual(ids(...liveExcept(35, 36, 37)));
    expect(await f.search(`created_gte=${q(early)}&created_lt=${q(late)}`)).toEqual(
      ids(...liveExcept(35, 36, 37)),
    );
  });

  it('the title filter searches the stored title while the displayed one is de-capitalised', async () => {
    const { body } = await f.json(`/v1/jobs?title=${q('"senior data engineer"')}`);
    expect(body.data.map((j: { id: string }) => j.id)).toEqual([id(2)]);
    expect(body.data[0].title).toBe('Senior Data Engineer');
    const adv = await f.json(`/v1/jobs?title_advanced=${q("'senior data engineer'")}`);
    expect(adv.body.data.map((j: { id: string }) => j.id)).toEqual([id(2)]);
  });

  it('expired and folded postings never appear in search', async () => {
    const all = await f.search('');
    for (const n of [20, 21, 33]) expect(all).not.toContain(id(n));
    expect(await f.search(`title=${q('"legacy role"')}`)).toEqual([]);
    expect(await f.search('title=research')).toEqual([]);
  });

  it('without parameters returns the newest 50 with total, limit, offset, next_cursor', async () => {
    const { status, body } = await f.json('/v1/jobs');
    expect(status).toBe(200);
    expect(body.total).toBe(LIVE.length);
    expect(body.limit).toBe(50);
    expect(body.offset).toBe(0);
    expect(body.next_cursor).toBeNull();
    expect('collapsed' in body).toBe(false);
    expect(body.data[0].id).toBe(id(1));
    expect(body.data.at(-1).id).toBe(id(37));
    const posted = body.data.map((j: { posted_at: string }) => j.posted_at);
    expect([...posted].sort().reverse()).toEqual(posted);
  });
});

describe('rendering of search rows', () => {
  it('description_format: absent key by default, text or html when asked', async () => {
    const none = (await f.json(`/v1/jobs?description=patients`)).body.data[0];
    expect(none.id).toBe(id(8));
    expect('description' in none).toBe(false);
    const text = (await f.json('/v1/jobs?description=patients&description_format=text')).body.data[0];
    expect(text.description).toBe('Care for patients in a busy clinic.');
    const html = (await f.json('/v1/jobs?description=patients&description_format=html')).body.data[0];
    expect(typeof html.description).toBe('string');
    expect(html.description).toContain('<b>patients</b>');
    expect(html.description).not.toContain('script');
    expect(text.description).not.toContain('<');
    // The rest of the object does not change with the format.
    const { description: _a, ...restText } = text;
    const { description: _b, ...restHtml } = html;
    expect(restText).toEqual(none);
    expect(restHtml).toEqual(none);
  });

  // A posting given as plain text only gets an HTML form built from its paragraphs.
  it('description_format=html of a text-only posting is not empty', async () => {
    const html = (await f.json(`/v1/jobs/${encodeURIComponent(id(3))}?description_format=html`)).body;
    expect(html.description).toContain('General duties for opening 3.');
  });

  it('search rows carry the company subset, or the slug-less fallback', async () => {
    const { body } = await f.json(`/v1/jobs?limit=200`);
    const byId = new Map(body.data.map((j: { id: string }) => [j.id, j]));
    const acme = (byId.get(id(1)) as { company: Record<string, unknown> }).company;
    expect(acme).toEqual({
      slug: 'acme-cloud',
      name: 'Acme Cloud',
      domain: 'acme.example',
      website: 'https://acme.example',
      logo: 'https://img.example/acme.png',
      industry: 'Software Development',
      employee_count: 5000,
    });
    const full = (await f.json('/v1/companies/acme-cloud')).body;
    for (const k of Object.keys(acme)) expect(acme[k]).toEqual(full[k]);
    const nimbus = (byId.get(id(9)) as { company: Record<string, unknown> }).company;
    expect(nimbus).toEqual({ name: 'Nimbus Ventures', domain: 'nimbus.example' });
    expect('slug' in nimbus).toBe(false);
    for (const j of body.data as { company: Record<string, unknown> }[]) {
      const keys = Object.keys(j.company).sort();
      if ('slug' in j.company) {
        expect(keys).toEqual(['domain', 'employee_count', 'industry', 'logo', 'name', 'slug', 'website']);
      } else {
        expect(keys.every((k) => ['name', 'domain', 'website', 'logo'].includes(k))).toBe(true);
      }
    }
  });

  it('every row has the location object and no openings', async () => {
    const { body } = await f.json('/v1/jobs?limit=200');
    for (const j of body.data) {
      expect(j.location).toBeTypeOf('object');
      expect(j.location).not.toBeNull();
      expect('openings' in j).toBe(false);
    }
  });
});

describe('remote when location.remote and work_arrangement disagree', () => {
  it('the arrangement decides: false gives on-site and hybrid jobs, true the remote ones', async () => {
    const t = await createTestApp({ sample: false });
    try {
      const base = {
        kind: 'posting' as const,
        source: 'greenhouse',
        company: { name: 'Split Co' },
        description_text: 'Duties.',
        posted_at: '2026-11-01T00:00:00Z',
      };
      const loc = (remote: boolean) => ({ remote, countries: ['Germany'] });
      await ingestRecords(t.db, [
        {
          ...base,
          id: 'greenhouse:a',
          title: 'Alpha',
          url: 'https://x.example/a',
          location: loc(false),
          work_arrangement: 'Remote',
        },
        {
          ...base,
          id: 'greenhouse:b',
          title: 'Beta',
          url: 'https://x.example/b',
          location: loc(true),
          work_arrangement: 'Hybrid',
        },
        {
          ...base,
          id: 'greenhouse:c',
          title: 'Gamma',
          url: 'https://x.example/c',
          location: loc(false),
          work_arrangement: 'Hybrid',
        },
        {
          ...base,
          id: 'greenhouse:d',
          title: 'Delta',
          url: 'https://x.example/d',
          location: loc(true),
          work_arrangement: 'Remote',
        },
      ]);
      const got = async (qs: string) =>
        (JSON.parse((await t.get(`/v1/jobs?${qs}`)).body).data as { id: string }[]).map((j) => j.id).sort();
      const off = await got('remote=false');
      expect(off).toEqual(['greenhouse:b', 'greenhouse:c']);
      expect(await got('remote=0')).toEqual(off);
      expect(await got('remote=true')).toEqual(['greenhouse:a', 'greenhouse:d']);
      const shown = JSON.parse((await t.get('/v1/jobs/greenhouse:b')).body);
      expect(shown.location.remote).toBe(false);
      expect(shown.work_arrangement).toBe('Hybrid');
    } finally {
      await t.close();
    }
  });
});
