// The OpenAPI 3.1 description, generated from the routes and the parameter registry. Its examples are
// real responses of the service on the demo dataset (openapi-examples.json, npm run openapi:examples).
import { readFileSync } from 'node:fs';
import { endpointParams, type ParamDef } from './params/registry.ts';
import type { Route } from './routes/types.ts';
import {
  CONTINENTS,
  EDUCATION,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  SENIORITY,
  SOURCE_TYPES,
  TAXONOMIES,
  WORK_ARRANGEMENTS,
} from '../enums.ts';
import { COPY_REASONS, EXPIRY_REASONS } from '../model/lifecycle.ts';
import { TRACKED_FIELDS } from '../model/job-row.ts';

const str = { type: 'string' };
const strOrNull = { type: ['string', 'null'] };
const strArr = { type: 'array', items: str };
const ts = { type: 'string', format: 'date-time' };
const num = { type: ['number', 'null'] };
const int = { type: ['integer', 'null'] };

// The search rows' company: the subset of the profile, or the slug-less fallback.
const SUBSET_FIELDS = { slug: str, name: str, domain: strOrNull, website: strOrNull, logo: strOrNull };
const companySubset = {
  type: 'object',
  properties: { ...SUBSET_FIELDS, industry: strOrNull, employee_count: int },
  required: ['name'],
};

