// Migration 19. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

/**
 * The statement triggers on jobs that keep a table of totals: `<name>_apply()` applies `apply` to the
 * rows a statement inserted (+1), deleted (-1) or updated (both), given as `columns` with a sign `s`.
 */
const statementTriggers = (
  name: string,
  apply: (rows: string) => string,
  columns: string,
) => `CREATE FUNCTION ${name}_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${apply(`SELECT 1 AS s, ${columns} FROM new_rows`)}
  ELSIF TG_OP = 'DELETE' THEN
    ${apply(`SELECT -1 AS s, ${columns} FROM old_rows`)}
  ELSE
    ${apply(`SELECT 1 AS s, ${columns} FROM new_rows UNION ALL SELECT -1, ${columns} FROM old_rows`)}
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER jobs_${name}_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${name}_apply();
CREATE TRIGGER jobs_${name}_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${name}_apply();
CREATE TRIGGER jobs_${name}_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${name}_apply();`;

/**
 * What a live job with a salary gives value_totals (migration 19): the thousand its annual maximum and
 * its annual minimum fall in (`floor(x / 1000)`, NaN and infinities included, as numeric text), and one
 * row for a range that is irregular (a bound missing, or the minimum above the maximum).
 */
const SALARY_VALUES = `SELECT 'salary_max', floor(r.salary_annual_max / 1000)::numeric::text WHERE r.salary_annual_max IS NOT NULL
    UNION ALL SELECT 'salary_min', floor(r.salary_annual_min / 1000)::numeric::text WHERE r.salary_annual_min IS NOT NULL
    UNION ALL SELECT 'salary_irregular', '' WHERE NOT coalesce(r.salary_annual_min <= r.salary_annual_max, false)`;

const SALARY_COLUMNS = 'state, has_salary, salary_annual_min, salary_annual_max';

/** Adds to value_totals what the live rows with a salary of `rows` (sign column `s`) give it. */
const applySalaryTotals = (rows: string) => `
    INSERT INTO value_totals AS t (dim, value, n)
    SELECT v.d, v.v, sum(r.s) FROM (${rows}) AS r CROSS JOIN LATERAL (${SALARY_VALUES}) AS v(d, v)
     WHERE r.state = 0 AND r.has_salary
     GROUP BY 1, 2 HAVING sum(r.s) <> 0
     ORDER BY 1, 2
    ON CONFLICT (dim, value) DO UPDATE SET n = t.n + EXCLUDED.n;`;

export const migration: Migration = {
  id: 19,
  name: 'salary totals per thousand',
  // A salary range's count reads every entry of the salary index above its lower bound (31 ms for
  // 79,076 matches at a million live jobs, about 100 ms under load). The live jobs per thousand of
  // their annual maximum and minimum are kept in value_totals like the days of posting (migration
  // 13), by statement triggers of their own that fire before that migration's (their rows come first
  // in one lock order). A range is then sums of whole thousands plus the part of one thousand at each
  // bound, counted from an index (search/value-totals.ts); the minimum's index is built like a bulk
  // load's indexes.
  sql: `
${applySalaryTotals(`SELECT 1 AS s, ${SALARY_COLUMNS} FROM jobs`)}

${statementTriggers('salary_totals', applySalaryTotals, SALARY_COLUMNS)}

INSERT INTO deferred_indexes (name, def)
VALUES ('jobs_live_salary_min', 'CREATE INDEX jobs_live_salary_min ON public.jobs USING btree (salary_annual_min) WHERE ((state = 0) AND has_salary)')
ON CONFLICT (name) DO UPDATE SET def = EXCLUDED.def;
`,
};
