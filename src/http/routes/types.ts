// A route: its path, parameter list, whether it needs a key, and a handler returning JSON text.
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/pool.ts';
import type { TotalsCache } from '../../search/totals.ts';
import type { Limiter } from '../../limiter/limits.ts';
import type { Endpoint } from '../params/registry.ts';

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
}

export interface Reply {
  status?: number;
  body: string;
}

export interface RouteDef {
  path: string;
  /** Parameter list; `ignore` means parameters are accepted and ignored (meta, health). */
  params: Endpoint | 'ignore';
  auth: boolean;
  summary: string;
  /** OpenAPI schema name of the 200 body. */
  response: string;
  /** Extra documented statuses besides 200. */
  statuses: number[];
  handle(ctx: AppContext, params: Record<string, unknown>, req: FastifyRequest): Promise<Reply>;
}
