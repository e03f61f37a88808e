// Migration 25. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 25,
  name: 'data changes name the purged jobs',
  // The purge of expired jobs past their retention is a data version of its own (the expired feed and
  // the trends no longer list them): it names the jobs it removed, as [{id, posted_us}], so that the
  // match index, which keeps the gone jobs for trends, drops them instead of being built again.
  sql: `
ALTER TABLE data_changes ADD COLUMN purged jsonb;
`,
};
