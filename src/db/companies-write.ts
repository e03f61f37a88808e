// Writes of the companies and sources tables.
import type pg from 'pg';
import { JobState } from '../model/job-state.ts';
import { KNOWN_SOURCES } from '../model/sources.ts';
import { bumpDataVersion } from './feed-clock.ts';
import { withTransaction } from './pool.ts';

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

const PROFILE_KEYS = [
  'slug',
  'name',
  'domain',
  'website',
  'logo',
  'industry',
  'type',
  'description',
  'slogan',
  'specialties',
  'employee_count',
  'size_range',
  'followers',
  'founded_year',
  'hq',
  'funding',
  'stock',
  'affiliated_companies',
  'data_tier',
];
const HQ_KEYS = ['country', 'region', 'locality', 'raw'];
const FUNDING_KEYS = [
  'rounds',
  'last_round_type',
  'last_round_date',
  'last_round_amount_usd',
  'total_investment_usd',
  'fundingdb_slug',
  'fundingdb_categories',
];
const SUBSET_KEYS = ['slug', 'name', 'domain', 'website', 'logo', 'industry', 'employee_count'];

function ordered(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = o[k] ?? null;
  return out;
}

/** The public profile in the spec's field order (jsonb keeps its own order, so it is rebuilt here). */
function renderProfile(profile: Record<string, unknown>, jobsCount: number, updatedAt: string): string {
  const p = ordered(profile, PROFILE_KEYS);
  if (p.hq) p.hq = ordered(p.hq as Record<string, unknown>, HQ_KEYS);
  if (p.funding) {
    const funding = ordered(p.funding as Record<string, unknown>, FUNDING_KEYS);
    funding.fundingdb_categories ??= [];
    p.funding = funding;
  }
  p.specialties ??= [];
  p.affiliated_companies ??= [];
  return JSON.stringify({ ...p, jobs_count: jobsCount, updated_at: updatedAt });
}

function renderSubset(profile: Record<string, unknown>): string {
  return JSON.stringify(ordered(profile, SUBSET_KEYS));
}

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

/** Re-renders the stored JSON of these profiles (after a load or a jobs_count change). */
async function renderCompanies(client: pg.PoolClient | pg.Pool, slugs: string[]): Promise<void> {
  if (!slugs.length) return;
  const { rows } = await client.query<{
    slug: string;
    profile: Record<string, unknown>;
    jobs_count: number;
    updated: string;
  }>(
    `SELECT slug, profile, jobs_count,
            to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated
       FROM companies WHERE slug = ANY($1::text[])`,
    [slugs],
  );
  await client.query(
    `UPDATE companies c SET profile_json = r.profile_json, subset_json = r.subset_json
       FROM unnest($1::text[], $2::text[], $3::text[]) AS r(slug, profile_json, subset_json)
      WHERE c.slug = r.slug`,
    [
      rows.map((r) => r.slug),
      rows.map((r) => renderProfile(r.profile, r.jobs_count, r.updated)),
      rows.map((r) => renderSubset(r.profile)),
    ],
  );
}

export interface CompanyMatch {
  slug: string;
  name_key: string;
  domain: string | null;
}

/** Profiles that an employer may resolve to: by slug, domain or normalised name. */
export async function findCompanies(
  client: pg.Pool | pg.PoolClient,
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

/**
 * Writes source rows; a new data version when one was added or changed, since the source filters and
 * the match index read the legacy slugs (a version not only of jobs: the index is rebuilt).
 */
export async function upsertSources(pool: pg.Pool, rows: SourceRow[]): Promise<void> {
  if (!rows.length) return;
  await withTransaction(pool, async (c) => {
    const { rowCount } = await c.query(
      `INSERT INTO sources (slug, legacy_slug, type, domain, name)
     SELECT r.slug, r.legacy_slug, r.type, r.domain, r.name FROM json_populate_recordset(NULL::sources, $1::json) r
     ON CONFLICT (slug) DO UPDATE SET legacy_slug = EXCLUDED.legacy_slug, type = EXCLUDED.type,
       domain = EXCLUDED.domain, name = EXCLUDED.name
     WHERE (sources.legacy_slug, sources.type, sources.domain, sources.name)
       IS DISTINCT FROM (EXCLUDED.legacy_slug, EXCLUDED.type, EXCLUDED.domain, EXCLUDED.name)`,
      [JSON.stringify(rows)],
    );
    if (rowCount) await bumpDataVersion(c, undefined, false);
  });
}

export async function loadSources(pool: pg.Pool | pg.PoolClient): Promise<SourceRow[]> {
  return (await pool.query<SourceRow>('SELECT slug, legacy_slug, type, domain, name FROM sources')).rows;
}

/**
 * Recomputes jobs_count of every company from the live jobs and re-renders the changed profiles; a new
 * data version when any changed.
 */
export async function refreshJobsCounts(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ slug: string }>(
    `WITH counts AS (
       SELECT company_slug AS slug, count(*)::int AS n FROM jobs WHERE state = ${JobState.Live} AND company_slug IS NOT NULL
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
  // The profiles inside kept feed pages changed: a new data version, once every profile is rendered.
  // No job entered or left the live population, so totals kept at the old version carry over.
  if (slugs.length) await bumpDataVersion(pool, { left: [], entered: [] });
  return slugs.length;
}

/** Seeds the known sources (idempotent). */
export async function seedSources(pool: pg.Pool): Promise<void> {
  await upsertSources(
    pool,
    KNOWN_SOURCES.map((s) => ({ ...s, legacy_slug: s.legacy_slug ?? null })),
  );
}
