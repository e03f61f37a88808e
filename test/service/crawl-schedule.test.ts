// The service's scheduled crawl: one round over the registry, by one process at a time.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../src/ingest/crawl/crawler.ts';
import { pipelineSink } from '../../src/ingest/crawl/pipeline-sink.ts';
import { runCrawl } from '../../src/service/schedules.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { fastHttp, fixture, startServer, type TestServer } from '../ingest/crawl-helpers.ts';

let srv: TestServer;
let db: TestDb;
let dir: string;
beforeAll(async () => {
  [srv, db] = await Promise.all([startServer(), createTestDb()]);
  await prepareDatabase(db);
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-crawl-'));
});
afterAll(async () => {
  await Promise.all([srv.close(), db.drop(), fs.rm(dir, { recursive: true, force: true })]);
});

describe('scheduled crawl', () => {
  it('loads the registry boards, refreshes jobs_count, and runs in one process at a time', async () => {
    srv.set('GET', '/gh/v1/boards/brightfield/jobs?content=true', {
      body: fixture('greenhouse/board.json'),
      delay: 50,
    });
    const registry = path.join(dir, 'boards.json');
    await fs.writeFile(
      registry,
      JSON.stringify([
        { source: 'greenhouse', board: 'brightfield', company: { name: 'Brightfield Robotics' } },
      ]),
    );
    const make = () =>
      new Crawler(pipelineSink(db), { bases: { greenhouse: `${srv.root}/gh` }, http: fastHttp() });
    const [a, b] = await Promise.all([runCrawl(db, make(), registry), runCrawl(db, make(), registry)]);
    const ran = [a, b].filter((r) => r !== undefined);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.map((r) => [r.board, r.status, r.inserted])).toEqual([
      ['greenhouse/brightfield', 'ok', 3],
    ]);
    const { rows } = await db.write.query(
      `SELECT count(*)::int AS n FROM jobs WHERE board = 'greenhouse/brightfield'`,
    );
    expect(rows[0].n).toBe(3);
  });
});
