// The in-memory match index answers exactly what PostgreSQL answers: for random requests over generated
// data (countries, skills, taxonomies, every other dimension it holds, remote, visa, salary bounds, company
// industry and size, title queries in both syntaxes, collapse, offsets), the page, total and cursor of a search with the index are the same
// bytes as without it, and so is every count.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, generateRound } from '../../src/demo/generate.ts';
import { type SourceRow, upsertSources } from '../../src/db/companies-write.ts';
import { bumpDataVersion } from '../../src/db/feed-clock.ts';
import { purgeExpired } from '../../src/db/jobs-write.ts';
import { expireDue } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { instant } from '../../src/http/params/codecs.ts';
import { FACET_DIMENSIONS, INDEXED_FACETS } from '../../src/search/dimensions.ts';
import { computeFacets } from '../../src/search/facets.ts';
import { compileFilters, type JobFilters } from '../../src/search/filters.ts';
import { raw, sql } from '../../src/search/sql.ts';
import pg from 'pg';
import { fingerprint } from '../../src/search/cursor.ts';
import { countJobs, matchStats, type SearchContext, searchJobs } from '../../src/search/jobs.ts';
import { buildIndex, type MatchSource, MatchService, readIndexParts } from '../../src/search/match.ts';
import { MatchIndexBuilder, printedMicros, readIndex, saveIndex, top } from '../../src/search/match-index.ts';
import { all, complement, difference } from '../../src/search/match-sets.ts';
import { parseTsQuery, parseTsVector } from '../../src/search/match-tsquery.ts';
import { readLexemes } from '../../src/search/match-words.ts';
import { PageCache, pageSize } from '../../src/search/page-cache.ts';
import { rowCache } from '../../src/search/row-cache.ts';
import { parseAdvancedQuery, parseWebQuery } from '../../src/search/textquery.ts';
import { salaryDistribution } from '../../src/search/salary-stats.ts';
import { TotalsCache } from '../../src/search/totals.ts';
import { type TrendPoint, trendSeries, trendWithIndex } from '../../src/search/trends.ts';
import { buildInProcess } from '../../src/service/match-host.ts';
import { runRefresh } from '../../src/service/schedules.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
let match: MatchService;
const values = {
  countries: [] as string[],
  skills: [] as string[],
  taxonomies: [] as string[],
  words: [] as string[],
  industries: [] as string[],
  sizes: [] as string[],
  salaries: [] as number[],
  /** Posting times of live jobs, in milliseconds since the epoch (whole, as a window's start is). */
  posted: [] as number[],
  /** The same jobs' posting times as PostgreSQL prints them (to the microsecond). */
  postedText: [] as string[],
  /** Creation times of live jobs: in milliseconds, and as PostgreSQL prints them. */
  created: [] as number[],
  createdText: [] as string[],
  /** Runs of two to four words of real titles, as they stand (stop words too). */
  runs: [] as string[][],
  /** Description lexemes: the most common (the index holds them), rarer ones (it does not), none. */
  descWords: [] as string[],
  /** Values of the other dimensions the index holds (dimensions.ts), by filter. */
  dims: {} as Record<string, string[]>,
  /** The employer names of live postings as kept (org_key: lower-cased), LIKE's wildcards among them. */
  orgs: [] as string[],
  /** The employers' own figures: employee counts, funding, HQ countries and domains of their profiles. */
  employees: [] as number[],
  funding: [] as number[],
  hq: [] as string[],
  domains: [] as string[],
  /** The slugs of the live postings' sources, and their legacy slugs. */
  sources: [] as string[],
};

/** The other held dimensions' filters and columns: lists, then single values. */
const LISTS = {
  continent: 'continents',
  city: 'cities',
  region: 'regions',
  employment_type: 'employment_type',
  education: 'education',
};
const SINGLES = {
  work_arrangement: 'work_arrangement',
  seniority: 'seniority',
  experience_level: 'experience_level',
  language: 'language',
  salary_currency: 'salary_currency',
  source_type: 'source_type',
};

beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
  const lines = [...generateDataset({ jobs: 1200, seed: 11, now: new Date('2026-06-01T00:00:00Z') })];
  await ingestRecords(db, lines);
  await runRefresh(db);
  // Salaries PostgreSQL orders in its own way, and ties of posting time that the id must break.
  await db.write.query(
    `UPDATE jobs SET salary_annual_max = 'NaN' WHERE id IN (SELECT id FROM jobs WHERE has_salary ORDER BY id LIMIT 3)`,
  );
  await db.write.query(
    `UPDATE jobs SET salary_annual_min = NULL WHERE id IN (SELECT id FROM jobs WHERE has_salary ORDER BY id DESC LIMIT 3)`,
  );
  await db.write.query(
    `UPDATE jobs SET salary_annual_max = 'Infinity' WHERE id IN (SELECT id FROM jobs WHERE has_salary ORDER BY id LIMIT 3 OFFSET 5)`,
  );
  await db.write.query(
    `UPDATE jobs SET posted_at = '2026-05-20T00:00:00Z' WHERE id IN (SELECT id FROM jobs ORDER BY id LIMIT 40)`,
  );
  // Employer names with LIKE's wildcards in them, which the organization filter takes as plain characters.
  await db.write.query(
    `UPDATE jobs SET org_key = 'under_score 50% straße' WHERE id IN (SELECT id FROM jobs ORDER BY id LIMIT 4 OFFSET 50)`,
  );
  await db.write.query('UPDATE data_version SET version = version + 1');
  const q = async (text: string) => (await db.write.query<{ v: string }>(text)).rows.map((r) => r.v);
  values.countries = await q(
    `SELECT DISTINCT unnest(country_codes) AS v FROM jobs WHERE state = 0 ORDER BY 1 LIMIT 20`,
  );
  values.skills = await q(
    `SELECT v FROM (SELECT unnest(skills) AS v FROM jobs WHERE state = 0) s GROUP BY v ORDER BY count(*) DESC LIMIT 20`,
  );
  values.taxonomies = await q(
    `SELECT DISTINCT unnest(taxonomies) AS v FROM jobs WHERE state = 0 ORDER BY 1 LIMIT 15`,
  );
  values.words =
    await q(`SELECT v FROM (SELECT lower(unnest(string_to_array(title_raw, ' '))) AS v FROM jobs WHERE state = 0) s
                          WHERE v ~ '^[a-z]{3,}$' GROUP BY v ORDER BY count(*) DESC LIMIT 40`);
  values.industries = await q(
    `SELECT DISTINCT industry_key AS v FROM companies WHERE industry_key IS NOT NULL ORDER BY 1 LIMIT 10`,
  );
  values.sizes = await q(
    `SELECT DISTINCT size_range AS v FROM companies WHERE size_range IS NOT NULL ORDER BY 1`,
  );
  values.salaries = (
    await q(
      `SELECT DISTINCT salary_annual_min::text AS v FROM jobs WHERE has_salary AND salary_annual_min IS NOT NULL LIMIT 20`,
    )
  ).map(Number);
  // Times of 40 live jobs, in whole milliseconds and as PostgreSQL prints them (to the microsecond).
  const times = async (column: string) => {
    const { rows } = await db.write.query<{ ms: string; t: string }>(
      `SELECT floor(extract(epoch FROM ${column}) * 1000)::text AS ms, ${column}::text AS t
       FROM jobs WHERE state = 0 ORDER BY random() LIMIT 40`,
    );
    return { ms: rows.map((r) => Number(r.ms)), text: rows.map((r) => r.t) };
  };
  ({ ms: values.posted, text: values.postedText } = await times('posted_at'));
  ({ ms: values.created, text: values.createdText } = await times('created_at'));
  for (const [filter, column] of Object.entries(LISTS))
    values.dims[filter] = await q(
      `SELECT DISTINCT unnest(${column}) AS v FROM jobs WHERE state = 0 ORDER BY 1 LIMIT 12`,
    );
  for (const [filter, column] of Object.entries(SINGLES))
    values.dims[filter] = await q(
      `SELECT DISTINCT ${column} AS v FROM jobs WHERE state = 0 AND ${column} IS NOT NULL ORDER BY 1 LIMIT 12`,
    );
  values.orgs = await q(
    `SELECT v FROM (SELECT org_key AS v FROM jobs WHERE state = 0 GROUP BY org_key ORDER BY count(*) DESC, org_key LIMIT 12) o
      UNION SELECT 'under_score 50% straße'`,
  );
  const company = async (column: string) =>
    q(
      `SELECT v FROM (SELECT DISTINCT c.${column}::text AS v FROM jobs j JOIN companies c ON c.slug = j.company_slug
        WHERE j.state = 0 AND c.${column} IS NOT NULL) x ORDER BY md5(v) LIMIT 12`,
    );
  values.sources = await q(
    `SELECT n.v FROM sources s, LATERAL (VALUES (s.slug), (s.legacy_slug)) AS n(v)
      WHERE n.v IS NOT NULL AND s.slug IN (SELECT source FROM jobs WHERE state = 0) ORDER BY 1`,
  );
  values.employees = (await company('employee_count')).map(Number);
  values.funding = (await company('total_funding')).map(Number);
  values.hq = await company('hq_country');
  values.domains = await company('domain');
  const lexemes = await q(
    `SELECT word AS v FROM ts_stat('SELECT text_tsv FROM job_texts') WHERE word ~ '^[a-z]{3,}$' ORDER BY ndoc DESC, word`,
  );
  values.descWords = [...lexemes.slice(0, 30), ...lexemes.slice(400, 420), 'zzqxv'];
  const titles = await q(`SELECT title_raw AS v FROM jobs WHERE state = 0 ORDER BY id LIMIT 300`);
  for (const t of titles) {
    const ws = t.split(/\s+/).filter((w) => /^[A-Za-z]+$/.test(w));
    for (let i = 0; i + 1 < ws.length; i++) values.runs.push(ws.slice(i, i + 2 + (i % 3)));
  }
  match = new MatchService(db.read);
  await match.refresh();
}, 120_000);

afterAll(async () => {
  await db?.drop();
});

const sub = <T>(xs: () => T[]) => fc.uniqueArray(fc.constantFrom(...xs()), { minLength: 1, maxLength: 2 });

