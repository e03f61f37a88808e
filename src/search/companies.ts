// Company search and look-up by slug.
import type pg from 'pg';
import { jsonArray } from './render.ts';
import { likeEscape, Sql } from './sql.ts';

export interface CompanyFilters {
  q?: string;
  industry?: string[];
  country?: string[];
  size?: string[];
  employee_count_gte?: number;
  employee_count_lt?: number;
  has_jobs?: boolean;
}

export async function searchCompanies(
  pool: pg.Pool,
  f: CompanyFilters,
  limit: number,
  offset: number,
): Promise<string> {
  const q = new Sql();
  if (f.q) q.and(`lower(c.name) LIKE ${q.v(`%${likeEscape(f.q.toLowerCase())}%`)}`);
  if (f.industry) q.and(`c.industry_key = ANY(${q.v(f.industry)}::text[])`);
  if (f.country) q.and(`c.hq_country = ANY(${q.v(f.country)}::text[])`);
  if (f.size) q.and(`c.size_range = ANY(${q.v(f.size)}::text[])`);
  if (f.employee_count_gte !== undefined) q.and(`c.employee_count >= ${q.v(f.employee_count_gte)}`);
  if (f.employee_count_lt !== undefined) q.and(`c.employee_count < ${q.v(f.employee_count_lt)}`);
  if (f.has_jobs === true) q.and('c.jobs_count > 0');
  if (f.has_jobs === false) q.and('c.jobs_count = 0');
  const where = q.whereSql();
  const sql = `
    WITH page AS (
      SELECT c.slug, c.profile_json, c.remco, c.followers FROM companies c WHERE ${where}
      ORDER BY c.remco DESC, c.followers DESC, c.slug
      LIMIT ${q.v(limit)} OFFSET ${q.v(offset)}
    )
    SELECT (SELECT count(*) FROM companies c WHERE ${where}) AS total, page.*
    FROM (SELECT 1) AS one LEFT JOIN page ON true
    ORDER BY page.remco DESC, page.followers DESC, page.slug`;
  const { rows } = await pool.query(sql, q.params);
  const total = Number(rows[0].total);
  const data = jsonArray(rows.filter((r) => r.slug !== null).map((r) => r.profile_json));
  return `{"data":${data},"total":${total},"limit":${limit},"offset":${offset}}`;
}

export async function getCompany(pool: pg.Pool, slug: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ profile_json: string }>(
    'SELECT profile_json FROM companies WHERE slug = $1',
    [slug],
  );
  return rows[0]?.profile_json;
}
