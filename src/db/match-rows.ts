// The live jobs as the in-memory match index reads them (search/match-index.ts): in search order, from
// one snapshot, with the data version of that snapshot.
import type pg from 'pg';
import { withSnapshot } from './pool.ts';

export interface MatchRow {
  id: string;
  /** posted_at in microseconds since the epoch, as text (exact: it can exceed 2^53 only past AD 287,000). */
  posted_us: string;
  collapse_key: string;
  country_codes: string[];
  skills: string[];
  taxonomies: string[];
  remote: boolean;
  has_salary: boolean;
  salary_annual_min: number | null;
  salary_annual_max: number | null;
  industry_key: string | null;
  size_range: string | null;
  /** title_tsv in its text form. */
  title_tsv: string;
}

const BATCH = 5000;

/**
 * Reads every live job in search order (posted_at DESC, id DESC) in batches, handing each to `take`, and
 * returns the data version of the snapshot they were read in.
 */
export async function readMatchRows(pool: pg.Pool, take: (rows: MatchRow[]) => void): Promise<number> {
  return withSnapshot(pool, async (c) => {
    const { rows } = await c.query<{ version: string }>('SELECT version FROM data_version WHERE id = 1');
    // The companies' values apart: joined in the cursor, PostgreSQL would sort every row instead of
    // reading the sort index in order.
    const companies = new Map(
      (
        await c.query<{ slug: string; industry_key: string | null; size_range: string | null }>(
          'SELECT slug, industry_key, size_range FROM companies WHERE industry_key IS NOT NULL OR size_range IS NOT NULL',
        )
      ).rows.map((r) => [r.slug, r]),
    );
    // A cursor has no statement timeout of its own: each FETCH is a statement.
    await c.query(`DECLARE match_rows NO SCROLL CURSOR FOR
      SELECT j.id, (extract(epoch FROM j.posted_at) * 1000000)::bigint::text AS posted_us, j.collapse_key,
             j.country_codes, j.skills, j.taxonomies, j.remote, j.has_salary, j.salary_annual_min,
             j.salary_annual_max, j.company_slug, j.title_tsv::text AS title_tsv
      FROM jobs j
      WHERE j.state = 0
      ORDER BY j.posted_at DESC, j.id DESC`);
    for (;;) {
      const batch = await c.query<MatchRow & { company_slug: string | null }>(
        `FETCH ${BATCH} FROM match_rows`,
      );
      for (const r of batch.rows) {
        const co = r.company_slug === null ? undefined : companies.get(r.company_slug);
        r.industry_key = co?.industry_key ?? null;
        r.size_range = co?.size_range ?? null;
      }
      if (batch.rows.length) take(batch.rows);
      if (batch.rows.length < BATCH) break;
      // Let the process answer other work between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return Number(rows[0].version);
  });
}
