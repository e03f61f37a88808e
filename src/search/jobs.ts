// Job search, count and look-up by id: one SQL statement each, on the read pool.
import type pg from 'pg';
import { type CursorPosition, decodeCursor, encodeCursor, fingerprint } from './cursor.ts';
import { applyJobFilters, type JobFilters } from './filters.ts';
import { type DescriptionFormat, descriptionColumn, type JobRow, jsonArray, renderJob } from './render.ts';
import { Sql } from './sql.ts';
import { withSnapshot } from '../db/pool.ts';
import { type Counted, type TotalsCache, VERSION_SQL } from './totals.ts';
import { dataVersion } from '../db/stats.ts';

export interface SearchRequest {
  filters: JobFilters;
  descriptionFormat?: DescriptionFormat;
  collapse: boolean;
  limit: number;
  offset: number;
  cursor?: string;
}

export interface SearchContext {
  pool: pg.Pool;
  cursorSecret: string;
  /** Exact totals per data version; without it every request counts. */
  totals?: TotalsCache;
}

const FIELDS = (fmt: DescriptionFormat) =>
  `j.id, j.doc, coalesce(c.subset_json, j.company_fallback) AS company, ${descriptionColumn(fmt)} AS description,
   j.posted_at::text AS pos`;

/** Returns the response body of /v1/jobs as JSON text. */
export async function searchJobs(ctx: SearchContext, req: SearchRequest): Promise<string> {
  return req.collapse ? searchCollapsed(ctx, req) : searchFlat(ctx, req);
}

/** The filters with every list sorted: a list is a set, so its order does not change the query. */
function canonicalFilters(f: JobFilters): Record<string, unknown> {
  return Object.fromEntries(Object.entries(f).map(([k, v]) => [k, Array.isArray(v) ? [...v].sort() : v]));
}

/**
 * A page in `posted_at DESC, id DESC` order can be found two ways: walking the live rows newest first
 * and keeping the matches (cheap when matches are common: about (offset + limit) / share rows), or
 * fetching every match through the filter indexes and sorting (cheap when they are rare). PostgreSQL
 * guesses the share from per-column statistics and misses correlations (two skills that go together, a
 * company filter), and then sorts tens of thousands of rows. Here the share is known exactly from the
 * cached totals, so the walk is chosen when it reads fewer rows than there are matches, with a budget of
 * WALK_SLACK times the expected rows; a walk that ends before filling the page is redone the other way.
 */
const WALK_SLACK = 4;
const MAX_WALK = 100_000;

function walkBudget(needed: number, total: number, live: number): number | undefined {
  if (total <= 0 || live <= 0) return undefined;
  const budget = Math.ceil((needed * live * WALK_SLACK) / total);
  return budget < total && budget <= MAX_WALK ? budget : undefined;
}

interface PageRow extends JobRow {
  id: string;
  pos: string;
}

async function pageRows(
  ctx: SearchContext,
  req: SearchRequest,
  after: CursorPosition | undefined,
  offset: number,
  walk: number | undefined,
): Promise<PageRow[]> {
  const q = new Sql();
  applyJobFilters(q, req.filters);
  const keyset = after ? `(j.posted_at, j.id) < (${q.v(after.at)}::timestamptz, ${q.v(after.id)})` : 'true';
  // The walk: the newest live rows (at most `walk`), then the filters; LIMIT keeps them from being pushed
  // into the scan, so PostgreSQL reads the sort index in order and stops when the page is full.
  const from =
    walk === undefined
      ? 'jobs j'
      : `(SELECT * FROM jobs j WHERE j.state = 0 AND ${keyset}
          ORDER BY j.posted_at DESC, j.id DESC LIMIT ${q.v(walk)}) j`;
  const sql = `
    WITH ids AS (
      -- Keys first: rows skipped by OFFSET are never joined or rendered.
      SELECT j.id, j.posted_at FROM ${from}
      WHERE ${q.whereSql()} AND ${keyset}
      ORDER BY j.posted_at DESC, j.id DESC
      LIMIT ${q.v(req.limit + 1)} OFFSET ${q.v(offset)}
    )
    SELECT ${FIELDS(req.descriptionFormat)}
    FROM ids JOIN jobs j ON j.id = ids.id LEFT JOIN companies c ON c.slug = j.company_slug
    ORDER BY ids.posted_at DESC, ids.id DESC`;
  return (await ctx.pool.query<PageRow>(sql, q.params)).rows;
}

