// The trend of a request's filters over a window, per day or week, from the lifecycle the feeds record
// (one feed clock stamps created_at and expired_at, db/feed-clock.ts):
// - added: the jobs /v1/jobs/feed lists with created_at in the interval (live now);
// - expired: the jobs /v1/jobs/expired lists with expired_at in the interval (expired jobs, and published
//   postings later folded into another, at the fold time);
// - live at the interval's end t: the jobs first indexed before t and not gone by t, among those the two
//   feeds list (live now, or gone with an expired_at): created_at < t AND (live now OR expired_at >= t).
// The filters apply to each row's own columns as they are now (any state). A copy folded on arrival is
// never listed by either feed, so it is counted nowhere. The match index counts them when it holds the
// filters (trendWithIndex): it keeps the gone jobs the expired feed lists beside the live ones.
import type pg from 'pg';
import { JobState } from '../model/job-state.ts';
import type { JobFilters } from './dimensions.ts';
import type { TrendTally } from './match-index.ts';
import { planAsksIndex, readVersion, type SearchContext } from './jobs.ts';
import { type Sql, sql, stateIs } from './sql.ts';

export type TrendInterval = 'day' | 'week';

export const INTERVAL_MS: Record<TrendInterval, number> = { day: 86_400_000, week: 7 * 86_400_000 };

export interface TrendPoint {
  start: string;
  added: number;
  expired: number;
  live: number;
}

export interface TrendRequest {
  /** The filters compiled with `anyState` (compileFilters): conditions on the row's own columns. */
  where: Sql;
  interval: TrendInterval;
  /** The window [since, until), in ms since the epoch; intervals start at `since`, the last ends at `until`. */
  since: number;
  until: number;
}

/** The rows' entries and exits per interval, counted in PostgreSQL: of every row the feeds list. */
async function tally(db: pg.Pool | pg.PoolClient, req: TrendRequest): Promise<TrendTally> {
  const n = intervals(req);
  const since = new Date(req.since).toISOString();
  const until = new Date(req.until).toISOString();
  const live = stateIs(JobState.Live);
  // The interval of a timestamp: -1 before the window (extract(epoch) of an interval is exact numeric).
  const bucket = (col: Sql) =>
    sql`CASE WHEN ${col} < ${since}::timestamptz THEN -1
             ELSE floor(extract(epoch FROM ${col} - ${since}::timestamptz) * 1000 / ${INTERVAL_MS[req.interval]})::int END`;
  const rows = sql`(j.state = ${live} OR j.expired_at IS NOT NULL)`;
  const { rows: counted } = await db.query<{ kind: string; now_live: boolean; b: number; n: string }>(sql`
    WITH m AS MATERIALIZED (
      SELECT j.state, j.created_at, j.expired_at FROM jobs j
      WHERE ${req.where} AND ${rows} AND j.created_at < ${until}::timestamptz)
    SELECT 'in' AS kind, m.state = ${live} AS now_live, ${bucket(sql`m.created_at`)} AS b, count(*) AS n FROM m GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'out', false, ${bucket(sql`m.expired_at`)}, count(*) FROM m
    WHERE m.state <> ${live} AND m.expired_at < ${until}::timestamptz GROUP BY 1, 2, 3`);
  const t: TrendTally = { entered: zeros(n + 1), added: zeros(n + 1), left: zeros(n + 1) };
  for (const r of counted) {
    const i = r.b + 1;
    const c = Number(r.n);
    if (r.kind === 'out') t.left[i] += c;
    else {
      t.entered[i] += c;
      if (r.now_live) t.added[i] += c;
    }
  }
  return t;
}

const zeros = (n: number) => new Array<number>(n).fill(0);

/** The number of intervals of a window: the last is cut at `until`. */
const intervals = (req: TrendRequest) => Math.ceil((req.until - req.since) / INTERVAL_MS[req.interval]);

function series(req: TrendRequest, t: TrendTally): TrendPoint[] {
  const step = INTERVAL_MS[req.interval];
  // A row leaves no earlier than it entered (one clock stamps both), so the running difference of what
  // entered and what left before t is what was live at t.
  let running = t.entered[0] - t.left[0];
  const out: TrendPoint[] = [];
  for (let i = 1; i < t.entered.length; i++) {
    running += t.entered[i] - t.left[i];
    out.push({
      start: new Date(req.since + (i - 1) * step).toISOString(),
      added: t.added[i],
      expired: t.left[i],
      live: running,
    });
  }
  return out;
}

/** The series, every row counted in PostgreSQL. */
export async function trendSeries(db: pg.Pool | pg.PoolClient, req: TrendRequest): Promise<TrendPoint[]> {
  return series(req, await tally(db, req));
}

/**
 * The series counted by the match index when the read plan asks it (it holds the filters, and keeps the
 * live jobs and the gone ones the expired feed lists), at the request's data version; by PostgreSQL when
 * the index declines.
 */
export async function trendWithIndex(
  ctx: SearchContext,
  filters: JobFilters,
  req: TrendRequest,
): Promise<TrendPoint[]> {
  if (!ctx.match || !planAsksIndex(ctx, filters)) return trendSeries(ctx.pool, req);
  const version = await readVersion(ctx, ctx.pool);
  const us = (ms: number) => ms * 1000;
  const trend = { since: us(req.since), step: us(INTERVAL_MS[req.interval]), until: us(req.until) };
  // The index is an optimisation: whatever goes wrong in it, PostgreSQL answers.
  const a = await ctx.match
    .ask({ version, filters, collapse: false, offset: 0, limit: 0, trend })
    .catch(() => undefined);
  // One count per interval and one before the window, or PostgreSQL counts every row.
  if (a?.trend?.entered.length !== intervals(req) + 1) return trendSeries(ctx.pool, req);
  return series(req, a.trend);
}
