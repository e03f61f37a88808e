// Migration 23. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 23,
  name: 'jobs heap: the filter columns stay in the row beside the document',
  // With the document in the row, a row stays over its 1 KB target after the large values have gone
  // to TOAST, and PostgreSQL then moved every other EXTENDED value over ~24 bytes out of line too
  // (what migration 4 had undone): at 1.05M live jobs, 90 % of title tsvectors, 95 % of skill lists,
  // 28 % of ids and 9 % of company slugs were each a TOAST look-up. A feed drain read 509k TOAST
  // pages (280k of them from outside shared buffers), and the match index's build, a title phrase
  // count's recheck and the company join each fetched their values from TOAST. As MAIN, these columns
  // stay in the row (compressed in place when a row is still over its target); only the descriptions,
  // their tsvector, the tracked values and the fallback company go out of line. Rows written before
  // this migration move when they are next written (or at once with VACUUM FULL jobs).
  sql: `
DO $$
DECLARE c text;
BEGIN
  FOR c IN SELECT attname FROM pg_attribute
            WHERE attrelid = 'jobs'::regclass AND attnum > 0 AND NOT attisdropped AND attstorage = 'x'
              AND attname NOT IN ('desc_text', 'desc_html', 'text_tsv', 'tracked', 'company_fallback')
  LOOP
    EXECUTE format('ALTER TABLE jobs ALTER COLUMN %I SET STORAGE MAIN', c);
  END LOOP;
END $$;
`,
};
