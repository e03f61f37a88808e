// The ingest and keys commands in-process, on a fresh database.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as ingest } from '../../src/cli/ingest.ts';
import { run as keys } from '../../src/cli/keys.ts';
import { SAMPLE } from '../helpers/app.ts';
import { capture } from '../helpers/capture.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
let saved: string | undefined;
beforeAll(async () => {
  db = await createTestDb();
  saved = process.env.DATABASE_URL;
  process.env.DATABASE_URL = db.url;
});
afterAll(async () => {
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
  await db.drop();
});

describe('ingest command', () => {
  it('loads canonical JSON Lines and reports rejected lines with their numbers', async () => {
    const r = await capture(ingest, [SAMPLE]);
    expect(r.code).toBe(3); // some lines rejected, the rest loaded
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      inserted: 7,
      updated: 0,
      unchanged: 0,
      rejected: 3,
      folded: 1,
      expired: 1,
    });
    expect(r.err).toContain(`${SAMPLE}: rejected line 6: title is required`);
    expect(r.err).toMatch(
      /ingest: 8 postings loaded \(7 new, 0 changed, 0 unchanged, 1 folded as copies\), 3 rejected/,
    );
  });

  it('loads saved source payloads with --format, a wrong-format file failing alone', async () => {
    const r = await capture(ingest, ['--format', 'greenhouse', 'test/fixtures/sources/greenhouse']);
    expect(r.code).toBe(3); // some rejected (a posting, and a file that is not the format), the rest loaded
    const report = JSON.parse(r.out);
    expect(report.inserted).toBe(4);
    expect(report.rejected).toBe(2);
    expect(r.err).toMatch(/marketing\.html: rejected: not readable as greenhouse/);
    expect(r.err).toMatch(/ingest: 4 postings loaded .*, 2 rejected/);
    expect(report.files.find((f: { error?: string }) => f.error)?.file).toMatch(/marketing\.html$/);
    const { rows } = await db.write.query(
      `SELECT count(*)::int AS n FROM jobs WHERE source = 'greenhouse' AND board IS NOT NULL`,
    );
    expect(rows[0].n).toBe(4);
  });

  it('exits 4 when nothing could be loaded, naming each rejection; unlisted postings are skipped, not rejected', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-cli-'));
    const board = JSON.parse(fs.readFileSync('test/fixtures/sources/ashby/board.json', 'utf8'));
    const broken = { ...board, jobs: board.jobs.map((j: object) => ({ ...j, title: '', isListed: true })) };
    fs.writeFileSync(path.join(dir, 'broken.json'), JSON.stringify(broken));
    const none = await capture(ingest, ['--format', 'ashby', path.join(dir, 'broken.json')]);
    expect(none.code).toBe(4);
    const lines = none.err.split('\n').filter((l) => l.includes(': rejected'));
    expect(lines).toHaveLength(board.jobs.length);
    for (const l of lines) expect(l).toMatch(/broken\.json: rejected [\w-]+: \w.+/);
    expect(lines.filter((l) => /title/.test(l)).length).toBeGreaterThan(0);
    expect(JSON.parse(none.out).rejected).toBe(board.jobs.length);

    const unlisted = {
      ...board,
      jobs: board.jobs
        .filter((j: { jobUrl?: string }) => j.jobUrl)
        .map((j: object, i: number) => ({ ...j, isListed: i !== 0 })),
    };
    fs.writeFileSync(path.join(dir, 'unlisted.json'), JSON.stringify(unlisted));
    const some = await capture(ingest, ['--format', 'ashby', path.join(dir, 'unlisted.json')]);
    expect(some.code).toBe(0);
    expect(JSON.parse(some.out)).toMatchObject({ rejected: 0, skipped: 1 });
    expect(some.err).toMatch(/0 rejected, 1 skipped on purpose \(unlisted or draft\)/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('unreadable input is one line and exit 6; unknown formats and options are usage errors', async () => {
    const missing = await capture(ingest, ['/nonexistent/file.jsonl']);
    expect(missing.code).toBe(6);
    expect(missing.err).toBe('error: cannot read /nonexistent/file.jsonl: no such file or directory\n');
    const fmt = await capture(ingest, ['--format', 'monster', 'x.json']);
    expect(fmt.code).toBe(2);
    expect(fmt.err).toMatch(/^error: unknown format "monster" \(known: greenhouse, /);
    expect((await capture(ingest, ['--source', 'x', SAMPLE])).code).toBe(2);
  });

  it('a board the index does not know loads in one command when described, and the error says how', async () => {
    const unknown = await capture(ingest, [
      '--format',
      'jsonld',
      '--source',
      'jobsnorth',
      'test/fixtures/sources/jsonld/careerboard-job.html',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('--source jobsnorth --source-type jobboard --source-domain');
    const r = await capture(ingest, [
      '--format',
      'jsonld',
      '--source',
      'jobsnorth',
      '--source-type',
      'jobboard',
      '--source-domain',
      'jobsnorth.example.org',
      'test/fixtures/sources/jsonld/careerboard-job.html',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).inserted).toBe(1);
    const { rows } = await db.write.query(`SELECT type, domain FROM sources WHERE slug = 'jobsnorth'`);
    expect(rows).toEqual([{ type: 'jobboard', domain: 'jobsnorth.example.org' }]);
    const bad = await capture(ingest, [
      '--format',
      'jsonld',
      '--source',
      'x2',
      '--source-type',
      'blog',
      '--source-domain',
      'x.org',
      'a.html',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--source-type must be one of ats, jobboard, aggregator/);
  });

  it('jsonld needs --source, and takes it', async () => {
    expect((await capture(ingest, ['--format', 'jsonld', 'test/fixtures/sources/jsonld'])).code).toBe(2);
    const r = await capture(ingest, [
      '--format',
      'jsonld',
      '--source',
      'careerboard',
      'test/fixtures/sources/jsonld',
    ]);
    expect(JSON.parse(r.out).inserted).toBe(3);
  });

  it('--url gives a saved page that names no URL of its own its address; it is checked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-url-'));
    const page = path.join(dir, 'page.html');
    const posting = {
      '@context': 'https://schema.org',
      '@type': 'JobPosting',
      title: 'Welder',
      identifier: 'W-1',
    };
    fs.writeFileSync(
      page,
      `<html><script type="application/ld+json">${JSON.stringify(posting)}</script></html>`,
    );
    const base = ['--format', 'jsonld', '--source', 'careerboard'];
    const without = await capture(ingest, [...base, page]);
    expect(JSON.parse(without.out).rejections[0].reason).toBe('missing url');
    const r = await capture(ingest, [...base, '--url', 'https://careerboard.example/jobs/w-1', page]);
    expect(JSON.parse(r.out).inserted).toBe(1);
    for (const bad of [
      [...base, '--url', 'careerboard.example/jobs/w-1', page],
      [...base, '--url', 'https://careerboard.example/jobs/w-1', page, page],
      ['--format', 'greenhouse', '--url', 'https://careerboard.example/jobs/w-1', page],
      ['--url', 'https://careerboard.example/jobs/w-1', page],
    ]) {
      const e = await capture(ingest, bad);
      expect([e.code, e.err]).toEqual([2, expect.stringContaining('--url')]);
    }
    fs.rmSync(dir, { recursive: true });
  });
});

describe('keys command', () => {
  it('creates (key alone on stdout), lists and revokes; an 11th active key is refused', async () => {
    const created = await capture(keys, ['create', '--account', 'cli']);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^jps_[0-9a-f]{48}\n$/);
    const listed = await capture(keys, ['list', '--account', 'cli']);
    const rows = listed.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ account: 'cli', revoked_at: null });
    expect(listed.out).not.toContain(created.out.trim());
    for (let i = 0; i < 9; i++) expect((await capture(keys, ['create', '--account', 'cli'])).code).toBe(0);
    const refused = await capture(keys, ['create', '--account', 'cli']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/10 active keys/);
    expect((await capture(keys, ['revoke', String(rows[0].id)])).code).toBe(0);
    expect((await capture(keys, ['revoke', String(rows[0].id)])).code).toBe(1);
    expect((await capture(keys, ['create', '--account', 'cli'])).code).toBe(0);
  });
});
