// Migration 24. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 24,
  name: 'job history: versions, last seen, expiry reasons, last load per source',
  // A job's life beyond its row (GET /v1/jobs/{id}/history, GET /v1/sources). Written in the
  // transaction of the change each row records; purged with the expired jobs they belong to.
  // Narrow tables of their own: the jobs row (its document, its totals triggers) is not rewritten to
  // note that an unchanged posting was listed again.
  sql: `
-- Every announcement of a job through modified_at: the fields named and their old and new values
-- (a description as its digest and length).
CREATE TABLE job_versions (
job_id          text NOT NULL,
modified_at     timestamptz NOT NULL,
modified_fields text[] NOT NULL,
changes         jsonb NOT NULL,
PRIMARY KEY (job_id, modified_at)
);

-- When a load or crawl last listed the job, why it left the live population (only read while it is
-- expired) and why it was judged a copy when it was folded (only read while it is folded). Updated by
-- every load that lists it: room for HOT updates.
CREATE TABLE job_lifecycle (
id            text PRIMARY KEY,
last_seen_at  timestamptz,
expiry_reason text CHECK (expiry_reason IN
                ('removed_from_source', 'valid_through_passed', 'source_marked_closed', 'aged_out')),
copy_reason   text CHECK (copy_reason IN
                ('same_url', 'same_employer_title_place', 'near_identical_description'))
) WITH (fillfactor = 80);

-- The last committed write of a load or crawl that listed postings of the source.
ALTER TABLE sources ADD COLUMN last_load_at timestamptz;
`,
};
