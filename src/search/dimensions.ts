// The filters of a job search, each declared once. A filter's declaration says what it means in SQL,
// which kept total (value_totals) answers one value of it, and how the match index holds it; the SQL
// condition (filters.ts), the value totals (value-totals.ts), the filters the match index holds, its
// builder, its saved file and the rows it reads (match-index.ts, db/match-rows.ts) all derive from this
// list, and a facet is a count per value of a declared dimension. Text searches are not dimensions:
// filters.ts writes them.
import { likeEscape, raw, type Sql, sql } from './sql.ts';

export interface JobFilters {
  title?: string; // tsquery text
  description?: string;
  title_advanced?: string;
  description_advanced?: string;
  organization?: string;
  exclude_organization?: string[];
  company_industry?: string[];
  company_size?: string[];
  employee_count_gte?: number;
  employee_count_lt?: number;
  funding_gte?: number;
  funding_lt?: number;
  company_country?: string[];
  domain?: string[];
  country?: string[];
  city?: string[];
  region?: string[];
  continent?: string[];
  remote?: boolean;
  work_arrangement?: string[];
  skill?: string[];
  taxonomies?: string[];
  employment_type?: string[];
  seniority?: string[];
  experience_level?: string[];
  education?: string[];
  language?: string[];
  visa_sponsorship?: 'only' | 'exclude';
  has_salary?: boolean;
  salary_gte?: number;
  salary_lte?: number;
  salary_currency?: string[];
  source?: string[];
  source_type?: string[];
  exclude_source?: string[];
  /** Posted in the `ms` before `at`, the request's arrival (ms since the epoch). */
  time_frame?: { text: string; ms: number; at: number };
  posted_gte?: string;
  posted_lt?: string;
  created_gte?: string;
  created_lt?: string;
}

/**
 * How the match index holds a filter: `sets`, a sorted set of rows per value (lists of values, and the
 * values most requests combine); `codes`, a code per row (one value a row, tested row by row); `own`, by
 * code of its own in match-index.ts (a flag, a salary bound, the posting time: ranges of rows or columns).
 */
export type Holding = 'sets' | 'codes' | 'own';

export interface Dimension {
  /** Its name: the facet's (the Job's field name), and the key of its values in the match index. */
  name: string;
  /** The filter of /v1/jobs on it (the company facet has none). */
  filter?: keyof JobFilters;
  /** A facet: its values can be counted (/v1/jobs/facets). */
  facet?: boolean;
  /** Its column: on `jobs j`, or on `companies c` when `company` (matched against the verified profile). */
  column?: string;
  company?: boolean;
  /** Its column is the job's source's (the `sources` row its slug names): a fact of the source codes. */
  source?: boolean;
  /** A list of values per job (matched by overlap, or by containment when `all`), else one value. */
  many?: boolean;
  /** Every listed value required (skill), instead of any. */
  all?: boolean;
  /** Its condition, when it is not the column matched against the values. */
  where?: (v: never) => Sql;
  /** value_totals' dimension: the exact number of live jobs with each one of its values is kept. */
  totals?: string;
  /** How the match index holds it (absent: it does not, and a request filtering on it is PostgreSQL's). */
  index?: Holding;
  /**
   * Held as codes but not matched against the values as stored: which stored values the filter accepts
   * (the index tests the codes of those): the code's value, or with `codesOf` and a column the code's
   * fact, then the code's value (`named`). Its `where` (or its column against the values) is the same
   * test in SQL.
   */
  accepts?: (v: never) => (stored: Fact, named: string) => boolean;
  /**
   * Held as codes: the code column it tests is another dimension's. With a `column` of its own, that
   * column is a fact of the thing each code names (a company's figures, by the company code), read once
   * per code and tested per code; without one, the other dimension's values are tested.
   */
  codesOf?: string;
  /** A facet's label beside each value, a column of the company (company: its name). */
  label?: string;
  /** job_texts keeps it beside the description vector (the countries, its one such column): a
   * description search filtered on nothing but such dimensions is counted there (filters.ts, textCount). */
  texts?: boolean;
}

/** A value as PostgreSQL gives it: text, a number (bigint as text), or none. */
export type Fact = string | number | null;

/** Accepts a value among the given ones (a list filter on a fact: `= ANY`). */
function oneOf(v: string[]): (x: Fact) => boolean {
  const given = new Set(v);
  return (x) => typeof x === 'string' && given.has(x);
}

