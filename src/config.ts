// Every setting of the service, read from the environment in one validated, documented schema.
// A bad value stops start-up with a message naming the variable.
import os from 'node:os';

type Parser<T> = (raw: string) => T;

interface Setting<T> {
  doc: string;
  default: T;
  parse: Parser<T>;
}

const int =
  (min: number, max: number): Parser<number> =>
  (raw) => {
    if (!/^\d+$/.test(raw)) throw new Error(`must be a whole number from ${min} to ${max}`);
    const n = Number(raw);
    if (n < min || n > max) throw new Error(`must be a whole number from ${min} to ${max}`);
    return n;
  };
const str: Parser<string> = (raw) => raw;
const optionalUrl =
  (schemes: string[]): Parser<string | undefined> =>
  (raw) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error(`must be a URL (${schemes.join(' or ')})`);
    }
    if (!schemes.includes(url.protocol.replace(':', '')))
      throw new Error(`must be a URL (${schemes.join(' or ')})`);
    return raw;
  };
const bool: Parser<boolean> = (raw) => {
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error('must be true or false');
};
const logLevel: Parser<string> = (raw) => {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(raw)) throw new Error(`must be one of ${levels.join(', ')}`);
  return raw;
};

/**
 * One process on two cores or fewer: there the HTTP work of a busy mix needs less than a core, and the
 * match index and PostgreSQL take the other; a process per core would add ~100 MB each and a round trip
 * to the index per search. At a million live jobs on two cores, one process against three (primary and
 * two workers): varied mix 530–637 against 479–526 requests/s, p99 60–65 against 92–106 ms, 433–453
 * against 523–528 MB (bench/README.md, "One process on two cores"). Above two cores, one worker per core.
 */
export const defaultWorkers = (cores: number): number => (cores <= 2 ? 1 : cores);

