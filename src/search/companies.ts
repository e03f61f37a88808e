// Company search and look-up by slug.
import type pg from 'pg';
import { dataVersion } from '../db/stats.ts';
import type { PageCache, SearchPage } from './page-cache.ts';
import { and, likeEscape, raw, type Sql, sql } from './sql.ts';
import { VERSION_SQL } from './totals.ts';

export interface CompanyFilters {
  q?: string;
  industry?: string[];
  country?: string[];
  size?: string[];
  employee_count_gte?: number;
  employee_count_lt?: number;
  has_jobs?: boolean;
}

export interface CompanySearch {
  pool: pg.Pool;
  /** Pages kept per data version (the companies change only with a new one, see bumpDataVersion). */
  pages?: PageCache<SearchPage>;
  /** The data version read with the key, when `pool` reads the primary. */
  version?: number;
}

/** The page's full profiles, remco first, then by followers, and the exact total. */
export async function searchCompanies(
  ctx: CompanySearch,
  f: CompanyFilters,
  limit: number,
  offset: number,
): Promise<SearchPage> {
  if (!ctx.pages) return (await readCompanies(ctx.pool, f, limit, offset)).value;
  const version = ctx.version ?? (await dataVersion(ctx.pool));
  return ctx.pages.resolve(version, pageKey(f, limit, offset), () =>
    readCompanies(ctx.pool, f, limit, offset),
  );
}

/** The request as a key: lists are sets, so their order does not matter. */
function pageKey(f: CompanyFilters, limit: number, offset: number): string {
  const set = (v?: string[]) => (v ? [...v].sort() : null);
  const { q, industry, country, size, employee_count_gte, employee_count_lt, has_jobs } = f;
  const parts = [q, set(industry), set(country), set(size), employee_count_gte, employee_count_lt, has_jobs];
  return `companies|${JSON.stringify(parts)}|${limit}|${offset}`;
}

/**
 * pg_trgm narrows a name match only from a fragment of three characters; a shorter one makes its index
 * scan every entry, slower than reading the rows (docs/decisions.md, "Company search reads its matches
 * once").
 */
const TRIGRAM = 3;

/** One statement, so one snapshot: the page, its total and the data version they were read at. */
async function readCompanies(
  pool: pg.Pool,
  f: CompanyFilters,
  limit: number,
  offset: number,
): Promise<{ version: number; value: SearchPage }> {
  const w: Sql[] = [];
  if (f.q) {
    const name = [...f.q].length >= TRIGRAM ? raw('lower(c.name)') : raw("(lower(c.name) || '')");
    w.push(sql`${name} LIKE ${`%${likeEscape(f.q.toLowerCase())}%`}`);
  }
  if (f.industry) w.push(sql`c.industry_key = ANY(${f.industry}::text[])`);
  if (f.country) w.push(sql`c.hq_country = ANY(${f.country}::text[])`);
  if (f.size) w.push(sql`c.size_range = ANY(${f.size}::text[])`);
  if (f.employee_count_gte !== undefined) w.push(sql`c.employee_count >= ${f.employee_count_gte}`);
  if (f.employee_count_lt !== undefined) w.push(sql`c.employee_count < ${f.employee_count_lt}`);
  if (f.has_jobs === true) w.push(sql`c.jobs_count > 0`);
  if (f.has_jobs === false) w.push(sql`c.jobs_count = 0`);
  const where = and(w);
  // A name match reads its matching rows once for both the page and the total; without one, the page
  // walks the sort order's index and stops at its last row.
  const statement = f.q
    ? sql`
    WITH m AS MATERIALIZED (SELECT c.slug, c.remco, c.followers FROM companies c WHERE ${where}),
    page AS (SELECT m.* FROM m ORDER BY m.remco DESC, m.followers DESC, m.slug LIMIT ${limit} OFFSET ${offset})
    SELECT (SELECT count(*) FROM m) AS total, ${raw(VERSION_SQL)} AS version, page.slug, c.profile_json
    FROM (SELECT 1) AS one LEFT JOIN (page JOIN companies c ON c.slug = page.slug) ON true
    ORDER BY page.remco DESC, page.followers DESC, page.slug`
    : sql`
    WITH page AS (
      SELECT c.slug, c.profile_json, c.remco, c.followers FROM companies c WHERE ${where}
      ORDER BY c.remco DESC, c.followers DESC, c.slug
      LIMIT ${limit} OFFSET ${offset}
    )
    SELECT (SELECT count(*) FROM companies c WHERE ${where}) AS total, ${raw(VERSION_SQL)} AS version, page.*
    FROM (SELECT 1) AS one LEFT JOIN page ON true
    ORDER BY page.remco DESC, page.followers DESC, page.slug`;
  const { rows } = await pool.query(statement);
  const profiles = rows.filter((r) => r.slug !== null).map((r) => r.profile_json);
  return {
    version: Number(rows[0].version),
    value: { data: Buffer.from(`[${profiles.join(',')}]`), total: Number(rows[0].total) },
  };
}

export async function getCompany(pool: pg.Pool, slug: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ profile_json: string }>(
    'SELECT profile_json FROM companies WHERE slug = $1',
    [slug],
  );
  return rows[0]?.profile_json;
}
