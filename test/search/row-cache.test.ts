// The rendered rows of the match index's pages (src/search/row-cache.ts): kept per data version, by
// description format and id, in slabs of a fixed size dropped oldest first.
import { describe, expect, it } from 'vitest';
import { RowCache, rowKey } from '../../src/search/row-cache.ts';

const json = (id: number, pad = 0) => `{"id":"${id}","t":"${'x'.repeat(pad)}é"}`;

describe('the row cache', () => {
  it('answers a row at the version it was read at, in its format only; a newer read replaces it', () => {
    const c = new RowCache(1 << 20);
    expect(c.put(7, rowKey('none', 'a'), '{"id":"a"}', 'p').json.toString()).toBe('{"id":"a"}');
    expect(c.get(7, rowKey('none', 'a'))?.json.toString()).toBe('{"id":"a"}');
    expect(c.get(7, rowKey('none', 'a'))?.pos).toBe('p');
    expect(c.get(7, rowKey('text', 'a'))).toBeUndefined();
    expect(c.get(8, rowKey('none', 'a'))).toBeUndefined();
    c.put(8, rowKey('none', 'a'), '{"id":"a","title":"new"}', 'q');
    expect(c.get(8, rowKey('none', 'a'))?.json.toString()).toBe('{"id":"a","title":"new"}');
    expect(c.get(7, rowKey('none', 'a'))).toBeUndefined();
    // A read at an older version (a request still at it) does not replace the newer row.
    expect(c.put(7, rowKey('none', 'a'), '{"id":"a"}', 'p').json.toString()).toBe('{"id":"a"}');
    expect(c.get(8, rowKey('none', 'a'))?.json.toString()).toBe('{"id":"a","title":"new"}');
    expect([c.hits, c.misses]).toEqual([4, 3]);
  });

  it('holds no more than its bound, dropping the oldest rows first, and every row it answers is intact', () => {
    const c = new RowCache(1 << 17); // slabs of 16 kB, eight of them
    for (let i = 0; i < 2000; i++) c.put(1, rowKey('none', String(i)), json(i, i % 300), 'p');
    expect(c.size).toBeLessThanOrEqual(1 << 17);
    expect(c.size).toBeGreaterThan(1 << 16);
    const kept = [...Array(2000).keys()].filter((i) => c.get(1, rowKey('none', String(i))));
    // The newest rows stay (about 128 kB of rows of ~170 bytes), the oldest went.
    expect(kept.length).toBeGreaterThan(500);
    expect(kept.length).toBeLessThan(900);
    expect(kept).toContain(1999);
    expect(kept).not.toContain(0);
    for (const i of kept) expect(c.get(1, rowKey('none', String(i)))?.json.toString()).toBe(json(i, i % 300));
  });

  it('keeps a row that is asked for while newer rows push older ones out', () => {
    const c = new RowCache(1 << 17);
    c.put(1, rowKey('none', 'hot'), json(-1), 'p');
    for (let i = 0; i < 20_000; i++) {
      c.put(1, rowKey('none', String(i)), json(i, 100), 'p');
      if (i % 50 === 0) expect(c.get(1, rowKey('none', 'hot'))?.json.toString()).toBe(json(-1));
    }
    expect(c.get(1, rowKey('none', '0'))).toBeUndefined();
  });

  it('a row handed out stays intact after its slab is dropped', () => {
    const c = new RowCache(1 << 17);
    const row = c.put(1, rowKey('none', 'a'), json(0, 50), 'p');
    for (let i = 1; i < 5000; i++) c.put(1, rowKey('none', String(i)), json(i, 100), 'p');
    expect(c.get(1, rowKey('none', 'a'))).toBeUndefined();
    expect(row.json.toString()).toBe(json(0, 50));
  });

  it('does not keep a row larger than a quarter of a slab, and still returns it', () => {
    const c = new RowCache(1 << 17);
    const big = json(1, 5000);
    expect(c.put(1, rowKey('none', 'big'), big, 'p').json.toString()).toBe(big);
    expect(c.get(1, rowKey('none', 'big'))).toBeUndefined();
    expect(c.size).toBe(0);
  });
});
