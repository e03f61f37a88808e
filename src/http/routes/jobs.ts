// /v1/jobs, /v1/jobs/count and /v1/jobs/{id}.
import { errors } from '../../errors.ts';
import type { JobFilters } from '../../search/filters.ts';
import { countJobs, getJob, searchJobs } from '../../search/jobs.ts';
import type { DescriptionFormat } from '../../search/render.ts';
import { jobFilterParams } from '../params/registry.ts';
import type { AppContext, RouteDef } from './types.ts';

const FILTER_NAMES = new Set(jobFilterParams.map((p) => p.name));

function filtersOf(ctx: AppContext, params: Record<string, unknown>): JobFilters {
  if (!ctx.fullTextSearch) {
    for (const name of ['title_advanced', 'description_advanced']) {
      if (params[name] !== undefined) {
        throw errors.invalidParam(
          name,
          'full-text search is not available on this deployment (see full_text_search in /v1/meta)',
        );
      }
    }
  }
  const f: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (FILTER_NAMES.has(k)) f[k] = v;
  return f as JobFilters;
}

export const jobRoutes: RouteDef[] = [
  {
    path: '/v1/jobs',
    params: 'jobs',
    auth: true,
    summary: 'Search jobs',
    response: 'JobSearchResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      if (params.collapse !== undefined && params.cursor !== undefined) {
        throw errors.invalidParam('cursor', 'collapsed results have no cursor; page with offset');
      }
      const body = await searchJobs(
        { pool: ctx.db.read, cursorSecret: ctx.cursorSecret, totals: ctx.totals },
        {
          filters: filtersOf(ctx, params),
          descriptionFormat: params.description_format as DescriptionFormat,
          collapse: params.collapse !== undefined,
          limit: (params.limit as number | undefined) ?? 50,
          offset: (params.offset as number | undefined) ?? 0,
          cursor: params.cursor as string | undefined,
        },
      );
      return { body };
    },
  },
  {
    path: '/v1/jobs/count',
    params: 'count',
    auth: true,
    summary: 'Count matching jobs',
    response: 'CountResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const n = await countJobs(
        { pool: ctx.db.read, cursorSecret: ctx.cursorSecret, totals: ctx.totals },
        filtersOf(ctx, params),
        params.collapse !== undefined,
      );
      return { body: `{"count":${n}}` };
    },
  },
  {
    path: '/v1/jobs/:id',
    params: 'job',
    auth: true,
    summary: 'One job by id',
    response: 'Job',
    statuses: [400, 401, 404, 429, 500, 503],
    async handle(ctx, params, req) {
      const id = (req.params as { id: string }).id;
      const body = await getJob(
        { pool: ctx.db.read, cursorSecret: ctx.cursorSecret, totals: ctx.totals },
        id,
        params.description_format as DescriptionFormat,
      );
      if (body === undefined) throw errors.notFound();
      return { body };
    },
  },
];
