// A fresh database per test file on the run's PostgreSQL (embedded or external), migrated.
// With TEST_READ_URL_BASE (a streaming replica of that PostgreSQL, see scripts/replica.sh) the read pool
// connects to the same database on the replica, as DATABASE_READ_URL would. Tests write through `write`
// and expect to read what they wrote: before a read connection is handed out, the replica is waited for
// until it has replayed the primary's WAL as of the test's last write (unless `lagging` is set, for tests
// that read the replica as it is while writes go on).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db/pool.ts';
import { migrate } from '../../src/db/migrations.ts';

export interface TestDb extends Db {
  config: Config;
  /** The replica's URL of this database, when reads go to a replica. */
  replicaUrl?: string;
  /** Reads see the replica as it is (no waiting for the test's writes) while true. */
  lagging: boolean;
  /** Waits until the replica has replayed everything committed on the primary so far (no-op without one). */
  synced(): Promise<void>;
  /** The same database with a write pool of its own, for a service under test (its writes do not make reads wait). */
  forService(): Db;
  drop(): Promise<void>;
}

/** The replica's base URL of this run, or undefined; see test/global-setup.ts. */
export function replicaBase(): string | undefined {
  return inject('readUrlBase');
}

export const NO_REPLICA =
  'no streaming replica configured: start one with scripts/replica.sh and set TEST_READ_URL_BASE';

/** A read pool that first waits for `catchUp` on every checkout (pool.query checks out too). */
class CatchingUpPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private catchUp: () => Promise<void>,
  ) {
    super(config);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads (promise or callback) are passed through
  override connect(cb?: any): any {
    const client = this.catchUp().then(() => super.connect());
    if (!cb) return client;
    client.then(
      (c) => cb(undefined, c, c.release),
      (e) => cb(e),
    );
  }
}

function withDatabase(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function createTestDb(env: Record<string, string> = {}): Promise<TestDb> {
  const base = inject('pgUrl');
  const replica = replicaBase();
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(base, name);
  const replicaUrl = replica ? withDatabase(replica, name) : undefined;
  const config = loadConfig({
    ...env,
    DATABASE_URL: url,
    ...(replicaUrl ? { DATABASE_READ_URL: replicaUrl } : {}),
    LOG_LEVEL: 'silent',
  });
  const write = new pg.Pool({ connectionString: url, max: 5 });
  let serviceWrite: pg.Pool | undefined;

  // Read-your-writes against the replica: `dirty` is set whenever the test checks out a write connection.
  let dirty = false;
  write.on('acquire', () => {
    dirty = true;
  });
  const probe = replica
    ? new pg.Pool({ connectionString: withDatabase(replica, 'postgres'), max: 1 })
    : undefined;
  probe?.on('error', () => {});
  const synced = async () => {
    if (!probe) return;
    const { rows } = await write.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    for (;;) {
      const r = await probe.query<{ ok: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS ok', [
        rows[0].lsn,
      ]);
      if (r.rows[0].ok) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const db: TestDb = {} as TestDb;
  const readConfig: pg.PoolConfig = {
    connectionString: replicaUrl ?? url,
    max: 5,
    statement_timeout: config.STATEMENT_TIMEOUT_MS,
    connectionTimeoutMillis: config.POOL_ACQUIRE_TIMEOUT_MS,
  };
  // One catch-up at a time, which every checkout made meanwhile waits for: reads started together after a
  // write (Promise.all) must all see it, not only the first.
  let catching: Promise<void> | undefined;
  const catchUp = (): Promise<void> => {
    if (db.lagging) return Promise.resolve();
    if (dirty) {
      dirty = false;
      const running: Promise<void> = synced().finally(() => {
        if (catching === running) catching = undefined;
      });
      catching = running;
    }
    return catching ?? Promise.resolve();
  };
  const read = replica ? new CatchingUpPool(readConfig, catchUp) : new pg.Pool(readConfig);
  write.on('error', () => {});
  read.on('error', () => {});
  await migrate(write);
  await synced();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.allSettled([write.end(), read.end(), serviceWrite?.end(), probe?.end()]);
  };
  return Object.assign(db, {
    write,
    read,
    readIsPrimary: !replica,
    url,
    replicaUrl,
    lagging: false,
    embedded: false,
    config,
    synced,
    forService(): Db {
      if (!serviceWrite) {
        serviceWrite = new pg.Pool({ connectionString: url, max: 5 });
        serviceWrite.on('error', () => {});
      }
      return { ...db, write: serviceWrite, close };
    },
    close,
    async drop() {
      await close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  });
}
