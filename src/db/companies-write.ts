// Writes of the companies and sources tables.
import type pg from 'pg';

export interface CompanyRow {
  slug: string;
  name: string;
  name_key: string;
  domain: string | null;
  industry_key: string | null;
  size_range: string | null;
  employee_count: number | null;
  followers: number;
  remco: boolean;
  hq_country: string | null;
  total_funding: number | null;
  profile: Record<string, unknown>;
}

/** The rendered profile: the stored profile plus jobs_count and updated_at. */
const RENDER = `(c.profile || jsonb_build_object('jobs_count', c.jobs_count,
   'updated_at', to_char(c.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text`;
const SUBSET = `jsonb_build_object('slug', c.slug, 'name', c.name, 'domain', c.profile->'domain',
   'website', c.profile->'website', 'logo', c.profile->'logo', 'industry', c.profile->'industry',
   'employee_count', c.profile->'employee_count')::text`;

/** Creates or updates profiles by slug; `updated_at` moves only when the profile changed. Returns the slugs written. */
export async function upsertCompanies(client: pg.PoolClient, rows: CompanyRow[]): Promise<string[]> {
  if (!rows.length) return [];
  const { rows: written } = await client.query<{ slug: string }>(
    `INSERT INTO companies AS c (slug, name, name_key, domain, industry_key, size_range, employee_count, followers,
                                 remco, hq_country, total_funding, profile, profile_json, subset_json, updated_at)
     SELECT r.slug, r.name, r.name_key, r.domain, r.industry_key, r.size_range, r.employee_count, r.followers,
            r.remco, r.hq_country, r.total_funding, r.profile, '', '', now()
       FROM json_populate_recordset(NULL::companies, $1::json) AS r
     ON CONFLICT (slug) DO UPDATE SET
       name = EXCLUDED.name, name_key = EXCLUDED.name_key, domain = EXCLUDED.domain,
       industry_key = EXCLUDED.industry_key, size_range = EXCLUDED.size_range,
       employee_count = EXCLUDED.employee_count, followers = EXCLUDED.followers, remco = EXCLUDED.remco,
       hq_country = EXCLUDED.hq_country, total_funding = EXCLUDED.total_funding, profile = EXCLUDED.profile,
       updated_at = now()
     WHERE c.profile IS DISTINCT FROM EXCLUDED.profile
     RETURNING c.slug`,
    [JSON.stringify(rows)],
  );
  const slugs = written.map((r) => r.slug);
  await renderCompanies(client, slugs);
  return slugs;
}

export async function renderCompanies(client: pg.PoolClient | pg.Pool, slugs: string[]): Promise<void> {
  if (!slugs.length) return;
  await client.query(
    `UPDATE companies c SET profile_json = ${RENDER}, subset_json = ${SUBSET} WHERE c.slug = ANY($1::text[])`,
    [slugs],
  );
}

export interface CompanyMatch {
  slug: string;
  name_key: string;
  domain: string | null;
}

/** Profiles that an employer may resolve to: by slug, domain or normalised name. */
export async function findCompanies(
  client: pg.PoolClient,
  slugs: string[],
  domains: string[],
  nameKeys: string[],
): Promise<CompanyMatch[]> {
  const { rows } = await client.query<CompanyMatch>(
    `SELECT slug, name_key, domain FROM companies
      WHERE slug = ANY($1::text[]) OR domain = ANY($2::text[]) OR name_key = ANY($3::text[])
      ORDER BY remco DESC, followers DESC, slug`,
    [slugs, domains, nameKeys],
  );
  return rows;
}

export interface SourceRow {
  slug: string;
  legacy_slug: string | null;
  type: string;
  domain: string;
  name: string;
}

export async function upsertSources(client: pg.PoolClient | pg.Pool, rows: SourceRow[]): Promise<void> {
  if (!rows.length) return;
  await client.query(
    `INSERT INTO sources (slug, legacy_slug, type, domain, name)
     SELECT r.slug, r.legacy_slug, r.type, r.domain, r.name FROM json_populate_recordset(NULL::sources, $1::json) r
     ON CONFLICT (slug) DO UPDATE SET legacy_slug = EXCLUDED.legacy_slug, type = EXCLUDED.type,
       domain = EXCLUDED.domain, name = EXCLUDED.name`,
    [JSON.stringify(rows)],
  );
}

export async function loadSources(pool: pg.Pool | pg.PoolClient): Promise<SourceRow[]> {
  return (await pool.query<SourceRow>('SELECT slug, legacy_slug, type, domain, name FROM sources')).rows;
}

/** Recomputes jobs_count of every company from the live jobs and re-renders the changed profiles. */
export async function refreshJobsCounts(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ slug: string }>(
    `WITH counts AS (
       SELECT company_slug AS slug, count(*)::int AS n FROM jobs WHERE state = 0 AND company_slug IS NOT NULL
        GROUP BY company_slug
     ), changed AS (
       UPDATE companies c SET jobs_count = coalesce(k.n, 0)
         FROM companies c2 LEFT JOIN counts k ON k.slug = c2.slug
        WHERE c.slug = c2.slug AND c.jobs_count IS DISTINCT FROM coalesce(k.n, 0)
       RETURNING c.slug
     )
     SELECT slug FROM changed`,
  );
  const slugs = rows.map((r) => r.slug);
  for (let i = 0; i < slugs.length; i += 5000) await renderCompanies(pool, slugs.slice(i, i + 5000));
  return slugs.length;
}
