// A bulk load builds the search indexes at its end instead of maintaining them row by row. Both paths
// must leave the same rows, the same indexes (usable) and the same answers; a load that stops before
// building them leaves them to the next migrate.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDataset } from '../../src/demo/write.ts';
import { BULK_MIN, beginBulkLoad, buildDeferredIndexes, shouldDefer } from '../../src/db/bulk-indexes.ts';
import { migrate } from '../../src/db/migrations.ts';
import { ingestFile } from '../../src/ingest/jsonl.ts';
import { compileFilters } from '../../src/search/filters.ts';
import { afterLoad } from '../../src/service/schedules.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let dir: string;
let files: string[];
let bulk: TestApp;
let incremental: TestApp;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bulk-load-'));
  const written = await writeDataset(dir, {
    jobs: 400,
    seed: 7,
    rounds: 1,
    now: new Date('2026-11-01T00:00:00Z'),
  });
  files = written.map((f) => f.file);
  [bulk, incremental] = await Promise.all([
    createTestApp({ sample: false }),
    createTestApp({ sample: false }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([bulk?.close(), incremental?.close()]);
  await fs.rm(dir, { recursive: true, force: true });
});

// Everything but the feed timestamps (taken from the clock of each database) and the rendered JSON
// that carries them.
const ROWS = `SELECT id, state, duplicate_of, source, company_slug, title_raw, dedupe_key, canonical_url,
                     modified_at IS NULL AS unmodified, modified_fields, expired_at IS NULL AS unexpired, gone,
                     country_codes, skills, taxonomies, tracked, content_hash, desc_text,
                     title_tsv::text AS title_tsv, text_tsv::text AS text_tsv
                FROM jobs ORDER BY id`;
const INDEXES = `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def, i.indisvalid AS valid, i.indisready AS ready
                   FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
                  WHERE i.indrelid IN ('jobs'::regclass, 'job_texts'::regclass) ORDER BY c.relname`;
// The live jobs' description vectors (migration 27), as the rows of jobs they come from give them.
const TEXTS = `SELECT id, country_codes, text_tsv::text AS text_tsv FROM job_texts ORDER BY id`;
const LIVE_TEXTS = `SELECT id, country_codes, text_tsv::text AS text_tsv FROM jobs WHERE state = 0 ORDER BY id`;

async function ids(app: TestApp, url: string): Promise<string[]> {
  const res = await app.get(url);
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: (string | { id: string })[] }).data.map((j) =>
    typeof j === 'string' ? j : j.id,
  );
}

const QUERIES = [
  '/v1/jobs?limit=100',
  '/v1/jobs?title=engineer&limit=100',
  '/v1/jobs?description=experience&limit=100',
  '/v1/jobs?country=US&limit=100',
  '/v1/jobs/feed?since=3650d&limit=1000',
  '/v1/jobs/modified?modified_gte=2000-01-01T00:00:00Z&limit=1000',
  '/v1/jobs/expired?expired_gte=2000-01-01T00:00:00Z&limit=1000',
];

