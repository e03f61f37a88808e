import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCrawlArgs, run } from '../../src/cli/crawl.ts';
import { capture as captureCli } from '../helpers/capture.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { fixture, startServer, type TestServer } from './crawl-helpers.ts';

let srv: TestServer;
let dir: string;
beforeAll(async () => {
  srv = await startServer();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'crawl-cli-'));
});
afterAll(async () => {
  await srv.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const capture = (args: string[]) => captureCli(run, args);

describe('crawl command', () => {
  it('validates its arguments', async () => {
    expect(
      parseCrawlArgs(['--boards', 'b.json', '--once', '--concurrency=8', '--base', 'lever=http://x']),
    ).toEqual({
      boards: 'b.json',
      once: true,
      interval: 900,
      concurrency: 8,
      bases: { lever: 'http://x' },
      http: {},
      dryRun: false,
    });
    expect((await capture([])).code).toBe(2);
    expect((await capture(['--boards', 'x.json', '--concurrency', '0'])).err).toContain(
      '--concurrency must be a whole number from 1 to 64',
    );
    expect((await capture(['--boards', 'x.json', '--base', 'monster=http://x'])).code).toBe(2);
    const missing = await capture(['--boards', path.join(dir, 'missing.json'), '--once']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('ENOENT');
  });

  it('prints one JSON line per board and keeps validators in --state', async () => {
    srv.set('GET', '/gh/v1/boards/brightfield/jobs?content=true', {
      body: fixture('greenhouse/board.json'),
      etag: '"a"',
    });
    srv.set('GET', '/ashby/posting-api/job-board/quillmetrics?includeCompensation=true', { status: 404 });
    const boards = path.join(dir, 'boards.json');
    await fs.writeFile(
      boards,
      JSON.stringify([
        { source: 'greenhouse', board: 'brightfield' },
        { source: 'ashby', board: 'quillmetrics' },
      ]),
    );
    const state = path.join(dir, 'state.json');
    const args = [
      '--boards',
      boards,
      '--once',
      '--dry-run',
      '--state',
      state,
      '--host-delay-ms',
      '0',
      '--retries',
      '0',
      '--base',
      `greenhouse=${srv.root}/gh`,
      '--base',
      `ashby=${srv.root}/ashby`,
    ];
    const first = await capture(args);
    expect(first.code).toBe(1);
    const lines = first.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.board, l.status, l.postings, l.error])).toEqual([
      ['greenhouse/brightfield', 'ok', 3, undefined],
      ['ashby/quillmetrics', 'failed', 0, 'HTTP 404'],
    ]);
    expect(first.err).toContain('1 failed');
    expect(JSON.parse(await fs.readFile(state, 'utf8'))).toEqual({
      validators: {
        'greenhouse/brightfield': {
          etag: '"a"',
          url: `${srv.root}/gh/v1/boards/brightfield/jobs?content=true`,
        },
      },
    });
    // A new process: the stored ETag turns the fetch into a 304.
    const second = await capture(args);
    expect(
      second.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).status),
    ).toEqual(['unchanged', 'failed']);
  });

  describe('with the database', () => {
    let db: TestDb;
    const saved = process.env.DATABASE_URL;
    beforeAll(async () => {
      db = await createTestDb();
      process.env.DATABASE_URL = db.url;
    });
    afterAll(async () => {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
      await db.drop();
    });

    it('loads the boards into the configured database', async () => {
      srv.set('GET', '/lever/v0/postings/tidewater?mode=json&skip=0&limit=100', {
        body: fixture('lever/postings.json'),
      });
      const boards = path.join(dir, 'lever.json');
      await fs.writeFile(
        boards,
        JSON.stringify([{ source: 'lever', board: 'tidewater', company: { name: 'Tidewater Travel' } }]),
      );
      const res = await capture([
        '--boards',
        boards,
        '--once',
        '--host-delay-ms',
        '0',
        '--base',
        `lever=${srv.root}/lever`,
      ]);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.out)).toMatchObject({
        board: 'lever/tidewater',
        status: 'ok',
        postings: 2,
        inserted: 2,
        rejected: 1,
      });
      const { rows } = await db.write.query('SELECT id FROM jobs ORDER BY id');
      expect(rows.map((r) => r.id)).toEqual([
        'lever:5b2c9f3e-1a4d-4c8e-9f00-1234567890ab',
        'lever:7d1e0a22-3b5f-4a6c-8d9e-0fedcba98765',
      ]);
    });
  });
});
