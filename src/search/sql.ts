// SQL as composable fragments (sql-template-tag): values never enter the SQL text, and parameters are
// numbered when the whole statement is put together, so one compiled fragment (the filters of a
// request) can be reused in every statement of that request.
import sql, { join, raw, type Sql } from 'sql-template-tag';
import type { JobState } from '../model/job-state.ts';

export { raw, type Sql, sql };

/** The conditions joined with AND; `true` when there are none. */
export function and(conds: readonly Sql[]): Sql {
  return conds.length ? join(conds, ' AND ') : sql`true`;
}

/** Escapes LIKE metacharacters so user text matches literally. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** A job state as SQL text: a literal, so that the partial indexes on live rows match the query. */
export function stateIs(s: JobState): Sql {
  return raw(String(s));
}