async function searchFlat(ctx: SearchContext, req: SearchRequest): Promise<string> {
  const fp = fingerprint('jobs', canonicalFilters(req.filters));
  const after: CursorPosition | undefined = req.cursor
    ? decodeCursor(ctx.cursorSecret, fp, req.cursor)
    : undefined;
  const offset = after ? 0 : req.offset;
  const version = ctx.totals ? await dataVersion(ctx.pool) : undefined;
  const total = await exactCount(ctx.pool, ctx.totals, version, req.filters, `jobs|${fp}`, false);
  let rows: PageRow[] = [];
  if (total > 0 && offset < total) {
    const live =
      version === undefined ? 0 : await exactCount(ctx.pool, ctx.totals, version, {}, LIVE_KEY, false);
    const walk = walkBudget(offset + req.limit + 1, total, live);
    if (walk !== undefined) rows = await pageRows(ctx, req, after, offset, walk);
    if (rows.length <= req.limit) rows = await pageRows(ctx, req, after, offset, undefined);
  }
  const more = rows.length > req.limit;
  const page = rows.slice(0, req.limit);
  const last = page[page.length - 1];
  const next =
    more && last ? JSON.stringify(encodeCursor(ctx.cursorSecret, fp, { at: last.pos, id: last.id })) : 'null';
  const data = jsonArray(page.map((r) => renderJob(r)));
  const offsetPart = after ? '' : `,"offset":${req.offset}`;
  return `{"data":${data},"total":${total},"limit":${req.limit}${offsetPart},"next_cursor":${next}}`;
}

const LIVE_KEY = `jobs|${fingerprint('jobs', {})}`;

/**
 * Collapse: one row per company + title, the newest of its group, with `openings`. Groups are ordered by
 * their newest row, so the page is found by walking the matches newest first until offset + limit groups
 * are seen, in chunks that grow; only the page's groups are then counted. The total (the number of
 * groups) is cached per data version like every total. All reads share one snapshot.
 */
async function searchCollapsed(ctx: SearchContext, req: SearchRequest): Promise<string> {
  const fp = fingerprint('jobs', canonicalFilters(req.filters));
  const want = req.offset + req.limit;
  return withSnapshot(ctx.pool, async (client) => {
    const version = ctx.totals ? await dataVersion(client) : undefined;
    const total = await exactCount(client, ctx.totals, version, req.filters, `groups|${fp}`, true);
    const newest = new Map<string, { id: string; pos: string }>();
    let after: CursorPosition | undefined;
    for (let chunk = Math.max(2 * want, 16); newest.size < want; chunk *= 4) {
      const q = new Sql();
      applyJobFilters(q, req.filters);
      if (after) q.and(`(j.posted_at, j.id) < (${q.v(after.at)}::timestamptz, ${q.v(after.id)})`);
      const { rows } = await client.query<{ id: string; collapse_key: string; pos: string }>(
        `SELECT j.id, j.collapse_key, j.posted_at::text AS pos FROM jobs j WHERE ${q.whereSql()}
         ORDER BY j.posted_at DESC, j.id DESC LIMIT ${q.v(chunk)}`,
        q.params,
      );
      for (const r of rows) if (!newest.has(r.collapse_key)) newest.set(r.collapse_key, r);
      if (rows.length < chunk) break;
      const last = rows[rows.length - 1];
      after = { at: last.pos, id: last.id };
    }
    const page = [...newest].slice(req.offset, want);
    if (!page.length) return collapsedBody('[]', total, req);

    const q = new Sql();
    applyJobFilters(q, req.filters);
    const keys = q.v(page.map(([key]) => key));
    const { rows: counts } = await client.query<{ collapse_key: string; n: number }>(
      `SELECT j.collapse_key, count(*) AS n FROM jobs j WHERE ${q.whereSql()} AND j.collapse_key = ANY(${keys}::text[])
       GROUP BY j.collapse_key`,
      q.params,
    );
    const openings = new Map(counts.map((c) => [c.collapse_key, Number(c.n)]));
    const { rows } = await client.query(
      `SELECT ${FIELDS(req.descriptionFormat)} FROM jobs j LEFT JOIN companies c ON c.slug = j.company_slug
       WHERE j.id = ANY($1::text[])`,
      [page.map(([, row]) => row.id)],
    );
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    const data = jsonArray(
      page.map(([key, row]) => renderJob({ ...byId.get(row.id), openings: openings.get(key) ?? 0 })),
    );
    return collapsedBody(data, total, req);
  });
}

