import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { fixture, NOW, parseFixture } from './helpers.ts';

const ctx = { source: 'lever', board: 'lever/tidewater', now: NOW };

describe('lever adapter', () => {
  const res = parseFixture('lever', 'lever/postings.json', 'lever', 'lever/tidewater', {
    company: { name: 'Tidewater Travel' },
  });

  it('assembles the description, reads epoch millis and scales salaries entered in thousands', () => {
    expect(res.postings[0]).toEqual({
      id: 'lever:5b2c9f3e-1a4d-4c8e-9f00-1234567890ab',
      source: 'lever',
      title: 'Product Designer',
      company: { name: 'Tidewater Travel' },
      url: 'https://jobs.lever.co/tidewater/5b2c9f3e-1a4d-4c8e-9f00-1234567890ab',
      apply_url: 'https://jobs.lever.co/tidewater/5b2c9f3e-1a4d-4c8e-9f00-1234567890ab/apply',
      canonical_url: 'https://jobs.lever.co/tidewater/5b2c9f3e-1a4d-4c8e-9f00-1234567890ab',
      description_html:
        '<div>Shape the booking experience of <b>Tidewater Travel</b>.</div>\n' +
        '<h3>What you will do</h3><ul><li>Own the design system</li><li>Run user research</li></ul>\n' +
        '<h3>What we offer</h3><ul><li>Relocation support</li></ul>\n' +
        '<div>We review every application within two weeks.</div>',
      location: { raw: ['Lisbon', 'Porto'], countries: ['Portugal'] },
      work_arrangement: 'On-site',
      employment_type: ['FULL_TIME'],
      department: 'Product',
      team: 'Design Systems',
      posted_at: '2026-05-28T09:56:05.000Z',
      salary: { min: 100000, max: 130000, currency: 'EUR', unit: 'YEAR', text: 'Plus annual bonus' },
      board: 'lever/tidewater',
    });
  });

  it('joins opening and body when there is no description; hourly wages stay as posted', () => {
    expect(res.postings[1]).toEqual({
      id: 'lever:7d1e0a22-3b5f-4a6c-8d9e-0fedcba98765',
      source: 'lever',
      title: 'Customer Support Specialist',
      company: { name: 'Tidewater Travel' },
      url: 'https://jobs.lever.co/tidewater/7d1e0a22-3b5f-4a6c-8d9e-0fedcba98765',
      apply_url: 'https://jobs.lever.co/tidewater/7d1e0a22-3b5f-4a6c-8d9e-0fedcba98765/apply',
      canonical_url: 'https://jobs.lever.co/tidewater/7d1e0a22-3b5f-4a6c-8d9e-0fedcba98765',
      description_html:
        '<div>Help travellers when plans change.</div>\n<div>You answer chats and emails.</div>',
      location: { raw: ['Remote, Canada'], remote: true },
      work_arrangement: 'Remote',
      employment_type: ['PART_TIME'],
      team: 'Support',
      posted_at: '2026-05-21T15:00:00.000Z',
      salary: { min: 24, max: 29, currency: 'CAD', unit: 'HOUR' },
      board: 'lever/tidewater',
    });
  });

  it('rejects the posting without hostedUrl while the rest loads', () => {
    expect(res.postings).toHaveLength(2);
    expect(res.rejected).toEqual([
      { native_id: '9a9a9a9a-0000-4000-8000-000000000001', reason: 'missing or invalid hostedUrl' },
    ]);
  });

  it('leaves full yearly figures alone', () => {
    const items = JSON.parse(fixture('lever/postings.json'));
    items[0].salaryRange = { currency: 'USD', interval: 'per-year-salary', min: 95000, max: 120000 };
    const r = adapters.lever.parse(JSON.stringify(items), ctx);
    expect(r.postings[0].salary).toEqual({
      min: 95000,
      max: 120000,
      currency: 'USD',
      unit: 'YEAR',
      text: 'Plus annual bonus',
    });
  });

  it('throws AdapterFormatError on an error object or HTML', () => {
    expect(() => adapters.lever.parse(fixture('lever/not-found.json'), ctx)).toThrow(AdapterFormatError);
    expect(() => adapters.lever.parse('<html><body>Moved</body></html>', ctx)).toThrow(/HTML/);
  });
});
