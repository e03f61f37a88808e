// Postings in several countries, in the payload shape of every source format: each country, city and
// continent survives the adapter and enrichment, and the location fields agree.
import { describe, expect, it } from 'vitest';
import { enrichPosting } from '../../../src/enrich/posting.ts';
import { adapters } from '../../../src/ingest/adapters/index.ts';
import { NOW } from './helpers.ts';

interface Case {
  format: string;
  source: string;
  board: string;
  payload: string;
  countries: string[];
  cities: string[];
  continents: string[];
}

const jsonldPage = (posting: object) =>
  `<html><head><script type="application/ld+json">${JSON.stringify(posting)}</script></head><body></body></html>`;

const CASES: Case[] = [
  {
    format: 'greenhouse',
    source: 'greenhouse',
    board: 'greenhouse/tidewater',
    payload: JSON.stringify({
      jobs: [
        {
          id: 501,
          title: 'Solutions Engineer',
          updated_at: '2026-05-20T10:00:00-04:00',
          absolute_url: 'https://boards.greenhouse.io/tidewater/jobs/501',
          location: { name: 'Boston, MA; Dublin, Ireland' },
          offices: [
            { id: 1, name: 'Boston', location: 'Boston, MA' },
            { id: 2, name: 'Dublin', location: 'Dublin, Ireland' },
          ],
        },
      ],
    }),
    countries: ['United States', 'Ireland'],
    cities: ['Boston', 'Dublin'],
    continents: ['North America', 'Europe'],
  },
  {
    format: 'lever',
    source: 'lever',
    board: 'lever/tidewater',
    payload: JSON.stringify([
      {
        id: '3f1c2a9e-0b7d-4e55-9a61-2c8f0d7e4b10',
        text: 'Account Executive',
        country: 'CA',
        categories: {
          location: 'Toronto, ON',
          allLocations: ['Toronto, ON', 'Seattle, WA'],
          commitment: 'Full-time',
        },
        hostedUrl: 'https://jobs.lever.co/tidewater/3f1c2a9e-0b7d-4e55-9a61-2c8f0d7e4b10',
      },
    ]),
    countries: ['Canada', 'United States'],
    cities: ['Toronto', 'Seattle'],
    continents: ['North America'],
  },
  {
    format: 'ashby',
    source: 'ashby',
    board: 'ashby/tidewater',
    payload: JSON.stringify({
      apiVersion: '1',
      jobs: [
        {
          id: 'a6b1e7c2-5d3f-4a8e-9b0c-1d2e3f4a5b6c',
          title: 'Data Engineer',
          location: 'Berlin',
          address: { postalAddress: { addressLocality: 'Berlin', addressCountry: 'Germany' } },
          secondaryLocations: [
            {
              location: 'Lisbon',
              address: { postalAddress: { addressLocality: 'Lisbon', addressCountry: 'Portugal' } },
            },
            {
              location: 'New York',
              address: {
                postalAddress: { addressLocality: 'New York', addressRegion: 'NY', addressCountry: 'USA' },
              },
            },
          ],
          jobUrl: 'https://jobs.ashbyhq.com/tidewater/a6b1e7c2-5d3f-4a8e-9b0c-1d2e3f4a5b6c',
        },
      ],
    }),
    countries: ['Germany', 'Portugal', 'United States'],
    cities: ['Berlin', 'Lisbon', 'New York'],
    continents: ['Europe', 'North America'],
  },
  {
    format: 'workable',
    source: 'workable',
    board: 'workable/tidewater',
    payload: JSON.stringify({
      name: 'Tidewater',
      jobs: [
        {
          title: 'Support Specialist',
          shortcode: 'A1B2C3D4E5',
          url: 'https://apply.workable.com/j/A1B2C3D4E5',
          country: 'Spain',
          city: 'Madrid',
          locations: [
            { country: 'Spain', countryCode: 'ES', city: 'Madrid', region: 'Community of Madrid' },
            { country: 'Mexico', countryCode: 'MX', city: 'Guadalajara', region: 'Jalisco' },
          ],
        },
      ],
    }),
    countries: ['Spain', 'Mexico'],
    cities: ['Madrid', 'Guadalajara'],
    continents: ['Europe', 'North America'],
  },
  {
    format: 'recruitee',
    source: 'recruitee',
    board: 'recruitee/tidewater',
    payload: JSON.stringify({
      offers: [
        {
          id: 9001,
          title: 'Baker',
          status: 'published',
          careers_url: 'https://tidewater.recruitee.com/o/baker',
          location: 'Utrecht, Netherlands',
          locations: [
            { city: 'Utrecht', country_code: 'NL' },
            { city: 'Gent', country_code: 'BE' },
          ],
        },
      ],
    }),
    countries: ['Netherlands', 'Belgium'],
    cities: ['Utrecht', 'Gent'],
    continents: ['Europe'],
  },
  {
    format: 'personio',
    source: 'personio',
    board: 'personio/tidewater',
    payload: `<?xml version="1.0" encoding="UTF-8"?><workzag-jobs><position><id>77</id><office>Wien</office>
      <additionalOffices><office>Zürich</office></additionalOffices><name>Controller (m/w/d)</name></position></workzag-jobs>`,
    countries: ['Austria', 'Switzerland'],
    cities: ['Vienna', 'Zürich'],
    continents: ['Europe'],
  },
  {
    format: 'workday',
    source: 'workday',
    board: 'workday/tidewater.wd1/Careers',
    payload: JSON.stringify({
      jobPostingInfo: {
        title: 'Plant Manager',
        jobReqId: 'R-9',
        location: 'CA - Toronto',
        additionalLocations: ['US - Austin', 'MX - Monterrey'],
        country: { descriptor: 'Canada' },
        externalPath: '/job/Toronto/Plant-Manager_R-9',
      },
      hiringOrganization: { name: 'Tidewater Industries Inc.' },
    }),
    countries: ['Canada', 'United States', 'Mexico'],
    cities: ['Toronto', 'Austin', 'Monterrey'],
    continents: ['North America'],
  },
  {
    format: 'jsonld',
    source: 'careerboard',
    board: 'careerboard/x',
    payload: jsonldPage({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Nurse',
      description: '<p>Care.</p>',
      datePosted: '2026-05-20',
      url: 'https://careerboard.example/jobs/1',
      identifier: { name: 'x', value: 'N-1' },
      hiringOrganization: { name: 'Tidewater Health' },
      jobLocation: [
        { '@type': 'Place', address: { addressLocality: 'Portland, OR', addressCountry: 'US' } },
        { '@type': 'Place', address: { addressLocality: 'Vancouver, BC', addressCountry: 'CA' } },
      ],
    }),
    countries: ['United States', 'Canada'],
    cities: ['Portland', 'Vancouver'],
    continents: ['North America'],
  },
];

describe('multi-location postings keep every country, per source format', () => {
  for (const c of CASES) {
    it(c.format, () => {
      const res = adapters[c.format].parse(c.payload, { source: c.source, board: c.board, now: NOW });
      expect(res.rejected).toEqual([]);
      const e = enrichPosting(res.postings[0]);
      expect(e.location.countries).toEqual(c.countries);
      expect(e.location.cities).toEqual(c.cities);
      expect(e.continents).toEqual(c.continents);
      expect(e.location.continent).toBe(c.continents[0]);
      expect(e.location.timezones.length).toBeGreaterThanOrEqual(c.countries.length);
    });
  }
});