/** Where a `time_frame` window starts, in ms since the epoch: every statement and the index take it. */
export const timeFrameStartMs = (w: { ms: number; at: number }): number => w.at - w.ms;

/** The same instant as text PostgreSQL reads exactly, so statements and the index agree on its edge. */
export function timeFrameStart(w: { ms: number; at: number }): string {
  return new Date(timeFrameStartMs(w)).toISOString();
}

const col = (d: Dimension) => raw(`${d.company ? 'c' : 'j'}.${d.column}`);

/** The stored legacy form of a slug is accepted too; an unknown slug matches nothing. */
const sourceSlugs = (given: string[]) =>
  sql`ARRAY(SELECT s.slug FROM sources s WHERE s.slug = ANY(${given}::text[]) OR s.legacy_slug = ANY(${given}::text[]))`;

/**
 * Every filter but the text searches, in the order their conditions are
 * written: PostgreSQL tests a row's conditions of equal cost in that order (company filters go into one
 * look-up of the company, written after the row's own conditions; filters.ts).
 */
export const DIMENSIONS: readonly Dimension[] = [
  {
    name: 'company_industry',
    facet: true,
    filter: 'company_industry',
    column: 'industry_key',
    company: true,
    index: 'codes',
  },
  {
    name: 'company_size',
    facet: true,
    filter: 'company_size',
    column: 'size_range',
    company: true,
    index: 'codes',
  },
  // A company's own figures, held beside its code (a fact of the company code column): a bound or a list
  // tested once per company, then per row through the row's company code. Bigint funding read as a
  // double stays on the same side of any bound the filter takes (at most 1e15 < 2^53).
  {
    name: 'employee_count_gte',
    filter: 'employee_count_gte',
    company: true,
    column: 'employee_count',
    where: (v: number) => sql`c.employee_count >= ${v}`,
    accepts: (v: number) => (x) => x !== null && Number(x) >= v,
    index: 'codes',
    codesOf: 'company',
  },
  {
    name: 'employee_count_lt',
    filter: 'employee_count_lt',
    company: true,
    column: 'employee_count',
    where: (v: number) => sql`c.employee_count < ${v}`,
    accepts: (v: number) => (x) => x !== null && Number(x) < v,
    index: 'codes',
    codesOf: 'company',
  },
  {
    name: 'funding_gte',
    filter: 'funding_gte',
    company: true,
    column: 'total_funding',
    where: (v: number) => sql`c.total_funding >= ${v}`,
    accepts: (v: number) => (x) => x !== null && Number(x) >= v,
    index: 'codes',
    codesOf: 'company',
  },
  {
    name: 'funding_lt',
    filter: 'funding_lt',
    company: true,
    column: 'total_funding',
    where: (v: number) => sql`c.total_funding < ${v}`,
    accepts: (v: number) => (x) => x !== null && Number(x) < v,
    index: 'codes',
    codesOf: 'company',
  },
  {
    name: 'company_country',
    filter: 'company_country',
    column: 'hq_country',
    company: true,
    accepts: oneOf,
    index: 'codes',
    codesOf: 'company',
  },
  {
    name: 'domain',
    filter: 'domain',
    column: 'domain',
    company: true,
    accepts: oneOf,
    index: 'codes',
    codesOf: 'company',
  },
  {
    name: 'country',
    facet: true,
    filter: 'country',
    column: 'country_codes',
    many: true,
    totals: 'country',
    index: 'sets',
    texts: true,
  },
  {
    name: 'city',
    facet: true,
    filter: 'city',
    column: 'cities',
    many: true,
    totals: 'city',
    index: 'sets',
  },
  {
    name: 'region',
    facet: true,
    filter: 'region',
    column: 'regions',
    many: true,
    totals: 'region',
    index: 'sets',
  },
  {
    name: 'continent',
    facet: true,
    filter: 'continent',
    column: 'continents',
    many: true,
    totals: 'continent',
    index: 'sets',
  },
  // Enrichment keeps location.remote equal to (work_arrangement = Remote): false is on-site or hybrid.
  { name: 'remote', facet: true, filter: 'remote', column: 'remote', totals: 'remote', index: 'own' },
  {
    name: 'work_arrangement',
    facet: true,
    filter: 'work_arrangement',
    column: 'work_arrangement',
    totals: 'work_arrangement',
    index: 'codes',
  },
  {
    name: 'skills',
    facet: true,
    filter: 'skill',
    column: 'skills',
    many: true,
    all: true,
    totals: 'skill',
    index: 'sets',
  },
  {
    name: 'taxonomies',
    facet: true,
    filter: 'taxonomies',
    column: 'taxonomies',
    many: true,
    totals: 'taxonomy',
    index: 'sets',
  },
  {
    name: 'employment_type',
    facet: true,
    filter: 'employment_type',
    column: 'employment_type',
    many: true,
    totals: 'employment_type',
    index: 'sets',
  },
  {
    name: 'seniority',
    facet: true,
    filter: 'seniority',
    column: 'seniority',
    totals: 'seniority',
    index: 'codes',
  },
  {
    name: 'experience_level',
    facet: true,
    filter: 'experience_level',
    column: 'experience_level',
    totals: 'experience_level',
    index: 'codes',
  },
  {
    name: 'education_requirements',
    facet: true,
    filter: 'education',
    column: 'education',
    many: true,
    totals: 'education',
    index: 'sets',
  },
  {
    name: 'job_language',
    facet: true,
    filter: 'language',
    column: 'language',
    totals: 'language',
    index: 'codes',
  },
  {
    name: 'visa_sponsorship',
    filter: 'visa_sponsorship',
    where: (v: 'only' | 'exclude') => (v === 'only' ? sql`j.visa_sponsorship` : sql`NOT j.visa_sponsorship`),
    index: 'own',
  },
  { name: 'has_salary', filter: 'has_salary', column: 'has_salary', index: 'own' },
  {
    name: 'salary_gte',
    filter: 'salary_gte',
    where: (v: number) => sql`j.has_salary AND j.salary_annual_max >= ${v}`,
    index: 'own',
  },
  {
    name: 'salary_lte',
    filter: 'salary_lte',
    where: (v: number) => sql`j.has_salary AND j.salary_annual_min <= ${v}`,
    index: 'own',
  },
  {
    name: 'salary_currency',
    facet: true,
    filter: 'salary_currency',
    column: 'salary_currency',
    index: 'codes',
  },
  // The source slug: a facet, and the code column the source filters test.
  { name: 'source', facet: true, column: 'source', index: 'codes' },
  // A source is named by its slug or its legacy one: the legacy slug is a fact of each source code, read
  // from `sources` (a changed source row is a new data version that rebuilds the index).
  {
    name: 'source_named',
    filter: 'source',
    source: true,
    column: 'legacy_slug',
    where: (v: string[]) => sql`j.source = ANY(${sourceSlugs(v)})`,
    accepts: (v: string[]) => {
      const given = new Set<Fact>(v);
      return (legacy, slug) => given.has(slug) || given.has(legacy);
    },
    index: 'codes',
    codesOf: 'source',
  },
  {
    name: 'exclude_source',
    filter: 'exclude_source',
    source: true,
    column: 'legacy_slug',
    where: (v: string[]) => sql`NOT (j.source = ANY(${sourceSlugs(v)}))`,
    accepts: (v: string[]) => {
      const given = new Set<Fact>(v);
      return (legacy, slug) => !given.has(slug) && !given.has(legacy);
    },
    index: 'codes',
    codesOf: 'source',
  },
  { name: 'source_type', facet: true, filter: 'source_type', column: 'source_type', index: 'codes' },
  // The name the posting gives its employer, lower-cased (org_key), verified profile or not: a substring
  // of it, or none of the names excluded, tested on one code column.
  {
    name: 'organization',
    filter: 'organization',
    column: 'org_key',
    where: (v: string) => sql`j.org_key LIKE ${`%${likeEscape(v.toLowerCase())}%`}`,
    accepts: (v: string) => {
      const part = v.toLowerCase();
      return (stored) => typeof stored === 'string' && stored.includes(part);
    },
    index: 'codes',
  },
  {
    name: 'exclude_organization',
    filter: 'exclude_organization',
    where: (v: string[]) => sql`NOT (j.org_key = ANY(${v}::text[]))`,
    accepts: (v: string[]) => {
      const names = new Set<Fact>(v);
      return (stored) => stored !== null && !names.has(stored);
    },
    index: 'codes',
    codesOf: 'organization',
  },
  // The employer's verified profile, by slug (an unresolved employer has none): a facet labelled with the
  // company's name; no filter.
  { name: 'company', facet: true, column: 'slug', company: true, label: 'name', index: 'codes' },
  {
    name: 'time_frame',
    filter: 'time_frame',
    where: (v: { ms: number; at: number }) => sql`j.posted_at >= ${timeFrameStart(v)}::timestamptz`,
    index: 'own',
  },
  {
    name: 'posted_gte',
    filter: 'posted_gte',
    where: (v: string) => sql`j.posted_at >= ${v}::timestamptz`,
    index: 'own',
  },
  {
    name: 'posted_lt',
    filter: 'posted_lt',
    where: (v: string) => sql`j.posted_at < ${v}::timestamptz`,
    index: 'own',
  },
  // The index keeps each row's created_at: tested per row (rows are in posting order, not creation's).
  {
    name: 'created_gte',
    filter: 'created_gte',
    where: (v: string) => sql`j.created_at >= ${v}::timestamptz`,
    index: 'own',
  },
  {
    name: 'created_lt',
    filter: 'created_lt',
    where: (v: string) => sql`j.created_at < ${v}::timestamptz`,
    index: 'own',
  },
];

