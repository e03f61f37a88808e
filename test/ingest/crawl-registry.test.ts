import { describe, expect, it } from 'vitest';
import { parseRegistry, RegistryError, toBoard } from '../../src/ingest/crawl/registry.ts';

describe('boards registry', () => {
  it('reads tokens from board URLs per source', () => {
    const cases: [string, string, string][] = [
      ['greenhouse', 'https://boards.greenhouse.io/brightfield', 'greenhouse/brightfield'],
      ['greenhouse', 'https://job-boards.greenhouse.io/brightfield/jobs/123', 'greenhouse/brightfield'],
      ['greenhouse', 'https://boards-api.greenhouse.io/v1/boards/brightfield/jobs', 'greenhouse/brightfield'],
      ['lever', 'https://jobs.lever.co/tidewater', 'lever/tidewater'],
      ['lever', 'https://api.lever.co/v0/postings/tidewater?mode=json', 'lever/tidewater'],
      ['ashby', 'https://jobs.ashbyhq.com/quillmetrics', 'ashby/quillmetrics'],
      ['workable', 'https://apply.workable.com/larkspur/', 'workable/larkspur'],
      [
        'smartrecruiters',
        'https://jobs.smartrecruiters.com/NorthwindFreight',
        'smartrecruiters/NorthwindFreight',
      ],
      ['recruitee', 'https://oakhaven.recruitee.com/', 'recruitee/oakhaven'],
      ['personio', 'https://fernweh.jobs.personio.de/', 'personio/fernweh'],
      ['personio', 'https://fernweh.jobs.personio.com/xml', 'personio/fernweh'],
      ['workday', 'https://nordkap.wd3.myworkdayjobs.com/en-US/Careers', 'workday/nordkap.wd3/Careers'],
      ['workday', 'https://nordkap.wd3.myworkdayjobs.com/Careers/job/X_R-1', 'workday/nordkap.wd3/Careers'],
      ['workday', 'nordkap.wd3/Careers', 'workday/nordkap.wd3/Careers'],
      ['lever', 'tidewater', 'lever/tidewater'],
    ];
    for (const [source, board, id] of cases) expect(toBoard({ source, board }).id, board).toBe(id);
  });

  it('JSON-LD boards are page URLs', () => {
    expect(toBoard({ source: 'jobmirror', board: 'https://jobmirror.example/jobs/remote/?page=1' })).toEqual({
      source: 'jobmirror',
      format: 'jsonld',
      token: 'jobmirror.example/jobs/remote?page=1',
      id: 'jobmirror/jobmirror.example/jobs/remote?page=1',
      url: 'https://jobmirror.example/jobs/remote/?page=1',
      company: undefined,
    });
    expect(() => toBoard({ source: 'alljobs', board: 'remote' })).toThrow(/must be a page URL/);
  });

  it('reports every bad entry and keeps duplicates once', () => {
    expect(() =>
      parseRegistry(
        JSON.stringify([
          { source: 'monster', board: 'x' },
          { source: 'lever', board: '' },
          { source: 'greenhouse', board: 'https://jobs.lever.co/acme' },
          { source: 'workday', board: 'acme' },
        ]),
      ),
    ).toThrow(
      new RegistryError(
        [
          'entry 1: unknown source "monster"',
          'entry 2: lever: board is missing',
          'entry 3: greenhouse: cannot read a board from "https://jobs.lever.co/acme" (expected a token or a board URL)',
          'entry 4: workday: cannot read a board from "acme" (expected {tenant}.wd{N}/{site} or a myworkdayjobs.com URL)',
        ].join('\n'),
      ),
    );
    const boards = parseRegistry(
      JSON.stringify([
        {
          source: 'lever',
          board: 'tidewater',
          company: { name: 'Tidewater Travel', slug: 'tidewater-travel' },
        },
        { source: 'lever', board: 'https://jobs.lever.co/tidewater' },
      ]),
    );
    expect(boards).toEqual([
      {
        source: 'lever',
        format: 'lever',
        token: 'tidewater',
        id: 'lever/tidewater',
        company: { name: 'Tidewater Travel', slug: 'tidewater-travel' },
      },
    ]);
    expect(() => parseRegistry('{"boards":[]}')).toThrow(/JSON array/);
    expect(() => parseRegistry('nope')).toThrow(/not JSON/);
  });
});
