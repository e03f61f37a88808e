// The parameter registry: every query parameter of every endpoint, with its codec and description.
// Validation and the OpenAPI parameter objects both come from here, so they cannot drift.
import { ParamError } from '../../errors.ts';
import * as c from './codecs.ts';
import { SKILL, TEXT, TEXT_ADVANCED } from './domain.ts';
import { ascendingNumbers, nameList } from './analytics.ts';
import { DIMENSION_NAMES } from '../../search/dimensions.ts';
import {
  CONTINENTS,
  EDUCATION,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  SENIORITY,
  SIZE_BUCKETS,
  SOURCE_TYPES,
  TAXONOMIES,
  WORK_ARRANGEMENTS,
} from '../../enums.ts';

export interface ParamDef<T = unknown, N extends string = string> {
  name: N;
  codec: c.Codec<T>;
  description: string;
  /** Must be given (a 400 naming it otherwise); every other parameter is optional. */
  required?: boolean;
}

const p = <const N extends string, T>(name: N, codec: c.Codec<T>, description: string): ParamDef<T, N> => ({
  name,
  codec,
  description,
});

/** The decoded parameters of a list of definitions: each optional, typed by its codec. */
export type ParamsOf<L extends readonly ParamDef<unknown, string>[]> = {
  [D in L[number] as D['name']]?: D extends ParamDef<infer T, string> ? T : never;
};

const lowerList = c.list((s) => s.toLowerCase());

/** Filters of /v1/jobs and /v1/jobs/count. */
export const jobFilterParams = [
  p('title', TEXT, 'Search titles: `a b` AND, "quoted phrase", `a OR b`, leading `-` excludes.'),
  p('description', TEXT, 'Same syntax as title, over title plus description combined. Slowest filter.'),
  p(
    'title_advanced',
    TEXT_ADVANCED,
    "Boolean title search: `&` AND, `|` OR, `!` NOT, `<->` adjacency, `term:*` prefix, 'quoted phrase', parentheses.",
  ),
  p('description_advanced', TEXT_ADVANCED, 'Same operators as title_advanced, over title plus description.'),
  p('organization', c.text(200), 'Case-insensitive substring of the hiring company name.'),
  p('exclude_organization', lowerList, 'Comma-separated exact company names (case-insensitive) to exclude.'),
  p('company_industry', lowerList, 'Company industry, exact and case-insensitive; comma = OR.'),
  p('company_size', c.enumList(SIZE_BUCKETS), 'Company size bucket; comma = OR.'),
  p('employee_count_gte', c.integer(0, 100_000_000), 'Company employee count, inclusive minimum.'),
  p('employee_count_lt', c.integer(1, 100_000_000), 'Company employee count, exclusive maximum.'),
  p('funding_gte', c.integer(0, 1e15), 'Company total funding in USD, inclusive minimum.'),
  p('funding_lt', c.integer(1, 1e15), 'Company total funding in USD, exclusive maximum.'),
  p('company_country', c.countries, 'Company HQ country, full name or ISO-2; comma = OR.'),
  p('domain', lowerList, 'Exact company website domain; comma = OR.'),
  p('country', c.countries, 'Job country, full name or ISO-2 (an unknown ISO-2 code is a 400); comma = OR.'),
  p('city', lowerList, 'City, case-insensitive; comma = OR.'),
  p('region', lowerList, 'State, province or region, case-insensitive; comma = OR.'),
  p('continent', c.enumList(CONTINENTS), 'Continent; comma = OR.'),
  p('remote', c.boolean(true), 'true (or 1): remote only; false (or 0): on-site or hybrid only.'),
  p('work_arrangement', c.enumList(WORK_ARRANGEMENTS), 'Work arrangement; comma = OR.'),
  p('skill', SKILL, 'Skills, comma = AND; lower-case single tokens, aliases such as c++ → cpp translated.'),
  p('taxonomies', c.enumList(TAXONOMIES), 'Taxonomies, comma = OR (overlap).'),
  p('employment_type', c.enumList(EMPLOYMENT_TYPES), 'Employment type; comma = OR.'),
  p('seniority', c.enumList(SENIORITY), 'Seniority; comma = OR.'),
  p('experience_level', c.enumList(EXPERIENCE_LEVELS), 'Experience level in years; comma = OR.'),
  p('education', c.enumList(EDUCATION), 'Education requirement, comma = OR (overlap).'),
  p('language', c.languages, 'Posting language, English name or ISO 639-1 code; comma = OR.'),
  p(
    'visa_sponsorship',
    c.oneOf(['only', 'exclude'] as const),
    'only: jobs mentioning visa sponsorship; exclude: hide them.',
  ),
  p('has_salary', c.boolean(false), 'true: only jobs with structured salary; false: only jobs without.'),
  p('salary_gte', c.number(0), 'Annual salary overlap: jobs whose annual_max is at least this value.'),
  p('salary_lte', c.number(0), 'Annual salary overlap: jobs whose annual_min is at most this value.'),
  p('salary_currency', c.currencies, 'Salary currency, ISO 4217, case-insensitive; comma = OR.'),
  p(
    'source',
    lowerList,
    'Public source slug (legacy slugs accepted); comma = OR. An unknown slug matches nothing.',
  ),
  p('source_type', c.enumList(SOURCE_TYPES), 'Source type: ats, jobboard, aggregator; comma = OR.'),
  p('exclude_source', lowerList, 'Comma-separated source slugs to exclude.'),
  p('time_frame', c.window, 'Posting age window: a number and m, h or d (15m, 1h, 24h, 7d, 30d).'),
  p('posted_gte', c.instant, 'Posted on or after this ISO 8601 instant.'),
  p('posted_lt', c.instant, 'Posted before this ISO 8601 instant.'),
  p('created_gte', c.instant, 'First indexed on or after this ISO 8601 instant.'),
  p('created_lt', c.instant, 'First indexed before this ISO 8601 instant.'),
] as const;

