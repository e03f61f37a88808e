// Cached totals stay exact: every commit that changes the data bumps the version they are keyed by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { TotalsCache } from '../../src/search/totals.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const posting = (n: number, country: string) => ({
  kind: 'posting' as const,
  id: `lever:tot-${n}`,
  source: 'lever',
  title: `Analyst ${n}`,
  company: { name: 'Totals Co' },
  url: `https://totals.example/${n}`,
  location: { countries: [country] },
});

describe('totals cache', () => {
  it('serves the same total again and follows every load', async () => {
    const total = async (qs: string) => JSON.parse((await t.get(`/v1/jobs?${qs}`)).body).total as number;
    const count = async (qs: string) =>
      JSON.parse((await t.get(`/v1/jobs/count?${qs}`)).body).count as number;
    expect(await total('country=US')).toBe(2);
    const before = await count('country=US');
    expect(before).toBe(2);
    await ingestRecords(t.db, [posting(1, 'United States'), posting(2, 'Germany')]);
    expect(await total('country=US')).toBe(3);
    expect(await count('country=US')).toBe(3);
    expect(await count('country=DE')).toBe(2);
    await ingestRecords(t.db, [{ ...posting(1, 'United States'), gone: true }]);
    expect(await total('country=US')).toBe(2);
    expect(await count('country=US')).toBe(2);
    // A relative window is never cached.
    expect(await count('country=US&time_frame=3650d')).toBe(2);
  });
});

describe('TotalsCache.resolve', () => {
  it('counts once for concurrent requests of one total, caches it, and retries after a failure', async () => {
    const cache = new TotalsCache();
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const count = async () => {
      calls++;
      await gate;
      return { n: 42, version: 7 };
    };
    const waiting = Array.from({ length: 10 }, () => cache.resolve(7, 'k', count));
    release();
    expect(await Promise.all(waiting)).toEqual(Array(10).fill(42));
    expect(calls).toBe(1);
    expect(await cache.resolve(7, 'k', count)).toBe(42);
    expect(calls).toBe(1);

    let failures = 0;
    const failing = async () => {
      failures++;
      throw new Error('canceling statement due to statement timeout');
    };
    const both = [cache.resolve(8, 'k', failing), cache.resolve(8, 'k', failing)];
    for (const p of both) await expect(p).rejects.toThrow(/statement timeout/);
    expect(failures).toBe(1);
    expect(await cache.resolve(8, 'k', async () => ({ n: 5, version: 8 }))).toBe(5);
  });
});
