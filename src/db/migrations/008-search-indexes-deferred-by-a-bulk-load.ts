// Migration 8. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 8,
  name: 'search indexes deferred by a bulk load',
  // A bulk load into an empty or near-empty jobs table drops the search indexes and builds them once at
  // its end (src/db/bulk-indexes.ts). Their definitions wait here, in the transaction that dropped them,
  // until they are built again; a load killed meanwhile leaves them here for the next migrate.
  sql: `
CREATE TABLE deferred_indexes (
  name text PRIMARY KEY,
  def  text NOT NULL
);
`,
};
