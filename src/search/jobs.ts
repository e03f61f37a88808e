// Job search, count and look-up by id, on the read pool. The filters of a request are compiled once
// (filters.ts) and reused by every statement; the page strategy is chosen in plan.ts. Returns data: the
// rendered jobs, the exact total and the next position; http/ renders the envelope.
import type pg from 'pg';
import { withSnapshot } from '../db/pool.ts';
import { dataVersion } from '../db/stats.ts';
import { type CursorPosition, decodeCursor, encodeCursor, fingerprint } from './cursor.ts';
import { compileFilters, textCount, type JobFilters } from './filters.ts';
import type { PageCache, SearchPage } from './page-cache.ts';
import { type Known, MAX_SORTED, type PageStrategy, pageStrategy, planRead, type ReadPlan } from './plan.ts';
import {
  type DescriptionFormat,
  descriptionColumn,
  type JobRow,
  joinItems,
  renderJob,
  renderPage,
} from './render.ts';
import { type KeptRow, type RowCache, rowKey } from './row-cache.ts';
import { raw, type Sql, sql, stateIs } from './sql.ts';
import { JobState } from '../model/job-state.ts';
import type { Counted } from '../model/totals.ts';
import { type TotalsCache, VERSION_SQL } from './totals.ts';
import { readValueTotal, valueTotalOf } from './value-totals.ts';
import { indexable, type MatchAnswer, type MatchQuery, type MatchSource } from './match.ts';
import { printedMicros } from './match-index.ts';

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
  /** The data version of `pool` read earlier in this request (with its key), if it was. */
  version?: number;
  /** Search pages per data version; without it every request reads its page. */
  pages?: PageCache<SearchPage>;
  /** The in-memory match index; without it (or when it cannot answer) PostgreSQL counts and pages. */
  match?: MatchSource;
  /** Rendered rows of the match index's pages per data version; without it each page reads them all. */
  rows?: RowCache;
}

type Db = pg.Pool | pg.PoolClient;

/**
 * The data version a request reads at, read once: the one read with its key (on the primary), else the
 * one of `db` (a replica). Kept pages and totals are looked up under it and the index answers at it;
 * whether anything is kept at all is the context's own (its caches), never this number's.
 */
export async function readVersion(ctx: Pick<SearchContext, 'version'>, db: Db): Promise<number> {
  return ctx.version ?? dataVersion(db);
}

/** A compiled request: the filters' condition and the keys its totals are cached under. */
interface Compiled {
  where: Sql;
  /** The same condition for walks in posted order (see CompileOptions.perRow). */
  rowWhere: Sql;
  fp: string;
}

const fields = (fmt: DescriptionFormat) =>
  raw(`j.id, j.doc, coalesce(c.subset_json, j.company_fallback) AS company, ${descriptionColumn(fmt)} AS description,
   j.posted_at::text AS pos`);

/** What is known of a request before it is answered (plan.ts), with no round trip. */
type Knowing = Pick<SearchContext, 'match' | 'pages' | 'totals' | 'version'>;

function known(ctx: Knowing, filters: JobFilters, match = ctx.match): Known {
  return {
    version: ctx.version,
    pages: ctx.pages !== undefined,
    totals: ctx.totals !== undefined,
    indexHolds: match !== undefined && indexable(filters),
    valueTotal: valueTotalOf(filters) !== undefined,
    likelyFew: ctx.totals?.likelyFew(shapeOf(filters)) !== false,
  };
}

/**
 * Whether the read plan asks the match index for the total of these filters (jobs, not groups): what the
 * analytics ask before answering from the index (facets, salary, trends).
 */
export function planAsksIndex(ctx: SearchContext, filters: JobFilters): boolean {
  return ctx.match !== undefined && planOf(ctx, { filters, collapse: false }, false).total.includes('index');
}

