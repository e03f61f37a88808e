import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnrichThread } from '../../src/ingest/enrich-thread.ts';
import { ingestFile } from '../../src/ingest/jsonl.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { SAMPLE } from '../helpers/app.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
});
afterAll(async () => {
  await db.drop();
});

describe('canonical JSON Lines loader', () => {
  it('rejects malformed lines with their line number and reason and loads the rest', async () => {
    const report = await ingestFile(db, SAMPLE);
    expect(report.inserted).toBe(7);
    expect(report.updated).toBe(0);
    expect(report.folded).toBe(1);
    expect(report.expired).toBe(1);
    expect(report.rejected).toEqual([
      { line: 6, reason: 'title is required' },
      { line: 7, reason: expect.stringMatching(/^invalid JSON/) },
      { line: 13, id: 'nosuch:1', reason: 'unknown source "nosuch"' },
    ]);
    const { rows } = await db.write.query('SELECT id, state FROM jobs ORDER BY id');
    expect(rows).toEqual([
      { id: 'ashby:q-1', state: 0 },
      { id: 'careerboard:cb-77', state: 2 },
      { id: 'greenhouse:1001', state: 0 },
      { id: 'greenhouse:1002', state: 0 },
      { id: 'greenhouse:1003', state: 1 },
      { id: 'lever:aa-1', state: 0 },
      { id: 'workable:w-1', state: 0 },
    ]);
  });

  it('re-loading the same file changes nothing', async () => {
    const before = await db.write.query('SELECT id, doc, modified_at, updated_at FROM jobs ORDER BY id');
    const clock = await db.write.query('SELECT last FROM feed_clock');
    const version = await db.write.query('SELECT version FROM data_version');
    const report = await ingestFile(db, SAMPLE);
    expect(report).toMatchObject({ inserted: 0, updated: 0, unchanged: 7, expired: 0, folded: 0 });
    const after = await db.write.query('SELECT id, doc, modified_at, updated_at FROM jobs ORDER BY id');
    expect(after.rows).toEqual(before.rows);
    // Nothing changed, so cached totals and stats stay valid.
    expect((await db.write.query('SELECT version FROM data_version')).rows).toEqual(version.rows);
    expect(
      (await db.write.query('SELECT last FROM feed_clock')).rows[0].last.getTime(),
    ).toBeGreaterThanOrEqual(clock.rows[0].last.getTime());
  });

  it('the enrichment thread writes exactly what enrichment in this thread writes', async () => {
    const before = await db.write.query('SELECT id, content_hash, doc FROM jobs ORDER BY id');
    const thread = startEnrichThread();
    try {
      // Every stored column is under content_hash: "unchanged" means byte-identical rows.
      const report = await ingestFile(db, SAMPLE, undefined, thread.enrich);
      expect(report).toMatchObject({ inserted: 0, updated: 0, unchanged: 7, expired: 0, folded: 0 });
      expect(report.rejected.map((r) => r.line)).toEqual([6, 7, 13]);
      // The same thread serves a second file.
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-thread-'));
      const file = path.join(dir, 'proto.jsonl');
      const line = (id: string, extra: object) =>
        JSON.stringify({
          id: `greenhouse:${id}`,
          source: 'greenhouse',
          title: 'Thread Test',
          company: { name: 'Thread Co' },
          url: `https://jobs.example/${id}`,
          description_text: 'Testing the thread.',
          ...extra,
        });
      await fs.writeFile(file, `${line('t1', {})}\n${line('t2', { location: { raw: ['Lyon, France'] } })}\n`);
      const r2 = await ingestFile(db, file, undefined, thread.enrich);
      expect(r2).toMatchObject({ inserted: 2, rejected: [] });
    } finally {
      await thread.close();
    }
    const after = await db.write.query(
      "SELECT id, content_hash, doc FROM jobs WHERE id NOT LIKE 'greenhouse:t%' ORDER BY id",
    );
    expect(after.rows).toEqual(before.rows);
  });

  it('a legacy source slug is accepted on input and stored as the public slug', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-load-'));
    const file = path.join(dir, 'legacy.jsonl');
    await fs.writeFile(
      file,
      `${JSON.stringify({
        kind: 'posting',
        id: 'greenhouse_io:77',
        source: 'greenhouse_io',
        title: 'Legacy Row',
        company: { name: 'Legacy Co' },
        url: 'https://legacy.example/77',
      })}\n`,
    );
    const report = await ingestFile(db, file);
    expect(report.inserted).toBe(1);
    const { rows } = await db.write.query(`SELECT id, source, doc FROM jobs WHERE id LIKE '%:77'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe('greenhouse:77');
    expect(JSON.parse(rows[0].doc).source).toBe('greenhouse');
    await fs.rm(dir, { recursive: true });
  });

  it('rejects oversized fields instead of failing the batch', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-load-'));
    const file = path.join(dir, 'big.jsonl');
    const row = (i: number, name: string) =>
      JSON.stringify({
        kind: 'posting',
        id: `lever:big-${i}`,
        source: 'lever',
        title: `Role ${i}`,
        company: { name },
        url: `https://ok.example/${i}`,
      });
    await fs.writeFile(file, `${row(1, 'Fine')}\n${row(2, 'x'.repeat(20_000))}\n`);
    const report = await ingestFile(db, file);
    expect(report.inserted).toBe(1);
    expect(report.rejected).toEqual([{ line: 2, reason: 'company.name must be at most 300 characters' }]);
    await fs.rm(dir, { recursive: true });
  });

  it('a batch that fails in the database leaves nothing half-written', async () => {
    const count = async () => (await db.write.query('SELECT count(*)::int AS n FROM jobs')).rows[0].n;
    const before = await count();
    // A failing write in the middle of a batch (as a crash would) rolls the whole batch back.
    await db.write.query(`CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = 'lever:poison' THEN RAISE EXCEPTION 'simulated failure'; END IF; RETURN NEW; END $$`);
    await db.write.query(
      'CREATE TRIGGER poison BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION poison()',
    );
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-load-'));
    const file = path.join(dir, 'bad.jsonl');
    const row = (id: string) =>
      JSON.stringify({
        kind: 'posting',
        id: `lever:${id}`,
        source: 'lever',
        title: `Role ${id}`,
        company: { name: 'Ok' },
        url: `https://ok.example/${id}`,
      });
    await fs.writeFile(file, `${row('ok-1')}\n${row('poison')}\n${row('ok-2')}\n`);
    try {
      await expect(ingestFile(db, file)).rejects.toThrow(/simulated failure/);
      expect(await count()).toBe(before);
    } finally {
      await db.write.query('DROP TRIGGER poison ON jobs');
      await fs.rm(dir, { recursive: true });
    }
  });
});
