// The trend of a request's filters over a window, per day or week, from the lifecycle the feeds record
// (one feed clock stamps created_at and expired_at, db/feed-clock.ts):
// - added: the jobs /v1/jobs/feed lists with created_at in the interval (live now);
// - expired: the jobs /v1/jobs/expired lists with expired_at in the interval (expired jobs, and published
//   postings later folded into another, at the fold time);
// - live at the interval's end t: the jobs first indexed before t and not gone by t, among those the two
//   feeds list (live now, or gone with an expired_at): created_at < t AND (live now OR expired_at >= t).
// The filters apply to each row's own columns as they are now (any state). A copy folded on arrival is
// never listed by either feed, so it is counted nowhere. The live jobs' entries are counted by the match
// index when it holds the filters (trendWithIndex), the gone ones' by PostgreSQL in the same data version.
import type pg from 'pg';
import { withSnapshot } from '../db/pool.ts';
import { dataVersion } from '../db/stats.ts';
import { JobState } from '../model/job-state.ts';
import type { JobFilters } from './dimensions.ts';
import { planAsksIndex, type SearchContext } from './jobs.ts';
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

/** Per interval (index + 1; [0] holds what came before the window): entered, entered and live now, left. */
interface Tally {
  entered: number[];
  added: number[];
  left: number[];
}

/**
 * The rows' entries and exits per interval, counted in PostgreSQL: of every row the feeds list (`gone`:
 * only of those gone since the window's start; those gone before it entered before it too, as one clock
 * stamps both, so they add nothing to any point).
 */
async function tally(db: pg.Pool | pg.PoolClient, req: TrendRequest, gone: boolean): Promise<Tally> {
  const n = intervals(req);
  const since = new Date(req.since).toISOString();
  const until = new Date(req.until).toISOString();
  const live = stateIs(JobState.Live);
  // The interval of a timestamp: -1 before the window (extract(epoch) of an interval is exact numeric).
  const bucket = (col: Sql) =>
    sql`CASE WHEN ${col} < ${since}::timestamptz THEN -1
             ELSE floor(extract(epoch FROM ${col} - ${since}::timestamptz) * 1000 / ${INTERVAL_MS[req.interval]})::int END`;
  const rows = gone
    ? sql`j.state <> ${live} AND j.expired_at IS NOT NULL AND j.expired_at >= ${since}::timestamptz`
    : sql`(j.state = ${live} OR j.expired_at IS NOT NULL)`;
  const { rows: counted } = await db.query<{ kind: string; now_live: boolean; b: number; n: string }>(sql`
    WITH m AS MATERIALIZED (
      SELECT j.state, j.created_at, j.expired_at FROM jobs j
      WHERE ${req.where} AND ${rows} AND j.created_at < ${until}::timestamptz)
    SELECT 'in' AS kind, m.state = ${live} AS now_live, ${bucket(sql`m.created_at`)} AS b, count(*) AS n FROM m GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'out', false, ${bucket(sql`m.expired_at`)}, count(*) FROM m
    WHERE m.state <> ${live} AND m.expired_at < ${until}::timestamptz GROUP BY 1, 2, 3`);
  const t: Tally = { entered: zeros(n + 1), added: zeros(n + 1), left: zeros(n + 1) };
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

function series(req: TrendRequest, t: Tally): TrendPoint[] {
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
  return series(req, await tally(db, req, false));
}

/**
 * The series with the live jobs counted by the match index (when the read plan asks it, at the data
 * version of the snapshot PostgreSQL counts the gone ones in), or by PostgreSQL when the index declines.
 * The gone jobs are those of the expired feed since the window's start: the live ones, a million, are the
 * rows PostgreSQL would otherwise read one by one.
 */
export async function trendWithIndex(
  ctx: SearchContext,
  filters: JobFilters,
  req: TrendRequest,
): Promise<TrendPoint[]> {
  if (!ctx.match || !planAsksIndex(ctx, filters)) return trendSeries(ctx.pool, req);
  const match = ctx.match;
  return withSnapshot(ctx.pool, async (c) => {
    const version = await dataVersion(c);
    const us = (ms: number) => ms * 1000;
    const trend = { since: us(req.since), step: us(INTERVAL_MS[req.interval]), until: us(req.until) };
    // The index is an optimisation: whatever goes wrong in it, PostgreSQL answers.
    const a = await match
      .ask({ version, filters, collapse: false, offset: 0, limit: 0, trend })
      .catch(() => undefined);
    // One count per interval and one before the window, or PostgreSQL counts every row.
    if (a?.entered?.length !== intervals(req) + 1) return trendSeries(c, req);
    const t = await tally(c, req, true);
    for (let i = 0; i < t.entered.length; i++) {
      t.entered[i] += a.entered[i];
      t.added[i] += a.entered[i];
    }
    return series(req, t);
  });
}
