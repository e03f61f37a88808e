// Migration 15. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 15,
  name: 'autovacuum of the jobs TOAST table after about one change round',
  // A load vacuums jobs but not its TOAST table (service/schedules.ts): that pass read 1.1M pages and
  // took 6.5 s of a 104 s change round at a million live jobs, for dead chunks nothing reads. Autovacuum
  // takes them instead, in the background; at the default 20 % of ~10M chunks it would wait about
  // twelve rounds (gigabytes of dead chunks), at 2 % about one.
  sql: `ALTER TABLE jobs SET (toast.autovacuum_vacuum_scale_factor = 0.02);`,
};
