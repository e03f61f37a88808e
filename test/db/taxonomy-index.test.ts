// The taxonomy index holds each job's countries as its second column (migration 18): a taxonomy with a
// country is intersected in one index scan, not tested row by row on the heap.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { compileFilters } from '../../src/search/filters.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

it('finds a taxonomy with a country in one scan of the taxonomy index', async () => {
  const client = await t.db.write.connect();
  try {
    await client.query('ANALYZE jobs');
    await client.query('BEGIN');
    // On a table this small the planner may prefer any index; the others go for the EXPLAIN (and come
    // back with the ROLLBACK).
    const others = await client.query<{ name: string }>(
      `SELECT indexrelid::regclass::text AS name FROM pg_index
        WHERE indrelid = 'jobs'::regclass AND NOT indisprimary AND indexrelid::regclass::text <> 'jobs_live_taxonomies'`,
    );
    for (const { name } of others.rows) await client.query(`DROP INDEX ${name}`);
    await client.query('SET LOCAL enable_seqscan = off');
    const where = compileFilters({ taxonomies: ['Software'], country: ['US'], remote: true });
    const plan = await client.query(
      `EXPLAIN (COSTS OFF) SELECT count(*) FROM jobs j WHERE ${where.text}`,
      where.values,
    );
    const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(
      /Bitmap Index Scan on jobs_live_taxonomies\n\s+Index Cond: \(\(taxonomies && .+\) AND \(country_codes && .+\)\)/,
    );
    expect(text).not.toMatch(/Filter: .*country_codes/);
  } finally {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
  }
});
