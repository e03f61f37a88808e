// The live jobs' description vectors in their own narrow table (job_texts, migration 27) stay equal to
// the live rows of jobs through every kind of write, are rewritten only when the vector or the countries
// change, and count a description search exactly as counting jobs does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src/db/jobs-write.ts';
import { expireDue } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { textCount, type JobFilters } from '../../src/search/filters.ts';
import { countJobs } from '../../src/search/jobs.ts';
import { sql } from '../../src/search/sql.ts';
import { countRows, createJobsFixture, type Fixture } from '../helpers/jobs-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await createJobsFixture();
});
afterAll(async () => {
  await f.close();
});

const TEXTS = 'SELECT id, country_codes, text_tsv::text AS v FROM job_texts ORDER BY id';
const LIVE = 'SELECT id, country_codes, text_tsv::text AS v FROM jobs WHERE state = 0 ORDER BY id';

/** The row version of a job's entry (xmin): it changes when the entry is written again. */
async function written(id: string): Promise<string | undefined> {
  const { rows } = await f.db.write.query('SELECT xmin::text AS x FROM job_texts WHERE id = $1', [id]);
  return rows[0]?.x;
}

const counted = (filters: JobFilters) => countRows(f, filters);

const rec = (id: string, countries: string[], over: Record<string, unknown> = {}) => ({
  kind: 'posting' as const,
  id: `lever:jt-${id}`,
  source: 'lever',
  title: `Narrow Table Analyst ${id}`,
  description_html:
    '<p>Reconcile the ledgers, audit the quarterly accounts and report to the controller.</p>',
  company: { name: 'Narrow Table Co' },
  url: `https://narrow-table.example/${id}`,
  location: { countries },
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  ...over,
});

