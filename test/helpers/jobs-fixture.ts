// A hand-made dataset for the search and company suites: 8 company profiles and 35 postings, each
// attribute chosen so that every filter has a distinct, known answer. Posting `n` has the id `<source>:pNN`;
// tests name postings by number and compare exact id sets.
import { expect } from 'vitest';
import type { CanonicalLine, CompanyRecord, PostingRecord } from '../../src/model/record.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { compileFilters, type JobFilters } from '../../src/search/filters.ts';
import { sql } from '../../src/search/sql.ts';
import { runRefresh } from '../../src/service/schedules.ts';
import { createTestApp, type TestApp } from './app.ts';

const HOUR = 3_600_000;

export const COMPANIES: CompanyRecord[] = [
  {
    slug: 'acme-cloud',
    name: 'Acme Cloud',
    domain: 'acme.example',
    website: 'https://acme.example',
    logo: 'https://img.example/acme.png',
    industry: 'Software Development',
    type: 'Public Company',
    description: 'Cloud tools.',
    slogan: 'Up there.',
    specialties: ['cloud', 'hosting'],
    employee_count: 5000,
    size_range: '1001-5000 employees',
    followers: 10_000,
    founded_year: 2001,
    hq: { country: 'US', region: 'California', locality: 'San Jose', raw: 'San Jose, CA' },
    funding: { rounds: 5, last_round_type: 'Series E', total_investment_usd: 500_000_000 },
    data_tier: 'remco',
  },
  {
    slug: 'blue-fjord',
    name: 'Blue Fjord',
    domain: 'bluefjord.example',
    website: 'https://www.bluefjord.example',
    industry: 'Software Development',
    employee_count: 40,
    size_range: '11-50 employees',
    followers: 10_000,
    hq: { country: 'NO', locality: 'Oslo' },
    funding: { rounds: 1, total_investment_usd: 2_000_000 },
    data_tier: 'basic',
  },
  {
    slug: 'cedar-health',
    name: 'Cedar Health',
    domain: 'cedar.example',
    industry: 'Hospitals and Health Care',
    employee_count: 800,
    size_range: '501-1000 employees',
    followers: 3000,
    hq: { country: 'GB', locality: 'London' },
    funding: null,
    data_tier: 'remco',
  },
  {
    slug: 'delta-motors',
    name: 'Delta Motors',
    domain: 'delta.example',
    industry: 'Manufacturing',
    employee_count: 20_000,
    size_range: '10001+ employees',
    followers: 3000,
    hq: { country: 'DE', locality: 'Munich' },
    funding: null,
    data_tier: 'basic',
  },
  {
    slug: 'echo-media',
    name: 'Echo Media',
    domain: 'echo.example',
    industry: 'Media Production',
    employee_count: 150,
    size_range: '51-200 employees',
    followers: 500,
    hq: { country: 'FR', locality: 'Paris' },
    funding: { total_investment_usd: 10_000_000 },
    data_tier: 'basic',
  },
  {
    slug: 'fern-finance',
    name: 'Fern Finance',
    domain: 'fern.example',
    industry: 'Financial Services',
    employee_count: 150,
    size_range: '51-200 employees',
    followers: 500,
    hq: { country: 'US', locality: 'New York' },
    funding: { total_investment_usd: 50_000_000 },
    data_tier: 'basic',
  },
  {
    slug: 'gamma-labs',
    name: 'Gamma Labs',
    domain: 'gamma.example',
    industry: 'Research Services',
    employee_count: 8,
    size_range: '1-10 employees',
    followers: 100,
    hq: { country: 'CA', locality: 'Toronto' },
    funding: null,
    data_tier: 'remco',
  },
  {
    slug: 'hollow',
    name: 'Hollow',
    domain: 'hollow.example',
    industry: 'Retail',
    employee_count: 300,
    size_range: '201-500 employees',
    followers: 50,
    hq: null,
    funding: null,
    data_tier: 'basic',
  },
];

/** Slugs in the fixed sort order of /v1/companies (remco first, followers desc, slug). */
export const COMPANY_ORDER = [
  'acme-cloud',
  'cedar-health',
  'gamma-labs',
  'blue-fjord',
  'delta-motors',
  'echo-media',
  'fern-finance',
  'hollow',
];

