// The three sync feeds: /v1/jobs/feed, /v1/jobs/modified, /v1/jobs/expired.
import { readFeedPage } from '../../search/feed-pages.ts';
import type { FeedRequest } from '../../search/feeds.ts';
import { feedBody } from '../envelopes.ts';
import type { Window } from '../params/codecs.ts';
import { type AppContext, type Route, route } from './types.ts';

const DEFAULT_WINDOW: Window = { text: '24h', ms: 86_400_000 };

/** Where a feed's window starts: the absolute start when given (it wins over `since`), else `since` ago. */
const windowStart = (instant: string | undefined, since: Window = DEFAULT_WINDOW) =>
  instant ? { instant } : { ms: since.ms };

/**
 * A page of a feed, kept or read ahead when possible; the data version pages are kept and read ahead
 * under is known only when reads go to the primary.
 */
const feedPage = (ctx: AppContext, req: FeedRequest) =>
  readFeedPage(
    ctx.db.read,
    ctx.cursorSecret,
    req,
    ctx.db.readIsPrimary ? ctx.dataVersion : undefined,
    ctx.feedPages,
  );

export const feedRoutes: Route[] = [
  route({
    path: '/v1/jobs/feed',
    params: 'feed',
    auth: true,
    summary: 'Newly indexed jobs, oldest first',
    tag: 'Feeds',
    response: 'FeedResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const since = params.since ?? DEFAULT_WINDOW;
      const instant = params.created_gte;
      const page = await feedPage(ctx, {
        kind: 'feed',
        start: windowStart(instant, since),
        limit: params.limit ?? 200,
        cursor: params.cursor,
        descriptionFormat: params.description_format,
      });
      // The feed echoes the window it applied: the absolute start when given, else the relative window.
      return { body: feedBody(page, instant ?? since.text) };
    },
  }),
  route({
    path: '/v1/jobs/modified',
    params: 'modified',
    auth: true,
    summary: 'Jobs with changed tracked fields',
    tag: 'Feeds',
    response: 'ModifiedResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const instant = params.modified_gte;
      const page = await feedPage(ctx, {
        kind: 'modified',
        start: windowStart(instant, params.since),
        limit: params.limit ?? 200,
        cursor: params.cursor,
        descriptionFormat: params.description_format,
      });
      return { body: feedBody(page) };
    },
  }),
  route({
    path: '/v1/jobs/expired',
    params: 'expired',
    auth: true,
    summary: 'Ids of jobs expired within a window',
    tag: 'Feeds',
    response: 'ExpiredResponse',
    statuses: [400, 401, 429, 500, 503],
    async handle(ctx, params) {
      const instant = params.expired_gte;
      const page = await feedPage(ctx, {
        kind: 'expired',
        start: windowStart(instant, params.since),
        limit: params.limit ?? 1000,
        cursor: params.cursor,
      });
      return { body: feedBody(page) };
    },
  }),
];
