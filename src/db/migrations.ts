// Numbered, forward-only migrations. Run at start and by `cli migrate`, under an advisory lock so
// several processes starting together apply each migration once.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { buildDeferredIndexes, type IndexProgress } from './bulk-indexes.ts';

interface Migration {
  id: number;
  name: string;
  sql: string;
}

const MIGRATION_LOCK = 7_410_001;

/**
 * The values a job row gives each filter whose total is kept per value (migration 13, value_totals),
 * one (dim, value) row each, for the row `r`. Distinct: a value listed twice still counts the job once.
 */
const FILTER_VALUES = `SELECT DISTINCT d, v FROM (
    SELECT 'country', unnest(r.country_codes) UNION ALL SELECT 'city', unnest(r.cities)
    UNION ALL SELECT 'region', unnest(r.regions) UNION ALL SELECT 'continent', unnest(r.continents)
    UNION ALL SELECT 'skill', unnest(r.skills) UNION ALL SELECT 'taxonomy', unnest(r.taxonomies)
    UNION ALL SELECT 'employment_type', unnest(r.employment_type) UNION ALL SELECT 'education', unnest(r.education)
    UNION ALL SELECT 'title', unnest(tsvector_to_array(r.title_tsv)) UNION ALL SELECT 'remote', r.remote::text
    UNION ALL SELECT 'work_arrangement', r.work_arrangement UNION ALL SELECT 'seniority', r.seniority
    UNION ALL SELECT 'experience_level', r.experience_level UNION ALL SELECT 'language', r.language
    UNION ALL SELECT 'posted_day', to_char(r.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')
    UNION ALL SELECT 'country_title', c || ' ' || t
                FROM unnest(r.country_codes) AS c, unnest(tsvector_to_array(r.title_tsv)) AS t
  ) AS x(d, v) WHERE v IS NOT NULL`;
const FILTER_COLUMNS = `state, country_codes, cities, regions, continents, skills, taxonomies, employment_type,
  education, title_tsv, remote, work_arrangement, seniority, experience_level, language, posted_at`;

/** Adds to value_totals what the live rows of `rows` (with a sign column `s`) give each value. */
const applyValueTotals = (rows: string) => `
    INSERT INTO value_totals AS t (dim, value, n)
    SELECT v.d, v.v, sum(r.s) FROM (${rows}) AS r CROSS JOIN LATERAL (${FILTER_VALUES}) AS v
     WHERE r.state = 0
     GROUP BY 1, 2 HAVING sum(r.s) <> 0
     ORDER BY 1, 2 -- one lock order for every writer
    ON CONFLICT (dim, value) DO UPDATE SET n = t.n + EXCLUDED.n;`;

/**
 * The statement triggers on jobs that keep a table of totals: `<name>_apply()` applies `apply` to the
 * rows a statement inserted (+1), deleted (-1) or updated (both), given as `columns` with a sign `s`.
 */
const statementTriggers = (
  name: string,
  apply: (rows: string) => string,
  columns: string,
) => `CREATE FUNCTION ${name}_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${apply(`SELECT 1 AS s, ${columns} FROM new_rows`)}
  ELSIF TG_OP = 'DELETE' THEN
    ${apply(`SELECT -1 AS s, ${columns} FROM old_rows`)}
  ELSE
    ${apply(`SELECT 1 AS s, ${columns} FROM new_rows UNION ALL SELECT -1, ${columns} FROM old_rows`)}
  END IF;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER jobs_${name}_insert AFTER INSERT ON jobs REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${name}_apply();
CREATE TRIGGER jobs_${name}_update AFTER UPDATE ON jobs REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${name}_apply();
CREATE TRIGGER jobs_${name}_delete AFTER DELETE ON jobs REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${name}_apply();`;

/**
 * What a live job with a salary gives value_totals (migration 19): the thousand its annual maximum and
 * its annual minimum fall in (`floor(x / 1000)`, NaN and infinities included, as numeric text), and one
 * row for a range that is irregular (a bound missing, or the minimum above the maximum).
 */
const SALARY_VALUES = `SELECT 'salary_max', floor(r.salary_annual_max / 1000)::numeric::text WHERE r.salary_annual_max IS NOT NULL
    UNION ALL SELECT 'salary_min', floor(r.salary_annual_min / 1000)::numeric::text WHERE r.salary_annual_min IS NOT NULL
    UNION ALL SELECT 'salary_irregular', '' WHERE NOT coalesce(r.salary_annual_min <= r.salary_annual_max, false)`;
const SALARY_COLUMNS = 'state, has_salary, salary_annual_min, salary_annual_max';

/** Adds to value_totals what the live rows with a salary of `rows` (sign column `s`) give it. */
const applySalaryTotals = (rows: string) => `
    INSERT INTO value_totals AS t (dim, value, n)
    SELECT v.d, v.v, sum(r.s) FROM (${rows}) AS r CROSS JOIN LATERAL (${SALARY_VALUES}) AS v(d, v)
     WHERE r.state = 0 AND r.has_salary
     GROUP BY 1, 2 HAVING sum(r.s) <> 0
     ORDER BY 1, 2
    ON CONFLICT (dim, value) DO UPDATE SET n = t.n + EXCLUDED.n;`;

