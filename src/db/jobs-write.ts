// Writes of the jobs table: the only SQL of ingestion and of the lifecycle schedules.
import type pg from 'pg';
import { bumpDataVersion } from './feed-clock.ts';
import { withTransaction } from './pool.ts';
import type { JobContent, Tracked } from '../model/job-row.ts';
import { JobState } from '../model/job-state.ts';
import type { ExpiryReason } from '../model/lifecycle.ts';

export interface ExistingJob {
  id: string;
  state: JobState;
  duplicate_of: string | null;
  source_type: string;
  tracked: Tracked;
  content_hash: string;
  created_at: string;
  modified_at: string | null;
  modified_fields: string[];
  expired_at: string | null;
}

const TS = (col: string) => `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export async function loadExisting(client: pg.PoolClient, ids: string[]): Promise<Map<string, ExistingJob>> {
  const { rows } = await client.query<ExistingJob>(
    `SELECT id, state, duplicate_of, source_type, tracked, content_hash, ${TS('created_at')} AS created_at,
            ${TS('modified_at')} AS modified_at, modified_fields, ${TS('expired_at')} AS expired_at
       FROM jobs WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

export interface StoredRow extends Omit<JobContent, 'pub'> {
  state: JobState;
  duplicate_of: string | null;
  posted_at: string;
  created_at: string;
  modified_at: string | null;
  modified_fields: string[];
  updated_at: string;
  expired_at: string | null;
  doc: string;
}

const COLUMNS = [
  'id',
  'state',
  'duplicate_of',
  'source',
  'source_type',
  'company_slug',
  'org_name',
  'org_key',
  'title_raw',
  'collapse_key',
  'dedupe_key',
  'canonical_url',
  'desc_sig',
  'posted_at',
  'created_at',
  'modified_at',
  'modified_fields',
  'updated_at',
  'expires_at',
  'expired_at',
  'gone',
  'board',
  'country_codes',
  'cities',
  'regions',
  'continents',
  'remote',
  'work_arrangement',
  'employment_type',
  'seniority',
  'experience_level',
  'education',
  'taxonomies',
  'skills',
  'language',
  'visa_sponsorship',
  'has_salary',
  'salary_annual_min',
  'salary_annual_max',
  'salary_currency',
  'tracked',
  'content_hash',
  'doc',
  'company_fallback',
  'desc_text',
  'desc_html',
];

/** Columns of large text that an update rewrites only when their value changed. */
const KEPT_IF_EQUAL = new Set(['desc_text', 'desc_html', 'company_fallback']);

/** A search text: the raw title and the description as stored in desc_text (JSON-encoded plain text). */
export interface SearchText {
  id: string;
  title: string;
  descText: string;
}

/**
 * Computes the search vectors of a batch into tsv_stage under `token` (on any connection, outside the
 * write's transaction), for upsertRows to copy. Same expressions as upsertRows' own. Rows whose stored
 * title and description are the same keep their vectors and are not staged.
 */
export async function stageVectors(pool: pg.Pool, token: number, texts: SearchText[]): Promise<void> {
  if (!texts.length) return;
  await pool.query(
    `INSERT INTO tsv_stage (token, id, title_raw, title_tsv, text_tsv)
     SELECT $1, u.id, u.title, to_tsvector('english', u.title),
            to_tsvector('english', u.title || ' ' || (u.descr::json #>> '{}'))
       FROM unnest($2::text[], $3::text[], $4::text[]) AS u(id, title, descr)
      WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = u.id AND j.title_raw = u.title AND j.desc_text = u.descr)
     ON CONFLICT DO NOTHING`,
    [token, texts.map((t) => t.id), texts.map((t) => t.title), texts.map((t) => t.descText)],
  );
}

/** Drops staged vectors: of a batch, or those left behind by loads that stopped over an hour ago. */
export async function unstageVectors(client: pg.PoolClient | pg.Pool, token?: number): Promise<void> {
  await (token === undefined
    ? client.query(`DELETE FROM tsv_stage WHERE at < now() - interval '1 hour'`)
    : client.query('DELETE FROM tsv_stage WHERE token = $1', [token]));
}

/**
 * Inserts or replaces whole rows. The tsvectors come from tsv_stage when the batch was staged under
 * `token` (and its title is the one staged), else from the stored row when its title and description
 * are unchanged, else they are computed here from the raw title and the plain text.
 */
