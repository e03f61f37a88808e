// Cached totals stay exact: every commit that changes the data bumps the version they are keyed by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
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
