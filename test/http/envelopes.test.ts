// A job page's body is made once: a kept page is answered again with the envelope its key fixes.
import { describe, expect, it } from 'vitest';
import { jobSearchBody } from '../../src/http/envelopes.ts';
import type { SearchPage } from '../../src/search/page-cache.ts';

const items = Buffer.from('[{"id":"a","title":"Ä"}]');

describe('jobSearchBody', () => {
  it('writes the envelope around the items, with offset and cursor as the page was paged', () => {
    const byOffset: SearchPage = { data: Buffer.from(items), total: 7, nextCursor: 'c1' };
    expect(JSON.parse(jobSearchBody(byOffset, 1, 3, false).toString())).toEqual({
      data: [{ id: 'a', title: 'Ä' }],
      total: 7,
      limit: 1,
      offset: 3,
      next_cursor: 'c1',
    });
    const byCursor: SearchPage = { data: Buffer.from(items), total: 7, nextCursor: null, byCursor: true };
    expect(JSON.parse(jobSearchBody(byCursor, 1, 0, false).toString())).toEqual({
      data: [{ id: 'a', title: 'Ä' }],
      total: 7,
      limit: 1,
      next_cursor: null,
    });
    const collapsed: SearchPage = { data: Buffer.from(items), total: 2 };
    expect(JSON.parse(jobSearchBody(collapsed, 5, 0, true).toString())).toEqual({
      data: [{ id: 'a', title: 'Ä' }],
      total: 2,
      limit: 5,
      offset: 0,
      collapsed: true,
    });
  });

  it('answers a page again with the same bytes, its items then a view of them', () => {
    const page: SearchPage = { data: Buffer.from(items), total: 1, nextCursor: null };
    const first = jobSearchBody(page, 20, 0, false);
    const again = jobSearchBody(page, 20, 0, false);
    expect(again).toBe(first);
    expect(page.data.equals(items)).toBe(true);
    expect(page.data.buffer).toBe(first.buffer);
  });
});
