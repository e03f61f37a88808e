// Totals kept per filter value (value_totals) stay equal to counting the live rows, through every kind of
// write, and a search with one such filter of one value answers that total.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src/db/jobs-write.ts';
import { expireDue } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { JobFilters } from '../../src/search/filters.ts';
import { countJobs } from '../../src/search/jobs.ts';
import { readValueTotal, valueTotalOf } from '../../src/search/value-totals.ts';
import { countRows, createJobsFixture, type Fixture } from '../helpers/jobs-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await createJobsFixture();
});
afterAll(async () => {
  await f.close();
});

/** Every value's live total, counted from the rows by a query of its own (zero totals left out). */
async function recount(): Promise<Record<string, number>> {
  const lists: [string, string][] = [
    ['country', 'country_codes'],
    ['city', 'cities'],
    ['region', 'regions'],
    ['continent', 'continents'],
    ['skill', 'skills'],
    ['taxonomy', 'taxonomies'],
    ['employment_type', 'employment_type'],
    ['education', 'education'],
    ['title', 'tsvector_to_array(title_tsv)'],
  ];
  const scalars = ['work_arrangement', 'seniority', 'experience_level', 'language', 'remote'];
  const parts = [
    `SELECT 'country_title' AS dim, c || ' ' || t AS value, count(DISTINCT id) AS n
       FROM jobs, unnest(country_codes) AS c, unnest(tsvector_to_array(title_tsv)) AS t WHERE state = 0 GROUP BY 2`,
    `SELECT 'posted_day', to_char(posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), count(*) FROM jobs WHERE state = 0 GROUP BY 2`,
    ...lists.map(
      ([dim, col]) =>
        `SELECT '${dim}' AS dim, v AS value, count(DISTINCT id) AS n FROM jobs, unnest(${col}) AS v WHERE state = 0 GROUP BY v`,
    ),
    ...scalars.map(
      (c) =>
        `SELECT '${c}', ${c}::text, count(*) FROM jobs WHERE state = 0 AND ${c} IS NOT NULL GROUP BY ${c}`,
    ),
    ...['max', 'min'].map(
      (b) => `SELECT 'salary_${b}', floor(salary_annual_${b} / 1000)::numeric::text, count(*) FROM jobs
               WHERE state = 0 AND has_salary AND salary_annual_${b} IS NOT NULL GROUP BY 2`,
    ),
    `SELECT 'salary_irregular', '', count(*) FROM jobs
      WHERE state = 0 AND has_salary AND NOT coalesce(salary_annual_min <= salary_annual_max, false) HAVING count(*) > 0`,
    // The fill rates of /v1/meta: the live jobs filling each field, and all of them.
    ...[
      ['', 'true'],
      ['country', 'cardinality(country_codes) > 0'],
      ['skills', 'cardinality(skills) > 0'],
      ['work_arrangement', 'work_arrangement IS NOT NULL'],
      ['seniority', 'seniority IS NOT NULL'],
      ['taxonomies', 'cardinality(taxonomies) > 0'],
      ['salary', 'has_salary'],
      ['education', 'cardinality(education) > 0'],
      ['language', 'language IS NOT NULL'],
    ].map(
      ([key, filled]) =>
        `SELECT 'filled', '${key}', count(*) FROM jobs WHERE state = 0 AND ${filled} HAVING count(*) > 0`,
    ),
  ];
  const { rows } = await f.db.write.query<{ dim: string; value: string; n: string }>(
    parts.join(' UNION ALL '),
  );
  return Object.fromEntries(rows.map((r) => [`${r.dim}|${r.value}`, Number(r.n)]));
}

async function kept(): Promise<Record<string, number>> {
  const { rows } = await f.db.write.query<{ dim: string; value: string; n: string }>(
    'SELECT dim, value, n FROM value_totals WHERE n <> 0',
  );
  return Object.fromEntries(rows.map((r) => [`${r.dim}|${r.value}`, Number(r.n)]));
}

const counted = (filters: JobFilters) => countRows(f, filters);

const rec = (id: string, countries: string[], over: Record<string, unknown> = {}) => ({
  kind: 'posting' as const,
  id: `lever:vt-${id}`,
  source: 'lever',
  title: `Value Totals Analyst ${id}`,
  company: { name: 'Value Totals Co' },
  url: `https://value-totals.example/${id}`,
  location: { countries },
  expires_at: new Date(Date.now() + 3_600_000).toISOString(),
  ...over,
});

