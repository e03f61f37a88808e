// Migration 4. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 4,
  name: 'jobs heap: filter columns stay inline',
  // 128 bytes also pushed the filter columns (country_codes, skills, even ids) out of line, so every
  // filter and sort had to detoast them. At 1024 bytes only the rendered JSON, the descriptions, the
  // description tsvector and the tracked values move out (measured on 20k rows: ~900 bytes a row).
  sql: 'ALTER TABLE jobs SET (toast_tuple_target = 1024);',
};
