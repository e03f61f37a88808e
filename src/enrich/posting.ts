// Minimal enrichment: takes what the posting gives and derives the simple defaults.
import { countryName, toCountryCode } from '../geo/countries.ts';
import type { PostingRecord } from '../ingest/record.ts';
import type { EnrichedPosting, Salary } from './index.ts';
import { htmlToText, sanitizeDescription } from './sanitize.ts';

const ANNUAL: Record<string, number> = { YEAR: 1, MONTH: 12, WEEK: 52, DAY: 260, HOUR: 2080 };

export function displayTitle(title: string): string {
  const t = title.replace(/\s+/g, ' ').trim();
  if (/[A-Z]/.test(t) && t === t.toUpperCase()) {
    return t.toLowerCase().replace(/(^|[\s\-/(])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());
  }
  return t;
}

function salaryOf(rec: PostingRecord): Salary | null {
  const s = rec.salary;
  if (!s || !s.currency || (s.min === undefined && s.max === undefined)) return null;
  const unit = (s.unit ?? 'YEAR').toUpperCase();
  const f = ANNUAL[unit];
  if (!f) return null;
  const min = s.min ?? null;
  const max = s.max ?? null;
  const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
  const range = min !== null && max !== null && min !== max ? `${fmt(min)}–${fmt(max)}` : fmt((min ?? max)!);
  return {
    min,
    max,
    currency: s.currency.toUpperCase(),
    unit,
    annual_min: min === null ? null : Math.round(min * f),
    annual_max: max === null ? null : Math.round(max * f),
    summary: `${s.currency.toUpperCase()} ${range} per ${unit.toLowerCase()}`,
  };
}

export function enrichPosting(rec: PostingRecord): EnrichedPosting {
  const loc = rec.location ?? {};
  const codes = (loc.countries ?? []).map((c) => toCountryCode(c)).filter((c): c is string => !!c);
  const html = sanitizeDescription(rec.description_html ?? '');
  const text = html ? htmlToText(html) : (rec.description_text ?? '').trim();
  const remote = loc.remote ?? rec.work_arrangement === 'Remote';
  return {
    title: displayTitle(rec.title),
    location: {
      remote,
      countries: codes.map((c) => countryName(c)!),
      cities: loc.cities ?? null,
      regions: loc.regions ?? null,
      coords: null,
      timezones: loc.timezones ?? [],
      continent: loc.continent ?? null,
      raw: loc.raw ?? [],
    },
    country_codes: codes,
    continents: loc.continent ? [loc.continent] : [],
    remote_location: rec.remote_location ?? [],
    employment_type: rec.employment_type ?? [],
    work_arrangement: (rec.work_arrangement as EnrichedPosting['work_arrangement']) ?? (remote ? 'Remote' : 'On-site'),
    seniority: rec.seniority ?? null,
    experience_level: rec.experience_level ?? null,
    education_requirements: rec.education_requirements ?? [],
    department: rec.department ?? null,
    salary: salaryOf(rec),
    working_hours: rec.working_hours ?? null,
    skills: rec.skills ?? [],
    keywords: rec.keywords ?? [],
    taxonomies: rec.taxonomies ?? [],
    job_language: rec.job_language ?? null,
    visa_sponsorship: rec.visa_sponsorship ?? null,
    requirements_summary: rec.requirements_summary ?? null,
    core_responsibilities: rec.core_responsibilities ?? null,
    benefits: rec.benefits ?? [],
    description_html: html,
    description_text: text,
  };
}
