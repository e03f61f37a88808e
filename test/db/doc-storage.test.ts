// A job's document stays in its row (migration 22), out of the TOAST table that holds each row's
// descriptions and description tsvector: feed pages, pages and jobs by id read documents without walking
// that table. The filter columns stay beside it (migration 23), not each a TOAST entry of its own.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;

/** The jobs table's TOAST table, and a job's id. */
async function toastAndJob(client: pg.PoolClient): Promise<{ toast: string; id: string }> {
  const { rows } = await client.query<{ toast: string; id: string }>(
    `SELECT (SELECT reltoastrelid::regclass::text FROM pg_class WHERE oid = 'jobs'::regclass) AS toast,
            (SELECT id FROM jobs LIMIT 1) AS id`,
  );
  return rows[0]!;
}
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('keeps a document in the row, where it would have gone to the TOAST table', async () => {
  const client = await t.db.write.connect();
  try {
    const { toast, id } = await toastAndJob(client);
    expect(id).toBeDefined();
    const toastBytes = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            `SELECT coalesce(sum(octet_length(chunk_data)), 0) AS n FROM ${toast}`,
          )
        ).rows[0]!.n,
      );
    // 3 KB that do not compress: far over the row's 1 KB target, well within a page.
    const doc = JSON.stringify({ id, company: null, filler: randomBytes(1500).toString('hex') });
    const rewrite = async () => {
      const before = await toastBytes();
      await client.query('UPDATE jobs SET doc = $2 WHERE id = $1', [id, doc]);
      return (await toastBytes()) - before;
    };
    await client.query('BEGIN');
    // The same document stored as before migration 22 goes to the TOAST table: the measure can tell.
    await client.query('ALTER TABLE jobs ALTER COLUMN doc SET STORAGE EXTENDED');
    expect(await rewrite()).toBeGreaterThan(doc.length / 2); // less the old document, if it was there
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    expect(await rewrite()).toBe(0);
    const size = await client.query<{ n: number }>(
      'SELECT pg_column_size(doc) AS n FROM jobs WHERE id = $1',
      [id],
    );
    expect(size.rows[0]!.n).toBeGreaterThanOrEqual(doc.length);
    await client.query('ROLLBACK');
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
});

it('keeps the filter columns in the row beside the document, and the descriptions out of it', async () => {
  const client = await t.db.write.connect();
  try {
    const { toast, id } = await toastAndJob(client);
    // A document that stays over the row's 1 KB target, with filter values of the sizes PostgreSQL
    // would otherwise move out of line one by one, and a description that must go.
    const doc = JSON.stringify({ id, company: null, filler: randomBytes(1500).toString('hex') });
    const skills = Array.from({ length: 12 }, (_, i) => `skill-${i}-${randomBytes(4).toString('hex')}`);
    const title = `Senior Staff Platform Reliability Engineer ${randomBytes(8).toString('hex')}`;
    /** How many values the rewrite stored out of line: the TOAST values it added. */
    const savedOutOfLine = async () => {
      await client.query(`CREATE TEMP TABLE before ON COMMIT DROP AS SELECT DISTINCT chunk_id FROM ${toast}`);
      await client.query(
        `UPDATE jobs SET doc = $2, skills = $3, title_tsv = to_tsvector('english', $4), title_raw = $4,
                         desc_text = to_json($5::text)::text
          WHERE id = $1`,
        [id, doc, skills, title, randomBytes(2000).toString('hex')],
      );
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(DISTINCT chunk_id)::int AS n FROM ${toast}
          WHERE chunk_id NOT IN (SELECT chunk_id FROM before)`,
      );
      return rows[0]!.n;
    };
    await client.query('BEGIN');
    // As before migration 23: the three filter values go out of line too (the measure can tell).
    for (const c of ['skills', 'title_tsv', 'title_raw'])
      await client.query(`ALTER TABLE jobs ALTER COLUMN ${c} SET STORAGE EXTENDED`);
    expect(await savedOutOfLine()).toBe(4);
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    // The description alone.
    expect(await savedOutOfLine()).toBe(1);
    await client.query('ROLLBACK');
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
});
