// Migration 30. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 30,
  name: 'description pages read through job_texts',
  // jobs_live_text (migrations 11, 14) held the same vectors as job_texts_text (migration 27), and every
  // write of a live job that is not a HOT update inserted all its lexemes into it again: at a million
  // live jobs it was 355 MB and a quarter of a change round's upsert. A description search now finds its
  // live matches in job_texts (job_texts_ids, the countries given in the same index scan) and joins them
  // to jobs by id. As job_texts_count, the function turns the sequential scan off for its one statement:
  // PostgreSQL, which does not cost detoasting, would otherwise read every vector for a common word.
  sql: `
DROP INDEX IF EXISTS jobs_live_text;
DELETE FROM deferred_indexes WHERE name = 'jobs_live_text';

-- The ids of the live jobs whose vector matches q1 and q2 (each skipped when NULL) and, given c, in one
-- of those countries. Parameters, never text: the statement is one of eight fixed ones.
CREATE FUNCTION job_texts_ids(q1 tsquery, q2 tsquery, c text[]) RETURNS SETOF text
LANGUAGE plpgsql STABLE ROWS 1000 SET enable_seqscan = off AS $fn$
BEGIN
  RETURN QUERY EXECUTE 'SELECT id FROM job_texts WHERE true'
    || CASE WHEN q1 IS NULL THEN '' ELSE ' AND text_tsv @@ $1' END
    || CASE WHEN q2 IS NULL THEN '' ELSE ' AND text_tsv @@ $2' END
    || CASE WHEN c IS NULL THEN '' ELSE ' AND country_codes && $3' END
    USING q1, q2, c;
END
$fn$;
`,
};
