// /v1/sources: freshness per source (/v1/meta keeps the keys the spec fixes).
import { sourceFreshness } from '../../search/sources.ts';
import { type Route, route } from './types.ts';

export const sourceRoutes: Route[] = [
  route({
    path: '/v1/sources',
    params: 'sources',
    auth: true,
    summary: 'Freshness per source',
    response: 'SourcesResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx) {
      return { body: JSON.stringify({ data: await sourceFreshness(ctx.db.read) }) };
    },
  }),
];
