// /v1/jobs, /v1/jobs/count and /v1/jobs/{id}.
import { errors } from '../../errors.ts';
import type { JobFilters } from '../../search/filters.ts';
import { countJobs, getJob, type SearchContext, searchJobs } from '../../search/jobs.ts';
import { countBody, jobSearchBody } from '../envelopes.ts';
import type { EndpointParams } from '../params/registry.ts';
import { type AppContext, type Route, route } from './types.ts';

/** The filters of a search or count: every parameter but paging and output, typed by the registry. */
export function filtersOf(ctx: AppContext, params: EndpointParams<'jobs'>): JobFilters {
  if (!ctx.fullTextSearch) {
    for (const name of ['title_advanced', 'description_advanced'] as const) {
      if (params[name] !== undefined) {
        throw errors.invalidParam(
          name,
          'full-text search is not available on this deployment (see full_text_search in /v1/meta)',
        );
      }
    }
  }
  // What is not paging or output is a filter; the registry's types must fit JobFilters, or this fails to compile.
  const { collapse, description_format, limit, offset, cursor, time_frame, ...filters } = params;
  // A window relative to the clock is anchored once, at the request's arrival: every statement of the
  // request and the match index then read the same instant.
  return time_frame ? { ...filters, time_frame: { ...time_frame, at: Date.now() } } : filters;
}

export const searchContext = (ctx: AppContext): SearchContext => ({
  pool: ctx.db.read,
  cursorSecret: ctx.cursorSecret,
  totals: ctx.totals,
  pages: ctx.pages,
  match: ctx.match,
  rows: ctx.rows,
  // Read with the key on the primary; a replica's own version is read where it is searched.
  version: ctx.db.readIsPrimary ? ctx.dataVersion : undefined,
});

export const jobRoutes: Route[] = [
  route({
    path: '/v1/jobs',
    params: 'jobs',
    auth: true,
    summary: 'Search jobs',
    tag: 'Jobs',
    response: 'JobSearchResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const collapse = params.collapse !== undefined;
      if (collapse && params.cursor !== undefined) {
        throw errors.invalidParam('cursor', 'collapsed results have no cursor; page with offset');
      }
      const limit = params.limit ?? 50;
      const offset = params.offset ?? 0;
      const page = await searchJobs(searchContext(ctx), {
        filters: filtersOf(ctx, params),
        descriptionFormat: params.description_format,
        collapse,
        limit,
        offset,
        cursor: params.cursor,
      });
      return { body: jobSearchBody(page, limit, offset, collapse) };
    },
  }),
  route({
    path: '/v1/jobs/count',
    params: 'count',
    auth: true,
    summary: 'Count matching jobs',
    tag: 'Jobs',
    response: 'CountResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const n = await countJobs(searchContext(ctx), filtersOf(ctx, params), params.collapse !== undefined);
      return { body: countBody(n) };
    },
  }),
  route({
    path: '/v1/jobs/:id',
    params: 'job',
    auth: true,
    summary: 'One job by id',
    tag: 'Jobs',
    response: 'Job',
    statuses: [400, 401, 404, 429, 500, 503],
    async handle(ctx, params, req) {
      const id = (req.params as { id: string }).id;
      const body = await getJob(searchContext(ctx), id, params.description_format);
      if (body === undefined) throw errors.notFound();
      return { body };
    },
  }),
];
