// The rendered rows of the match index's pages (src/search/row-cache.ts): kept per data version, by
// description format and id, each in a buffer of its own.
import { describe, expect, it } from 'vitest';
import { keptRow, rowCache, rowKey } from '../../src/search/row-cache.ts';

describe('the row cache', () => {
  it('answers a row at the version it was read at, in its format only; a newer read replaces it', () => {
    const c = rowCache(1 << 20);
    c.put(7, rowKey('none', 'a'), keptRow('{"id":"a"}', 'p'));
    expect(c.get(7, rowKey('none', 'a'))?.json.toString()).toBe('{"id":"a"}');
    expect(c.get(7, rowKey('text', 'a'))).toBeUndefined();
    expect(c.get(8, rowKey('none', 'a'))).toBeUndefined();
    c.put(8, rowKey('none', 'a'), keptRow('{"id":"a","title":"new"}', 'p'));
    expect(c.get(8, rowKey('none', 'a'))?.json.toString()).toBe('{"id":"a","title":"new"}');
    expect(c.get(7, rowKey('none', 'a'))).toBeUndefined();
  });

  it('keeps each row in a buffer of its own, not a slice of a shared pool', () => {
    const row = keptRow('{"id":"é"}', 'p');
    expect(row.json.toString()).toBe('{"id":"é"}');
    expect(row.json.byteOffset).toBe(0);
    expect(row.json.buffer.byteLength).toBe(row.json.length);
  });
});
