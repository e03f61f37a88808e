// Totals kept per filter value (value_totals, migrations 13 and 19): the exact number of live jobs with
// one value of one list or scalar filter, one title lexeme, one country and title lexeme, one UTC day of
// posting, or one thousand of annual salary (maximum and minimum), maintained in the writing transaction. A request whose filters are one such value reads its
// total in one look-up instead of counting its matches, which costs about a microsecond each when cold.
import type pg from 'pg';
import type { Counted } from '../model/totals.ts';
import { DIMENSIONS, type JobFilters, timeFrameStart } from './dimensions.ts';
import { JobState } from '../model/job-state.ts';
import { raw, type Sql, sql, stateIs } from './sql.ts';
import { VERSION_SQL } from './totals.ts';

/** value_totals' dimension of each filter whose one value is a total of its own. */
const DIMS = new Map(DIMENSIONS.flatMap((d) => (d.filter && d.totals ? [[d.filter, d.totals]] : [])));

/** A single title term, as the text queries compile it (phrases and operators are counted). */
const ONE_TERM = /^'(?:[^'\s]|'')+'$/;

export type ValueTotal =
  | { dim: string; value: string }
  | { title: string; country?: string }
  | { since: Sql }
  | { salary: { gte?: number; lte?: number } };

/** Salary bounds up to this are kept per thousand; past it the thousands' arithmetic is not exact. */
const SALARY_KEPT_UP_TO = 1e12;

/**
 * The kept total that answers `f` exactly, if its only filter is one value of a kept dimension or a
 * start of the posting time (`time_frame`, `posted_gte`), or its only two are one country and one title
 * term, or its filters are a salary range.
 */
export function valueTotalOf(f: JobFilters): ValueTotal | undefined {
  const set = Object.entries(f).filter(([, v]) => v !== undefined);
  // A salary range (has_salary=true adds nothing to it): kept per thousand of each bound.
  const salary = salaryTotalOf(f, set.length);
  if (salary) return salary;
  // One title term in one country: kept per pair.
  const countries = f.country ? [...new Set(f.country)] : [];
  if (set.length === 2 && countries.length === 1 && f.title && ONE_TERM.test(f.title))
    return { title: f.title, country: countries[0] };
  if (set.length !== 1) return undefined;
  const [name, v] = set[0] as [keyof JobFilters, unknown];
  if (name === 'title' || name === 'title_advanced')
    return typeof v === 'string' && ONE_TERM.test(v) ? { title: v } : undefined;
  // Posted since an instant: the days after its own (kept per day), plus the rest of its day (counted).
  if (name === 'time_frame')
    return { since: sql`${timeFrameStart(v as { ms: number; at: number })}::timestamptz` };
  if (name === 'posted_gte') return { since: sql`${v}::timestamptz` };
  const dim = DIMS.get(name);
  if (!dim) return undefined;
  if (typeof v === 'boolean') return { dim, value: String(v) };
  // A list is a set: `GB,United Kingdom` is one value.
  const values = Array.isArray(v) ? [...new Set(v as string[])] : [];
  return values.length === 1 ? { dim, value: values[0] } : undefined;
}

function salaryTotalOf(f: JobFilters, filters: number): ValueTotal | undefined {
  const { salary_gte: gte, salary_lte: lte } = f;
  if (gte === undefined && lte === undefined) return undefined;
  const others = filters - (gte === undefined ? 0 : 1) - (lte === undefined ? 0 : 1);
  if (others > (f.has_salary === true ? 1 : 0)) return undefined;
  if ([gte, lte].some((b) => b !== undefined && !(b >= 0 && b <= SALARY_KEPT_UP_TO))) return undefined;
  // Both bounds: the jobs whose maximum reaches the lower one, less those whose minimum passes the upper
  // one (each of those reaches the lower one too when minimum <= maximum); an empty overlap is counted.
  if (gte !== undefined && lte !== undefined && lte < gte) return undefined;
  return { salary: { gte, lte } };
}

/**
 * The live jobs with a salary whose `col` is `op` `bound` (`>=`, `>` or `<=`): the kept thousands wholly
 * on that side, plus the rows of the bound's own thousand counted from the column's index. A row's
 * thousand is computed by the same expression as the trigger's, so rounding puts every row on one side.
 */
