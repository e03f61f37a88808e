// The service's Prometheus metrics (prom-client's default registry of this process): requests per
// route and status, connection pools, limiter decisions, cached totals and process figures. With
// several workers, the primary gathers every worker's registry and sums them (metrics-server.ts).
import cluster from 'node:cluster';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import client from 'prom-client';
import { ApiError } from '../errors.ts';
import { readAheadStats } from '../search/feed-pages.ts';
import { matchStats } from '../search/jobs.ts';
import type { TotalsCache } from '../search/totals.ts';
import type { Limiter } from '../limiter/limits.ts';

const registry = client.register;

// A worker answers the primary's requests for its registry (prom-client listens once constructed).
if (cluster.isWorker) new client.AggregatorRegistry();

let defaults = false;
/** Process figures (memory, CPU, event loop), once per process. */
function collectProcessMetrics(): void {
  if (defaults) return;
  defaults = true;
  client.collectDefaultMetrics({ register: registry });
}

const requests = new client.Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, per route template, method and status',
  labelNames: ['route', 'method', 'status'] as const,
});

const latency = new client.Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from receiving a request to sending its response, per route template and status',
  labelNames: ['route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

const gateWaits = new client.Histogram({
  name: 'expensive_gate_wait_seconds',
  help: 'Requests judged expensive work: the time each waited for a slot of the gate, per route template and outcome (admitted, or refused: 429 or 503)',
  labelNames: ['route', 'outcome'] as const,
  buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

/** A slot of the expensive-work gate (`enter`), its wait and outcome counted under the route's template. */
export async function enterGate(route: string, enter: () => Promise<() => void>): Promise<() => void> {
  const end = gateWaits.startTimer({ route });
  try {
    const release = await enter();
    end({ outcome: 'admitted' });
    return release;
  } catch (err) {
    end({ outcome: 'refused' });
    throw err;
  }
}

// Pools and caches of every app built in this process (one in a service; tests build many).
const pools = new Map<pg.Pool, string>();
const caches = new Set<TotalsCache>();
/** What metrics read of a page cache (search/page-cache.ts). */
interface PageFigures {
  hits: number;
  misses: number;
  carried: number;
  readonly size: number;
}
/** Each page cache with what it keeps: search pages or feed pages. */
const pageCaches = new Map<PageFigures, 'search' | 'feed' | 'rows'>();

const poolFigure = (name: string, help: string, read: (p: pg.Pool) => number) =>
  new client.Gauge({
    name,
    help,
    labelNames: ['pool'] as const,
    collect() {
      this.reset();
      for (const [p, label] of pools) this.inc({ pool: label }, read(p));
    },
  });
poolFigure('db_pool_in_use', 'Connections checked out of the pool', (p) => p.totalCount - p.idleCount);
poolFigure('db_pool_idle', 'Open connections waiting in the pool', (p) => p.idleCount);
poolFigure('db_pool_waiting', 'Requests queued for a connection', (p) => p.waitingCount);

new client.Counter({
  name: 'totals_cache_lookups_total',
  help: 'Look-ups of exact totals in the per-data-version cache, by result (hit or miss)',
  labelNames: ['result'] as const,
  collect() {
    this.reset();
    let hits = 0;
    let misses = 0;
    for (const c of caches) {
      hits += c.hits;
      misses += c.misses;
    }
    this.inc({ result: 'hit' }, hits);
    this.inc({ result: 'miss' }, misses);
  },
});

new client.Counter({
  name: 'page_cache_lookups_total',
  help: "Look-ups of search and feed pages kept per data version and of the rows of the match index's pages, by pages (search, feed or rows) and result (hit, miss; carried: the misses a page of an earlier version answered, no change since touching it)",
  labelNames: ['pages', 'result'] as const,
  collect() {
    this.reset();
    for (const pages of ['search', 'feed', 'rows'] as const) {
      let hits = 0;
      let misses = 0;
      let carried = 0;
      for (const [c, kind] of pageCaches)
        if (kind === pages) {
          hits += c.hits;
          misses += c.misses;
          carried += c.carried;
        }
      this.inc({ pages, result: 'hit' }, hits);
      this.inc({ pages, result: 'miss' }, misses);
      this.inc({ pages, result: 'carried' }, carried);
    }
  },
});

new client.Gauge({
  name: 'page_cache_bytes',
  help: 'Bytes held by the kept search and feed pages and rows (an upper bound)',
  collect() {
    this.set([...pageCaches.keys()].reduce((n, c) => n + c.size, 0));
  },
});

new client.Counter({
  name: 'feed_read_ahead_total',
  help: 'Feed pages read ahead for a client following its cursors, by outcome (served, or discarded: the data changed or the read failed)',
  labelNames: ['outcome'] as const,
  collect() {
    this.reset();
    this.inc({ outcome: 'served' }, readAheadStats.served);
    this.inc({ outcome: 'discarded' }, readAheadStats.discarded);
  },
});

new client.Counter({
  name: 'match_index_requests_total',
  help: 'Searches and counts asked of the in-memory match index, by result (answered, or declined: not built yet, or built at another data version; moved: answered, but the data moved on before the page was read, and asked again)',
  labelNames: ['result'] as const,
  collect() {
    this.reset();
    this.inc({ result: 'answered' }, matchStats.answered);
    this.inc({ result: 'declined' }, matchStats.declined);
    this.inc({ result: 'moved' }, matchStats.moved);
  },
});

const decisions = new client.Counter({
  name: 'limiter_decisions_total',
  help: 'Rate limiter decisions: allowed, rate_limited (per-minute limit) or quota_exhausted (monthly)',
  labelNames: ['decision'] as const,
});
for (const decision of ['allowed', 'rate_limited', 'quota_exhausted']) decisions.inc({ decision }, 0);

/** The limiter, counting its decisions (those of `take`, and those settled after an admission). */
export function countDecisions(limiter: Limiter): Limiter {
  const counted = <T>(decide: () => T): T => {
    try {
      const d = decide();
      if (d instanceof Promise) return d.then(allowed, refused) as T;
      return allowed(d);
    } catch (err) {
      return refused(err);
    }
  };
  const inline = limiter.inline;
  return {
    get store() {
      return limiter.store;
    },
    take: (owner) => counted(() => limiter.take(owner)),
    inline: inline && {
      now: () => inline.now(),
      settle: (owner, r, t) => counted(() => inline.settle(owner, r, t)),
    },
    healthy: () => limiter.healthy(),
    close: () => limiter.close(),
  };
}

function allowed<T>(d: T): T {
  decisions.inc({ decision: 'allowed' });
  return d;
}

function refused(err: unknown): never {
  if (err instanceof ApiError && err.status === 429)
    decisions.inc({ decision: err.headers['retry-after'] ? 'rate_limited' : 'quota_exhausted' });
  throw err;
}

/** Counts every response of the app and watches its pools and totals cache while it is open. */
export function instrumentApp(
  app: FastifyInstance,
  parts: {
    pools: { write: pg.Pool; read: pg.Pool };
    totals: TotalsCache;
    pages?: PageFigures;
    feedPages?: PageFigures;
    rows?: PageFigures;
    /** Requests left out of the figures (the process's own warm-up). */
    skip?: (req: FastifyRequest) => boolean;
  },
): void {
  pools.set(parts.pools.write, 'write');
  if (parts.pools.read !== parts.pools.write) pools.set(parts.pools.read, 'read');
  caches.add(parts.totals);
  if (parts.pages) pageCaches.set(parts.pages, 'search');
  if (parts.feedPages) pageCaches.set(parts.feedPages, 'feed');
  if (parts.rows) pageCaches.set(parts.rows, 'rows');
  collectProcessMetrics();
  app.addHook('onResponse', async (req, reply) => {
    if (parts.skip?.(req)) return;
    // Unmatched URLs share one label so that scanners cannot grow the label set.
    const route = req.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    requests.inc({ route, method: req.method, status });
    latency.observe({ route, status }, reply.elapsedTime / 1000);
  });
  app.addHook('onClose', async () => {
    pools.delete(parts.pools.write);
    pools.delete(parts.pools.read);
    caches.delete(parts.totals);
    if (parts.pages) pageCaches.delete(parts.pages);
    if (parts.feedPages) pageCaches.delete(parts.feedPages);
    if (parts.rows) pageCaches.delete(parts.rows);
  });
}
