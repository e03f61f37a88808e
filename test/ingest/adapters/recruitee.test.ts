import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { NOW, parseFixture } from './helpers.ts';

describe('recruitee adapter', () => {
  const res = parseFixture('recruitee', 'recruitee/offers.json', 'recruitee', 'recruitee/oakhaven', {
    company: { name: 'Oakhaven Bakeries', domain: 'oakhaven.example' },
  });

  it('maps an offer with the "… UTC" date format and string salaries', () => {
    expect(res.postings[0]).toEqual({
      id: 'recruitee:1893001',
      source: 'recruitee',
      title: 'Backend Developer (Ruby)',
      company: { name: 'Oakhaven Bakeries', domain: 'oakhaven.example' },
      url: 'https://oakhaven.recruitee.com/o/backend-developer-ruby',
      apply_url: 'https://oakhaven.recruitee.com/o/backend-developer-ruby/c/new',
      canonical_url: 'https://oakhaven.recruitee.com/o/backend-developer-ruby',
      description_html:
        '<p>Build the ordering system of <strong>Oakhaven Bakeries</strong>.</p>\n<ul><li>Ruby on Rails</li></ul>',
      location: {
        raw: ['Utrecht, Netherlands'],
        countries: ['Netherlands'],
        cities: ['Utrecht'],
        regions: ['Utrecht'],
      },
      work_arrangement: 'Hybrid',
      employment_type: ['FULL_TIME'],
      department: 'Technology',
      seniority: 'Mid-Senior level',
      education_requirements: ['bachelor degree'],
      working_hours: 40,
      posted_at: '2026-05-28T20:36:05.000Z',
      salary: { min: 4200, max: 5600, currency: 'EUR', unit: 'MONTH' },
      board: 'recruitee/oakhaven',
    });
  });

  it('reads the ISO-with-offset date format and numeric hourly salaries', () => {
    expect(res.postings[1]).toMatchObject({
      id: 'recruitee:1893002',
      work_arrangement: 'On-site',
      employment_type: ['PART_TIME'],
      working_hours: 24,
      posted_at: '2026-05-26T07:30:00.000Z',
      salary: { min: 17.5, max: 19, currency: 'EUR', unit: 'HOUR' },
    });
  });

  it('drops unpublished offers and rejects the one without a title', () => {
    expect(res.postings.map((p) => p.id)).toEqual(['recruitee:1893001', 'recruitee:1893002']);
    expect(res.dropped).toBe(1);
    expect(res.rejected).toEqual([{ native_id: '1893004', reason: 'missing title' }]);
  });

  it('throws AdapterFormatError on a wrong shape', () => {
    expect(() =>
      adapters.recruitee.parse('{"offer":{}}', { source: 'recruitee', board: 'recruitee/x', now: NOW }),
    ).toThrow(AdapterFormatError);
  });

  it('an offer in several offices keeps every country (seen: `locations[]`)', () => {
    const offer = {
      id: 77,
      title: 'Baker',
      status: 'published',
      careers_url: 'https://oakhaven.recruitee.com/o/baker',
      location: 'Utrecht, Netherlands',
      city: 'Utrecht',
      country_code: 'NL',
      locations: [
        { city: 'Utrecht', country_code: 'NL', country: 'Netherlands', state_name: 'Utrecht' },
        { city: 'Antwerpen', country_code: 'BE', country: 'Belgium', state_name: 'Flanders' },
      ],
    };
    const r = adapters.recruitee.parse(JSON.stringify({ offers: [offer] }), {
      source: 'recruitee',
      board: 'recruitee/oakhaven',
      now: NOW,
    });
    expect(r.postings[0].location).toEqual({
      raw: ['Utrecht, Netherlands', 'Antwerpen, Flanders, Belgium'],
      countries: ['Netherlands', 'Belgium'],
      cities: ['Utrecht', 'Antwerpen'],
      regions: ['Utrecht', 'Flanders'],
    });
  });
});
