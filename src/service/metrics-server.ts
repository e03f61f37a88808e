// The metrics listener: Prometheus text on METRICS_PORT (bound like HOST), apart from the API so that
// it needs no key and is never rate limited. It serves the metrics the app records in prom-client's
// default registry (src/http/metrics.ts) — with workers, those of every worker summed by
// prom-client's AggregatorRegistry, plus the figures only the primary has: the dataset (data version,
// live jobs) and the scheduled crawl's ingest counters.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import type { Db } from '../db/pool.ts';
import { dataVersion, liveStats } from '../db/stats.ts';
import type { BoardReport } from '../ingest/crawl/crawler.ts';

/** Metrics of the primary process only (in a single process, merged with the app's). */
const primaryRegistry = new client.Registry();

const ingested = new client.Counter({
  name: 'ingest_postings_total',
  help: 'Postings of the scheduled crawl by outcome: inserted, updated, unchanged, folded, rejected, expired',
  labelNames: ['outcome'] as const,
  registers: [primaryRegistry],
});
const OUTCOMES = ['inserted', 'updated', 'unchanged', 'folded', 'rejected', 'expired'] as const;
for (const outcome of OUTCOMES) ingested.inc({ outcome }, 0);
const boards = new client.Counter({
  name: 'crawl_boards_total',
  help: 'Boards crawled by the schedule, by status: ok, unchanged, failed',
  labelNames: ['status'] as const,
  registers: [primaryRegistry],
});
for (const status of ['ok', 'unchanged', 'failed']) boards.inc({ status }, 0);

/** Counts one round of the scheduled crawl. */
export function countCrawl(reports: BoardReport[]): void {
  for (const r of reports) {
    boards.inc({ status: r.status });
    for (const outcome of OUTCOMES) ingested.inc({ outcome }, r[outcome]);
  }
}

function datasetMetrics(db: Db): void {
  primaryRegistry.removeSingleMetric('data_version');
  primaryRegistry.removeSingleMetric('live_jobs');
  new client.Gauge({
    name: 'data_version',
    help: 'Version of the indexed data; every committing ingest or expiry bumps it',
    registers: [primaryRegistry],
    async collect() {
      this.set(await dataVersion(db.read));
    },
  });
  new client.Gauge({
    name: 'live_jobs',
    help: 'Jobs in the live population (what searches match)',
    registers: [primaryRegistry],
    async collect() {
      this.set((await liveStats(db.read)).jobs);
    },
  });
}

/**
 * The memory of the match index the primary holds (MatchService.bytes), taken when scraped: the index's
 * share of the service's memory.
 */
export function countMatchIndex(bytes: () => number): void {
  primaryRegistry.removeSingleMetric('match_index_bytes');
  new client.Gauge({
    name: 'match_index_bytes',
    help: 'Memory of the match index the primary holds: what it read or built and what it made since (bytes)',
    registers: [primaryRegistry],
    collect() {
      this.set(bytes());
    },
  });
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the listener. `workers`: whether the HTTP metrics come from cluster workers (else from this
 * process). The caller decides what a failure to listen means.
 */
async function startMetricsServer(opts: {
  port: number;
  host: string;
  db: Db;
  workers: boolean;
}): Promise<MetricsServer> {
  datasetMetrics(opts.db);
  const aggregator = opts.workers ? new client.AggregatorRegistry() : undefined;
  // The workers' process figures are summed; the primary's own keep a prefix of their own.
  if (aggregator) client.collectDefaultMetrics({ register: primaryRegistry, prefix: 'primary_' });
  const exposition = async (): Promise<string> => {
    if (aggregator) {
      const [fromWorkers, own] = await Promise.all([aggregator.clusterMetrics(), primaryRegistry.metrics()]);
      return `${fromWorkers.trimEnd()}\n${own}`;
    }
    return client.Registry.merge([client.register, primaryRegistry]).metrics();
  };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    exposition().then(
      (text) => res.writeHead(200, { 'content-type': client.register.contentType }).end(text),
      (err: Error) =>
        res
          .writeHead(503, { 'content-type': 'text/plain; charset=utf-8' })
          .end(`metrics unavailable: ${err.message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The service's metrics listener per METRICS_PORT (0: none). Metrics never stop the API: when the
 * port cannot be bound the service says so and runs without them.
 */
export async function serveMetrics(
  config: { METRICS_PORT: number; HOST: string; WORKERS: number },
  db: Db,
  say: (msg: string) => void,
): Promise<() => Promise<void>> {
  if (config.METRICS_PORT === 0) return async () => {};
  try {
    const server = await startMetricsServer({
      port: config.METRICS_PORT,
      host: config.HOST,
      db,
      workers: config.WORKERS > 1,
    });
    say(`  metrics: http://${config.HOST}:${server.port}/metrics`);
    return () => server.close();
  } catch (err) {
    say(`metrics listener not started on ${config.HOST}:${config.METRICS_PORT}: ${(err as Error).message}`);
    return async () => {};
  }
}
