// Migration 6. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 6,
  name: 'replayable data versions',
  // What a data version changed, when cached totals can be brought forward instead of counted again:
  // the ids that left and entered the live population with no other change to their filter columns
  // (expiry, and the promotion of a copy whose original expired). Loads write NULLs: totals from
  // before them are counted again. Rows older than an hour are purged with each bump.
  sql: `
CREATE TABLE data_changes (
  version     bigint PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  left_ids    text[],
  entered_ids text[]
);
`,
};
