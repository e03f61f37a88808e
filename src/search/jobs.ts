// Job search, count and look-up by id: one SQL statement each, on the read pool.
import type pg from 'pg';
import { type CursorPosition, decodeCursor, encodeCursor, fingerprint } from './cursor.ts';
import { applyJobFilters, type JobFilters } from './filters.ts';
import { type DescriptionFormat, descriptionColumn, jsonArray, renderJob } from './render.ts';
import { Sql } from './sql.ts';
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

/** Collapse: one row per company + title, the newest of its group, with `openings`. */
async function searchCollapsed(ctx: SearchContext, req: SearchRequest): Promise<string> {
  const q = new Sql();
  applyJobFilters(q, req.filters);
  const sql = `
    WITH m AS (
      SELECT j.id, j.collapse_key, j.posted_at FROM jobs j WHERE ${q.whereSql()}
    ), g AS (
      SELECT collapse_key, count(*) AS openings,
             (array_agg(id ORDER BY posted_at DESC, id DESC))[1] AS id,
             max(posted_at) AS sort_at
      FROM m GROUP BY collapse_key
    ), page AS (
      SELECT g.id, g.openings, g.sort_at FROM g ORDER BY g.sort_at DESC, g.id DESC
      LIMIT ${q.v(req.limit)} OFFSET ${q.v(req.offset)}
    )
    SELECT (SELECT count(*) FROM g) AS total, ${FIELDS(req.descriptionFormat)}, page.openings, page.sort_at
    FROM (SELECT 1) AS one
    LEFT JOIN (page JOIN jobs j ON j.id = page.id LEFT JOIN companies c ON c.slug = j.company_slug) ON true
    ORDER BY page.sort_at DESC, page.id DESC`;
  const { rows } = await ctx.pool.query(sql, q.params);
  const total = Number(rows[0].total);
  const page = rows.filter((r) => r.id !== null);
  const data = jsonArray(page.map((r) => renderJob({ ...r, openings: Number(r.openings) })));
  return `{"data":${data},"total":${total},"limit":${req.limit},"offset":${req.offset},"collapsed":true}`;
}

export async function countJobs(ctx: SearchContext, filters: JobFilters, collapse: boolean): Promise<number> {
  const key = `${collapse ? 'groups' : 'jobs'}|${fingerprint('jobs', canonicalFilters(filters))}`;
  const version = await cacheVersion(ctx.pool, ctx.totals, !filters.time_frame);
  const cached = version === undefined ? undefined : ctx.totals!.get(version, key);
  if (cached !== undefined) return cached;
  const q = new Sql();
  applyJobFilters(q, filters);
  const counted = collapse ? 'count(DISTINCT j.collapse_key)' : 'count(*)';
  const { rows } = await ctx.pool.query(
    `SELECT ${counted} AS n, ${VERSION_SQL} AS version FROM jobs j WHERE ${q.whereSql()}`,
    q.params,
  );
  const n = Number(rows[0].n);
  if (version !== undefined) ctx.totals!.set(Number(rows[0].version), key, n);
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
