// Starts one embedded PostgreSQL for the whole run unless DATABASE_URL names an external server.
// Each test file then creates its own database on it (test/helpers/db.ts).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbedded } from '../src/db/embedded.ts';

export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgUrl', process.env.DATABASE_URL);
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-test-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbedded(dir, 55432);
  project.provide('pgUrl', server.url);
  return async () => {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
