// Migration 26. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 26,
  name: 'data changes name every job written',
  // The match index follows a load instead of being built again (a million jobs: 15-60 s of a core, and
  // PostgreSQL answering meanwhile): each data version names the jobs its transaction inserted, updated
  // or deleted (`touched`), which the index reads again and puts in place. A statement trigger notes
  // them in a table of the session, emptied at every commit; `bump_data_version` moves them into the
  // version's row. `touched` is NULL when the version changed more than jobs (a company profile): the
  // index is then built again.
  sql: `
ALTER TABLE data_changes ADD COLUMN touched text[];

CREATE FUNCTION jobs_touched_note() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF to_regclass('pg_temp.jobs_touched') IS NULL THEN
    CREATE TEMP TABLE jobs_touched (id text NOT NULL) ON COMMIT DELETE ROWS;
  END IF;
  IF TG_OP = 'DELETE' THEN
    EXECUTE 'INSERT INTO pg_temp.jobs_touched SELECT id FROM old_rows';
  ELSE
    EXECUTE 'INSERT INTO pg_temp.jobs_touched SELECT id FROM new_rows';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER jobs_touched_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_touched_note();
CREATE TRIGGER jobs_touched_update AFTER UPDATE ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_touched_note();
CREATE TRIGGER jobs_touched_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_touched_note();

-- The next data version, with what changed: the jobs that left and entered the live population only
-- (p_left NULL: more than that), the jobs the purge deleted, and, when p_jobs_only, every job this
-- transaction wrote.
CREATE FUNCTION bump_data_version(p_left text[], p_entered text[], p_purged jsonb, p_jobs_only boolean)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  t text[];
BEGIN
  IF p_jobs_only THEN
    t := '{}';
    IF to_regclass('pg_temp.jobs_touched') IS NOT NULL THEN
      EXECUTE 'SELECT coalesce(array_agg(DISTINCT id), ''{}'') FROM pg_temp.jobs_touched' INTO t;
      EXECUTE 'DELETE FROM pg_temp.jobs_touched';
    END IF;
  END IF;
  WITH v AS (UPDATE data_version SET version = version + 1 WHERE id = 1 RETURNING version),
       old AS (DELETE FROM data_changes WHERE at < now() - interval '1 hour')
  INSERT INTO data_changes (version, left_ids, entered_ids, purged, touched)
  SELECT version, p_left, p_entered, p_purged, t FROM v;
END
$fn$;
`,
};
