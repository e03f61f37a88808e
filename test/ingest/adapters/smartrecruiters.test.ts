import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { fixture, NOW, parseFixture } from './helpers.ts';

describe('smartrecruiters adapter', () => {
  const res = parseFixture(
    'smartrecruiters',
    'smartrecruiters/postings.json',
    'smartrecruiters',
    'smartrecruiters/NorthwindFreight',
  );

  it('maps a detailed posting without the repeated company description', () => {
    expect(res.postings[0]).toEqual({
      id: 'smartrecruiters:744000012345678',
      source: 'smartrecruiters',
      title: 'Logistics Coordinator',
      company: { name: 'Northwind Freight' },
      url: 'https://jobs.smartrecruiters.com/NorthwindFreight/744000012345678-logistics-coordinator',
      apply_url:
        'https://jobs.smartrecruiters.com/NorthwindFreight/744000012345678-logistics-coordinator?oga=true',
      canonical_url:
        'https://jobs.smartrecruiters.com/NorthwindFreight/744000012345678-logistics-coordinator',
      description_html:
        '<h3>Job Description</h3><p>Plan truck routes.</p>\n<h3>Qualifications</h3><ul><li>Dutch and English</li></ul>',
      location: {
        raw: ['Rotterdam, South Holland, Netherlands'],
        countries: ['Netherlands'],
        cities: ['Rotterdam'],
        regions: ['South Holland'],
      },
      employment_type: ['FULL_TIME'],
      department: 'Operations',
      seniority: 'Mid-Senior level',
      requisition_id: 'REF-LC-22',
      posted_at: '2026-05-26T07:45:10.123Z',
      board: 'smartrecruiters/NorthwindFreight',
    });
  });

  it('a list entry without detail gets a built URL; lower-case country codes and remote are read', () => {
    expect(res.postings[1]).toEqual({
      id: 'smartrecruiters:744000012345679',
      source: 'smartrecruiters',
      title: 'Remote Dispatcher',
      company: { name: 'Northwind Freight' },
      url: 'https://jobs.smartrecruiters.com/NorthwindFreight/744000012345679',
      canonical_url: 'https://jobs.smartrecruiters.com/NorthwindFreight/744000012345679',
      location: { raw: ['Antwerp, Belgium'], remote: true, countries: ['Belgium'], cities: ['Antwerp'] },
      work_arrangement: 'Remote',
      employment_type: ['PART_TIME'],
      seniority: 'Entry level',
      posted_at: '2026-05-27T10:00:00.000Z',
      board: 'smartrecruiters/NorthwindFreight',
    });
    expect(res.rejected).toEqual([{ native_id: '744000012345680', reason: 'missing title' }]);
  });

  it('reads a single detail response', () => {
    const list = JSON.parse(fixture('smartrecruiters/postings.json'));
    const r = adapters.smartrecruiters.parse(JSON.stringify(list.content[0]), {
      source: 'smartrecruiters',
      board: 'smartrecruiters/NorthwindFreight',
      now: NOW,
    });
    expect(r.postings).toEqual([res.postings[0]]);
  });

  it('throws AdapterFormatError on a wrong shape', () => {
    expect(() =>
      adapters.smartrecruiters.parse('{"message":"Not found"}', {
        source: 'smartrecruiters',
        board: 'smartrecruiters/x',
        now: NOW,
      }),
    ).toThrow(AdapterFormatError);
  });
});