const schema = {
  PORT: { doc: 'HTTP port', default: 8080, parse: int(0, 65535) },
  HOST: { doc: 'HTTP bind address', default: '127.0.0.1', parse: str },
  METRICS_PORT: {
    doc: 'Port of the Prometheus metrics listener, bound like HOST (0: no metrics)',
    default: 9464,
    parse: int(0, 65535),
  },
  DATA_DIR: { doc: 'Directory of the embedded PostgreSQL cluster', default: './data', parse: str },
  DATABASE_URL: {
    doc: 'External PostgreSQL 15+ (replaces the embedded one)',
    default: undefined,
    parse: optionalUrl(['postgres', 'postgresql']),
  },
  DATABASE_READ_URL: {
    doc: 'Read replica for queries (defaults to DATABASE_URL)',
    default: undefined,
    parse: optionalUrl(['postgres', 'postgresql']),
  },
  EMBEDDED_PG_PORT: {
    doc: 'Preferred port of the embedded PostgreSQL (a free one is used when taken)',
    default: 54329,
    parse: int(1024, 65535),
  },
  REDIS_URL: {
    doc: 'Redis for limiter state shared by many hosts',
    default: undefined,
    parse: optionalUrl(['redis', 'rediss']),
  },
  WORKERS: {
    doc: 'HTTP worker processes; 1: one process serves HTTP and holds the match index itself (the default up to two cores, one per core above)',
    default: defaultWorkers(os.availableParallelism()),
    parse: int(1, 64),
  },
  LOG_LEVEL: { doc: 'pino log level', default: 'info', parse: logLevel },
  KEY_PREFIX: { doc: 'Fixed prefix of API keys', default: 'jps_', parse: str },
  STATEMENT_TIMEOUT_MS: { doc: 'Timeout of every read query', default: 5000, parse: int(100, 600_000) },
  POOL_MAX: {
    doc: 'Connections per pool (each process has a read and a write pool); each new PostgreSQL backend maps the shared buffers it reads page by page, so fewer, busier connections cost PostgreSQL less CPU a request',
    default: 4,
    parse: int(1, 200),
  },
  POOL_ACQUIRE_TIMEOUT_MS: {
    doc: 'How long a request waits for a pool connection',
    default: 3000,
    parse: int(100, 60_000),
  },
  EXPIRED_RETENTION_DAYS: {
    doc: 'Expired jobs stay retrievable by id this long',
    default: 30,
    parse: int(0, 3650),
  },
  REFRESH_INTERVAL_S: {
    doc: 'Period of the jobs_count refresh',
    default: 900,
    parse: int(1, 86_400),
  },
  EXPIRY_INTERVAL_S: { doc: 'Period of the expiry schedule', default: 60, parse: int(1, 86_400) },
  RATE_LIMIT_PER_MINUTE: {
    doc: 'Default per-minute request limit of new accounts',
    default: 600,
    parse: int(1, 10_000_000),
  },
  MONTHLY_QUOTA: {
    doc: 'Default monthly request quota of new accounts',
    default: 1_000_000,
    parse: int(1, 2_000_000_000),
  },
  CRAWL_BOARDS: {
    doc: 'Boards registry (JSON file) crawled by the service on a schedule (unset: no crawling)',
    default: undefined,
    parse: (raw: string): string | undefined => raw,
  },
  CRAWL_INTERVAL_S: { doc: 'Period of the scheduled crawl', default: 900, parse: int(60, 86_400) },
  DEMO_JOBS: {
    doc: 'Postings generated for the demo dataset on first start (0: none)',
    default: 3000,
    parse: int(0, 10_000_000),
  },
  FULL_TEXT_SEARCH: {
    doc: 'Enable title_advanced and description_advanced (needs the full-text indexes)',
    default: true,
    parse: bool,
  },
  DEMO_DATA: { doc: 'Load the demo dataset into an empty index on start', default: true, parse: bool },
  EXPENSIVE_PER_PROCESS: {
    doc: 'Expensive requests run at once per process: collapse, deep offset, description search, prefix terms, that PostgreSQL answers by a scan (those the match index or a kept page answers are not expensive); keep it below POOL_MAX so that cheap reads always find a connection',
    default: 2,
    parse: int(1, 1000),
  },
  EXPENSIVE_PER_ACCOUNT: {
    doc: 'Expensive requests one account (all its keys) may run at once on this host, across its worker processes',
    default: 1,
    parse: int(1, 1000),
  },
  EXPENSIVE_QUEUE_PER_ACCOUNT: {
    doc: 'Expensive requests one account may have waiting for a slot on this host, served in turn with other accounts (past it: 429)',
    default: 32,
    parse: int(0, 10_000),
  },
  EXPENSIVE_WAIT_MS: {
    doc: "How long an expensive request waits for its slot before a 503 (429 when its own account's requests held it)",
    default: 3000,
    parse: int(0, 60_000),
  },
  MATCH_INDEX: {
    doc: 'Keep the live jobs in an index in memory (one process holds it) that counts and pages the common filters without PostgreSQL; carried over expiries and loads instead of being built again, saved in DATA_DIR/match-index.bin after each build, every 15 minutes while carried and by an `ingest` that rewrote over 1 % of the jobs (unless the saved one is under half an hour old and the service can carry it over the load), and read back at start, carried over the loads since before any request (and read by a running service when newer)',
    default: true,
    parse: bool,
  },
  PAGE_CACHE_MB: {
    doc: 'Memory (MB) each worker keeps pages in, per data version, for requests asked again: a third for search pages, two thirds for feed pages (0: none)',
    default: 12,
    parse: int(0, 65_536),
  },
  ROW_CACHE_MB: {
    doc: "Memory (MB) each worker keeps the rendered jobs of the match index's pages in, per data version, so that pages sharing rows read only the others (0: none)",
    default: 8,
    parse: int(0, 65_536),
  },
  WARM_UP_MS: {
    doc: 'Before it listens, each serving process sends itself requests of every kind drawn from the data for at most this long (and at most WARM_UP_REQUESTS), so that its first clients do not meet cold code and connections (0: none)',
    default: 8000,
    parse: int(0, 600_000),
  },
  WARM_UP_REQUESTS: {
    doc: 'The most requests the warm-up sends',
    default: 2000,
    parse: int(0, 1_000_000),
  },
  CONNECTIONS_PER_ADDRESS: {
    doc: 'Open connections per client address and process',
    default: 128,
    parse: int(1, 100_000),
  },
  RESPONSE_STALL_MS: {
    doc: 'A response the client stops reading for this long is dropped',
    default: 20_000,
    parse: int(100, 600_000),
  },
  REQUEST_LOG_INTERVAL_S: {
    doc: 'Period of the request summary line at info (each request is logged at debug)',
    default: 60,
    parse: int(1, 86_400),
  },
} satisfies Record<string, Setting<unknown>>;

type Schema = typeof schema;
export type Config = { [K in keyof Schema]: Schema[K]['default'] | ReturnType<Schema[K]['parse']> };

/** The environment variables the service reads (its settings' names). */
export const SETTING_NAMES: readonly string[] = Object.keys(schema);

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(schema) as [string, Setting<unknown>][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      out[name] = setting.default;
      continue;
    }
    try {
      out[name] = setting.parse(raw);
    } catch (err) {
      throw new ConfigError(`invalid setting ${name}=${JSON.stringify(raw)}: ${(err as Error).message}`);
    }
  }
  return out as Config;
}