/** The plan of a search or a count: which sources answer it, in order. */
export function planOf(ctx: Knowing, req: Pick<SearchRequest, 'filters' | 'collapse'>, page: boolean) {
  return planRead(
    { clockRelative: req.filters.time_frame !== undefined, collapse: req.collapse, page },
    known(ctx, req.filters),
  );
}

/** The names of the filters a request sets, as the totals' shapes are kept. */
const shapeOf = (f: JobFilters): string =>
  Object.keys(f)
    .filter((k) => f[k as keyof JobFilters] !== undefined)
    .sort()
    .join(',');

export async function searchJobs(ctx: SearchContext, req: SearchRequest): Promise<SearchPage> {
  const fp = fingerprint('jobs', canonicalFilters(req.filters));
  const plan = planOf(ctx, req, true);
  const indexed = async (version: number): Promise<{ version: number; page?: SearchPage }> =>
    plan.page!.includes('index') ? indexedLatest(ctx, version, req, fp) : { version };
  const read = (db: Db, version: number) => {
    // Compiled only when the page is read: a kept page needs its fingerprint alone.
    const compiled = {
      where: compileFilters(req.filters),
      rowWhere: compileFilters(req.filters, { perRow: true }),
      fp,
    };
    return req.collapse
      ? searchCollapsed(ctx, db, version, req, compiled)
      : searchFlat(ctx, db, version, req, compiled, plan);
  };
  if (!plan.keepPage || !ctx.pages) {
    const { version, page } = await indexed(await readVersion(ctx, ctx.pool));
    if (page) return page;
    if (!plan.snapshot) return read(ctx.pool, version);
    return withSnapshot(ctx.pool, async (c) => read(c, await readVersion(ctx, c)));
  }
  // A kept page was read in one snapshot and is stored under the version of that snapshot; a page of the
  // match index needs none (indexedPage), and is stored under the version it was answered at.
  const version = await readVersion(ctx, ctx.pool);
  return ctx.pages.resolve(
    version,
    pageKey(fp, req),
    async () => {
      const at = await indexed(version);
      if (at.page) return { version: at.version, value: at.page };
      return withSnapshot(ctx.pool, async (c) => {
        const at = await dataVersion(c);
        return { version: at, value: await read(c, at) };
      });
    },
    undefined,
    (from) => unchangedSince(ctx.pool, req.filters, from),
  );
}

/**
 * The versions since `from` that logged only jobs that left or entered the live population (an expiry:
 * data_changes), as a statement's `ch`, with `ok` saying whether every version since did (the starting
 * point of replayCount and unchangedSince).
 */
function changesSince(from: number): { ch: Sql; ok: Sql } {
  return {
    ch: sql`ch AS (SELECT c.* FROM data_changes c, cur WHERE c.version > ${from} AND c.version <= cur.version)`,
    ok: sql`(SELECT count(*) FROM ch) = cur.version - ${from} AND NOT EXISTS (SELECT 1 FROM ch WHERE left_ids IS NULL)`,
  };
}

/**
 * The current version, when the search's matches are those they were at version `from`: every version
 * since only moved jobs out of the live population or into it (changesSince), and none of those jobs
 * matches the filters, whose other columns such a change leaves as they were. A page kept at `from` is
 * then the page now: after an expiry of a few jobs, most kept pages answer again without a search. (The
 * jobs_count refresh logs such a version naming no job: it changes the full profiles, not the company
 * subset a search page holds.)
 */
async function unchangedSince(db: pg.Pool, filters: JobFilters, from: number): Promise<number | undefined> {
  const rowWhere = compileFilters(filters, { anyState: true });
  const { ch, ok } = changesSince(from);
  const { rows } = await db.query(
    sql`WITH cur AS (SELECT ${raw(VERSION_SQL)} AS version), ${ch}
     SELECT cur.version, ${ok} AND NOT EXISTS (
              SELECT 1 FROM ch, unnest(ch.left_ids || coalesce(ch.entered_ids, '{}')) AS l(id)
                JOIN jobs j ON j.id = l.id WHERE ${rowWhere}) AS ok
     FROM cur`,
  );
  return rows[0].ok ? Number(rows[0].version) : undefined;
}

