// Migration 28. Frozen once released (a change is then a new migration).
// job_texts' trigger (migration 27) planned its statements once per session, as PL/pgSQL does: a plan made
// for a statement of one row (a nested loop that reads the live jobs' index whole for each row) was then
// run for a statement of 20,000 rows (30 s instead of 0.5). EXECUTE plans each statement for the
// transition tables it is given, which the trigger's own statements reach the same way.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 28,
  name: 'job_texts statements planned for each statement',
  sql: `
CREATE OR REPLACE FUNCTION job_texts_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE $q$
      INSERT INTO job_texts AS t (id, country_codes, text_tsv)
      SELECT j.id, j.country_codes, j.text_tsv FROM new_rows n JOIN jobs j ON j.id = n.id WHERE j.state = 0
      ON CONFLICT (id) DO UPDATE SET country_codes = EXCLUDED.country_codes, text_tsv = EXCLUDED.text_tsv$q$;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE 'DELETE FROM job_texts t USING old_rows o WHERE t.id = o.id';
  ELSE
    EXECUTE $q$
      DELETE FROM job_texts t USING old_rows o
       WHERE t.id = o.id AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.id = o.id AND n.state = 0)$q$;
    -- Only what changed: a job that became live, or whose vector or countries differ.
    EXECUTE $q$
      INSERT INTO job_texts AS t (id, country_codes, text_tsv)
      SELECT j.id, j.country_codes, j.text_tsv
        FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id JOIN jobs j ON j.id = n.id
       WHERE n.state = 0
         AND (o.id IS NULL OR o.state <> 0 OR o.country_codes <> n.country_codes OR o.text_tsv <> n.text_tsv)
      ON CONFLICT (id) DO UPDATE SET country_codes = EXCLUDED.country_codes, text_tsv = EXCLUDED.text_tsv$q$;
  END IF;
  RETURN NULL;
END
$fn$;
`,
};
