// buildApp: the Fastify application, not yet listening. Global behaviour of every response lives here:
// the three headers, CORS preflight, 405, 404, trailing slashes, the error catalog, key redaction.
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  LogController,
  type FastifyHttpOptions,
  type FastifyReply,
} from 'fastify';
import type { Config } from '../config.ts';
import { isTimeoutOrConnectionError } from '../db/pool.ts';
import { ApiError, errors } from '../errors.ts';
import { PgTotalsStore } from '../db/totals-store.ts';
import { feedPageSize } from '../search/feed-pages.ts';
import { PageCache, pageSize } from '../search/page-cache.ts';
import { rowCache } from '../search/row-cache.ts';
import { TotalsCache } from '../search/totals.ts';
import { ipcMatchSource } from '../search/match-client.ts';
import { Authenticator, extractKey } from './auth.ts';
import { guardConnections } from './connections.ts';
import { probeIndex, expensiveLimits, isExpensive } from './expensive.ts';
import { ExpensiveGate, remoteExpensiveGate, type SlotGate } from './expensive-gate.ts';
import { type Limiter, rateLimitHeaders } from '../limiter/limits.ts';
import { registerDocs } from './docs.ts';
import { registerExplore } from './explore.ts';
import { countDecisions, enterGate, instrumentApp } from './metrics.ts';
import { buildOpenApi } from './openapi.ts';
import { parseQueryString } from './params/registry.ts';
import { redactUrl } from './redact.ts';
import { RequestLog } from './request-log.ts';
import { type WarmUpBudget, type WarmUpReport, warmUp } from './warm-up.ts';
import { matchStats } from '../search/jobs.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { companyRoutes } from './routes/companies.ts';
import { feedRoutes } from './routes/feeds.ts';
import { historyRoutes } from './routes/history.ts';
import { jobRoutes } from './routes/jobs.ts';
import { metaRoutes } from './routes/meta.ts';
import { sourceRoutes } from './routes/sources.ts';
import type { AppContext, Route } from './routes/types.ts';
import { answerConnect, COMMON_HEADERS, onClientError, onFrameworkError } from './server-errors.ts';

export const routes: Route[] = [
  ...feedRoutes,
  ...jobRoutes,
  ...analyticsRoutes,
  ...historyRoutes,
  ...companyRoutes,
  ...metaRoutes,
  ...sourceRoutes,
];

const JSON_TYPE = 'application/json; charset=utf-8';
// Every method Node parses is routed on every known path, so each non-GET one gets its 405 (CONNECT
// never reaches a router: see answerConnect).
const ALL_METHODS = http.METHODS.filter((m) => m !== 'CONNECT');

const unavailable = () =>
  errors.unavailable('the query took too long or the database is unavailable; retry later', 2);

export interface BuildOptions {
  ctx: AppContext;
  limiter?: Limiter;
  logger?: boolean | Record<string, unknown>;
}

export interface App {
  fastify: FastifyInstance;
  authenticator: Authenticator;
  /** The expensive-work gate: its running and waiting requests. */
  expensive: Pick<SlotGate, 'stats'>;
  /** Requests of every kind sent through the app in process, before it listens (`warm-up.ts`). */
  warmUp(budget: WarmUpBudget): Promise<WarmUpReport>;
  close(): Promise<void>;
}

/** The header of the warm-up's requests, and its value while a warm-up runs (a secret of this process). */
const WARM_UP_HEADER = 'x-warm-up';
interface Warming {
  token?: string;
}