/**
 * Whether a search (`limit` given) or a count will be answered without a scan of the jobs in PostgreSQL:
 * the match index holds its filters (a service with an index; while it is first built, PostgreSQL
 * answers them), or its page or total is kept under the version the request read. No I/O: the
 * expensive-work gate asks it before the request runs.
 */
export function answeredWithoutScan(
  ctx: Pick<SearchContext, 'match' | 'pages' | 'totals' | 'version'>,
  req: Omit<SearchRequest, 'limit'> & { limit?: number },
): boolean {
  const plan = planOf(ctx, req, req.limit !== undefined);
  if ((plan.page ?? plan.total).includes('index')) return true;
  if (ctx.version === undefined) return false;
  const fp = fingerprint('jobs', canonicalFilters(req.filters));
  if (req.limit === undefined)
    return (
      plan.total[0] === 'kept' &&
      ctx.totals?.peek(ctx.version, `${req.collapse ? 'groups' : 'jobs'}|${fp}`) !== undefined
    );
  return (
    plan.page![0] === 'kept' &&
    ctx.pages?.peek(ctx.version, pageKey(fp, { ...req, limit: req.limit })) !== undefined
  );
}

/**
 * The page from the match index at `version`, or at the version the data moved on to while its rows were
 * read (fromIndex), once the index has caught up with it: three tries at most. An expiry commits every
 * minute, and each request in flight at that instant would otherwise be PostgreSQL's, cold, all at once
 * (a page of a common description word read that way ran past the statement timeout). `version` is the
 * one the page was read at, or the newest one seen when the index did not answer.
 */
async function indexedLatest(
  ctx: SearchContext,
  version: number,
  req: SearchRequest,
  fp: string,
): Promise<{ version: number; page?: SearchPage }> {
  for (let tries = 0; tries < 3; tries++) {
    const got = await indexedPage(ctx, version, req, fp);
    if (!got || !('movedTo' in got)) return { version, page: got };
    version = got.movedTo;
    await ctx.match?.catchUp?.(version);
  }
  return { version };
}

/** The data moved on to this version between the index's answer and the read of its rows. */
type Moved = { movedTo: number };

/**
 * The page from the match index when it holds the request at `version` (a first or an offset page;
 * cursor pages are PostgreSQL's). Its rows are read by id in one statement that checks the version
 * (fromIndex), so it needs no snapshot, and no more round trips than that statement. Undefined otherwise.
 */
async function indexedPage(
  ctx: SearchContext,
  version: number,
  req: SearchRequest,
  fp: string,
): Promise<SearchPage | Moved | undefined> {
  if (req.collapse) {
    const m = await fromIndex(ctx, ctx.pool, version, req, {
      offset: req.offset,
      limit: req.limit,
      collapse: true,
    });
    if (!m || 'movedTo' in m) return m;
    rememberTotal(ctx, req.filters, version, `groups|${fp}`, m.total);
    // A group's row is its job's JSON with the group's openings added before its closing brace.
    const items = m.rows.map((r, i) => [
      r.json.subarray(0, -1),
      Buffer.from(`,"openings":${m.openings![i]}}`),
    ]);
    return { data: joinItems(items), total: m.total, byCursor: false };
  }
  // A cursor page starts after its position, at no offset (as searchFlat pages it).
  let after: MatchQuery['after'];
  if (req.cursor !== undefined) {
    const pos = decodeCursor(ctx.cursorSecret, fp, req.cursor);
    const postedUs = printedMicros(pos.at);
    if (postedUs === undefined) return undefined;
    after = { postedUs, id: pos.id };
  }
  const offset = after ? 0 : req.offset;
  // One id more than the page tells whether a next page exists; its row is not read.
  const m = await fromIndex(ctx, ctx.pool, version, req, {
    offset,
    limit: req.limit + 1,
    read: req.limit,
    after,
  });
  if (!m || 'movedTo' in m) return m;
  rememberTotal(ctx, req.filters, version, `jobs|${fp}`, m.total);
  const last = m.rows[m.rows.length - 1];
  return {
    data: joinItems(m.rows.map((r) => [r.json])),
    total: m.total,
    nextCursor: m.more && last ? encodeCursor(ctx.cursorSecret, fp, { at: last.pos, id: last.id }) : null,
    byCursor: after !== undefined,
  };
}