describe('job_texts', () => {
  it('equals the live rows of jobs after loads, changes, folding, expiry, purge and truncation', async () => {
    const check = async () =>
      expect((await f.db.write.query(TEXTS)).rows).toEqual((await f.db.write.query(LIVE)).rows);
    await check();
    expect((await f.db.write.query(TEXTS)).rows.length).toBeGreaterThan(20);

    await ingestRecords(f.db, [rec('a', ['Germany']), rec('b', ['Germany', 'France'])]);
    await check();
    const a = await written('lever:jt-a');
    expect(a).toBeDefined();
    // A change that leaves the vector and the countries be leaves the entry be; a re-load changes nothing.
    await ingestRecords(f.db, [
      rec('a', ['Germany'], { salary: { min: 50_000, max: 60_000, currency: 'EUR', unit: 'YEAR' } }),
    ]);
    await ingestRecords(f.db, [
      rec('a', ['Germany'], { salary: { min: 50_000, max: 60_000, currency: 'EUR', unit: 'YEAR' } }),
    ]);
    expect(await written('lever:jt-a')).toBe(a);
    await check();
    // A new description, and new countries, write it again.
    await ingestRecords(f.db, [
      rec('a', ['Germany'], { description_html: '<p>Audit the payroll and the pensions.</p>' }),
    ]);
    const b = await written('lever:jt-a');
    expect(b).not.toBe(a);
    await check();
    await ingestRecords(f.db, [
      rec('a', ['Spain'], { description_html: '<p>Audit the payroll and the pensions.</p>' }),
    ]);
    expect(await written('lever:jt-a')).not.toBe(b);
    await check();
    // A copy on a job board folds into its original: it has no entry.
    await ingestRecords(f.db, [
      { ...rec('b', ['Germany', 'France']), id: 'careerboard:jt-bc', source: 'careerboard' },
    ]);
    expect(
      (await f.db.write.query("SELECT state FROM jobs WHERE id = 'careerboard:jt-bc'")).rows[0].state,
    ).toBe(2);
    expect(await written('careerboard:jt-bc')).toBeUndefined();
    await check();
    // b expires and its copy takes its place (an entry of its own); then the copy expires too.
    await f.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'lever:jt-b'",
    );
    expect(await expireDue(f.db)).toBe(1);
    expect(await written('careerboard:jt-bc')).toBeDefined();
    await check();
    await f.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'careerboard:jt-bc'",
    );
    expect(await expireDue(f.db)).toBe(1);
    await check();
    // Purging expired rows deletes them.
    await f.db.write.query("UPDATE jobs SET expired_at = now() - interval '10 days' WHERE state = 1");
    await purgeExpired(f.db.write, 1);
    await check();
  });

  it('counts a description search, alone or with countries, as counting the jobs does', async () => {
    const searches: JobFilters[] = [
      { description: "'audit'" },
      { description: "'audit'", country: ['ES'] },
      { description: "'audit'", country: ['DE', 'ES', 'US'] },
      { description: "'experi':*" },
      { description_advanced: "'audit' & 'payrol'" },
      { description: "'audit' | 'experi'", description_advanced: "!'ledger'", country: ['US'] },
      { description: "'zzyzx'" },
    ];
    for (const filters of searches) {
      expect(textCount(filters), JSON.stringify(filters)).toBeDefined();
      const n = await counted(filters);
      const { rows } = await f.db.write.query(sql`SELECT ${textCount(filters)!} AS n`);
      expect(Number(rows[0].n), JSON.stringify(filters)).toBe(n);
      expect(
        await countJobs({ pool: f.db.read, cursorSecret: 's' }, filters, false),
        JSON.stringify(filters),
      ).toBe(n);
    }
    expect(await counted({ description: "'audit'" })).toBeGreaterThan(0);
    // Any other filter, or none, is counted on jobs.
    expect(textCount({})).toBeUndefined();
    // An empty text search is no condition (compileFilters writes none): counted on jobs, as all live jobs.
    expect(textCount({ description: '' })).toBeUndefined();
    expect(textCount({ country: ['US'] })).toBeUndefined();
    expect(textCount({ description: "'audit'", remote: true })).toBeUndefined();
    expect(textCount({ description: "'audit'", title: "'analyst'" })).toBeUndefined();
  });

  it('plans its statements for the rows each statement wrote, not once per session', async () => {
    // PL/pgSQL keeps a statement's first plan for the session: planned for a one-row write, the copy of
    // a 20,000-row one read the live jobs' index whole for each row (30 s instead of 0.5). The plans
    // PostgreSQL runs are read back through auto_explain, which ships with PostgreSQL.
    const client = await f.db.write.connect();
    const plans: string[] = [];
    client.on('notice', (n) => {
      if (n.message?.includes('INSERT INTO job_texts')) plans.push(n.message);
    });
    const insert = (n: number) =>
      client.query(
        `INSERT INTO jobs (id, state, source, source_type, org_name, org_key, title_raw, collapse_key, dedupe_key,
                           posted_at, created_at, updated_at, title_tsv, text_tsv, tracked, content_hash, doc,
                           company_fallback)
         SELECT 'lever:plan-${n}-' || i, 0, 'lever', 'ats', 'o', 'o', 't', 'c' || i, 'k' || i, now(), now(), now(),
                '', 'ledger', '{}', '', '{}', '{}'
           FROM generate_series(1, ${n}) AS i`,
      );
    try {
      await client.query("LOAD 'auto_explain'");
      await client.query('SET auto_explain.log_min_duration = 0');
      await client.query('SET auto_explain.log_nested_statements = on');
      await client.query('SET auto_explain.log_level = notice');
      await client.query('BEGIN');
      await insert(1);
      await insert(3000);
      await client.query('ROLLBACK');
    } finally {
      client.release(true);
    }
    expect(plans).toHaveLength(2);
    expect(plans[0]).toMatch(/Named Tuplestore Scan {2}\(cost=[^)]*rows=1 width/);
    expect(plans[1]).toMatch(/Named Tuplestore Scan {2}\(cost=[^)]*rows=3000 width/);
  });

  it('is emptied with jobs', async () => {
    await f.db.write.query('TRUNCATE jobs CASCADE');
    expect((await f.db.write.query(TEXTS)).rows).toEqual([]);
  });
});