export async function buildApp(opts: BuildOptions): Promise<App> {
  const limiter = opts.limiter && countDecisions(opts.limiter);
  // Totals are shared with every other process and host through the primary.
  const totals =
    opts.ctx.totals ??
    new TotalsCache(new PgTotalsStore(opts.ctx.db.write, opts.ctx.config.STATEMENT_TIMEOUT_MS));
  const mb = opts.ctx.config.PAGE_CACHE_MB;
  // A third of the pages' memory for search pages (~110 kB each), two thirds for feed pages (~600 kB
  // each at the default size of 200; a page over an eighth of its cache is never kept).
  const mib = mb * 2 ** 20;
  const pages = opts.ctx.pages ?? (mb > 0 ? new PageCache(mib / 3, pageSize) : undefined);
  const feedPages = opts.ctx.feedPages ?? (mb > 0 ? new PageCache((2 * mib) / 3, feedPageSize) : undefined);
  // A worker asks the process that holds the match index; a lone process is given it.
  const match =
    opts.ctx.match ?? (cluster.isWorker && opts.ctx.config.MATCH_INDEX ? ipcMatchSource() : undefined);
  const rowMb = opts.ctx.config.ROW_CACHE_MB;
  const rows = opts.ctx.rows ?? (rowMb > 0 && match ? rowCache(rowMb * 2 ** 20) : undefined);
  const ctx = { ...opts.ctx, limiter, totals, pages, feedPages, match, rows };
  const app = Fastify(serverOptions(ctx.config, opts.logger));
  const authenticator = new Authenticator(ctx.db.write, ctx.config.KEY_PREFIX, limiter);
  const warming: Warming = {};

  // A worker asks the primary's gate, which bounds an account across every process of the host.
  const limits = expensiveLimits(ctx.config);
  const gate = cluster.isWorker ? remoteExpensiveGate(limits.waitMs) : new ExpensiveGate(limits);
  const known = new Set(app.supportedMethods);
  for (const m of ALL_METHODS) if (!known.has(m)) app.addHttpMethod(m);
  answerConnect(app.server);
  const connections = guardConnections(app.server, {
    perAddress: ctx.config.CONNECTIONS_PER_ADDRESS,
    stallMs: ctx.config.RESPONSE_STALL_MS,
    maxBufferedBytes: 64 * 1024 * 1024,
  });
  const requestLog = new RequestLog(app.log, ctx.config.REQUEST_LOG_INTERVAL_S * 1000, () => ({
    connections_refused: connections.stats.refused,
    stalled_dropped: connections.stats.dropped,
  }));

  installHooks(app, requestLog, warming);
  instrumentApp(app, {
    pools: ctx.db,
    totals: ctx.totals,
    pages: ctx.pages,
    feedPages: ctx.feedPages,
    rows: ctx.rows,
    skip: (req) => isWarmUp(req, warming),
  });

  app.setErrorHandler(errorHandler(requestLog));

  // An unknown path is a 404 whatever the method, OPTIONS included: there is nothing to preflight.
  app.setNotFoundHandler((_req, reply) => sendError(reply, errors.unknownEndpoint()));

  const register = (
    path: string,
    handler: (
      req: FastifyRequest,
    ) => Promise<{ status?: number; body: string | Buffer; headers?: Record<string, string> }>,
  ) => {
    app.route({
      method: [...ALL_METHODS],
      url: path,
      handler: async (req, reply) => {
        if (req.method === 'OPTIONS') return preflight(reply);
        const out = await handler(req);
        for (const [k, v] of Object.entries(out.headers ?? {})) reply.header(k, v);
        return reply.code(out.status ?? 200).send(out.body);
      },
    });
  };

  for (const route of routes) {
    register(route.path, routeHandler(route, ctx, { authenticator, gate, warming }));
  }

  // Generated from the routes and the registry of this very process, once.
  const openapi = JSON.stringify(buildOpenApi(routes, ctx.version));
  register('/openapi.json', async () => ({ body: openapi }));
  registerDocs(app);
  registerExplore(app);

  await app.ready();
  return {
    fastify: app,
    authenticator,
    expensive: gate,
    async warmUp(budget) {
      // Only before the server listens: no request from outside can carry the token.
      if (app.server.listening) throw new Error('the warm-up runs before the server listens');
      warming.token = randomBytes(24).toString('hex');
      const asked = { ...matchStats };
      try {
        return await warmUp(app, { [WARM_UP_HEADER]: warming.token }, budget);
      } finally {
        warming.token = undefined;
        // The match index's request figures count clients' requests only.
        Object.assign(matchStats, asked);
      }
    },
    async close() {
      connections.stop();
      await app.close();
      requestLog.close();
      await authenticator.close();
      await limiter?.close();
    },
  };
}

/** The Fastify server: logging with redaction, errors below the routes, router and timeouts. */
function serverOptions(config: Config, logger: BuildOptions['logger']): FastifyHttpOptions<http.Server> {
  return {
    logger:
      logger === false
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: {
              paths: ['req.headers.authorization', 'req.headers["x-api-key"]'],
              censor: '[REDACTED]',
            },
            serializers: {
              // Request lines are written by RequestLog; these keep any other line that carries a request safe.
              req(req: FastifyRequest) {
                return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
              },
            },
            ...(typeof logger === 'object' ? logger : {}),
          },
    // At trace, Fastify's own lines too: one when a request is read and one when it is answered (with the
    // request id), for following single requests (the several-hosts test does); redacted by the serializer.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== 'trace' }),
    clientErrorHandler: onClientError,
    frameworkErrors: onFrameworkError,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: false, maxParamLength: 2048 },
    exposeHeadRoutes: false,
    bodyLimit: 65_536,
    requestIdHeader: false,
    // While draining, requests on open keep-alive connections are served (with Connection: close)
    // rather than refused with Fastify's own 503, which is not in the error catalog.
    return503OnClosing: false,
    connectionTimeout: 30_000,
    keepAliveTimeout: 5_000,
    requestTimeout: 30_000,
    // Headers and request timeouts are checked every second (Node's default is 30 s), so a client that
    // never finishes its request gets its 408 before the 30 s idle timeout closes the socket silently.
    http: { headersTimeout: 10_000, maxHeaderSize: 16_384, connectionsCheckingInterval: 1000 },
  };
}

function sendError(reply: FastifyReply, err: ApiError) {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(err.status).send(JSON.stringify(err.body));
}

function preflight(reply: FastifyReply) {
  return reply
    .code(204)
    .header('access-control-allow-methods', 'GET, OPTIONS')
    .header('access-control-allow-headers', 'Authorization, Content-Type')
    .header('access-control-max-age', '86400')
    .removeHeader('content-type')
    .send();
}

