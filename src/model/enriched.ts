// What enrichment derives from a canonical posting (src/enrich/posting.ts): every field of the public Job
// that the source does not give as is. A value the posting gives always wins over a derived one.
export interface JobLocation {
  remote: boolean;
  countries: string[];
  cities: string[] | null;
  regions: string[] | null;
  coords: null;
  timezones: string[];
  continent: string | null;
  raw: string[];
}

export interface Salary {
  min: number | null;
  max: number | null;
  currency: string;
  unit: string;
  annual_min: number | null;
  annual_max: number | null;
  summary: string;
}

export interface EnrichedPosting {
  /** Display title (ALL-CAPS de-capitalised, whitespace folded). */
  title: string;
  location: JobLocation;
  /** ISO-2 codes of location.countries, for filtering. */
  country_codes: string[];
  /** Continents of all locations (location.continent is the first). */
  continents: string[];
  /** The cities as folded gazetteer names, whatever their spelling: what copies are matched on. */
  city_keys: string[];
  remote_location: string[];
  employment_type: string[];
  work_arrangement: 'On-site' | 'Hybrid' | 'Remote';
  seniority: string | null;
  experience_level: string | null;
  education_requirements: string[];
  department: string | null;
  salary: Salary | null;
  working_hours: number | null;
  skills: string[];
  keywords: string[];
  taxonomies: string[];
  job_language: string | null;
  /** true: mentions sponsorship offered; false: says none; null: no mention. */
  visa_sponsorship: boolean | null;
  requirements_summary: string | null;
  core_responsibilities: string | null;
  benefits: string[];
  /** Sanitised HTML. */
  description_html: string;
  description_text: string;
}
