// Migration 29. Released: frozen, never edited (a change is a new migration). What it needs is
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
 * What a live job gives the fill rates of /v1/meta: one ('filled', key) row per field of coverage_pct it
 * fills, and ('filled', '') for every live job, their denominator.
 */
const FILLED = `SELECT '' WHERE true
    UNION ALL SELECT 'country' WHERE cardinality(r.country_codes) > 0
    UNION ALL SELECT 'skills' WHERE cardinality(r.skills) > 0
    UNION ALL SELECT 'work_arrangement' WHERE r.work_arrangement IS NOT NULL
    UNION ALL SELECT 'seniority' WHERE r.seniority IS NOT NULL
    UNION ALL SELECT 'taxonomies' WHERE cardinality(r.taxonomies) > 0
    UNION ALL SELECT 'salary' WHERE r.has_salary
    UNION ALL SELECT 'education' WHERE cardinality(r.education) > 0
    UNION ALL SELECT 'language' WHERE r.language IS NOT NULL`;

const FILLED_COLUMNS =
  'state, country_codes, skills, work_arrangement, seniority, taxonomies, has_salary, education, language';

/** Adds to value_totals what the live rows of `rows` (sign column `s`) give the fill rates. */
const applyFilled = (rows: string) => `
    INSERT INTO value_totals AS t (dim, value, n)
    SELECT 'filled', v.k, sum(r.s) FROM (${rows}) AS r CROSS JOIN LATERAL (${FILLED}) AS v(k)
     WHERE r.state = 0
     GROUP BY 2 HAVING sum(r.s) <> 0
     ORDER BY 2
    ON CONFLICT (dim, value) DO UPDATE SET n = t.n + EXCLUDED.n;`;

export const migration: Migration = {
  id: 29,
  name: 'fill rates kept per commit',
  // coverage_pct was a count over every live row, stored every 15 minutes and after every load: 23 s of
  // a change round's ~58 s after its postings at 1.55M jobs, and the same scan of the wide heap every
  // quarter of an hour beside the requests. The live jobs filling each field are kept in value_totals
  // by statement triggers like its other totals (migrations 13 and 19), so /v1/meta reads exact fill
  // rates of the snapshot it reads, and nothing scans for them.
  sql: `
${applyFilled(`SELECT 1 AS s, ${FILLED_COLUMNS} FROM jobs`)}

${statementTriggers('filled_totals', applyFilled, FILLED_COLUMNS)}

DROP TABLE dataset_stats;
`,
};