function salarySide(
  col: 'salary_annual_max' | 'salary_annual_min',
  op: '>=' | '>' | '<=',
  bound: number,
): Sql {
  const dim = col === 'salary_annual_max' ? 'salary_max' : 'salary_min';
  const k = sql`floor(${String(bound)}::float8 / 1000)`;
  const c = raw(`j.${col}`);
  const whole = op === '<=' ? raw('<') : raw('>');
  // A row of thousand k lies in [1000 (k - 1), 1000 (k + 1)): an index range around the exact test.
  return sql`((SELECT coalesce(sum(v.n), 0) FROM value_totals v WHERE v.dim = ${dim}
                 AND (CASE WHEN v.dim = ${dim} THEN v.value::numeric END) ${whole} ${k}::numeric)
            + (SELECT count(*) FROM jobs j WHERE j.state = ${stateIs(JobState.Live)} AND j.has_salary
                 AND ${c} >= (${k} - 1) * 1000 AND ${c} < (${k} + 1) * 1000 AND floor(${c} / 1000) = ${k}
                 AND ${c} ${raw(op)} ${String(bound)}::float8))`;
}

/** The kept salary total: NULL (counted instead) for both bounds while an irregular range is live. */
function salaryTotal({ gte, lte }: { gte?: number; lte?: number }): Sql {
  if (lte === undefined) return salarySide('salary_annual_max', '>=', gte!);
  if (gte === undefined) return salarySide('salary_annual_min', '<=', lte);
  return sql`CASE WHEN coalesce((SELECT n FROM value_totals WHERE dim = 'salary_irregular' AND value = ''), 0) = 0
                  THEN ${salarySide('salary_annual_max', '>=', gte)} - ${salarySide('salary_annual_min', '>', lte)} END`;
}

/**
 * The kept total with the data version of the same snapshot; undefined when a title does not reduce to
 * one lexeme (a stop word, or a word PostgreSQL splits into several): that total is counted.
 */
export async function readValueTotal(
  db: pg.Pool | pg.PoolClient,
  t: ValueTotal,
): Promise<Counted | undefined> {
  // A title term alone, or prefixed by its country (the pair's value is `GB nurs`).
  const [titleDim, prefix] =
    'title' in t && t.country !== undefined ? ['country_title', `${t.country} `] : ['title', ''];
  const query =
    'salary' in t
      ? sql`SELECT ${salaryTotal(t.salary)} AS n, ${raw(VERSION_SQL)} AS version`
      : 'since' in t
        ? sql`WITH b AS (SELECT s AS since, (date_trunc('day', s AT TIME ZONE 'UTC') + interval '1 day') AT TIME ZONE 'UTC' AS next
                         FROM (SELECT ${t.since} AS s) x)
            SELECT (SELECT coalesce(sum(v.n), 0) FROM value_totals v WHERE v.dim = 'posted_day'
                       AND v.value >= to_char(b.next AT TIME ZONE 'UTC', 'YYYY-MM-DD'))
                 + (SELECT count(*) FROM jobs j WHERE j.state = ${stateIs(JobState.Live)}
                       AND j.posted_at >= b.since AND j.posted_at < b.next) AS n,
                   ${raw(VERSION_SQL)} AS version FROM b`
        : 'title' in t
          ? sql`WITH q AS (SELECT to_tsquery('english', ${t.title})::text AS t)
            SELECT CASE WHEN q.t ~ '^''([^'']|'''')+''$'
                        THEN coalesce((SELECT n FROM value_totals
                                        WHERE dim = ${titleDim}
                                          AND value = ${prefix} || replace(substr(q.t, 2, length(q.t) - 2), '''''', '''')), 0)
                   END AS n, ${raw(VERSION_SQL)} AS version FROM q`
          : sql`SELECT coalesce((SELECT n FROM value_totals WHERE dim = ${t.dim} AND value = ${t.value}), 0) AS n,
                   ${raw(VERSION_SQL)} AS version`;
  const { rows } = await db.query<{ n: string | null; version: string }>(query);
  const r = rows[0];
  return r.n === null ? undefined : { n: Number(r.n), version: Number(r.version) };
}
