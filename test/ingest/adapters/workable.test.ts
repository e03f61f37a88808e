import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { NOW, parseFixture } from './helpers.ts';

describe('workable adapter', () => {
  const res = parseFixture('workable', 'workable/account.json', 'workable', 'workable/larkspur');

  it('maps locations, LinkedIn-style experience, education and dates', () => {
    expect(res.postings[0]).toEqual({
      id: 'workable:A1B2C3D4E5',
      source: 'workable',
      title: 'Data Engineer',
      company: { name: 'Larkspur Analytics' },
      url: 'https://apply.workable.com/j/A1B2C3D4E5',
      apply_url: 'https://apply.workable.com/j/A1B2C3D4E5/apply',
      canonical_url: 'https://apply.workable.com/j/A1B2C3D4E5',
      description_html: '<p>Move clinic data into the warehouse.</p>',
      location: {
        raw: ['Dublin, County Dublin, Ireland', 'Belfast, Northern Ireland, United Kingdom'],
        countries: ['Ireland', 'United Kingdom'],
        cities: ['Dublin', 'Belfast'],
        regions: ['County Dublin', 'Northern Ireland'],
      },
      employment_type: ['FULL_TIME'],
      department: 'Data',
      seniority: 'Mid-Senior level',
      education_requirements: ['bachelor degree'],
      requisition_id: 'DE-07',
      posted_at: '2026-05-19T00:00:00.000Z',
      board: 'workable/larkspur',
    });
  });

  it('telecommuting=true is remote; telecommuting=false says nothing; created_at is the fallback date', () => {
    expect(res.postings[0].work_arrangement).toBeUndefined();
    expect(res.postings[1]).toMatchObject({
      id: 'workable:F6G7H8J9K0',
      location: { raw: ['Ireland'], remote: true, countries: ['Ireland'] },
      work_arrangement: 'Remote',
      employment_type: ['INTERN'],
      seniority: 'Internship',
      posted_at: '2026-05-22T00:00:00.000Z',
    });
  });

  it('rejects the job without a shortcode', () => {
    expect(res.postings).toHaveLength(2);
    expect(res.rejected).toEqual([{ reason: 'missing id' }]);
  });

  it('throws AdapterFormatError on a wrong shape', () => {
    expect(() =>
      adapters.workable.parse('{"name":"x"}', { source: 'workable', board: 'workable/x', now: NOW }),
    ).toThrow(AdapterFormatError);
  });
});
