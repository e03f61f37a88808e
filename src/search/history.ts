// A job's life (GET /v1/jobs/{id}/history): when it was first and last seen, why it left, every
// version announced through modified_at, and the copies folded into it. A copy's id answers with the
// history of the job it was folded into.
import type pg from 'pg';
import { withSnapshot } from '../db/pool.ts';
import { JobState } from '../model/job-state.ts';
import type { CopyReason, ExpiryReason } from '../model/lifecycle.ts';

const TS = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface JobVersion {
  modified_at: string;
  modified_fields: string[];
  changes: Record<string, { old: unknown; new: unknown }>;
}

export interface JobCopy {
  id: string;
  source: string;
  source_type: string;
  url: string | null;
  first_seen_at: string;
  last_seen_at: string;
  reason: CopyReason;
}

export interface JobHistory {
  id: string;
  requested_id: string;
  folded_into: string | null;
  first_seen_at: string;
  last_seen_at: string;
  expired_at: string | null;
  expiry_reason: ExpiryReason | null;
  versions: JobVersion[];
  copies: JobCopy[];
}

/** A member of a duplicate cluster with the keys it was matched on. */
interface Member {
  id: string;
  state: JobState;
  duplicate_of: string | null;
  source: string;
  source_type: string;
  url: string | null;
  first_seen_at: string;
  last_seen_at: string;
  expired_at: string | null;
  expiry_reason: ExpiryReason | null;
  copy_reason: CopyReason | null;
  canonical_url: string | null;
  dedupe_key: string;
  title_key: string;
}

// last_seen_at falls back to the last write of the row for rows listed before it was recorded. A
// reason not recorded (jobs that left before it was) is told from the row where it can be.
const MEMBER_SQL = `SELECT j.id, j.state, j.duplicate_of, j.source, j.source_type, j.tracked->>'url' AS url,
       ${TS('j.created_at')} AS first_seen_at, ${TS('coalesce(l.last_seen_at, j.updated_at)')} AS last_seen_at,
       CASE WHEN j.state = ${JobState.Expired} THEN ${TS('j.expired_at')} END AS expired_at,
       CASE WHEN j.state = ${JobState.Expired} THEN coalesce(l.expiry_reason,
         CASE WHEN j.expires_at <= j.expired_at THEN 'valid_through_passed'
              WHEN j.gone AND j.board IS NOT NULL THEN 'removed_from_source'
              WHEN j.gone THEN 'source_marked_closed' END) END AS expiry_reason,
       l.copy_reason, j.canonical_url, j.dedupe_key, lower(j.title_raw) AS title_key
  FROM jobs j LEFT JOIN job_lifecycle l ON l.id = j.id`;

/** Folds lead to their survivor in one step (copies of a folded row follow it); a few hops at most. */
const MAX_HOPS = 5;

/** The history of job `id`, or undefined when no such job is stored (the 404 of /v1/jobs/{id}). */
export async function jobHistory(pool: pg.Pool, id: string): Promise<JobHistory | undefined> {
  // PostgreSQL text cannot hold U+0000: no stored id has it.
  if (id.includes('\0')) return undefined;
  return withSnapshot(pool, async (c) => {
    const one = async (key: string) =>
      (await c.query<Member>(`${MEMBER_SQL} WHERE j.id = $1`, [key])).rows[0] as Member | undefined;
    let job = await one(id);
    for (let hops = 0; job && job.state === JobState.Folded && hops < MAX_HOPS; hops++)
      job = job.duplicate_of ? await one(job.duplicate_of) : undefined;
    if (!job || job.state === JobState.Folded) return undefined;
    const versions = await c.query<{
      modified_at: string;
      modified_fields: string[];
      changes: Record<string, unknown>;
    }>(
      `SELECT ${TS('modified_at')} AS modified_at, modified_fields, changes
         FROM job_versions WHERE job_id = $1 ORDER BY modified_at`,
      [job.id],
    );
    const copies = await c.query<Member>(
      `${MEMBER_SQL} WHERE j.state = ${JobState.Folded} AND j.duplicate_of = $1 ORDER BY j.created_at, j.id`,
      [job.id],
    );
    const members = [job, ...copies.rows];
    return {
      id: job.id,
      requested_id: id,
      folded_into: job.id === id ? null : job.id,
      first_seen_at: job.first_seen_at,
      last_seen_at: job.last_seen_at,
      expired_at: job.expired_at,
      expiry_reason: job.expiry_reason,
      versions: versions.rows.map((v) => ({
        modified_at: v.modified_at,
        modified_fields: v.modified_fields,
        // In the order the fields are named, old before new (jsonb keeps neither order).
        changes: Object.fromEntries(
          v.modified_fields
            .filter((f) => f in v.changes)
            .map((f) => {
              const ch = v.changes[f] as { old: unknown; new: unknown };
              return [f, { old: ch.old, new: ch.new }];
            }),
        ),
      })),
      copies: copies.rows.map((m) => ({
        id: m.id,
        source: m.source,
        source_type: m.source_type,
        url: m.url,
        first_seen_at: m.first_seen_at,
        last_seen_at: m.last_seen_at,
        reason: m.copy_reason ?? copyReason(m, members),
      })),
    };
  });
}

/**
 * Why `copy` was judged a copy, for copies folded before the reason was recorded at folding (see
 * recordCopyReasons, which decides the same way): from the keys as they are now.
 */
function copyReason(copy: Member, members: Member[]): CopyReason {
  const others = members.filter((m) => m.id !== copy.id);
  if (copy.canonical_url !== null && others.some((m) => m.canonical_url === copy.canonical_url))
    return 'same_url';
  if (others.some((m) => m.dedupe_key === copy.dedupe_key && m.title_key === copy.title_key))
    return 'same_employer_title_place';
  return 'near_identical_description';
}
