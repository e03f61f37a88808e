// Compiles user text queries into tsquery text for `to_tsquery('english', $1)`; the search SQL and the
// tsvectors both use the `english` configuration. Any input either compiles to a query PostgreSQL accepts
// and that is not empty, or raises TextQueryError with a message fit for a 400 hint.
import { compileAdvancedQuery } from './textquery/advanced.ts';
import { compileWebQuery } from './textquery/web.ts';

export { TEXT_QUERY_MAX_LENGTH, TEXT_QUERY_MAX_TERMS, TextQueryError } from './textquery/errors.ts';

/** Google-style syntax (`title`, `description`): a b, "a phrase", a OR b, -exclude. */
export function parseWebQuery(input: string): string {
  return compileWebQuery(input);
}

/** Operator syntax (`title_advanced`, `description_advanced`): & | ! <-> <N> :* 'phrase' ( ). */
export function parseAdvancedQuery(input: string): string {
  return compileAdvancedQuery(input);
}
