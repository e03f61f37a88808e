// Analytics over the jobs a search matches: /v1/jobs/facets, /v1/jobs/salary, /v1/jobs/trends. The
// filters are those of /v1/jobs (the same registry entries, the same population), compiled once.
import { errors } from '../../errors.ts';
import { facetDimension } from '../../search/dimensions.ts';
import { computeFacets, facetsFromIndex } from '../../search/facets.ts';
import { compileFilters } from '../../search/filters.ts';
import { salaryDistribution, salaryFromIndex } from '../../search/salary-stats.ts';
import { trendWithIndex } from '../../search/trends.ts';
import { filtersOf, searchContext } from './jobs.ts';
import { type Route, route } from './types.ts';

const DAY_MS = 86_400_000;
const MAX_WINDOW_DAYS = 365;
const DEFAULT_WINDOW_DAYS = 90;

export const analyticsRoutes: Route[] = [
  route({
    path: '/v1/jobs/facets',
    params: 'facets',
    auth: true,
    tag: 'Analytics',
    summary: 'Facet counts of matching jobs',
    response: 'FacetsResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const { facets, facet_limit, collapse, ...rest } = params;
      const filters = filtersOf(ctx, rest);
      // Required and checked against the names by the registry.
      const dims = facets!.map((name) => facetDimension(name)!);
      const limit = facet_limit ?? 10;
      const data =
        (await facetsFromIndex(searchContext(ctx), filters, dims, limit, collapse !== undefined)) ||
        (await computeFacets(
          ctx.db.read,
          { where: compileFilters(filters), collapse: collapse !== undefined, limit },
          dims,
        ));
      return { body: JSON.stringify(data) };
    },
  }),
  route({
    path: '/v1/jobs/salary',
    params: 'salary',
    auth: true,
    tag: 'Analytics',
    summary: 'Salary distribution of matching jobs',
    response: 'SalaryResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const { salary_buckets, ...rest } = params;
      const filters = filtersOf(ctx, rest);
      const data =
        (await salaryFromIndex(searchContext(ctx), filters, salary_buckets)) ||
        (await salaryDistribution(ctx.db.read, compileFilters(filters), salary_buckets));
      return { body: JSON.stringify(data) };
    },
  }),
  route({
    path: '/v1/jobs/trends',
    params: 'trends',
    auth: true,
    tag: 'Analytics',
    summary: 'Added, expired and live jobs over time',
    response: 'TrendsResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const { since, until, interval = 'day', ...rest } = params;
      const end = until === undefined ? Date.now() : Date.parse(until);
      const start = since === undefined ? end - DEFAULT_WINDOW_DAYS * DAY_MS : Date.parse(since);
      if (start >= end) throw errors.invalidParam('since', 'must be before until');
      if (end - start > MAX_WINDOW_DAYS * DAY_MS)
        throw errors.invalidParam(
          since === undefined ? 'until' : 'since',
          `the window is at most ${MAX_WINDOW_DAYS} days`,
        );
      const filters = filtersOf(ctx, rest);
      const series = await trendWithIndex(searchContext(ctx), filters, {
        where: compileFilters(filters, { anyState: true }),
        interval,
        since: start,
        until: end,
      });
      return {
        body: JSON.stringify({
          interval,
          since: new Date(start).toISOString(),
          until: new Date(end).toISOString(),
          series,
        }),
      };
    },
  }),
];
