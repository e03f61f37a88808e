// What the analytics statements cost in PostgreSQL: EXPLAIN ANALYZE of the facets and trends statements
// and the time of the salary distribution (two statements in one snapshot), for a few requests, each run
// once to warm the cache and then measured three times (the median is printed).
//   DATABASE_URL=<a loaded database> npx tsx bench/analytics.ts
import pg from 'pg';
import { DIMENSIONS } from '../src/search/dimensions.ts';
import { computeFacets } from '../src/search/facets.ts';
import { compileFilters, type JobFilters } from '../src/search/filters.ts';
import { salaryDistribution } from '../src/search/salary-stats.ts';
import { trendSeries } from '../src/search/trends.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
const { rows } = await pool.query<{ live: number; country: string; skill: string }>(
  `SELECT (SELECT count(*)::int FROM jobs WHERE state = 0) AS live,
          (SELECT v FROM (SELECT unnest(country_codes) AS v FROM jobs WHERE state = 0) s GROUP BY v ORDER BY count(*) DESC LIMIT 1) AS country,
          (SELECT v FROM (SELECT unnest(skills) AS v FROM jobs WHERE state = 0) s GROUP BY v ORDER BY count(*) DESC LIMIT 1) AS skill`,
);
const { live, country, skill } = rows[0]!;
process.stdout.write(`${live} live jobs\n`);

/** Runs `fn` with a db whose statements are EXPLAIN ANALYZEd; returns the summed execution time. */
async function explained(fn: (db: pg.Pool) => Promise<unknown>): Promise<number> {
  let ms = 0;
  const db = {
    query: async (q: { text: string; values: unknown[] }) => {
      const r = await pool.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${q.text}`, q.values);
      const plan = r.rows[0]['QUERY PLAN'][0];
      ms += plan['Planning Time'] + plan['Execution Time'];
      return { rows: [] };
    },
  } as unknown as pg.Pool;
  await fn(db).catch(() => undefined); // the rows are the plan's, not the answer's
  return ms;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const median = async (f: () => Promise<number>) => {
  await f();
  const xs = [await f(), await f(), await f()].sort((a, b) => a - b);
  return xs[1]!.toFixed(1);
};

const requests: [string, JobFilters][] = [
  ['no filter', {}],
  [`country=${country}`, { country: [country] }],
  [`skill=${skill}`, { skill: [skill] }],
  ['remote=true', { remote: true }],
];
const dims = (names: string[]) => DIMENSIONS.filter((d) => names.includes(d.name));
const three = dims(['country', 'remote', 'company']);
const all = DIMENSIONS;
for (const [label, f] of requests) {
  const where = compileFilters(f);
  const out = [
    `facets×3 ${await median(() => explained((db) => computeFacets(db, { where, collapse: false, limit: 10 }, three)))}`,
    `facets×${all.length} ${await median(() => explained((db) => computeFacets(db, { where, collapse: false, limit: 10 }, all)))}`,
    `facets×3 collapse ${await median(() => explained((db) => computeFacets(db, { where, collapse: true, limit: 10 }, three)))}`,
    `salary ${await median(() => timed(() => salaryDistribution(pool, where)))}`,
    `trends 90d ${await median(() =>
      explained((db) =>
        trendSeries(db, {
          where: compileFilters(f, { anyState: true }),
          interval: 'day',
          since: Date.now() - 90 * 86_400_000,
          until: Date.now(),
        }),
      ),
    )}`,
  ];
  process.stdout.write(`${label.padEnd(24)} ${out.join('  ')} ms\n`);
}
await pool.end();
