// The salary distribution of the jobs matching a request's filters, per currency. One value per job is
// distributed: the midpoint of its annual_min and annual_max (the Job's annualised band: YEAR ×1,
// MONTH ×12, WEEK ×52, DAY ×260, HOUR ×2080; a job that states one amount has min = max, so its value is
// that amount). Percentiles are PostgreSQL's percentile_cont (linear interpolation between the two
// nearest values). The figures and the histogram are read in one snapshot; the match index answers the
// same figures (salary-figures.ts) when it holds the filters at the request's version.
import type pg from 'pg';
import { withSnapshot } from '../db/pool.ts';
import type { JobFilters } from './dimensions.ts';
import { planAsksIndex, readVersion, type SearchContext } from './jobs.ts';
import { bucketEdges, byCount, type CurrencySalary, histogramOf } from './salary-figures.ts';
import { raw, type Sql, sql } from './sql.ts';

export type { CurrencySalary, HistogramBucket } from './salary-figures.ts';

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
      .map((r) => ({ ...r, currency: r.cur!, count: Number(r.n) }))
      .sort(byCount);
    const bounds = stats.map((r) => bucketEdges(r.min, r.max, edges));
    const counts = new Map<string, number>();
    if (stats.length) {
      const { rows: hist } = await db.query<{ cur: string; b: number; n: string }>(sql`WITH ${VALUES(where)}
        SELECT s.cur, width_bucket(s.v, e.edges::float8[]) AS b, count(*) AS n
        FROM s JOIN unnest(${stats.map((r) => r.currency)}::text[], ${bounds.map((b) => `{${b.join(',')}}`)}::text[]) AS e(cur, edges)
          ON e.cur = s.cur
        GROUP BY 1, 2`);
      for (const h of hist) counts.set(`${h.cur}|${h.b}`, Number(h.n));
    }
    const currencies = stats.map((r, i): CurrencySalary => {
      const histogram = histogramOf(
        bounds[i],
        edges !== undefined,
        (b) => counts.get(`${r.currency}|${b}`) ?? 0,
      );
      const [p10, p25, median, p75, p90] = r.p!;
      return {
        currency: r.currency,
        count: r.count,
        min: r.min,
        p10,
        p25,
        median,
        p75,
        p90,
        max: r.max,
        histogram,
      };
    });
    return { total, with_salary: stats.reduce((s, r) => s + r.count, 0), currencies };
  });
}

/**
 * The distribution from the match index when the read plan asks it (it holds the filters) at the
 * request's data version; undefined otherwise (PostgreSQL computes it: salaryDistribution).
 */
export async function salaryFromIndex(
  ctx: SearchContext,
  filters: JobFilters,
  edges?: number[],
): Promise<SalaryData | undefined> {
  if (!ctx.match || !planAsksIndex(ctx, filters)) return undefined;
  const version = await readVersion(ctx, ctx.pool);
  const q = { version, filters, collapse: false, offset: 0, limit: 0, salary: edges ? { edges } : {} };
  // The index is an optimisation: whatever goes wrong in it, PostgreSQL answers.
  const a = await ctx.match.ask(q).catch(() => undefined);
  if (!a?.salary) return undefined;
  return { total: a.total, with_salary: a.salary.reduce((s, c) => s + c.count, 0), currencies: a.salary };
}
