// Migration 1. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 1,
  name: 'schema',
  sql: `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE settings (
  key   text PRIMARY KEY,
  value text NOT NULL
);

-- The watermark of the feed clock: every feed timestamp (created_at, modified_at, expired_at) is
-- taken under one advisory lock and is strictly greater than every committed one (docs/decisions.md).
CREATE TABLE feed_clock (
  id   int PRIMARY KEY CHECK (id = 1),
  last timestamptz NOT NULL
);
INSERT INTO feed_clock VALUES (1, '-infinity');

-- Bumped by every commit that changes what the API shows; keys the caches of totals.
CREATE TABLE data_version (
  id      int PRIMARY KEY CHECK (id = 1),
  version bigint NOT NULL
);
INSERT INTO data_version VALUES (1, 1);

CREATE TABLE sources (
  slug        text PRIMARY KEY,
  legacy_slug text UNIQUE,
  type        text NOT NULL CHECK (type IN ('ats', 'jobboard', 'aggregator')),
  domain      text NOT NULL,
  name        text NOT NULL
);

CREATE TABLE companies (
  slug           text PRIMARY KEY,
  name           text NOT NULL,
  name_key       text NOT NULL,            -- normalised name, for employer resolution
  domain         text,                     -- lower-case, no www.
  industry_key   text,                     -- lower(industry)
  size_range     text,
  employee_count integer,
  followers      integer NOT NULL DEFAULT 0,
  remco          boolean NOT NULL DEFAULT false,
  hq_country     text,                     -- ISO-2
  total_funding  bigint,
  jobs_count     integer NOT NULL DEFAULT 0,
  profile        jsonb NOT NULL,           -- public profile as loaded (jobs_count excluded)
  profile_json   text NOT NULL,            -- rendered full profile, jobs_count included
  subset_json    text NOT NULL,            -- rendered search subset
  updated_at     timestamptz NOT NULL
);
CREATE INDEX companies_sort ON companies (remco DESC, followers DESC, slug);
CREATE INDEX companies_name_trgm ON companies USING gin (lower(name) gin_trgm_ops);
CREATE INDEX companies_name_key ON companies (name_key);
CREATE INDEX companies_domain ON companies (domain);
CREATE INDEX companies_industry ON companies (industry_key);
CREATE INDEX companies_country ON companies (hq_country);
CREATE INDEX companies_size ON companies (size_range);
CREATE INDEX companies_employees ON companies (employee_count);
CREATE INDEX companies_has_jobs ON companies (slug) WHERE jobs_count > 0;

-- state: 0 live, 1 expired, 2 folded duplicate.
CREATE TABLE jobs (
  id                text PRIMARY KEY,
  state             smallint NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
  duplicate_of      text,
  source            text NOT NULL,
  source_type       text NOT NULL,
  company_slug      text,
  org_name          text NOT NULL,
  org_key           text NOT NULL,           -- lower(org_name)
  title_raw         text NOT NULL,           -- the stored title that the title filter searches
  collapse_key      text NOT NULL,           -- digest of company + display title, for collapse
  dedupe_key        text NOT NULL,           -- digest of employer + normalised title + location
  canonical_url     text,                    -- digest of the canonical URL, to match copies
  desc_sig          text,                    -- SimHash of the description, for near-identical copies
  posted_at         timestamptz NOT NULL,    -- falls back to created_at
  created_at        timestamptz NOT NULL,
  modified_at       timestamptz,             -- NULL until a tracked field changes
  modified_fields   text[] NOT NULL DEFAULT '{}',
  updated_at        timestamptz NOT NULL,
  expires_at        timestamptz,
  expired_at        timestamptz,
  gone              boolean NOT NULL DEFAULT false,
  board             text,                    -- crawled board (<source>/<token>)
  country_codes     text[] NOT NULL DEFAULT '{}',
  cities            text[] NOT NULL DEFAULT '{}',   -- lower-case
  regions           text[] NOT NULL DEFAULT '{}',   -- lower-case
  continents        text[] NOT NULL DEFAULT '{}',
  remote            boolean NOT NULL DEFAULT false,
  work_arrangement  text,
  employment_type   text[] NOT NULL DEFAULT '{}',
  seniority         text,
  experience_level  text,
  education         text[] NOT NULL DEFAULT '{}',
  taxonomies        text[] NOT NULL DEFAULT '{}',
  skills            text[] NOT NULL DEFAULT '{}',
  language          text,
  visa_sponsorship  boolean NOT NULL DEFAULT false,
  has_salary        boolean NOT NULL DEFAULT false,
  salary_annual_min double precision,
  salary_annual_max double precision,
  salary_currency   text,
  title_tsv         tsvector NOT NULL,
  text_tsv          tsvector NOT NULL,       -- title plus description
  tracked           jsonb NOT NULL,          -- tracked-field values, for change detection
  content_hash      text NOT NULL,           -- hash of the whole canonical record
  doc               text NOT NULL,           -- public Job JSON, "company":null placeholder, no description
  company_fallback  text NOT NULL,           -- slug-less company object when unresolved
  desc_text         text NOT NULL DEFAULT '""',  -- JSON-encoded plain-text description
  desc_html         text NOT NULL DEFAULT '""'   -- JSON-encoded sanitised HTML description
);

-- Search (live rows only): the sort key and one index path per filter.
CREATE INDEX jobs_live_sort ON jobs (posted_at DESC, id DESC) WHERE state = 0;
CREATE INDEX jobs_live_created ON jobs (created_at, id) WHERE state = 0;
CREATE INDEX jobs_live_modified ON jobs (modified_at, id) WHERE state = 0 AND modified_at IS NOT NULL;
CREATE INDEX jobs_expired ON jobs (expired_at, id) WHERE expired_at IS NOT NULL AND state <> 0;
CREATE INDEX jobs_expires ON jobs (expires_at) WHERE state = 0 AND expires_at IS NOT NULL;
CREATE INDEX jobs_live_countries ON jobs USING gin (country_codes) WHERE state = 0;
CREATE INDEX jobs_live_cities ON jobs USING gin (cities) WHERE state = 0;
CREATE INDEX jobs_live_regions ON jobs USING gin (regions) WHERE state = 0;
CREATE INDEX jobs_live_continents ON jobs USING gin (continents) WHERE state = 0;
CREATE INDEX jobs_live_employment ON jobs USING gin (employment_type) WHERE state = 0;
CREATE INDEX jobs_live_education ON jobs USING gin (education) WHERE state = 0;
CREATE INDEX jobs_live_taxonomies ON jobs USING gin (taxonomies) WHERE state = 0;
CREATE INDEX jobs_live_skills ON jobs USING gin (skills) WHERE state = 0;
CREATE INDEX jobs_live_title_tsv ON jobs USING gin (title_tsv) WHERE state = 0;
CREATE INDEX jobs_live_text_tsv ON jobs USING gin (text_tsv) WHERE state = 0;
CREATE INDEX jobs_live_org_trgm ON jobs USING gin (org_key gin_trgm_ops) WHERE state = 0;
CREATE INDEX jobs_live_company ON jobs (company_slug, posted_at DESC) WHERE state = 0;
CREATE INDEX jobs_live_source ON jobs (source, posted_at DESC) WHERE state = 0;
CREATE INDEX jobs_live_salary ON jobs (salary_annual_max, salary_annual_min) WHERE state = 0 AND has_salary;
CREATE INDEX jobs_live_collapse ON jobs (collapse_key, posted_at DESC, id DESC) WHERE state = 0;
CREATE INDEX jobs_dedupe ON jobs (dedupe_key) WHERE state <> 2;
CREATE INDEX jobs_canonical_url ON jobs (canonical_url) WHERE canonical_url IS NOT NULL;
CREATE INDEX jobs_duplicate_of ON jobs (duplicate_of) WHERE duplicate_of IS NOT NULL;
CREATE INDEX jobs_source_all ON jobs (source);
CREATE INDEX jobs_board ON jobs (board) WHERE board IS NOT NULL;

CREATE TABLE accounts (
  id            bigserial PRIMARY KEY,
  name          text NOT NULL UNIQUE,
  rate_limit    integer NOT NULL,
  monthly_quota bigint NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id           bigserial PRIMARY KEY,
  account_id   bigint NOT NULL REFERENCES accounts (id),
  key_hash     bytea NOT NULL UNIQUE,
  prefix       text NOT NULL,               -- first characters, for the operator's listing
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id) WHERE revoked_at IS NULL;

-- Dataset statistics recomputed on a schedule (coverage_pct of /v1/meta).
CREATE TABLE dataset_stats (
  id          int PRIMARY KEY CHECK (id = 1),
  coverage    jsonb NOT NULL,
  computed_at timestamptz NOT NULL
);
`,
};
