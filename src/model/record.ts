// The canonical records: one JSON object per line of a JSON Lines file, and what every adapter and
// the generator produce. A posting gives what its source gave; enrichment derives the rest, and a
// value given here always wins over a derived one.

export interface CompanyRef {
  name: string;
  /** The profile's slug when the source knows it; otherwise resolved by domain or name. */
  slug?: string;
  domain?: string;
  website?: string;
  logo?: string;
}

export interface SalaryInput {
  min?: number;
  max?: number;
  /** ISO-4217. */
  currency?: string;
  /** YEAR, MONTH, WEEK, DAY or HOUR. */
  unit?: string;
  /** Free text as posted ("$90k–$120k a year"), parsed when the structured fields are absent. */
  text?: string;
}

export interface LocationInput {
  /** Location strings as posted. */
  raw?: string[];
  remote?: boolean;
  /** Full English country names. */
  countries?: string[];
  cities?: string[] | null;
  regions?: string[] | null;
  timezones?: string[];
  continent?: string;
}

export interface PostingRecord {
  /** `<source>:<native_id>`. */
  id: string;
  /** Public source slug (its legacy form is accepted). */
  source: string;
  /** Title as posted. */
  title: string;
  company: CompanyRef;
  url: string;
  apply_url?: string;
  /** Description HTML as posted; sanitised at load. */
  description_html?: string;
  /** Plain-text description when the source gives no HTML. */
  description_text?: string;
  location?: LocationInput;
  remote_location?: string[];
  /** ISO 8601. */
  posted_at?: string;
  expires_at?: string | null;
  employment_type?: string[];
  work_arrangement?: string;
  seniority?: string;
  experience_level?: string;
  education_requirements?: string[];
  department?: string;
  team?: string;
  requisition_id?: string;
  salary?: SalaryInput;
  working_hours?: number;
  skills?: string[];
  keywords?: string[];
  taxonomies?: string[];
  job_language?: string;
  visa_sponsorship?: boolean;
  requirements_summary?: string;
  core_responsibilities?: string;
  benefits?: string[];
  /** Canonical URL of the original posting (e.g. the employer's page), used to fold copies. */
  canonical_url?: string;
  /** The source reports the posting removed: it expires now. */
  gone?: boolean;
  /** The board it was crawled from (`<source>/<board token>`): postings of a board that was fetched
   * successfully but no longer lists them expire as gone. */
  board?: string;
}

export interface CompanyRecord {
  slug: string;
  name: string;
  domain?: string;
  website?: string;
  logo?: string;
  industry?: string;
  type?: string;
  description?: string;
  slogan?: string;
  specialties?: string[];
  employee_count?: number;
  size_range?: string;
  followers?: number;
  founded_year?: number;
  hq?: { country?: string; region?: string; locality?: string; raw?: string } | null;
  funding?: {
    rounds?: number;
    last_round_type?: string;
    last_round_date?: string;
    last_round_amount_usd?: number;
    total_investment_usd?: number;
    fundingdb_slug?: string;
    fundingdb_categories?: string[];
  } | null;
  stock?: Record<string, unknown> | null;
  affiliated_companies?: unknown[];
  data_tier?: string;
}

export interface SourceRecord {
  slug: string;
  legacy_slug?: string;
  type: 'ats' | 'jobboard' | 'aggregator';
  domain: string;
  name: string;
}

/** One line of a canonical JSON Lines file. */
export type CanonicalLine =
  | ({ kind: 'posting' } & PostingRecord)
  | ({ kind: 'company' } & CompanyRecord)
  | ({ kind: 'source' } & SourceRecord);
