// SQL as composable fragments (sql-template-tag): values never enter the SQL text, and parameters are
// numbered when the whole statement is put together, so one compiled fragment (the filters of a
// request) can be reused in every statement of that request.
import sql, { join, raw, type Sql } from 'sql-template-tag';

export { raw, type Sql, sql };

/** The conditions joined with AND; `true` when there are none. */
export function and(conds: readonly Sql[]): Sql {
  return conds.length ? join(conds, ' AND ') : sql`true`;
}

/** Escapes LIKE metacharacters so user text matches literally. */
export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}