export async function upsertRows(client: pg.PoolClient, rows: StoredRow[], token?: number): Promise<void> {
  if (!rows.length) return;
  const cols = COLUMNS.join(', ');
  const sel = COLUMNS.map((c) => `r.${c}`).join(', ');
  // A large text that did not change keeps the stored value itself (its TOAST pointer or compressed
  // bytes), so PostgreSQL neither compresses nor stores it again: most changes leave the description be.
  const set = COLUMNS.filter((c) => c !== 'id')
    .map((c) =>
      KEPT_IF_EQUAL.has(c)
        ? `${c} = CASE WHEN jobs.${c} = EXCLUDED.${c} THEN jobs.${c} ELSE EXCLUDED.${c} END`
        : `${c} = EXCLUDED.${c}`,
    )
    .join(', ');
  await client.query(
    `INSERT INTO jobs (${cols}, title_tsv, text_tsv)
     SELECT ${sel},
            coalesce(s.title_tsv, j.title_tsv, to_tsvector('english', r.title_raw)),
            coalesce(s.text_tsv, j.text_tsv,
                     to_tsvector('english', r.title_raw || ' ' || (r.desc_text::json #>> '{}')))
       FROM json_populate_recordset(NULL::jobs, $1::json) AS r
       LEFT JOIN tsv_stage s ON s.token = $2 AND s.id = r.id AND s.title_raw = r.title_raw
       LEFT JOIN jobs j ON j.id = r.id AND j.title_raw = r.title_raw AND j.desc_text = r.desc_text
     ON CONFLICT (id) DO UPDATE SET ${set}, title_tsv = EXCLUDED.title_tsv, text_tsv = EXCLUDED.text_tsv`,
    [JSON.stringify(rows), token ?? null],
  );
}

export interface Candidate {
  id: string;
  state: JobState;
  duplicate_of: string | null;
  source_type: string;
  created_at: string;
  canonical_url: string | null;
  dedupe_key: string;
  desc_sig: string | null;
  eligible: boolean;
}

/** Rows that may be copies of the same posting: same canonical URL, or same employer + title + location. */
export async function findCandidates(
  client: pg.PoolClient,
  urls: string[],
  keys: string[],
): Promise<Candidate[]> {
  const { rows } = await client.query<Candidate>(CANDIDATES_SQL, [urls, keys]);
  return rows;
}

/** findCandidates' statement ($1 canonical URLs, $2 dedupe keys): both halves answered from an index. */
export const CANDIDATES_SQL = `SELECT id, state, duplicate_of, source_type, ${TS('created_at')} AS created_at, canonical_url,
       dedupe_key, desc_sig, (NOT gone AND (expires_at IS NULL OR expires_at > now())) AS eligible
  FROM jobs
 WHERE state <> ${JobState.Expired} AND (canonical_url = ANY($1::text[]) OR dedupe_key = ANY($2::text[]))`;

/**
 * Folds each row of `pairs` into its survivor ([id, survivor]), in one statement. A row that was live
 * before this transaction had been published, so it leaves through the expired feed at `ts`; a row that
 * arrives folded is never shown anywhere. Copies already folded into a folded row follow it to its
 * survivor. The caller keeps the pairs independent: no row folded twice, none both folded and a survivor.
 */
export async function foldPairs(
  client: pg.PoolClient,
  pairs: [id: string, survivor: string][],
  ts: string,
  published: ReadonlySet<string>,
): Promise<void> {
  if (!pairs.length) return;
  const ids = pairs.map((p) => p[0]);
  // The two parts touch disjoint rows (a row may be changed once per statement).
  await client.query(
    `WITH pairs AS (SELECT * FROM unnest($1::text[], $2::text[]) AS p(id, survivor)),
     folded AS (
       UPDATE jobs j SET duplicate_of = p.survivor,
              expired_at = CASE WHEN j.id = ANY($4::text[]) THEN $3::timestamptz ELSE j.expired_at END,
              state = ${JobState.Folded}
         FROM pairs p WHERE j.id = p.id
     )
     UPDATE jobs j SET duplicate_of = p.survivor
       FROM pairs p WHERE j.duplicate_of = p.id AND NOT (j.id = ANY($1::text[]))`,
    [ids, pairs.map((p) => p[1]), ts, ids.filter((id) => published.has(id))],
  );
  await recordCopyReasons(client, ids);
}

/**
 * Records why each of `ids`, just folded, was judged a copy: against every other member of its cluster
 * as it stands now (it may have matched another copy), the same canonical URL; else the same employer,
 * title and place key with the same title text; else the same key under a reworded title, folded for its
 * near-identical description. Kept as decided: later changes to either posting do not rewrite it.
 */
