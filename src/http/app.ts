// buildApp: the Fastify application, not yet listening. Global behaviour of every response lives here:
// the three headers, CORS preflight, 405, 404, trailing slashes, the error catalog, key redaction.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { isTimeoutOrConnectionError } from '../db/pool.ts';
import { ApiError, errors } from '../errors.ts';
import { PgTotalsStore } from '../db/totals-store.ts';
import { TotalsCache } from '../search/totals.ts';
import { Authenticator, extractKey } from './auth.ts';
import { type Limiter, rateLimitHeaders } from '../limiter/limits.ts';
import { registerDocs } from './docs.ts';
import { countDecisions, instrumentApp } from './metrics.ts';
import { buildOpenApi } from './openapi.ts';
import { parseQueryString } from './params/registry.ts';
import { companyRoutes } from './routes/companies.ts';
import { feedRoutes } from './routes/feeds.ts';
import { jobRoutes } from './routes/jobs.ts';
import { metaRoutes } from './routes/meta.ts';
import type { AppContext, Route } from './routes/types.ts';

export const routes: Route[] = [...feedRoutes, ...jobRoutes, ...companyRoutes, ...metaRoutes];

const JSON_TYPE = 'application/json; charset=utf-8';
const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

const unavailable = () =>
  errors.unavailable('the query took too long or the database is unavailable; retry later');

/** The request URL with any api_key value replaced, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, '$1[REDACTED]');
}

export interface BuildOptions {
  ctx: AppContext;
  limiter?: Limiter;
  logger?: boolean | Record<string, unknown>;
}

export interface App {
  fastify: FastifyInstance;
  authenticator: Authenticator;
  close(): Promise<void>;
}

export async function buildApp(opts: BuildOptions): Promise<App> {
  const limiter = opts.limiter && countDecisions(opts.limiter);
  // Totals are shared with every other process and host through the primary.
  const totals =
    opts.ctx.totals ??
    new TotalsCache(new PgTotalsStore(opts.ctx.db.write, opts.ctx.config.STATEMENT_TIMEOUT_MS));
  const ctx = { ...opts.ctx, limiter, totals };
  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : {
            level: ctx.config.LOG_LEVEL,
            redact: {
              paths: ['req.headers.authorization', 'req.headers["x-api-key"]'],
              censor: '[REDACTED]',
            },
            serializers: {
              req(req: FastifyRequest) {
                return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip };
              },
            },
            ...(typeof opts.logger === 'object' ? opts.logger : {}),
          },
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: false, maxParamLength: 2048 },
    exposeHeadRoutes: false,
    bodyLimit: 65_536,
    requestIdHeader: false,
    // A request that reached the server before it began closing is served (with Connection: close),
    // never answered 503: a load balancer retries a refused connection on another host, not an answer.
    return503OnClosing: false,
    // A URL that is not valid percent-encoding: the catalog's plain 400, not Fastify's own body.
    frameworkErrors: (_err, _req, reply) => {
      (reply as FastifyReply).code(400).send(JSON.stringify({ error: 'bad request' }));
    },
    connectionTimeout: 30_000,
    keepAliveTimeout: 5_000,
    requestTimeout: 30_000,
    http: { headersTimeout: 10_000, maxHeaderSize: 16_384 },
  });
  const authenticator = new Authenticator(ctx.db.write, ctx.config.KEY_PREFIX);

  // Bodies are never read: the API is read-only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => {
    payload.resume();
    done(null, undefined);
  });

  app.addHook('onRequest', async (_req, reply) => {
    reply.header('content-type', JSON_TYPE);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('access-control-allow-origin', '*');
  });
  // Fastify adds no Cache-Control or ETag; make sure nothing else does either.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.routeOptions.config?.ownContentType) return payload; // the reference page and its assets
    reply.removeHeader('cache-control');
    reply.removeHeader('etag');
    reply.header('content-type', JSON_TYPE);
    return payload;
  });

  instrumentApp(app, { pools: ctx.db, totals: ctx.totals });

  const sendError = (reply: import('fastify').FastifyReply, err: ApiError) => {
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    return reply.code(err.status).send(JSON.stringify(err.body));
  };

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof ApiError) return sendError(reply, err);
    if (isTimeoutOrConnectionError(err)) {
      req.log.warn({ err }, 'database unavailable or query timed out');
      return sendError(reply, unavailable());
    }
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Errors of the HTTP layer itself (malformed URL, oversized body): a plain message, nothing internal.
      return reply
        .code(status)
        .send(JSON.stringify({ error: status === 413 ? 'payload too large' : 'bad request' }));
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, errors.internal(String(req.id)));
  });

  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'OPTIONS') return preflight(reply);
    return sendError(reply, errors.unknownEndpoint());
  });

  const preflight = (reply: import('fastify').FastifyReply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, OPTIONS')
      .header('access-control-allow-headers', 'Authorization, Content-Type')
      .header('access-control-max-age', '86400')
      .removeHeader('content-type')
      .send();

  const register = (
    path: string,
    handler: (
      req: FastifyRequest,
    ) => Promise<{ status?: number; body: string; headers?: Record<string, string> }>,
  ) => {
    app.route({
      method: [...ALL_METHODS],
      url: path,
      handler: async (req, reply) => {
        if (req.method === 'OPTIONS') return preflight(reply);
        if (req.method !== 'GET') return sendError(reply, errors.methodNotAllowed());
        const out = await handler(req);
        for (const [k, v] of Object.entries(out.headers ?? {})) reply.header(k, v);
        return reply.code(out.status ?? 200).send(out.body);
      },
    });
  };

  for (const route of routes) {
    register(route.path, async (req) => {
      const qs = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const query = parseQueryString(qs);
      const headers: Record<string, string> = {};
      if (route.auth) {
        const owner = await authenticator.authenticate(extractKey(req.headers.authorization, query));
        if (limiter) Object.assign(headers, rateLimitHeaders(await limiter.take(owner)));
      }
      try {
        const out = await route.run(ctx, query, req);
        return { ...out, headers };
      } catch (err) {
        // Errors after authentication still carry the rate-limit headers.
        const known =
          err instanceof ApiError ? err : isTimeoutOrConnectionError(err) ? unavailable() : undefined;
        if (known) throw new ApiError(known.status, known.body, { ...headers, ...known.headers });
        throw err;
      }
    });
  }

  // Generated from the routes and the registry of this very process, once.
  const openapi = JSON.stringify(buildOpenApi(routes, ctx.version));
  register('/openapi.json', async () => ({ body: openapi }));
  registerDocs(app);

  await app.ready();
  return {
    fastify: app,
    authenticator,
    async close() {
      await app.close();
      await authenticator.close();
      await limiter?.close();
    },
  };
}
