// The read plan pinned: which sources answer a search or a count, in the order tried, for what is known
// before it is answered. A change to the read path's decisions shows here, without PostgreSQL.
import { describe, expect, it } from 'vitest';
import { type Known, planRead } from '../../src/search/plan.ts';

const base: Known = {
  version: 7,
  pages: true,
  totals: true,
  indexHolds: false,
  valueTotal: false,
  likelyFew: true,
};
const search = { clockRelative: false, collapse: false, page: true };
const count = { ...search, page: false };

describe('the read plan', () => {
  it('asks the kept page, then the index, then PostgreSQL, counting a likely few total with its page', () => {
    expect(planRead(search, { ...base, indexHolds: true })).toMatchObject({
      page: ['kept', 'index', 'postgres'],
      total: ['with_page', 'count'],
      keepPage: true,
      snapshot: true,
    });
  });

  it('reads one kept value total instead of counting, and counts alone a shape whose totals are many', () => {
    expect(planRead(search, { ...base, valueTotal: true }).total).toEqual(['value_total', 'count']);
    expect(planRead(search, { ...base, likelyFew: false }).total).toEqual(['count']);
  });

  it('keeps nothing of a window relative to the clock, and reads it without a snapshot', () => {
    const p = planRead({ ...search, clockRelative: true }, { ...base, indexHolds: true });
    expect(p).toMatchObject({
      page: ['index', 'postgres'],
      keepPage: false,
      keepTotal: false,
      snapshot: false,
    });
  });

  it('reads a collapse in one snapshot and counts its groups (no value total, no count with its page)', () => {
    const p = planRead({ ...search, collapse: true }, { ...base, pages: false, valueTotal: true });
    expect(p).toMatchObject({ page: ['postgres'], total: ['count'], snapshot: true });
  });

  it('asks the index with or without totals kept', () => {
    expect(planRead(search, { ...base, totals: false, indexHolds: true }).page).toEqual([
      'kept',
      'index',
      'postgres',
    ]);
  });

  it('counts from the kept total, then the index, then value totals or PostgreSQL', () => {
    expect(planRead(count, { ...base, indexHolds: true }).total).toEqual(['kept', 'index', 'count']);
    expect(planRead(count, { ...base, valueTotal: true }).total).toEqual(['kept', 'value_total', 'count']);
    expect(planRead({ ...count, clockRelative: true }, base).total).toEqual(['count']);
    expect(planRead(count, base).page).toBeUndefined();
  });
});
