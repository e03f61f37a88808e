// Migration 12. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 12,
  name: 'folding candidates by dedupe key from an index',
  // Folding looks up every row that is not expired (live and folded copies) by canonical URL or dedupe
  // key (findCandidates). jobs_dedupe covered the rows that are not folded, so it could not answer that
  // look-up and each batch of a load scanned the whole table: 117 ms per batch at 250,000 jobs, growing
  // with the table. Under the look-up's own predicate it is an index scan of a few milliseconds.
  sql: `
DROP INDEX IF EXISTS jobs_dedupe;
CREATE INDEX jobs_dedupe ON jobs (dedupe_key) WHERE state <> 1; -- 1: expired
`,
};
