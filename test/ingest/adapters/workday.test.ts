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

  it('a list entry with its detail: description, all locations, start date, time and remote type', () => {
    expect(res.postings[1]).toEqual({
      id: 'workday:R-20388',
      source: 'workday',
      title: 'Quality Engineer',
      company: { name: 'Nordkap Marine' },
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
});
