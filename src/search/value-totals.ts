// Totals kept per filter value (value_totals, migration 13): the exact number of live jobs with one
// value of one list or scalar filter, or one title lexeme, maintained in the writing transaction. A
// request whose only filter is one such value reads its total in one primary-key look-up instead of
// counting its matches, which costs about a microsecond each when cold.
import type pg from 'pg';
import type { Counted } from '../model/totals.ts';
import type { JobFilters } from './filters.ts';
import { raw, sql } from './sql.ts';
import { VERSION_SQL } from './totals.ts';

/** value_totals' dimension of each filter whose one value is a total of its own. */
const DIMS: Partial<Record<keyof JobFilters, string>> = {
  country: 'country',
  city: 'city',
  region: 'region',
  continent: 'continent',
  skill: 'skill',
  taxonomies: 'taxonomy',
  employment_type: 'employment_type',
  education: 'education',
  work_arrangement: 'work_arrangement',
  seniority: 'seniority',
  experience_level: 'experience_level',
  language: 'language',
  remote: 'remote',
};

/** A single title term, as the text queries compile it (phrases and operators are counted). */
const ONE_TERM = /^'(?:[^'\s]|'')+'$/;

export type ValueTotal = { dim: string; value: string } | { title: string };

/** The kept total that answers `f` exactly, if its only filter is one value of a kept dimension. */
export function valueTotalOf(f: JobFilters): ValueTotal | undefined {
  const set = Object.entries(f).filter(([, v]) => v !== undefined);
  if (set.length !== 1) return undefined;
  const [name, v] = set[0] as [keyof JobFilters, unknown];
  if (name === 'title' || name === 'title_advanced')
    return typeof v === 'string' && ONE_TERM.test(v) ? { title: v } : undefined;
  const dim = DIMS[name];
  if (!dim) return undefined;
  if (typeof v === 'boolean') return { dim, value: String(v) };
  // A list is a set: `GB,United Kingdom` is one value.
  const values = Array.isArray(v) ? [...new Set(v as string[])] : [];
  return values.length === 1 ? { dim, value: values[0] } : undefined;
}

/**
 * The kept total with the data version of the same snapshot; undefined when a title does not reduce to
 * one lexeme (a stop word, or a word PostgreSQL splits into several): that total is counted.
 */
export async function readValueTotal(
  db: pg.Pool | pg.PoolClient,
  t: ValueTotal,
): Promise<Counted | undefined> {
  const query =
    'title' in t
      ? sql`WITH q AS (SELECT to_tsquery('english', ${t.title})::text AS t)
            SELECT CASE WHEN q.t ~ '^''([^'']|'''')+''$'
                        THEN coalesce((SELECT n FROM value_totals
                                        WHERE dim = 'title' AND value = replace(substr(q.t, 2, length(q.t) - 2), '''''', '''')), 0)
                   END AS n, ${raw(VERSION_SQL)} AS version FROM q`
      : sql`SELECT coalesce((SELECT n FROM value_totals WHERE dim = ${t.dim} AND value = ${t.value}), 0) AS n,
                   ${raw(VERSION_SQL)} AS version`;
  const { rows } = await db.query<{ n: string | null; version: string }>(query);
  const r = rows[0];
  return r.n === null ? undefined : { n: Number(r.n), version: Number(r.version) };
}
