// Near-duplicates through the write path: an agency re-post with a reworded title and its own framing
// text, and a board copy whose location is spelled differently, fold into the ATS original; the same
// text posted for another city (a different job) stays live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATES_SQL } from '../../src/db/jobs-write.ts';
import { htmlToText } from '../../src/enrich/sanitize.ts';
import { ingestRecords, NEAR_IDENTICAL_BITS, REPOST_BITS } from '../../src/ingest/pipeline.ts';
import { hammingHex, simhash } from '../../src/ingest/stages/row.ts';
import type { PostingRecord } from '../../src/model/record.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
});
afterAll(async () => {
  await db.drop();
});

const TEXT = (city: string) =>
  [
    `<p>Harbourline Logistics runs the largest cold-chain network in the region. Our ${city} team plans and`,
    'tracks refrigerated freight for grocery and pharmacy customers, around the clock.</p>',
    '<h3>What you will do</h3><ul><li>Build and maintain data pipelines for shipment tracking events</li>',
    '<li>Model delivery windows and temperature excursions in our warehouse</li>',
    '<li>Work with dispatch, finance and customer teams on reporting needs</li>',
    '<li>Own data quality checks and alerting for late or missing scans</li></ul>',
    '<h3>What you bring</h3><ul><li>Five or more years of experience with SQL and Python</li>',
    '<li>Experience with Airflow, dbt or similar orchestration and modelling tools</li>',
    '<li>Comfort explaining numbers to people who do not work with data every day</li></ul>',
    '<h3>What we offer</h3><ul><li>Pension scheme and private health insurance</li>',
    '<li>Twenty-eight days of holiday plus bank holidays</li><li>A yearly learning budget</li></ul>',
  ].join('\n');

const original: PostingRecord = {
  id: 'greenhouse:7001',
  source: 'greenhouse',
  title: 'Senior Data Engineer',
  company: { name: 'Harbourline Logistics Ltd' },
  url: 'https://boards.greenhouse.io/harbourline/jobs/7001',
  description_html: TEXT('Manchester'),
  location: { raw: ['Manchester, United Kingdom'] },
  posted_at: '2026-05-20T09:00:00.000Z',
};

describe('folding of near-duplicates', () => {
  it('folds an agency re-post and a re-spelled board copy into the original; a sibling stays', async () => {
    const agency: PostingRecord = {
      id: 'jobmirror:ag-77',
      source: 'jobmirror',
      title: 'Data Engineer (Senior) - Manchester',
      company: { name: 'Harbourline Logistics' },
      url: 'https://jobmirror.example/agency/northstar/ag-77',
      description_html: `<p>Northstar Recruitment is recruiting on behalf of Harbourline Logistics.</p>\n${TEXT('Manchester')}\n<p>Northstar Recruitment acts as an employment agency for this vacancy. Reference AG-77.</p>`,
      location: { raw: ['Manchester, UK'] },
      posted_at: '2026-05-22T09:00:00.000Z',
    };
    const respelled: PostingRecord = {
      id: 'careerboard:rs-12',
      source: 'careerboard',
      title: 'Senior Data Engineer',
      company: { name: 'Harbourline Logistics Ltd' },
      url: 'https://careerboard.example/jobs/rs-12',
      description_html: TEXT('Manchester'),
      location: { raw: ['Greater Manchester Area, England, United Kingdom'] },
      posted_at: '2026-05-21T09:00:00.000Z',
    };
    const sibling: PostingRecord = {
      ...original,
      id: 'greenhouse:7002',
      url: 'https://boards.greenhouse.io/harbourline/jobs/7002',
      description_html: TEXT('Leeds'),
      location: { raw: ['Leeds, United Kingdom'] },
    };
    const report = await ingestRecords(
      db,
      [original, agency, respelled, sibling].map((r) => ({ kind: 'posting' as const, ...r })),
    );
    expect(report.folded).toBe(2);
    const { rows } = await db.write.query<{ id: string; state: number; duplicate_of: string | null }>(
      'SELECT id, state, duplicate_of FROM jobs ORDER BY id',
    );
    expect(rows).toEqual([
      { id: 'careerboard:rs-12', state: 2, duplicate_of: 'greenhouse:7001' },
      { id: 'greenhouse:7001', state: 0, duplicate_of: null },
      { id: 'greenhouse:7002', state: 0, duplicate_of: null },
      { id: 'jobmirror:ag-77', state: 2, duplicate_of: 'greenhouse:7001' },
    ]);
  });

  it('two openings of the same employer on its own ATS need near-identical text to fold', async () => {
    // The same template with its own duties.
    const duties = [
      '<li>Forecast inbound volumes for the new Trafford Park warehouse</li>',
      '<li>Model delivery windows and temperature excursions in our warehouse</li>',
      '<li>Work with dispatch, finance and customer teams on reporting needs</li>',
      '<li>Own data quality checks and alerting for late or missing scans</li></ul>',
    ].join('\n');
    const other: PostingRecord = {
      ...original,
      id: 'greenhouse:7003',
      url: 'https://boards.greenhouse.io/harbourline/jobs/7003',
      description_html: TEXT('Manchester').replace(
        /<h3>What you will do<\/h3>[\s\S]*?<\/ul>/,
        `<h3>What you will do</h3><ul>${duties}`,
      ),
    };
    const d = hammingHex(
      simhash(htmlToText(other.description_html!)),
      simhash(htmlToText(TEXT('Manchester'))),
    );
    // Close enough for a board's framed copy, too far for a second posting on the same ATS.
    expect(d).toBeGreaterThan(NEAR_IDENTICAL_BITS);
    expect(d).toBeLessThanOrEqual(REPOST_BITS);
    await ingestRecords(db, [{ kind: 'posting', ...other }]);
    const { rows } = await db.write.query('SELECT state FROM jobs WHERE id = $1', ['greenhouse:7003']);
    expect(rows[0].state).toBe(0);
  });
});

describe('the folding look-up', () => {
  it('is answered from indexes, not by scanning the table (each batch of a load runs it)', async () => {
    const client = await db.write.connect();
    try {
      await client.query('BEGIN');
      // A table large enough that the planner's choice shows (rolled back): folded, live and expired rows.
      await client.query(
        `INSERT INTO jobs (id, state, source, source_type, org_name, org_key, title_raw, collapse_key, dedupe_key,
                           canonical_url, posted_at, created_at, updated_at, title_tsv, text_tsv, tracked,
                           content_hash, doc, company_fallback)
         SELECT 'greenhouse:x' || i, i % 3, 'greenhouse', 'ats', 'o', 'o', 't', 'c' || i, 'k' || i, 'u' || i,
                now(), now(), now(), '', '', '{}', '', '{}', '{}'
           FROM generate_series(1, 20000) AS i`,
      );
      await client.query('ANALYZE jobs');
      const plan = await client.query(`EXPLAIN (COSTS OFF) ${CANDIDATES_SQL}`, [
        ['u1', 'u2'],
        ['k1', 'k2'],
      ]);
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index Scan on jobs_canonical_url\s+Index Cond: \(canonical_url = ANY/);
      expect(text).toMatch(/Index Scan on jobs_dedupe\s+Index Cond: \(dedupe_key = ANY/);
      expect(text).not.toMatch(/Seq Scan/);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});
