// Facet counts: for the jobs matching a request's filters, the values of each requested dimension with
// their exact counts (the top `limit`, by count then value), the number of distinct values and the
// number of jobs with none; with `collapse`, groups (company + title) are counted instead of jobs. One
// statement: the matches are read once (a materialised CTE holding only the columns the dimensions read),
// then grouped per dimension, so every count and the total come from one snapshot.
import type pg from 'pg';
import { type FacetDimension, INDEXED_FACETS, type JobFilters } from './dimensions.ts';
import { planAsksIndex, readVersion, type SearchContext } from './jobs.ts';
import { join } from 'sql-template-tag';
import { raw, type Sql, sql } from './sql.ts';

export interface FacetValue {
  value: string | boolean;
  /** The value's label, for dimensions that have one (company: its name). */
  name?: string;
  count: number;
}

export interface Facet {
  values: FacetValue[];
  distinct: number;
  missing: number;
}

export interface FacetsData {
  total: number;
  /** In the order the dimensions were asked. */
  facets: Record<string, Facet>;
}

export interface FacetsRequest {
  /** The compiled filters (compileFilters) on `jobs j`. */
  where: Sql;
  collapse: boolean;
  /** The top values kept per dimension. */
  limit: number;
}

/** The facet counts of `dims` over the jobs matching `req`. */
export async function computeFacets(
  db: pg.Pool | pg.PoolClient,
  req: FacetsRequest,
  dims: readonly FacetDimension[],
): Promise<FacetsData> {
  const cols = dims.flatMap((dim, i) => [
    raw(`${dim.value} AS d${i}`),
    ...(dim.label ? [raw(`${dim.label} AS l${i}`)] : []),
  ]);
  const company = dims.some((dim) => dim.company)
    ? raw('LEFT JOIN companies co ON co.slug = j.company_slug')
    : raw('');
  // With collapse a count is of the groups having at least one match with the value.
  const counted = raw(req.collapse ? 'count(DISTINCT m.k)' : 'count(*)');
  const parts: Sql[] = [sql`SELECT -1 AS f, NULL AS v, ${counted} AS n, NULL AS l, 0 AS rn, 0 AS dn FROM m`];
  const ctes: Sql[] = [];
  dims.forEach((dim, i) => {
    const d = raw(`m.d${i}`);
    const label = dim.label ? raw(`max(m.l${i})`) : raw('NULL');
    // Each job counts once per value: an array's repeated value is one.
    const grouped =
      dim.shape === 'array'
        ? sql`SELECT u.v::text AS v, ${counted} AS n, ${label} AS l
              FROM m, LATERAL (SELECT DISTINCT x FROM unnest(${d}) AS x WHERE x IS NOT NULL) AS u(v) GROUP BY u.v`
        : sql`SELECT ${d}::text AS v, ${counted} AS n, ${label} AS l FROM m WHERE ${d} IS NOT NULL GROUP BY ${d}`;
    const none = dim.shape === 'array' ? sql`cardinality(array_remove(${d}, NULL)) = 0` : sql`${d} IS NULL`;
    const g = raw(`g${i}`);
    ctes.push(sql`${g} AS (${grouped})`);
    parts.push(
      sql`SELECT ${raw(String(i))}, v, n, l, rn, dn FROM (
            SELECT v, n, l, row_number() OVER (ORDER BY n DESC, v COLLATE "C") AS rn, count(*) OVER () AS dn FROM ${g}
          ) AS top WHERE rn <= ${req.limit}`,
      sql`SELECT ${raw(String(i))}, NULL, (SELECT ${counted} FROM m WHERE ${none}), NULL, 0, (SELECT count(*) FROM ${g})`,
    );
  });
  const { rows } = await db.query<{
    f: number;
    v: string | null;
    n: string;
    l: string | null;
    rn: string;
    dn: string;
  }>(
    sql`WITH m AS MATERIALIZED (SELECT j.collapse_key AS k, ${join(cols, ', ')} FROM jobs j ${company} WHERE ${req.where}),
         ${join(ctes, ', ')}
        ${join(parts, ' UNION ALL ')}`,
  );
  const out: FacetsData = { total: 0, facets: {} };
  const facets = dims.map((): Facet => ({ values: [], distinct: 0, missing: 0 }));
  const ranked: { rn: number; value: FacetValue }[][] = dims.map(() => []);
  for (const r of rows) {
    const n = Number(r.n);
    if (r.f === -1) out.total = n;
    else if (Number(r.rn) === 0) {
      facets[r.f].missing = n;
      facets[r.f].distinct = Number(r.dn);
    } else {
      const dim = dims[r.f];
      const value: FacetValue = { value: dim.shape === 'boolean' ? r.v === 'true' : r.v!, count: n };
      if (dim.label) value.name = r.l ?? '';
      ranked[r.f].push({ rn: Number(r.rn), value });
    }
  }
  dims.forEach((dim, i) => {
    facets[i].values = ranked[i].sort((a, b) => a.rn - b.rn).map((x) => x.value);
    out.facets[dim.name] = facets[i];
  });
  return out;
}

/**
 * The facet counts from the match index when the read plan asks it (it holds the filters) and it keeps every
 * requested dimension's values, at the request's data version; undefined otherwise (PostgreSQL counts
 * them: computeFacets); with `collapse`, of groups. Company names are read for the values shown.
 */
export async function facetsFromIndex(
  ctx: SearchContext,
  filters: JobFilters,
  dims: readonly FacetDimension[],
  limit: number,
  collapse = false,
): Promise<FacetsData | undefined> {
  if (!ctx.match || !dims.every((d) => INDEXED_FACETS.has(d.name)) || !planAsksIndex(ctx, filters))
    return undefined;
  const version = await readVersion(ctx, ctx.pool);
  const names = dims.map((d) => d.name);
  const q = { version, filters, collapse, offset: 0, limit: 0, facets: { names, limit } };
  // The index is an optimisation: whatever goes wrong in it, PostgreSQL answers.
  const a = await ctx.match.ask(q).catch(() => undefined);
  if (!a?.facets) return undefined;
  const slugs = dims.some((d) => d.label) ? (a.facets.company?.values.map(([v]) => v) ?? []) : [];
  const labels = new Map<string, string>();
  if (slugs.length) {
    const { rows } = await ctx.pool.query<{ slug: string; name: string | null }>(
      sql`SELECT slug, name FROM companies WHERE slug = ANY(${slugs}::text[])`,
    );
    for (const r of rows) labels.set(r.slug, r.name ?? '');
  }
  const out: FacetsData = { total: a.total, facets: {} };
  for (const dim of dims) {
    const f = a.facets[dim.name];
    out.facets[dim.name] = {
      values: f.values.map(([v, count]) => ({
        value: dim.shape === 'boolean' ? v === 'true' : v,
        ...(dim.label ? { name: labels.get(v) ?? '' } : {}),
        count,
      })),
      distinct: f.distinct,
      missing: f.missing,
    };
  }
  return out;
}
