// /v1/jobs/{id}/history: a job's life — first and last seen, why it left, its versions and its copies.
import { errors } from '../../errors.ts';
import { jobHistory } from '../../search/history.ts';
import { type Route, route } from './types.ts';

export const historyRoutes: Route[] = [
  route({
    path: '/v1/jobs/:id/history',
    params: 'history',
    auth: true,
    summary: 'History of one job',
    response: 'JobHistory',
    statuses: [400, 401, 404, 429, 500, 503],
    async handle(ctx, _params, req) {
      const id = (req.params as { id: string }).id;
      const history = await jobHistory(ctx.db.read, id);
      if (history === undefined) throw errors.notFound();
      return { body: JSON.stringify(history) };
    },
  }),
];
