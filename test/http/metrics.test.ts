// The app's metrics in one process (prom-client's default registry): limiter decisions by kind and
// request counts by route template. The scraped, multi-worker view is test/service/metrics.test.ts.
import client from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, ensureAccount } from '../../src/db/keys.ts';
import { type App, buildApp } from '../../src/http/app.ts';
import { PgLimiter } from '../../src/limiter/limiter.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { checkedApp } from '../helpers/conformance.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
let app: App;
beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
  app = checkedApp(
    await buildApp({
      ctx: { db, config: db.config, cursorSecret: 's', version: '1.0.0', fullTextSearch: true },
      limiter: new PgLimiter(db.write),
      logger: false,
    }),
  );
});
afterAll(async () => {
  await app?.close();
  await db?.drop();
});

async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = client.register.getSingleMetric(name);
  const values = (await metric!.get()).values;
  return values
    .filter((v) => Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l))
    .reduce((a, v) => a + v.value, 0);
}

describe('app metrics', () => {
  it('count limiter decisions by kind and requests by route template', async () => {
    const key = async (rate: number, quota: number, name: string) => {
      const acc = await ensureAccount(db.write, name, rate, quota);
      return (await createKey(db.write, acc.id, db.config.KEY_PREFIX)).key;
    };
    const before = {
      allowed: await value('limiter_decisions_total', { decision: 'allowed' }),
      rate: await value('limiter_decisions_total', { decision: 'rate_limited' }),
      quota: await value('limiter_decisions_total', { decision: 'quota_exhausted' }),
      byId: await value('http_requests_total', { route: '/v1/jobs/:id', status: '404' }),
    };
    const get = (url: string, k: string) =>
      app.fastify.inject({ url, headers: { authorization: `Bearer ${k}` } });
    const fast = await key(2, 1000, 'metrics-rate');
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('/v1/meta', fast)).statusCode);
    const small = await key(100, 1, 'metrics-quota');
    for (let i = 0; i < 2; i++) statuses.push((await get('/v1/meta', small)).statusCode);
    expect(statuses).toEqual([200, 200, 429, 200, 429]);
    for (const id of ['a%3A1', 'b%3A2']) expect((await get(`/v1/jobs/${id}`, small)).statusCode).toBe(429);
    const other = await key(100, 1000, 'metrics-other');
    for (const id of ['a%3A1', 'b%3A2']) expect((await get(`/v1/jobs/${id}`, other)).statusCode).toBe(404);

    expect((await value('limiter_decisions_total', { decision: 'allowed' })) - before.allowed).toBe(5);
    expect((await value('limiter_decisions_total', { decision: 'rate_limited' })) - before.rate).toBe(1);
    expect((await value('limiter_decisions_total', { decision: 'quota_exhausted' })) - before.quota).toBe(3);
    // One label for every id: the route template, not the URL.
    expect((await value('http_requests_total', { route: '/v1/jobs/:id', status: '404' })) - before.byId).toBe(
      2,
    );
  });
});
