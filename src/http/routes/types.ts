// A route: its path, parameter list, whether it needs a key, and a handler returning JSON text.
import type { RowCache } from '../../search/row-cache.ts';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/pool.ts';
import type { FeedPage } from '../../search/feeds.ts';
import type { PageCache, SearchPage } from '../../search/page-cache.ts';
import type { TotalsCache } from '../../search/totals.ts';
import type { MatchSource } from '../../search/match.ts';
import type { Limiter } from '../../limiter/limits.ts';
import { type Endpoint, type EndpointParams, parseParams, type RawQuery } from '../params/registry.ts';

export interface AppContext {
  db: Db;
  config: Config;
  cursorSecret: string;
  version: string;
  fullTextSearch: boolean;
  /** Set by buildApp when the service limits requests (health reports its store). */
  limiter?: Limiter;
  /** Set by buildApp: exact totals cached per data version. */
  totals?: TotalsCache;
  /** Set by buildApp: search pages (jobs and companies) kept per data version (none when PAGE_CACHE_MB is 0). */
  pages?: PageCache<SearchPage>;
  /** Set by buildApp: feed pages kept per data version (none when PAGE_CACHE_MB is 0). */
  feedPages?: PageCache<FeedPage>;
  /** Set by buildApp: rendered rows of the match index's pages per data version (none when ROW_CACHE_MB is 0). */
  rows?: RowCache;
  /** The in-memory match index (set by buildApp in a worker, or given by the process that holds it). */
  match?: MatchSource;
  /** Set per authenticated request: the data version read with the key, on the primary. */
  dataVersion?: number;
}

export interface Reply {
  status?: number;
  /** JSON text, or its UTF-8 bytes when they were never decoded (the feeds). */
  body: string | Buffer;
}

/** An endpoint's parameter list, or `ignore`: parameters are accepted and ignored (meta, health). */
type ParamList = Endpoint | 'ignore';
type ParamsFor<E extends ParamList> = E extends Endpoint ? EndpointParams<E> : Record<string, never>;

/** The group a route is listed under in /openapi.json and /docs; each is described in openapi.ts (TAGS). */
export type Tag = 'Jobs' | 'Feeds' | 'Companies' | 'Analytics' | 'Dataset';

export interface RouteDef<E extends ParamList = ParamList> {
  path: string;
  params: E;
  auth: boolean;
  summary: string;
  tag: Tag;
  /** OpenAPI schema name of the 200 body. */
  response: string;
  /** Extra documented statuses besides 200. */
  statuses: number[];
  handle(ctx: AppContext, params: ParamsFor<E>, req: FastifyRequest): Promise<Reply>;
}

/**
 * A route as the app registers it: it validates its own query into its typed parameters; `admit` sees
 * them before the handler runs, which waits for it (the expensive-work gate).
 */
export interface Route extends Omit<RouteDef, 'handle'> {
  run(
    ctx: AppContext,
    query: RawQuery,
    req: FastifyRequest,
    admit?: (params: Readonly<Record<string, unknown>>) => Promise<void>,
  ): Promise<Reply>;
}

export function route<E extends ParamList>(def: RouteDef<E>): Route {
  const { handle, ...rest } = def;
  return {
    ...rest,
    run: async (ctx, query, req, admit) => {
      // `E` is one list: an ignored list parses to nothing, any other to its own typed parameters.
      const params = (
        def.params === 'ignore' ? {} : parseParams(def.params as Endpoint, query)
      ) as ParamsFor<E>;
      await admit?.(params);
      return handle(ctx, params, req);
    },
  };
}
