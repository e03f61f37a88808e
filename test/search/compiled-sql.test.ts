// The SQL each filter compiles to, and the page strategy chosen, pinned: a change to either shows here.
import { describe, expect, it } from 'vitest';
import { jobFilterParams } from '../../src/http/params/registry.ts';
import { compileFilters, type JobFilters } from '../../src/search/filters.ts';
import { MAX_SORTED, MAX_WALK, pageStrategy } from '../../src/search/plan.ts';
import { sql } from '../../src/search/sql.ts';

const compiled = (f: JobFilters) => {
  const c = compileFilters(f);
  return { text: c.text, values: c.values };
};

const CASES: [JobFilters, string, unknown[]][] = [
  [{}, 'j.state = 0', []],
  [{ title: "'engineer'" }, "j.state = 0 AND j.title_tsv @@ to_tsquery('english', $1)", ["'engineer'"]],
  [{ title_advanced: 'a & b' }, "j.state = 0 AND j.title_tsv @@ to_tsquery('english', $1)", ['a & b']],
  [
    { description: "'sql'" },
    "j.state = 0 AND j.id IN (SELECT t.id FROM job_texts_ids(to_tsquery('english', $1), NULL, $2::text[]) AS t(id))",
    ["'sql'", null],
  ],
  [
    { description_advanced: 'a', country: ['DE'] },
    "j.state = 0 AND j.country_codes && $1::text[] AND j.id IN (SELECT t.id FROM job_texts_ids(NULL, to_tsquery('english', $2), $3::text[]) AS t(id))",
    [['DE'], 'a', ['DE']],
  ],
  [{ organization: 'Ac%me' }, 'j.state = 0 AND j.org_key LIKE $1', ['%ac\\%me%']],
  [{ exclude_organization: ['acme'] }, 'j.state = 0 AND NOT (j.org_key = ANY($1::text[]))', [['acme']]],
  [
    { company_industry: ['software'], employee_count_gte: 10, employee_count_lt: 50 },
    'j.state = 0 AND j.company_slug IN (SELECT c.slug FROM companies c WHERE c.industry_key = ANY($1::text[]) AND c.employee_count >= $2 AND c.employee_count < $3)',
    [['software'], 10, 50],
  ],
  [
    {
      company_size: ['11-50 employees'],
      funding_gte: 1,
      funding_lt: 9,
      company_country: ['US'],
      domain: ['a.io'],
    },
    'j.state = 0 AND j.company_slug IN (SELECT c.slug FROM companies c WHERE c.size_range = ANY($1::text[]) AND c.total_funding >= $2 AND c.total_funding < $3 AND c.hq_country = ANY($4::text[]) AND c.domain = ANY($5::text[]))',
    [['11-50 employees'], 1, 9, ['US'], ['a.io']],
  ],
  [{ country: ['US', 'CA'] }, 'j.state = 0 AND j.country_codes && $1::text[]', [['US', 'CA']]],
  [{ city: ['berlin'] }, 'j.state = 0 AND j.cities && $1::text[]', [['berlin']]],
  [{ region: ['bavaria'] }, 'j.state = 0 AND j.regions && $1::text[]', [['bavaria']]],
  [{ continent: ['Europe'] }, 'j.state = 0 AND j.continents && $1::text[]', [['Europe']]],
  [{ remote: false }, 'j.state = 0 AND j.remote = $1', [false]],
  [{ work_arrangement: ['Hybrid'] }, 'j.state = 0 AND j.work_arrangement = ANY($1::text[])', [['Hybrid']]],
  [{ skill: ['sql', 'excel'] }, 'j.state = 0 AND j.skills @> $1::text[]', [['sql', 'excel']]],
  [{ taxonomies: ['Software'] }, 'j.state = 0 AND j.taxonomies && $1::text[]', [['Software']]],
  [{ employment_type: ['FULL_TIME'] }, 'j.state = 0 AND j.employment_type && $1::text[]', [['FULL_TIME']]],
  [{ seniority: ['Director'] }, 'j.state = 0 AND j.seniority = ANY($1::text[])', [['Director']]],
  [{ experience_level: ['0-2'] }, 'j.state = 0 AND j.experience_level = ANY($1::text[])', [['0-2']]],
  [{ education: ['bachelor degree'] }, 'j.state = 0 AND j.education && $1::text[]', [['bachelor degree']]],
  [{ language: ['de'] }, 'j.state = 0 AND j.language = ANY($1::text[])', [['de']]],
  [{ visa_sponsorship: 'only' }, 'j.state = 0 AND j.visa_sponsorship', []],
  [{ visa_sponsorship: 'exclude' }, 'j.state = 0 AND NOT j.visa_sponsorship', []],
  [{ has_salary: true }, 'j.state = 0 AND j.has_salary = $1', [true]],
  [
    { salary_gte: 100, salary_lte: 200, salary_currency: ['EUR'] },
    'j.state = 0 AND j.has_salary AND j.salary_annual_max >= $1 AND j.has_salary AND j.salary_annual_min <= $2 AND j.salary_currency = ANY($3::text[])',
    [100, 200, ['EUR']],
  ],
  [
    { source: ['lever'] },
    'j.state = 0 AND j.source = ANY(ARRAY(SELECT s.slug FROM sources s WHERE s.slug = ANY($1::text[]) OR s.legacy_slug = ANY($2::text[])))',
    [['lever'], ['lever']],
  ],
  [
    { exclude_source: ['lever'] },
    'j.state = 0 AND NOT (j.source = ANY(ARRAY(SELECT s.slug FROM sources s WHERE s.slug = ANY($1::text[]) OR s.legacy_slug = ANY($2::text[]))))',
    [['lever'], ['lever']],
  ],
  [{ source_type: ['ats'] }, 'j.state = 0 AND j.source_type = ANY($1::text[])', [['ats']]],
  [
    { time_frame: { text: '7d', ms: 604_800_000, at: Date.UTC(2026, 10, 8, 12, 0, 0, 5) } },
    'j.state = 0 AND j.posted_at >= $1::timestamptz',
    ['2026-11-01T12:00:00.005Z'],
  ],
  [
    { posted_gte: 'a', posted_lt: 'b', created_gte: 'c', created_lt: 'd' },
    'j.state = 0 AND j.posted_at >= $1::timestamptz AND j.posted_at < $2::timestamptz AND j.created_at >= $3::timestamptz AND j.created_at < $4::timestamptz',
    ['a', 'b', 'c', 'd'],
  ],
];

