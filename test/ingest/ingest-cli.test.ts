// The ingest and keys commands in-process, on a fresh database.
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
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      inserted: 7,
      updated: 0,
      unchanged: 0,
      rejected: 3,
      folded: 1,
      expired: 1,
    });
    expect(r.err).toContain('rejected line 6: title is required');
  });

  it('loads saved source payloads with --format, a wrong-format file failing alone', async () => {
    const r = await capture(ingest, ['--format', 'greenhouse', 'test/fixtures/sources/greenhouse']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(report.inserted).toBe(4);
    expect(report.rejected).toBe(1);
    expect(report.files.find((f: { error?: string }) => f.error)?.file).toMatch(/marketing\.html$/);
    const { rows } = await db.write.query(
      `SELECT count(*)::int AS n FROM jobs WHERE source = 'greenhouse' AND board IS NOT NULL`,
    );
    expect(rows[0].n).toBe(4);
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
