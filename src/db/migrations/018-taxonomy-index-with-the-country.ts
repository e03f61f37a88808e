// Migration 18. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 18,
  name: 'taxonomy index with the country',
  // A taxonomy with a country (remote=true&taxonomies=Marketing&country=DE at a million live jobs) was
  // found through the taxonomy's index alone, then each of its 40,166 rows read to test the country and
  // the rest: 36,590 heap pages for 531 matches, 94 ms. With the countries as a second column of the
  // same GIN index the index scan intersects the two (2,346 rows, 12 ms), as for the description
  // (migration 14); a taxonomy without a country uses the first column as before. Built like a bulk
  // load's indexes.
  sql: `
DROP INDEX IF EXISTS jobs_live_taxonomies;
DELETE FROM deferred_indexes WHERE name = 'jobs_live_taxonomies';
INSERT INTO deferred_indexes (name, def)
VALUES ('jobs_live_taxonomies', 'CREATE INDEX jobs_live_taxonomies ON public.jobs USING gin (taxonomies, country_codes) WHERE (state = 0)')
ON CONFLICT (name) DO UPDATE SET def = EXCLUDED.def;
`,
};
