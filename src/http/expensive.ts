// A bound on expensive work, judged by cost: a request PostgreSQL answers by a scan that grows with the
// data (collapse, deep offsets, searches over descriptions, prefix terms) or that builds megabytes (feed
// pages of more than 200 jobs with their descriptions) takes a slot; one the match index or a kept page
// answers does not, whatever its kind. Each process runs at most `perProcess` of them at once and each
// account (all its keys) at most `perKey`, so one key's heavy queries cannot take the pool and everyone's
// latency with them. A request without a slot waits its turn, at most `waitMs`: a free slot goes to the
// waiting account running fewest, accounts take turns among equals (round-robin), and each account's
// requests go in arrival order. Past `queuePerKey` waiting requests of its
// account the answer is 429 at once; past the wait, 429 when its own account's share held it, else 503;
// both with Retry-After.
import type { Config } from '../config.ts';
import { INDEXED_FACETS } from '../search/dimensions.ts';
import type { JobFilters } from '../search/filters.ts';
import { isLargeFeedPage, LARGE_FEED_PAGE } from '../search/feeds.ts';
import { answeredWithoutScan, type SearchContext } from '../search/jobs.ts';
import type { MatchQuery, MatchSource, MatchStatus } from '../search/match.ts';
import type { DescriptionFormat } from '../search/render.ts';
import type { ExpensiveLimits } from './expensive-gate.ts';

/** Offsets from here on are expensive: the rows before them are read and thrown away. */
const DEEP_OFFSET = 1000;

const KINDS = `collapse, offset ≥ ${DEEP_OFFSET}, description search, prefix terms, feed pages over ${LARGE_FEED_PAGE} with descriptions`;

/** The gate's bounds as configured. */
export function expensiveLimits(config: Config): ExpensiveLimits {
  return {
    perProcess: config.EXPENSIVE_PER_PROCESS,
    perKey: config.EXPENSIVE_PER_ACCOUNT,
    queuePerKey: config.EXPENSIVE_QUEUE_PER_ACCOUNT,
    waitMs: config.EXPENSIVE_WAIT_MS,
    kinds: KINDS,
  };
}

/**
 * What the cost of a search depends on besides its parameters: the index and what is kept, and, when
 * the index had to be asked (probeIndex), whether it said it would answer.
 */
export type CostContext = Pick<SearchContext, 'match' | 'pages' | 'totals' | 'version'> & {
  probed?: boolean;
};

// The data version the match index is at and whether it holds rows apart, as the process that holds it
// last announced them to this worker (the message search/match-client.ts reads too). A process that
// holds the index reads its status.
let announced: Pick<MatchStatus, 'version' | 'apart'> = {};
process.on('message', (m: { type?: string; version?: number; apart?: number }) => {
  if (m?.type === 'match-version') announced = { version: m.version, apart: m.apart };
});

function indexStatus(match: MatchSource): Pick<MatchStatus, 'version' | 'apart'> {
  return (match as { status?: MatchStatus }).status ?? announced;
}

/** The version the index is at, as this process knows it. */
function indexVersion(match: MatchSource): number | undefined {
  return indexStatus(match).version;
}

/** Whether the index answers at `version` now: built, and at that version (or at all, on a replica). */
function indexReady(match: MatchSource, version: number | undefined): boolean {
  const at = indexVersion(match);
  return at !== undefined && (version === undefined || at === version);
}

/**
 * Whether the index must be asked whether it answers a request (probeIndex) before it is costed: the
 * request searches descriptions (the index holds every word, not phrases), or the index holds rows apart
 * (an expiry's promoted copies, until a build merges them; it declines a tie of posting times with one).
 */
function mustAsk(params: Record<string, unknown>, match: MatchSource): boolean {
  return (
    params.description !== undefined ||
    params.description_advanced !== undefined ||
    !!indexStatus(match).apart
  );
}

/** The index for a request: ready at its version, and, when it had to be asked, saying it answers. */
function indexFor(params: Record<string, unknown>, ctx: CostContext): MatchSource | undefined {
  if (!ctx.match || !indexReady(ctx.match, ctx.version)) return undefined;
  return !mustAsk(params, ctx.match) || ctx.probed ? ctx.match : undefined;
}

