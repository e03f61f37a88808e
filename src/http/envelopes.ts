// The response envelopes of the list endpoints, around the JSON that search/ returns. Bodies are
// stitched as text: the jobs and companies are stored JSON already.
import type { FeedPage } from '../search/feeds.ts';
import type { SearchPage } from '../search/page-cache.ts';
import { framed } from '../search/render.ts';

/**
 * /v1/jobs: `offset` only when paging by offset; collapsed pages have `collapsed` and no cursor. The body
 * is made once per page: a kept page is answered again with the same `limit`, `offset` and `collapse`
 * (its key), and its data becomes a view of the body, so it holds one copy of its items, not two.
 */
export function jobSearchBody(page: SearchPage, limit: number, offset: number, collapsed: boolean): Buffer {
  if (page.body) return page.body;
  const tail = collapsed
    ? `,"offset":${offset},"collapsed":true}`
    : `${page.byCursor ? '' : `,"offset":${offset}`},"next_cursor":${JSON.stringify(page.nextCursor ?? null)}}`;
  const body = framed(DATA, page.data, Buffer.from(`,"total":${page.total},"limit":${limit}${tail}`));
  page.data = body.subarray(DATA.length, DATA.length + page.data.length);
  page.body = body;
  return body;
}

const DATA = Buffer.from('{"data":');

export function countBody(n: number): string {
  return `{"count":${n}}`;
}

export function companySearchBody(page: SearchPage, limit: number, offset: number): Buffer {
  return Buffer.concat([
    DATA,
    page.data,
    Buffer.from(`,"total":${page.total},"limit":${limit},"offset":${offset}}`),
  ]);
}

/** The feeds; `since` is echoed by /v1/jobs/feed only. The items are bytes already (search/feeds.ts). */
export function feedBody(page: FeedPage, since?: string): Buffer {
  const echo = since === undefined ? '' : `"since":${JSON.stringify(since)},`;
  return framed(
    Buffer.from(`{${echo}"count":${page.count},"data":`),
    page.data,
    Buffer.from(`,"next_cursor":${JSON.stringify(page.nextCursor)}}`),
  );
}
