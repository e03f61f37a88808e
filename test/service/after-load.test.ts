// What follows a load: the refresh when anything changed; a load of a sizeable share of the jobs table
// (≥ 1 %) is told so (the match index is saved after it), and only a load that rewrote a fifth of it
// vacuums (a change round's dead rows are autovacuum's; a one-posting crawl must not pay a pass over every row).
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterIngest } from '../../src/cli/after-ingest.ts';
import { dataVersion } from '../../src/db/stats.ts';
import { MatchService } from '../../src/search/match.ts';
import { saveIndex } from '../../src/search/match-index.ts';
import { carriedByTheService, hostMatchIndex, matchIndexFile } from '../../src/service/match-host.ts';
import type { CanonicalLine, PostingRecord } from '../../src/model/record.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { afterLoad, writtenBy } from '../../src/service/schedules.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

type Posting = { kind: 'posting' } & PostingRecord;

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
});
afterAll(() => db.drop());

const posting = (n: number, title = `Platform Engineer ${n}`): Posting => ({
  kind: 'posting',
  id: `greenhouse:tidy-${n}`,
  source: 'greenhouse',
  title,
  url: `https://jobs.example/tidy/${n}`,
  company: n % 2 ? { name: 'Odd Works', slug: 'odd-works' } : { name: 'Even Works', slug: 'even-works' },
  description_text: `Build and run the platform, item ${n}.`,
  posted_at: '2026-11-01T00:00:00Z',
  location: { countries: ['Germany'] },
});

const COMPANIES: CanonicalLine[] = [
  { kind: 'company', slug: 'odd-works', name: 'Odd Works' },
  { kind: 'company', slug: 'even-works', name: 'Even Works' },
];

let sizeable = false;
async function load(records: CanonicalLine[]): Promise<number> {
  const written = writtenBy(await ingestRecords(db, records));
  sizeable = await afterLoad(db, written);
  return written;
}

const vacuums = async () =>
  (
    await db.write.query<{ n: number }>(
      "SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE relname = 'jobs'",
    )
  ).rows[0].n;

const jobsCount = async (slug: string) =>
  (await db.write.query<{ n: number }>('SELECT jobs_count AS n FROM companies WHERE slug = $1', [slug]))
    .rows[0].n;

