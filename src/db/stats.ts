// Dataset figures of /v1/meta and /v1/health. Exact: cached per data version, which every
// committing ingest or expiry bumps.
import type pg from 'pg';
import { JobState } from '../model/job-state.ts';

export interface LiveStats {
  jobs: number;
  companies: number;
  newest: string | null;
  sources: [string, number][];
  /** coverage_pct of /v1/meta. */
  coverage: Record<string, number>;
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
  const [bySource, companies, newest, filled] = await Promise.all([
    pool.query<{ source: string; n: number }>(
      `SELECT source, count(*)::int AS n FROM jobs WHERE state = ${JobState.Live} GROUP BY source ORDER BY n DESC, source`,
    ),
    pool.query<{ n: number }>('SELECT count(*)::int AS n FROM companies'),
    pool.query<{ newest: string | null }>(
      `SELECT to_char(max(posted_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS newest
         FROM jobs WHERE state = ${JobState.Live}`,
    ),
    coverage(pool),
  ]);
  const sources = bySource.rows.map((r) => [r.source, r.n] as [string, number]);
  const stats = {
    jobs: sources.reduce((a, [, n]) => a + n, 0),
    companies: companies.rows[0].n,
    newest: newest.rows[0].newest,
    sources,
    coverage: filled,
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

/**
 * Fill rates in percent over the live jobs, exact for the snapshot read: the live jobs filling each field
 * are kept in value_totals by triggers on jobs (migration 29), so nothing is counted here.
 */
export async function coverage(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ value: string; n: string }>({
    name: 'coverage',
    text: "SELECT value, n FROM value_totals WHERE dim = 'filled'",
  });
  const filled = new Map(rows.map((r) => [r.value, Number(r.n)]));
  const n = filled.get('') ?? 0;
  const pct: Record<string, number> = {};
  for (const k of COVERAGE_KEYS) pct[k] = n ? Math.round((1000 * (filled.get(k) ?? 0)) / n) / 10 : 0;
  return pct;
}