describe('bulk load with deferred search indexes', () => {
  it('defers only large loads into a table no larger than the load', () => {
    expect(shouldDefer(BULK_MIN, 0)).toBe(true);
    expect(shouldDefer(BULK_MIN * 10, BULK_MIN * 10)).toBe(true);
    expect(shouldDefer(BULK_MIN - 1, 0)).toBe(false);
    expect(shouldDefer(BULK_MIN * 10, BULK_MIN * 10 + 1)).toBe(false);
  });

  it('builds the indexes at the end: same rows, same usable indexes, same answers as row-by-row', async () => {
    for (const [i, file] of files.entries()) {
      // The base snapshot into an empty table, then the round on top of it, each way.
      const [a, b] = await Promise.all([
        ingestFile(bulk.db, file, undefined, undefined, 'defer'),
        ingestFile(incremental.db, file, undefined, undefined, 'keep'),
      ]);
      expect(a).toEqual(b);
      expect(a.inserted).toBeGreaterThan(i === 0 ? 300 : 0);
      await Promise.all([afterLoad(bulk.db), afterLoad(incremental.db)]);
      const [ra, rb] = await Promise.all([bulk.db.write.query(ROWS), incremental.db.write.query(ROWS)]);
      expect(ra.rows.length).toBeGreaterThan(300);
      expect(ra.rows).toEqual(rb.rows);
      const [ta, tb] = await Promise.all([bulk.db.write.query(TEXTS), incremental.db.write.query(TEXTS)]);
      expect(ta.rows.length).toBeGreaterThan(200);
      expect(ta.rows).toEqual(tb.rows);
      expect(ta.rows).toEqual((await bulk.db.write.query(LIVE_TEXTS)).rows);
      const [ia, ib] = await Promise.all([bulk.db.write.query(INDEXES), incremental.db.write.query(INDEXES)]);
      expect(ia.rows).toEqual(ib.rows);
      expect(ia.rows.length).toBeGreaterThan(20);
      expect(ia.rows.every((r) => r.valid && r.ready)).toBe(true);
      expect((await bulk.db.write.query('SELECT * FROM deferred_indexes')).rows).toEqual([]);
      // Vectors staged ahead or kept from an unchanged text are the ones the text gives.
      const stale = await bulk.db.write.query(
        `SELECT count(*)::int AS n FROM jobs
          WHERE title_tsv <> to_tsvector('english', title_raw)
             OR text_tsv <> to_tsvector('english', title_raw || ' ' || (desc_text::json #>> '{}'))`,
      );
      expect(stale.rows[0].n).toBe(0);
      expect((await bulk.db.write.query('SELECT count(*)::int AS n FROM tsv_stage')).rows[0].n).toBe(0);
      for (const q of QUERIES) {
        const found = await ids(bulk, q);
        expect(found, q).toEqual(await ids(incremental, q));
        if (!/modified|expired/.test(q) || i > 0) expect(found.length, q).toBeGreaterThan(0);
      }
    }
    // A description search finds its matches in job_texts' rebuilt index, the country in the same index
    // scan, and joins them to jobs by id: no vector of jobs is tested. On a table this small the planner
    // would rather read the heap, so the sequential scan is off, as job_texts_ids turns it off.
    const client = await bulk.db.write.connect();
    try {
      await client.query('ANALYZE jobs');
      await client.query('ANALYZE job_texts');
      await client.query('BEGIN');
      const described = compileFilters({ description: "'zzyzx'", country: ['US'] });
      const plan = await client.query(
        `EXPLAIN (COSTS OFF) SELECT id FROM jobs j WHERE ${described.text}`,
        described.values,
      );
      const shown = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(shown).toMatch(/Function Scan on job_texts_ids/);
      expect(shown).not.toMatch(/text_tsv/);
      // The function's own statement, as it runs it.
      await client.query('SET LOCAL enable_seqscan = off');
      const inner = await client.query(
        `EXPLAIN (COSTS OFF) SELECT id FROM job_texts WHERE true AND text_tsv @@ to_tsquery('english', 'zzyzx')
            AND country_codes && '{US}'::text[]`,
      );
      const innerShown = inner.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(innerShown).toMatch(/Bitmap Index Scan on job_texts_text\n/);
      expect(innerShown).toMatch(/Index Cond: .*text_tsv.*country_codes/s);
      await client.query('ROLLBACK');
    } finally {
      client.release(true);
    }
  });

  it('a load that stops before building leaves the indexes to the next migrate, not to a running load', async () => {
    const before = (await bulk.db.write.query(INDEXES)).rows;
    const load = await beginBulkLoad(bulk.db.write);
    const dropped = (await bulk.db.write.query('SELECT name FROM deferred_indexes ORDER BY name')).rows;
    expect(dropped.map((r) => r.name)).toContain('jobs_live_title_tsv');
    expect(dropped.map((r) => r.name)).toContain('job_texts_text');
    expect((await bulk.db.write.query(INDEXES)).rows.length).toBe(before.length - dropped.length);
    // Another process starting meanwhile leaves them to the load that is still running.
    await migrate(bulk.db.write);
    expect((await bulk.db.write.query('SELECT count(*)::int AS n FROM deferred_indexes')).rows[0].n).toBe(
      dropped.length,
    );
    // The load's process dies: its session ends without building them.
    await bulk.db.write.query(
      `SELECT pg_terminate_backend(pid, 10000) FROM pg_locks
        WHERE locktype = 'advisory' AND objid = 7410003 AND granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    const built: [number, number][] = [];
    await migrate(bulk.db.write, (n, total) => built.push([n, total]));
    await load.finish(); // nothing left to build; returns its broken connection
    expect((await bulk.db.write.query(INDEXES)).rows).toEqual(before);
    expect((await bulk.db.write.query('SELECT count(*)::int AS n FROM deferred_indexes')).rows[0].n).toBe(0);
    expect(built.at(-1)).toEqual([dropped.length, dropped.length]);
  });

  it('tries a build again when a TOAST value it reads was vacuumed under it, and only then', async () => {
    // PostgreSQL's error when a vacuum of the TOAST table removed the value of a row the build still
    // reads, raised by the indexed expression on the first attempts. (PostgreSQL 17 runs an index build's
    // expressions with only pg_catalog on the search path: the function brings its own.)
    const db = bulk.db.write;
    await db.query(`CREATE TABLE build_probe (v text);
      INSERT INTO build_probe SELECT g::text FROM generate_series(1, 50) g;
      CREATE SEQUENCE build_raised;
      CREATE TABLE build_failing (times int, code text, message text);
      CREATE FUNCTION build_key(v text) RETURNS text LANGUAGE plpgsql IMMUTABLE SET search_path FROM CURRENT AS $$
      DECLARE
        f build_failing;
        raised bigint;
      BEGIN
        -- The sequence, which a rollback leaves as it is, counts the failures raised so far.
        IF v = '1' THEN
          SELECT * INTO f FROM build_failing;
          SELECT CASE WHEN is_called THEN last_value ELSE 0 END INTO raised FROM build_raised;
          IF raised < f.times THEN
            PERFORM nextval('build_raised');
            RAISE EXCEPTION USING ERRCODE = f.code, MESSAGE = f.message;
          END IF;
        END IF;
        RETURN v;
      END $$;`);
    const DEF = 'CREATE INDEX build_probe_key ON public.build_probe USING btree (build_key(v))';
    const RACE = 'missing chunk number 0 for toast value 9857151 in pg_toast_16704';
    /** Builds the probe's index with its first `times` attempts failing so: the outcome, the failures. */
    const build = async (times: number, code: string, message: string) => {
      await db.query('DROP INDEX IF EXISTS build_probe_key');
      await db.query('TRUNCATE build_failing');
      await db.query(`SELECT setval('build_raised', 1, false)`);
      await db.query('INSERT INTO build_failing VALUES ($1, $2, $3)', [times, code, message]);
      await db.query('INSERT INTO deferred_indexes (name, def) VALUES ($1, $2)', ['build_probe_key', DEF]);
      const outcome = await buildDeferredIndexes(db).then(
        () => 'built',
        (err: Error) => err.message,
      );
      const raised = (
        await db.query<{ n: string }>(
          'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM build_raised',
        )
      ).rows[0].n;
      const left = (await db.query('SELECT name FROM deferred_indexes')).rows.map((r) => r.name);
      await db.query('DELETE FROM deferred_indexes');
      return { outcome, failures: Number(raised), left };
    };
    try {
      expect(await build(1, 'XX001', RACE)).toEqual({ outcome: 'built', failures: 1, left: [] });
      expect(await build(2, 'XX001', RACE)).toEqual({ outcome: 'built', failures: 2, left: [] });
      // A value missing for good: three attempts, then the load's error, the index left to build.
      expect(await build(5, 'XX001', RACE)).toEqual({
        outcome: RACE,
        failures: 3,
        left: ['build_probe_key'],
      });
      // Any other failure is not tried again.
      expect(await build(5, 'XX001', 'invalid page in block 7')).toEqual({
        outcome: 'invalid page in block 7',
        failures: 1,
        left: ['build_probe_key'],
      });
      expect(await build(5, 'XX000', RACE)).toEqual({
        outcome: RACE,
        failures: 1,
        left: ['build_probe_key'],
      });
    } finally {
      await db.query(
        'DROP TABLE build_probe, build_failing; DROP SEQUENCE build_raised; DROP FUNCTION build_key',
      );
    }
  });
});