describe('afterLoad', () => {
  const all = Array.from({ length: 300 }, (_, i) => posting(i + 1));

  it('vacuums after a load that rewrote a fifth of the table, not after a change round or a small load', async () => {
    expect(await load([...COMPANIES, ...all])).toBe(300);
    expect([sizeable, await vacuums()]).toEqual([true, 1]);
    expect(await jobsCount('odd-works')).toBe(150);

    // An identical re-load writes nothing: no vacuum.
    expect(await load(all)).toBe(0);
    expect([sizeable, await vacuums()]).toEqual([false, 1]);

    // One changed posting (under 1 % of 300 rows): the counts are refreshed, the table is not vacuumed.
    expect(await load([posting(1, 'Staff Platform Engineer'), posting(301)])).toBe(2);
    expect([sizeable, await vacuums()]).toEqual([false, 1]);
    expect(await jobsCount('odd-works')).toBe(151);

    // Ten changed postings (over 1 %, as a change round): sizeable, its dead rows left to autovacuum.
    expect(await load(all.slice(0, 10).map((p) => ({ ...p, title: `${p.title} II` })))).toBe(10);
    expect([sizeable, await vacuums()]).toEqual([true, 1]);

    // Seventy (over a fifth of the 301 rows): vacuumed by the load.
    expect(await load(all.slice(0, 70).map((p) => ({ ...p, title: `Lead ${p.title}` })))).toBe(70);
    expect([sizeable, await vacuums()]).toEqual([true, 2]);

    // The heap only: the TOAST table's dead chunks are left to autovacuum, which takes them early.
    const { rows } = await db.write.query<{ n: number; opts: string[] }>(
      `SELECT coalesce(s.vacuum_count, 0)::int AS n, c.reloptions AS opts
         FROM pg_class c LEFT JOIN pg_stat_all_tables s ON s.relid = c.oid
        WHERE c.oid = (SELECT reltoastrelid FROM pg_class WHERE oid = 'jobs'::regclass)`,
    );
    expect(rows[0].n).toBe(0);
    expect(rows[0].opts).toContain('autovacuum_vacuum_scale_factor=0.02');
  });

  it('leaves no pending entries in the company name index, which every companies?q= reads', async () => {
    await db.write.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
    const pending = async () =>
      (
        await db.write.query<{ n: number }>(
          "SELECT pending_tuples::int AS n FROM pgstatginindex('companies_name_trgm'::regclass)",
        )
      ).rows[0].n;
    // New companies, and the refresh rewriting the rows of those whose jobs_count changed.
    const more: CanonicalLine[] = [
      { kind: 'company', slug: 'third-works', name: 'Third Works' },
      { kind: 'company', slug: 'fourth-works', name: 'Fourth Works' },
    ];
    const before = await jobsCount('odd-works');
    await load([...more, { ...posting(400), company: { name: 'Third Works', slug: 'third-works' } }]);
    await load([{ ...posting(1), gone: true }]);
    expect(await jobsCount('third-works')).toBe(1);
    expect(await jobsCount('odd-works')).toBe(before - 1);
    expect(await pending()).toBe(0);
  });

  it('after a sizeable load by the ingest command, the match index of the new data is saved for the service', async () => {
    const config = { ...db.config, DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'jps-after-ingest-')) };
    const file = matchIndexFile(config);
    const live = async () =>
      (await db.write.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE state = 0')).rows[0].n;
    const ingest = async (records: CanonicalLine[]) =>
      afterIngest(db, config, writtenBy(await ingestRecords(db, records)), true);
    // Twenty changed postings (over 1 % of the table): built and saved at the version the load left.
    await ingest(all.slice(20, 40).map((p) => ({ ...p, title: `${p.title} III` })));
    const service = new MatchService(db.read, () => {}, file);
    expect(await service.load()).toBe(true);
    expect(service.status).toMatchObject({ version: await dataVersion(db.write), rows: await live() });
    // The service reads it and has nothing to build.
    await service.refresh();
    expect(service.status.builds).toBe(0);
    // Another sizeable load, a minute after the save: the saved index is left for the service, which
    // carries it over the load.
    const savedAt = (await stat(file)).mtimeMs;
    const before = await dataVersion(db.write);
    await ingest(all.slice(40, 60).map((p) => ({ ...p, title: `${p.title} IV` })));
    expect((await stat(file)).mtimeMs).toBe(savedAt);
    const next = new MatchService(db.read, () => {}, file);
    expect(await next.load()).toBe(true);
    expect(next.status.version).toBe(before);
    await next.refresh();
    expect(next.status).toMatchObject({
      version: await dataVersion(db.write),
      rows: await live(),
      builds: 0,
    });
    expect(next.status.carried).toBe(1);
    // A service started on it carries it (in its build process) before it answers anything.
    const said: string[] = [];
    const host = await hostMatchIndex(db, { ...config, DATABASE_URL: db.url }, (m) => said.push(m));
    await host.stop();
    expect(host.service.status.version).toBe(await dataVersion(db.write));
    expect(said).toContain(`match index carried to version ${await dataVersion(db.write)}`);
    expect((await stat(file)).mtimeMs).toBeGreaterThan(savedAt);
    // Saved over half an hour ago, it is carried over the next load (in a child process) and saved again,
    // as the log a later start would carry it with is kept for an hour.
    const old = new Date(Date.now() - 31 * 60_000);
    await utimes(file, old, old);
    await ingest(all.slice(40, 60).map((p) => ({ ...p, title: `${p.title} IV b` })));
    const carried = new MatchService(db.read, () => {}, file);
    expect(await carried.load()).toBe(true);
    expect(carried.status).toMatchObject({ version: await dataVersion(db.write), rows: await live() });
    // With replicas configured, the load's index is still read from the primary (a replica that does not
    // answer here, one that lags in production).
    await utimes(file, old, old);
    const unreachable = { ...config, DATABASE_READ_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const changed = all.slice(60, 80).map((p) => ({ ...p, title: `${p.title} V` }));
    await afterIngest(db, unreachable, writtenBy(await ingestRecords(db, changed)), true);
    const third = new MatchService(db.read, () => {}, file);
    expect(await third.load()).toBe(true);
    expect(third.status).toMatchObject({ version: await dataVersion(db.write), rows: await live() });
    // A recent index of another database is not the service's to carry: built and saved over it.
    await writeFile(file, saveIndex(third.current!, { db: 'another database' }));
    expect(await carriedByTheService(db, config)).toBe(false);
    await ingest(all.slice(60, 80).map((p) => ({ ...p, title: `${p.title} VI` })));
    const rebuilt = new MatchService(db.read, () => {}, file);
    expect(await rebuilt.load()).toBe(true);
    expect(rebuilt.status).toMatchObject({ version: await dataVersion(db.write), rows: await live() });
    expect(await carriedByTheService(db, config)).toBe(true);
    // A recent index of this database in another format (an earlier release's, which the service cannot
    // read): built and saved over it too. The header keeps its length (JSON's spaces).
    const bytes = await readFile(file);
    const head = bytes.toString('utf8', 8, 8 + bytes.readUInt32LE(0));
    const format = String(JSON.parse(head).format);
    bytes.write(head.replace(`"format":${format}`, `"format":${' '.repeat(format.length - 1)}0`), 8);
    await writeFile(file, bytes);
    expect(await carriedByTheService(db, config)).toBe(false);
    await ingest(all.slice(60, 80).map((p) => ({ ...p, title: `${p.title} VII` })));
    const current = new MatchService(db.read, () => {}, file);
    expect(await current.load()).toBe(true);
    expect(current.status).toMatchObject({ version: await dataVersion(db.write), rows: await live() });
    expect(await carriedByTheService(db, config)).toBe(true);
    // One changed posting (under 1 %): the file is left as it was.
    const saved = (await stat(file)).mtimeMs;
    await ingest([posting(2, 'Principal Platform Engineer')]);
    expect((await stat(file)).mtimeMs).toBe(saved);
    // Without the match index (MATCH_INDEX=false): nothing is saved.
    await rm(file);
    await afterIngest(db, { ...config, MATCH_INDEX: false }, 1000, true);
    await expect(stat(file)).rejects.toThrow();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });
});
