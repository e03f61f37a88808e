// Checks one parsed line of a canonical file. A malformed record is rejected with a reason;
// the rest of the file still loads.
import type { CanonicalLine } from '../model/record.ts';

export class RecordError extends Error {}

const isStr = (v: unknown): v is string => typeof v === 'string';
// Arrays feed GIN indexes: bounded in length and element size so one record cannot fail a batch.
const isStrArr = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length <= 200 && v.every((x) => isStr(x) && x.length <= 500);

function need(cond: boolean, reason: string): void {
  if (!cond) throw new RecordError(reason);
}

function optional(obj: Record<string, unknown>, key: string, check: (v: unknown) => boolean, what: string) {
  const v = obj[key];
  if (v !== undefined && v !== null) need(check(v), `${key} must be ${what}`);
}

function isUrl(v: unknown): boolean {
  if (!isStr(v)) return false;
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

const isDate = (v: unknown) => isStr(v) && !Number.isNaN(Date.parse(v));
const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

export function validateLine(value: unknown): CanonicalLine {
  need(typeof value === 'object' && value !== null && !Array.isArray(value), 'not a JSON object');
  const o = value as Record<string, unknown>;
  const kind = o.kind ?? 'posting';
  if (kind === 'source') checkSource(o);
  else if (kind === 'company') checkCompany(o);
  else {
    need(kind === 'posting', `unknown kind ${JSON.stringify(kind)}`);
    checkPosting(o);
  }
  return { ...o, kind } as CanonicalLine;
}

function checkSource(o: Record<string, unknown>): void {
  need(isStr(o.slug) && /^[a-z0-9][a-z0-9_.-]{0,63}$/.test(o.slug), 'slug must be a lower-case slug');
  need(
    o.type === 'ats' || o.type === 'jobboard' || o.type === 'aggregator',
    'type must be ats, jobboard or aggregator',
  );
  need(isStr(o.domain) && o.domain.length > 0, 'domain is required');
  need(isStr(o.name) && o.name.length > 0, 'name is required');
  optional(o, 'legacy_slug', isStr, 'a string');
}

const COMPANY_STRINGS = [
  'domain',
  'website',
  'logo',
  'industry',
  'type',
  'description',
  'slogan',
  'size_range',
  'data_tier',
];

function checkCompany(o: Record<string, unknown>): void {
  need(isStr(o.slug) && o.slug.length > 0 && o.slug.length <= 200, 'slug is required');
  need(isStr(o.name) && o.name.trim().length > 0, 'name is required');
  for (const k of COMPANY_STRINGS) optional(o, k, isStr, 'a string');
  for (const k of ['employee_count', 'followers', 'founded_year']) optional(o, k, isNum, 'a number');
  optional(o, 'specialties', isStrArr, 'an array of at most 200 strings of at most 500 characters');
  optional(o, 'hq', (v) => typeof v === 'object', 'an object');
  optional(o, 'funding', (v) => typeof v === 'object', 'an object');
}

const POSTING_LISTS = [
  'employment_type',
  'education_requirements',
  'skills',
  'keywords',
  'taxonomies',
  'benefits',
  'remote_location',
];
const POSTING_STRINGS = [
  'work_arrangement',
  'seniority',
  'experience_level',
  'department',
  'team',
  'requisition_id',
  'job_language',
  'board',
  'canonical_url',
];

function checkPosting(o: Record<string, unknown>): void {
  need(isStr(o.source) && o.source.length > 0, 'source is required');
  need(isStr(o.id) && /^[^:\s]+:\S/.test(o.id) && o.id.length <= 300, 'id must be <source>:<native_id>');
  need(isStr(o.title) && o.title.trim().length > 0, 'title is required');
  need((o.title as string).length <= 500, 'title must be at most 500 characters');
  checkEmployer(o.company);
  need(!isStr(o.url) || o.url.length <= 2048, 'url must be at most 2048 characters');
  optional(o, 'description_html', (v) => isStr(v) && v.length <= 1_000_000, 'a string of at most 1 MB');
  need(isUrl(o.url), 'url must be an http(s) URL');
  optional(o, 'apply_url', isUrl, 'an http(s) URL');
  optional(o, 'description_html', isStr, 'a string');
  optional(o, 'description_text', isStr, 'a string');
  optional(o, 'posted_at', isDate, 'an ISO 8601 date');
  optional(o, 'expires_at', isDate, 'an ISO 8601 date');
  for (const k of POSTING_LISTS)
    optional(o, k, isStrArr, 'an array of at most 200 strings of at most 500 characters');
  for (const k of POSTING_STRINGS)
    optional(o, k, (v) => isStr(v) && v.length <= 2048, 'a string of at most 2048 characters');
  optional(o, 'working_hours', isNum, 'a number');
  optional(o, 'gone', (v) => typeof v === 'boolean', 'a boolean');
  optional(o, 'visa_sponsorship', (v) => typeof v === 'boolean', 'a boolean');
  checkLocation(o);
  checkSalary(o);
}

function checkEmployer(value: unknown): void {
  need(typeof value === 'object' && value !== null, 'company is required');
  const company = value as Record<string, unknown>;
  need(isStr(company.name) && company.name.trim().length > 0, 'company.name is required');
  need((company.name as string).length <= 300, 'company.name must be at most 300 characters');
  for (const k of ['slug', 'domain', 'website', 'logo']) {
    optional(
      company,
      k,
      (v) => isStr(v) && v.length <= 2048,
      `a string of at most 2048 characters (company.${k})`,
    );
  }
}

function checkLocation(o: Record<string, unknown>): void {
  optional(o, 'location', (v) => typeof v === 'object' && !Array.isArray(v), 'an object');
  const loc = o.location as Record<string, unknown> | undefined;
  if (!loc) return;
  for (const k of ['raw', 'countries', 'cities', 'regions', 'timezones'])
    optional(loc, k, isStrArr, `an array of strings (location.${k})`);
  optional(loc, 'remote', (v) => typeof v === 'boolean', 'a boolean (location.remote)');
  optional(loc, 'continent', isStr, 'a string (location.continent)');
}

function checkSalary(o: Record<string, unknown>): void {
  optional(o, 'salary', (v) => typeof v === 'object' && !Array.isArray(v), 'an object');
  const sal = o.salary as Record<string, unknown> | undefined;
  if (!sal) return;
  for (const k of ['min', 'max']) optional(sal, k, isNum, `a number (salary.${k})`);
  for (const k of ['currency', 'unit', 'text']) optional(sal, k, isStr, `a string (salary.${k})`);
}
