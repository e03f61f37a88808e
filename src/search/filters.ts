// Job filters (the plan): a plain object, no HTTP in it, compiled to SQL conditions on `jobs j`.
import { likeEscape, type Sql } from './sql.ts';

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
  time_frame?: { text: string; ms: number };
  posted_gte?: string;
  posted_lt?: string;
  created_gte?: string;
  created_lt?: string;
}

export const TS_CONFIG = 'english';

/**
 * Adds the conditions of `f` to `q`. Live rows only (duplicates and expired jobs never match), unless
 * `anyState`: then the conditions on the row's own columns alone.
 */
export function applyJobFilters(q: Sql, f: JobFilters, anyState = false): void {
  if (!anyState) q.and('j.state = 0');
  if (f.title) q.and(`j.title_tsv @@ to_tsquery('${TS_CONFIG}', ${q.v(f.title)})`);
  if (f.title_advanced) q.and(`j.title_tsv @@ to_tsquery('${TS_CONFIG}', ${q.v(f.title_advanced)})`);
  if (f.description) q.and(`j.text_tsv @@ to_tsquery('${TS_CONFIG}', ${q.v(f.description)})`);
  if (f.description_advanced)
    q.and(`j.text_tsv @@ to_tsquery('${TS_CONFIG}', ${q.v(f.description_advanced)})`);
  if (f.organization) q.and(`j.org_key LIKE ${q.v(`%${likeEscape(f.organization.toLowerCase())}%`)}`);
  if (f.exclude_organization) q.and(`NOT (j.org_key = ANY(${q.v(f.exclude_organization)}::text[]))`);

  // Company filters match the verified profile only: an unresolved employer never matches.
  const company: string[] = [];
  if (f.company_industry) company.push(`c.industry_key = ANY(${q.v(f.company_industry)}::text[])`);
  if (f.company_size) company.push(`c.size_range = ANY(${q.v(f.company_size)}::text[])`);
  if (f.employee_count_gte !== undefined) company.push(`c.employee_count >= ${q.v(f.employee_count_gte)}`);
  if (f.employee_count_lt !== undefined) company.push(`c.employee_count < ${q.v(f.employee_count_lt)}`);
  if (f.funding_gte !== undefined) company.push(`c.total_funding >= ${q.v(f.funding_gte)}`);
  if (f.funding_lt !== undefined) company.push(`c.total_funding < ${q.v(f.funding_lt)}`);
  if (f.company_country) company.push(`c.hq_country = ANY(${q.v(f.company_country)}::text[])`);
  if (f.domain) company.push(`c.domain = ANY(${q.v(f.domain)}::text[])`);
  if (company.length)
    q.and(`j.company_slug IN (SELECT c.slug FROM companies c WHERE ${company.join(' AND ')})`);

  if (f.country) q.and(`j.country_codes && ${q.v(f.country)}::text[]`);
  if (f.city) q.and(`j.cities && ${q.v(f.city)}::text[]`);
  if (f.region) q.and(`j.regions && ${q.v(f.region)}::text[]`);
  if (f.continent) q.and(`j.continents && ${q.v(f.continent)}::text[]`);
  // Enrichment keeps location.remote equal to (work_arrangement = Remote), so false is on-site or hybrid.
  if (f.remote !== undefined) q.and(`j.remote = ${q.v(f.remote)}`);
  if (f.work_arrangement) q.and(`j.work_arrangement = ANY(${q.v(f.work_arrangement)}::text[])`);
  if (f.skill) q.and(`j.skills @> ${q.v(f.skill)}::text[]`);
  if (f.taxonomies) q.and(`j.taxonomies && ${q.v(f.taxonomies)}::text[]`);
  if (f.employment_type) q.and(`j.employment_type && ${q.v(f.employment_type)}::text[]`);
  if (f.seniority) q.and(`j.seniority = ANY(${q.v(f.seniority)}::text[])`);
  if (f.experience_level) q.and(`j.experience_level = ANY(${q.v(f.experience_level)}::text[])`);
  if (f.education) q.and(`j.education && ${q.v(f.education)}::text[]`);
  if (f.language) q.and(`j.language = ANY(${q.v(f.language)}::text[])`);
  if (f.visa_sponsorship === 'only') q.and('j.visa_sponsorship');
  if (f.visa_sponsorship === 'exclude') q.and('NOT j.visa_sponsorship');
  if (f.has_salary !== undefined) q.and(`j.has_salary = ${q.v(f.has_salary)}`);
  if (f.salary_gte !== undefined) q.and(`j.has_salary AND j.salary_annual_max >= ${q.v(f.salary_gte)}`);
  if (f.salary_lte !== undefined) q.and(`j.has_salary AND j.salary_annual_min <= ${q.v(f.salary_lte)}`);
  if (f.salary_currency) q.and(`j.salary_currency = ANY(${q.v(f.salary_currency)}::text[])`);
  if (f.source) q.and(`j.source = ANY(${sourceSlugs(q, f.source)})`);
  if (f.exclude_source) q.and(`NOT (j.source = ANY(${sourceSlugs(q, f.exclude_source)}))`);
  if (f.source_type) q.and(`j.source_type = ANY(${q.v(f.source_type)}::text[])`);
  if (f.time_frame) q.and(`j.posted_at >= now() - ${q.v(f.time_frame.ms)} * interval '1 millisecond'`);
  if (f.posted_gte) q.and(`j.posted_at >= ${q.v(f.posted_gte)}::timestamptz`);
  if (f.posted_lt) q.and(`j.posted_at < ${q.v(f.posted_lt)}::timestamptz`);
  if (f.created_gte) q.and(`j.created_at >= ${q.v(f.created_gte)}::timestamptz`);
  if (f.created_lt) q.and(`j.created_at < ${q.v(f.created_lt)}::timestamptz`);
}

/** Public slugs for the given slugs or legacy slugs; unknown ones match nothing. */
function sourceSlugs(q: Sql, given: string[]): string {
  const p = q.v(given);
  return `ARRAY(SELECT s.slug FROM sources s WHERE s.slug = ANY(${p}::text[]) OR s.legacy_slug = ANY(${p}::text[]))`;
}
