// Freshness per source (GET /v1/sources): live postings, the last load or crawl that wrote postings
// of the source, and the median age of its live postings.
import type pg from 'pg';
import { dataVersion } from '../db/stats.ts';
import { JobState } from '../model/job-state.ts';

export interface SourceFreshness {
  source: string;
  source_type: string;
  live: number;
  last_load_at: string | null;
  median_age_days: number | null;
}

interface LiveRow {
  source: string;
  live: number;
  /** Median posted_at of the live postings, epoch seconds. */
  median_posted: number | null;
}

// Counting and sorting every live posting is kept per data version, which every change of the live
// population bumps; ages are taken from the clock at each request, the loads read each time.
let cache: { version: number; rows: Map<string, LiveRow> } | undefined;

async function liveBySource(pool: pg.Pool): Promise<Map<string, LiveRow>> {
  const version = await dataVersion(pool);
  if (cache?.version === version) return cache.rows;
  // The median read from the live-jobs-by-source index at the middle offset (the two middle rows of an
  // even count, averaged): no sort of a million values, which would spill out of work_mem.
  const { rows } = await pool.query<LiveRow>(
    `SELECT c.source, c.live,
            (SELECT avg(extract(epoch FROM m.posted_at))::float8
               FROM (SELECT j.posted_at FROM jobs j
                      WHERE j.state = ${JobState.Live} AND j.source = c.source
                      ORDER BY j.posted_at DESC OFFSET (c.live - 1) / 2 LIMIT 2 - c.live % 2) AS m) AS median_posted
       FROM (SELECT source, count(*)::int AS live FROM jobs WHERE state = ${JobState.Live} GROUP BY source) AS c`,
  );
  const bySource = new Map(rows.map((r) => [r.source, r]));
  cache = { version, rows: bySource };
  return bySource;
}

/** Every known source, most live postings first (then by slug). */
export async function sourceFreshness(pool: pg.Pool, now = Date.now()): Promise<SourceFreshness[]> {
  const [live, sources] = await Promise.all([
    liveBySource(pool),
    pool.query<{ slug: string; type: string; last_load_at: string | null }>(
      `SELECT slug, type, to_char(last_load_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS last_load_at
         FROM sources`,
    ),
  ]);
  return sources.rows
    .map((s) => {
      const l = live.get(s.slug);
      const median = l?.median_posted ?? null;
      return {
        source: s.slug,
        source_type: s.type,
        live: l?.live ?? 0,
        last_load_at: s.last_load_at,
        // Days, to a tenth; a posting dated in the future counts as age 0.
        median_age_days: median === null ? null : Math.max(0, Math.round((now / 1000 - median) / 8640)) / 10,
      };
    })
    .sort((a, b) => b.live - a.live || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}