/** Keeps a total the index answered, unless its window is relative to the clock (never kept). */
function rememberTotal(ctx: SearchContext, f: JobFilters, version: number, key: string, n: number): void {
  if (!f.time_frame) ctx.totals?.remember(version, key, n);
}

/** Everything a page depends on besides the data: its filters (by fingerprint), output and position. */
function pageKey(fp: string, req: SearchRequest): string {
  const { collapse, descriptionFormat, limit, offset, cursor } = req;
  return [collapse ? 'groups' : 'jobs', fp, descriptionFormat ?? '', limit, offset, cursor ?? ''].join('|');
}

/** The filters with every list sorted: a list is a set, so its order does not change the query. */
function canonicalFilters(f: JobFilters): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(f).map(([k, v]) => {
      if (Array.isArray(v)) return [k, [...v].sort()];
      // A window is the same query at any arrival: its cursors stay valid from page to page.
      if (k === 'time_frame') return [k, { text: v.text, ms: v.ms }];
      return [k, v];
    }),
  );
}

interface PageRow extends JobRow {
  id: string;
  pos: string;
}

async function pageRows(
  db: Db,
  req: SearchRequest,
  where: Sql,
  after: CursorPosition | undefined,
  offset: number,
  plan: PageStrategy,
): Promise<PageRow[]> {
  const keyset = after ? sql`(j.posted_at, j.id) < (${after.at}::timestamptz, ${after.id})` : sql`true`;
  const page = sql`ORDER BY j.posted_at DESC, j.id DESC LIMIT ${req.limit + 1} OFFSET ${offset}`;
  // Keys first: rows skipped by OFFSET are never joined or rendered.
  const ids =
    plan.kind === 'walk'
      ? // The newest live rows (at most the budget), then the filters; LIMIT keeps them from being pushed
        // into the scan, so PostgreSQL reads the sort index in order and stops when the page is full.
        sql`ids AS (SELECT j.id, j.posted_at FROM (SELECT * FROM jobs j WHERE j.state = ${stateIs(JobState.Live)} AND ${keyset}
              ORDER BY j.posted_at DESC, j.id DESC LIMIT ${plan.budget}) j WHERE ${where} AND ${keyset} ${page})`
      : plan.kind === 'sort'
        ? // Every match (few), then the page: MATERIALIZED keeps PostgreSQL from walking the sort index.
          sql`m AS MATERIALIZED (SELECT j.id, j.posted_at FROM jobs j WHERE ${where} AND ${keyset}),
              ids AS (SELECT j.id, j.posted_at FROM m j ${page})`
        : sql`ids AS (SELECT j.id, j.posted_at FROM jobs j WHERE ${where} AND ${keyset} ${page})`;
  const query = sql`
    WITH ${ids}
    SELECT ${fields(req.descriptionFormat)}
    FROM ids JOIN jobs j ON j.id = ids.id LEFT JOIN companies c ON c.slug = j.company_slug
    ORDER BY ids.posted_at DESC, ids.id DESC`;
  return (await db.query<PageRow>(query)).rows;
}

