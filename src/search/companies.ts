// Company search and look-up by slug.
import type pg from 'pg';
import { and, likeEscape, type Sql, sql } from './sql.ts';

export interface CompanyFilters {
  q?: string;
  industry?: string[];
  country?: string[];
  size?: string[];
  employee_count_gte?: number;
  employee_count_lt?: number;
  has_jobs?: boolean;
}

export interface CompanyPage {
  /** Full profiles of the page as JSON, remco first, then by followers. */
  companies: string[];
  total: number;
}

export async function searchCompanies(
  pool: pg.Pool,
  f: CompanyFilters,
  limit: number,
  offset: number,
): Promise<CompanyPage> {
  const w: Sql[] = [];
  if (f.q) w.push(sql`lower(c.name) LIKE ${`%${likeEscape(f.q.toLowerCase())}%`}`);
  if (f.industry) w.push(sql`c.industry_key = ANY(${f.industry}::text[])`);
  if (f.country) w.push(sql`c.hq_country = ANY(${f.country}::text[])`);
  if (f.size) w.push(sql`c.size_range = ANY(${f.size}::text[])`);
  if (f.employee_count_gte !== undefined) w.push(sql`c.employee_count >= ${f.employee_count_gte}`);
  if (f.employee_count_lt !== undefined) w.push(sql`c.employee_count < ${f.employee_count_lt}`);
  if (f.has_jobs === true) w.push(sql`c.jobs_count > 0`);
  if (f.has_jobs === false) w.push(sql`c.jobs_count = 0`);
  const where = and(w);
  const { rows } = await pool.query(sql`
    WITH page AS (
      SELECT c.slug, c.profile_json, c.remco, c.followers FROM companies c WHERE ${where}
      ORDER BY c.remco DESC, c.followers DESC, c.slug
      LIMIT ${limit} OFFSET ${offset}
    )
    SELECT (SELECT count(*) FROM companies c WHERE ${where}) AS total, page.*
    FROM (SELECT 1) AS one LEFT JOIN page ON true
    ORDER BY page.remco DESC, page.followers DESC, page.slug`);
  return {
    companies: rows.filter((r) => r.slug !== null).map((r) => r.profile_json),
    total: Number(rows[0].total),
  };
}

export async function getCompany(pool: pg.Pool, slug: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ profile_json: string }>(
    'SELECT profile_json FROM companies WHERE slug = $1',
    [slug],
  );
  return rows[0]?.profile_json;
}
