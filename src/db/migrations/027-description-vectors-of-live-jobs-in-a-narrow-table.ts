// Migration 27. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 27,
  name: 'description vectors of live jobs in a narrow table',
  // PostgreSQL counts the matches of a GIN index by visiting the heap page of every match (no
  // index-only scan of GIN; PostgreSQL 17 reads even the all-visible ones): a common description word
  // at a million live jobs visited 479,643 of the 507,401 pages of jobs, 3.2 s cached and 21 s cold.
  // job_texts holds the live jobs' description vectors (and countries) alone, the vectors in TOAST
  // (toast_tuple_target), so a row of its heap is a few dozen bytes and the same count visits a
  // hundredth of the pages. A value goes out of line only in a row over ~2 kB, whatever the target, so
  // the vectors are copied from jobs' stored rows (out of line there) rather than from the statement's
  // rows: a vector a trigger copied from those stayed in the row when under 2 kB, and the heap held
  // 740 bytes a row. Statement triggers on jobs keep it in the writing transaction itself:
  // a row enters when its job is live, is rewritten only when the vector or the countries change, and
  // leaves with the job. Its index is built like a bulk load's indexes. job_texts_count counts a
  // description search (and the countries) through that index: PostgreSQL's plan would read the small
  // heap whole and every vector from TOAST (1.7-2 s at a million rows, against 0.15 s).
  sql: `
CREATE TABLE job_texts (
  id            text PRIMARY KEY,
  country_codes text[] NOT NULL,
  text_tsv      tsvector NOT NULL
) WITH (toast_tuple_target = 128);

INSERT INTO job_texts (id, country_codes, text_tsv)
SELECT id, country_codes, text_tsv FROM jobs WHERE state = 0;

CREATE FUNCTION job_texts_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO job_texts AS t (id, country_codes, text_tsv)
    SELECT j.id, j.country_codes, j.text_tsv FROM new_rows n JOIN jobs j ON j.id = n.id WHERE j.state = 0
    ON CONFLICT (id) DO UPDATE SET country_codes = EXCLUDED.country_codes, text_tsv = EXCLUDED.text_tsv;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM job_texts t USING old_rows o WHERE t.id = o.id;
  ELSE
    DELETE FROM job_texts t USING old_rows o
     WHERE t.id = o.id AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.state = 0);
    -- Only what changed: a job that became live, or whose vector or countries differ.
    INSERT INTO job_texts AS t (id, country_codes, text_tsv)
    SELECT j.id, j.country_codes, j.text_tsv
      FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id JOIN jobs j ON j.id = n.id
     WHERE n.state = 0
       AND (o.id IS NULL OR o.state <> 0 OR o.country_codes <> n.country_codes OR o.text_tsv <> n.text_tsv)
    ON CONFLICT (id) DO UPDATE SET country_codes = EXCLUDED.country_codes, text_tsv = EXCLUDED.text_tsv;
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER jobs_job_texts_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION job_texts_apply();
CREATE TRIGGER jobs_job_texts_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION job_texts_apply();
CREATE TRIGGER jobs_job_texts_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION job_texts_apply();

CREATE FUNCTION job_texts_clear() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM job_texts;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER jobs_job_texts_truncate AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION job_texts_clear();

-- The live jobs whose vector matches q1 and q2 (each skipped when NULL) and, given c, in one of those
-- countries. Parameters, never text: the statement is one of eight fixed ones. STABLE: it reads the
-- snapshot of the statement that calls it.
CREATE FUNCTION job_texts_count(q1 tsquery, q2 tsquery, c text[]) RETURNS bigint
LANGUAGE plpgsql STABLE SET enable_seqscan = off AS $fn$
DECLARE
  n bigint;
BEGIN
  EXECUTE 'SELECT count(*) FROM job_texts WHERE true'
    || CASE WHEN q1 IS NULL THEN '' ELSE ' AND text_tsv @@ $1' END
    || CASE WHEN q2 IS NULL THEN '' ELSE ' AND text_tsv @@ $2' END
    || CASE WHEN c IS NULL THEN '' ELSE ' AND country_codes && $3' END
    INTO n USING q1, q2, c;
  RETURN n;
END
$fn$;

INSERT INTO deferred_indexes (name, def)
VALUES ('job_texts_text', 'CREATE INDEX job_texts_text ON public.job_texts USING gin (text_tsv, country_codes)')
ON CONFLICT (name) DO UPDATE SET def = EXCLUDED.def;
`,
};