const co = (slug: string) => {
  const c = COMPANIES.find((x) => x.slug === slug)!;
  return { name: c.name, slug: c.slug, domain: c.domain };
};
const unresolved = (name: string, domain: string) => ({ name, domain });

interface Loc {
  countries: string[];
  cities: string[] | null;
  regions: string[] | null;
  continent: string;
  remote?: boolean;
  raw?: string[];
}
const loc = (
  country: string,
  city: string | null,
  region: string | null,
  continent: string,
  remote = false,
): Loc => ({
  countries: [country],
  cities: city ? [city] : null,
  regions: region ? [region] : null,
  continent,
  remote,
  raw: [city ? `${city}, ${country}` : `Remote - ${country}`],
});

interface Spec {
  n: number;
  source: string;
  title: string;
  company: PostingRecord['company'];
  /** Age of posted_at in hours at build time. */
  age: number;
  over?: Partial<PostingRecord>;
}

const US_AUSTIN = loc('United States', 'Austin', 'Texas', 'North America');

const SPECS: Spec[] = [
  {
    n: 1,
    source: 'greenhouse',
    title: 'Senior Software Engineer',
    company: co('acme-cloud'),
    age: 0.5,
    over: {
      skills: ['typescript', 'c++', 'node.js'],
      taxonomies: ['Software', 'Technology'],
      salary: { min: 90_000, max: 210_000, currency: 'USD', unit: 'YEAR' },
      location: loc('United States', null, null, 'North America', true),
      work_arrangement: 'Remote',
      visa_sponsorship: true,
      experience_level: '5-10',
      education_requirements: ['bachelor degree'],
    },
  },
  {
    n: 2,
    source: 'lever',
    title: 'SENIOR DATA ENGINEER',
    company: co('blue-fjord'),
    age: 1.5,
    over: {
      skills: ['python', 'sql'],
      taxonomies: ['Data & Analytics', 'Software'],
      salary: { min: 700_000, max: 900_000, currency: 'NOK', unit: 'YEAR' },
      location: loc('Norway', 'Oslo', 'Oslo', 'Europe'),
      work_arrangement: 'Hybrid',
      experience_level: '5-10',
      education_requirements: ['postgraduate degree'],
    },
  },
  {
    n: 3,
    source: 'ashby',
    title: 'Data Analyst',
    company: co('cedar-health'),
    age: 2.5,
    over: {
      skills: ['sql', 'excel'],
      taxonomies: ['Data & Analytics'],
      location: loc('United Kingdom', 'London', 'England', 'Europe'),
      seniority: 'Associate',
    },
  },
  {
    n: 4,
    source: 'workday',
    title: 'Machine Learning Engineer',
    company: co('delta-motors'),
    age: 3.5,
    over: {
      skills: ['python', 'cpp'],
      taxonomies: ['Engineering', 'Technology'],
      salary: { min: 80_000, max: 100_000, currency: 'EUR', unit: 'YEAR' },
      location: loc('Germany', 'Munich', 'Bavaria', 'Europe'),
      work_arrangement: 'Hybrid',
      job_language: 'de',
      visa_sponsorship: true,
      experience_level: '5-10',
      education_requirements: ['postgraduate degree', 'bachelor degree'],
    },
  },
  {
    n: 5,
    source: 'smartrecruiters',
    title: 'Product Designer',
    company: co('echo-media'),
    age: 4.5,
    over: {
      skills: ['figma'],
      taxonomies: ['Art & Design'],
      location: loc('France', 'Paris', 'Île-de-France', 'Europe', true),
      work_arrangement: 'Remote',
      employment_type: ['CONTRACTOR'],
      job_language: 'fr',
      seniority: 'Associate',
    },
  },
  {
    n: 6,
    source: 'personio',
    title: 'Staff Accountant',
    company: co('fern-finance'),
    age: 5.5,
    over: {
      skills: ['excel'],
      taxonomies: ['Finance & Accounting'],
      salary: { min: 60_000, max: 75_000, currency: 'USD', unit: 'YEAR' },
      location: loc('United States', 'New York', 'New York', 'North America'),
      seniority: 'Entry level',
      experience_level: '0-2',
      education_requirements: ['professional certificate'],
    },
  },
  {
    n: 7,
    source: 'careerboard',
    title: 'Software Engineer Intern',
    company: co('acme-cloud'),
    age: 6.5,
    over: {
      skills: ['python'],
      taxonomies: ['Software'],
      location: loc('United States', 'Seattle', 'Washington', 'North America'),
      employment_type: ['INTERN'],
      seniority: 'Internship',
      experience_level: '0-2',
      education_requirements: ['high school'],
    },
  },
  {
    n: 8,
    source: 'recruitee',
    title: 'Nurse Practitioner',
    company: co('cedar-health'),
    age: 7.5,
    over: {
      description_html: '<p>Care for <b>patients</b> in a busy clinic.</p><script>alert(1)</script>',
      skills: ['triage'],
      taxonomies: ['Healthcare'],
      salary: { min: 40_000, max: 50_000, currency: 'GBP', unit: 'YEAR' },
      location: loc('United Kingdom', 'Manchester', 'England', 'Europe'),
      employment_type: ['PART_TIME'],
    },
  },
  {
    n: 9,
    source: 'techjobs',
    title: 'Sales Manager',
    company: unresolved('Nimbus Ventures', 'nimbus.example'),
    age: 8.5,
    over: {
      skills: ['salesforce'],
      taxonomies: ['Sales'],
      location: loc('Canada', 'Toronto', 'Ontario', 'North America'),
      seniority: 'Management',
      experience_level: '10+',
      education_requirements: ['bachelor degree'],
    },
  },
  {
    n: 10,
    source: 'jobmirror',
    title: 'Platform Engineer',
    company: co('acme-cloud'),
    age: 9.5,
    over: {
      skills: ['golang', 'kubernetes'],
      taxonomies: ['Software'],
      location: loc('Japan', 'Tokyo', 'Tokyo', 'Asia'),
      work_arrangement: 'Hybrid',
      job_language: 'ja',
      seniority: 'Director',
      experience_level: '10+',
    },
  },
  {
    n: 11,
    source: 'alljobs',
    title: 'Welding Technician',
    company: co('delta-motors'),
    age: 10.5,
    over: {
      skills: ['welding'],
      taxonomies: ['Manufacturing', 'Trades'],
      location: loc('Germany', 'Stuttgart', 'Baden-Württemberg', 'Europe'),
      employment_type: ['TEMPORARY'],
      job_language: 'de',
      seniority: 'Entry level',
      experience_level: '0-2',
      education_requirements: ['associate degree'],
    },
  },
  {
    n: 12,
    source: 'workhub',
    title: 'Video Editor',
    company: co('echo-media'),
    age: 11.5,
    over: {
      skills: ['premiere'],
      taxonomies: ['Creative & Media'],
      salary: { min: 60_000, max: 72_000, currency: 'BRL', unit: 'YEAR' },
      location: loc('Brazil', 'São Paulo', 'São Paulo', 'South America', true),
      work_arrangement: 'Remote',
      employment_type: ['PER_DIEM'],
      job_language: 'pt',
    },
  },
  {
    n: 13,
    source: 'workable',
    title: 'Customer Support Specialist',
    company: co('fern-finance'),
    age: 12.5,
    over: {
      skills: ['zendesk'],
      taxonomies: ['Customer Service & Support'],
      location: loc('Australia', 'Sydney', 'New South Wales', 'Oceania'),
      employment_type: ['OTHER'],
    },
  },
  {
    n: 14,
    source: 'lever',
    title: 'Backend Engineer',
    company: co('blue-fjord'),
    age: 13.5,
    over: {
      skills: ['c#', '.net'],
      taxonomies: ['Software'],
      location: loc('Nigeria', 'Lagos', 'Lagos', 'Africa', true),
      work_arrangement: 'Remote',
      visa_sponsorship: true,
    },
  },
  {
    n: 15,
    source: 'greenhouse',
    title: 'Frontend Engineer',
    company: unresolved('Nimbus Ventures', 'nimbus.example'),
    age: 14.5,
    over: {
      skills: ['typescript', 'react'],
      taxonomies: ['Software'],
      salary: { min: 120_000, max: 150_000, currency: 'USD', unit: 'YEAR' },
    },
  },
  // Collapse: three openings of one company and title, one of another company with the same title.
  ...(
    [
      [16, 'Denver', 'Colorado'],
      [17, 'Boston', 'Massachusetts'],
      [18, 'Miami', 'Florida'],
    ] as const
  ).map(
    ([n, city, region]): Spec => ({
      n,
      source: 'greenhouse',
      title: 'Support Engineer',
      company: co('acme-cloud'),
      age: n - 0.5,
      over: {
        skills: ['linux'],
        taxonomies: ['Customer Service & Support', 'Technology'],
        location: loc('United States', city, region, 'North America'),
      },
    }),
  ),
  {
    n: 19,
    source: 'lever',
    title: 'Support Engineer',
    company: co('blue-fjord'),
    age: 18.5,
    over: {
      skills: ['linux'],
      taxonomies: ['Customer Service & Support', 'Technology'],
      location: loc('Norway', 'Bergen', 'Vestland', 'Europe'),
    },
  },
  // An aggregator copy of posting 1 (same canonical URL): folded into it.
  {
    n: 20,
    source: 'jobmirror',
    title: 'Senior Software Engineer',
    company: co('gamma-labs'),
    age: 0.5,
    over: { canonical_url: 'https://jobs.example/greenhouse/p01', skills: ['typescript'] },
  },
  // Expired on arrival.
  {
    n: 21,
    source: 'greenhouse',
    title: 'Research Scientist',
    company: co('gamma-labs'),
    age: 20.5,
    over: { expires_at: new Date(Date.now() - 2 * HOUR).toISOString(), skills: ['chemistry'] },
  },
  // Ten postings sharing one posted_at, of an employer without a profile.
  ...[23, 24, 25, 26, 27, 28, 29, 30, 31, 32].map(
    (n): Spec => ({
      n,
      source: 'jobposter',
      title: `Logistics Coordinator ${String.fromCharCode(64 + n - 22)}`,
      company: unresolved('Northstar Logistics', 'northstar.example'),
      age: 40,
      over: {
        skills: ['forklift'],
        taxonomies: ['Logistics'],
        location: loc('United States', 'Chicago', 'Illinois', 'North America'),
        seniority: 'Entry level',
      },
    }),
  ),
  {
    n: 33,
    source: 'greenhouse',
    title: 'Legacy Role',
    company: co('acme-cloud'),
    age: 45,
    over: { expires_at: new Date(Date.now() - HOUR).toISOString(), skills: ['cobol'] },
  },
];

