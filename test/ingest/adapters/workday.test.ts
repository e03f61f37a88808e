import { describe, expect, it } from 'vitest';
import { AdapterFormatError, adapters } from '../../../src/ingest/adapters/index.ts';
import { fixture, NOW, parseFixture } from './helpers.ts';

describe('workday adapter', () => {
  const res = parseFixture('workday', 'workday/jobs.json', 'workday', 'workday/nordkap.wd3/Careers', {
    company: { name: 'Nordkap Marine' },
  });

  it('a list entry alone: URL from the site root, relative date against ctx.now', () => {
    expect(res.postings[0]).toEqual({
      id: 'workday:R-20417',
      source: 'workday',
      title: 'Maintenance Planner',
      company: { name: 'Nordkap Marine' },
      url: 'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Gothenburg-Sweden/Maintenance-Planner_R-20417',
      canonical_url:
        'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Gothenburg-Sweden/Maintenance-Planner_R-20417',
      location: { raw: ['Gothenburg, Sweden'] },
      requisition_id: 'R-20417',
      posted_at: '2026-06-01T00:00:00.000Z',
      board: 'workday/nordkap.wd3/Careers',
    });
    expect(res.postings[2].posted_at).toBe('2026-05-29T00:00:00.000Z');
  });

  it('a list entry with its detail: employer, description, all locations, start date, time and remote type', () => {
    expect(res.postings[1]).toEqual({
      id: 'workday:R-20388',
      source: 'workday',
      title: 'Quality Engineer',
      // The detail's hiringOrganization, not the registry's name.
      company: { name: 'Nordkap Marine AB' },
      url: 'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Malmo-Sweden/Quality-Engineer_R-20388',
      canonical_url:
        'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Malmo-Sweden/Quality-Engineer_R-20388',
      description_html: '<p>Own supplier quality for <b>Nordkap Marine</b> hull parts.</p>',
      location: { raw: ['Malmo, Sweden', 'Karlskrona, Sweden'], countries: ['Sweden'] },
      work_arrangement: 'Hybrid',
      employment_type: ['FULL_TIME'],
      requisition_id: 'R-20388',
      posted_at: '2026-04-14T00:00:00.000Z',
      board: 'workday/nordkap.wd3/Careers',
    });
  });

  it('"Posted 30+ Days Ago" without a detail is read as 30 days before now', () => {
    const list = JSON.parse(fixture('workday/jobs.json'));
    delete list.details;
    const r = adapters.workday.parse(JSON.stringify(list), {
      source: 'workday',
      board: 'workday/nordkap.wd3/Careers',
      now: NOW,
    });
    expect(r.postings[1]).toEqual({
      id: 'workday:R-20388',
      source: 'workday',
      title: 'Quality Engineer',
      company: { name: 'nordkap' },
      url: 'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Malmo-Sweden/Quality-Engineer_R-20388',
      canonical_url:
        'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Malmo-Sweden/Quality-Engineer_R-20388',
      requisition_id: 'R-20388',
      posted_at: '2026-05-02T00:00:00.000Z',
      board: 'workday/nordkap.wd3/Careers',
    });
  });

  it('reads one detail response', () => {
    const r = parseFixture('workday', 'workday/detail.json', 'workday', 'workday/nordkap.wd3/Careers');
    expect(r).toEqual({
      postings: [
        {
          id: 'workday:R-20500',
          source: 'workday',
          title: 'Naval Architect',
          company: { name: 'Nordkap Marine AB' },
          url: 'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Gothenburg-Sweden/Naval-Architect_R-20500',
          canonical_url:
            'https://nordkap.wd3.myworkdayjobs.com/Careers/job/Gothenburg-Sweden/Naval-Architect_R-20500',
          description_html: '<p>Design hulls.</p>',
          location: { raw: ['Gothenburg, Sweden'], countries: ['Sweden'] },
          employment_type: ['PART_TIME'],
          requisition_id: 'R-20500',
          posted_at: '2026-05-31T00:00:00.000Z',
          board: 'workday/nordkap.wd3/Careers',
        },
      ],
      rejected: [],
      dropped: 0,
    });
  });

  it('rejects an entry without a title; a wrong shape throws', () => {
    const ctx = { source: 'workday', board: 'workday/nordkap.wd3/Careers', now: NOW };
    const r = adapters.workday.parse(
      JSON.stringify({
        total: 2,
        jobPostings: [
          { externalPath: '/job/X/Y_R-1', bulletFields: ['R-1'] },
          { title: 'Ok', externalPath: '/job/X/Ok_R-2' },
        ],
      }),
      ctx,
    );
    expect(r.rejected).toEqual([{ native_id: 'R-1', reason: 'missing title' }]);
    expect(r.postings.map((p) => p.id)).toEqual(['workday:R-2']);
    expect(() => adapters.workday.parse('{"errorCode":"HTTP_404"}', ctx)).toThrow(AdapterFormatError);
  });

  describe('list layouts and the employer', () => {
    const ctx = { source: 'workday', board: 'workday/grimsby.wd5/External', now: NOW };
    const embedded = adapters.workday.parse(fixture('workday/jobs-embedded.json'), ctx);

    it('reads a detail embedded in its list row (beside the row fields, or under `detail`)', () => {
      expect(embedded.rejected).toEqual([]);
      expect(embedded.postings.map((p) => [p.id, p.title, p.company.name, p.posted_at])).toEqual([
        [
          'workday:JR-7731',
          'Field Service Technician',
          'Grimsby Press Works Ltd.',
          '2026-05-20T00:00:00.000Z',
        ],
        ['workday:JR-7740', 'Einkäufer (m/w/d)', 'Grimsby Press Works GmbH', '2026-05-30T00:00:00.000Z'],
      ]);
      expect(embedded.postings[0].url).toBe(
        'https://grimsby.wd5.myworkdayjobs.com/External/job/Toronto/Field-Service-Technician_JR-7731',
      );
      expect(embedded.postings[1].url).toBe(
        'https://grimsby.wd5.myworkdayjobs.com/External/job/Munich/Buyer_JR-7740',
      );
    });

    it('passes every location string and the primary country; the others come from the strings', () => {
      expect(embedded.postings[0].location).toEqual({
        raw: ['CAN - Toronto', 'USA - TX - Austin'],
        countries: ['Canada'],
      });
    });

    it.each([
      [
        'hiringOrganization beside jobPostingInfo',
        {
          jobPostingInfo: { title: 'A', jobReqId: 'R-1', externalPath: '/job/X/A_R-1' },
          hiringOrganization: { name: 'Orbis Freight Inc.' },
        },
        'Orbis Freight Inc.',
      ],
      [
        'hiringOrganization inside jobPostingInfo',
        {
          jobPostingInfo: {
            title: 'A',
            jobReqId: 'R-1',
            externalPath: '/job/X/A_R-1',
            hiringOrganization: { name: 'Orbis Freight BV' },
          },
        },
        'Orbis Freight BV',
      ],
      [
        'no employer: the tenant',
        { jobPostingInfo: { title: 'A', jobReqId: 'R-1', externalPath: '/job/X/A_R-1' } },
        'grimsby',
      ],
    ])('one detail response: %s', (_name, body, want) => {
      expect(adapters.workday.parse(JSON.stringify(body), ctx).postings[0].company.name).toBe(want);
    });

    it('an array of detail responses: each keeps its own employer', () => {
      const body = [
        {
          jobPostingInfo: { title: 'A', jobReqId: 'R-1', externalPath: '/job/X/A_R-1' },
          hiringOrganization: { name: 'Orbis Freight Inc.' },
        },
        {
          jobPostingInfo: { title: 'B', jobReqId: 'R-2', externalPath: '/job/X/B_R-2' },
          hiringOrganization: { name: 'Orbis Logistics GmbH' },
        },
      ];
      expect(adapters.workday.parse(JSON.stringify(body), ctx).postings.map((p) => p.company.name)).toEqual([
        'Orbis Freight Inc.',
        'Orbis Logistics GmbH',
      ]);
    });

    it('a keyed detail wins over the board-wide employer', () => {
      const list = JSON.parse(fixture('workday/jobs.json'));
      list.hiringOrganization = { name: 'Nordkap Group' };
      const r = adapters.workday.parse(JSON.stringify(list), {
        ...ctx,
        board: 'workday/nordkap.wd3/Careers',
      });
      expect(r.postings.map((p) => p.company.name)).toEqual([
        'Nordkap Group',
        'Nordkap Marine AB',
        'Nordkap Group',
      ]);
    });
  });

  it("a detail's endDate is its expiry", () => {
    const detail = {
      jobPostingInfo: {
        title: 'Engineer',
        jobReqId: 'R1',
        location: 'USA-WA-Bellevue - 108th Ave',
        additionalLocations: ['NY-New York'],
        country: { descriptor: 'United States of America' },
        startDate: '2025-12-24',
        endDate: '2026-05-15',
        externalUrl: 'https://acme.wd1.myworkdayjobs.com/Ext/job/X/Engineer_R1',
      },
      hiringOrganization: { name: 'Acme' },
    };
    const [p] = adapters.workday.parse(JSON.stringify(detail), {
      source: 'workday',
      board: 'workday/acme.wd1/Ext',
      now: NOW,
    }).postings;
    expect(p.expires_at).toBe('2026-05-15T00:00:00.000Z');
    expect(p.location?.raw).toEqual(['USA-WA-Bellevue - 108th Ave', 'NY-New York']);
  });
});