async function searchFlat(
  ctx: SearchContext,
  db: Db,
  version: number,
  req: SearchRequest,
  c: Compiled,
  plan: ReadPlan,
): Promise<SearchPage> {
  const after: CursorPosition | undefined = req.cursor
    ? decodeCursor(ctx.cursorSecret, c.fp, req.cursor)
    : undefined;
  const offset = after ? 0 : req.offset;
  // Counted with the page when the total is not one kept value and totals of its shape are mostly few.
  const kept = plan.total.includes('value_total');
  const once = plan.total.includes('with_page')
    ? await countWithPage(ctx, db, version, req, c, after, offset)
    : undefined;
  const total =
    once?.total ?? (await exactCount(db, ctx.totals, version, req.filters, c.where, `jobs|${c.fp}`, false));
  if (!kept) ctx.totals?.observe(shapeOf(req.filters), total <= MAX_SORTED);
  let rows: PageRow[] = once?.rows ?? [];
  if (!once && total > 0 && offset < total) {
    // The share of matches among the live rows, from kept totals (without them, PostgreSQL's plan).
    const live = ctx.totals ? await liveJobs(ctx, db, version) : 0;
    const strategy = pageStrategy(offset + req.limit + 1, total, live);
    if (strategy.kind === 'walk') rows = await pageRows(db, req, c.rowWhere, after, offset, strategy);
    if (rows.length <= req.limit)
      rows = await pageRows(
        db,
        req,
        c.where,
        after,
        offset,
        strategy.kind === 'sort' ? strategy : { kind: 'index' },
      );
  }
  const more = rows.length > req.limit;
  const page = rows.slice(0, req.limit);
  const last = page[page.length - 1];
  return {
    data: renderPage(page),
    total,
    nextCursor: more && last ? encodeCursor(ctx.cursorSecret, c.fp, { at: last.pos, id: last.id }) : null,
    byCursor: after !== undefined,
  };
}

/**
 * The total and the page in one statement, for a request whose total is not known yet: its matches are
 * fetched once (stopping after MAX_SORTED of them) and, when that is all of them, counted and sorted. A
 * cold count and a sorted page each visit every match's heap row, about a microsecond each; this visits
 * them once. Undefined when there are more matches: they are then counted, and the page found by a walk
 * or PostgreSQL's plan, as when the total is known. Such an attempt costs more than the count it
 * precedes when that count needs no heap (a salary range, from its index alone): hence `likelyFew`.
 */
async function countWithPage(
  ctx: SearchContext,
  db: Db,
  version: number,
  req: SearchRequest,
  c: Compiled,
  after: CursorPosition | undefined,
  offset: number,
): Promise<{ total: number; rows: PageRow[] } | undefined> {
  const key = `jobs|${c.fp}`;
  if (ctx.totals?.peek(version, key) !== undefined) return undefined;
  const keyset = after ? sql`(m.posted_at, m.id) < (${after.at}::timestamptz, ${after.id})` : sql`true`;
  // The matches are read as the count pulls them (the CTE is materialised lazily), so the count stops
  // one past the cap; the page is read only when the count did not reach it (a one-time filter).
  const { rows } = await db.query<PageRow & { total: number; version: string; sort_at: unknown }>(sql`
    WITH m AS MATERIALIZED (SELECT j.id, j.posted_at FROM jobs j WHERE ${c.where}),
         cnt AS MATERIALIZED (SELECT count(*)::int AS n FROM (SELECT 1 FROM m LIMIT ${MAX_SORTED + 1}) x),
         ids AS (SELECT m.id, m.posted_at FROM m WHERE (SELECT n FROM cnt) <= ${MAX_SORTED} AND ${keyset}
                 ORDER BY m.posted_at DESC, m.id DESC LIMIT ${req.limit + 1} OFFSET ${offset})
    SELECT cnt.n AS total, ${raw(VERSION_SQL)} AS version, p.*
    FROM cnt LEFT JOIN LATERAL (
      SELECT ${fields(req.descriptionFormat)}, ids.posted_at AS sort_at
      FROM ids JOIN jobs j ON j.id = ids.id LEFT JOIN companies c ON c.slug = j.company_slug) p ON true
    ORDER BY p.sort_at DESC, p.id DESC`);
  const total = rows[0].total;
  if (total > MAX_SORTED) return undefined;
  if (ctx.totals && !req.filters.time_frame)
    await ctx.totals.learned(key, { n: total, version: Number(rows[0].version) });
  return { total, rows: rows.filter((r) => r.id !== null) };
}

