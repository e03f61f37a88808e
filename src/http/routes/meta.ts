// /v1/meta and /v1/health.
import { liveStats } from '../../db/stats.ts';
import { limiterHealth } from '../../limiter/limiter.ts';
import { type Route, route } from './types.ts';

export const metaRoutes: Route[] = [
  route({
    path: '/v1/meta',
    params: 'ignore',
    auth: true,
    summary: 'Dataset metadata',
    tag: 'Dataset',
    response: 'Meta',
    statuses: [401, 429, 500, 503],
    async handle(ctx) {
      const stats = await liveStats(ctx.db.read);
      const body = {
        jobs: stats.jobs,
        companies: stats.companies,
        newest: stats.newest,
        sources: Object.fromEntries(stats.sources),
        coverage_pct: stats.coverage,
        full_text_search: ctx.fullTextSearch,
        version: ctx.version,
      };
      return { body: JSON.stringify(body) };
    },
  }),
  route({
    path: '/v1/health',
    params: 'ignore',
    auth: false,
    summary: 'Liveness',
    tag: 'Dataset',
    response: 'Health',
    statuses: [503],
    async handle(ctx) {
      // A limiter store that is away does not make the service unavailable (it fails open); it is reported.
      const limiter = ctx.limiter ? { limiter: await limiterHealth(ctx.limiter) } : {};
      try {
        const stats = await liveStats(ctx.db.read);
        return { body: JSON.stringify({ status: 'ok', jobs: stats.jobs, ...limiter }) };
      } catch {
        return { status: 503, body: JSON.stringify({ status: 'unavailable', jobs: null, ...limiter }) };
      }
    },
  }),
];