/** Loaded in a second batch, so their created_at is later. */
const LATE: Spec[] = [
  {
    n: 35,
    source: 'ashby',
    title: 'Marketing Lead',
    company: co('echo-media'),
    age: 50,
    over: {
      skills: ['seo'],
      taxonomies: ['Marketing'],
      location: loc('France', 'Lyon', 'Auvergne-Rhône-Alpes', 'Europe', true),
      work_arrangement: 'Remote',
    },
  },
  {
    n: 36,
    source: 'personio',
    title: 'Financial Analyst',
    company: co('fern-finance'),
    age: 60,
    over: {
      skills: ['excel', 'sql'],
      taxonomies: ['Finance & Accounting'],
      salary: { min: 200_000, max: 250_000, currency: 'USD', unit: 'YEAR' },
      location: loc('United States', 'New York', 'New York', 'North America'),
      work_arrangement: 'Hybrid',
    },
  },
  {
    n: 37,
    source: 'techjobs',
    title: 'Sales Development Rep',
    company: unresolved('Orbit Labs', 'orbit.example'),
    age: 70,
    over: {
      skills: ['hubspot'],
      taxonomies: ['Sales'],
      location: loc('Canada', 'Vancouver', 'British Columbia', 'North America'),
      employment_type: ['FULL_TIME', 'CONTRACTOR'],
    },
  },
];

