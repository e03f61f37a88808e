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
import type { MatchSource, MatchStatus } from '../search/match.ts';
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
 * What the cost of a search depends on besides its parameters: the index and what is kept, and whether
 * the index holds the request's description searches (descriptionHeld; it holds every word, not phrases).
 */
export type CostContext = Pick<SearchContext, 'match' | 'pages' | 'totals' | 'version'> & {
  wordsHeld?: boolean;
};

// The data version the match index is at, as the process that holds it last announced it to this worker
// (the message search/match-client.ts reads too). A process that holds the index reads its status.
let announced: number | undefined;
process.on('message', (m: { type?: string; version?: number }) => {
  if (m?.type === 'match-version') announced = m.version;
});

/** The version the index is at, as this process knows it. */
function indexVersion(match: MatchSource): number | undefined {
  const own = (match as { status?: MatchStatus }).status;
  return own ? own.version : announced;
}

/** Whether the index answers at `version` now: built, and at that version (or at all, on a replica). */
function indexReady(match: MatchSource, version: number | undefined): boolean {
  const at = indexVersion(match);
  return at !== undefined && (version === undefined || at === version);
}

/** The index for a request: ready at its version, and holding its description searches if it has any. */
function indexFor(params: Record<string, unknown>, ctx: CostContext): MatchSource | undefined {
  const words = params.description !== undefined || params.description_advanced !== undefined;
  if (words && !ctx.wordsHeld) return undefined;
  return ctx.match && indexReady(ctx.match, ctx.version) ? ctx.match : undefined;
}

/**
 * Whether the match index holds the description searches of these parameters: they have no phrase, and
 * it holds description words (the index is asked, over IPC in a worker); false without such a search.
 */
export async function descriptionHeld(params: Record<string, unknown>, ctx: CostContext): Promise<boolean> {
  const description = params.description as string | undefined;
  const advanced = params.description_advanced as string | undefined;
  if ((description === undefined && advanced === undefined) || !ctx.match) return false;
  const version = ctx.version ?? indexVersion(ctx.match);
  if (version === undefined) return false;
  const filters = { description, description_advanced: advanced };
  const probe = { version, filters, collapse: false, offset: 0, limit: 0, probe: true };
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
  if (path === '/v1/jobs/facets' || path === '/v1/jobs/salary' || path === '/v1/jobs/trends') {
    const { collapse, facets, facet_limit, salary_buckets, interval, since, until, ...filters } = params;
    const match = indexFor(params, ctx);
    const kept = (facets as string[] | undefined)?.every((name) => INDEXED_FACETS.has(name)) ?? true;
    return (
      !kept || !answeredWithoutScan({ match }, { filters: filters as JobFilters, collapse: false, offset: 0 })
    );
  }
  if (path !== '/v1/jobs' && path !== '/v1/jobs/count') return false;
  const advanced = params.title_advanced;
  const heavyKind =
    params.collapse !== undefined ||
    params.description !== undefined ||
    params.description_advanced !== undefined ||
    (typeof params.offset === 'number' && params.offset >= DEEP_OFFSET) ||
    (typeof advanced === 'string' && advanced.includes(':*'));
  if (!heavyKind) return false;
  // The filters are every parameter but paging and output (as the routes take them).
  const { collapse, description_format, limit, offset, cursor, ...filters } = params;
  const match = indexFor(params, ctx);
  return !answeredWithoutScan(
    { ...ctx, match },
    {
      filters: filters as JobFilters,
      collapse: collapse !== undefined,
      descriptionFormat: description_format as DescriptionFormat | undefined,
      limit: path === '/v1/jobs' ? ((limit as number | undefined) ?? 50) : undefined,
      offset: (offset as number | undefined) ?? 0,
      cursor: cursor as string | undefined,
    },
  );
}
