// /v1/companies and /v1/companies/{slug}.
import { errors } from '../../errors.ts';
import { type CompanyFilters, getCompany, searchCompanies } from '../../search/companies.ts';
import type { RouteDef } from './types.ts';

export const companyRoutes: RouteDef[] = [
  {
    path: '/v1/companies',
    params: 'companies',
    auth: true,
    summary: 'Search companies',
    response: 'CompanySearchResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const {
        limit = 50,
        offset = 0,
        ...filters
      } = params as CompanyFilters & { limit?: number; offset?: number };
      return { body: await searchCompanies(ctx.db.read, filters, limit, offset) };
    },
  },
  {
    path: '/v1/companies/:slug',
    params: 'company',
    auth: true,
    summary: 'One company by slug',
    response: 'Company',
    statuses: [400, 401, 404, 429, 500, 503],
    async handle(ctx, _params, req) {
      const body = await getCompany(ctx.db.read, (req.params as { slug: string }).slug);
      if (body === undefined) throw errors.notFound();
      return { body };
    },
  },
];