const migrations: Migration[] = [
  {
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
  },
  {
    id: 2,
    name: 'rate limits and monthly usage',
    sql: `
-- Requests admitted in the last 60 seconds per key (epoch milliseconds of the limiter's clock).
-- Rows older than the window are deleted by the next request of the same key (and by a periodic purge).
-- Unlogged: no WAL for these short-lived rows; a database crash empties the windows, nothing more.
CREATE UNLOGGED TABLE rate_hits (
  key_id bigint NOT NULL,
  at_ms  bigint NOT NULL
);
CREATE INDEX rate_hits_key_at ON rate_hits (key_id, at_ms);

-- Requests admitted per calendar month (UTC), per account (the quota) and per key (the usage view).
CREATE TABLE usage_account_month (
  account_id bigint NOT NULL,
  month      date NOT NULL,
  n          bigint NOT NULL,
  PRIMARY KEY (account_id, month)
);
CREATE TABLE usage_key_month (
  key_id bigint NOT NULL,
  month  date NOT NULL,
  n      bigint NOT NULL,
  PRIMARY KEY (key_id, month)
);

-- One call per request, exact across processes: the per-key advisory lock serialises the takes of a
-- key, and each statement of this (volatile) function takes a fresh snapshot after the lock, so it sees
-- every hit committed before. The account counter is incremented only while under the quota
-- (ON CONFLICT locks the row and sees its latest version). A denied request changes nothing.
-- The commit does not wait for the WAL flush (synchronous_commit off for this transaction only): the
-- result is visible to every other session at once, so exactness holds; a crash may lose the counts of
-- the last fraction of a second, in the client's favour.
-- outcome: 0 admitted, 1 over the per-minute limit, 2 monthly quota exhausted.
CREATE FUNCTION limiter_take(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                             p_limit int, p_quota bigint, p_month date,
                             OUT outcome int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  DELETE FROM rate_hits WHERE key_id = p_key AND at_ms <= p_now - p_window;
  SELECT count(*)::int, min(at_ms) INTO in_window, oldest_ms
    FROM rate_hits WHERE key_id = p_key AND at_ms > p_now - p_window;
  SELECT u.n INTO used FROM usage_account_month u WHERE u.account_id = p_account AND u.month = p_month;
  IF coalesce(used, 0) >= p_quota THEN
    outcome := 2;
    RETURN;
  END IF;
  IF in_window >= p_limit THEN
    outcome := 1;
    RETURN;
  END IF;
  INSERT INTO usage_account_month AS u (account_id, month, n) VALUES (p_account, p_month, 1)
    ON CONFLICT (account_id, month) DO UPDATE SET n = u.n + 1 WHERE u.n < p_quota
    RETURNING u.n INTO used;
  IF used IS NULL THEN
    outcome := 2;  -- another key of the account took the last request of the month meanwhile
    RETURN;
  END IF;
  INSERT INTO rate_hits (key_id, at_ms) VALUES (p_key, p_now);
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, 1)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + 1;
  outcome := 0;
  in_window := in_window + 1;
  oldest_ms := coalesce(oldest_ms, p_now);
END
$fn$;
`,
  },
  {
    id: 3,
    name: 'narrow jobs heap',
    // Large values (the rendered JSON, descriptions, tsvectors) move to TOAST as soon as a row passes
    // 128 bytes, so the heap keeps only the narrow filter columns: counts and filters read ~3x fewer pages.
    sql: 'ALTER TABLE jobs SET (toast_tuple_target = 128);',
  },
  {
    id: 4,
    name: 'jobs heap: filter columns stay inline',
    // 128 bytes also pushed the filter columns (country_codes, skills, even ids) out of line, so every
    // filter and sort had to detoast them. At 1024 bytes only the rendered JSON, the descriptions, the
    // description tsvector and the tracked values move out (measured on 20k rows: ~900 bytes a row).
    sql: 'ALTER TABLE jobs SET (toast_tuple_target = 1024);',
  },
  {
    id: 5,
    name: 'rate limits: a running count per key',
    // Counting a key's window rows on every request cost O(window) under the key's lock: ~2.5 ms at 9k
    // requests a minute, which capped one key near 400 requests/s. The count now lives in rate_windows,
    // kept equal to the key's rate_hits rows by every change made under that lock.
    sql: `
CREATE UNLOGGED TABLE rate_windows (
  key_id bigint PRIMARY KEY,
  n      int NOT NULL
);
INSERT INTO rate_windows SELECT key_id, count(*) FROM rate_hits GROUP BY key_id;

CREATE OR REPLACE FUNCTION limiter_take(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                        p_limit int, p_quota bigint, p_month date,
                                        OUT outcome int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
  left_window int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  WITH gone AS (DELETE FROM rate_hits WHERE key_id = p_key AND at_ms <= p_now - p_window RETURNING 1)
  SELECT count(*)::int INTO left_window FROM gone;
  IF left_window > 0 THEN
    UPDATE rate_windows SET n = n - left_window WHERE key_id = p_key RETURNING n INTO in_window;
  ELSE
    SELECT w.n INTO in_window FROM rate_windows w WHERE w.key_id = p_key;
  END IF;
  in_window := coalesce(in_window, 0);
  SELECT h.at_ms INTO oldest_ms FROM rate_hits h WHERE h.key_id = p_key ORDER BY h.at_ms LIMIT 1;
  SELECT u.n INTO used FROM usage_account_month u WHERE u.account_id = p_account AND u.month = p_month;
  IF coalesce(used, 0) >= p_quota THEN
    outcome := 2;
    RETURN;
  END IF;
  IF in_window >= p_limit THEN
    outcome := 1;
    RETURN;
  END IF;
  INSERT INTO usage_account_month AS u (account_id, month, n) VALUES (p_account, p_month, 1)
    ON CONFLICT (account_id, month) DO UPDATE SET n = u.n + 1 WHERE u.n < p_quota
    RETURNING u.n INTO used;
  IF used IS NULL THEN
    outcome := 2;  -- another key of the account took the last request of the month meanwhile
    RETURN;
  END IF;
  INSERT INTO rate_hits (key_id, at_ms) VALUES (p_key, p_now);
  INSERT INTO rate_windows AS w (key_id, n) VALUES (p_key, 1)
    ON CONFLICT (key_id) DO UPDATE SET n = w.n + 1;
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, 1)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + 1;
  outcome := 0;
  in_window := in_window + 1;
  oldest_ms := coalesce(oldest_ms, p_now);
END
$fn$;

-- The periodic purge of keys that stopped sending requests: each key under its lock, like a take.
CREATE FUNCTION limiter_purge(p_now bigint, p_window bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  k bigint;
  removed int;
  total bigint := 0;
BEGIN
  FOR k IN SELECT DISTINCT key_id FROM rate_hits WHERE at_ms <= p_now - p_window LOOP
    PERFORM pg_advisory_xact_lock(7410002, (k % 2147483647)::int);
    WITH gone AS (DELETE FROM rate_hits WHERE key_id = k AND at_ms <= p_now - p_window RETURNING 1)
    SELECT count(*)::int INTO removed FROM gone;
    UPDATE rate_windows SET n = n - removed WHERE key_id = k;
    DELETE FROM rate_windows WHERE key_id = k AND n <= 0;
    total := total + removed;
  END LOOP;
  RETURN total;
END
$fn$;
`,
  },
  {
    id: 6,
    name: 'replayable data versions',
    // What a data version changed, when cached totals can be brought forward instead of counted again:
    // the ids that left and entered the live population with no other change to their filter columns
    // (expiry, and the promotion of a copy whose original expired). Loads write NULLs: totals from
    // before them are counted again. Rows older than an hour are purged with each bump.
    sql: `
CREATE TABLE data_changes (
  version     bigint PRIMARY KEY,
  at          timestamptz NOT NULL DEFAULT now(),
  left_ids    text[],
  entered_ids text[]
);
`,
  },
  {
    id: 7,
    name: 'shared totals',
    // Exact totals shared by every process and host (src/db/totals-store.ts): the total of a normalised
    // query (key: its SHA-256) at one data version; n is NULL while one process counts it for all.
    // Unlogged: a crash empties it, which costs counts, never a wrong total. Only the primary has it
    // (a standby cannot read unlogged tables), so replicas stay read-only.
    sql: `
CREATE UNLOGGED TABLE shared_totals (
  key     bytea NOT NULL,
  version bigint NOT NULL,
  n       bigint,
  at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (key, version)
);
`,
  },
  {
    id: 8,
    name: 'search indexes deferred by a bulk load',
    // A bulk load into an empty or near-empty jobs table drops the search indexes and builds them once at
    // its end (src/db/bulk-indexes.ts). Their definitions wait here, in the transaction that dropped them,
    // until they are built again; a load killed meanwhile leaves them here for the next migrate.
    sql: `
CREATE TABLE deferred_indexes (
  name text PRIMARY KEY,
  def  text NOT NULL
);
`,
  },
  {
    id: 9,
    name: 'search vectors computed ahead of the write',
    // to_tsvector of the title and description is the largest single cost of a load in PostgreSQL. The
    // loader computes a batch's vectors here, on another connection, while the previous batch is written
    // under the feed lock; the write copies them (src/db/jobs-write.ts). Unlogged: a crash only loses
    // vectors that the write computes itself when they are missing.
    sql: `
CREATE UNLOGGED TABLE tsv_stage (
  token     bigint NOT NULL,
  id        text NOT NULL,
  title_raw text NOT NULL,
  title_tsv tsvector NOT NULL,
  text_tsv  tsvector NOT NULL,
  at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (token, id)
);
-- Staged once and read once: not worth compressing.
ALTER TABLE tsv_stage ALTER text_tsv SET STORAGE EXTERNAL;
`,
  },
  {
    id: 10,
    name: 'admission in one statement',
    // Every authenticated request needs its key, the limiter's step and the data version (the key of the
    // cached totals): one statement instead of three. Without p_now (the Redis or memory limiter) the
    // limiter's step is left to the caller.
    sql: `
CREATE FUNCTION api_admit(p_hash bytea, p_now bigint, p_window bigint, p_month date,
                          OUT key_id int, OUT account_id int, OUT rate_limit int, OUT monthly_quota bigint,
                          OUT version bigint, OUT outcome int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  SELECT d.version INTO version FROM data_version d WHERE d.id = 1;
  SELECT k.id, a.id, a.rate_limit, a.monthly_quota INTO key_id, account_id, rate_limit, monthly_quota
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
   WHERE k.key_hash = p_hash AND k.revoked_at IS NULL;
  IF key_id IS NULL OR p_now IS NULL THEN
    RETURN;
  END IF;
  SELECT t.outcome, t.in_window, t.oldest_ms INTO outcome, in_window, oldest_ms
    FROM limiter_take(key_id, account_id, p_now, p_window, rate_limit, monthly_quota, p_month) t;
END
$fn$;
`,
  },
  {
    id: 11,
    name: 'description index on a predicate of its own',
    // Every search index is partial on state = 0. For a description search with another filter,
    // PostgreSQL then preferred the other filter's index and tested the description row by row,
    // detoasting each tsvector (its cost model does not see detoasting): 3 s to count
    // description=excel&country=GB at a million live jobs, 20 s for description=excel alone. Under the
    // predicate state < 1 (the same rows: state is 0, 1 or 2), which description searches write instead
    // (search/filters.ts), this index is the only one they can use: 0.5 s and 0.4 s. Rebuilt like a bulk
    // load's indexes (deferred_indexes, built by migrate).
    sql: `
DROP INDEX IF EXISTS jobs_live_text_tsv;
INSERT INTO deferred_indexes (name, def)
VALUES ('jobs_live_text_tsv', 'CREATE INDEX jobs_live_text_tsv ON public.jobs USING gin (text_tsv) WHERE (state < 1)')
ON CONFLICT (name) DO UPDATE SET def = EXCLUDED.def;
`,
  },
  {
    id: 12,
    name: 'folding candidates by dedupe key from an index',
    // Folding looks up every row that is not expired (live and folded copies) by canonical URL or dedupe
    // key (findCandidates). jobs_dedupe covered the rows that are not folded, so it could not answer that
    // look-up and each batch of a load scanned the whole table: 117 ms per batch at 250,000 jobs, growing
    // with the table. Under the look-up's own predicate it is an index scan of a few milliseconds.
    sql: `
DROP INDEX IF EXISTS jobs_dedupe;
CREATE INDEX jobs_dedupe ON jobs (dedupe_key) WHERE state <> 1; -- 1: expired
`,
  },
  {
    id: 13,
    name: 'totals per filter value',
    // A cold exact count visits the heap page of every match (PostgreSQL has no index-only count from
    // GIN): country=US at a million live jobs is half a second. The number of live jobs per value of
    // each list and scalar filter, and per title lexeme, is kept here by statement triggers on jobs in
    // the writing transaction itself, so a snapshot reads the exact total of the same data it would
    // count; a request with one such filter of one value reads its total instead (search/value-totals.ts).
    // Per UTC day of posted_at too: a time window is the days after its first, plus that day's part. And
    // per country and title lexeme together: what and where, the most common pair of filters.
    sql: `
CREATE TABLE value_totals (
  dim   text NOT NULL,
  value text NOT NULL,
  n     bigint NOT NULL,
  PRIMARY KEY (dim, value)
);
${applyValueTotals(`SELECT 1 AS s, ${FILTER_COLUMNS} FROM jobs`)}

${statementTriggers('value_totals', applyValueTotals, FILTER_COLUMNS)}
CREATE FUNCTION value_totals_clear() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM value_totals;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER jobs_value_totals_truncate AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION value_totals_clear();
`,
  },
  {
    id: 14,
    name: 'description index with the country',
    // A description search is answered from its own index alone (migration 11), then each match's row
    // is read to test the other filters: description=auditing&country=DE at a million live jobs read
    // 62,000 heap pages for 73,000 matches to keep 2,270 (256 ms). With the job's countries as a second
    // column of the same GIN index, the index scan itself intersects the two (9.5 ms), and a description
    // search without a country uses the first column as before. `text_tsv IS NOT NULL` (true of every
    // row) keeps every other search away from it: PostgreSQL proves it only from a text-search condition,
    // and a country search that used the second column ANDed it with a whole index of live rows for
    // `state = 0` (366 ms for a page of country=ES). Built like a bulk load's indexes.
    sql: `
DROP INDEX IF EXISTS jobs_live_text_tsv;
DELETE FROM deferred_indexes WHERE name = 'jobs_live_text_tsv';
INSERT INTO deferred_indexes (name, def)
VALUES ('jobs_live_text', 'CREATE INDEX jobs_live_text ON public.jobs USING gin (text_tsv, country_codes) WHERE ((state < 1) AND (text_tsv IS NOT NULL))')
ON CONFLICT (name) DO UPDATE SET def = EXCLUDED.def;
`,
  },
  {
    id: 15,
    name: 'autovacuum of the jobs TOAST table after about one change round',
    // A load vacuums jobs but not its TOAST table (service/schedules.ts): that pass read 1.1M pages and
    // took 6.5 s of a 104 s change round at a million live jobs, for dead chunks nothing reads. Autovacuum
    // takes them instead, in the background; at the default 20 % of ~10M chunks it would wait about
    // twelve rounds (gigabytes of dead chunks), at 2 % about one.
    sql: `ALTER TABLE jobs SET (toast.autovacuum_vacuum_scale_factor = 0.02);`,
  },
  {
    id: 16,
    name: 'admission of several requests of one key in one step',
    // Every take of a key holds the key's lock until it commits, so one key's requests are admitted one
    // at a time: about 2,300 a second however many connections it uses. A process now sends the requests
    // of a key that arrive while an earlier one is being admitted as one take of p_n requests (http/
    // auth.ts): the first that fit the window and the quota are admitted, in order, the rest refused
    // with the reason. Exact as before: every change of a key's rows and of its account's month counter
    // happens under the same locks. limiter_take becomes a take of one request, so the PostgreSQL limiter
    // has one implementation; it and api_admit stay for processes of the version before.
    sql: `
CREATE FUNCTION limiter_take_many(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                  p_limit int, p_quota bigint, p_month date, p_n int,
                                  OUT admitted int, OUT refusal int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
  left_window int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  WITH gone AS (DELETE FROM rate_hits WHERE key_id = p_key AND at_ms <= p_now - p_window RETURNING 1)
  SELECT count(*)::int INTO left_window FROM gone;
  IF left_window > 0 THEN
    UPDATE rate_windows SET n = n - left_window WHERE key_id = p_key RETURNING n INTO in_window;
  ELSE
    SELECT w.n INTO in_window FROM rate_windows w WHERE w.key_id = p_key;
  END IF;
  in_window := coalesce(in_window, 0);
  SELECT h.at_ms INTO oldest_ms FROM rate_hits h WHERE h.key_id = p_key ORDER BY h.at_ms LIMIT 1;
  admitted := 0;
  LOOP
    -- The account's row, locked (other keys of the account take from the same quota).
    SELECT u.n INTO used FROM usage_account_month u
     WHERE u.account_id = p_account AND u.month = p_month FOR UPDATE;
    admitted := greatest(0, least(p_n, p_limit - in_window, p_quota - coalesce(used, 0)));
    EXIT WHEN admitted = 0;
    IF used IS NOT NULL THEN
      UPDATE usage_account_month SET n = n + admitted WHERE account_id = p_account AND month = p_month;
      EXIT;
    END IF;
    INSERT INTO usage_account_month (account_id, month, n) VALUES (p_account, p_month, admitted)
      ON CONFLICT (account_id, month) DO NOTHING;
    EXIT WHEN FOUND;
    -- Another key of the account created the row meanwhile: read it again, locked.
  END LOOP;
  -- Why the requests beyond the admitted ones are refused: the quota wins when both are reached.
  refusal := CASE WHEN admitted = p_n THEN 0
                  WHEN coalesce(used, 0) + admitted >= p_quota THEN 2 ELSE 1 END;
  IF admitted = 0 THEN
    RETURN;
  END IF;
  INSERT INTO rate_hits (key_id, at_ms) SELECT p_key, p_now FROM generate_series(1, admitted);
  INSERT INTO rate_windows AS w (key_id, n) VALUES (p_key, admitted)
    ON CONFLICT (key_id) DO UPDATE SET n = w.n + admitted;
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, admitted)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + admitted;
END
$fn$;

CREATE OR REPLACE FUNCTION limiter_take(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                        p_limit int, p_quota bigint, p_month date,
                                        OUT outcome int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  taken int;
BEGIN
  SELECT t.admitted, t.refusal, t.in_window, t.oldest_ms INTO taken, outcome, in_window, oldest_ms
    FROM limiter_take_many(p_key, p_account, p_now, p_window, p_limit, p_quota, p_month, 1) t;
  IF taken = 1 THEN
    in_window := in_window + 1;
    oldest_ms := coalesce(oldest_ms, p_now);
  END IF;
END
$fn$;

CREATE FUNCTION api_admit_many(p_hash bytea, p_now bigint, p_window bigint, p_month date, p_n int,
                               OUT key_id int, OUT account_id int, OUT rate_limit int, OUT monthly_quota bigint,
                               OUT version bigint, OUT admitted int, OUT refusal int, OUT in_window int,
                               OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  SELECT d.version INTO version FROM data_version d WHERE d.id = 1;
  SELECT k.id, a.id, a.rate_limit, a.monthly_quota INTO key_id, account_id, rate_limit, monthly_quota
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
   WHERE k.key_hash = p_hash AND k.revoked_at IS NULL;
  IF key_id IS NULL OR p_now IS NULL THEN
    RETURN;
  END IF;
  SELECT t.admitted, t.refusal, t.in_window, t.oldest_ms INTO admitted, refusal, in_window, oldest_ms
    FROM limiter_take_many(key_id, account_id, p_now, p_window, rate_limit, monthly_quota, p_month, p_n) t;
END
$fn$;
`,
  },
  {
    id: 17,
    name: 'rate limits: one window row per take',
    // A take of n requests wrote n rows of rate_hits, all at one instant. Each take deletes its key's
    // rows that left the window, and that delete walks over every index entry deleted since the last
    // vacuum: at 2,400 requests a second of one key, 140,000 rows a minute, and takes of 2-4 ms in some
    // windows even with a vacuum every 5 s. A take now writes one row with its count, n; the window is
    // the sum of n (rate_windows keeps it, as before). Rows of the version before (n = 1) still count.
    sql: `
ALTER TABLE rate_hits ADD COLUMN n int NOT NULL DEFAULT 1;

CREATE OR REPLACE FUNCTION limiter_take_many(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                             p_limit int, p_quota bigint, p_month date, p_n int,
                                             OUT admitted int, OUT refusal int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
  left_window int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  WITH gone AS (DELETE FROM rate_hits WHERE key_id = p_key AND at_ms <= p_now - p_window RETURNING n)
  SELECT coalesce(sum(gone.n), 0)::int INTO left_window FROM gone;
  IF left_window > 0 THEN
    UPDATE rate_windows SET n = n - left_window WHERE key_id = p_key RETURNING n INTO in_window;
  ELSE
    SELECT w.n INTO in_window FROM rate_windows w WHERE w.key_id = p_key;
  END IF;
  in_window := coalesce(in_window, 0);
  SELECT h.at_ms INTO oldest_ms FROM rate_hits h WHERE h.key_id = p_key ORDER BY h.at_ms LIMIT 1;
  admitted := 0;
  LOOP
    -- The account's row, locked (other keys of the account take from the same quota).
    SELECT u.n INTO used FROM usage_account_month u
     WHERE u.account_id = p_account AND u.month = p_month FOR UPDATE;
    admitted := greatest(0, least(p_n, p_limit - in_window, p_quota - coalesce(used, 0)));
    EXIT WHEN admitted = 0;
    IF used IS NOT NULL THEN
      UPDATE usage_account_month SET n = n + admitted WHERE account_id = p_account AND month = p_month;
      EXIT;
    END IF;
    INSERT INTO usage_account_month (account_id, month, n) VALUES (p_account, p_month, admitted)
      ON CONFLICT (account_id, month) DO NOTHING;
    EXIT WHEN FOUND;
    -- Another key of the account created the row meanwhile: read it again, locked.
  END LOOP;
  -- Why the requests beyond the admitted ones are refused: the quota wins when both are reached.
  refusal := CASE WHEN admitted = p_n THEN 0
                  WHEN coalesce(used, 0) + admitted >= p_quota THEN 2 ELSE 1 END;
  IF admitted = 0 THEN
    RETURN;
  END IF;
  INSERT INTO rate_hits (key_id, at_ms, n) VALUES (p_key, p_now, admitted);
  INSERT INTO rate_windows AS w (key_id, n) VALUES (p_key, admitted)
    ON CONFLICT (key_id) DO UPDATE SET n = w.n + admitted;
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, admitted)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + admitted;
END
$fn$;

CREATE OR REPLACE FUNCTION limiter_purge(p_now bigint, p_window bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  k bigint;
  removed int;
  total bigint := 0;
BEGIN
  FOR k IN SELECT DISTINCT key_id FROM rate_hits WHERE at_ms <= p_now - p_window LOOP
    PERFORM pg_advisory_xact_lock(7410002, (k % 2147483647)::int);
    WITH gone AS (DELETE FROM rate_hits WHERE key_id = k AND at_ms <= p_now - p_window RETURNING n)
    SELECT coalesce(sum(gone.n), 0)::int INTO removed FROM gone;
    UPDATE rate_windows SET n = n - removed WHERE key_id = k;
    DELETE FROM rate_windows WHERE key_id = k AND n <= 0;
    total := total + removed;
  END LOOP;
  RETURN total;
END
$fn$;
`,
  },
  {
    id: 18,
    name: 'taxonomy index with the country',
    // A taxonomy with a country (remote=true&taxonomies=Marketing&country=DE at a million live jobs) was
    // found through the taxonomy's index alone, then each of its 40,166 rows read to test the country and
    // the rest: 36,590 heap pages for 531 matches, 94 ms. With the countries as a second column of the
    // same GIN index the index scan intersects the two (2,346 rows, 12 ms), as for the description
    // (migration 14); a taxonomy without a country uses the first column as before. Built like a bulk
    // load's indexes.
    sql: `
DROP INDEX IF EXISTS jobs_live_taxonomies;
DELETE FROM deferred_indexes WHERE name = 'jobs_live_taxonomies';
INSERT INTO deferred_indexes (name, def)
VALUES ('jobs_live_taxonomies', 'CREATE INDEX jobs_live_taxonomies ON public.jobs USING gin (taxonomies, country_codes) WHERE (state = 0)')
ON CONFLICT (name) DO UPDATE SET def = EXCLUDED.def;
`,
  },
  {
    id: 19,
    name: 'salary totals per thousand',
    // A salary range's count reads every entry of the salary index above its lower bound (31 ms for
    // 79,076 matches at a million live jobs, about 100 ms under load). The live jobs per thousand of
    // their annual maximum and minimum are kept in value_totals like the days of posting (migration
    // 13), by statement triggers of their own that fire before that migration's (their rows come first
    // in one lock order). A range is then sums of whole thousands plus the part of one thousand at each
    // bound, counted from an index (search/value-totals.ts); the minimum's index is built like a bulk
    // load's indexes.
    sql: `
${applySalaryTotals(`SELECT 1 AS s, ${SALARY_COLUMNS} FROM jobs`)}

${statementTriggers('salary_totals', applySalaryTotals, SALARY_COLUMNS)}

INSERT INTO deferred_indexes (name, def)
VALUES ('jobs_live_salary_min', 'CREATE INDEX jobs_live_salary_min ON public.jobs USING btree (salary_annual_min) WHERE ((state = 0) AND has_salary)')
ON CONFLICT (name) DO UPDATE SET def = EXCLUDED.def;
`,
  },
  {
    id: 20,
    name: 'company name index without a pending list',
    // A GIN index with fastupdate keeps new entries in a pending list that every search reads in full
    // until a vacuum merges it. The companies are few, and a jobs_count refresh rewrites many of their
    // rows at once: after one, the whole trigram index of 1,500 companies was pending (232 of its 234
    // pages) and \`companies?q=\` counted in 15 ms instead of 0.65. Entries now go straight into the index.
    sql: `
ALTER INDEX companies_name_trgm SET (fastupdate = off);
SELECT gin_clean_pending_list('companies_name_trgm'::regclass);
`,
  },
  {
    id: 21,
    name: 'rate limits: rows leave the window without a delete',
    // Every take deleted the rows that had left its key's window, at the low end of the index on
    // (key_id, at_ms); until the next vacuum every take's delete walked over the dead entries of those
    // before it. After 10 s of one key at 8,000 requests a second, the next kind's takes cost 0.73 ms
    // (42 buffers in the delete alone) instead of 0.2, and held the key's lock as long. A key's window is
    // now its rows after rate_windows.through_ms: a take subtracts the rows that left since the last one
    // (a range read that starts above every deleted entry) and moves through_ms on; the purge, run with
    // the limiter's vacuum, deletes the rows at or before it in bulk. Invariants, under the key's lock:
    // n is the sum of the key's rows after through_ms; a key without a window row has no rows.
    sql: `
ALTER TABLE rate_windows ADD COLUMN through_ms bigint NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION limiter_take_many(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                             p_limit int, p_quota bigint, p_month date, p_n int,
                                             OUT admitted int, OUT refusal int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
  through bigint;
  new_through bigint;
  left_window int := 0;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  SELECT w.n, w.through_ms INTO in_window, through FROM rate_windows w WHERE w.key_id = p_key;
  in_window := coalesce(in_window, 0);
  new_through := greatest(through, p_now - p_window);
  IF through IS NOT NULL AND new_through > through THEN
    SELECT coalesce(sum(h.n), 0)::int INTO left_window FROM rate_hits h
     WHERE h.key_id = p_key AND h.at_ms > through AND h.at_ms <= new_through;
    in_window := in_window - left_window;
  END IF;
  SELECT h.at_ms INTO oldest_ms FROM rate_hits h
   WHERE h.key_id = p_key AND h.at_ms > new_through ORDER BY h.at_ms LIMIT 1;
  admitted := 0;
  LOOP
    -- The account's row, locked (other keys of the account take from the same quota).
    SELECT u.n INTO used FROM usage_account_month u
     WHERE u.account_id = p_account AND u.month = p_month FOR UPDATE;
    admitted := greatest(0, least(p_n, p_limit - in_window, p_quota - coalesce(used, 0)));
    EXIT WHEN admitted = 0;
    IF used IS NOT NULL THEN
      UPDATE usage_account_month SET n = n + admitted WHERE account_id = p_account AND month = p_month;
      EXIT;
    END IF;
    INSERT INTO usage_account_month (account_id, month, n) VALUES (p_account, p_month, admitted)
      ON CONFLICT (account_id, month) DO NOTHING;
    EXIT WHEN FOUND;
    -- Another key of the account created the row meanwhile: read it again, locked.
  END LOOP;
  -- Why the requests beyond the admitted ones are refused: the quota wins when both are reached.
  refusal := CASE WHEN admitted = p_n THEN 0
                  WHEN coalesce(used, 0) + admitted >= p_quota THEN 2 ELSE 1 END;
  IF admitted = 0 THEN
    IF left_window > 0 THEN
      UPDATE rate_windows SET n = in_window, through_ms = new_through WHERE key_id = p_key;
    END IF;
    RETURN;
  END IF;
  INSERT INTO rate_hits (key_id, at_ms, n) VALUES (p_key, p_now, admitted);
  INSERT INTO rate_windows AS w (key_id, n, through_ms) VALUES (p_key, admitted, new_through)
    ON CONFLICT (key_id) DO UPDATE SET n = in_window + admitted, through_ms = new_through;
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, admitted)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + admitted;
END
$fn$;

-- Moves every key's window to p_now and deletes the rows at or before its through_ms: the count of
-- requests deleted.
CREATE OR REPLACE FUNCTION limiter_purge(p_now bigint, p_window bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  k bigint;
  through bigint;
  removed int;
  total bigint := 0;
BEGIN
  FOR k IN SELECT DISTINCT key_id FROM rate_hits WHERE at_ms <= p_now - p_window LOOP
    PERFORM pg_advisory_xact_lock(7410002, (k % 2147483647)::int);
    SELECT w.through_ms INTO through FROM rate_windows w WHERE w.key_id = k;
    IF through < p_now - p_window THEN
      UPDATE rate_windows w SET through_ms = p_now - p_window,
        n = w.n - (SELECT coalesce(sum(h.n), 0)::int FROM rate_hits h
                    WHERE h.key_id = k AND h.at_ms > through AND h.at_ms <= p_now - p_window)
       WHERE w.key_id = k RETURNING w.through_ms INTO through;
    END IF;
    WITH gone AS (DELETE FROM rate_hits WHERE key_id = k AND at_ms <= coalesce(through, p_now - p_window) RETURNING n)
    SELECT coalesce(sum(gone.n), 0)::int INTO removed FROM gone;
    DELETE FROM rate_windows WHERE key_id = k AND n <= 0;
    total := total + removed;
  END LOOP;
  RETURN total;
END
$fn$;
`,
  },
  {
    id: 22,
    name: 'jobs heap: the document stays in the row',
    // Every job's document is read by every page, by id and by the feeds. Out of line it sat in the TOAST
    // table among each row's descriptions and description tsvector (1.4 of ~6.9 KB a row): a feed drain
    // of 1.05M live jobs read the 12 GB TOAST table nearly whole, and ran at the speed of the disk
    // whenever the rest of the workload had pushed part of it out of the cache. Kept in the row
    // (compressed, MAIN), documents take 3.3 GB of heap instead, which stays cached. Documents written
    // before this migration move when their row is next rewritten (or at once with VACUUM FULL jobs).
    sql: 'ALTER TABLE jobs ALTER COLUMN doc SET STORAGE MAIN;',
  },
  {
    id: 23,
    name: 'jobs heap: the filter columns stay in the row beside the document',
    // With the document in the row, a row stays over its 1 KB target after the large values have gone
    // to TOAST, and PostgreSQL then moved every other EXTENDED value over ~24 bytes out of line too
    // (what migration 4 had undone): at 1.05M live jobs, 90 % of title tsvectors, 95 % of skill lists,
    // 28 % of ids and 9 % of company slugs were each a TOAST look-up. A feed drain read 509k TOAST
    // pages (280k of them from outside shared buffers), and the match index's build, a title phrase
    // count's recheck and the company join each fetched their values from TOAST. As MAIN, these columns
    // stay in the row (compressed in place when a row is still over its target); only the descriptions,
    // their tsvector, the tracked values and the fallback company go out of line. Rows written before
    // this migration move when they are next written (or at once with VACUUM FULL jobs).
    sql: `
DO $$
DECLARE c text;
BEGIN
  FOR c IN SELECT attname FROM pg_attribute
            WHERE attrelid = 'jobs'::regclass AND attnum > 0 AND NOT attisdropped AND attstorage = 'x'
              AND attname NOT IN ('desc_text', 'desc_html', 'text_tsv', 'tracked', 'company_fallback')
  LOOP
    EXECUTE format('ALTER TABLE jobs ALTER COLUMN %I SET STORAGE MAIN', c);
  END LOOP;
END $$;
`,
  },
  {
    id: 24,
    name: 'job history: versions, last seen, expiry reasons, last load per source',
    // A job's life beyond its row (GET /v1/jobs/{id}/history, GET /v1/sources). Written in the
    // transaction of the change each row records; purged with the expired jobs they belong to.
    // Narrow tables of their own: the jobs row (its document, its totals triggers) is not rewritten to
    // note that an unchanged posting was listed again.
    sql: `
-- Every announcement of a job through modified_at: the fields named and their old and new values
-- (a description as its digest and length).
CREATE TABLE job_versions (
  job_id          text NOT NULL,
  modified_at     timestamptz NOT NULL,
  modified_fields text[] NOT NULL,
  changes         jsonb NOT NULL,
  PRIMARY KEY (job_id, modified_at)
);

-- When a load or crawl last listed the job, why it left the live population (only read while it is
-- expired) and why it was judged a copy when it was folded (only read while it is folded). Updated by
-- every load that lists it: room for HOT updates.
CREATE TABLE job_lifecycle (
  id            text PRIMARY KEY,
  last_seen_at  timestamptz,
  expiry_reason text CHECK (expiry_reason IN
                  ('removed_from_source', 'valid_through_passed', 'source_marked_closed', 'aged_out')),
  copy_reason   text CHECK (copy_reason IN
                  ('same_url', 'same_employer_title_place', 'near_identical_description'))
) WITH (fillfactor = 80);

-- The last committed write of a load or crawl that listed postings of the source.
ALTER TABLE sources ADD COLUMN last_load_at timestamptz;
`,
  },
];

/** Applies every migration not yet applied. Returns the ids applied now. */
export async function migrate(pool: pg.Pool, onProgress?: IndexProgress): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ id: number }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
    );
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (id, name) VALUES ($1, $2)', [m.id, m.name]);
        await client.query('COMMIT');
        applied.push(m.id);
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
    // The cursor-signing secret is shared by every process through the database.
    await client.query(
      `INSERT INTO settings (key, value) VALUES ('cursor_secret', $1) ON CONFLICT (key) DO NOTHING`,
      [randomBytes(32).toString('hex')],
    );
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  // Search indexes left unbuilt by a bulk load that did not finish.
  await buildDeferredIndexes(pool, onProgress);
  return applied;
}

export async function getSetting(pool: pg.Pool, key: string): Promise<string | undefined> {
  const r = await pool.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key]);
  return r.rows[0]?.value;
}
