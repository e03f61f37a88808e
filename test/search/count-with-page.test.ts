// A page whose total is not known yet: when its matches are few, the total is counted in the statement
// that reads the page (one pass over the matches) and kept; the answer is the one the total known gives.
// Past MAX_SORTED matches the attempt stops there, and the total is counted on its own.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataVersion } from '../../src/db/stats.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { fingerprint } from '../../src/search/cursor.ts';
import type { JobFilters } from '../../src/search/filters.ts';
import { type SearchRequest, searchJobs } from '../../src/search/jobs.ts';
import { MAX_SORTED } from '../../src/search/plan.ts';
import { TotalsCache } from '../../src/search/totals.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The read pool, with the statements sent through it counted. */
function counted(pool: pg.Pool) {
  const seen = { n: 0 };
  const proxy = new Proxy(pool, {
    get(target, prop) {
      if (prop === 'query')
        return (...args: unknown[]) => {
          seen.n++;
          return (target.query as (...a: unknown[]) => unknown)(...args);
        };
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { pool: proxy as pg.Pool, seen };
}

const request = (filters: JobFilters, more: Partial<SearchRequest> = {}): SearchRequest => ({
  filters,
  collapse: false,
  limit: 3,
  offset: 0,
  ...more,
});

const keyOf = (f: JobFilters) => `jobs|${fingerprint('jobs', { ...f })}`;

async function exact(where: string, values: unknown[]): Promise<{ n: number; newest: string[] }> {
  const { rows } = await t.db.read.query(
    `SELECT count(*) OVER ()::int AS n, id FROM jobs WHERE state = 0 AND ${where} ORDER BY posted_at DESC, id DESC`,
    values,
  );
  return { n: rows[0]?.n ?? 0, newest: rows.map((r) => r.id) };
}

const ids = (data: Buffer) => (JSON.parse(data.toString()) as { id: string }[]).map((j) => j.id);

describe('a total counted with its page', () => {
  it('is counted in the statement that reads the page, kept, and gives the page of the total known', async () => {
    await ingestRecords(
      t.db,
      Array.from({ length: 12 }, (_, n) => ({
        kind: 'posting' as const,
        id: `lever:once-${n}`,
        source: 'lever',
        title: `Surveyor ${n}`,
        company: { name: 'Once Co' },
        url: `https://once.example/${n}`,
        posted_at: `2026-10-${String(10 + (n % 4)).padStart(2, '0')}T08:00:00Z`,
        location: { countries: ['Norway'] },
      })),
    );
    const country = 'NO';
    const filters: JobFilters = { country: [country], remote: false };
    const truth = await exact('$1 = ANY(country_codes) AND NOT remote', [country]);
    expect(truth.n).toBeGreaterThan(3);

    const totals = new TotalsCache();
    const { pool, seen } = counted(t.db.read);
    const ctx = { pool, cursorSecret: 'test-secret', totals };
    const cold = await searchJobs(ctx, request(filters));
    // The data version, then the total and the page together.
    expect(seen.n).toBe(2);
    expect(cold.total).toBe(truth.n);
    expect(ids(cold.data)).toEqual(truth.newest.slice(0, 3));
    const version = await dataVersion(t.db.read);
    expect(totals.peek(version, keyOf(filters))).toBe(truth.n);

    // Known now: the total from the cache, the page by the plan; the same answer.
    seen.n = 0;
    const warm = await searchJobs(ctx, request(filters));
    expect(seen.n).toBeGreaterThan(2);
    expect(warm.total).toBe(cold.total);
    expect(warm.data.equals(cold.data)).toBe(true);
    expect(warm.nextCursor).toBe(cold.nextCursor);

    // Every page by cursor, and an offset past the end, without a cache: each counted with its page.
    const bare = { pool: t.db.read, cursorSecret: 'test-secret' };
    const walked: string[] = [];
    let page = await searchJobs(bare, request(filters));
    walked.push(...ids(page.data));
    while (page.nextCursor) {
      page = await searchJobs(bare, request(filters, { cursor: page.nextCursor }));
      expect(page.total).toBe(truth.n);
      walked.push(...ids(page.data));
    }
    expect(walked).toEqual(truth.newest);
    const past = await searchJobs(bare, request(filters, { offset: truth.n }));
    expect(past.total).toBe(truth.n);
    expect(ids(past.data)).toEqual([]);
    expect(past.nextCursor).toBeNull();
  });

  it(`past ${MAX_SORTED} matches stops there and counts the total on its own`, async () => {
    const { rows } = await t.db.read.query(
      `SELECT id, country_codes[1] AS c FROM jobs WHERE state = 0 AND cardinality(country_codes) > 0 AND remote
        ORDER BY id LIMIT 1`,
    );
    const { id, c: country } = rows[0] as { id: string; c: string };
    // Copies of one live row under new ids: MAX_SORTED + 1 more matches of its country and remote.
    const { rows: cols } = await t.db.write.query<{ name: string }>(
      `SELECT attname AS name FROM pg_attribute WHERE attrelid = 'jobs'::regclass AND attnum > 0
         AND NOT attisdropped ORDER BY attnum`,
    );
    const names = cols.map((c) => c.name);
    const values = names.map((n) =>
      n === 'id' ? `'lever:many-' || g` : n === 'doc' ? `replace(j.doc, j.id, 'lever:many-' || g)` : `j.${n}`,
    );
    await t.db.write.query(
      `INSERT INTO jobs (${names.join(', ')}) SELECT ${values.join(', ')}
         FROM jobs j, generate_series(1, $2::int) g WHERE j.id = $1`,
      [id, MAX_SORTED + 1],
    );
    const filters: JobFilters = { country: [country], remote: true };
    const truth = await exact('$1 = ANY(country_codes) AND remote', [country]);
    expect(truth.n).toBeGreaterThan(MAX_SORTED);

    const totals = new TotalsCache();
    const { pool, seen } = counted(t.db.read);
    const page = await searchJobs({ pool, cursorSecret: 'test-secret', totals }, request(filters));
    // The version, the attempt, then the count, the live total and the page on their own.
    expect(seen.n).toBeGreaterThan(2);
    expect(page.total).toBe(truth.n);
    expect(ids(page.data)).toEqual(truth.newest.slice(0, 3));
    expect(totals.peek(await dataVersion(t.db.read), keyOf(filters))).toBe(truth.n);

    // The shape (country and remote) now has many matches as far as this process knows: a request of
    // that shape with few is counted on its own too, rather than attempting first.
    expect(totals.likelyFew('country,remote')).toBe(false);
    seen.n = 0;
    const few = await searchJobs(
      { pool, cursorSecret: 'test-secret', totals },
      request({ country: ['DE'], remote: false }),
    );
    expect(few.total).toBe((await exact(`'DE' = ANY(country_codes) AND NOT remote`, [])).n);
    expect(few.total).toBeGreaterThan(0);
    expect(seen.n).toBeGreaterThan(2);
  });
});

describe('the share of few totals per shape', () => {
  it('starts unknown (likely few), follows what is observed, recent totals weighing most', () => {
    const totals = new TotalsCache();
    expect(totals.likelyFew('salary_gte,salary_lte')).toBe(true);
    totals.observe('salary_gte,salary_lte', false);
    expect(totals.likelyFew('salary_gte,salary_lte')).toBe(false);
    totals.observe('salary_gte,salary_lte', true);
    totals.observe('salary_gte,salary_lte', true);
    expect(totals.likelyFew('salary_gte,salary_lte')).toBe(false);
    totals.observe('salary_gte,salary_lte', true);
    expect(totals.likelyFew('salary_gte,salary_lte')).toBe(true);
    expect(totals.likelyFew('skill')).toBe(true);
  });
});
