// /v1/companies and /v1/companies/{slug}.
import { errors } from '../../errors.ts';
import { getCompany, searchCompanies } from '../../search/companies.ts';
import { companySearchBody } from '../envelopes.ts';
import { type Route, route } from './types.ts';

export const companyRoutes: Route[] = [
  route({
    path: '/v1/companies',
    params: 'companies',
    auth: true,
    summary: 'Search companies',
    tag: 'Companies',
    response: 'CompanySearchResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const { limit = 50, offset = 0, ...filters } = params;
      const search = {
        pool: ctx.db.read,
        pages: ctx.pages,
        // Read with the key on the primary; a replica's own version is read where it is searched.
        version: ctx.db.readIsPrimary ? ctx.dataVersion : undefined,
      };
      return {
        body: companySearchBody(await searchCompanies(search, filters, limit, offset), limit, offset),
      };
    },
  }),
  route({
    path: '/v1/companies/:slug',
    params: 'company',
    auth: true,
    summary: 'One company by slug',
    tag: 'Companies',
    response: 'Company',
    statuses: [400, 401, 404, 429, 500, 503],
    async handle(ctx, _params, req) {
      const body = await getCompany(ctx.db.read, (req.params as { slug: string }).slug);
      if (body === undefined) throw errors.notFound();
      return { body };
    },
  }),
];