/** A title in the web syntax: words, a quoted phrase, OR, an exclusion, a prefix-like short word. */
const webTitle = () =>
  fc.oneof(
    fc.constantFrom(...values.words),
    fc.constantFrom(...values.runs).map((r) => `"${r.join(' ')}"`),
    fc
      .tuple(fc.constantFrom(...values.words), fc.constantFrom(...values.words))
      .map(([a, b]) => `${a} OR ${b}`),
    fc
      .tuple(fc.constantFrom(...values.words), fc.constantFrom(...values.words))
      .map(([a, b]) => `${a} -${b}`),
    fc
      .array(
        fc.oneof(
          fc.constantFrom(...values.words),
          fc.constant('OR'),
          fc.constantFrom('of', 'the', 'and', 'c++', 'node.js', 'front-end'),
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((ws) => ws.join(' ')),
  );

const advancedTitle = () =>
  fc.oneof(
    // Words of a real title at their distance apart: <N> phrases that match.
    fc.constantFrom(...values.runs).map((r) => `${r[0]} <${r.length - 1}> ${r[r.length - 1]}`),
    fc.constantFrom(...values.runs).map((r) => r.join(' <-> ')),
    randomAdvanced(),
  );

const randomAdvanced = () =>
  fc
    .tuple(
      fc.constantFrom(...values.words),
      fc.constantFrom(...values.words),
      fc.constantFrom(...values.words),
      fc.constantFrom('&', '|', '<->', '<2>'),
      fc.constantFrom('&', '|', '& !', '| !', '<->'),
      fc.boolean(),
    )
    .map(([a, b, c, op1, op2, prefix]) => `(${a}${prefix ? ':*' : ''} ${op1} ${b}) ${op2} ${c}`);

/** A description search in either syntax: words, OR, NOT, prefixes, a phrase (PostgreSQL's). */
const descriptionText = () =>
  fc.oneof(
    fc.constantFrom(...values.descWords),
    fc
      .tuple(fc.constantFrom(...values.descWords), fc.constantFrom(...values.descWords))
      .map(([a, b]) => `${a} OR ${b}`),
    fc
      .tuple(fc.constantFrom(...values.descWords), fc.constantFrom(...values.descWords))
      .map(([a, b]) => `${a} -${b}`),
    fc
      .tuple(fc.constantFrom(...values.descWords), fc.constantFrom(...values.descWords))
      .map(([a, b]) => `"${a} ${b}"`),
  );
const descriptionAdvanced = () =>
  fc
    .tuple(
      fc.constantFrom(...values.descWords),
      fc.constantFrom(...values.descWords),
      fc.constantFrom('&', '|', '& !', '| !'),
      fc.constantFrom(0, 3, 4, 6),
    )
    .map(([a, b, op, cut]) => (cut ? `${a.slice(0, cut)}:* ${op} ${b}` : `!${a} ${op} ${b}`));

/**
 * An instant parameter as the codec gives it: a job's posting time as PostgreSQL prints it, or a
 * millisecond either side of one, written in one of three zones.
 */
const postedBound = (param: string) => instantBound(param, values.postedText, values.posted);

/** The same, of creation times (many rows of one load share one). */
const createdBound = (param: string) => instantBound(param, values.createdText, values.created);

function instantBound(param: string, texts: string[], ms: number[]) {
  return fc.oneof(
    fc.constantFrom(...texts).map((t) => instant.parse(t, param)),
    fc
      .tuple(
        fc.constantFrom(...ms),
        fc.constantFrom(-1, 0, 1),
        fc.constantFrom(['Z', 0], ['+05:30', 330], ['-08:00', -480]) as fc.Arbitrary<[string, number]>,
      )
      .map(([at, edge, [zone, minutes]]) =>
        instant.parse(new Date(at + edge + minutes * 60_000).toISOString().replace('Z', zone), param),
      ),
  );
}

/** A bound as the parameter takes it (1 to `max`): a company's figure, a unit either side, or a round one. */
const companyBound = (figures: () => number[], max: number) =>
  fc.oneof(
    fc.tuple(fc.constantFrom(...figures()), fc.constantFrom(-1, 0, 1)).map(([x, d]) => Math.max(1, x + d)),
    fc.constantFrom(1, 50, 1000, max),
  );

/** One to three filters (more rarely match anything in 1,200 postings). */
function filtersArb(): fc.Arbitrary<JobFilters> {
  const each: Record<string, fc.Arbitrary<unknown>> = {
    country: sub(() => [...values.countries, 'ZZ']),
    skill: sub(() => values.skills),
    taxonomies: sub(() => values.taxonomies),
    remote: fc.boolean(),
    has_salary: fc.boolean(),
    visa_sponsorship: fc.constantFrom('only', 'exclude'),
    salary_gte: fc.oneof(fc.constantFrom(...values.salaries), fc.integer({ min: 0, max: 400_000 })),
    salary_lte: fc.oneof(fc.constantFrom(...values.salaries), fc.integer({ min: 0, max: 400_000 })),
    company_industry: sub(() => values.industries),
    // A substring of an employer's name in any case, a wildcard of LIKE, or nothing any name holds.
    organization: fc.oneof(
      fc
        .tuple(fc.constantFrom(...values.orgs), fc.nat(), fc.integer({ min: 1, max: 6 }), fc.boolean())
        .map(([name, at, len, upper]) => {
          const part = name.slice(at % name.length, (at % name.length) + len);
          return upper ? part.toUpperCase() : part;
        }),
      fc.constantFrom('%', '_', '50%', 'e_s', 'STRASSE', 'Straße', 'zzqx'),
    ),
    exclude_organization: sub(() => [...values.orgs, 'zz']),
    // A company's figure, a unit either side of it, or a round bound.
    employee_count_gte: companyBound(() => values.employees, 100_000_000),
    employee_count_lt: companyBound(() => values.employees, 100_000_000),
    funding_gte: companyBound(() => values.funding, 1e15),
    funding_lt: companyBound(() => values.funding, 1e15),
    company_country: sub(() => [...values.hq, 'ZZ']),
    domain: sub(() => [...values.domains, 'zz.example']),
    // A source by its slug or its legacy one, or one that names no source.
    source: sub(() => [...values.sources, 'zz']),
    exclude_source: sub(() => [...values.sources, 'zz']),
    company_size: sub(() => values.sizes),
    ...Object.fromEntries(
      [...Object.keys(LISTS), ...Object.keys(SINGLES)].map((k) => [k, sub(() => [...values.dims[k], 'zz'])]),
    ),
    // A window that starts at a job's posting time, a millisecond either side of it, or far back.
    time_frame: fc
      .tuple(
        fc.constantFrom(...values.posted),
        fc.constantFrom(-1, 0, 1),
        fc.constantFrom(3_600_000, 86_400_000, 3650 * 86_400_000),
      )
      .map(([posted, edge, ms]) => ({ text: 'window', ms, at: posted + edge + ms })),
    posted_gte: postedBound('posted_gte'),
    posted_lt: postedBound('posted_lt'),
    created_gte: createdBound('created_gte'),
    created_lt: createdBound('created_lt'),
    title: webTitle().chain((t) => {
      try {
        return fc.constant(parseWebQuery(t));
      } catch {
        return fc.constant(undefined);
      }
    }),
    title_advanced: advancedTitle().chain((t) => {
      try {
        return fc.constant(parseAdvancedQuery(t));
      } catch {
        return fc.constant(undefined);
      }
    }),
    description: descriptionText().map((t) => parseWebQuery(t)),
    description_advanced: descriptionAdvanced().map((t) => parseAdvancedQuery(t)),
  };
  return fc
    .uniqueArray(fc.constantFrom(...Object.keys(each)), { minLength: 0, maxLength: 3 })
    .chain(
      (keys) => fc.record(Object.fromEntries(keys.map((k) => [k, each[k]]))) as fc.Arbitrary<JobFilters>,
    );
}

const plain = (): SearchContext => ({ pool: db.read, cursorSecret: 's' });
const indexed = (): SearchContext => ({ pool: db.read, cursorSecret: 's', totals: new TotalsCache(), match });

describe('the match index', () => {
  it('was built at the current version with every live job', async () => {
    const { rows } = await db.read.query<{ n: string; v: string }>(
      'SELECT (SELECT count(*) FROM jobs WHERE state = 0) AS n, (SELECT version FROM data_version) AS v',
    );
    expect(match.status.rows).toBe(Number(rows[0].n));
    expect(match.status.version).toBe(Number(rows[0].v));
  });

  it('pages, totals and counts are those of PostgreSQL, byte for byte', async () => {
    const rows = rowCache(1 << 16);
    let answered = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        filtersArb(),
        fc.boolean(),
        fc.constantFrom(0, 0, 3, 25),
        fc.constantFrom(1, 10, 30),
        fc.constantFrom(undefined, 'text' as const, 'html' as const),
        async (filters, collapse, offset, limit, descriptionFormat) => {
          runs++;
          const req = { filters, collapse, offset, limit, descriptionFormat };
          const version = match.status.version!;
          const a = await match.ask({ version, filters, collapse, offset, limit });
          if (a) answered++;
          const want = await searchJobs(plain(), req);
          const got = await searchJobs(indexed(), req);
          expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
          // Through a page cache, at the version the request was admitted at, as the routes search.
          const kept = await searchJobs(
            { ...indexed(), pages: new PageCache(1 << 22, pageSize), version },
            req,
          );
          expect({ ...kept, data: kept.data.toString() }).toEqual({ ...want, data: want.data.toString() });
          // With the rendered rows that earlier pages of this version read (a small cache: rows go too).
          const shared = await searchJobs({ ...indexed(), rows, version }, req);
          expect({ ...shared, data: shared.data.toString() }).toEqual({
            ...want,
            data: want.data.toString(),
          });
          expect(await countJobs(indexed(), filters, collapse)).toBe(
            await countJobs(plain(), filters, collapse),
          );
        },
      ),
      { numRuns: 200 },
    );
    // Most requests were the index's to answer (text queries it cannot read go to PostgreSQL).
    expect(answered / runs).toBeGreaterThan(0.8);
    expect(rows.hits).toBeGreaterThan(0);
  }, 240_000);

  it('gives a page PostgreSQL finds the number of live jobs, which it would otherwise count', async () => {
    // A filter the index does not hold: PostgreSQL finds the page.
    const filters: JobFilters = { created_gte: '2000-01-01T00:00:00Z' };
    const version = match.status.version!;
    const totals = new TotalsCache();
    // Totals of its shape seen many: counted apart from the page, whose strategy the live jobs steer.
    totals.observe('created_gte', false);
    expect(await match.ask({ version, filters, collapse: false, offset: 0, limit: 5 })).toBeUndefined();
    const page = await searchJobs(
      { ...indexed(), totals, version },
      { filters, collapse: false, offset: 0, limit: 5 },
    );
    expect(page.total).toBe(match.status.rows);
    // The live jobs steered the page's strategy: the index's number, kept; no total was counted for it.
    expect(totals.peek(version, `jobs|${fingerprint('jobs', {})}`)).toBe(match.status.rows);
    expect(totals.misses).toBe(1);
  });

  it('counts the values of every facet it keeps as PostgreSQL groups them', async () => {
    // Each facet's values among the matches, as PostgreSQL reads them from the tables.
    const VALUES: Record<string, string> = {
      country: 'SELECT unnest(j.country_codes)',
      continent: 'SELECT unnest(j.continents)',
      city: 'SELECT unnest(j.cities)',
      region: 'SELECT unnest(j.regions)',
      skills: 'SELECT unnest(j.skills)',
      taxonomies: 'SELECT unnest(j.taxonomies)',
      employment_type: 'SELECT unnest(j.employment_type)',
      education_requirements: 'SELECT unnest(j.education)',
      work_arrangement: 'SELECT j.work_arrangement WHERE j.work_arrangement IS NOT NULL',
      seniority: 'SELECT j.seniority WHERE j.seniority IS NOT NULL',
      experience_level: 'SELECT j.experience_level WHERE j.experience_level IS NOT NULL',
      job_language: 'SELECT j.language WHERE j.language IS NOT NULL',
      salary_currency: 'SELECT j.salary_currency WHERE j.salary_currency IS NOT NULL',
      source: 'SELECT j.source',
      source_type: 'SELECT j.source_type',
      company: 'SELECT j.company_slug WHERE j.company_slug IS NOT NULL',
      company_industry:
        'SELECT c.industry_key FROM companies c WHERE c.slug = j.company_slug AND c.industry_key IS NOT NULL',
      company_size:
        'SELECT c.size_range FROM companies c WHERE c.slug = j.company_slug AND c.size_range IS NOT NULL',
      remote: 'SELECT j.remote::text',
    };
    const names = Object.keys(VALUES);
    let answered = 0;
    let grouped = 0;
    await fc.assert(
      fc.asyncProperty(
        filtersArb(),
        fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(1, 3, 100),
        fc.boolean(),
        fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(1, 3, 100),
        async (filters, facets, limit, collapse, again, limitAgain) => {
          const version = match.status.version!;
          // Asked twice, the second time of other dimensions and another limit: the counts kept of the
          // filters by the first answer the dimensions both ask, at any limit.
          for (const [names, top] of [
            [facets, limit],
            [again, limitAgain],
          ] as const) {
            const a = await match.ask({
              version,
              filters,
              collapse,
              offset: 0,
              limit: 0,
              facets: { names: [...names], limit: top },
            });
            if (!a) return;
            answered++;
            if (collapse) grouped++;
            expect(a.total).toBe(await countJobs(plain(), filters, collapse));
            const where = compileFilters(filters);
            // Collapsed: the groups (company + title) with a match of the value, or with a match of none.
            const n = raw(collapse ? 'count(DISTINCT j.collapse_key)::int' : 'count(*)::int');
            for (const name of names) {
              const { rows } = await db.read.query<{ v: string; n: number }>(
                sql`SELECT v.v, ${n} AS n FROM jobs j CROSS JOIN LATERAL (${raw(VALUES[name])}) AS v(v)
                    WHERE ${where} GROUP BY v.v ORDER BY n DESC, v.v COLLATE "C"`,
              );
              const { rows: none } = await db.read.query<{ n: number }>(
                sql`SELECT ${n} AS n FROM jobs j WHERE ${where} AND NOT EXISTS (${raw(VALUES[name])})`,
              );
              expect(a.facets![name], name).toEqual({
                values: rows.slice(0, top).map((r) => [r.v, r.n]),
                distinct: rows.length,
                missing: none[0].n,
              });
            }
          }
        },
      ),
      { numRuns: 120 },
    );
    expect(answered).toBeGreaterThan(120);
    expect(grouped).toBeGreaterThan(40);
  }, 240_000);

  it('computes the salary distribution PostgreSQL computes, figure for figure and bucket for bucket', async () => {
    const edgesArb = fc.option(
      fc
        .uniqueArray(fc.integer({ min: 0, max: 400_000 }), { minLength: 1, maxLength: 6 })
        .map((xs) => xs.sort((a, b) => a - b)),
      { nil: undefined },
    );
    let answered = 0;
    let figures = 0;
    await fc.assert(
      fc.asyncProperty(filtersArb(), edgesArb, async (filters, edges) => {
        const version = match.status.version!;
        const a = await match.ask({
          version,
          filters,
          collapse: false,
          offset: 0,
          limit: 0,
          salary: edges ? { edges } : {},
        });
        if (!a) return;
        answered++;
        figures += a.salary!.length;
        const want = await salaryDistribution(db.read, compileFilters(filters), edges);
        expect({
          total: a.total,
          with_salary: a.salary!.reduce((s, c) => s + c.count, 0),
          currencies: a.salary,
        }).toEqual(want);
      }),
      { numRuns: 120 },
    );
    expect(answered).toBeGreaterThan(60);
    expect(figures).toBeGreaterThan(60);
  }, 240_000);

  it('counts any title text as PostgreSQL does, or leaves it to PostgreSQL', async () => {
    const version = match.status.version!;
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc
        .array(
          fc.oneof(
            fc.constantFrom(...values.words),
            fc.constantFrom('"', '-', 'OR', "'", '\\', ':*', '!', '&'),
          ),
          {
            maxLength: 6,
          },
        )
        .map((ws) => ws.join(' ')),
    );
    await fc.assert(
      fc.asyncProperty(text, fc.boolean(), async (t, advanced) => {
        let q: string;
        try {
          q = advanced ? parseAdvancedQuery(t) : parseWebQuery(t);
        } catch {
          return;
        }
        const filters = advanced ? { title_advanced: q } : { title: q };
        const a = await match.ask({ version, filters, collapse: false, offset: 0, limit: 0 });
        if (a) expect(a.total, t).toBe(await countJobs(plain(), filters, false));
      }),
      { numRuns: 150 },
    );
  });

  it('counts every description search but a phrase as PostgreSQL does, and leaves phrases to it', async () => {
    const version = match.status.version!;
    expect(match.current!.heldWords.length).toBeGreaterThan(20);
    let answered = 0;
    let phrases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          descriptionText().map((t) => ({
            text: { description: parseWebQuery(t) },
            phrase: t.includes('"'),
          })),
          descriptionAdvanced().map((t) => ({
            text: { description_advanced: parseAdvancedQuery(t) },
            phrase: false,
          })),
        ),
        fc.option(sub(() => values.countries)),
        async ({ text, phrase }, country) => {
          const filters: JobFilters = { ...text, ...(country ? { country } : {}) };
          const q = { version, filters, collapse: false, offset: 0, limit: 5 };
          // The gate's probe says whether the index answers, before it does.
          const probe = await match.ask({ ...q, filters: text, probe: true });
          const a = await match.ask(q);
          expect(probe !== undefined, JSON.stringify(text)).toBe(a !== undefined);
          // A phrase is PostgreSQL's (no positions are kept); everything else is answered.
          const words = Object.values(text)[0]!;
          expect(a === undefined, words).toBe(phrase);
          if (!a) {
            phrases++;
            return;
          }
          answered++;
          const want = await searchJobs(plain(), { filters, collapse: false, offset: 0, limit: 5 });
          expect(a.total, JSON.stringify(filters)).toBe(want.total);
          expect(a.ids).toEqual(JSON.parse(want.data.toString()).map((j: { id: string }) => j.id));
        },
      ),
      { numRuns: 200 },
    );
    expect(answered).toBeGreaterThan(100);
    expect(phrases).toBeGreaterThan(5);
    // A word of no description is no match; a common one and one in a few descriptions are answered
    // from the index at once, the rare one's rows held like any other's.
    const ask = (description: string, probe = false) =>
      match.ask({ version, filters: { description }, collapse: false, offset: 0, limit: 0, probe });
    expect(await ask('zzqxv')).toEqual({ total: 0, ids: [] });
    expect((await ask(values.descWords[0]))?.total).toBeGreaterThan(0);
    const { rows } = await db.read.query<{ v: string }>(
      `SELECT word AS v FROM ts_stat('SELECT text_tsv FROM job_texts') WHERE word ~ '^[a-z]{4,}$'
        AND ndoc BETWEEN 2 AND 5 ORDER BY word LIMIT 1`,
    );
    const rare = rows[0].v;
    expect(match.current!.heldWords).not.toContain(rare);
    expect(await ask(rare, true)).toBeDefined();
    const counted = await countJobs(plain(), { description: rare }, false);
    expect(counted).toBeGreaterThan(1);
    expect((await ask(rare))?.total).toBe(counted);
    // Its prefix too, every lexeme that starts so, held or not.
    const prefix = { description_advanced: parseAdvancedQuery(`${rare.slice(0, 3)}:*`) };
    const p = await match.ask({ version, filters: prefix, collapse: false, offset: 0, limit: 0 });
    expect(p?.total).toBe(await countJobs(plain(), prefix, false));
  });

  it('matches phrases of real titles at every distance as PostgreSQL does', async () => {
    const version = match.status.version!;
    let matched = 0;
    for (const r of values.runs.slice(0, 120)) {
      const last = r.length - 1;
      for (const title_advanced of [
        `${r[0]} <${last}> ${r[last]}`,
        r.join(' <-> '),
        `${r[0]} <${last + 1}> ${r[last]}`,
      ]) {
        const filters = { title_advanced: parseAdvancedQuery(title_advanced) };
        const a = await match.ask({ version, filters, collapse: false, offset: 0, limit: 0 });
        expect(a, title_advanced).toBeDefined();
        expect(a!.total, title_advanced).toBe(await countJobs(plain(), filters, false));
        if (a!.total > 0) matched++;
      }
    }
    expect(matched).toBeGreaterThan(100);
  });

  it('is built through a pool whose statement timeout is shorter than its reads (a build has none)', async () => {
    // A read of the jobs is made to outlast the timeout by a lock held for longer: a request's statement
    // ends, a build's waits. (A timeout of a few ms would race the build's own BEGIN on a busy machine.)
    const hasty = new pg.Pool({ connectionString: db.url, statement_timeout: 200 });
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE');
      await expect(hasty.query('SELECT count(*) FROM jobs')).rejects.toThrow(/statement timeout/);
      const released = new Promise((resolve) => setTimeout(resolve, 600)).then(() => locker.query('COMMIT'));
      const started = Date.now();
      const index = await buildIndex(hasty, match.current!.heldWords);
      await released;
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      expect(index.size).toBe(match.current!.size);
      expect(index.version).toBe(match.status.version);
    } finally {
      await locker.query('ROLLBACK').catch(() => {});
      await locker.end();
      await hasty.end();
    }
  });

  it('built in a child process (as the service builds it), answers as built here', async () => {
    const child = new MatchService(
      db.read,
      () => {},
      undefined,
      buildInProcess(
        { ...db.config, DATABASE_URL: db.url },
        path.join(os.tmpdir(), `match-build-${process.pid}.bin`),
      ),
    );
    await child.refresh();
    expect(child.status).toMatchObject({
      builds: 1,
      version: match.status.version,
      rows: match.status.rows,
    });
    await fc.assert(
      fc.asyncProperty(
        filtersArb(),
        fc.boolean(),
        fc.constantFrom(0, 7),
        async (filters, collapse, offset) => {
          const q = { version: match.status.version!, filters, collapse, offset, limit: 10 };
          expect(await child.ask(q)).toEqual(await match.ask(q));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('walks cursor pages as PostgreSQL does', async () => {
    const before = matchStats.answered;
    let pages = 0;
    await fc.assert(
      fc.asyncProperty(filtersArb(), fc.constantFrom(1, 4, 25), async (filters, limit) => {
        let cursor: string | undefined;
        for (let i = 0; i < 4; i++) {
          const req = { filters, collapse: false, offset: 0, limit, cursor };
          const want = await searchJobs(plain(), req);
          const got = await searchJobs(indexed(), req);
          expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
          const version = match.status.version!;
          const kept = await searchJobs(
            { ...indexed(), pages: new PageCache(1 << 22, pageSize), version },
            req,
          );
          expect({ ...kept, data: kept.data.toString() }).toEqual({ ...want, data: want.data.toString() });
          if (i > 0) pages++;
          if (!want.nextCursor) break;
          cursor = want.nextCursor;
        }
      }),
      { numRuns: 60 },
    );
    // Cursor pages were answered by the index (two asks a page: plain asks none).
    expect(matchStats.answered - before).toBeGreaterThan(pages);
  }, 240_000);

  it('reads the times PostgreSQL prints as their microseconds', async () => {
    const { rows } = await db.read.query<{ at: string; us: string }>(
      `SELECT t::text AS at, (extract(epoch FROM t) * 1000000)::bigint::text AS us
         FROM (SELECT posted_at AS t FROM jobs UNION ALL
               SELECT timestamptz '2001-02-03 04:05:06+00' UNION ALL SELECT timestamptz '2024-02-29 23:59:59.9+00'
               UNION ALL SELECT timestamptz '1999-12-31 23:00:00.000001+00') x`,
    );
    for (const r of rows) expect(printedMicros(r.at), r.at).toBe(Number(r.us));
    for (const other of [
      '',
      'infinity',
      '2026-11-20T10:11:12Z',
      '0099-01-01 00:00:00+00',
      '2026-11-20 10:11:12',
    ])
      expect(printedMicros(other)).toBeUndefined();
    expect(printedMicros('2026-11-20 10:11:12.5+05:30')).toBe(
      Date.UTC(2026, 10, 20, 4, 41, 12) * 1000 + 500_000,
    );
  });

  it('reads a page it answers in one statement, kept or not, with no snapshot around it', async () => {
    const version = match.status.version!;
    const { rows } = await db.read.query<{ c: string }>(
      'SELECT unnest(country_codes) AS c FROM jobs WHERE state = 0 GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
    );
    const country = rows[0].c;
    for (const collapse of [false, true])
      for (const kept of [false, true]) {
        const seen = { query: 0, connect: 0 };
        const pool = new Proxy(db.read, {
          get(target, prop) {
            if (prop === 'query' || prop === 'connect') seen[prop]++;
            const v = Reflect.get(target, prop, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        }) as pg.Pool;
        const pages = kept ? new PageCache(1 << 22, pageSize) : undefined;
        // The version the request was admitted at, as the routes pass it.
        const ctx: SearchContext = { ...indexed(), pool, pages, version };
        const req = { filters: { country: [country] }, collapse, offset: 2, limit: 5 };
        const got = await searchJobs(ctx, req);
        expect(seen, `collapse ${collapse}, kept ${kept}`).toEqual({ query: 1, connect: 0 });
        const want = await searchJobs(plain(), req);
        expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
        if (kept) {
          // Kept under the version it was answered at: asked again, no statement at all.
          await searchJobs(ctx, req);
          expect(seen.query).toBe(1);
        }
      }
  });

  it('reads only the rows no earlier page of its version read, and reads them again at a newer version', async () => {
    const version = match.status.version!;
    const { rows: top } = await db.read.query<{ c: string }>(
      'SELECT unnest(country_codes) AS c FROM jobs WHERE state = 0 GROUP BY 1 ORDER BY count(*) DESC LIMIT 1',
    );
    const ids: string[][] = [];
    const pool = new Proxy(db.read, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target);
        if (prop !== 'query') return typeof v === 'function' ? v.bind(target) : v;
        return (q: { values: unknown[] }) => {
          ids.push(q.values[0] as string[]);
          return target.query(q as never);
        };
      },
    }) as pg.Pool;
    const rows = rowCache(1 << 22);
    const ctx = (v: number): SearchContext => ({ ...indexed(), pool, rows, version: v });
    const ask = (c: SearchContext, offset: number, descriptionFormat?: 'text') =>
      searchJobs(c, {
        filters: { country: [top[0].c] },
        collapse: false,
        offset,
        limit: 5,
        descriptionFormat,
      });
    const first = await ask(ctx(version), 0);
    expect(ids.map((x) => x.length)).toEqual([5]);
    // Overlapping the first page by two rows: the three others alone are read.
    const second = await ask(ctx(version), 3);
    expect(ids.map((x) => x.length)).toEqual([5, 3]);
    expect(ids[1]).not.toContain(ids[0][3]);
    // Every row kept: no statement; another description format is other rows.
    expect((await ask(ctx(version), 0)).data.toString()).toBe(first.data.toString());
    expect(ids.length).toBe(2);
    await ask(ctx(version), 0, 'text');
    expect(ids.map((x) => x.length)).toEqual([5, 3, 5]);
    for (const [page, offset] of [
      [first, 0],
      [second, 3],
    ] as const)
      expect(page.data.toString()).toBe(
        (
          await searchJobs(plain(), { filters: { country: [top[0].c] }, collapse: false, offset, limit: 5 })
        ).data.toString(),
      );
    // One of the page's jobs changes (its title, at a new data version): read again, as it now is.
    const changed = ids[0][0];
    await db.write.query(
      `UPDATE jobs SET doc = replace(doc, '"title":"', '"title":"Changed ') WHERE id = $1`,
      [changed],
    );
    await bumpDataVersion(db.write);
    await match.refresh(Date.now() + 3_600_000);
    const now = match.status.version!;
    expect(now).toBeGreaterThan(version);
    const after = await ask(ctx(now), 0);
    expect(ids.map((x) => x.length)).toEqual([5, 3, 5, 5]);
    expect(after.data.toString()).toContain('"title":"Changed ');
    expect(after.data.toString()).toBe(
      (
        await searchJobs(plain(), { filters: { country: [top[0].c] }, collapse: false, offset: 0, limit: 5 })
      ).data.toString(),
    );
    await db.write.query(
      `UPDATE jobs SET doc = replace(doc, '"title":"Changed ', '"title":"') WHERE id = $1`,
      [changed],
    );
    await bumpDataVersion(db.write);
    await match.refresh(Date.now() + 3_600_000);
  });

  it('answers a window anchored at each request, and keeps none of its totals', async () => {
    // One context for every request, as a worker has: a total kept under the window's key would be
    // served to the next request, whose window ends later.
    const ctx = indexed();
    const sorted = [...values.posted].sort((a, b) => a - b);
    const before = matchStats.answered;
    for (const posted of sorted) {
      for (const collapse of [false, true]) {
        const filters: JobFilters = { time_frame: { text: '1h', ms: 3_600_000, at: posted + 3_600_000 } };
        const expected = await countJobs(plain(), filters, collapse);
        expect(await countJobs(ctx, filters, collapse)).toBe(expected);
        const page = await searchJobs(ctx, { filters, collapse, offset: 0, limit: 5 });
        expect(page.total).toBe(expected);
      }
    }
    expect(matchStats.answered - before).toBe(sorted.length * 4);
  });

  it('answers nothing for a version it was not built at, or for filters it does not hold', async () => {
    const version = match.status.version!;
    expect(
      await match.ask({ version: version + 1, filters: {}, collapse: false, offset: 0, limit: 1 }),
    ).toBeUndefined();
    // A description phrase: no positions are kept of descriptions.
    const phrase = `'${values.descWords[0]}' <-> '${values.descWords[1]}'`;
    expect(
      await match.ask({ version, filters: { description: phrase }, collapse: false, offset: 0, limit: 1 }),
    ).toBeUndefined();
    expect(await match.ask({ version, filters: {}, collapse: false, offset: 0, limit: 1 })).toBeDefined();
  });

  it('follows an expiry by marking the jobs that left, without a build', async () => {
    const before = { ...match.status };
    // Facets of every live row (collapsed or not), kept by the index until a row leaves: asked before the expiry.
    const everyGrouped = {
      version: match.status.version!,
      filters: {},
      collapse: true,
      offset: 0,
      limit: 0,
      facets: { names: ['country', 'company', 'remote'], limit: 5 },
    };
    expect(await match.ask(everyGrouped)).toBeDefined();
    // And those of rows, kept likewise; and those of filters, kept per filters.
    expect(await match.ask({ ...everyGrouped, collapse: false })).toBeDefined();
    const names = ['country', 'skills', 'company', 'remote'];
    const faceted = [
      [{}, false],
      [{}, true],
      [{ remote: false }, false],
      [{ remote: true }, false],
      [{ country: values.countries.slice(0, 1) }, false],
    ] as [JobFilters, boolean][];
    for (const [filters, collapse] of faceted)
      expect(
        await match.ask({ ...everyGrouped, filters, collapse, facets: { names, limit: 5 } }),
      ).toBeDefined();
    // A description search alone, counted on its bitmap less the dead rows' (asked before and after).
    const described = { description: parseWebQuery(values.descWords[0]) };
    expect(
      await match.ask({
        version: match.status.version!,
        filters: described,
        collapse: false,
        offset: 0,
        limit: 10,
      }),
    ).toBeDefined();
    const { rowCount } = await db.write.query(
      `UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id IN (
         SELECT j.id FROM jobs j WHERE j.state = 0
            AND NOT EXISTS (SELECT 1 FROM jobs d WHERE d.duplicate_of = j.id)
          ORDER BY j.posted_at DESC LIMIT 6)`,
    );
    expect(rowCount).toBe(6);
    expect(await expireDue(db)).toBe(6);
    await match.refresh();
    expect(match.status.builds).toBe(before.builds);
    expect(match.status.carried).toBe(before.carried + 1);
    expect(match.status.rows).toBe(before.rows! - 6);
    const requests: { filters: JobFilters; collapse: boolean }[] = [
      { filters: {}, collapse: false },
      { filters: {}, collapse: true },
      { filters: { country: values.countries.slice(0, 2) }, collapse: false },
      { filters: { skill: values.skills.slice(0, 1) }, collapse: true },
      { filters: { title: parseWebQuery(values.words[0]) }, collapse: false },
      { filters: described, collapse: false },
    ];
    for (const { filters, collapse } of requests) {
      const req = { filters, collapse, offset: 0, limit: 10 };
      const a = await match.ask({ version: match.status.version!, ...req });
      expect(a).toBeDefined();
      const want = await searchJobs(plain(), req);
      const got = await searchJobs(indexed(), req);
      expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
    }
    // Facets with rows dead: most rows are counted as every row's counts less the others' (the dead among
    // them), and come out as PostgreSQL groups them.
    const dims = FACET_DIMENSIONS.filter((d) => names.includes(d.name));
    for (const [filters, collapse] of faceted) {
      const a = await match.ask({
        version: match.status.version!,
        filters,
        collapse,
        offset: 0,
        limit: 0,
        facets: { names, limit: 5 },
      });
      const want = await computeFacets(db.read, { where: compileFilters(filters), collapse, limit: 5 }, dims);
      expect(a!.total).toBe(want.total);
      for (const name of names)
        expect(a!.facets![name], name).toEqual({
          values: want.facets[name].values.map((v) => [String(v.value), v.count]),
          distinct: want.facets[name].distinct,
          missing: want.facets[name].missing,
        });
    }
    // Trends with rows gone since the build: each one's expiry carried, counted as PostgreSQL counts it.
    await expectTrendsAsPostgres([{}, { remote: false }, { country: values.countries.slice(0, 1) }]);
    // With rows dead, random requests at offsets and by cursor: the dead ones counted apart and skipped.
    await fc.assert(
      fc.asyncProperty(
        filtersArb(),
        fc.constantFrom(0, 1, 4, 25),
        fc.constantFrom(1, 5),
        async (filters, offset, limit) => {
          let cursor: string | undefined;
          for (let i = 0; i < 3; i++) {
            const req = { filters, collapse: false, offset: cursor ? 0 : offset, limit, cursor };
            const want = await searchJobs(plain(), req);
            const got = await searchJobs(indexed(), req);
            expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
            if (!want.nextCursor) break;
            cursor = want.nextCursor;
          }
          expect(await countJobs(indexed(), filters, false)).toBe(await countJobs(plain(), filters, false));
        },
      ),
      { numRuns: 80 },
    );
  }, 240_000);

  /**
   * The trend of each filter over the last `days` days (by day, to a minute from now) from the index
   * equals PostgreSQL's, and the index answered it; the series, by filter.
   */
  const expectTrendsAsPostgres = async (filters: JobFilters[], days = 120) => {
    const until = Date.now() + 60_000;
    const out: TrendPoint[][] = [];
    for (const f of filters) {
      const req = {
        where: compileFilters(f, { anyState: true }),
        interval: 'day' as const,
        since: until - days * 86_400_000,
        until,
      };
      const version = match.status.version!;
      const us = { since: req.since * 1000, step: 86_400_000_000, until: until * 1000 };
      const asked = { version, filters: f, collapse: false, offset: 0, limit: 0, trend: us };
      expect((await match.ask(asked))?.trend).toBeDefined();
      const want = await trendSeries(db.read, req);
      expect(await trendWithIndex(indexed(), f, req)).toEqual(want);
      out.push(want);
    }
    return out;
  };

  /** Expires the `n` oldest live jobs that no copy points to: a change an index carries. */
  const expireOldest = async (n: number) => {
    await db.write.query(
      `UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id IN (
         SELECT j.id FROM jobs j WHERE j.state = 0
            AND NOT EXISTS (SELECT 1 FROM jobs d WHERE d.duplicate_of = j.id)
          ORDER BY j.posted_at LIMIT $1)`,
      [n],
    );
    expect(await expireDue(db)).toBe(n);
  };

  it('catches up with an expiry as soon as a request of its version asks, without waiting for its next look', async () => {
    // A minute to catch up: a catch-up that found nothing to do would leave the version behind.
    const service = new MatchService(db.read, () => {}, undefined, undefined, undefined, true, 60_000);
    await service.refresh();
    await expireOldest(1);
    const { rows } = await db.read.query<{ version: string }>('SELECT version FROM data_version');
    const version = Number(rows[0].version);
    expect(service.status.version).toBeLessThan(version);
    await service.catchUp(version);
    expect(service.status).toMatchObject({ version, builds: 1, carried: 1 });
  });

  it("asks again at the version the data moved on to while a page's rows were read, instead of PostgreSQL", async () => {
    const service = new MatchService(db.read, () => {}, undefined, undefined, undefined, true, 60_000);
    await service.refresh();
    const version = service.status.version!;
    // An expiry commits between the index's answer and the read of the page's rows, once.
    let expired = false;
    const source: MatchSource = {
      ask: async (q) => {
        const a = await service.ask(q);
        if (!expired) {
          expired = true;
          await expireOldest(1);
        }
        return a;
      },
      catchUp: (v) => service.catchUp(v),
    };
    const before = { ...matchStats };
    const req = { filters: { description: values.descWords[0] }, collapse: false, offset: 0, limit: 5 };
    const got = await searchJobs({ pool: db.read, cursorSecret: 's', match: source, version }, req);
    expect(service.status.version).toBeGreaterThan(version);
    expect({
      moved: matchStats.moved - before.moved,
      answered: matchStats.answered - before.answered,
      declined: matchStats.declined - before.declined,
    }).toEqual({ moved: 1, answered: 2, declined: 0 });
    const want = await searchJobs(plain(), req);
    expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
  });

  it('warmed as a service warms it at start, counts every facet of every live row and group as PostgreSQL over an expiry', async () => {
    const service = new MatchService(db.read);
    await service.refresh();
    const index = service.current!;
    index.warm();
    await expireOldest(3);
    await service.refresh();
    // Carried, not built again: the counts made by warm() are those taken over the rows that left.
    expect(service.current).toBe(index);
    expect(service.status).toMatchObject({ builds: 1, carried: 1 });
    const names = [...INDEXED_FACETS];
    const dims = FACET_DIMENSIONS.filter((d) => INDEXED_FACETS.has(d.name));
    for (const collapse of [false, true]) {
      const a = await service.ask({
        version: service.status.version!,
        filters: {},
        collapse,
        offset: 0,
        limit: 0,
        facets: { names, limit: 50 },
      });
      const want = await computeFacets(db.read, { where: compileFilters({}), collapse, limit: 50 }, dims);
      expect(a!.total).toBe(want.total);
      for (const name of names)
        expect(a!.facets![name], `${name}, collapse ${collapse}`).toEqual({
          values: want.facets[name].values.map((v) => [String(v.value), v.count]),
          distinct: want.facets[name].distinct,
          missing: want.facets[name].missing,
        });
    }
  });

  it('reports its memory: the arrays it holds, each once, a saved index its whole file, and what warm() makes', async () => {
    const built = await buildIndex(db.read);
    const p = built.parts;
    const held = [p.ids.codes, p.ids.rest.bytes, p.ids.rest.ends, p.posted, p.created, p.groups, p.flags];
    const sum = held.reduce((n, a) => n + a.byteLength, 0);
    expect(built.bytes()).toBeGreaterThan(sum);
    // Read back from its file, every part is a view of the file's bytes: they are what it holds.
    const file = Buffer.concat(saveIndex(built, { db: 'test' }));
    const read = readIndex(file);
    expect(read.bytes()).toBeGreaterThanOrEqual(file.length);
    expect(read.bytes()).toBeLessThan(file.length + sum);
    const before = read.bytes();
    read.warm();
    expect(read.bytes()).toBeGreaterThan(before + 4 * read.size);
    // Read from a file in two parts, it holds the columns' bytes, not the header's (its names).
    const dir = await mkdtemp(path.join(os.tmpdir(), 'match-'));
    try {
      await writeFile(path.join(dir, 'index.bin'), file);
      const { head, columns } = await readIndexParts(path.join(dir, 'index.bin'));
      expect(head.length + columns.length).toBeGreaterThan(file.length - 8);
      const parts = readIndex(head, columns);
      expect(parts.size).toBe(read.size);
      expect(parts.bytes()).toBeGreaterThanOrEqual(columns.length);
      expect(parts.bytes() - columns.length).toBeLessThan(head.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  /** A builder whose first build runs at once and whose next one waits until released. */
  const secondBuildHeld = () => {
    const state = { builds: 0, release: () => {} };
    const builder = async () => {
      if (state.builds++ > 0) await new Promise<void>((r) => (state.release = r));
      return { index: await buildIndex(db.read) };
    };
    return Object.assign(state, { builder });
  };

  it('does not hold a request that asks it to catch up for the time of a build', async () => {
    const held = secondBuildHeld();
    const service = new MatchService(db.read, () => {}, undefined, held.builder, undefined, false, 60_000);
    await service.refresh();
    // A change of more than jobs (a company profile): built again, not carried.
    await bumpDataVersion(db.write, undefined, false);
    const { rows } = await db.read.query<{ version: string }>('SELECT version FROM data_version');
    const version = Number(rows[0].version);
    // Past the pause after a build: the catch-up starts one, and returns without waiting a minute for it.
    const refreshed = service.refresh(Date.now() + 3_600_000);
    await service.catchUp(version);
    expect(held.builds).toBe(2);
    expect(service.status.version).toBeLessThan(version);
    held.release();
    await refreshed;
    expect(service.status.version).toBe(version);
  });

  it('carries an expiry that comes while a build merges promoted copies, without waiting for the build', async () => {
    const held = secondBuildHeld();
    const service = new MatchService(
      db.read,
      () => {},
      undefined,
      held.builder,
      undefined,
      false,
      60_000,
      true,
    );
    await service.refresh();
    const version = async () =>
      Number((await db.read.query<{ version: string }>('SELECT version FROM data_version')).rows[0].version);
    // An original with a copy expires: its copy is held apart, then a build starts to merge it.
    await db.write.query(
      `UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = (
         SELECT j.id FROM jobs j WHERE j.state = 0 AND EXISTS (
           SELECT 1 FROM jobs d WHERE d.duplicate_of = j.id AND NOT d.gone
              AND (d.expires_at IS NULL OR d.expires_at > now() + interval '1 hour'))
          ORDER BY j.posted_at DESC LIMIT 1)`,
    );
    expect(await expireDue(db)).toBe(1);
    await service.refresh(0);
    expect(service.status).toMatchObject({ version: await version(), apart: 1 });
    const refreshed = service.refresh(Date.now() + 3_600_000);
    while (held.builds < 2) await new Promise((r) => setTimeout(r, 10));
    // An expiry while the build runs: carried when a request of its version asks, the copy still apart.
    await expireOldest(1);
    const at = await version();
    await service.catchUp(at);
    expect(service.status).toMatchObject({ version: at, apart: 1, builds: 1 });
    expect(
      await service.ask({ version: at, filters: {}, collapse: false, offset: 0, limit: 1 }),
    ).toBeDefined();
    held.release();
    await refreshed;
    await service.refresh(Date.now() + 7_200_000);
    expect(service.status).toMatchObject({ version: at, builds: 2 });
    expect(service.status.apart).toBeUndefined();
  });

  it('holds the copies an expiry promotes apart until a build merges them, and answers with them', async () => {
    // Originals with a copy that can become live, to expire: their best copies are promoted.
    const { rows: originals } = await db.write.query<{ id: string }>(
      `UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id IN (
         SELECT j.id FROM jobs j WHERE j.state = 0 AND EXISTS (
           SELECT 1 FROM jobs d WHERE d.duplicate_of = j.id AND NOT d.gone
              AND (d.expires_at IS NULL OR d.expires_at > now() + interval '1 hour'))
          -- Copies with a salary first, for the salary figures.
          ORDER BY (SELECT bool_and(d.has_salary) FROM jobs d WHERE d.duplicate_of = j.id) DESC, j.posted_at DESC
          LIMIT 3) RETURNING id`,
    );
    expect(originals.length).toBe(3);
    // Groups: the first one's copies join the group of the newest live job (under it), the second's that of
    // the oldest (whose newest they become); the third's make a group of their own.
    const [first, second] = originals.map((o) => o.id);
    for (const [original, order] of [
      [first, 'DESC'],
      [second, 'ASC'],
    ])
      await db.write.query(
        `UPDATE jobs d SET collapse_key = (SELECT j.collapse_key FROM jobs j WHERE j.state = 0
                                             AND j.id <> ALL($2) ORDER BY j.posted_at ${order} LIMIT 1)
          WHERE d.duplicate_of = $1`,
        [original, originals.map((o) => o.id)],
      );
    await bumpDataVersion(db.write);
    const service = new MatchService(db.read, () => {}, undefined, undefined, undefined, false, 60_000, true);
    await service.refresh();
    // Asked as at the epoch: before the pause after a build, so none starts.
    const noBuild = 0;
    const version = async () =>
      Number((await db.read.query<{ version: string }>('SELECT version FROM data_version')).rows[0].version);
    expect(await expireDue(db)).toBe(3);
    const promoted = await db.read.query<{ id: string; country: string[] }>(
      `SELECT j.id, j.country_codes AS country FROM data_changes c, unnest(c.entered_ids) e(id)
         JOIN jobs j ON j.id = e.id WHERE c.version = (SELECT version FROM data_version)`,
    );
    expect(promoted.rows.length).toBe(3);
    const salaried = await db.read.query('SELECT 1 FROM jobs WHERE id = ANY($1) AND has_salary', [
      promoted.rows.map((r) => r.id),
    ]);
    expect(salaried.rowCount).toBeGreaterThan(0);
    let at = await version();
    // Carried over the expiry at once, the copies held apart.
    await service.refresh(noBuild);
    expect(service.status).toMatchObject({ version: at, apart: 3, carried: 1, builds: 1 });
    const own = (): SearchContext => ({ pool: db.read, cursorSecret: 's', match: service });
    const ask = (filters: JobFilters, probe = false) =>
      service.ask({ version: at, filters, collapse: false, offset: 0, limit: 5, probe });
    // Every live job, the promoted copies among them: pages, totals and groups take them in, facets and
    // salary figures add theirs.
    const page = await ask({});
    expect(page?.total).toBe(
      (await db.read.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE state = 0')).rows[0].n,
    );
    // The groups around each copy (by the groups newer than it), from the index as PostgreSQL pages them.
    const { rows: newer } = await db.read.query<{ n: number }>(
      `SELECT (SELECT count(DISTINCT j.collapse_key)::int FROM jobs j WHERE j.state = 0 AND j.posted_at > c.posted_at) AS n
         FROM jobs c WHERE c.id = ANY($1)`,
      [promoted.rows.map((r) => r.id)],
    );
    for (const offset of [0, ...newer.map((r) => Math.max(0, r.n - 2))]) {
      const r = { filters: {}, collapse: true, offset, limit: 5 };
      expect(await service.ask({ ...r, version: at })).toBeDefined();
      const want = await searchJobs(plain(), r);
      const got = await searchJobs(own(), r);
      expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
    }
    const facets = { names: ['country', 'skills', 'company', 'remote'], limit: 5 };
    const dims = FACET_DIMENSIONS.filter((d) => facets.names.includes(d.name));
    /** Facets (of rows and of groups) and salary figures of these filters from the index, as PostgreSQL's. */
    const analyticsAsPostgres = async (filters: JobFilters) => {
      const q = { version: at, filters, collapse: false, offset: 0, limit: 0 };
      for (const collapse of [false, true]) {
        const a = await service.ask({ ...q, collapse, facets });
        expect(a).toBeDefined();
        const want = await computeFacets(
          db.read,
          { where: compileFilters(filters), collapse, limit: 5 },
          dims,
        );
        expect(a!.total).toBe(want.total);
        for (const name of facets.names)
          expect(a!.facets![name], `${name}${collapse ? ', collapsed' : ''}`).toEqual({
            values: want.facets[name].values.map((v) => [String(v.value), v.count]),
            distinct: want.facets[name].distinct,
            missing: want.facets[name].missing,
          });
      }
      const s = await service.ask({ ...q, salary: {} });
      expect({
        total: s!.total,
        with_salary: s!.salary!.reduce((n, c) => n + c.count, 0),
        currencies: s!.salary,
      }).toEqual(await salaryDistribution(db.read, compileFilters(filters)));
    };
    // A country none of them is in: the index's, as PostgreSQL answers it.
    const theirs = new Set(promoted.rows.flatMap((r) => r.country ?? []));
    const other = values.countries.find((c) => !theirs.has(c));
    expect(other).toBeDefined();
    expect(await ask({ country: [other!] })).toBeDefined();
    for (const filters of [
      {},
      { country: [other!] },
      { country: [...theirs].slice(0, 1) },
      { remote: false },
    ])
      await analyticsAsPostgres(filters);

    /** Trends answered with the copies' counts added, as PostgreSQL counts them; every answer PostgreSQL's. */
    const asPostgres = async () => {
      const until = Date.now() + 60_000;
      const req = {
        where: compileFilters({}, { anyState: true }),
        interval: 'day' as const,
        since: until - 120 * 86_400_000,
        until,
      };
      const us = { since: req.since * 1000, step: 86_400_000_000, until: until * 1000 };
      expect(
        await service.ask({ version: at, filters: {}, collapse: false, offset: 0, limit: 0, trend: us }),
      ).toBeDefined();
      expect(await trendWithIndex(own(), {}, req)).toEqual(await trendSeries(db.read, req));
      await fc.assert(
        fc.asyncProperty(
          filtersArb(),
          fc.constantFrom(0, 1, 3, 40),
          fc.boolean(),
          async (filters, offset, collapse) => {
            // Pages from an offset, then by cursor: the copies taken in at their places.
            let cursor: string | undefined;
            for (let i = 0; i < 3; i++) {
              const r = { filters, collapse, offset: cursor ? 0 : offset, limit: 5, cursor };
              const want = await searchJobs(plain(), r);
              const got = await searchJobs(own(), r);
              expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
              if (!want.nextCursor) break;
              cursor = want.nextCursor;
            }
            expect(await countJobs(own(), filters, collapse)).toBe(
              await countJobs(plain(), filters, collapse),
            );
          },
        ),
        { numRuns: 30 },
      );
    };
    await asPostgres();
    // Another expiry before the build: a promoted copy leaves again, and a job of the index. The copies are
    // read again, the one gone with its expiry (for trends), the index carried over the other.
    await db.write.query(
      `UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1 OR id = (
         SELECT j.id FROM jobs j WHERE j.state = 0 AND NOT EXISTS (SELECT 1 FROM jobs d WHERE d.duplicate_of = j.id)
            AND NOT j.id = ANY($2) ORDER BY j.posted_at DESC LIMIT 1)`,
      [promoted.rows[0].id, promoted.rows.map((r) => r.id)],
    );
    expect(await expireDue(db)).toBe(2);
    at = await version();
    await service.refresh(noBuild);
    expect(service.status).toMatchObject({ version: at, carried: 2, builds: 1 });
    expect(service.status.apart).toBeGreaterThanOrEqual(3);
    await asPostgres();
    // Once a build is done, the copies are the index's own.
    await service.refresh(Date.now() + 3_600_000);
    expect(service.status).toMatchObject({ version: at, builds: 2 });
    expect(service.status.apart).toBeUndefined();
    expect(
      await service.ask({ version: at, filters: {}, collapse: false, offset: 0, limit: 0, facets }),
    ).toBeDefined();
    await match.refresh();
  }, 180_000);

  it('is saved again once carried, so a restart carries it on from there', async () => {
    const file = path.join(os.tmpdir(), `match-index-carried-${process.pid}.bin`);
    // Saved at every carry (0 ms between saves).
    const service = new MatchService(db.read, () => {}, file, undefined, 0);
    await service.refresh();
    const built = service.status.version!;
    await expireOldest(2);
    // Past the pause after a build (three build times).
    await service.refresh(Date.now() + 3_600_000);
    expect(service.status).toMatchObject({ builds: 1, carried: 1 });
    expect(service.status.version).toBeGreaterThan(built);
    // What a restart reads: the carried version, its dead rows marked, no build needed.
    const restarted = new MatchService(db.read, () => {}, file);
    expect(await restarted.load()).toBe(true);
    expect(restarted.status).toMatchObject({ version: service.status.version, rows: service.status.rows });
    const req = { filters: {}, collapse: false, offset: 0, limit: 5 };
    const version = service.status.version!;
    expect(await restarted.ask({ version, ...req })).toEqual(await service.ask({ version, ...req }));
    // A service saving every 15 minutes (the default) does not write the file at every carry.
    const lazy = new MatchService(db.read, () => {}, file);
    expect(await lazy.load()).toBe(true);
    await expireOldest(1);
    await lazy.refresh(Date.now() + 3_600_000);
    expect(lazy.status.carried).toBe(1);
    const again = new MatchService(db.read, () => {}, file);
    expect(await again.load()).toBe(true);
    expect(again.status.version).toBe(version);
    await rm(file, { force: true });
    await match.refresh();
  });

  it('follows a purge by dropping the purged jobs from its trends, without a build', async () => {
    // Three expired jobs past a 30-day retention, in an index built after they were.
    const { rowCount } = await db.write.query(
      `UPDATE jobs SET expired_at = now() - interval '40 days' WHERE id IN (
         SELECT id FROM jobs WHERE state = 1 ORDER BY id LIMIT 3)`,
    );
    expect(rowCount).toBe(3);
    await db.write.query('UPDATE data_version SET version = version + 1');
    await match.refresh(Date.now() + 3_600_000);
    const before = { ...match.status };
    const window = [{}, { country: values.countries.slice(0, 1) }] as JobFilters[];
    const old = await expectTrendsAsPostgres(window, 60);
    expect(await purgeExpired(db.write, 30)).toBeGreaterThanOrEqual(3);
    await match.refresh(Date.now() + 3_600_000);
    expect(match.status).toMatchObject({ builds: before.builds, carried: before.carried + 1 });
    const now = await expectTrendsAsPostgres(window, 60);
    // The purged jobs left the series (they expired in it), and PostgreSQL agrees.
    const expired = (series: TrendPoint[][]) => series[0].reduce((n, p) => n + p.expired, 0);
    expect(expired(now)).toBe(expired(old) - 3);
  });

  it('is saved after a build and read back, and never for another database or an earlier version', async () => {
    const file = path.join(os.tmpdir(), `match-index-${process.pid}.bin`);
    const built = new MatchService(db.read, () => {}, file);
    await built.refresh();
    const read = new MatchService(db.read, () => {}, file);
    expect(await read.load()).toBe(true);
    expect(read.status).toMatchObject({
      version: built.status.version,
      rows: built.status.rows,
      loaded: true,
    });
    const readCtx = (): SearchContext => ({ ...indexed(), match: read });
    await fc.assert(
      fc.asyncProperty(filtersArb(), fc.boolean(), async (filters, collapse) => {
        const req = { filters, collapse, offset: 0, limit: 10 };
        const version = built.status.version!;
        expect(await read.ask({ version, ...req })).toEqual(await built.ask({ version, ...req }));
        const want = await searchJobs(plain(), req);
        const got = await searchJobs(readCtx(), req);
        expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
      }),
      { numRuns: 40 },
    );
    // Another database (its cursor secret differs): not read.
    const { rows } = await db.write.query<{ value: string }>(
      "SELECT value FROM settings WHERE key = 'cursor_secret'",
    );
    await db.write.query("UPDATE settings SET value = 'another' WHERE key = 'cursor_secret'");
    expect(await new MatchService(db.read, () => {}, file).load()).toBe(false);
    await db.write.query("UPDATE settings SET value = $1 WHERE key = 'cursor_secret'", [rows[0].value]);
    // The same version with another number of live jobs (data changed without a version): not read.
    await db.write.query(
      `UPDATE jobs SET state = 2 WHERE id = (SELECT id FROM jobs WHERE state = 0 ORDER BY id DESC LIMIT 1)`,
    );
    expect(await new MatchService(db.read, () => {}, file).load()).toBe(false);
    await db.write.query('UPDATE data_version SET version = version + 1');
    // A later version: read, then built again (nothing in data_changes lets it be carried).
    const later = new MatchService(db.read, () => {}, file);
    expect(await later.load()).toBe(true);
    await later.refresh();
    expect(later.status.builds).toBe(1);
    expect(later.status.version).toBe(built.status.version! + 1);
    await rm(file, { force: true });
  });

  it('reads a newer index saved by another process (a load) instead of building one', async () => {
    const file = path.join(os.tmpdir(), `match-index-newer-${process.pid}.bin`);
    let builds = 0;
    const counting = () => {
      builds++;
      return buildIndex(db.read).then((index) => ({ index }));
    };
    const running = new MatchService(db.read, () => {}, file, counting);
    await running.refresh();
    expect(builds).toBe(1);
    // A change no expiry log carries, then the loader's build of the new version, saved in the file.
    await db.write.query(
      `UPDATE jobs SET state = 2 WHERE id = (SELECT id FROM jobs WHERE state = 0 ORDER BY id DESC LIMIT 1)`,
    );
    await db.write.query('UPDATE data_version SET version = version + 1');
    const loader = new MatchService(db.write, () => {}, file);
    expect(await loader.load()).toBe(true);
    await loader.refresh();
    expect(loader.status.builds).toBe(1);
    // Past the pause after its build: the running service reads the loader's index, builds nothing.
    await running.refresh(Date.now() + 3_600_000);
    expect(builds).toBe(1);
    const version = loader.status.version!;
    expect(running.status).toMatchObject({ version, rows: loader.status.rows, loaded: true });
    const req = { version, filters: { country: ['US'] }, collapse: false, offset: 0, limit: 5 };
    expect(await running.ask(req)).toEqual(await loader.ask(req));
    // The file at the version it holds already is not read again; a later change is built.
    await db.write.query('UPDATE data_version SET version = version + 1');
    await running.refresh(Date.now() + 3_600_000);
    expect(builds).toBe(2);
    await rm(file, { force: true });
    await match.refresh();
  });

  it('follows a load by putting the jobs it wrote in place, without a build, and answers as PostgreSQL', async () => {
    // The newest job's title holds a lexeme of its own, which the load below takes away: the lexemes
    // numbered after it must keep their numbers in the saved index (phrases look them up).
    await db.write.query(
      `UPDATE jobs SET title_tsv = to_tsvector('english', 'Zyxwvutsr Quorbled Engineer')
        WHERE id = (SELECT id FROM jobs WHERE state = 0 ORDER BY posted_at DESC, id DESC LIMIT 1)`,
    );
    await bumpDataVersion(db.write);
    await match.refresh(Date.now() + 3_600_000);
    const before = { ...match.status };
    // A service saving at every carry, read back after the load by one that starts.
    const savedFile = path.join(os.tmpdir(), `match-saved-${process.pid}.bin`);
    const saver = new MatchService(db.read, () => {}, savedFile, undefined, 0);
    await saver.refresh();
    // A service's index host, which leaves loads to its build process (that carries the saved index).
    const file = path.join(os.tmpdir(), `match-host-${process.pid}.bin`);
    const host = new MatchService(
      db.read,
      () => {},
      file,
      buildInProcess({ ...db.config, DATABASE_URL: db.url }, file),
      undefined,
      false,
    );
    await host.refresh();
    expect(host.status).toMatchObject({ builds: 1, version: before.version });
    // A change round of the same dataset: new postings and copies, changed, expired and gone ones, folds.
    const round = [
      ...generateRound({ jobs: 1200, seed: 11, rounds: 1, now: new Date('2026-06-01T01:00:00Z') }, 1),
    ];
    const report = await ingestRecords(db, round);
    expect(report.inserted).toBeGreaterThan(0);
    expect(report.updated).toBeGreaterThan(0);
    // And, by hand in one transaction, rows that tie on posting time with others (the id orders them),
    // one that moves to a collapse group of its own and one that joins another's.
    const c = await db.write.connect();
    try {
      await c.query('BEGIN');
      const tied = await c.query<{ id: string }>(
        `UPDATE jobs SET title_tsv = to_tsvector('english', 'Carried Tie Engineer'), remote = NOT remote,
                posted_at = (SELECT posted_at FROM jobs WHERE state = 0 GROUP BY posted_at ORDER BY count(*) DESC LIMIT 1)
          WHERE id IN (SELECT id FROM jobs WHERE state = 0 ORDER BY id LIMIT 3 OFFSET 30)
          RETURNING id`,
      );
      expect(tied.rowCount).toBe(3);
      await c.query(
        `UPDATE jobs SET title_tsv = to_tsvector('english', 'Carried Tie Engineer')
          WHERE title_tsv @@ to_tsquery('english', 'zyxwvutsr')`,
      );
      await c.query(
        `UPDATE jobs SET collapse_key = 'carried-own-group', posted_at = '2026-05-20T00:00:00Z'
          WHERE id = (SELECT id FROM jobs WHERE state = 0 ORDER BY id DESC LIMIT 1)`,
      );
      await c.query(
        `UPDATE jobs SET collapse_key = (SELECT collapse_key FROM jobs WHERE state = 0 ORDER BY id LIMIT 1 OFFSET 7)
          WHERE id = (SELECT id FROM jobs WHERE state = 0 ORDER BY id DESC LIMIT 1 OFFSET 1)`,
      );
      await bumpDataVersion(c);
      await c.query('COMMIT');
    } finally {
      c.release();
    }
    await match.refresh(Date.now() + 3_600_000);
    expect(match.status.builds).toBe(before.builds);
    expect(match.status.carried).toBe(before.carried + 1);
    const { rows } = await db.read.query<{ n: string; v: string }>(
      'SELECT (SELECT count(*) FROM jobs WHERE state = 0) AS n, (SELECT version FROM data_version) AS v',
    );
    expect(match.status).toMatchObject({ rows: Number(rows[0].n), version: Number(rows[0].v) });
    // A service starting on the saved index merges the load in place before it answers.
    const started = new MatchService(db.read, () => {}, file, undefined, undefined, false);
    expect(await started.load()).toBe(true);
    expect(started.status.version).toBe(before.version);
    expect(await started.carryNow()).toBe(true);
    expect(started.status).toMatchObject({ builds: 0, carried: 1, version: match.status.version });
    await host.refresh(Date.now() + 3_600_000);
    expect(host.status).toMatchObject({ builds: 2, carried: 0, version: match.status.version });
    for (const filters of [{}, { remote: true }, { country: values.countries.slice(0, 2) }] as JobFilters[])
      for (const collapse of [false, true]) {
        const q = { version: match.status.version!, filters, collapse, offset: 3, limit: 10 };
        expect(await host.ask(q)).toEqual(await match.ask(q));
        expect(await started.ask(q)).toEqual(await match.ask(q));
      }
    await rm(file, { force: true });
    await saver.refresh(Date.now() + 3_600_000);
    expect(saver.status).toMatchObject({ builds: 1, carried: 1, version: match.status.version });
    const reloaded = new MatchService(db.read, () => {}, savedFile);
    expect(await reloaded.load()).toBe(true);
    expect(reloaded.status.version).toBe(match.status.version);
    await rm(savedFile, { force: true });
    // Every live job in order, page after page, and those of the tied title, as PostgreSQL orders them.
    // Phrases of the titles written by the round (their lexemes numbered apart, then renumbered).
    const written = await db.read.query<{ t: string }>(
      `SELECT title_raw AS t FROM jobs WHERE state = 0 ORDER BY greatest(created_at, modified_at) DESC LIMIT 40`,
    );
    const phrases = written.rows.flatMap((r) => {
      const ws = r.t.split(/\s+/);
      const i = ws.findIndex(
        (w, k) => k + 1 < ws.length && /^[A-Za-z]{3,}$/.test(w) && /^[A-Za-z]{3,}$/.test(ws[k + 1]),
      );
      return i < 0 ? [] : [{ title_advanced: parseAdvancedQuery(`${ws[i]} <-> ${ws[i + 1]}`) }];
    });
    expect(phrases.length).toBeGreaterThan(10);
    const walks = [
      {},
      { title: parseWebQuery('carried tie engineer') },
      { title_advanced: parseAdvancedQuery('carried <-> tie <-> engineer') },
      ...phrases,
    ] as JobFilters[];
    let matched = 0;
    for (const filters of walks) {
      let cursor: string | undefined;
      let pages = 0;
      do {
        const req = { filters, collapse: false, offset: 0, limit: 100, cursor };
        const want = await searchJobs(plain(), req);
        const got = await searchJobs(indexed(), req);
        expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
        const read = await searchJobs({ ...indexed(), match: reloaded }, req);
        expect({ ...read, data: read.data.toString() }).toEqual({ ...want, data: want.data.toString() });
        cursor = want.nextCursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBeGreaterThan(Object.keys(filters).length ? 0 : 3);

      if ((await searchJobs(plain(), { filters, collapse: false, offset: 0, limit: 1 })).total) matched++;
    }
    // The tied title and most of the phrases match something.
    expect(matched).toBeGreaterThan(walks.length / 2 + 2);
    // Pages (offsets, cursors, collapsed), totals and facets against PostgreSQL.
    const names = ['country', 'skills', 'company', 'remote', 'seniority', 'source', 'city'];
    const dims = FACET_DIMENSIONS.filter((d) => names.includes(d.name));
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(
        filtersArb(),
        fc.boolean(),
        fc.constantFrom(0, 3, 25),
        fc.constantFrom(1, 10),
        async (filters, collapse, offset, limit) => {
          const req = { filters, collapse, offset, limit };
          const version = match.status.version!;
          if (await match.ask({ version, ...req })) answered++;
          const want = await searchJobs(plain(), req);
          const got = await searchJobs(indexed(), req);
          expect({ ...got, data: got.data.toString() }).toEqual({ ...want, data: want.data.toString() });
          if (want.nextCursor && !collapse) {
            const next = { ...req, offset: 0, cursor: want.nextCursor };
            const w2 = await searchJobs(plain(), next);
            const g2 = await searchJobs(indexed(), next);
            expect({ ...g2, data: g2.data.toString() }).toEqual({ ...w2, data: w2.data.toString() });
          }
          const a = await match.ask({ version, ...req, limit: 0, facets: { names, limit: 5 } });
          if (!a) return;
          const f = await computeFacets(
            db.read,
            { where: compileFilters(filters), collapse, limit: 5 },
            dims,
          );
          expect(a.total).toBe(f.total);
          for (const name of names)
            expect(a.facets![name], name).toEqual({
              values: f.facets[name].values.map((v) => [String(v.value), v.count]),
              distinct: f.facets[name].distinct,
              missing: f.facets[name].missing,
            });
        },
      ),
      { numRuns: 120 },
    );
    expect(answered).toBeGreaterThan(80);
    await expectTrendsAsPostgres([{}, { remote: true }, { country: values.countries.slice(0, 1) }], 365);
    // A changed company profile is more than jobs: the index is built again.
    const company = [
      ...generateDataset({ jobs: 1200, seed: 11, now: new Date('2026-06-01T00:00:00Z') }),
    ].find((l) => l.kind === 'company')!;
    await ingestRecords(db, [{ ...company, employee_count: 123_456, size_range: '10001+' }]);
    await match.refresh(Date.now() + 3_600_000);
    expect(match.status.builds).toBe(before.builds + 1);
  }, 240_000);

  it('is built again when the data version moves on', async () => {
    const before = match.status.builds;
    await db.write.query(
      `UPDATE jobs SET state = 2 WHERE id = (SELECT id FROM jobs WHERE state = 0 ORDER BY id LIMIT 1)`,
    );
    await db.write.query('UPDATE data_version SET version = version + 1');
    await match.refresh(Date.now() + 3_600_000);
    expect(match.status.builds).toBe(before + 1);
    const { rows } = await db.read.query<{ n: string }>('SELECT count(*) AS n FROM jobs WHERE state = 0');
    const a = await match.ask({
      version: match.status.version!,
      filters: {},
      collapse: false,
      offset: 0,
      limit: 0,
    });
    expect(a?.total).toBe(Number(rows[0].n));
  });

  it('is built again when a source is renamed, and takes its new legacy slug, as PostgreSQL does', async () => {
    const before = { ...match.status };
    const { rows } = await db.read.query<SourceRow>(
      `SELECT slug, legacy_slug, type, domain, name FROM sources
        WHERE slug = (SELECT source FROM jobs WHERE state = 0 GROUP BY source ORDER BY count(*) DESC LIMIT 1)`,
    );
    const was = rows[0];
    // Written again as it stands: nothing changed, no new version.
    await upsertSources(db.write, [was]);
    await match.refresh(Date.now() + 3_600_000);
    expect(match.status.version).toBe(before.version);
    await upsertSources(db.write, [{ ...was, legacy_slug: 'renamed_board' }]);
    await match.refresh(Date.now() + 3_600_000);
    expect(match.status.version).toBeGreaterThan(before.version!);
    expect(match.status.builds).toBe(before.builds + 1);
    for (const filters of [
      { source: ['renamed_board'] },
      { source: [was.legacy_slug ?? was.slug] },
      { exclude_source: ['renamed_board'] },
    ] as JobFilters[]) {
      const req = { filters, collapse: false, offset: 0, limit: 0 };
      expect(await match.ask({ version: match.status.version!, ...req })).toBeDefined();
      expect(await countJobs(indexed(), filters, false)).toBe(await countJobs(plain(), filters, false));
    }
    expect(await countJobs(indexed(), { source: ['renamed_board'] }, false)).toBeGreaterThan(0);
  });
});

describe('tsquery and tsvector text', () => {
  it('reads the lexemes of any stripped vector as PostgreSQL prints it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.constantFrom("it's", 'a\\b', "''")),
          {
            maxLength: 6,
          },
        ),
        async (words) => {
          const { rows } = await db.read.query<{ t: string; a: string[] }>(
            `SELECT strip(v)::text AS t, tsvector_to_array(v) AS a
               FROM (SELECT array_to_tsvector(array_remove($1::text[], '')) AS v) x`,
            [words],
          );
          const read: string[] = [];
          expect(readLexemes(rows[0].t, (l) => read.push(l))).toBe(true);
          expect(read).toEqual(rows[0].a);
        },
      ),
      { numRuns: 150 },
    );
    expect(readLexemes("'a' 'b", () => {})).toBe(false);
  });

  it('reads what PostgreSQL prints', () => {
    expect(parseTsQuery("'softwar' <-> 'engin' & !'senior' | 'dev':*")).toEqual({
      op: 'or',
      left: {
        op: 'and',
        left: {
          op: 'phrase',
          left: { op: 'lex', lexeme: 'softwar', prefix: false },
          right: { op: 'lex', lexeme: 'engin', prefix: false },
          distance: 1,
        },
        right: { op: 'not', arg: { op: 'lex', lexeme: 'senior', prefix: false } },
      },
      right: { op: 'lex', lexeme: 'dev', prefix: true },
    });
    expect(parseTsVector("'c++':1 'it''s':2,5 'a\\\\b':3")).toEqual([
      ['c++', [1]],
      ["it's", [2, 5]],
      ['a\\b', [3]],
    ]);
  });

  it('leaves to PostgreSQL what the index does not hold', () => {
    expect(parseTsQuery("'a':A")).toBeUndefined();
    expect(parseTsQuery("'a' <-> ( 'b' | 'c' )")).toBeUndefined();
    expect(parseTsQuery('')).toBeUndefined();
    expect(parseTsVector("'a':1A")).toBeUndefined();
  });
});

describe('salary bounds kept in 32 bits only where exact', () => {
  const row = (i: number, min: number | null, max: number | null) => ({
    id: `s:${i}`,
    posted_us: String(1_700_000_000_000_000 - i),
    created_us: '1700000000000000',
    collapse_key: `k${i}`,
    remote: false,
    has_salary: true,
    visa_sponsorship: false,
    salary_annual_min: min,
    salary_annual_max: max,
    title_tsv: '',
    expired_us: null,
    values: {},
  });
  const bounds = [0, 1, 49_999, 50_000, 50_000.25, 50_001, 16_777_217, 123_456_790, 1e9];
  for (const extra of [[], [123_456_789.123]]) {
    it(`with ${extra.length ? 'a bound 32 bits cannot hold' : 'whole amounts only'}`, () => {
      const values = [null, NaN, Infinity, -Infinity, 0, 50_000, 16_777_216, 1e9, ...extra];
      const rows = values.flatMap((a, i) => values.map((b, j) => row(i * values.length + j, a, b)));
      const b = new MatchIndexBuilder();
      for (const r of rows) b.add(r);
      const index = b.done(1);
      // PostgreSQL: NULL meets no bound; NaN is above every number.
      const ge = (x: number | null, y: number) => x !== null && (Number.isNaN(x) || x >= y);
      const le = (x: number | null, y: number) => x !== null && !Number.isNaN(x) && x <= y;
      for (const gte of bounds)
        for (const lte of bounds) {
          const got = index.ids(index.matches({ filters: { salary_gte: gte, salary_lte: lte }, text: [] })!);
          const want = rows
            .filter((r) => ge(r.salary_annual_max, gte) && le(r.salary_annual_min, lte))
            .map((r) => r.id);
          expect(got, `${gte}..${lte}`).toEqual(want);
        }
    });
  }

  // Where every minimum is at most its maximum, a range alone is counted on the sorted bounds and paged
  // by testing rows: the same total and pages as testing every row, dead rows left out, one bound or two.
  it('a salary range alone: counted on the sorted bounds, the same as testing each row', () => {
    const values = [null, NaN, Infinity, -Infinity, 0, 50_000, 50_000.5, 16_777_216, 1e9];
    // As the index compares them: NULL is no bound, PostgreSQL's NaN is above every number.
    const asIndex = (x: number | null) => (x === null ? NaN : Number.isNaN(x) ? Infinity : x);
    const rows = values
      .flatMap((a, i) => values.map((b, j) => row(i * values.length + j, a, b)))
      .filter((r) => {
        const [lo, hi] = [asIndex(r.salary_annual_min), asIndex(r.salary_annual_max)];
        return Number.isNaN(lo) || Number.isNaN(hi) || lo <= hi;
      });
    const b = new MatchIndexBuilder();
    for (const r of rows) b.add(r);
    const index = b.done(1);
    // Every third row leaves.
    const left = rows.filter((_, i) => i % 3 === 1);
    expect(
      index.leave(
        left.map((r) => ({ id: r.id, posted_us: r.posted_us, expired_us: null })),
        2,
      ),
    ).toBe(true);
    const ge = (x: number | null, y: number) => x !== null && (Number.isNaN(x) || x >= y);
    const le = (x: number | null, y: number) => x !== null && !Number.isNaN(x) && x <= y;
    const bounds = [undefined, 0, 1, 49_999, 50_000, 50_000.5, 50_001, 16_777_217, 1e9];
    const check = (live: typeof rows) => {
      for (const gte of bounds)
        for (const lte of bounds) {
          if (gte === undefined && lte === undefined) continue;
          const want = live
            .filter(
              (r) =>
                (gte === undefined || ge(r.salary_annual_max, gte)) &&
                (lte === undefined || le(r.salary_annual_min, lte)),
            )
            .map((r) => r.id);
          const filters = { salary_gte: gte, salary_lte: lte };
          const all = index.select({ filters, text: [] }, 0, 1000)!;
          expect({ total: all.total, ids: index.ids(all.rows) }, `${gte}..${lte}`).toEqual({
            total: want.length,
            ids: want,
          });
          const page = index.select({ filters, text: [] }, 2, 3)!;
          expect(index.ids(page.rows), `${gte}..${lte} offset 2`).toEqual(want.slice(2, 5));
        }
    };
    check(rows.filter((_, i) => i % 3 !== 1));
    // Every other third leaves too: the dead rows' bounds counted afresh.
    expect(
      index.leave(
        rows
          .filter((_, i) => i % 3 === 2)
          .map((r) => ({ id: r.id, posted_us: r.posted_us, expired_us: null })),
        3,
      ),
    ).toBe(true);
    check(rows.filter((_, i) => i % 3 === 0));
  });
});

describe('the top values of a facet', () => {
  it('are those a full sort by count then value gives, with the number of values counted', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.string({ maxLength: 3 }), { maxLength: 60 })
          .chain((values) =>
            fc.tuple(
              fc.constant(values),
              fc.array(fc.nat({ max: 5 }), { minLength: values.length, maxLength: values.length }),
              fc.integer({ min: 1, max: 12 }),
            ),
          ),
        ([values, n, limit]) => {
          const sorted = values
            .map((v, i): [string, number] => [v, n[i]!])
            .filter(([, k]) => k > 0)
            .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          expect(top(values, n, limit)).toEqual({ values: sorted.slice(0, limit), distinct: sorted.length });
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the rows a set leaves out', () => {
  it('are every row below n but its own, ascending', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 200 })
          .chain((n) =>
            fc.tuple(
              fc.constant(n),
              fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, n - 1) }), { maxLength: n }),
            ),
          ),
        ([n, picked]) => {
          const rows = Uint32Array.from(picked.filter((r) => r < n).sort((a, b) => a - b));
          expect([...complement(rows, n)]).toEqual([...difference(all(n), rows)]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