/** A search's filters: its parameters but paging, output and each route's own (analytics). */
function filtersOf(params: Record<string, unknown>): JobFilters {
  const {
    collapse,
    description_format,
    limit,
    offset,
    cursor,
    facets,
    facet_limit,
    salary_buckets,
    interval,
    since,
    until,
    time_frame,
    ...filters
  } = params;
  // A window relative to the clock anchored now, as the routes anchor it (routes/jobs.ts).
  return (
    time_frame ? { ...filters, time_frame: { ...(time_frame as object), at: Date.now() } } : filters
  ) as JobFilters;
}

/** The analytics routes: each reads every match unless the index answers. */
const ANALYTICS = new Set(['/v1/jobs/facets', '/v1/jobs/salary', '/v1/jobs/trends']);

/** A search or count of an expensive kind when PostgreSQL answers it (the index may answer it instead). */
function heavySearch(path: string, params: Record<string, unknown>): boolean {
  if (path !== '/v1/jobs' && path !== '/v1/jobs/count') return false;
  const advanced = params.title_advanced;
  return (
    params.collapse !== undefined ||
    params.description !== undefined ||
    params.description_advanced !== undefined ||
    (typeof params.offset === 'number' && params.offset >= DEEP_OFFSET) ||
    (typeof advanced === 'string' && advanced.includes(':*'))
  );
}

/**
 * Whether the match index says it would answer these parameters' filters without PostgreSQL, when it
 * must be asked (mustAsk; over IPC in a worker) and its answer decides the cost (an analytics route, a
 * search of an expensive kind); false otherwise.
 */
export async function probeIndex(
  path: string,
  params: Record<string, unknown>,
  ctx: CostContext,
): Promise<boolean> {
  if (!ctx.match || !(ANALYTICS.has(path) || heavySearch(path, params)) || !mustAsk(params, ctx.match))
    return false;
  const version = ctx.version ?? indexVersion(ctx.match);
  if (version === undefined) return false;
  // Asked as the request will ask: the index declines more of facets, salary figures and groups.
  const probe: MatchQuery = {
    version,
    filters: filtersOf(params),
    collapse: params.collapse !== undefined,
    offset: 0,
    limit: 0,
    probe: true,
    facets: path === '/v1/jobs/facets' ? { names: [], limit: 0 } : undefined,
    salary: path === '/v1/jobs/salary' ? {} : undefined,
    trend: path === '/v1/jobs/trends' ? { since: 0, step: 1, until: 1 } : undefined,
  };
  // The index is an optimisation: if asking it fails, the request is judged as PostgreSQL's.
  return (await ctx.match.ask(probe).catch(() => undefined)) !== undefined;
}

/**
 * Whether a request to `path` with these validated parameters is expensive work: of an expensive kind,
 * and not answered from the match index (built, at the request's version) or a kept page or total (`ctx`;
 * without it, by kind alone). While the index is built or rebuilt after a load, PostgreSQL answers and the
 * gate holds.
 */
export function isExpensive(path: string, params: Record<string, unknown>, ctx: CostContext = {}): boolean {
  if (path === '/v1/jobs/feed' || path === '/v1/jobs/modified')
    return isLargeFeedPage((params.limit as number | undefined) ?? 200, params.description_format);
  // Analytics the match index computes (it holds the filters, and keeps every dimension asked, at the
  // request's version) read no row; others read every match, whatever the filters.
  if (ANALYTICS.has(path)) {
    const match = indexFor(params, ctx);
    const kept = (params.facets as string[] | undefined)?.every((name) => INDEXED_FACETS.has(name)) ?? true;
    return (
      !kept || !answeredWithoutScan({ match }, { filters: filtersOf(params), collapse: false, offset: 0 })
    );
  }
  if (!heavySearch(path, params)) return false;
  const { collapse, description_format, limit, offset, cursor } = params;
  const match = indexFor(params, ctx);
  return !answeredWithoutScan(
    { ...ctx, match },
    {
      filters: filtersOf(params),
      collapse: collapse !== undefined,
      descriptionFormat: description_format as DescriptionFormat | undefined,
      limit: path === '/v1/jobs' ? ((limit as number | undefined) ?? 50) : undefined,
      offset: (offset as number | undefined) ?? 0,
      cursor: cursor as string | undefined,
    },
  );
}
