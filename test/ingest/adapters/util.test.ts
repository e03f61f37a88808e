import { describe, expect, it } from 'vitest';
import {
  amount,
  employmentTypes,
  mapItems,
  relativePosted,
  toIsoUtc,
} from '../../../src/ingest/adapters/util.ts';

describe('adapter helpers', () => {
  it('dates: epoch millis and seconds, offsets with and without colon, "UTC" suffix, bare dates', () => {
    expect(toIsoUtc(1779962165000)).toBe('2026-05-28T09:56:05.000Z');
    expect(toIsoUtc('1779962165')).toBe('2026-05-28T09:56:05.000Z');
    expect(toIsoUtc('2026-05-28 20:36:05 UTC')).toBe('2026-05-28T20:36:05.000Z');
    expect(toIsoUtc('2016-05-31T12:14:07+0200')).toBe('2016-05-31T10:14:07.000Z');
    expect(toIsoUtc('2026-05-20T10:15:00-04:00')).toBe('2026-05-20T14:15:00.000Z');
    expect(toIsoUtc('2026-05-19')).toBe('2026-05-19T00:00:00.000Z');
    expect(toIsoUtc('2026-05-19T08:00:00')).toBe('2026-05-19T08:00:00.000Z');
    expect(toIsoUtc('soon')).toBeUndefined();
    expect(toIsoUtc(null)).toBeUndefined();
  });

  it('Workday relative dates count whole UTC days back from now', () => {
    const now = new Date('2026-06-01T23:30:00Z');
    expect(relativePosted('Posted Today', now)).toBe('2026-06-01T00:00:00.000Z');
    expect(relativePosted('Posted Yesterday', now)).toBe('2026-05-31T00:00:00.000Z');
    expect(relativePosted('Posted 3 Days Ago', now)).toBe('2026-05-29T00:00:00.000Z');
    expect(relativePosted('Posted 30+ Days Ago', now)).toBe('2026-05-02T00:00:00.000Z');
    expect(relativePosted('Recently', now)).toBeUndefined();
  });

  it('employment types from the labels sources use', () => {
    expect(employmentTypes('Full-time')).toEqual(['FULL_TIME']);
    expect(employmentTypes('FullTime')).toEqual(['FULL_TIME']);
    expect(employmentTypes('fulltime_permanent')).toEqual(['FULL_TIME']);
    expect(employmentTypes('fulltime_fixed_term')).toEqual(['FULL_TIME', 'TEMPORARY']);
    expect(employmentTypes(['PART_TIME', 'Contract'])).toEqual(['PART_TIME', 'CONTRACTOR']);
    expect(employmentTypes('Internship')).toEqual(['INTERN']);
    expect(employmentTypes('Per Diem')).toEqual(['PER_DIEM']);
    expect(employmentTypes('Volunteer')).toEqual(['VOLUNTEER']);
    expect(employmentTypes('Internal mobility')).toEqual(['OTHER']);
    expect(employmentTypes('permanent')).toBeUndefined();
    expect(employmentTypes('')).toBeUndefined();
  });

  it('amounts from numbers and strings', () => {
    expect(amount('4200')).toBe(4200);
    expect(amount('120,000')).toBe(120000);
    expect(amount('120.000')).toBe(120000);
    expect(amount('17,50')).toBe(17.5);
    expect(amount('€55k')).toBe(55000);
    expect(amount('n/a')).toBeUndefined();
  });

  it('rows of one posting in one payload merge: the first row, with the places of every row', () => {
    const rows = [
      { id: 'A', country: 'Spain' },
      { id: 'B', country: 'France' },
      { id: 'A', country: 'Portugal' },
    ];
    const res = mapItems(
      rows,
      (r) => String((r as { id: string }).id),
      (r, id) => ({
        id: `x:${id}`,
        source: 'x',
        title: `Job ${id} (${r.country})`,
        company: { name: 'X' },
        url: `https://x.example/${id}`,
        location: { raw: [String(r.country)], countries: [String(r.country)] },
      }),
    );
    expect(res.rejected).toEqual([]);
    expect(res.postings.map((p) => [p.id, p.title, p.location?.countries])).toEqual([
      ['x:A', 'Job A (Spain)', ['Spain', 'Portugal']],
      ['x:B', 'Job B (France)', ['France']],
    ]);
  });
});
