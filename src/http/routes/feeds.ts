// The three sync feeds: /v1/jobs/feed, /v1/jobs/modified, /v1/jobs/expired.
import { feedBody, type FeedKind, readFeed } from '../../search/feeds.ts';
import type { DescriptionFormat } from '../../search/render.ts';
import type { Window } from '../params/codecs.ts';
import type { AppContext, RouteDef } from './types.ts';

const DEFAULT_WINDOW: Window = { text: '24h', ms: 86_400_000 };

function feedRoute(
  kind: FeedKind,
  path: string,
  startParam: string,
  defaultLimit: number,
  summary: string,
  response: string,
): RouteDef {
  return {
    path,
    params: kind,
    auth: true,
    summary,
    response,
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx: AppContext, params) {
      const instant = params[startParam] as string | undefined;
      const since = (params.since as Window | undefined) ?? DEFAULT_WINDOW;
      const page = await readFeed(ctx.db.read, ctx.cursorSecret, {
        kind,
        start: instant ? { instant } : { ms: since.ms },
        limit: (params.limit as number | undefined) ?? defaultLimit,
        cursor: params.cursor as string | undefined,
        descriptionFormat: params.description_format as DescriptionFormat,
      });
      // The feed echoes the window it applied: the absolute start when given, else the relative window.
      const echo = kind === 'feed' ? `"since":${JSON.stringify(instant ?? since.text)},` : '';
      return { body: feedBody(page, echo) };
    },
  };
}

export const feedRoutes: RouteDef[] = [
  feedRoute('feed', '/v1/jobs/feed', 'created_gte', 200, 'Newly indexed jobs, oldest first', 'FeedResponse'),
  feedRoute(
    'modified',
    '/v1/jobs/modified',
    'modified_gte',
    200,
    'Jobs with changed tracked fields',
    'ModifiedResponse',
  ),
  feedRoute(
    'expired',
    '/v1/jobs/expired',
    'expired_gte',
    1000,
    'Ids of jobs expired within a window',
    'ExpiredResponse',
  ),
];
