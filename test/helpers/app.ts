// An app on a fresh test database, with the sample fixture loaded and a key.
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/http/app.ts';
import type { Limiter } from '../../src/limiter/limits.ts';
import { ingestFile } from '../../src/ingest/jsonl.ts';
import { runRefresh } from '../../src/service/schedules.ts';
import { ensureDemoKey, prepareDatabase } from '../../src/service/setup.ts';
import { checkedApp } from './conformance.ts';
import { createTestDb, type TestDb } from './db.ts';

export const SAMPLE = new URL('../fixtures/canonical/sample.jsonl', import.meta.url).pathname;

export interface TestApp {
  db: TestDb;
  app: App;
  key: string;
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(
  opts: {
    sample?: boolean;
    limiter?: Limiter;
    logger?: boolean | Record<string, unknown>;
    fullTextSearch?: boolean;
    env?: Record<string, string>;
  } = {},
): Promise<TestApp> {
  const db = await createTestDb(opts.env);
  await prepareDatabase(db);
  if (opts.sample !== false) {
    await ingestFile(db, SAMPLE);
    await runRefresh(db);
  }
  const key = (await ensureDemoKey(db, db.config))!;
  const app = checkedApp(
    await buildApp({
      ctx: {
        db: db.forService(),
        config: db.config,
        cursorSecret: 'test-secret',
        version: '1.0.0',
        fullTextSearch: opts.fullTextSearch ?? true,
      },
      limiter: opts.limiter,
      logger: opts.logger ?? false,
    }),
  );
  return {
    db,
    app,
    key,
    get: (url, headers) =>
      app.fastify.inject({ url, headers: { authorization: `Bearer ${key}`, ...headers } }),
    async close() {
      try {
        await app.close();
      } finally {
        await db.drop();
      }
    },
  };
}
