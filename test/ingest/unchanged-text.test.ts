// An update that leaves a posting's description as it was keeps the stored text itself: PostgreSQL
// neither compresses nor stores it again (the TOAST relation does not grow), and the row reads as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
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

/** About 24 KB of pseudo-random words: too large to stay in the row, and hardly compressible. */
function randomText(seed: number): string {
  let x = seed;
  const words: string[] = [];
  for (let i = 0; i < 4000; i++) {
    let w = '';
    for (let k = 0; k < 5; k++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      w += String.fromCharCode(97 + ((x >>> 16) % 26));
    }
    words.push(w);
  }
  return `<p>${words.join(' ')}</p>`;
}

const posting = (salary: number, description: string): PostingRecord => ({
  id: 'greenhouse:toast-1',
  source: 'greenhouse',
  title: 'Data Engineer',
  company: { name: 'Quarry Lane Analytics' },
  url: 'https://boards.greenhouse.io/quarrylane/jobs/1',
  description_html: description,
  location: { raw: ['Leeds, United Kingdom'] },
  posted_at: '2026-05-20T09:00:00.000Z',
  salary: { min: salary, max: salary, currency: 'GBP', unit: 'YEAR' },
});

const toastBytes = async () =>
  Number(
    (
      await db.write.query<{ n: string }>(
        `SELECT pg_relation_size(reltoastrelid) AS n FROM pg_class WHERE oid = 'jobs'::regclass`,
      )
    ).rows[0].n,
  );

describe('an update that leaves the description as it was', () => {
  it('stores no new copy of it, and the row reads the new values', async () => {
    const text = randomText(7);
    await ingestRecords(db, [{ kind: 'posting', ...posting(50000, text) }]);
    const before = await toastBytes();
    expect(before).toBeGreaterThan(16_000); // the description is stored out of the row

    const report = await ingestRecords(db, [{ kind: 'posting', ...posting(60000, text) }]);
    expect(report.updated).toBe(1);
    expect(await toastBytes()).toBe(before);
    const { rows } = await db.write.query(
      `SELECT desc_html, salary_annual_min, modified_fields FROM jobs WHERE id = 'greenhouse:toast-1'`,
    );
    expect(JSON.parse(rows[0].desc_html)).toContain(text.slice(3, 200));
    expect(rows[0].salary_annual_min).toBe(60000);
    expect(rows[0].modified_fields).toEqual(['salary_min', 'salary_max']);

    // A new description is stored anew.
    await ingestRecords(db, [{ kind: 'posting', ...posting(60000, randomText(8)) }]);
    expect(await toastBytes()).toBeGreaterThan(before);
  });
});