describe('value totals', () => {
  it('equal the live rows counted, after loads, changes, folding, expiry, purge and truncation', async () => {
    const check = async () => expect(await kept()).toEqual(await recount());
    await check();
    expect(Object.keys(await kept()).length).toBeGreaterThan(20);

    await ingestRecords(f.db, [
      rec('a', ['Germany'], { skills: ['python', 'sql'] }),
      rec('b', ['Germany', 'France']),
    ]);
    await check();
    // A change of countries and title moves the job between values; an identical re-load changes nothing.
    await ingestRecords(f.db, [rec('a', ['Spain'], { title: 'Value Totals Engineer a' })]);
    await ingestRecords(f.db, [rec('a', ['Spain'], { title: 'Value Totals Engineer a' })]);
    await check();
    // A copy on a job board folds into its original: it never counts.
    await ingestRecords(f.db, [
      { ...rec('b', ['Germany', 'France']), id: 'careerboard:vt-bc', source: 'careerboard' },
    ]);
    expect(
      (await f.db.write.query("SELECT state FROM jobs WHERE id = 'careerboard:vt-bc'")).rows[0].state,
    ).toBe(2);
    await check();
    // b expires and its copy takes its place; then the copy expires too.
    await f.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'lever:vt-b'",
    );
    expect(await expireDue(f.db)).toBe(1);
    await check();
    expect(await counted({ country: ['FR'] })).toBeGreaterThan(0);
    await f.db.write.query(
      "UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = 'careerboard:vt-bc'",
    );
    expect(await expireDue(f.db)).toBe(1);
    await check();
    // Purging expired rows deletes them.
    await f.db.write.query("UPDATE jobs SET expired_at = now() - interval '10 days' WHERE state = 1");
    await purgeExpired(f.db.write, 1);
    expect((await f.db.write.query('SELECT count(*)::int AS n FROM jobs WHERE state = 1')).rows[0].n).toBe(0);
    await check();
  });

  it('stay exact when two transactions change the same values at once', async () => {
    await ingestRecords(f.db, [rec('c', ['Italy']), rec('d', ['Italy'])]);
    const one = await f.db.write.connect();
    const two = await f.db.write.connect();
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      await one.query("UPDATE jobs SET country_codes = '{PT}' WHERE id = 'lever:vt-c'");
      // Waits for `one` on the row of IT|PT's totals, then adds to what `one` committed.
      const waiting = two.query("UPDATE jobs SET country_codes = '{PT}' WHERE id = 'lever:vt-d'");
      await new Promise((r) => setTimeout(r, 100));
      await one.query('COMMIT');
      await waiting;
      await two.query('COMMIT');
    } finally {
      one.release();
      two.release();
    }
    expect((await kept())['country|PT']).toBe(2);
    expect(await kept()).toEqual(await recount());
  });

  it('answer a search with one filter of one value, exactly as counting would', async () => {
    const ctx = { pool: f.db.read, cursorSecret: 's' };
    const values = await kept();
    const asFilter: Record<string, (v: string) => JobFilters> = {
      country: (v) => ({ country: [v] }),
      city: (v) => ({ city: [v] }),
      skill: (v) => ({ skill: [v] }),
      taxonomy: (v) => ({ taxonomies: [v] }),
      seniority: (v) => ({ seniority: [v] }),
      remote: (v) => ({ remote: v === 'true' }),
    };
    let checked = 0;
    for (const key of Object.keys(values)) {
      const [dim, value] = key.split('|');
      const make = asFilter[dim];
      if (!make) continue;
      const filters = make(value);
      expect(valueTotalOf(filters)).toBeDefined();
      expect(await countJobs(ctx, filters, false), key).toBe(await counted(filters));
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    // Words of the stored titles: one lexeme each is a kept total; a value nobody has is 0.
    const { rows } = await f.db.write.query<{ w: string }>(
      "SELECT DISTINCT lower(w) AS w FROM jobs, regexp_split_to_table(title_raw, '[^A-Za-z]+') AS w WHERE w <> ''",
    );
    for (const { w } of rows) {
      const filters: JobFilters = { title: `'${w}'` };
      expect(await countJobs(ctx, filters, false), w).toBe(await counted(filters));
    }
    // One title word in one country, kept per pair; in a country without it, 0.
    const countries = Object.keys(values)
      .filter((k) => k.startsWith('country|'))
      .map((k) => k.slice('country|'.length))
      .concat('AQ');
    let pairs = 0;
    for (const c of countries)
      for (const { w } of rows) {
        const filters: JobFilters = { country: [c], title: `'${w}'` };
        const kept = valueTotalOf(filters);
        expect(kept).toEqual({ title: `'${w}'`, country: c });
        const n = await counted(filters);
        // A stop word is no lexeme: counted (and matches nothing).
        const read = await readValueTotal(f.db.read, kept!);
        if (read) pairs += read.n > 0 ? 1 : 0;
        expect(read?.n ?? 0, `${c} ${w}`).toBe(n);
        expect(await countJobs(ctx, filters, false), `${c} ${w}`).toBe(n);
      }
    expect(pairs).toBeGreaterThan(10);
    expect(await countJobs(ctx, { country: ['AQ'] }, false)).toBe(0);
    // Stop words and phrases are counted: the same answer.
    for (const title of ["'the'", "'senior engineer'", "'data-science'"])
      expect(await countJobs(ctx, { title }, false), title).toBe(await counted({ title }));
  });

  it('answer a posting-time window from whole days plus the part of its first day', async () => {
    const ctx = { pool: f.db.read, cursorSecret: 's' };
    // Postings at both sides of a UTC midnight, and one exactly at an instant asked for.
    const midnight = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    const at = (ms: number) => new Date(midnight.getTime() + ms).toISOString();
    await ingestRecords(f.db, [
      rec('m1', ['Norway'], { posted_at: at(-1) }),
      rec('m2', ['Norway'], { posted_at: at(0) }),
      rec('m3', ['Norway'], { posted_at: at(1) }),
      rec('m4', ['Norway'], { posted_at: at(-86_400_000 - 3_600_000) }),
    ]);
    for (const hours of [1, 5, 23, 24, 25, 30, 72, 24 * 30, 24 * 400]) {
      const filters: JobFilters = {
        time_frame: { text: `${hours}h`, ms: hours * 3_600_000, at: Date.now() },
      };
      expect(await countJobs(ctx, filters, false), `${hours}h`).toBe(await counted(filters));
    }
    // Windows that start exactly at a posting, and a millisecond either side of it.
    for (const edge of [-1, 0, 1]) {
      const filters: JobFilters = {
        time_frame: { text: '1h', ms: 3_600_000, at: midnight.getTime() + 3_600_000 + edge },
      };
      expect(await countJobs(ctx, filters, false), `edge ${edge}`).toBe(await counted(filters));
    }
    expect(
      await countJobs(
        ctx,
        { time_frame: { text: '1h', ms: 3_600_000, at: midnight.getTime() + 3_600_000 } },
        false,
      ),
    ).toBe(
      (await countJobs(
        ctx,
        { time_frame: { text: '1h', ms: 3_600_000, at: midnight.getTime() + 3_600_000 - 1 } },
        false,
      )) - 1,
    );
    for (const ms of [-86_400_000 - 3_600_000, -1, 0, 1, 3_600_000, -400 * 86_400_000]) {
      const filters: JobFilters = { posted_gte: at(ms) };
      expect(await countJobs(ctx, filters, false), at(ms)).toBe(await counted(filters));
    }
    expect(await countJobs(ctx, { posted_gte: at(0) }, false)).toBe(
      (await countJobs(ctx, { posted_gte: at(-1) }, false)) - 1,
    );
  });

  it('answer a salary range from whole thousands plus the part of the thousand at each bound', async () => {
    const ctx = { pool: f.db.read, cursorSecret: 's' };
    await ingestRecords(
      f.db,
      [60_000, 61_000, 75_500, 120_000, 250_000].map((lo, i) =>
        rec(`s${i}`, ['Canada'], { salary: { min: lo, max: lo * 1.5, currency: 'USD', unit: 'YEAR' } }),
      ),
    );
    // Bounds at and beside the edges of thousands, where rounding of x / 1000 could put a row on the
    // wrong side, and values no loader writes (an operator's UPDATE): huge, infinite, NaN.
    const edges = [0, 999.9999999999999, 1000, 1000.5, 1999.9999999999998, 2000, 2999.9999999999995, 61_000];
    const set = (id: string, min: number | string | null, max: number | string | null) =>
      f.db.write.query(
        'UPDATE jobs SET has_salary = true, salary_annual_min = $2::float8, salary_annual_max = $3::float8 WHERE id = $1',
        [`lever:vt-${id}`, min === null ? null : String(min), max === null ? null : String(max)],
      );
    await ingestRecords(
      f.db,
      edges.map((_, i) => rec(`e${i}`, ['Chile'])),
    );
    for (const [i, x] of edges.entries()) await set(`e${i}`, x, edges[(i + 3) % edges.length] + x);
    await set('s4', '1e15', 'Infinity');
    await set('s3', 'NaN', 'NaN');
    const bounds = [...edges, 1001, 60_999.5, 90_000, 1e9, 1e12];
    const check = async (both: boolean) => {
      for (const gte of bounds) {
        for (const filters of [
          { salary_gte: gte },
          { salary_lte: gte },
          { salary_gte: gte, has_salary: true },
        ]) {
          expect(valueTotalOf(filters)).toHaveProperty('salary');
          expect(await readValueTotal(f.db.read, valueTotalOf(filters)!), JSON.stringify(filters)).toEqual({
            n: await counted(filters),
            version: expect.any(Number),
          });
        }
        for (const lte of bounds.filter((b) => b >= gte)) {
          const filters: JobFilters = { salary_gte: gte, salary_lte: lte };
          const read = await readValueTotal(f.db.read, valueTotalOf(filters)!);
          const n = await counted(filters);
          expect(read?.n, JSON.stringify(filters)).toBe(both ? n : undefined);
          expect(await countJobs(ctx, filters, false), JSON.stringify(filters)).toBe(n);
        }
      }
    };
    expect(await kept()).toEqual(await recount());
    await check(true);
    // A range whose minimum is above its maximum, or that misses a bound, breaks the difference of the
    // two sides: while one is live, both bounds are counted; each bound alone is still kept.
    await set('s0', 70_000, 65_000);
    expect(await kept()).toEqual(await recount());
    await check(false);
    await set('s0', 70_000, null);
    await check(false);
    await set('s0', 70_000, 75_000);
    expect((await kept())['salary_irregular|']).toBeUndefined();
    await check(true);
  });

  it('are used only for one value of one kept filter', () => {
    expect(valueTotalOf({ country: ['GB', 'GB'] })).toEqual({ dim: 'country', value: 'GB' });
    expect(valueTotalOf({ country: ['GB', 'US'] })).toBeUndefined();
    expect(valueTotalOf({ country: ['GB'], remote: true })).toBeUndefined();
    expect(valueTotalOf({ country: ['GB', 'US'], title: "'analyst'" })).toBeUndefined();
    expect(valueTotalOf({ country: ['GB'], title: "'analyst'", remote: true })).toBeUndefined();
    expect(valueTotalOf({ city: ['leeds'], title: "'analyst'" })).toBeUndefined();
    expect(valueTotalOf({ skill: ['sql', 'python'] })).toBeUndefined();
    expect(valueTotalOf({ remote: false })).toEqual({ dim: 'remote', value: 'false' });
    expect(valueTotalOf({ title: "'analyst'" })).toEqual({ title: "'analyst'" });
    expect(valueTotalOf({ title: "'senior engineer'" })).toBeUndefined();
    expect(valueTotalOf({ title: "'a' & 'b'" })).toBeUndefined();
    expect(valueTotalOf({ description: "'excel'" })).toBeUndefined();
    expect(valueTotalOf({ time_frame: { text: '7d', ms: 604_800_000, at: Date.now() } })).toHaveProperty(
      'since',
    );
    expect(
      valueTotalOf({ time_frame: { text: '7d', ms: 604_800_000, at: Date.now() }, remote: true }),
    ).toBeUndefined();
    expect(valueTotalOf({ posted_lt: '2026-01-01T00:00:00Z' })).toBeUndefined();
    expect(valueTotalOf({ salary_gte: 5000, salary_lte: 9000 })).toEqual({
      salary: { gte: 5000, lte: 9000 },
    });
    expect(valueTotalOf({ salary_lte: 9000, has_salary: true })).toEqual({ salary: { lte: 9000 } });
    expect(valueTotalOf({ salary_gte: 9000, salary_lte: 5000 })).toBeUndefined();
    expect(valueTotalOf({ salary_gte: 5000, has_salary: false })).toBeUndefined();
    expect(valueTotalOf({ salary_gte: 5000, country: ['US'] })).toBeUndefined();
    expect(valueTotalOf({ salary_gte: 2e12 })).toBeUndefined();
    expect(valueTotalOf({ has_salary: true })).toBeUndefined();
    expect(valueTotalOf({})).toBeUndefined();
  });

  it('are emptied with the table', async () => {
    await f.db.write.query('TRUNCATE jobs CASCADE');
    expect(await kept()).toEqual({});
  });
});
