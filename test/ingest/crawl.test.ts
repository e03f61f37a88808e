import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BoardReport, Crawler } from '../../src/ingest/crawl/crawler.ts';
import { MemorySink } from '../../src/ingest/crawl/memory-sink.ts';
import { type Board, parseRegistry } from '../../src/ingest/crawl/registry.ts';
import { fastHttp, fixture, startServer, type TestServer } from './crawl-helpers.ts';

let srv: TestServer;
beforeAll(async () => {
  srv = await startServer();
});
afterAll(async () => {
  await srv.close();
});

const NOW = new Date('2026-06-01T12:00:00Z');

function bases(root: string) {
  return {
    greenhouse: `${root}/gh`,
    lever: `${root}/lever`,
    ashby: `${root}/ashby`,
    workable: `${root}/workable`,
    smartrecruiters: `${root}/sr`,
    recruitee: `${root}/recruitee/{token}`,
    personio: `${root}/personio/{token}`,
    workday: `${root}/wd/{tenant}/{wd}`,
  };
}

function registry(root: string): Board[] {
  return parseRegistry(
    JSON.stringify([
      {
        source: 'greenhouse',
        board: 'https://boards.greenhouse.io/brightfield',
        company: { name: 'Brightfield Robotics' },
      },
      { source: 'lever', board: 'tidewater' },
      { source: 'ashby', board: 'quillmetrics' },
      { source: 'workable', board: 'larkspur' },
      { source: 'smartrecruiters', board: 'NorthwindFreight' },
      { source: 'recruitee', board: 'https://oakhaven.recruitee.com/' },
      { source: 'personio', board: 'fernweh' },
      { source: 'workday', board: 'https://nordkap.wd3.myworkdayjobs.com/en-US/Careers' },
      { source: 'careerboard', board: `${root}/cb/jobs/88213` },
    ]),
  );
}

const GH = 'GET /gh/v1/boards/brightfield/jobs?content=true';
const SR_LIST = '/sr/v1/companies/NorthwindFreight/postings';
const WD = '/wd/nordkap/wd3/wday/cxs/nordkap/Careers';

function serveAll(s: TestServer) {
  const [gm, gp] = GH.split(' ');
  s.set(gm, gp, {
    body: fixture('greenhouse/board.json'),
    etag: '"gh-v1"',
    headers: { 'content-type': 'application/json' },
  });
  s.set('GET', '/lever/v0/postings/tidewater?mode=json&skip=0&limit=100', {
    body: fixture('lever/postings.json'),
  });
  s.set('GET', '/ashby/posting-api/job-board/quillmetrics?includeCompensation=true', {
    body: fixture('ashby/board.json'),
  });
  s.set('GET', '/workable/api/v1/widget/accounts/larkspur?details=true', {
    body: fixture('workable/account.json'),
  });
  // SmartRecruiters: the list has summaries; details carry the description and URLs.
  const sr = JSON.parse(fixture('smartrecruiters/postings.json'));
  const summaries = sr.content.map((c: Record<string, unknown>) => {
    const { jobAd: _a, postingUrl: _p, applyUrl: _u, ...rest } = c;
    return rest;
  });
  s.set('GET', `${SR_LIST}?limit=100&offset=0`, { body: JSON.stringify({ ...sr, content: summaries }) });
  s.set('GET', `${SR_LIST}/744000012345678`, { body: JSON.stringify(sr.content[0]) });
  s.set('GET', `${SR_LIST}/744000012345679`, { body: JSON.stringify(sr.content[1]) });
  // The third was withdrawn between the list and the detail call.
  s.set('GET', `${SR_LIST}/744000012345680`, { status: 404, body: '{}' });
  s.set('GET', '/recruitee/oakhaven/api/offers/', { body: fixture('recruitee/offers.json') });
  s.set('GET', '/personio/fernweh/xml?language=en', { body: fixture('personio/positions.xml') });
  serveWorkday(s, JSON.parse(fixture('workday/jobs.json')));
  s.set('GET', '/cb/jobs/88213', {
    body: fixture('jsonld/careerboard-job.html'),
    lastModified: 'Sun, 24 May 2026 08:00:00 GMT',
  });
}

function serveWorkday(
  s: TestServer,
  doc: { jobPostings: Record<string, unknown>[]; details: Record<string, unknown> },
) {
  s.set('POST', `${WD}/jobs`, {
    body: JSON.stringify({ total: doc.jobPostings.length, jobPostings: doc.jobPostings }),
  });
  for (const p of doc.jobPostings) {
    const path = p.externalPath as string;
    const detail = doc.details[path] ?? {
      jobPostingInfo: {
        title: p.title,
        jobReqId: (p.bulletFields as string[])[0],
        location: p.locationsText,
        startDate: '2026-05-20',
        timeType: 'Full time',
        externalPath: path,
      },
    };
    s.set('GET', `${WD}${path}`, { body: JSON.stringify(detail) });
  }
}

