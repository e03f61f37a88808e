// The salary distribution of the jobs matching a request's filters, per currency. One value per job is
// distributed: the midpoint of its annual_min and annual_max (the Job's annualised band: YEAR ×1,
// MONTH ×12, WEEK ×52, DAY ×260, HOUR ×2080; a job that states one amount has min = max, so its value is
// that amount). Percentiles are PostgreSQL's percentile_cont (linear interpolation between the two
// nearest values). The figures and the histogram are read in one snapshot.
import type pg from 'pg';
import { withSnapshot } from '../db/pool.ts';
import { raw, type Sql, sql } from './sql.ts';

export interface HistogramBucket {
  from: number;
  /** Null for the open last bucket of edges given by the client. */
  to: number | null;
  count: number;
}

export interface CurrencySalary {
  currency: string;
  count: number;
  min: number;
  p10: number;
  p25: number;
  median: number;
  p75: number;
  p90: number;
  max: number;
  histogram: HistogramBucket[];
}

export interface SalaryData {
  total: number;
  with_salary: number;
  currencies: CurrencySalary[];
}

/**
 * The job's distributed value; only finite values count (a stored band is always finite; the bounds keep
 * NaN and infinities, which PostgreSQL orders past every number, out of the percentiles).
 */
const VALUE = raw('(j.salary_annual_min + j.salary_annual_max) / 2');
const VALUES = (where: Sql) => sql`
  m AS MATERIALIZED (SELECT j.salary_currency AS cur, ${VALUE} AS v, j.has_salary FROM jobs j WHERE ${where}),
  s AS (SELECT cur, v FROM m WHERE has_salary AND cur IS NOT NULL
          AND v > '-Infinity'::float8 AND v < 'Infinity'::float8)`;

/**
 * The distribution over the jobs matching `where` (compiled filters). `edges`: the client's ascending
 * bucket edges (buckets from 0 to the first, between each two, and an open one past the last); without
 * them each currency's edges are chosen from its range (niceEdges).
 */
export async function salaryDistribution(pool: pg.Pool, where: Sql, edges?: number[]): Promise<SalaryData> {
  return withSnapshot(pool, async (db) => {
    const { rows } = await db.query<{
      cur: string | null;
      n: string;
      min: number;
      max: number;
      p: number[] | null;
    }>(sql`WITH ${VALUES(where)}
      SELECT NULL AS cur, count(*) AS n, NULL AS min, NULL AS max, NULL AS p FROM m
      UNION ALL
      SELECT cur, count(*), min(v), max(v), percentile_cont(ARRAY[0.1, 0.25, 0.5, 0.75, 0.9]) WITHIN GROUP (ORDER BY v)
      FROM s GROUP BY cur`);
    const total = Number(rows.find((r) => r.cur === null)!.n);
    const stats = rows
      .filter((r) => r.cur !== null)
      .map((r) => ({ ...r, cur: r.cur!, n: Number(r.n) }))
      .sort((a, b) => b.n - a.n || (a.cur < b.cur ? -1 : a.cur > b.cur ? 1 : 0));
    const bounds = stats.map((r) => (edges ? [0, ...edges.filter((e) => e > 0)] : niceEdges(r.min, r.max)));
    const counts = new Map<string, number>();
    if (stats.length) {
      const { rows: hist } = await db.query<{ cur: string; b: number; n: string }>(sql`WITH ${VALUES(where)}
        SELECT s.cur, width_bucket(s.v, e.edges::float8[]) AS b, count(*) AS n
        FROM s JOIN unnest(${stats.map((r) => r.cur)}::text[], ${bounds.map((b) => `{${b.join(',')}}`)}::text[]) AS e(cur, edges)
          ON e.cur = s.cur
        GROUP BY 1, 2`);
      for (const h of hist) counts.set(`${h.cur}|${h.b}`, Number(h.n));
    }
    const currencies = stats.map((r, i): CurrencySalary => {
      const b = bounds[i];
      // width_bucket: i for b[i-1] <= v < b[i] (1-based), b.length past the last edge.
      const histogram: HistogramBucket[] = b.slice(0, -1).map((from, k) => ({
        from,
        to: b[k + 1],
        count: counts.get(`${r.cur}|${k + 1}`) ?? 0,
      }));
      if (edges)
        histogram.push({ from: b[b.length - 1], to: null, count: counts.get(`${r.cur}|${b.length}`) ?? 0 });
      const [p10, p25, median, p75, p90] = r.p!;
      return { currency: r.cur, count: r.n, min: r.min, p10, p25, median, p75, p90, max: r.max, histogram };
    });
    return { total, with_salary: stats.reduce((s, r) => s + r.n, 0), currencies };
  });
}

/**
 * About ten buckets of a round width (1, 2, 2.5 or 5 times a power of ten) from a multiple of that width
 * at or below `min` to the first edge past `max`, so every value lies in a bucket [from, to).
 */
export function niceEdges(min: number, max: number, target = 10): number[] {
  const span = max - min || Math.abs(max) || 1;
  const rough = span / target;
  const mag = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= rough)!;
  const first = Math.floor(min / step);
  const edges: number[] = [];
  for (let k = first; edges.length === 0 || edges[edges.length - 1] <= max; k++) edges.push(k * step);
  return edges;
}
