// A fresh database per test file on the run's PostgreSQL (embedded or external), migrated.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Db } from '../../src/db/pool.ts';
import { migrate } from '../../src/db/migrations.ts';

export interface TestDb extends Db {
  config: Config;
  drop(): Promise<void>;
}

export async function createTestDb(env: Record<string, string> = {}): Promise<TestDb> {
  const base = inject('pgUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const config = loadConfig({ ...env, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' });
  const write = new pg.Pool({ connectionString: url.toString(), max: 5 });
  const read = new pg.Pool({
    connectionString: url.toString(),
    max: 5,
    statement_timeout: config.STATEMENT_TIMEOUT_MS,
    connectionTimeoutMillis: config.POOL_ACQUIRE_TIMEOUT_MS,
  });
  write.on('error', () => {});
  read.on('error', () => {});
  await migrate(write);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await Promise.allSettled([write.end(), read.end()]);
  };
  return {
    write,
    read,
    url: url.toString(),
    embedded: false,
    config,
    close,
    async drop() {
      await close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