const pick = (r: BoardReport) => {
  const { ms: _ms, requests: _r, reasons: _x, ...rest } = r;
  return rest;
};
const ok = (board: string, o: Partial<BoardReport>): Omit<BoardReport, 'ms' | 'requests' | 'reasons'> => ({
  board,
  status: 'ok',
  fetched: 0,
  postings: 0,
  rejected: 0,
  dropped: 0,
  inserted: 0,
  updated: 0,
  unchanged: 0,
  folded: 0,
  expired: 0,
  ...o,
});
const failed = (board: string, error: string) => ({ ...ok(board, {}), status: 'failed' as const, error });

describe('crawler against a local server', () => {
  it('loads, expires what disappears, keeps boards whose fetch failed, and skips unchanged payloads', async () => {
    srv.routes.clear();
    serveAll(srv);
    const boards = registry(srv.root);
    const cb = boards[8].id;
    const waits: number[] = [];
    const sink = new MemorySink();
    const crawler = new Crawler(sink, {
      concurrency: 3,
      bases: bases(srv.root),
      http: fastHttp(waits),
      now: () => NOW,
    });

    // Round 1: every board loads.
    const r1 = await crawler.round(boards);
    expect(r1.map(pick)).toEqual([
      ok('greenhouse/brightfield', { fetched: 4, postings: 3, rejected: 1, inserted: 3 }),
      ok('lever/tidewater', { fetched: 3, postings: 2, rejected: 1, inserted: 2 }),
      ok('ashby/quillmetrics', { fetched: 5, postings: 3, rejected: 1, dropped: 1, inserted: 3 }),
      ok('workable/larkspur', { fetched: 3, postings: 2, rejected: 1, inserted: 2 }),
      ok('smartrecruiters/NorthwindFreight', { fetched: 2, postings: 2, inserted: 2 }),
      ok('recruitee/oakhaven', { fetched: 4, postings: 2, rejected: 1, dropped: 1, inserted: 2 }),
      ok('personio/fernweh', { fetched: 3, postings: 2, rejected: 1, inserted: 2 }),
      ok('workday/nordkap.wd3/Careers', { fetched: 3, postings: 3, inserted: 3 }),
      ok(cb, { fetched: 1, postings: 1, inserted: 1 }),
    ]);
    expect(r1[0].reasons).toEqual([{ native_id: '4012345008', reason: 'missing title' }]);
    expect(sink.live()).toHaveLength(20);
    // The registry company reaches the records; details were fetched and merged.
    expect(sink.jobs.get('greenhouse:4012345007')!.record.company).toEqual({ name: 'Brightfield Robotics' });
    expect(sink.jobs.get('smartrecruiters:744000012345678')!.record.description_html).toContain(
      'Plan truck routes',
    );
    expect(sink.jobs.get('workday:R-20388')!.record.description_html).toContain('supplier quality');
    // The employer is the detail's hiringOrganization; without one, the tenant.
    expect(sink.jobs.get('workday:R-20388')!.record.company.name).toBe('Nordkap Marine AB');
    expect(sink.jobs.get('workday:R-20417')!.record.company.name).toBe('nordkap');
    const wdPost = srv.log.find((l) => l.method === 'POST');
    expect(JSON.parse(wdPost!.body)).toEqual({ appliedFacets: {}, limit: 20, offset: 0, searchText: '' });
    expect(waits).toEqual([]);

    // Round 2: greenhouse changes; other boards fail in the ways a host can fail.
    const gh = JSON.parse(fixture('greenhouse/board.json'));
    gh.jobs = gh.jobs.filter((j: { id: number }) => j.id !== 4012345009);
    gh.jobs[0].title = 'Staff Backend Engineer';
    gh.jobs.push({
      ...gh.jobs[1],
      id: 4012345010,
      title: 'Robotics Technician',
      absolute_url: 'https://boards.greenhouse.io/brightfield/jobs/4012345010',
    });
    srv.set('GET', GH.split(' ')[1], { body: JSON.stringify(gh), etag: '"gh-v2"' });
    srv.set('GET', '/ashby/posting-api/job-board/quillmetrics?includeCompensation=true', {
      status: 500,
      body: 'oops',
    });
    srv.set('GET', '/workable/api/v1/widget/accounts/larkspur?details=true', {
      body: '<!doctype html><html><body>Larkspur is hiring! Visit our new careers site.</body></html>',
      headers: { 'content-type': 'text/html' },
    });
    srv.set('GET', '/recruitee/oakhaven/api/offers/', { status: 429, headers: { 'retry-after': '1' } });
    srv.set('GET', '/personio/fernweh/xml?language=en', {
      status: 302,
      headers: { location: '/personio/fernweh/login' },
    });
    const wd = JSON.parse(fixture('workday/jobs.json'));
    wd.jobPostings = wd.jobPostings.filter((p: { title: string }) => p.title !== 'Plant Controller');
    serveWorkday(srv, wd);
    const logBefore = srv.log.length;

    const r2 = await crawler.round(boards);
    expect(r2.map(pick)).toEqual([
      ok('greenhouse/brightfield', {
        fetched: 4,
        postings: 3,
        rejected: 1,
        inserted: 1,
        updated: 1,
        unchanged: 1,
        expired: 1,
      }),
      ok('lever/tidewater', { fetched: 3, postings: 2, rejected: 1, unchanged: 2 }),
      failed('ashby/quillmetrics', 'HTTP 500 (after 3 attempts)'),
      failed('workable/larkspur', 'workable: payload is an HTML/XML document'),
      ok('smartrecruiters/NorthwindFreight', { fetched: 2, postings: 2, unchanged: 2 }),
      failed('recruitee/oakhaven', 'HTTP 429 (after 3 attempts)'),
      failed('personio/fernweh', 'redirected (302) to /personio/fernweh/login'),
      ok('workday/nordkap.wd3/Careers', { fetched: 2, postings: 2, unchanged: 2, expired: 1 }),
      { ...ok(cb, {}), status: 'unchanged' },
    ]);
    // Conditional requests were sent with the stored validators.
    const round2 = srv.log.slice(logBefore);
    expect(round2.find((l) => l.url.startsWith('/gh/'))!.headers['if-none-match']).toBe('"gh-v1"');
    expect(round2.find((l) => l.url === '/cb/jobs/88213')!.headers['if-modified-since']).toBe(
      'Sun, 24 May 2026 08:00:00 GMT',
    );
    // Details of unchanged list entries came from the cache; only the withdrawn one is asked again.
    expect(
      round2
        .filter((l) => l.url.startsWith(`${SR_LIST}/`) || l.url.startsWith(`${WD}/job/`))
        .map((l) => l.url),
    ).toEqual([`${SR_LIST}/744000012345680`]);
    // Retry-After was honoured (1 s), backoff doubled for the 500s.
    expect(waits.filter((w) => w === 1000)).toHaveLength(2);
    expect(waits.filter((w) => w !== 1000)).toEqual([10, 20]);

    // Only the disappeared postings expired; failed boards kept every posting live.
    const live = sink.live();
    expect(live).toHaveLength(19);
    expect(live).not.toContain('greenhouse:4012345009');
    expect(live).not.toContain('workday:R-20399');
    expect(live).toContain('greenhouse:4012345010');
    for (const id of [
      'ashby:0c7d2f9a-5e1b-4f3a-9a44-2b8e6d1c0001',
      'workable:A1B2C3D4E5',
      'recruitee:1893001',
      'personio:1402201',
    ]) {
      expect(live).toContain(id);
    }
    expect(sink.jobs.get('greenhouse:4012345006')!.record.title).toBe('Staff Backend Engineer');
    // No expiry call at all for failed or unchanged boards.
    const expiredBoards = sink.calls.expireCalls.slice(9).map((c) => c.board);
    expect(expiredBoards).toEqual([
      'greenhouse/brightfield',
      'lever/tidewater',
      'smartrecruiters/NorthwindFreight',
      'workday/nordkap.wd3/Careers',
    ]);

    // Round 3, nothing changed: the ETag board answers 304, the others load with no changes.
    const r3 = await crawler.round(boards);
    expect(r3.map((r) => [r.board, r.status, r.inserted, r.updated, r.expired])).toEqual([
      ['greenhouse/brightfield', 'unchanged', 0, 0, 0],
      ['lever/tidewater', 'ok', 0, 0, 0],
      ['ashby/quillmetrics', 'failed', 0, 0, 0],
      ['workable/larkspur', 'failed', 0, 0, 0],
      ['smartrecruiters/NorthwindFreight', 'ok', 0, 0, 0],
      ['recruitee/oakhaven', 'failed', 0, 0, 0],
      ['personio/fernweh', 'failed', 0, 0, 0],
      ['workday/nordkap.wd3/Careers', 'ok', 0, 0, 0],
      [cb, 'unchanged', 0, 0, 0],
    ]);
    expect(sink.live()).toEqual(live);
  });

  it('a second identical round without validators changes nothing', async () => {
    srv.routes.clear();
    serveAll(srv);
    srv.set('GET', GH.split(' ')[1], { body: fixture('greenhouse/board.json') });
    const boards = registry(srv.root).slice(0, 2);
    const sink = new MemorySink();
    const crawler = new Crawler(sink, { bases: bases(srv.root), http: fastHttp(), now: () => NOW });
    await crawler.round(boards);
    const first = JSON.stringify([...sink.jobs]);
    const r2 = await crawler.round(boards);
    expect(r2.map((r) => [r.status, r.inserted, r.updated, r.unchanged, r.expired])).toEqual([
      ['ok', 0, 0, 3, 0],
      ['ok', 0, 0, 2, 0],
    ]);
    expect(JSON.stringify([...sink.jobs])).toBe(first);
  });

  it('a 429 with Retry-After is waited out and then loads', async () => {
    srv.routes.clear();
    let calls = 0;
    srv.set('GET', '/recruitee/oakhaven/api/offers/', () =>
      ++calls === 1
        ? { status: 429, headers: { 'retry-after': '2' } }
        : { body: fixture('recruitee/offers.json') },
    );
    const waits: number[] = [];
    const sink = new MemorySink();
    const crawler = new Crawler(sink, { bases: bases(srv.root), http: fastHttp(waits), now: () => NOW });
    const [r] = await crawler.round(registry(srv.root).filter((b) => b.source === 'recruitee'));
    expect([r.status, r.postings, r.requests]).toEqual(['ok', 2, 2]);
    expect(waits).toEqual([2000]);
  });

  it('an empty but valid board expires everything it listed before', async () => {
    srv.routes.clear();
    serveAll(srv);
    const boards = registry(srv.root).slice(0, 1);
    const sink = new MemorySink();
    const crawler = new Crawler(sink, { bases: bases(srv.root), http: fastHttp(), now: () => NOW });
    await crawler.round(boards);
    srv.set('GET', GH.split(' ')[1], { body: '{"jobs":[],"meta":{"total":0}}' });
    const [r] = await crawler.round(boards);
    expect([r.status, r.postings, r.expired]).toEqual(['ok', 0, 3]);
    expect(sink.live()).toEqual([]);
  });

  it('a failing sink fails the board and keeps its validators unset', async () => {
    srv.routes.clear();
    serveAll(srv);
    const boards = registry(srv.root).slice(0, 1);
    const sink = new MemorySink();
    sink.ingestRecords = async () => {
      throw new Error('database unavailable');
    };
    const crawler = new Crawler(sink, { bases: bases(srv.root), http: fastHttp(), now: () => NOW });
    const [r] = await crawler.round(boards);
    expect([r.status, r.error]).toEqual(['failed', 'ingestion failed: database unavailable']);
    expect(crawler.state.validators).toEqual({});
    expect(sink.calls.expireCalls).toEqual([]);
  });

  it('pages through Lever and Workday listings', async () => {
    srv.routes.clear();
    const lever = (i: number) => ({
      id: `p-${i}`,
      text: `Role ${i}`,
      categories: { location: 'Lisbon' },
      hostedUrl: `https://jobs.lever.co/tidewater/p-${i}`,
    });
    const all = Array.from({ length: 130 }, (_, i) => lever(i));
    srv.set('GET', '/lever/v0/postings/tidewater?mode=json&skip=0&limit=100', {
      body: JSON.stringify(all.slice(0, 100)),
    });
    srv.set('GET', '/lever/v0/postings/tidewater?mode=json&skip=100&limit=100', {
      body: JSON.stringify(all.slice(100)),
    });
    // Workday: later pages report total 0; the first page's total is the real one.
    const wd = (i: number) => ({
      title: `Job ${i}`,
      externalPath: `/job/X/Job-${i}_R-${i}`,
      bulletFields: [`R-${i}`],
    });
    const list = Array.from({ length: 25 }, (_, i) => wd(i));
    srv.set('POST', `${WD}/jobs`, (_req, body) => {
      const { offset } = JSON.parse(body);
      return {
        body: JSON.stringify({ total: offset === 0 ? 25 : 0, jobPostings: list.slice(offset, offset + 20) }),
      };
    });
    for (const p of list) {
      srv.set('GET', `${WD}${p.externalPath}`, {
        body: JSON.stringify({
          jobPostingInfo: { title: p.title, jobReqId: p.bulletFields[0], startDate: '2026-05-20' },
        }),
      });
    }
    const boards = registry(srv.root).filter((b) => b.source === 'lever' || b.source === 'workday');
    const sink = new MemorySink();
    const crawler = new Crawler(sink, {
      bases: bases(srv.root),
      http: fastHttp(),
      now: () => NOW,
      detailConcurrency: 4,
    });
    const from = srv.log.length;
    const reports = await crawler.round(boards);
    expect(reports.map((r) => [r.board, r.status, r.postings])).toEqual([
      ['lever/tidewater', 'ok', 130],
      ['workday/nordkap.wd3/Careers', 'ok', 25],
    ]);
    expect(
      srv.log
        .slice(from)
        .filter((l) => l.method === 'POST')
        .map((l) => JSON.parse(l.body).offset),
    ).toEqual([0, 20]);
  });
});
