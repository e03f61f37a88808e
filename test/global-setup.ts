// Starts one embedded PostgreSQL for the whole run unless DATABASE_URL names an external server.
// Each test file then creates its own database on it (test/helpers/db.ts). TEST_READ_URL_BASE names a
// streaming replica of that server (scripts/replica.sh): reads then go to the replica.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbedded } from '../src/db/embedded.ts';

async function systemId(url: string, recovery: boolean): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query(
      'SELECT system_identifier::text AS id, pg_is_in_recovery() AS standby FROM pg_control_system()',
    );
    if (rows[0].standby !== recovery) {
      throw new Error(`${new URL(url).host} is ${rows[0].standby ? 'a standby' : 'not a standby'}`);
    }
    return rows[0].id;
  } finally {
    await c.end();
  }
}

/** Checks that TEST_READ_URL_BASE is a standby of the primary at `pgUrl`; fails the run clearly if not. */
async function checkReplica(pgUrl: string, base: string): Promise<void> {
  const url = new URL(base);
  url.pathname = '/postgres';
  const [primary, replica] = await Promise.all([systemId(pgUrl, false), systemId(url.toString(), true)]);
  if (primary !== replica) throw new Error('TEST_READ_URL_BASE is a replica of another PostgreSQL cluster');
}

export default async function setup(project: TestProject) {
  // The tests that start the service run what `npm start` runs: the compiled sources.
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/build.mjs')], {
    stdio: 'inherit',
  });
  const replica = process.env.TEST_READ_URL_BASE || undefined;
  if (process.env.DATABASE_URL) {
    if (replica) await checkReplica(process.env.DATABASE_URL, replica);
    project.provide('pgUrl', process.env.DATABASE_URL);
    project.provide('readUrlBase', replica);
    return;
  }
  if (replica)
    throw new Error(
      'TEST_READ_URL_BASE needs DATABASE_URL: a replica of the embedded server is not supported',
    );
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-test-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbedded(dir, 55432);
  project.provide('pgUrl', server.url);
  project.provide('readUrlBase', undefined);
  return async () => {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    readUrlBase: string | undefined;
  }
}