export async function recordCopyReasons(client: pg.PoolClient, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const member = `FROM jobs m WHERE (m.id = c.duplicate_of OR m.duplicate_of = c.duplicate_of) AND m.id <> c.id`;
  await client.query(
    `INSERT INTO job_lifecycle (id, copy_reason)
     SELECT c.id, CASE
              WHEN EXISTS (SELECT 1 ${member} AND m.canonical_url = c.canonical_url) THEN 'same_url'
              WHEN EXISTS (SELECT 1 ${member} AND m.dedupe_key = c.dedupe_key AND lower(m.title_raw) = lower(c.title_raw))
                THEN 'same_employer_title_place'
              ELSE 'near_identical_description' END
       FROM jobs c WHERE c.id = ANY($1::text[]) AND c.state = ${JobState.Folded}
      ORDER BY c.id
     ON CONFLICT (id) DO UPDATE SET copy_reason = EXCLUDED.copy_reason`,
    [ids],
  );
}

/** Expires live rows whose `expires_at` has passed, or by id; returns the ids expired. */
export async function expireRows(client: pg.PoolClient, ts: string, ids?: string[]): Promise<string[]> {
  const { rows } = ids
    ? await client.query<{ id: string }>(
        `UPDATE jobs SET state = ${JobState.Expired}, expired_at = $1::timestamptz WHERE state = ${JobState.Live} AND id = ANY($2::text[]) RETURNING id`,
        [ts, ids],
      )
    : await client.query<{ id: string }>(
        `UPDATE jobs SET state = ${JobState.Expired}, expired_at = $1::timestamptz
          WHERE state = ${JobState.Live} AND expires_at IS NOT NULL AND expires_at <= now() RETURNING id`,
        [ts],
      );
  return rows.map((r) => r.id);
}

/** Live rows of a board that are not in `seen`. */
export async function boardMissing(client: pg.PoolClient, board: string, seen: string[]): Promise<string[]> {
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM jobs WHERE board = $1 AND state <> ${JobState.Expired} AND NOT gone AND NOT (id = ANY($2::text[])) FOR UPDATE`,
    [board, seen],
  );
  return rows.map((r) => r.id);
}

/**
 * Marks rows gone from their board. The stored content hash stops matching (it was computed with
 * gone = false), so the same record listed again later is a change that brings the row back.
 */
export async function markGone(client: pg.PoolClient, ids: string[]): Promise<void> {
  if (ids.length) {
    await client.query(`UPDATE jobs SET gone = true, content_hash = '' WHERE id = ANY($1::text[])`, [ids]);
  }
}

/** Folded copies of `survivors` that may take their place, best first. */
export async function copiesOf(client: pg.PoolClient, survivors: string[]) {
  const { rows } = await client.query<{
    id: string;
    duplicate_of: string;
    source_type: string;
    created_at: string;
    doc: string;
    eligible: boolean;
  }>(
    `SELECT id, duplicate_of, source_type, ${TS('created_at')} AS created_at, doc,
            (NOT gone AND (expires_at IS NULL OR expires_at > now())) AS eligible
       FROM jobs WHERE state = ${JobState.Folded} AND duplicate_of = ANY($1::text[])
      ORDER BY duplicate_of, CASE source_type WHEN 'ats' THEN 0 WHEN 'jobboard' THEN 1 ELSE 2 END, created_at, id
      FOR UPDATE`,
    [survivors],
  );
  return rows;
}

/**
 * Brings a folded copy back as a live row (its original expired, or it became the best copy). It
 * was hidden, so it is announced through the modified feed at `ts`; `doc` must carry the same
 * modified_at and modified_fields.
 */
export async function promote(
  client: pg.PoolClient,
  id: string,
  ts: string,
  doc: string,
  modifiedFields: string[] = [],
): Promise<void> {
  // The announcement is a version of its history too; a change of the same write recorded it already.
  await client.query(
    `WITH p AS (
       UPDATE jobs SET state = ${JobState.Live}, duplicate_of = NULL, expired_at = NULL, modified_at = $2::timestamptz,
              modified_fields = $4::text[], doc = $3
        WHERE id = $1 RETURNING id
     )
     INSERT INTO job_versions (job_id, modified_at, modified_fields, changes)
     SELECT id, $2::timestamptz, $4::text[], '{}' FROM p
     ON CONFLICT DO NOTHING`,
    [id, ts, doc, modifiedFields],
  );
}

/** Which of `ids` are live rows. */
export async function liveIds(client: pg.PoolClient, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM jobs WHERE state = ${JobState.Live} AND id = ANY($1::text[])`,
    [ids],
  );
  return new Set(rows.map((r) => r.id));
}

export async function repoint(client: pg.PoolClient, from: string, to: string): Promise<void> {
  await client.query('UPDATE jobs SET duplicate_of = $2 WHERE duplicate_of = $1 AND id <> $2', [from, to]);
}

/**
 * Deletes expired rows past the retention period, with the copies folded into them and the history
 * of both, in one transaction that is a data version of its own when it deleted any: the expired feed
 * and the trends no longer list them, and the change names them for the match index (feed-clock.ts).
 * Returns the number of jobs deleted.
 */