/** The condition of one filter's value on `jobs j` (or, for a company filter, `companies c`). */
export function dimensionWhere(d: Dimension, v: unknown): Sql {
  if (d.where) return d.where(v as never);
  if (typeof v === 'boolean') return sql`${col(d)} = ${v}`;
  if (d.many) return d.all ? sql`${col(d)} @> ${v}::text[]` : sql`${col(d)} && ${v}::text[]`;
  return sql`${col(d)} = ANY(${v}::text[])`;
}

/**
 * Whether the match index tests this filter: held by code of its own, its values kept and compared as
 * stored, or the stored values it accepts stated (a condition of its own without them needs
 * PostgreSQL).
 */
export const filteredByIndex = (d: Dimension): boolean =>
  d.filter !== undefined &&
  (d.index === 'own' || (d.index !== undefined && (!d.where || d.accepts !== undefined)));

/** The dimensions whose values the match index keeps, by how: built, saved and read generically. */
/** How a row holds a facet's values: one value or none, a list of values, or a flag never missing. */
export type FacetShape = 'scalar' | 'array' | 'boolean';

/** A facet as PostgreSQL reads it (facets.ts): its values' SQL over `j` (jobs) and `co` (companies). */
export interface FacetDimension {
  name: string;
  shape: FacetShape;
  value: string;
  /** Whether `value` (or `label`) reads the verified company profile `co`. */
  company?: boolean;
  label?: string;
}