const LIVE_KEY = `jobs|${fingerprint('jobs', {})}`;
const LIVE_WHERE = compileFilters({});

/**
 * The number of live jobs at `version`, which steers how PostgreSQL finds a page: kept, else the match
 * index's, else counted (or brought forward from a stored total). The index's answer is kept in this
 * process only, so without asking it each process counted every live job anew at each expiry (0.7 s at
 * a million, in every worker at once).
 */
async function liveJobs(ctx: SearchContext, db: Db, version: number): Promise<number> {
  const kept = ctx.totals!.peek(version, LIVE_KEY);
  if (kept !== undefined) return kept;
  const a = await ctx.match
    ?.ask({ version, filters: {}, collapse: false, offset: 0, limit: 0 })
    .catch(() => undefined);
  if (a) {
    ctx.totals!.remember(version, LIVE_KEY, a.total);
    return a.total;
  }
  return exactCount(db, ctx.totals, version, {}, LIVE_WHERE, LIVE_KEY, false);
}

/**
 * Collapse: one row per company + title, the newest of its group, with `openings`. Groups are ordered by
 * their newest row, so the page is found by walking the matches newest first until offset + limit groups
 * are seen, in chunks that grow; only the page's groups are then counted. The total (the number of
 * groups) is cached per data version like every total. All reads share `client`'s one snapshot.
 */
