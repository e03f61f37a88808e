import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { fixture, NOW, parseFixture } from './helpers.ts';

const ctx = { source: 'greenhouse', board: 'greenhouse/brightfield', now: NOW };

describe('greenhouse adapter', () => {
  const res = parseFixture('greenhouse', 'greenhouse/board.json', 'greenhouse', 'greenhouse/brightfield');

  it('maps a job with escaped content, employer URL, department and metadata', () => {
    expect(res.postings[0]).toEqual({
      id: 'greenhouse:4012345006',
      source: 'greenhouse',
      title: 'Senior Backend Engineer',
      company: { name: 'Brightfield Robotics' },
      url: 'https://www.brightfield-robotics.example/careers/open-roles?gh_jid=4012345006',
      canonical_url: 'https://www.brightfield-robotics.example/careers/open-roles?gh_jid=4012345006',
      description_html:
        '<p>Build the fleet telemetry platform for <strong>warehouse robots</strong>.</p><p>Tools &amp; languages: Go, PostgreSQL.</p>',
      location: { raw: ['New York, NY'], countries: ['United States'] },
      employment_type: ['FULL_TIME'],
      department: 'Engineering',
      requisition_id: 'ENG-104',
      posted_at: '2026-05-02T13:00:00.000Z',
      job_language: 'en',
      board: 'greenhouse/brightfield',
    });
  });

  it('infers remote and hybrid from location, offices and metadata; company falls back to the token', () => {
    expect(res.postings[1]).toEqual({
      id: 'greenhouse:4012345007',
      source: 'greenhouse',
      title: 'Senior Backend Engineer',
      company: { name: 'brightfield' },
      url: 'https://boards.greenhouse.io/brightfield/jobs/4012345007',
      canonical_url: 'https://boards.greenhouse.io/brightfield/jobs/4012345007',
      description_html: '<p>Same role, remote within the US.</p>',
      location: { raw: ['Remote - United States'], remote: true },
      work_arrangement: 'Remote',
      employment_type: ['FULL_TIME', 'CONTRACTOR'],
      requisition_id: 'ENG-104',
      posted_at: '2026-05-21T08:00:00.000Z',
      board: 'greenhouse/brightfield',
    });
    expect(res.postings[2].work_arrangement).toBe('Hybrid');
    expect(res.postings[2].location).toEqual({ raw: ['Berlin'], countries: ['Germany'] });
  });

  it('rejects the job without a title and loads the rest', () => {
    expect(res.postings.map((p) => p.id)).toEqual([
      'greenhouse:4012345006',
      'greenhouse:4012345007',
      'greenhouse:4012345009',
    ]);
    expect(res.rejected).toEqual([{ native_id: '4012345008', reason: 'missing title' }]);
  });

  it('uses the registry company when the payload names none', () => {
    const r = adapters.greenhouse.parse(fixture('greenhouse/board.json'), {
      ...ctx,
      company: {
        name: 'Brightfield Robotics Inc.',
        slug: 'brightfield-robotics',
        domain: 'brightfield-robotics.example',
      },
    });
    expect(r.postings[0].company).toEqual({
      name: 'Brightfield Robotics',
      slug: 'brightfield-robotics',
      domain: 'brightfield-robotics.example',
    });
    expect(r.postings[1].company).toEqual({
      name: 'Brightfield Robotics Inc.',
      slug: 'brightfield-robotics',
      domain: 'brightfield-robotics.example',
    });
  });

  it('converts pay ranges from cents; several zones give the overall range with each zone in the text', () => {
    const r = parseFixture('greenhouse', 'greenhouse/job-pay.json', 'greenhouse', 'greenhouse/brightfield');
    expect(r.rejected).toEqual([]);
    expect(r.postings).toEqual([
      {
        id: 'greenhouse:4020000001',
        source: 'greenhouse',
        title: 'Field Service Technician',
        company: { name: 'brightfield' },
        url: 'https://boards.greenhouse.io/brightfield/jobs/4020000001',
        canonical_url: 'https://boards.greenhouse.io/brightfield/jobs/4020000001',
        description_html: '<ul><li>Install and service robots on site</li></ul>',
        location: { raw: ['Denver, CO; Phoenix, AZ'] },
        department: 'Field Operations',
        posted_at: '2026-05-25T15:00:00.000Z',
        salary: {
          min: 60000,
          max: 80000,
          currency: 'USD',
          unit: 'YEAR',
          text: 'Zone A (annual): 65000–80000 USD; Zone B (annual): 60000–74000 USD',
        },
        board: 'greenhouse/brightfield',
      },
    ]);
  });

  it('keeps a single pay range as posted', () => {
    const job = JSON.parse(fixture('greenhouse/job-pay.json'));
    job.pay_input_ranges = [
      { min_cents: 2500, max_cents: 3150, currency_type: 'usd', title: 'Hourly rate', blurb: '' },
    ];
    const r = adapters.greenhouse.parse(JSON.stringify(job), ctx);
    expect(r.postings[0].salary).toEqual({
      min: 25,
      max: 31.5,
      currency: 'USD',
      unit: 'HOUR',
      text: 'Hourly rate',
    });
  });

  it('throws AdapterFormatError on an HTML page or a wrong JSON shape', () => {
    expect(() => adapters.greenhouse.parse(fixture('greenhouse/marketing.html'), ctx)).toThrow(
      AdapterFormatError,
    );
    expect(() => adapters.greenhouse.parse('{"error":"not found"}', ctx)).toThrow(AdapterFormatError);
    expect(() => adapters.greenhouse.parse('[]', ctx)).toThrow(/expected \{jobs/);
  });

  it('accepts an empty board', () => {
    expect(adapters.greenhouse.parse('{"jobs":[],"meta":{"total":0}}', ctx)).toEqual({
      postings: [],
      rejected: [],
      dropped: 0,
    });
  });
});