const collapsedBody = (data: string, total: number, req: SearchRequest) =>
  `{"data":${data},"total":${total},"limit":${req.limit},"offset":${req.offset},"collapsed":true}`;

export async function countJobs(ctx: SearchContext, filters: JobFilters, collapse: boolean): Promise<number> {
  const key = `${collapse ? 'groups' : 'jobs'}|${fingerprint('jobs', canonicalFilters(filters))}`;
  const version = ctx.totals ? await dataVersion(ctx.pool) : undefined;
  return exactCount(ctx.pool, ctx.totals, version, filters, key, collapse);
}

/**
 * The exact number of matching jobs (or groups): from the cache under `version` (the current data
 * version) if there, else counted and cached under the version read in the counting statement.
 * Windows relative to the clock (`time_frame`) are always counted.
 */
async function exactCount(
  db: pg.Pool | pg.PoolClient,
  totals: TotalsCache | undefined,
  version: number | undefined,
  filters: JobFilters,
  key: string,
  collapse: boolean,
): Promise<number> {
  const count = async () => {
    const q = new Sql();
    applyJobFilters(q, filters);
    const counted = collapse ? 'count(DISTINCT j.collapse_key)' : 'count(*)';
    const { rows } = await db.query(
      `SELECT ${counted} AS n, ${VERSION_SQL} AS version FROM jobs j WHERE ${q.whereSql()}`,
      q.params,
    );
    return { n: Number(rows[0].n), version: Number(rows[0].version) };
  };
  if (totals === undefined || version === undefined || filters.time_frame) return (await count()).n;
  return totals.resolve(version, key, count, (from) => replayCount(db, filters, from, collapse));
}

/**
 * Brings a total forward to the current version by the rows that left and entered the live population
 * since, when every version in between logged only such changes (data_changes). Those changes leave
 * every other column as it was, so the rows are tested against the filters as they are now. A number of
 * groups (collapse) changes where a group's matching rows went from none to some or back: the groups
 * touched are counted now, and as they were by adding back what left and taking out what entered.
 */
async function replayCount(
  db: pg.Pool | pg.PoolClient,
  filters: JobFilters,
  from: Counted,
  collapse: boolean,
): Promise<Counted | undefined> {
  const q = new Sql();
  applyJobFilters(q, filters, true);
  const rowWhere = q.whereSql();
  const since = q.v(from.version);
  const events = `
    SELECT j.collapse_key AS k, 1 AS back FROM ch, unnest(ch.left_ids) AS l(id) JOIN jobs j ON j.id = l.id WHERE ${rowWhere}
    UNION ALL
    SELECT j.collapse_key, -1 FROM ch, unnest(ch.entered_ids) AS e(id) JOIN jobs j ON j.id = e.id WHERE ${rowWhere}`;
  const delta = collapse
    ? `(SELECT coalesce(sum((g.now > 0)::int - ((g.now + g.back) > 0)::int), 0) FROM (
         SELECT per.back, (SELECT count(*) FROM jobs j WHERE j.state = 0 AND ${rowWhere} AND j.collapse_key = per.k) AS now
         FROM (SELECT k, sum(back) AS back FROM ev GROUP BY k) AS per) AS g)`
    : '(SELECT coalesce(-sum(back), 0) FROM ev)';
  const { rows } = await db.query(
    `WITH cur AS (SELECT ${VERSION_SQL} AS version),
          ch AS (SELECT c.* FROM data_changes c, cur WHERE c.version > ${since} AND c.version <= cur.version),
          ev AS (${events})
     SELECT cur.version,
            (SELECT count(*) FROM ch) = cur.version - ${since} AND NOT EXISTS (SELECT 1 FROM ch WHERE left_ids IS NULL) AS ok,
            ${delta} AS delta
     FROM cur`,
    q.params,
  );
  const r = rows[0];
  return r.ok ? { n: from.n + Number(r.delta), version: Number(r.version) } : undefined;
}

/** A job by id with the full company profile; expired jobs too, folded duplicates never. */
export async function getJob(
  ctx: SearchContext,
  id: string,
  fmt: DescriptionFormat,
): Promise<string | undefined> {
  const { rows } = await ctx.pool.query(
    `SELECT j.doc, coalesce(c.profile_json, j.company_fallback) AS company, ${descriptionColumn(fmt)} AS description
     FROM jobs j LEFT JOIN companies c ON c.slug = j.company_slug
     WHERE j.id = $1 AND j.state <> 2`,
    [id],
  );
  return rows[0] ? renderJob(rows[0]) : undefined;
}