const schemas: Record<string, unknown> = {
  Company: {
    type: 'object',
    properties: {
      ...SUBSET_FIELDS,
      industry: strOrNull,
      type: strOrNull,
      description: strOrNull,
      slogan: strOrNull,
      specialties: strArr,
      employee_count: int,
      size_range: strOrNull,
      followers: { type: 'integer' },
      founded_year: int,
      hq: {
        type: ['object', 'null'],
        properties: { country: strOrNull, region: strOrNull, locality: strOrNull, raw: strOrNull },
      },
      funding: {
        type: ['object', 'null'],
        properties: {
          rounds: int,
          last_round_type: strOrNull,
          last_round_date: strOrNull,
          last_round_amount_usd: int,
          total_investment_usd: int,
          fundingdb_slug: strOrNull,
          fundingdb_categories: strArr,
        },
      },
      stock: { type: ['object', 'null'] },
      affiliated_companies: { type: 'array' },
      data_tier: strOrNull,
      jobs_count: { type: 'integer' },
      updated_at: ts,
    },
    required: ['slug', 'name', 'jobs_count', 'updated_at'],
  },
  Job: {
    type: 'object',
    properties: {
      id: { type: 'string', description: '<source>:<native_id>' },
      title: str,
      // The full profile or the subset; a full profile is also a valid subset, hence anyOf.
      company: { anyOf: [{ $ref: '#/components/schemas/Company' }, companySubset] },
      location: {
        type: 'object',
        properties: {
          remote: { type: 'boolean' },
          countries: strArr,
          cities: { type: ['array', 'null'], items: str },
          regions: { type: ['array', 'null'], items: str },
          coords: { type: 'null' },
          timezones: strArr,
          continent: { type: ['string', 'null'], enum: [...CONTINENTS, null] },
          raw: strArr,
        },
        required: ['remote', 'countries', 'timezones', 'raw'],
      },
      employment_type: { type: 'array', items: { type: 'string', enum: [...EMPLOYMENT_TYPES] } },
      work_arrangement: { type: 'string', enum: [...WORK_ARRANGEMENTS] },
      office_days: { type: 'null' },
      visa_sponsorship: { type: ['boolean', 'null'] },
      hiring_manager: { type: 'null' },
      remote_location: strArr,
      department: strOrNull,
      team: strOrNull,
      requisition_id: strOrNull,
      seniority: { type: ['string', 'null'], enum: [...SENIORITY, null] },
      experience_level: { type: ['string', 'null'], enum: [...EXPERIENCE_LEVELS, null] },
      salary: {
        type: ['object', 'null'],
        properties: {
          min: num,
          max: num,
          currency: str,
          unit: str,
          annual_min: num,
          annual_max: num,
          summary: str,
        },
      },
      working_hours: num,
      skills: strArr,
      keywords: strArr,
      taxonomies: { type: 'array', items: { type: 'string', enum: [...TAXONOMIES] } },
      education_requirements: { type: 'array', items: { type: 'string', enum: [...EDUCATION] } },
      job_language: strOrNull,
      description: { type: 'string', description: 'Only with description_format.' },
      requirements_summary: strOrNull,
      core_responsibilities: strOrNull,
      benefits: strArr,
      apply_url: str,
      url: str,
      source: str,
      source_type: { type: 'string', enum: [...SOURCE_TYPES] },
      source_domain: str,
      posted_at: ts,
      expires_at: { type: ['string', 'null'], format: 'date-time' },
      modified_at: ts,
      modified_fields: strArr,
      created_at: ts,
      updated_at: ts,
      openings: { type: 'integer', description: 'Only on collapsed search results.' },
    },
    required: ['id', 'title', 'company', 'location', 'url', 'source', 'posted_at', 'created_at'],
  },
  JobSearchResponse: {
    type: 'object',
    properties: {
      data: { type: 'array', items: { $ref: '#/components/schemas/Job' } },
      total: { type: 'integer' },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
      next_cursor: strOrNull,
      collapsed: { type: 'boolean', const: true },
    },
    required: ['data', 'total', 'limit'],
  },
  CountResponse: { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] },
  FeedResponse: {
    type: 'object',
    properties: {
      since: str,
      count: { type: 'integer' },
      data: { type: 'array', items: { $ref: '#/components/schemas/Job' } },
      next_cursor: strOrNull,
    },
    required: ['since', 'count', 'data', 'next_cursor'],
  },
  ModifiedResponse: {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      data: { type: 'array', items: { $ref: '#/components/schemas/Job' } },
      next_cursor: strOrNull,
    },
    required: ['count', 'data', 'next_cursor'],
  },
  ExpiredResponse: {
    type: 'object',
    properties: {
      count: { type: 'integer' },
      data: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: str,
            expired_at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$' },
          },
          required: ['id', 'expired_at'],
        },
      },
      next_cursor: strOrNull,
    },
    required: ['count', 'data', 'next_cursor'],
  },
  FacetsResponse: {
    type: 'object',
    description:
      'Per dimension, in the order asked: the top values by count (then value), the number of distinct values and of jobs (groups with collapse) without one.',
    properties: {
      total: { type: 'integer', description: 'What /v1/jobs answers as total for the same filters.' },
      facets: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: {
            values: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  value: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
                  name: { type: 'string', description: 'company: the company name' },
                  count: { type: 'integer' },
                },
                required: ['value', 'count'],
              },
            },
            distinct: { type: 'integer' },
            missing: { type: 'integer' },
          },
          required: ['values', 'distinct', 'missing'],
        },
      },
    },
    required: ['total', 'facets'],
  },
  SalaryResponse: {
    type: 'object',
    description:
      "Per currency (most jobs first), the distribution of each job's annualised salary midpoint, (annual_min + annual_max) / 2.",
    properties: {
      total: { type: 'integer' },
      with_salary: { type: 'integer' },
      currencies: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            currency: str,
            count: { type: 'integer' },
            min: { type: 'number' },
            p10: { type: 'number' },
            p25: { type: 'number' },
            median: { type: 'number' },
            p75: { type: 'number' },
            p90: { type: 'number' },
            max: { type: 'number' },
            histogram: {
              type: 'array',
              items: {
                type: 'object',
                properties: { from: { type: 'number' }, to: num, count: { type: 'integer' } },
                required: ['from', 'to', 'count'],
              },
            },
          },
          required: ['currency', 'count', 'min', 'p10', 'p25', 'median', 'p75', 'p90', 'max', 'histogram'],
        },
      },
    },
    required: ['total', 'with_salary', 'currencies'],
  },
  TrendsResponse: {
    type: 'object',
    properties: {
      interval: { type: 'string', enum: ['day', 'week'] },
      since: ts,
      until: ts,
      series: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            start: ts,
            added: {
              type: 'integer',
              description: 'Listed by /v1/jobs/feed with created_at in the interval',
            },
            expired: {
              type: 'integer',
              description: 'Listed by /v1/jobs/expired with expired_at in the interval',
            },
            live: { type: 'integer', description: "Live at the interval's end" },
          },
          required: ['start', 'added', 'expired', 'live'],
        },
      },
    },
    required: ['interval', 'since', 'until', 'series'],
  },
  CompanySearchResponse: {
    type: 'object',
    properties: {
      data: { type: 'array', items: { $ref: '#/components/schemas/Company' } },
      total: { type: 'integer' },
      limit: { type: 'integer' },
      offset: { type: 'integer' },
    },
    required: ['data', 'total', 'limit', 'offset'],
  },
  Meta: {
    type: 'object',
    properties: {
      jobs: { type: 'integer' },
      companies: { type: 'integer' },
      newest: strOrNull,
      sources: { type: 'object', additionalProperties: { type: 'integer' } },
      coverage_pct: { type: 'object', additionalProperties: { type: 'number' } },
      full_text_search: { type: 'boolean' },
      version: str,
    },
    required: ['jobs', 'companies', 'newest', 'sources', 'coverage_pct', 'full_text_search', 'version'],
  },
  JobHistory: {
    type: 'object',
    description:
      "A job's life. Asked by the id of a copy folded into another job, it answers with that job's history (`folded_into`).",
    properties: {
      id: { ...str, description: 'The job whose history this is (the original when asked by a copy)' },
      requested_id: { ...str, description: 'The id asked for' },
      folded_into: {
        ...strOrNull,
        description: 'The job the requested id was folded into; null when asked by its own id',
      },
      first_seen_at: { ...ts, description: "First indexed (the job's created_at)" },
      last_seen_at: {
        ...ts,
        description:
          'The last load or crawl whose records listed it (a record sent as gone does not list it)',
      },
      expired_at: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'When it left; null while live',
      },
      expiry_reason: {
        type: ['string', 'null'],
        enum: [...EXPIRY_REASONS, null],
        description:
          'Why it left; null while live. `removed_from_source`: a whole-board load or crawl of its board no longer listed it; `valid_through_passed`: its expires_at (validThrough) passed; `source_marked_closed`: its source sent it as closed (gone); `aged_out`: aged out by the service (not used: the service does not age postings out).',
      },
      versions: {
        type: 'array',
        description:
          "Every announcement of the job through modified_at, oldest first: the modified feed's items for it, with the old and new value of each field named. A description is given as its SHA-256 (hex) and its length in characters, both of the sanitised HTML.",
        items: {
          type: 'object',
          properties: {
            modified_at: ts,
            modified_fields: { type: 'array', items: { type: 'string', enum: [...TRACKED_FIELDS] } },
            changes: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: { old: {}, new: {} },
                required: ['old', 'new'],
              },
            },
          },
          required: ['modified_at', 'modified_fields', 'changes'],
        },
      },
      copies: {
        type: 'array',
        description: 'Every posting folded into this job (its duplicate cluster), first seen first.',
        items: {
          type: 'object',
          properties: {
            id: str,
            source: str,
            source_type: { type: 'string', enum: [...SOURCE_TYPES] },
            url: strOrNull,
            first_seen_at: ts,
            last_seen_at: ts,
            reason: {
              type: 'string',
              enum: [...COPY_REASONS],
              description:
                '`same_url`: the same canonical URL; `same_employer_title_place`: the same employer, title and place; `near_identical_description`: the same employer and place under a reworded title, folded for its near-identical description.',
            },
          },
          required: ['id', 'source', 'source_type', 'url', 'first_seen_at', 'last_seen_at', 'reason'],
        },
      },
    },
    required: [
      'id',
      'requested_id',
      'folded_into',
      'first_seen_at',
      'last_seen_at',
      'expired_at',
      'expiry_reason',
      'versions',
      'copies',
    ],
  },
  SourcesResponse: {
    type: 'object',
    properties: {
      data: {
        type: 'array',
        description: 'Every known source, most live postings first.',
        items: {
          type: 'object',
          properties: {
            source: str,
            source_type: { type: 'string', enum: [...SOURCE_TYPES] },
            live: { type: 'integer', description: 'Live postings (folded copies and expired jobs excluded)' },
            last_load_at: {
              type: ['string', 'null'],
              format: 'date-time',
              description: 'The last committed write of a load or crawl that listed postings of the source',
            },
            median_age_days: {
              type: ['number', 'null'],
              description:
                'Median age of its live postings in days (from posted_at), to a tenth; null without any',
            },
          },
          required: ['source', 'source_type', 'live', 'last_load_at', 'median_age_days'],
        },
      },
    },
    required: ['data'],
  },
  Health: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['ok', 'unavailable'] },
      jobs: int,
      limiter: {
        type: 'object',
        description: "The rate limiter's shared store; while Redis is away the service fails open.",
        properties: {
          store: str,
          status: { type: 'string', enum: ['ok', 'unavailable'] },
          failing_open: { type: 'boolean' },
        },
      },
    },
    required: ['status'],
  },
  Error: {
    type: 'object',
    properties: { error: str, param: str, hint: str, see: str, request_id: str },
    required: ['error'],
  },
};

