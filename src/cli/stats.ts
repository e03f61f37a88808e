// stats: coverage per field over the live jobs, overall and per source.
import { COVERAGE_KEYS, refreshCoverage } from '../db/stats.ts';
import { withDb } from './db.ts';
import { JobState } from '../model/job-state.ts';

export async function run(_args: string[]): Promise<number> {
  return withDb(async (db) => {
    const overall = await refreshCoverage(db.write);
    const { rows } = await db.write.query(
      `SELECT source, count(*)::int AS n,
              round(100.0 * count(*) FILTER (WHERE cardinality(country_codes) > 0) / count(*), 1)::float AS country,
              round(100.0 * count(*) FILTER (WHERE cardinality(skills) > 0) / count(*), 1)::float AS skills,
              round(100.0 * count(*) FILTER (WHERE work_arrangement IS NOT NULL) / count(*), 1)::float AS work_arrangement,
              round(100.0 * count(*) FILTER (WHERE seniority IS NOT NULL) / count(*), 1)::float AS seniority,
              round(100.0 * count(*) FILTER (WHERE cardinality(taxonomies) > 0) / count(*), 1)::float AS taxonomies,
              round(100.0 * count(*) FILTER (WHERE has_salary) / count(*), 1)::float AS salary,
              round(100.0 * count(*) FILTER (WHERE cardinality(education) > 0) / count(*), 1)::float AS education,
              round(100.0 * count(*) FILTER (WHERE language IS NOT NULL) / count(*), 1)::float AS language
         FROM jobs WHERE state = ${JobState.Live} GROUP BY source ORDER BY n DESC`,
    );
    process.stdout.write(`${JSON.stringify({ source: '(all)', ...overall })}\n`);
    for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
    const header = ['source', 'jobs', ...COVERAGE_KEYS].map((h) => h.padStart(10)).join(' ');
    process.stderr.write(`${header}\n`);
    for (const r of rows) {
      process.stderr.write(
        `${[r.source, r.n, ...COVERAGE_KEYS.map((k) => r[k])].map((v) => String(v).padStart(10)).join(' ')}\n`,
      );
    }
    return 0;
  });
}
