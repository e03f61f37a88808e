// Migration 9. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 9,
  name: 'search vectors computed ahead of the write',
  // to_tsvector of the title and description is the largest single cost of a load in PostgreSQL. The
  // loader computes a batch's vectors here, on another connection, while the previous batch is written
  // under the feed lock; the write copies them (src/db/jobs-write.ts). Unlogged: a crash only loses
  // vectors that the write computes itself when they are missing.
  sql: `
CREATE UNLOGGED TABLE tsv_stage (
  token     bigint NOT NULL,
  id        text NOT NULL,
  title_raw text NOT NULL,
  title_tsv tsvector NOT NULL,
  text_tsv  tsvector NOT NULL,
  at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (token, id)
);
-- Staged once and read once: not worth compressing.
ALTER TABLE tsv_stage ALTER text_tsv SET STORAGE EXTERNAL;
`,
};
