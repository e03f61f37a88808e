// The trend of a request's filters over a window, per day or week, from the lifecycle the feeds record
// (one feed clock stamps created_at and expired_at, db/feed-clock.ts):
// - added: the jobs /v1/jobs/feed lists with created_at in the interval (live now);
// - expired: the jobs /v1/jobs/expired lists with expired_at in the interval (expired jobs, and published
//   postings later folded into another, at the fold time);
// - live at the interval's end t: the jobs first indexed before t and not gone by t, among those the two
//   feeds list (live now, or gone with an expired_at): created_at < t AND (live now OR expired_at >= t).
// The filters apply to each row's own columns as they are now (any state). A copy folded on arrival is
// never listed by either feed, so it is counted nowhere.
import type pg from 'pg';
import { JobState } from '../model/job-state.ts';
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

export async function trendSeries(db: pg.Pool | pg.PoolClient, req: TrendRequest): Promise<TrendPoint[]> {
  const step = INTERVAL_MS[req.interval];
  const n = Math.ceil((req.until - req.since) / step);
  const since = new Date(req.since).toISOString();
  const until = new Date(req.until).toISOString();
  const live = stateIs(JobState.Live);
  // The interval of a timestamp: -1 before the window (extract(epoch) of an interval is exact numeric).
  const bucket = (col: Sql) =>
    sql`CASE WHEN ${col} < ${since}::timestamptz THEN -1
             ELSE floor(extract(epoch FROM ${col} - ${since}::timestamptz) * 1000 / ${step})::int END`;
  const { rows } = await db.query<{ kind: string; now_live: boolean; b: number; n: string }>(sql`
    WITH m AS MATERIALIZED (
      SELECT j.state, j.created_at, j.expired_at FROM jobs j
      WHERE ${req.where} AND (j.state = ${live} OR j.expired_at IS NOT NULL) AND j.created_at < ${until}::timestamptz)
    SELECT 'in' AS kind, m.state = ${live} AS now_live, ${bucket(sql`m.created_at`)} AS b, count(*) AS n FROM m GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'out', false, ${bucket(sql`m.expired_at`)}, count(*) FROM m
    WHERE m.state <> ${live} AND m.expired_at < ${until}::timestamptz GROUP BY 1, 2, 3`);
  // Per interval (index + 1; 0 holds what came before the window): entered, entered and live now, left.
  const entered = new Array<number>(n + 1).fill(0);
  const added = new Array<number>(n + 1).fill(0);
  const left = new Array<number>(n + 1).fill(0);
  for (const r of rows) {
    const i = r.b + 1;
    const c = Number(r.n);
    if (r.kind === 'out') left[i] += c;
    else {
      entered[i] += c;
      if (r.now_live) added[i] += c;
    }
  }
  // A row leaves no earlier than it entered (one clock stamps both), so the running difference of what
  // entered and what left before t is what was live at t.
  let running = entered[0] - left[0];
  const out: TrendPoint[] = [];
  for (let i = 1; i <= n; i++) {
    running += entered[i] - left[i];
    out.push({
      start: new Date(req.since + (i - 1) * step).toISOString(),
      added: added[i],
      expired: left[i],
      live: running,
    });
  }
  return out;
}