/**
 * Every facet, from the declarations above. Values are what the filter of the same name takes (ISO-2
 * country codes, lower-case cities, public source slugs …), so a value's count is what /v1/jobs/count
 * answers with that filter added.
 */
export const FACET_DIMENSIONS: readonly FacetDimension[] = DIMENSIONS.filter((d) => d.facet).map((d) => ({
  name: d.name,
  shape: d.many ? 'array' : d.filter === 'remote' ? 'boolean' : 'scalar',
  value: `${d.company ? 'co' : 'j'}.${d.column}`,
  ...(d.company ? { company: true } : {}),
  ...(d.label ? { label: `co.${d.label}` } : {}),
}));

export const DIMENSION_NAMES: readonly string[] = FACET_DIMENSIONS.map((f) => f.name);

const facetByName = new Map(FACET_DIMENSIONS.map((f) => [f.name, f]));

/** The facet of that name, or undefined. */
export const facetDimension = (name: string): FacetDimension | undefined => facetByName.get(name);

/** The facets the match index counts: of the dimensions it keeps the values of, and remote. */
export const INDEXED_FACETS = new Set(
  DIMENSIONS.filter(
    (d) => d.facet && (d.index === 'sets' || d.index === 'codes' || d.filter === 'remote'),
  ).map((d) => d.name),
);

export const HELD_SETS = DIMENSIONS.filter((d) => d.index === 'sets');
/** The code columns the index reads, one per dimension held as codes that does not test another's. */
export const HELD_CODES = DIMENSIONS.filter((d) => d.index === 'codes' && !d.codesOf);

/** Where a row's values hold a fact (MatchRow.values), and a code column's facts hold it: `of.column`. */
export const factKey = (f: { of: string; column: string }): string => `${f.of}.${f.column}`;

/** The facts the index reads of the things codes name: per code column, its fact columns (once each). */
export const HELD_FACTS: readonly { of: string; column: string; company?: boolean; source?: boolean }[] = [
  ...new Map(
    DIMENSIONS.filter((d) => d.index === 'codes' && d.codesOf && d.column).map((d) => [
      `${d.codesOf}.${d.column}`,
      { of: d.codesOf!, column: d.column!, company: d.company, source: d.source },
    ]),
  ).values(),
];
