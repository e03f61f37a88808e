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
    idleTimeoutMillis: 30_000,
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

export function isTimeoutOrConnectionError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (e?.code === '57014') return true; // query_canceled (statement_timeout)
  // A replica cancels a read that conflicts with the WAL it replays (the API never serialises writes).
  if (e?.code === '40001' || e?.code === '57P04') return true;
  if (e?.code === '57P01' || e?.code === '57P02' || e?.code === '57P03') return true; // admin shutdown etc.
  if (e?.code === '08006' || e?.code === '08003' || e?.code === '08001') return true;
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ECONNRESET' || e?.code === 'EPIPE') return true;
  const msg = e?.message ?? '';
  return (
    msg.includes('timeout exceeded when trying to connect') ||
    msg.includes('Connection terminated') ||
    msg.includes('Client has encountered a connection error')
  );
}

/** Runs several reads of `fn` on one snapshot (also on a hot standby). */
export function withSnapshot<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, fn, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
}