describe('compiled filters', () => {
  it.each(CASES)('%j', (filters, text, values) => {
    expect(compiled(filters)).toEqual({ text, values });
  });

  it('covers every filter parameter of /v1/jobs', () => {
    const covered = new Set(CASES.flatMap(([f]) => Object.keys(f)));
    expect([...covered].sort()).toEqual(jobFilterParams.map((p) => p.name).sort());
  });

  it('without the state condition when replaying totals', () => {
    expect(compileFilters({ country: ['US'] }, { anyState: true }).text).toBe(
      'j.country_codes && $1::text[]',
    );
    expect(compileFilters({}, { anyState: true }).text).toBe('true');
    // job_texts holds live jobs alone: rows of any state are tested on their own vector.
    expect(compileFilters({ description: "'sql'" }, { anyState: true }).text).toBe(
      "j.text_tsv @@ to_tsquery('english', $1)",
    );
  });

  it('with a description tested on the row itself in walks, which test each row anyway', () => {
    expect(compileFilters({ description: "'sql'", description_advanced: 'a' }, { perRow: true }).text).toBe(
      "j.state = 0 AND j.text_tsv @@ to_tsquery('english', $1) AND j.text_tsv @@ to_tsquery('english', $2)",
    );
  });

  it('with company filters as a look-up per row for walks in posted order', () => {
    const c = compileFilters({ country: ['US'], company_size: ['11-50 employees'] }, { perRow: true });
    expect(c.text).toBe(
      'j.state = 0 AND j.country_codes && $1::text[] AND EXISTS (SELECT 1 FROM companies c WHERE c.slug = j.company_slug AND c.size_range = ANY($2::text[]) OFFSET 0)',
    );
    expect(compileFilters({ country: ['US'] }, { perRow: true }).text).toBe(
      compileFilters({ country: ['US'] }).text,
    );
  });

  it('is one fragment reused by every statement, its parameters numbered where it lands', () => {
    const where = compileFilters({ country: ['US'], skill: ['sql'] });
    const q = sql`SELECT count(*) FROM jobs j WHERE ${where} AND j.id > ${'x'} UNION SELECT 1 FROM jobs j WHERE ${where}`;
    expect(q.text).toBe(
      'SELECT count(*) FROM jobs j WHERE j.state = 0 AND j.country_codes && $1::text[] AND j.skills @> $2::text[] AND j.id > $3 UNION SELECT 1 FROM jobs j WHERE j.state = 0 AND j.country_codes && $4::text[] AND j.skills @> $5::text[]',
    );
    expect(q.values).toEqual([['US'], ['sql'], 'x', ['US'], ['sql']]);
  });
});

describe('page strategy', () => {
  it('walks the newest rows when matches are common, with a budget of four times the expected rows', () => {
    // 51 rows wanted, a tenth of 1M live rows match: about 510 rows expected, 2,040 budgeted.
    expect(pageStrategy(51, 100_000, 1_000_000)).toEqual({ kind: 'walk', budget: 2040 });
  });
  it('fetches and sorts every match when they are few and the walk would read more rows', () => {
    expect(pageStrategy(51, 100, 1_000_000)).toEqual({ kind: 'sort' });
    expect(pageStrategy(5051, 5_000, 10_000_000)).toEqual({ kind: 'sort' });
    expect(pageStrategy(51, MAX_SORTED, 10_000_000)).toEqual({ kind: 'sort' });
  });
  it('fetches and sorts every match at a deep offset, when a walk would read more rows than they are', () => {
    // offset=4321&country=FR: 4,372 rows wanted of 47,391 matches among 1.05M live rows, a walk of ~97k.
    expect(pageStrategy(4372, 47_391, 1_050_000)).toEqual({ kind: 'sort' });
    // 9,372 rows wanted of 200,000 matches: a walk of ~49k rows, fewer than the matches (but past the
    // walk's budget): PostgreSQL plans it.
    expect(pageStrategy(9372, 200_000, 1_050_000)).toEqual({ kind: 'index' });
  });
  it('leaves the plan to PostgreSQL when matches are many and the walk too long, or the totals unknown', () => {
    expect(pageStrategy(51, MAX_SORTED + 1, 5_000_000)).toEqual({ kind: 'index' });
    expect(pageStrategy(51, 0, 1_000_000)).toEqual({ kind: 'index' });
    expect(pageStrategy(51, 10, 0)).toEqual({ kind: 'index' });
    const atMax = pageStrategy(MAX_WALK / 4, 1_000_000, 1_000_000);
    expect(atMax).toEqual({ kind: 'walk', budget: MAX_WALK });
    expect(pageStrategy(MAX_WALK / 4 + 1, 1_000_000, 1_000_000)).toEqual({ kind: 'index' });
  });
});
