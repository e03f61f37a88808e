import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { NOW, parseFixture } from './helpers.ts';

describe('ashby adapter', () => {
  const res = parseFixture('ashby', 'ashby/board.json', 'ashby', 'ashby/quillmetrics', {
    company: { name: 'Quill Metrics' },
  });

  it('maps structured addresses, hybrid workplace and a single salary tier', () => {
    expect(res.postings[0]).toEqual({
      id: 'ashby:0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0001',
      source: 'ashby',
      title: 'Machine Learning Engineer',
      company: { name: 'Quill Metrics' },
      url: 'https://jobs.ashbyhq.com/quillmetrics/0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0001',
      apply_url: 'https://jobs.ashbyhq.com/quillmetrics/0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0001/application',
      canonical_url: 'https://jobs.ashbyhq.com/quillmetrics/0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0001',
      description_html: '<p>Forecast demand for <em>independent bookshops</em>.</p>',
      location: {
        raw: ['San Francisco, CA', 'Seattle, WA'],
        countries: ['United States'],
        cities: ['San Francisco', 'Seattle'],
        regions: ['California', 'Washington'],
      },
      work_arrangement: 'Hybrid',
      employment_type: ['FULL_TIME'],
      department: 'Engineering',
      team: 'Forecasting',
      posted_at: '2026-05-18T17:04:12.345Z',
      salary: {
        min: 150000,
        max: 190000,
        currency: 'USD',
        unit: 'YEAR',
        text: '$150K – $190K • Offers Equity',
      },
      board: 'ashby/quillmetrics',
    });
  });

  it('several tiers give the overall range and keep every tier in the text', () => {
    expect(res.postings[1].salary).toEqual({
      min: 95000,
      max: 140000,
      currency: 'USD',
      unit: 'YEAR',
      text: 'Zone A: $120K – $140K; Zone B: $105K – $125K; Zone C: $95K – $110K',
    });
    expect(res.postings[1].location).toEqual({ raw: ['United States'], remote: true });
    expect(res.postings[1].work_arrangement).toBe('Remote');
  });

  it('keeps plain text when there is no HTML and reads hourly tiers', () => {
    expect(res.postings[2]).toEqual({
      id: 'ashby:0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0004',
      source: 'ashby',
      title: 'Summer Intern, Data',
      company: { name: 'Quill Metrics' },
      url: 'https://jobs.ashbyhq.com/quillmetrics/0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0004',
      canonical_url: 'https://jobs.ashbyhq.com/quillmetrics/0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0004',
      description_text: 'Twelve weeks with the data team.',
      location: { raw: ['Toronto'], countries: ['Canada'], cities: ['Toronto'], regions: ['Ontario'] },
      work_arrangement: 'On-site',
      employment_type: ['INTERN'],
      department: 'Engineering',
      posted_at: '2026-05-21T16:00:00.000Z',
      salary: { min: 28, max: 32, currency: 'CAD', unit: 'HOUR', text: 'CA$28 – CA$32 per hour' },
      board: 'ashby/quillmetrics',
    });
  });

  it('drops unlisted jobs and rejects the one without jobUrl', () => {
    expect(res.postings.map((p) => p.id)).toEqual([
      'ashby:0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0001',
      'ashby:0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0002',
      'ashby:0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0004',
    ]);
    expect(res.dropped).toBe(1);
    expect(res.rejected).toEqual([
      { native_id: '0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0005', reason: 'missing or invalid jobUrl' },
    ]);
  });

  it('computes the overall range from tiers when the summary is missing; mixed currencies keep only the text', () => {
    const job = (comp: unknown) =>
      JSON.stringify({
        apiVersion: '1',
        jobs: [
          {
            id: 'x1',
            title: 'T',
            jobUrl: 'https://jobs.ashbyhq.com/q/x1',
            isListed: true,
            compensation: comp,
          },
        ],
      });
    const tier = (cur: string, min: number, max: number) => ({
      title: cur,
      components: [
        { compensationType: 'Salary', interval: '1 YEAR', currencyCode: cur, minValue: min, maxValue: max },
      ],
    });
    const ctx = { source: 'ashby', board: 'ashby/q', now: NOW };
    const same = adapters.ashby.parse(
      job({
        compensationTierSummary: 'two zones',
        compensationTiers: [tier('EUR', 50000, 60000), tier('EUR', 45000, 52000)],
      }),
      ctx,
    );
    expect(same.postings[0].salary).toEqual({
      min: 45000,
      max: 60000,
      currency: 'EUR',
      unit: 'YEAR',
      text: 'two zones',
    });
    const mixed = adapters.ashby.parse(
      job({
        compensationTierSummary: 'EU or UK',
        compensationTiers: [tier('EUR', 50000, 60000), tier('GBP', 45000, 52000)],
      }),
      ctx,
    );
    expect(mixed.postings[0].salary).toEqual({ text: 'EU or UK' });
  });

  it('throws AdapterFormatError on a wrong shape', () => {
    const ctx = { source: 'ashby', board: 'ashby/q', now: NOW };
    expect(() => adapters.ashby.parse('{"success":false}', ctx)).toThrow(AdapterFormatError);
    expect(() => adapters.ashby.parse('', ctx)).toThrow(/empty/);
  });
});
