// stats: coverage per field over the live jobs, overall and per source.
import { COVERAGE_KEYS, coverage } from '../db/stats.ts';
import { withDb } from './db.ts';
import { JobState } from '../model/job-state.ts';

type Row = { source: string; n: number } & Record<string, unknown>;

/**
 * The coverage table for a person: a column as wide as its widest cell, source names left-aligned,
 * figures right-aligned, and the total row under a rule.
 */
export function coverageTable(rows: Row[], total: Row): string {
  const header = ['source', 'jobs', ...COVERAGE_KEYS];
  const cells = (r: Row) => [r.source, String(r.n), ...COVERAGE_KEYS.map((k) => String(r[k] ?? ''))];
  const body = rows.map(cells);
  const last = cells(total);
  const widths = header.map((h, i) => Math.max(h.length, ...[...body, last].map((c) => c[i].length)));
  const line = (c: string[]) =>
    `${c.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ')}\n`;
  const rule = `${widths.map((w) => '-'.repeat(w)).join('  ')}\n`;
  return line(header) + body.map(line).join('') + rule + line(last);
}

export async function run(_args: string[]): Promise<number> {
  return withDb(async (db) => {
    const overall = await coverage(db.write);
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
    const total = rows.reduce((a, r) => a + r.n, 0);
    process.stderr.write(coverageTable(rows, { source: '(all)', n: total, ...overall }));
    return 0;
  });
}