/** Every object with listed properties has only those: a field the document does not name is drift. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as object).map(([n, s]) => [n, closed(s)]))
        : closed(v);
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const EXAMPLES = JSON.parse(
  readFileSync(new URL('./openapi-examples.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, unknown>>;
/** The media type of a JSON body, with its captured example when there is one. */
const json = (schema: unknown, path: string, status: number) => ({
  'application/json': {
    schema,
    ...(EXAMPLES[path]?.[status] !== undefined ? { example: EXAMPLES[path][status] } : {}),
  },
});

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: unknown parameter, bad value, malformed cursor or search syntax',
  401: 'Missing, malformed, unknown or revoked API key',
  404: 'Not found',
  405: 'Method not allowed',
  429: 'Per-minute rate limit exceeded, or monthly quota exhausted',
  500: 'Unhandled server error',
  503: 'Database unavailable or query timed out',
};

// Error statuses answered with the route's own body instead of the error body.
const OWN_BODY: Record<string, Record<number, string>> = { '/v1/health': { 503: 'Health' } };

const int32 = { schema: { type: 'integer' } };
const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per sliding 60 seconds', ...int32 },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', ...int32 },
  'X-RateLimit-Reset': { description: 'Seconds until the window frees a request', ...int32 },
};

function parameter(def: ParamDef) {
  return {
    name: def.name,
    in: 'query',
    required: def.required ?? false,
    description: def.description,
    schema: def.codec.schema,
  };
}