const collapse = p(
  'collapse',
  c.oneOf(['true', 'title,organization'] as const),
  'Fold repeats of one company plus title into the newest row, with `openings`; `total` counts groups.',
);
const descriptionFormat = p(
  'description_format',
  c.oneOf(['text', 'html'] as const),
  'Include the description as plain text or sanitised HTML.',
);
const cursor = p('cursor', c.text(2048), 'Opaque keyset cursor from the previous `next_cursor`.');

/** The window and page size of a feed: `since`, its absolute start, `limit`. */
function feedWindow<const S extends string>(start: S, time: string, maxLimit: number, defaultLimit: number) {
  return [
    p('since', c.window, `Relative window on ${time} (default 24h).`),
    p(start, c.instant, `Absolute start on ${time}; wins over since.`),
    p('limit', c.integer(1, maxLimit), `Page size, 1 to ${maxLimit} (default ${defaultLimit}).`),
  ] as const;
}

export const endpointParams = {
  jobs: [
    ...jobFilterParams,
    descriptionFormat,
    collapse,
    p('limit', c.integer(1, 200), 'Page size, 1 to 200 (default 50).'),
    p('offset', c.integer(0, 100_000), 'Rows to skip, 0 to 100000; ignored when cursor is given.'),
    cursor,
  ],
  count: [...jobFilterParams, collapse],
  feed: [...feedWindow('created_gte', 'index time', 1000, 200), cursor, descriptionFormat],
  modified: [...feedWindow('modified_gte', 'modification time', 1000, 200), cursor, descriptionFormat],
  expired: [...feedWindow('expired_gte', 'expiry time', 5000, 1000), cursor],
  job: [descriptionFormat],
  companies: [
    p('q', c.text(200), 'Case-insensitive substring of the company name.'),
    p('industry', lowerList, 'Industry, exact and case-insensitive; comma = OR.'),
    p('country', c.countries, 'HQ country, full name or ISO-2; comma = OR.'),
    p('size', c.enumList(SIZE_BUCKETS), 'Size bucket; comma = OR.'),
    p('employee_count_gte', c.integer(0, 100_000_000), 'Employee count, inclusive minimum.'),
    p('employee_count_lt', c.integer(1, 100_000_000), 'Employee count, exclusive maximum.'),
    p('has_jobs', c.boolean(false), 'true: only companies with live jobs; false: only companies without.'),
    p('limit', c.integer(1, 200), 'Page size, 1 to 200 (default 50).'),
    p('offset', c.integer(0, 100_000), 'Rows to skip, 0 to 100000.'),
  ],
  company: [],
  // Analytics: the filters of /v1/jobs, then each endpoint's own parameters.
  facets: [
    ...jobFilterParams,
    collapse,
    {
      ...p('facets', nameList(DIMENSION_NAMES), 'Dimensions to count, comma-separated, in the order wanted.'),
      required: true,
    },
    p('facet_limit', c.integer(1, 100), 'Top values per dimension, 1 to 100 (default 10).'),
  ],
  salary: [
    ...jobFilterParams,
    p(
      'salary_buckets',
      ascendingNumbers,
      'Histogram edges, ascending annual amounts; buckets from 0 to the first, between each two, and past the last. Default: about ten round-width buckets per currency over its range.',
    ),
  ],
  trends: [
    ...jobFilterParams,
    p('since', c.instant, 'Window start, ISO 8601 date or instant (default: until minus 90 days).'),
    p(
      'until',
      c.instant,
      'Window end, exclusive, ISO 8601 date or instant (default: now); at most 365 days after since.',
    ),
    p(
      'interval',
      c.oneOf(['day', 'week'] as const),
      'Interval of the series: day (default) or week, from since.',
    ),
  ],
  history: [],
  sources: [],
} satisfies Record<string, readonly ParamDef<unknown, string>[]>;

