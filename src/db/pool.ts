// The only code that knows whether PostgreSQL is embedded or external. Gives the rest of the
// service a write pool (the primary) and a read pool (a replica when DATABASE_READ_URL is set).
import pg from 'pg';
import type { Config } from '../config.ts';
import { type EmbeddedServer, startEmbedded } from './embedded.ts';

// Keep int8 (counts) as JS numbers: our counts stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric as number (salary figures).
pg.types.setTypeParser(1700, (v) => Number(v));

export interface Db {
  /** The primary: ingestion, keys, migrations. */
  write: pg.Pool;
  /** Reads of the request path; statement_timeout applies. */
  read: pg.Pool;
  /** Whether `read` reads the primary (no replica): what is read on the primary is then what it reads. */
  readIsPrimary: boolean;
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

export interface DbOptions {
  log?: (msg: string) => void;
  onPoolError?: (err: Error) => void;
}

function makePool(url: string, config: Config, statementTimeout: boolean, onError: (e: Error) => void) {
  const pool = new pg.Pool({
    connectionString: url,
    max: config.POOL_MAX,
    connectionTimeoutMillis: config.POOL_ACQUIRE_TIMEOUT_MS,
    // Connections stay open while idle: a new backend's first read of a page's rows took ~3× as long
    // (catalog caches, and the shared buffers mapped into it page by page), so closing them after a
    // quiet spell made the next burst pay that again. POOL_MAX bounds them.
    idleTimeoutMillis: 0,
    ...(statementTimeout ? { statement_timeout: config.STATEMENT_TIMEOUT_MS } : {}),
    application_name: 'job-postings-search',
    // JIT compilation pays off for long analytical queries, not for this service's short ones.
    options: '-c jit=off',
  });
  // A backend killed under an idle client emits here; without a listener the process would crash.
  pool.on('error', onError);
  return pool;
}

/** Connects to DATABASE_URL, or starts the embedded cluster under DATA_DIR. */
export async function openDb(config: Config, opts: DbOptions = {}): Promise<Db> {
  let server: EmbeddedServer | undefined;
  let url = config.DATABASE_URL;
  if (!url) {
    server = await startEmbedded(config.DATA_DIR, config.EMBEDDED_PG_PORT, opts.log);
    url = server.url;
  }
  const onError = opts.onPoolError ?? (() => {});
  const write = makePool(url, config, false, onError);
  const read = makePool(config.DATABASE_READ_URL ?? url, config, true, onError);
  let closed = false;
  return {
    write,
    read,
    readIsPrimary: !config.DATABASE_READ_URL,
    url,
    embedded: server !== undefined,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([write.end(), read.end()]);
      await server?.stop();
    },
  };
}

/** Runs `fn` in a transaction on a client of `pool`. */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (c: pg.PoolClient) => Promise<T>,
  begin = 'BEGIN',
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

// SQLSTATEs meaning "the database cannot serve this now, retry": connection exceptions (08), too many
// connections and other exhausted resources (53), operator intervention (57P: shutdown, cannot connect
// now, database dropped), a database that does not exist (3D000) or refuses the login (28), and
// hot-standby conflicts (40001). 57014 is statement_timeout.
const UNAVAILABLE_STATE = /^(08|53|57P|28|3D000$|57014$|40001$|40P01$)/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGE = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
  'is not currently accepting connections', // 55000 with ALLOW_CONNECTIONS false
  'the database system is', // starting up / shutting down / in recovery mode
];

/** True when `err` means the database is unreachable or refusing, or a query timed out: a 503, not a 500. */
export function isTimeoutOrConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_STATE.test(code)) return true;
  if (UNAVAILABLE_ERRNO.has(code)) return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  if (UNAVAILABLE_MESSAGE.some((m) => msg.includes(m))) return true;
  // net.connect to a host with several addresses fails with an AggregateError of the attempts.
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isTimeoutOrConnectionError);
}

/** Runs several reads of `fn` on one snapshot (also on a hot standby). */
export function withSnapshot<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, fn, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}
