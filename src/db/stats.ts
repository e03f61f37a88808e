// Dataset figures of /v1/meta and /v1/health. Exact: cached per data version, which every
// committing ingest or expiry bumps.
import type pg from 'pg';
import { JobState } from '../model/job-state.ts';

export interface LiveStats {
  jobs: number;
  companies: number;
  newest: string | null;
  sources: [string, number][];
}

let cache: { version: number; stats: LiveStats } | undefined;

export async function dataVersion(pool: pg.Pool | pg.PoolClient): Promise<number> {
  const { rows } = await pool.query<{ version: number }>({
    name: 'data_version',
    text: 'SELECT version FROM data_version WHERE id = 1',
  });
  return Number(rows[0].version);
}

export async function liveStats(pool: pg.Pool): Promise<LiveStats> {
  const version = await dataVersion(pool);
  if (cache && cache.version === version) return cache.stats;
  const [bySource, companies, newest] = await Promise.all([
    pool.query<{ source: string; n: number }>(
      `SELECT source, count(*)::int AS n FROM jobs WHERE state = ${JobState.Live} GROUP BY source ORDER BY n DESC, source`,
    ),
    pool.query<{ n: number }>('SELECT count(*)::int AS n FROM companies'),
    pool.query<{ newest: string | null }>(
      `SELECT to_char(max(posted_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS newest
         FROM jobs WHERE state = ${JobState.Live}`,
    ),
  ]);
  const sources = bySource.rows.map((r) => [r.source, r.n] as [string, number]);
  const stats = {
    jobs: sources.reduce((a, [, n]) => a + n, 0),
    companies: companies.rows[0].n,
    newest: newest.rows[0].newest,
    sources,
  };
  cache = { version, stats };
  return stats;
}

export const COVERAGE_KEYS = [
  'country',
  'skills',
  'work_arrangement',
  'seniority',
  'taxonomies',
  'salary',
  'education',
  'language',
] as const;

/** Fill rates in percent over the live jobs, stored for /v1/meta. */
export async function refreshCoverage(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n,
            count(*) FILTER (WHERE cardinality(country_codes) > 0)::int AS country,
            count(*) FILTER (WHERE cardinality(skills) > 0)::int AS skills,
            count(*) FILTER (WHERE work_arrangement IS NOT NULL)::int AS work_arrangement,
            count(*) FILTER (WHERE seniority IS NOT NULL)::int AS seniority,
            count(*) FILTER (WHERE cardinality(taxonomies) > 0)::int AS taxonomies,
            count(*) FILTER (WHERE has_salary)::int AS salary,
            count(*) FILTER (WHERE cardinality(education) > 0)::int AS education,
            count(*) FILTER (WHERE language IS NOT NULL)::int AS language
       FROM jobs WHERE state = ${JobState.Live}`,
  );
  const r = rows[0];
  const coverage: Record<string, number> = {};
  for (const k of COVERAGE_KEYS) coverage[k] = r.n ? Math.round((1000 * r[k]) / r.n) / 10 : 0;
  await pool.query(
    `INSERT INTO dataset_stats (id, coverage, computed_at) VALUES (1, $1, now())
     ON CONFLICT (id) DO UPDATE SET coverage = EXCLUDED.coverage, computed_at = EXCLUDED.computed_at`,
    [JSON.stringify(coverage)],
  );
  return coverage;
}

export async function storedCoverage(pool: pg.Pool): Promise<Record<string, number> | undefined> {
  const { rows } = await pool.query<{ coverage: Record<string, number> }>(
    'SELECT coverage FROM dataset_stats WHERE id = 1',
  );
  return rows[0]?.coverage;
}
