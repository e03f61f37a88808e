// Migration 22. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 22,
  name: 'jobs heap: the document stays in the row',
  // Every job's document is read by every page, by id and by the feeds. Out of line it sat in the TOAST
  // table among each row's descriptions and description tsvector (1.4 of ~6.9 KB a row): a feed drain
  // of 1.05M live jobs read the 12 GB TOAST table nearly whole, and ran at the speed of the disk
  // whenever the rest of the workload had pushed part of it out of the cache. Kept in the row
  // (compressed, MAIN), documents take 3.3 GB of heap instead, which stays cached. Documents written
  // before this migration move when their row is next rewritten (or at once with VACUUM FULL jobs).
  sql: 'ALTER TABLE jobs ALTER COLUMN doc SET STORAGE MAIN;',
};