export function buildOpenApi(routes: Route[], version: string) {
  const paths: Record<string, unknown> = {};
  const errorResponse = (path: string, s: number, auth: boolean, body = 'Error') => ({
    description: STATUS_TEXT[s] ?? 'Error',
    ...(auth && s !== 401
      ? {
          headers: {
            ...RATE_HEADERS,
            ...(s === 429
              ? { 'Retry-After': { description: 'Seconds to wait (per-minute limit only)', ...int32 } }
              : {}),
          },
        }
      : {}),
    content: json({ $ref: `#/components/schemas/${body}` }, path, s),
  });
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    const params: unknown[] = [];
    for (const m of r.path.matchAll(/:(\w+)/g)) {
      params.push({
        name: m[1],
        in: 'path',
        required: true,
        description:
          m[1] === 'id' ? 'Job id `<source>:<native_id>`, exact after URL-decoding' : 'Company slug, exact',
        schema: { type: 'string' },
      });
    }
    if (r.params !== 'ignore')
      params.push(...(endpointParams[r.params] as readonly ParamDef[]).map(parameter));
    if (r.auth) {
      params.push({
        name: 'api_key',
        in: 'query',
        required: false,
        description: 'API key, when the Authorization header is not used (the header wins).',
        schema: { type: 'string' },
      });
    }
    const responses: Record<string, unknown> = {
      200: {
        description: 'Success',
        ...(r.auth ? { headers: RATE_HEADERS } : {}),
        content: json({ $ref: `#/components/schemas/${r.response}` }, path, 200),
      },
    };
    for (const s of r.statuses) responses[s] = errorResponse(path, s, r.auth, OWN_BODY[r.path]?.[s]);
    paths[path] = {
      get: {
        summary: r.summary,
        operationId: r.summary
          .replace(/[^A-Za-z]+(.)/g, (_m, c: string) => c.toUpperCase())
          .replace(/^./, (c) => c.toLowerCase()),
        security: r.auth ? [{ bearer: [] }, { apiKeyQuery: [] }] : [],
        parameters: params,
        responses,
      },
    };
  }
  paths['/openapi.json'] = {
    get: {
      summary: 'This OpenAPI description',
      operationId: 'openapi',
      security: [],
      responses: {
        200: {
          description: 'OpenAPI 3.1 document',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Job Postings Search Service',
      version,
      description: 'Read-only JSON API over an index of job postings with embedded company profiles.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: closed(schemas),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
      },
    },
  };
}
