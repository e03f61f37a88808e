// Job search, count and look-up by id: one SQL statement each, on the read pool.
import type pg from 'pg';
import { type CursorPosition, decodeCursor, encodeCursor, fingerprint } from './cursor.ts';
import { applyJobFilters, type JobFilters } from './filters.ts';
import { type DescriptionFormat, descriptionColumn, jsonArray, renderJob } from './render.ts';
import { Sql } from './sql.ts';
import { withSnapshot } from '../db/pool.ts';
import { cacheVersion, type TotalsCache, VERSION_SQL } from './totals.ts';

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

async function searchFlat(ctx: SearchContext, req: SearchRequest): Promise<string> {
  const fp = fingerprint('jobs', canonicalFilters(req.filters));
  const after: CursorPosition | undefined = req.cursor
    ? decodeCursor(ctx.cursorSecret, fp, req.cursor)
    : undefined;

  const q = new Sql();
  applyJobFilters(q, req.filters);
  const filterWhere = q.whereSql();
  const pageWhere = after
    ? `${filterWhere} AND (j.posted_at, j.id) < (${q.v(after.at)}::timestamptz, ${q.v(after.id)})`
    : filterWhere;
  const offset = after ? 0 : req.offset;
  const version = await cacheVersion(ctx.pool, ctx.totals, !req.filters.time_frame);
  const cached = version === undefined ? undefined : ctx.totals!.get(version, `jobs|${fp}`);
  // Without a cached total the count runs in the same statement, with the version of its snapshot.
  const totalSql =
    cached === undefined
      ? `(SELECT count(*) FROM jobs j WHERE ${filterWhere}) AS total, ${VERSION_SQL} AS version`
      : 'NULL::bigint AS total, NULL::bigint AS version';
  const sql = `
    WITH ids AS (
      -- Keys first: rows skipped by OFFSET are never joined or rendered.
      SELECT j.id, j.posted_at FROM jobs j
      WHERE ${pageWhere}
      ORDER BY j.posted_at DESC, j.id DESC
      LIMIT ${q.v(req.limit + 1)} OFFSET ${q.v(offset)}
    ), page AS (
      SELECT ${FIELDS(req.descriptionFormat)}, j.posted_at AS sort_at
      FROM ids JOIN jobs j ON j.id = ids.id LEFT JOIN companies c ON c.slug = j.company_slug
    )
    SELECT ${totalSql}, page.*
    FROM (SELECT 1) AS one LEFT JOIN page ON true
    ORDER BY page.sort_at DESC, page.id DESC`;
  const { rows } = await ctx.pool.query(sql, q.params);
  const total = cached ?? Number(rows[0].total);
  if (cached === undefined && version !== undefined)
    ctx.totals!.set(Number(rows[0].version), `jobs|${fp}`, total);
  const hits = rows.filter((r) => r.id !== null);
  const more = hits.length > req.limit;
  const page = hits.slice(0, req.limit);
  const last = page[page.length - 1];
  const next =
    more && last ? JSON.stringify(encodeCursor(ctx.cursorSecret, fp, { at: last.pos, id: last.id })) : 'null';
  const data = jsonArray(page.map((r) => renderJob(r)));
  const offsetPart = after ? '' : `,"offset":${req.offset}`;
  return `{"data":${data},"total":${total},"limit":${req.limit}${offsetPart},"next_cursor":${next}}`;
}

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
    const total = await countIn(client, ctx.totals, req.filters, `groups|${fp}`, true);
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

export function countJobs(ctx: SearchContext, filters: JobFilters, collapse: boolean): Promise<number> {
  const key = `${collapse ? 'groups' : 'jobs'}|${fingerprint('jobs', canonicalFilters(filters))}`;
  return countIn(ctx.pool, ctx.totals, filters, key, collapse);
}

/** The exact number of matching jobs (or groups), from the cache of the current data version if there. */
async function countIn(
  db: pg.Pool | pg.PoolClient,
  totals: TotalsCache | undefined,
  filters: JobFilters,
  key: string,
  collapse: boolean,
): Promise<number> {
  const version = await cacheVersion(db, totals, !filters.time_frame);
  const cached = version === undefined ? undefined : totals!.get(version, key);
  if (cached !== undefined) return cached;
  const q = new Sql();
  applyJobFilters(q, filters);
  const counted = collapse ? 'count(DISTINCT j.collapse_key)' : 'count(*)';
  const { rows } = await db.query(
    `SELECT ${counted} AS n, ${VERSION_SQL} AS version FROM jobs j WHERE ${q.whereSql()}`,
    q.params,
  );
  const n = Number(rows[0].n);
  if (version !== undefined) totals!.set(Number(rows[0].version), key, n);
  return n;
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
