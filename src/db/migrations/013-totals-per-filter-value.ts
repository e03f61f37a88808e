// Migration 13. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

/**
 * The values a job row gives each filter whose total is kept per value (migration 13, value_totals),
 * one (dim, value) row each, for the row `r`. Distinct: a value listed twice still counts the job once.
 */
const FILTER_VALUES = `SELECT DISTINCT d, v FROM (
    SELECT 'country', unnest(r.country_codes) UNION ALL SELECT 'city', unnest(r.cities)
    UNION ALL SELECT 'region', unnest(r.regions) UNION ALL SELECT 'continent', unnest(r.continents)
    UNION ALL SELECT 'skill', unnest(r.skills) UNION ALL SELECT 'taxonomy', unnest(r.taxonomies)
    UNION ALL SELECT 'employment_type', unnest(r.employment_type) UNION ALL SELECT 'education', unnest(r.education)
    UNION ALL SELECT 'title', unnest(tsvector_to_array(r.title_tsv)) UNION ALL SELECT 'remote', r.remote::text
    UNION ALL SELECT 'work_arrangement', r.work_arrangement UNION ALL SELECT 'seniority', r.seniority
    UNION ALL SELECT 'experience_level', r.experience_level UNION ALL SELECT 'language', r.language
    UNION ALL SELECT 'posted_day', to_char(r.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')
    UNION ALL SELECT 'country_title', c || ' ' || t
                FROM unnest(r.country_codes) AS c, unnest(tsvector_to_array(r.title_tsv)) AS t
  ) AS x(d, v) WHERE v IS NOT NULL`;

const FILTER_COLUMNS = `state, country_codes, cities, regions, continents, skills, taxonomies, employment_type,
  education, title_tsv, remote, work_arrangement, seniority, experience_level, language, posted_at`;

/** Adds to value_totals what the live rows of `rows` (with a sign column `s`) give each value. */
const applyValueTotals = (rows: string) => `
    INSERT INTO value_totals AS t (dim, value, n)
    SELECT v.d, v.v, sum(r.s) FROM (${rows}) AS r CROSS JOIN LATERAL (${FILTER_VALUES}) AS v
     WHERE r.state = 0
     GROUP BY 1, 2 HAVING sum(r.s) <> 0
     ORDER BY 1, 2 -- one lock order for every writer
    ON CONFLICT (dim, value) DO UPDATE SET n = t.n + EXCLUDED.n;`;

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

export const migration: Migration = {
  id: 13,
  name: 'totals per filter value',
  // A cold exact count visits the heap page of every match (PostgreSQL has no index-only count from
  // GIN): country=US at a million live jobs is half a second. The number of live jobs per value of
  // each list and scalar filter, and per title lexeme, is kept here by statement triggers on jobs in
  // the writing transaction itself, so a snapshot reads the exact total of the same data it would
  // count; a request with one such filter of one value reads its total instead (search/value-totals.ts).
  // Per UTC day of posted_at too: a time window is the days after its first, plus that day's part. And
  // per country and title lexeme together: what and where, the most common pair of filters.
  sql: `
CREATE TABLE value_totals (
  dim   text NOT NULL,
  value text NOT NULL,
  n     bigint NOT NULL,
  PRIMARY KEY (dim, value)
);
${applyValueTotals(`SELECT 1 AS s, ${FILTER_COLUMNS} FROM jobs`)}

${statementTriggers('value_totals', applyValueTotals, FILTER_COLUMNS)}
CREATE FUNCTION value_totals_clear() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM value_totals;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER jobs_value_totals_truncate AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION value_totals_clear();
`,
};
