// The crawler with the real ingestion pipeline on a fresh PostgreSQL database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/ingest/crawl/crawler.ts';
import { pipelineSink } from '../../src/ingest/crawl/pipeline-sink.ts';
import { parseRegistry } from '../../src/ingest/crawl/registry.ts';
import { seedSources } from '../../src/db/companies-write.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { fastHttp, fixture, startServer, type TestServer } from './crawl-helpers.ts';

let srv: TestServer;
let db: TestDb;
beforeAll(async () => {
  [srv, db] = await Promise.all([startServer(), createTestDb()]);
  await seedSources(db.write);
});
afterAll(async () => {
  await Promise.all([srv.close(), db.drop()]);
});

const GH = '/gh/v1/boards/brightfield/jobs?content=true';
const LEVER = '/lever/v0/postings/tidewater?mode=json&skip=0&limit=100';

async function rows(board: string) {
  const { rows } = await db.write.query<{ id: string; gone: boolean; expired: boolean }>(
    'SELECT id, gone, expired_at IS NOT NULL AS expired FROM jobs WHERE board = $1 ORDER BY id',
    [board],
  );
  return rows.map((r) => [r.id, r.gone, r.expired]);
}

describe('crawl into the pipeline', () => {
  it('loads, re-crawls idempotently, expires disappeared postings, and leaves failed boards alone', async () => {
    srv.set('GET', GH, { body: fixture('greenhouse/board.json') });
    srv.set('GET', LEVER, { body: fixture('lever/postings.json') });
    const boards = parseRegistry(
      JSON.stringify([
        { source: 'greenhouse', board: 'brightfield', company: { name: 'Brightfield Robotics' } },
        { source: 'lever', board: 'tidewater', company: { name: 'Tidewater Travel' } },
      ]),
    );
    const crawler = new Crawler(pipelineSink(db), {
      bases: { greenhouse: `${srv.root}/gh`, lever: `${srv.root}/lever` },
      http: fastHttp(),
      now: () => new Date('2026-06-01T12:00:00Z'),
    });

    const r1 = await crawler.round(boards);
    expect(r1.map((r) => [r.board, r.status, r.postings, r.inserted, r.updated, r.expired, r.error])).toEqual(
      [
        ['greenhouse/brightfield', 'ok', 3, 3, 0, 0, undefined],
        ['lever/tidewater', 'ok', 2, 2, 0, 0, undefined],
      ],
    );
    expect(await rows('greenhouse/brightfield')).toEqual([
      ['greenhouse:4012345006', false, false],
      ['greenhouse:4012345007', false, false],
      ['greenhouse:4012345009', false, false],
    ]);

    // The same payloads again: nothing changes.
    const r2 = await crawler.round(boards);
    expect(r2.map((r) => [r.status, r.inserted, r.updated, r.unchanged, r.expired])).toEqual([
      ['ok', 0, 0, 3, 0],
      ['ok', 0, 0, 2, 0],
    ]);

    // A posting disappears from Greenhouse; Lever answers 500.
    const gh = JSON.parse(fixture('greenhouse/board.json'));
    gh.jobs = gh.jobs.filter((j: { id: number }) => j.id !== 4012345009);
    srv.set('GET', GH, { body: JSON.stringify(gh) });
    srv.set('GET', LEVER, { status: 500 });
    const r3 = await crawler.round(boards);
    expect(r3.map((r) => [r.board, r.status, r.expired, r.error])).toEqual([
      ['greenhouse/brightfield', 'ok', 1, undefined],
      ['lever/tidewater', 'failed', 0, 'HTTP 500 (after 3 attempts)'],
    ]);
    expect(await rows('greenhouse/brightfield')).toEqual([
      ['greenhouse:4012345006', false, false],
      ['greenhouse:4012345007', false, false],
      ['greenhouse:4012345009', true, true],
    ]);
    expect(await rows('lever/tidewater')).toEqual([
      ['lever:5b2c9f3e-1a4d-4c8e-9f00-1234567890ab', false, false],
      ['lever:7d1e0a22-3b5f-4a6c-8d9e-0fedcba98765', false, false],
    ]);
  });
});
