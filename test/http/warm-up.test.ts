// The warm-up a serving process runs before it listens (src/http/warm-up.ts): valid requests of every
// kind, answered without a key, left out of the request figures, and no way in for anyone else.
import client from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS, readSeeds, warmUpPath } from '../../src/http/warm-up.ts';
import { createJobsFixture, type Fixture } from '../helpers/jobs-fixture.ts';

let f: Fixture;
beforeAll(async () => {
  f = await createJobsFixture();
});
afterAll(async () => {
  await f?.close();
});

async function requestsCounted(): Promise<number> {
  const values = (await client.register.getSingleMetric('http_requests_total')!.get()).values;
  return values.reduce((a, v) => a + v.value, 0);
}

describe('the warm-up', () => {
  it('draws its values from the data, and every kind it sends is a valid request', async () => {
    const seeds = await readSeeds(async (url) => {
      const res = await f.get(url);
      return { status: res.statusCode, body: res.body };
    });
    expect(seeds.values.country?.length).toBeGreaterThan(0);
    expect(seeds.values.skills?.length).toBeGreaterThan(0);
    expect(seeds.titleWords.length).toBeGreaterThan(0);
    expect(seeds.ids.length).toBeGreaterThan(0);
    // Two rounds of every kind, with a key: each answered 200 (a drifted parameter name would be a 400).
    for (let i = 0; i < 2 * KINDS; i++) {
      const path = warmUpPath(seeds, i);
      const res = await f.get(path);
      expect(res.statusCode, `${path} → ${res.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('is answered without a key and uncounted; expensive work is refused unrun', async () => {
    const before = await requestsCounted();
    const gate = { ...f.app.expensive.stats };
    const report = await f.app.warmUp({ ms: 60_000, requests: 3 * KINDS, concurrency: 4 });
    expect(report.requests).toBe(3 * KINDS);
    // Without the match index a collapse, an offset past 1,000 and a description search are costed as
    // PostgreSQL's scans: the warm-up leaves them (503) instead of holding the start-up with them.
    expect(Object.keys(report.statuses).sort()).toEqual(['200', '503']);
    expect(report.statuses['503']).toBeGreaterThanOrEqual(3);
    expect(f.app.expensive.stats).toEqual(gate);
    expect(await requestsCounted()).toBe(before);
  });

  it('lets nobody else in: its header without the token of a running warm-up is nothing', async () => {
    const res = await f.app.fastify.inject({ url: '/v1/jobs', headers: { 'x-warm-up': 'guess' } });
    expect(res.statusCode).toBe(401);
    const empty = await f.app.fastify.inject({ url: '/v1/jobs', headers: { 'x-warm-up': '' } });
    expect(empty.statusCode).toBe(401);
  });
});

describe('the warm-up once listening', () => {
  it('is refused: a request from outside could then carry its token', async () => {
    const t = await createJobsFixture();
    try {
      await t.app.fastify.listen({ port: 0, host: '127.0.0.1' });
      await expect(t.app.warmUp({ ms: 1000, requests: 10, concurrency: 1 })).rejects.toThrow(/before/);
    } finally {
      await t.close();
    }
  });
});
