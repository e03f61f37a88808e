// Migration 7. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 7,
  name: 'shared totals',
  // Exact totals shared by every process and host (src/db/totals-store.ts): the total of a normalised
  // query (key: its SHA-256) at one data version; n is NULL while one process counts it for all.
  // Unlogged: a crash empties it, which costs counts, never a wrong total. Only the primary has it
  // (a standby cannot read unlogged tables), so replicas stay read-only.
  sql: `
CREATE UNLOGGED TABLE shared_totals (
  key     bytea NOT NULL,
  version bigint NOT NULL,
  n       bigint,
  at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key, version)
);
`,
};