const SOURCE_OF = new Map([...SPECS, ...LATE].map((s) => [s.n, s.source]));

/** The id of posting `n`. */
export function id(n: number): string {
  const source = SOURCE_OF.get(n);
  if (!source) throw new Error(`no posting ${n}`);
  return `${source}:p${String(n).padStart(2, '0')}`;
}

/** Sorted ids of postings. */
export function ids(...ns: number[]): string[] {
  return ns.map(id).sort();
}

export const ALL_POSTINGS = [...SPECS, ...LATE].map((s) => s.n);
export const EXPIRED = [21, 33];
export const FOLDED = [20];
export const LIVE = ALL_POSTINGS.filter((n) => !EXPIRED.includes(n) && !FOLDED.includes(n));

/** Live postings except the given ones. */
export function liveExcept(...ns: number[]): number[] {
  return LIVE.filter((n) => !ns.includes(n));
}

function posting(s: Spec, now: number): CanonicalLine {
  const theId = id(s.n);
  const posted = s.age === 40 ? Math.floor((now - 40 * HOUR) / 1000) * 1000 : now - s.age * HOUR;
  const rec: PostingRecord = {
    id: theId,
    source: s.source,
    title: s.title,
    company: s.company,
    url: `https://jobs.example/${s.source}/p${String(s.n).padStart(2, '0')}`,
    description_text: `General duties for opening ${s.n}.`,
    location: US_AUSTIN,
    posted_at: new Date(posted).toISOString(),
    employment_type: ['FULL_TIME'],
    work_arrangement: 'On-site',
    seniority: 'Mid-Senior level',
    experience_level: '2-5',
    education_requirements: [],
    job_language: 'en',
    visa_sponsorship: false,
    department: 'General',
    ...s.over,
  };
  if (!rec.work_arrangement) rec.work_arrangement = 'On-site';
  return { kind: 'posting', ...rec };
}

