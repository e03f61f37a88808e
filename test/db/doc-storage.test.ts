// A job's document stays in its row (migration 22), out of the TOAST table that holds each row's
// descriptions and description tsvector: feed pages, pages and jobs by id read documents without walking
// that table.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('keeps a document in the row, where it would have gone to the TOAST table', async () => {
  const client = await t.db.write.connect();
  try {
    const { rows } = await client.query<{ toast: string; id: string }>(
      `SELECT (SELECT reltoastrelid::regclass::text FROM pg_class WHERE oid = 'jobs'::regclass) AS toast,
              (SELECT id FROM jobs LIMIT 1) AS id`,
    );
    const { toast, id } = rows[0]!;
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
    const id = (await client.query<{ id: string }>('SELECT id FROM jobs LIMIT 1')).rows[0]!.id;
    // A document that stays over the row's 1 KB target, with filter values of the sizes PostgreSQL
    // would otherwise move out of line one by one.
    const doc = JSON.stringify({ id, company: null, filler: randomBytes(1500).toString('hex') });
    const skills = Array.from({ length: 12 }, (_, i) => `skill-${i}-${randomBytes(4).toString('hex')}`);
    const title = `Senior Staff Platform Reliability Engineer ${randomBytes(8).toString('hex')}`;
    const outOfLine = async () => {
      await client.query(
        `UPDATE jobs SET doc = $2, skills = $3, title_tsv = to_tsvector('english', $4), title_raw = $4,
                         desc_text = to_json($5::text)::text
          WHERE id = $1`,
        [id, doc, skills, title, randomBytes(2000).toString('hex')],
      );
      const { rows } = await client.query<Record<string, boolean>>(
        `SELECT pg_column_toast_chunk_id(skills) IS NOT NULL AS skills,
                pg_column_toast_chunk_id(title_tsv) IS NOT NULL AS title_tsv,
                pg_column_toast_chunk_id(title_raw) IS NOT NULL AS title_raw,
                pg_column_toast_chunk_id(doc) IS NOT NULL AS doc,
                pg_column_toast_chunk_id(desc_text) IS NOT NULL AS desc_text
           FROM jobs WHERE id = $1`,
        [id],
      );
      return rows[0];
    };
    await client.query('BEGIN');
    // As before migration 23: the filter values go out of line (the measure can tell).
    for (const c of ['skills', 'title_tsv', 'title_raw'])
      await client.query(`ALTER TABLE jobs ALTER COLUMN ${c} SET STORAGE EXTENDED`);
    expect(await outOfLine()).toMatchObject({ skills: true, title_tsv: true, title_raw: true });
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    expect(await outOfLine()).toEqual({
      skills: false,
      title_tsv: false,
      title_raw: false,
      doc: false,
      desc_text: true,
    });
    await client.query('ROLLBACK');
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
});