export type Endpoint = keyof typeof endpointParams;

/** The typed parameters of an endpoint. */
export type EndpointParams<E extends Endpoint> = ParamsOf<(typeof endpointParams)[E]>;

/** Parameters that exist nowhere, with a hint saying what to use instead. */
// Null prototype: looked up with input strings, so "__proto__" or "constructor" find nothing.
const KNOWN_TRAPS: Record<string, string> = Object.setPrototypeOf(
  {
    location: 'there is no geo search; use country, region, city, continent or remote',
    salary_min: 'use salary_gte and salary_lte',
    salary_max: 'use salary_gte and salary_lte',
    posted_since: 'use time_frame or posted_gte',
    q: 'use title or description',
    sort: 'sorting is not configurable',
    page: 'use offset or cursor',
  },
  null,
);

/** The auth parameter, accepted everywhere a key is accepted. */
export const API_KEY_PARAM = 'api_key';

export type RawQuery = Map<string, string[]>;

/** Parses a query string into name → values, keeping repeats. Never throws. */
export function parseQueryString(qs: string): RawQuery {
  const out: RawQuery = new Map();
  for (const [k, v] of new URLSearchParams(qs)) {
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

/** Validates every parameter of `query` against the endpoint's list. */
export function parseParams<E extends Endpoint>(endpoint: E, query: RawQuery): EndpointParams<E> {
  const defs: readonly ParamDef[] = endpointParams[endpoint];
  const out: Record<string, unknown> = {};
  for (const [name, values] of query) {
    if (name === API_KEY_PARAM) continue;
    const def = defs.find((d) => d.name === name);
    if (!def) {
      const trap = endpoint !== 'companies' || name !== 'q' ? KNOWN_TRAPS[name] : undefined;
      throw new ParamError(name, trap ? `unknown parameter: ${trap}` : 'unknown parameter');
    }
    if (values.length > 1)
      throw new ParamError(name, 'given more than once; send one value (use commas for lists)');
    const raw = values[0];
    if (raw === '') throw new ParamError(name, 'empty value');
    // PostgreSQL text cannot hold U+0000: refused here, once, for every parameter.
    if (raw.includes('\0')) throw new ParamError(name, 'must not contain the NUL character (%00)');
    out[name] = def.codec.parse(raw, name);
  }
  for (const def of defs)
    if (def.required && !(def.name in out)) throw new ParamError(def.name, 'required parameter is missing');
  // Each value came from the codec of its name, so the object has the endpoint's parameter types.
  return out as EndpointParams<E>;
}