async function searchCollapsed(
  ctx: SearchContext,
  client: Db,
  version: number,
  req: SearchRequest,
  c: Compiled,
): Promise<SearchPage> {
  const want = req.offset + req.limit;
  const total = await exactCount(client, ctx.totals, version, req.filters, c.where, `groups|${c.fp}`, true);
  const newest = new Map<string, { id: string; pos: string }>();
  let after: CursorPosition | undefined;
  for (let chunk = Math.max(2 * want, 16); newest.size < want; chunk *= 4) {
    const keyset = after ? sql`AND (j.posted_at, j.id) < (${after.at}::timestamptz, ${after.id})` : sql``;
    const { rows } = await client.query<{ id: string; collapse_key: string; pos: string }>(
      sql`SELECT j.id, j.collapse_key, j.posted_at::text AS pos FROM jobs j WHERE ${c.rowWhere} ${keyset}
          ORDER BY j.posted_at DESC, j.id DESC LIMIT ${chunk}`,
    );
    for (const r of rows) if (!newest.has(r.collapse_key)) newest.set(r.collapse_key, r);
    if (rows.length < chunk) break;
    const last = rows[rows.length - 1];
    after = { at: last.pos, id: last.id };
  }
  const page = [...newest].slice(req.offset, want);
  if (!page.length) return { data: renderPage([]), total, byCursor: false };

  const { rows: counts } = await client.query<{ collapse_key: string; n: number }>(
    sql`SELECT j.collapse_key, count(*) AS n FROM jobs j
        WHERE ${c.where} AND j.collapse_key = ANY(${page.map(([key]) => key)}::text[])
        GROUP BY j.collapse_key`,
  );
  const openings = new Map(counts.map((r) => [r.collapse_key, Number(r.n)]));
  const { rows } = await client.query<PageRow>(
    sql`SELECT ${fields(req.descriptionFormat)} FROM jobs j LEFT JOIN companies c ON c.slug = j.company_slug
        WHERE j.id = ANY(${page.map(([, row]) => row.id)}::text[])`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const jobs = page.map(([key, row]) => ({ ...byId.get(row.id)!, openings: openings.get(key) ?? 0 }));
  return { data: renderPage(jobs), total, byCursor: false };
}

/**
 * Requests this process asked the match index: answered, or declined (not built yet, or another version);
 * moved: answered, but the data moved on before the page's rows were read (asked again at the new version).
 */
export const matchStats = { answered: 0, declined: 0, moved: 0 };

/**
 * The total and the page's rows from the match index, when it holds the request's filters and was built at
 * `version`; the rows (the first `read` of the ids, else all) are read by id in a statement that checks
 * the version again, so they are the rows of that version; `more` when ids were left unread. Undefined
 * otherwise: PostgreSQL then counts and pages.
 */
async function fromIndex(
  ctx: SearchContext,
  db: Db,
  version: number,
  req: SearchRequest,
  page: { offset: number; limit: number; read?: number; collapse?: boolean; after?: MatchQuery['after'] },
): Promise<{ total: number; rows: IndexedRow[]; more: boolean; openings?: number[] } | Moved | undefined> {
  if (!ctx.match || !indexable(req.filters)) return undefined;
  const { read, ...asked } = page;
  const q: MatchQuery = { version, filters: req.filters, collapse: page.collapse ?? false, ...asked };
  // The index is an optimisation: whatever goes wrong in it, PostgreSQL answers.
  const a: MatchAnswer | undefined = await ctx.match.ask(q).catch(() => undefined);
  matchStats[a ? 'answered' : 'declined']++;
  if (!a) return undefined;
  const ids = read === undefined ? a.ids : a.ids.slice(0, read);
  const more = ids.length < a.ids.length;
  const format = req.descriptionFormat ?? 'none';
  const byId = new Map<string, KeptRow>();
  const unread: string[] = [];
  for (const id of ids) {
    const kept = ctx.rows?.get(version, rowKey(format, id));
    if (kept) byId.set(id, kept);
    else unread.push(id);
  }
  if (unread.length) {
    // A named (prepared) statement, as the look-up by id: it is the most frequent statement of searches,
    // and planning it each time cost PostgreSQL about as much as reading its rows' keys.
    const { text, values } = sql`SELECT ${fields(req.descriptionFormat)}, ${raw(VERSION_SQL)} AS version
        FROM jobs j LEFT JOIN companies c ON c.slug = j.company_slug WHERE j.id = ANY(${unread}::text[])`;
    const { rows } = await db.query<PageRow & { version: string }>({
      name: `index_page_${format}`,
      text,
      values,
    });
    const newest = rows.reduce((v, r) => Math.max(v, Number(r.version)), version);
    if (newest !== version) {
      matchStats.moved++;
      return { movedTo: newest };
    }
    if (rows.length !== unread.length) return undefined;
    for (const r of rows) {
      const json = renderJob(r);
      byId.set(
        r.id,
        ctx.rows
          ? ctx.rows.put(version, rowKey(format, r.id), json, r.pos)
          : { json: Buffer.from(json), pos: r.pos },
      );
    }
  }
  const rows = ids.map((id) => ({ id, ...byId.get(id)! }));
  return { total: a.total, rows, more, openings: a.openings };
}

/** A row of a page the match index answered: the job's JSON, and its id and position for a cursor. */
interface IndexedRow extends KeptRow {
  id: string;
}

export async function countJobs(ctx: SearchContext, filters: JobFilters, collapse: boolean): Promise<number> {
  const plan = planOf(ctx, { filters, collapse }, false);
  const key = `${collapse ? 'groups' : 'jobs'}|${fingerprint('jobs', canonicalFilters(filters))}`;
  const version = await readVersion(ctx, ctx.pool);
  const cached = plan.total.includes('kept') ? ctx.totals?.peek(version, key) : undefined;
  if (cached === undefined && ctx.match && plan.total.includes('index')) {
    const a = await ctx.match.ask({ version, filters, collapse, offset: 0, limit: 0 }).catch(() => undefined);
    matchStats[a ? 'answered' : 'declined']++;
    if (a) {
      rememberTotal(ctx, filters, version, key, a.total);
      return a.total;
    }
  }
  return exactCount(ctx.pool, ctx.totals, version, filters, compileFilters(filters), key, collapse);
}

/**
 * The exact number of matching jobs (or groups): from the cache under `version` (the current data
 * version) if there, else counted and cached under the version read in the counting statement.
 * Totals of windows relative to the clock (`time_frame`) are never cached.
 */
async function exactCount(
  db: pg.Pool | pg.PoolClient,
  totals: TotalsCache | undefined,
  version: number,
  filters: JobFilters,
  where: Sql,
  key: string,
  collapse: boolean,
): Promise<number> {
  // A description search filtered on nothing job_texts lacks is counted in that narrow table.
  const texts = collapse ? undefined : textCount(filters);
  const count = async () => {
    const counted = collapse ? raw('count(DISTINCT j.collapse_key)') : raw('count(*)');
    const { rows } = await db.query(
      texts
        ? sql`SELECT ${texts} AS n, ${raw(VERSION_SQL)} AS version`
        : sql`SELECT ${counted} AS n, ${raw(VERSION_SQL)} AS version FROM jobs j WHERE ${where}`,
    );
    return { n: Number(rows[0].n), version: Number(rows[0].version) };
  };
  // One value of one kept filter: its total is a look-up, never a count (a window relative to the clock
  // is looked up every time: it is never cached).
  const kept = collapse ? undefined : valueTotalOf(filters);
  const cache = filters.time_frame ? undefined : totals;
  if (kept) {
    const cached = cache?.get(version, key);
    if (cached !== undefined) return cached;
    const read = await readValueTotal(db, kept);
    if (read) {
      cache?.remember(read.version, key, read.n);
      return read.n;
    }
  }
  if (totals === undefined || filters.time_frame) return (await count()).n;
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
  const rowWhere = compileFilters(filters, { anyState: true });
  const events = sql`
    SELECT j.collapse_key AS k, 1 AS back FROM ch, unnest(ch.left_ids) AS l(id) JOIN jobs j ON j.id = l.id WHERE ${rowWhere}
    UNION ALL
    SELECT j.collapse_key, -1 FROM ch, unnest(ch.entered_ids) AS e(id) JOIN jobs j ON j.id = e.id WHERE ${rowWhere}`;
  const delta = collapse
    ? sql`(SELECT coalesce(sum((g.now > 0)::int - ((g.now + g.back) > 0)::int), 0) FROM (
         SELECT per.back, (SELECT count(*) FROM jobs j WHERE j.state = ${stateIs(JobState.Live)} AND ${rowWhere} AND j.collapse_key = per.k) AS now
         FROM (SELECT k, sum(back) AS back FROM ev GROUP BY k) AS per) AS g)`
    : sql`(SELECT coalesce(-sum(back), 0) FROM ev)`;
  const { ch, ok } = changesSince(from.version);
  const { rows } = await db.query(
    sql`WITH cur AS (SELECT ${raw(VERSION_SQL)} AS version), ${ch}, ev AS (${events})
     SELECT cur.version, ${ok} AS ok, ${delta} AS delta
     FROM cur`,
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
  // A named (prepared) statement: the look-up by key is the most frequent request, and its plan never
  // changes, so PostgreSQL parses and plans it once per connection.
  const { text, values } = sql`SELECT j.doc, coalesce(c.profile_json, j.company_fallback) AS company,
       ${raw(descriptionColumn(fmt))} AS description
     FROM jobs j LEFT JOIN companies c ON c.slug = j.company_slug
     WHERE j.id = ${id} AND j.state <> ${stateIs(JobState.Folded)}`;
  const { rows } = await ctx.pool.query<JobRow>({ name: `job_by_id_${fmt ?? 'none'}`, text, values });
  return rows[0] ? renderJob(rows[0]) : undefined;
}
