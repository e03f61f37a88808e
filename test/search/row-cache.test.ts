// The rendered rows of the match index's pages (src/search/row-cache.ts): kept at the newest version only,
// by id and description format, within their bound.
import { describe, expect, it } from 'vitest';
import { RowCache } from '../../src/search/row-cache.ts';

const json = (n: number) => `{"id":"${'x'.repeat(n)}"}`;

describe('the row cache', () => {
  it('answers a row at the version it was read at only, and forgets every row at a newer one', () => {
    const c = new RowCache(1 << 20);
    c.put(7, 'none', 'a', json(10), 'p');
    expect(c.get(7, 'none', 'a')?.json.toString()).toBe(json(10));
    expect(c.get(7, 'text', 'a')).toBeUndefined();
    expect(c.get(6, 'none', 'a')).toBeUndefined();
    expect(c.get(8, 'none', 'a')).toBeUndefined();
    // A row read at an older version (a request in flight over a commit) is returned, not kept.
    expect(c.put(6, 'none', 'b', json(3), 'q').json.toString()).toBe(json(3));
    expect(c.get(7, 'none', 'b')).toBeUndefined();
    c.put(8, 'none', 'b', json(3), 'q');
    expect(c.get(8, 'none', 'b')?.pos).toBe('q');
    expect(c.get(8, 'none', 'a')).toBeUndefined();
    expect(c.get(7, 'none', 'a')).toBeUndefined();
    expect({ hits: c.hits, misses: c.misses }).toEqual({ hits: 2, misses: 6 });
  });

  it('stays within its bytes, the least recently used row going first', () => {
    const c = new RowCache(4000);
    for (const id of ['a', 'b', 'c']) c.put(1, 'none', id, json(1000), 'p');
    // a is used: b is now the oldest.
    expect(c.get(1, 'none', 'a')).toBeDefined();
    c.put(1, 'none', 'd', json(1000), 'p');
    expect(c.size).toBeLessThanOrEqual(4000);
    expect(c.get(1, 'none', 'b')).toBeUndefined();
    for (const id of ['a', 'c', 'd']) expect(c.get(1, 'none', id), id).toBeDefined();
    // Put again: counted once.
    const before = c.size;
    c.put(1, 'none', 'd', json(1000), 'p');
    expect(c.size).toBe(before);
  });

  it('keeps each row in a buffer of its own, not a slice of a shared pool', () => {
    const c = new RowCache(1 << 20);
    const row = c.put(1, 'none', 'a', json(10), 'p');
    expect(row.json.byteOffset).toBe(0);
    expect(row.json.buffer.byteLength).toBe(row.json.length);
  });
});
