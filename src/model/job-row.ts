// The stored row of a job: its filter columns, the tracked fields whose changes bump modified_at (the
// spec's vocabulary of modified_fields), and the public JSON rendered once, at write time. Built by
// src/ingest/stages/row.ts, written by src/db/jobs-write.ts.

export const TRACKED_FIELDS = [
  'title',
  'organization_name',
  'locations',
  'countries',
  'employment_type',
  'work_arrangement',
  'seniority',
  'salary_min',
  'salary_max',
  'salary_currency',
  'salary_unit',
  'apply_url',
  'url',
  'remote',
  'department',
  'description',
] as const;
export type TrackedField = (typeof TRACKED_FIELDS)[number];
export type Tracked = Record<TrackedField, unknown>;

export interface SourceInfo {
  slug: string;
  type: string;
  domain: string;
}

/** Everything about a job that does not depend on its lifecycle timestamps. */
export interface JobContent {
  id: string;
  source: string;
  source_type: string;
  company_slug: string | null;
  org_name: string;
  org_key: string;
  title_raw: string;
  collapse_key: string;
  dedupe_key: string;
  /** The dedupe key with the place read the other way (remote vs on-site); not stored, used to fold a batch. */
  alt_dedupe_key: string | null;
  canonical_url: string;
  desc_sig: string;
  posted_at: string | null;
  expires_at: string | null;
  gone: boolean;
  board: string | null;
  country_codes: string[];
  cities: string[];
  regions: string[];
  continents: string[];
  remote: boolean;
  work_arrangement: string;
  employment_type: string[];
  seniority: string | null;
  experience_level: string | null;
  education: string[];
  taxonomies: string[];
  skills: string[];
  language: string | null;
  visa_sponsorship: boolean;
  has_salary: boolean;
  salary_annual_min: number | null;
  salary_annual_max: number | null;
  salary_currency: string | null;
  tracked: Tracked;
  content_hash: string;
  company_fallback: string;
  desc_text: string;
  desc_html: string;
  /** The public fields, in output order, without lifecycle timestamps. */
  pub: Record<string, unknown>;
}

export interface Lifecycle {
  created_at: string;
  modified_at: string | null;
  modified_fields: string[];
  updated_at: string;
  posted_at: string;
}
