import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { fixture, NOW, parseFixture } from './helpers.ts';

describe('jsonld adapter', () => {
  it('a job page: @graph wrapper, arrays for single values, bare-number salary, escaped description', () => {
    const r = parseFixture(
      'jsonld',
      'jsonld/careerboard-job.html',
      'careerboard',
      'careerboard/careerboard.example/jobs/88213',
    );
    expect(r).toEqual({
      postings: [
        {
          id: 'careerboard:CB-88213',
          source: 'careerboard',
          title: 'Warehouse Team Lead',
          company: {
            name: 'Pinecrest Supply Ltd',
            domain: 'pinecrest-supply.example',
            website: 'https://www.pinecrest-supply.example/',
            logo: 'https://www.pinecrest-supply.example/logo.png',
          },
          url: 'https://careerboard.example/jobs/88213-warehouse-team-lead',
          canonical_url: 'https://careerboard.example/jobs/88213-warehouse-team-lead',
          description_html:
            '<p>Lead a team of twelve in our <b>Leeds</b> depot.</p><p>Forklift licence &amp; first-aid training provided.</p>',
          location: {
            raw: ['Leeds, West Yorkshire, GB'],
            countries: ['United Kingdom'],
            cities: ['Leeds'],
            regions: ['West Yorkshire'],
          },
          employment_type: ['FULL_TIME'],
          posted_at: '2026-05-24T00:00:00.000Z',
          expires_at: '2026-06-30T22:59:59.000Z',
          salary: { min: 34000, max: 34000, currency: 'GBP' },
          education_requirements: ['high school'],
          experience_level: '2-5',
          board: 'careerboard/careerboard.example/jobs/88213',
        },
      ],
      rejected: [],
      dropped: 0,
    });
  });

  it('a listing page: several postings in an ItemList, remote with allowed countries, a broken block', () => {
    const r = parseFixture('jsonld', 'jsonld/alljobs-list.html', 'alljobs', 'alljobs/alljobs.example/remote');
    expect(r.postings).toEqual([
      {
        id: 'alljobs:AJ-5501',
        source: 'alljobs',
        title: 'Frontend Engineer (React)',
        company: { name: 'Sunmesh Energy', domain: 'sunmesh.example', website: 'https://sunmesh.example/' },
        url: 'https://alljobs.example/job/AJ-5501',
        canonical_url: 'https://alljobs.example/job/AJ-5501',
        description_html: '<p>Build dashboards for <em>solar installers</em>.</p>',
        location: { remote: true, countries: ['Spain', 'Portugal'] },
        remote_location: ['Spain', 'Portugal'],
        work_arrangement: 'Remote',
        employment_type: ['FULL_TIME', 'CONTRACTOR'],
        posted_at: '2026-05-27T08:00:00.000Z',
        salary: { min: 55000, max: 70000, currency: 'EUR', unit: 'YEAR' },
        board: 'alljobs/alljobs.example/remote',
      },
      {
        id: 'alljobs:AJ-5502',
        source: 'alljobs',
        title: 'Installer Scheduler',
        company: { name: 'Sunmesh Energy' },
        url: 'https://alljobs.example/job/AJ-5502',
        canonical_url: 'https://alljobs.example/job/AJ-5502',
        description_text: 'Plain text description, no markup.',
        location: {
          raw: ['Valencia, Spain', 'Seville, ES'],
          countries: ['Spain'],
          cities: ['Valencia', 'Seville'],
        },
        employment_type: ['PART_TIME'],
        posted_at: '2026-05-26T00:00:00.000Z',
        salary: { min: 16.5, max: 16.5, currency: 'EUR', unit: 'HOUR' },
        board: 'alljobs/alljobs.example/remote',
      },
    ]);
    expect(r.rejected).toEqual([
      { reason: 'ld+json block 2 is not valid JSON' },
      { native_id: 'AJ-5503', reason: 'missing title' },
    ]);
  });

  it('a single posting without its own url takes the page address and gets a stable hashed id', () => {
    const page = `<html><head><script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Barista',
      description: '<p>Coffee.</p>',
      datePosted: '2026-05-30',
      hiringOrganization: { name: 'Bean There' },
      jobLocation: { '@type': 'Place', address: 'Cork, Ireland' },
    })}</script></head></html>`;
    const ctx = {
      source: 'workhub',
      board: 'workhub/workhub.example/j/77',
      now: NOW,
      url: 'https://workhub.example/j/77',
    };
    const a = adapters.jsonld.parse(page, ctx);
    const b = adapters.jsonld.parse(page, ctx);
    expect(a).toEqual(b);
    expect(a.postings[0]).toMatchObject({
      title: 'Barista',
      url: 'https://workhub.example/j/77',
      location: { raw: ['Cork, Ireland'] },
      company: { name: 'Bean There' },
    });
    expect(a.postings[0].id).toMatch(/^workhub:[0-9a-f]{16}$/);
  });

  it('a page that names its address only in og:url; placeholders are no places; URLs lose "&amp;"', () => {
    const posting = {
      '@type': 'JobPosting',
      title: 'Sourcer',
      identifier: { '@type': 'PropertyValue', value: 'S-1' },
      jobLocation: {
        '@type': 'Place',
        address: {
          addressLocality: 'UNAVAILABLE',
          addressRegion: 'UNAVAILABLE',
          addressCountry: 'Australia',
        },
      },
    };
    const page = `<html><head><meta property="og:url" content="https://jobs.example/acme/S-1"><script type="application/ld&#x2B;json">${JSON.stringify({ '@graph': [posting] })}</script></head></html>`;
    const ctx = { source: 'workhub', board: 'workhub/acme', now: NOW };
    const [p] = adapters.jsonld.parse(page, ctx).postings;
    expect(p).toMatchObject({
      url: 'https://jobs.example/acme/S-1',
      location: { raw: ['Australia'], countries: ['Australia'] },
    });
    expect(p.location?.cities).toBeUndefined();
    const withUrl = JSON.stringify({ ...posting, url: 'https://jobs.example/j?a=1&amp;b=2' });
    const [q] = adapters.jsonld.parse(`<script type="application/ld+json">${withUrl}</script>`, ctx).postings;
    expect(q.url).toBe('https://jobs.example/j?a=1&b=2');
  });

  it('a page without JobPosting is a format error, never an empty board', () => {
    const ctx = { source: 'techjobs', board: 'techjobs/techjobs.example', now: NOW };
    expect(() => adapters.jsonld.parse(fixture('jsonld/marketing.html'), ctx)).toThrow(AdapterFormatError);
    expect(() => adapters.jsonld.parse('<html><body>Hello</body></html>', ctx)).toThrow(/no ld\+json block/);
  });
});