export interface Fixture extends TestApp {
  now: number;
  /** GET with the key; parses the JSON body. */
  // biome-ignore lint/suspicious/noExplicitAny: response bodies of every shape, checked by the tests
  json(url: string): Promise<{ status: number; body: any }>;
  /** The sorted ids of a search (all pages, limit 200). */
  search(qs: string): Promise<string[]>;
}

export async function createJobsFixture(opts: { fullTextSearch?: boolean } = {}): Promise<Fixture> {
  const t = await createTestApp({ sample: false, fullTextSearch: opts.fullTextSearch });
  const now = Date.now();
  const first: CanonicalLine[] = [
    ...COMPANIES.map((c): CanonicalLine => ({ kind: 'company', ...c })),
    ...SPECS.map((s) => posting(s, now)),
  ];
  const r1 = await ingestRecords(t.db, first);
  expect(r1.rejected).toEqual([]);
  // A distinct creation instant for the late batch.
  await new Promise((r) => setTimeout(r, 20));
  const r2 = await ingestRecords(
    t.db,
    LATE.map((s) => posting(s, now)),
  );
  expect(r2.rejected).toEqual([]);
  await runRefresh(t.db);
  const json = async (url: string) => {
    const res = await t.get(url);
    return { status: res.statusCode, body: JSON.parse(res.body) };
  };
  return {
    ...t,
    now,
    json,
    async search(qs: string) {
      const res = await json(`/v1/jobs?limit=200${qs ? `&${qs}` : ''}`);
      if (res.status !== 200) throw new Error(`${qs}: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body.data as { id: string }[]).map((j) => j.id).sort();
    },
  };
}

/** Asserts a 400 naming `param`. Returns the body. */
export async function expect400(f: Fixture, url: string, param: string): Promise<{ hint: string }> {
  const res = await f.json(url);
  expect(res.status, `${url} → ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.error).toBe('invalid request');
  expect(res.body.param).toBe(param);
  expect(typeof res.body.hint).toBe('string');
  return res.body;
}

/** The count of `filters` by counting the rows of jobs, as a search without a kept total does. */
export async function countRows(f: Fixture, filters: JobFilters): Promise<number> {
  const { rows } = await f.db.write.query(
    sql`SELECT count(*) AS n FROM jobs j WHERE ${compileFilters(filters)}`,
  );
  return Number(rows[0].n);
}