/**
 * One API request: authentication and the limiter when the route needs a key, the expensive-work gate
 * once the parameters are known, then the route. Errors after authentication keep the rate-limit headers.
 */
function routeHandler(
  route: Route,
  ctx: AppContext,
  deps: { authenticator: Authenticator; gate: SlotGate; warming: Warming },
) {
  const { authenticator, gate, warming } = deps;
  return async (req: FastifyRequest) => {
    const warm = isWarmUp(req, warming);
    const qs = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    const query = parseQueryString(qs);
    const headers: Record<string, string> = {};
    let accountId = 0;
    let routeCtx = ctx;
    if (route.auth && !warm) {
      const admission = await authenticator.admit(extractKey(req.headers.authorization, query));
      accountId = admission.owner.account_id;
      if (admission.decision) Object.assign(headers, rateLimitHeaders(admission.decision));
      routeCtx = { ...ctx, dataVersion: admission.version };
    }
    let release: (() => void) | undefined;
    try {
      // PostgreSQL text cannot hold U+0000: no id or slug contains one, so such a path names nothing.
      for (const v of Object.values((req.params ?? {}) as Record<string, string>))
        if (v.includes('\0')) throw errors.notFound();
      const out = await route.run(routeCtx, query, req, async (params) => {
        // Judged by cost: what the match index or a kept page answers takes no slot.
        const cost = {
          match: routeCtx.match,
          pages: routeCtx.pages,
          totals: routeCtx.totals,
          version: routeCtx.db.readIsPrimary ? routeCtx.dataVersion : undefined,
        };
        // Admitted at a version the index has not reached yet (an expiry since it last looked): it catches
        // up first, or every such request would be costed, queued and counted as PostgreSQL's.
        if (cost.version !== undefined) await cost.match?.catchUp?.(cost.version);
        const probed = await probeIndex(route.path, params, cost);
        if (isExpensive(route.path, params, { ...cost, probed })) {
          // The warm-up sends cheap work only: a scan would hold the start-up for seconds.
          if (warm) throw unavailable();
          release = await enterGate(route.path, () => gate.enter(accountId));
        }
      });
      return { ...out, headers };
    } catch (err) {
      // Errors after authentication still carry the rate-limit headers.
      const known =
        err instanceof ApiError ? err : isTimeoutOrConnectionError(err) ? unavailable() : undefined;
      if (known) throw new ApiError(known.status, known.body, { ...headers, ...known.headers });
      throw err;
    } finally {
      release?.();
    }
  };
}

/** A request of this process's own warm-up (its header carries the token of the warm-up running). */
function isWarmUp(req: FastifyRequest, warming: Warming): boolean {
  return warming.token !== undefined && req.headers[WARM_UP_HEADER] === warming.token;
}

/** How many Host fields a request carries (rawHeaders alternates names and values). */
function hostFields(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === 'host') n++;
  return n;
}

/** Every response: the three headers, 405 before any body is read, no caching headers, the request log. */
function installHooks(app: FastifyInstance, requestLog: RequestLog, warming: Warming): void {
  // Bodies are never read: the API is read-only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => {
    payload.resume();
    done(null, undefined);
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.headers(COMMON_HEADERS);
    // RFC 9112 §3.2: a request with more than one Host field is a 400 (Node keeps the first and goes on).
    if (hostFields(req.raw.rawHeaders) > 1) {
      reply.header('connection', 'close');
      return sendError(reply, errors.badRequest());
    }
    // Before any body handling, so no method (QUERY without a content type, say) can fail differently.
    if (!req.is404 && req.method !== 'GET' && req.method !== 'OPTIONS')
      return sendError(reply, errors.methodNotAllowed());
  });
  app.addHook('onResponse', async (req, reply) => {
    if (isWarmUp(req, warming)) return;
    requestLog.record(req.method, req.url, reply.statusCode, reply.elapsedTime);
  });
  // Fastify adds no Cache-Control or ETag; make sure nothing else does either.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.routeOptions.config?.ownContentType) return payload; // the reference page and its assets
    reply.removeHeader('cache-control');
    reply.removeHeader('etag');
    reply.header('content-type', JSON_TYPE);
    return payload;
  });
}

/** Errors out of a route: the catalog's bodies; an unavailable database is a 503, anything else a 500. */
function errorHandler(requestLog: RequestLog) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    if (isTimeoutOrConnectionError(err)) {
      requestLog.warnOnce(
        'unavailable',
        { code: (err as { code?: string }).code },
        'database unavailable or query timed out',
      );
      return sendError(reply, unavailable());
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Errors of the HTTP layer itself (malformed URL, oversized body): a plain message, nothing internal.
      return sendError(reply, status === 413 ? errors.payloadTooLarge() : errors.badRequest());
    }
    req.log.error({ err, url: redactUrl(req.url) }, 'unhandled error');
    return sendError(reply, errors.internal(String(req.id)));
  };
}
