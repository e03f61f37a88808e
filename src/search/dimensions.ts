// The filters of a job search, each declared once. A filter's declaration says what it means in SQL,
// which kept total (value_totals) answers one value of it, and how the match index holds it; the SQL
// condition (filters.ts), the value totals (value-totals.ts), the filters the match index holds, its
// builder, its saved file and the rows it reads (match-index.ts, db/match-rows.ts) all derive from this
// list, and a facet is a count per value of a declared dimension. Text searches and the organization
// name are not dimensions: filters.ts writes them.
import { raw, type Sql, sql } from './sql.ts';

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
  filter: keyof JobFilters;
  /** Its column: on `jobs j`, or on `companies c` when `company` (matched against the verified profile). */
  column?: string;
  company?: boolean;
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
 * Every filter but the text searches and the organization name, in the order their conditions are
 * written: PostgreSQL tests a row's conditions of equal cost in that order (company filters go into one
 * look-up of the company, written after the row's own conditions; filters.ts).
 */
export const DIMENSIONS: readonly Dimension[] = [
  { filter: 'company_industry', column: 'industry_key', company: true, index: 'codes' },
  { filter: 'company_size', column: 'size_range', company: true, index: 'codes' },
  { filter: 'employee_count_gte', company: true, where: (v: number) => sql`c.employee_count >= ${v}` },
  { filter: 'employee_count_lt', company: true, where: (v: number) => sql`c.employee_count < ${v}` },
  { filter: 'funding_gte', company: true, where: (v: number) => sql`c.total_funding >= ${v}` },
  { filter: 'funding_lt', company: true, where: (v: number) => sql`c.total_funding < ${v}` },
  { filter: 'company_country', column: 'hq_country', company: true },
  { filter: 'domain', column: 'domain', company: true },
  { filter: 'country', column: 'country_codes', many: true, totals: 'country', index: 'sets' },
  { filter: 'city', column: 'cities', many: true, totals: 'city' },
  { filter: 'region', column: 'regions', many: true, totals: 'region' },
  { filter: 'continent', column: 'continents', many: true, totals: 'continent', index: 'sets' },
  // Enrichment keeps location.remote equal to (work_arrangement = Remote): false is on-site or hybrid.
  { filter: 'remote', column: 'remote', totals: 'remote', index: 'own' },
  { filter: 'work_arrangement', column: 'work_arrangement', totals: 'work_arrangement', index: 'codes' },
  { filter: 'skill', column: 'skills', many: true, all: true, totals: 'skill', index: 'sets' },
  { filter: 'taxonomies', column: 'taxonomies', many: true, totals: 'taxonomy', index: 'sets' },
  {
    filter: 'employment_type',
    column: 'employment_type',
    many: true,
    totals: 'employment_type',
    index: 'sets',
  },
  { filter: 'seniority', column: 'seniority', totals: 'seniority', index: 'codes' },
  { filter: 'experience_level', column: 'experience_level', totals: 'experience_level', index: 'codes' },
  { filter: 'education', column: 'education', many: true, totals: 'education', index: 'sets' },
  { filter: 'language', column: 'language', totals: 'language', index: 'codes' },
  {
    filter: 'visa_sponsorship',
    where: (v: 'only' | 'exclude') => (v === 'only' ? sql`j.visa_sponsorship` : sql`NOT j.visa_sponsorship`),
  },
  { filter: 'has_salary', column: 'has_salary', index: 'own' },
  {
    filter: 'salary_gte',
    where: (v: number) => sql`j.has_salary AND j.salary_annual_max >= ${v}`,
    index: 'own',
  },
  {
    filter: 'salary_lte',
    where: (v: number) => sql`j.has_salary AND j.salary_annual_min <= ${v}`,
    index: 'own',
  },
  { filter: 'salary_currency', column: 'salary_currency', index: 'codes' },
  // Kept by the index for its facet; filtered by PostgreSQL, which knows the legacy slugs.
  {
    filter: 'source',
    column: 'source',
    where: (v: string[]) => sql`j.source = ANY(${sourceSlugs(v)})`,
    index: 'codes',
  },
  { filter: 'exclude_source', where: (v: string[]) => sql`NOT (j.source = ANY(${sourceSlugs(v)}))` },
  { filter: 'source_type', column: 'source_type', index: 'codes' },
  {
    filter: 'time_frame',
    where: (v: { ms: number; at: number }) => sql`j.posted_at >= ${timeFrameStart(v)}::timestamptz`,
    index: 'own',
  },
  { filter: 'posted_gte', where: (v: string) => sql`j.posted_at >= ${v}::timestamptz`, index: 'own' },
  { filter: 'posted_lt', where: (v: string) => sql`j.posted_at < ${v}::timestamptz`, index: 'own' },
  { filter: 'created_gte', where: (v: string) => sql`j.created_at >= ${v}::timestamptz` },
  { filter: 'created_lt', where: (v: string) => sql`j.created_at < ${v}::timestamptz` },
];

/** The condition of one filter's value on `jobs j` (or, for a company filter, `companies c`). */
export function dimensionWhere(d: Dimension, v: unknown): Sql {
  if (d.where) return d.where(v as never);
  if (typeof v === 'boolean') return sql`${col(d)} = ${v}`;
  if (d.many) return d.all ? sql`${col(d)} @> ${v}::text[]` : sql`${col(d)} && ${v}::text[]`;
  return sql`${col(d)} = ANY(${v}::text[])`;
}

/**
 * Whether the match index tests this filter: held by code of its own, or its values kept and compared as
 * stored (a condition of its own, as source's legacy slugs, needs PostgreSQL).
 */
export const filteredByIndex = (d: Dimension): boolean =>
  d.index === 'own' || (d.index !== undefined && !d.where);

/** The dimensions whose values the match index keeps, by how: built, saved and read generically. */
export const HELD_SETS = DIMENSIONS.filter((d) => d.index === 'sets');
export const HELD_CODES = DIMENSIONS.filter((d) => d.index === 'codes');
