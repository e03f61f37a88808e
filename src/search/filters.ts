// Job filters (the plan): a plain object, no HTTP in it, compiled once into one SQL condition on
// `jobs j` that every statement of the request reuses.
import { JobState } from '../model/job-state.ts';
import { DIMENSIONS, dimensionWhere, type JobFilters } from './dimensions.ts';
import { and, raw, type Sql, sql, stateIs } from './sql.ts';

export { type JobFilters, timeFrameStart, timeFrameStartMs } from './dimensions.ts';

const TS_CONFIG = 'english';
const TS = raw(`'${TS_CONFIG}'`);

/** Where a condition needs the state of the row: live rows, or any state (replaying totals). */
export interface CompileOptions {
  anyState?: boolean;
  /**
   * For a page found by walking the newest rows: company filters as a look-up per row (OFFSET 0 keeps
   * PostgreSQL from turning it into a join), which keeps the walk's order, so the walk stops as soon as
   * the page is full. A join (the default, best for counting) reads and sorts the whole walk. A
   * description is then tested on the row's own vector, not gathered from job_texts first.
   */
  perRow?: boolean;
}

/**
 * The condition of `f` on `jobs j`. Live rows only (duplicates and expired jobs never match), unless
 * `anyState`: then the conditions on the row's own columns alone.
 */
export function compileFilters(f: JobFilters, opts: CompileOptions = {}): Sql {
  const w: Sql[] = [];
  if (!opts.anyState) w.push(sql`j.state = ${stateIs(JobState.Live)}`);
  // Text searches and the company look-up go last: PostgreSQL tests a row's conditions of equal cost in
  // the order written, and a walk of the newest rows (plan.ts) then skips them for every row another
  // filter already refused. The description's vector is in TOAST: testing it first fetched and
  // decompressed it for every row walked (description=excel&country=GB 2.9 ms, country first 0.84 ms).
  const late: Sql[] = [];
  if (f.title) late.push(sql`j.title_tsv @@ to_tsquery(${TS}, ${f.title})`);
  if (f.title_advanced) late.push(sql`j.title_tsv @@ to_tsquery(${TS}, ${f.title_advanced})`);
  if (f.description || f.description_advanced) {
    // Where every row is tested anyway (a walk, or rows of any state), on its own vector; else the live
    // matches are found in job_texts' index, with the countries (migration 30), and joined by id.
    if (opts.perRow || opts.anyState) {
      if (f.description) late.push(sql`j.text_tsv @@ to_tsquery(${TS}, ${f.description})`);
      if (f.description_advanced) late.push(sql`j.text_tsv @@ to_tsquery(${TS}, ${f.description_advanced})`);
    } else late.push(sql`j.id IN (SELECT t.id FROM job_texts_ids(${textArgs(f)}) AS t(id))`);
  }

  // Company filters match the verified profile only: an unresolved employer never matches.
  const company: Sql[] = [];
  for (const d of DIMENSIONS) {
    const v = d.filter && f[d.filter];
    if (v !== undefined) (d.company ? company : w).push(dimensionWhere(d, v));
  }
  if (company.length)
    late.push(
      opts.perRow
        ? sql`EXISTS (SELECT 1 FROM companies c WHERE c.slug = j.company_slug AND ${and(company)} OFFSET 0)`
        : sql`j.company_slug IN (SELECT c.slug FROM companies c WHERE ${and(company)})`,
    );
  return and([...w, ...late]);
}

const TEXTS = DIMENSIONS.find((d) => d.texts)!;

/**
 * The number of live jobs matching `f` counted in job_texts (the live jobs' description vectors and
 * countries, migration 27), when `f` is a description search filtered on nothing but countries: the count then
 * visits that narrow table's heap, not the heap row of every match in jobs. `job_texts_count` walks
 * its index (PostgreSQL, not knowing what reading a vector from TOAST costs, would rather read every
 * vector). Undefined for any other filters.
 */
export function textCount(f: JobFilters): Sql | undefined {
  // A text search is written when given and not empty, as compileFilters writes it.
  if (!f.description && !f.description_advanced) return undefined;
  for (const [k, v] of Object.entries(f))
    if (v !== undefined && k !== 'description' && k !== 'description_advanced' && k !== TEXTS.filter)
      return undefined;
  return sql`job_texts_count(${textArgs(f)})`;
}

/** The arguments of job_texts_count and job_texts_ids: the two text queries and the countries, or NULLs. */
function textArgs(f: JobFilters): Sql {
  const query = (q: string | undefined) => (q ? sql`to_tsquery(${TS}, ${q})` : sql`NULL`);
  const countries = f[TEXTS.filter!] as string[] | undefined;
  return sql`${query(f.description)}, ${query(f.description_advanced)}, ${countries ?? null}::text[]`;
}