export async function purgeExpired(pool: pg.Pool, retentionDays: number): Promise<number> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; posted_us: string }>(
      `WITH gone AS (
         DELETE FROM jobs WHERE state = ${JobState.Expired} AND expired_at < now() - $1 * interval '1 day'
         RETURNING id, posted_at
       ),
       copies AS (
         DELETE FROM jobs WHERE state = ${JobState.Folded} AND duplicate_of IN (SELECT id FROM gone)
         RETURNING id, posted_at
       ),
       ids AS (SELECT id, posted_at FROM gone UNION ALL SELECT id, posted_at FROM copies),
       versions AS (DELETE FROM job_versions WHERE job_id IN (SELECT id FROM ids)),
       life AS (DELETE FROM job_lifecycle WHERE id IN (SELECT id FROM ids))
       SELECT id, (extract(epoch FROM posted_at) * 1000000)::bigint::text AS posted_us FROM ids`,
      [retentionDays],
    );
    if (rows.length) await bumpDataVersion(client, { left: [], entered: [], purged: rows });
    return rows.length;
  });
}

// --- History: written in the transaction of the change it records -----------------------------------

/** A description in a version: the digest the change was detected by (hex) and its length in characters. */
export interface DescriptionValue {
  sha256: string;
  length: number | null;
}

const hexDigest = (v: unknown): string | null =>
  typeof v === 'string' ? Buffer.from(v, 'base64url').toString('hex') : null;

/**
 * Records the versions of a batch: each row whose modified_at moves to `ts`, with the old and new value
 * of each field it names. Runs before the rows are written: the old description's length is read from
 * the stored row.
 */
export async function recordVersions(
  client: pg.PoolClient,
  ts: string,
  changed: { before: ExistingJob; after: StoredRow }[],
): Promise<void> {
  if (!changed.length) return;
  const versions = changed.map(({ before, after }) => {
    const changes: Record<string, { old: unknown; new: unknown }> = {};
    for (const f of after.modified_fields as (keyof Tracked)[]) {
      changes[f] =
        f === 'description'
          ? {
              old: { sha256: hexDigest(before.tracked.description), length: null },
              new: {
                sha256: hexDigest(after.tracked.description),
                length: [...(JSON.parse(after.desc_html) as string)].length,
              },
            }
          : { old: before.tracked[f] ?? null, new: after.tracked[f] ?? null };
    }
    return { id: after.id, fields: after.modified_fields, changes, old_desc: 'description' in changes };
  });
  await client.query(
    `INSERT INTO job_versions (job_id, modified_at, modified_fields, changes)
     SELECT v.id, $1::timestamptz, v.fields,
            CASE WHEN v.old_desc
                 THEN jsonb_set(v.changes, '{description,old,length}', to_jsonb(length(j.desc_html::json #>> '{}')))
                 ELSE v.changes END
       FROM json_to_recordset($2::json) AS v(id text, fields text[], changes jsonb, old_desc boolean)
       LEFT JOIN jobs j ON j.id = v.id
     ON CONFLICT DO NOTHING`,
    [ts, JSON.stringify(versions)],
  );
}

/**
 * Notes that a load or crawl listed `ids` at `ts` (their last_seen_at), and that it wrote postings of
 * `sources` (their last_load_at). Ids are sorted: one lock order for every writer.
 */
export async function recordSeen(
  client: pg.PoolClient,
  ts: string,
  ids: string[],
  sources: string[],
): Promise<void> {
  if (ids.length) {
    await client.query(
      `INSERT INTO job_lifecycle (id, last_seen_at) SELECT unnest($1::text[]), $2::timestamptz
       ON CONFLICT (id) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
      [[...new Set(ids)].sort(), ts],
    );
  }
  if (sources.length) {
    await client.query('UPDATE sources SET last_load_at = $2::timestamptz WHERE slug = ANY($1::text[])', [
      [...new Set(sources)].sort(),
      ts,
    ]);
  }
}

/** Records why each of `ids` left the live population (`reasons` one per id, or one for all). */
export async function recordExpiry(
  client: pg.PoolClient,
  ids: string[],
  reasons: ExpiryReason | ExpiryReason[],
): Promise<void> {
  if (!ids.length) return;
  const list = typeof reasons === 'string' ? ids.map(() => reasons) : reasons;
  const order = ids.map((_, i) => i).sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0));
  await client.query(
    `INSERT INTO job_lifecycle (id, expiry_reason) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (id) DO UPDATE SET expiry_reason = EXCLUDED.expiry_reason`,
    [order.map((i) => ids[i]), order.map((i) => list[i])],
  );
}
