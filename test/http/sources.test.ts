// GET /v1/sources: per source, its live postings, the last load that wrote postings of it, and the
// median age of its live postings; /v1/meta keeps its closed keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { KNOWN_SOURCES } from '../../src/model/sources.ts';
import type { TestApp } from '../helpers/app.ts';
import { getJson, lifecycleApp, posting } from '../lifecycle/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await lifecycleApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;
const daysAgo = (d: number) => new Date(Date.now() - d * DAY).toISOString();

// biome-ignore lint/suspicious/noExplicitAny: response JSON is inspected freely in tests
const bySource = (body: any) => new Map(body.data.map((s: { source: string }) => [s.source, s]));

describe('GET /v1/sources', () => {
  it('lists every known source, without loads before any', async () => {
    const r = await getJson(t, '/v1/sources');
    expect(r.status).toBe(200);
    expect(r.body.data.map((s: { source: string }) => s.source).sort()).toEqual(
      KNOWN_SOURCES.map((s) => s.slug).sort(),
    );
    for (const s of r.body.data) {
      expect(s).toEqual({
        source: s.source,
        source_type: KNOWN_SOURCES.find((k) => k.slug === s.source)!.type,
        live: 0,
        last_load_at: null,
        median_age_days: null,
      });
    }
  });

  it('counts live postings, dates the last load, and gives the median age; sorted by live', async () => {
    const before = Date.now();
    await ingestRecords(t.db, [
      posting('lever', 's1', { posted_at: daysAgo(2) }),
      posting('lever', 's2', { posted_at: daysAgo(4) }),
      posting('lever', 's3', { posted_at: daysAgo(10) }),
      posting('lever', 's4', { posted_at: daysAgo(1), gone: true }),
      posting('ashby', 's5', { posted_at: daysAgo(6) }),
      posting('ashby', 's6', { posted_at: daysAgo(9) }),
    ]);
    const r = await getJson(t, '/v1/sources');
    expect(r.status).toBe(200);
    const s = bySource(r.body);
    expect(r.body.data.slice(0, 2).map((x: { source: string }) => x.source)).toEqual(['lever', 'ashby']);
    expect(s.get('lever')).toMatchObject({ source_type: 'ats', live: 3, median_age_days: 4 });
    expect(s.get('ashby')).toMatchObject({ live: 2, median_age_days: 7.5 });
    const loaded = Date.parse((s.get('lever') as { last_load_at: string }).last_load_at);
    expect(loaded).toBeGreaterThanOrEqual(before - 1000);
    expect(loaded).toBeLessThanOrEqual(Date.now() + 1000);
    expect(s.get('greenhouse')).toMatchObject({ live: 0, last_load_at: null, median_age_days: null });

    // An unchanged re-load changes no live figure but is a load.
    await new Promise((res) => setTimeout(res, 5));
    await ingestRecords(t.db, [posting('ashby', 's5', { posted_at: daysAgo(6) })]);
    const again = bySource((await getJson(t, '/v1/sources')).body);
    expect(Date.parse((again.get('ashby') as { last_load_at: string }).last_load_at)).toBeGreaterThan(
      Date.parse((s.get('ashby') as { last_load_at: string }).last_load_at),
    );
    expect((again.get('lever') as { last_load_at: string }).last_load_at).toBe(
      (s.get('lever') as { last_load_at: string }).last_load_at,
    );
  });

  it('validates its parameters and needs a key; /v1/meta keeps its keys', async () => {
    const bad = await getJson(t, '/v1/sources?source=lever');
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe('source');
    expect((await t.app.fastify.inject({ url: '/v1/sources' })).statusCode).toBe(401);
    const meta = await getJson(t, '/v1/meta');
    expect(Object.keys(meta.body)).toEqual([
      'jobs',
      'companies',
      'newest',
      'sources',
      'coverage_pct',
      'full_text_search',
      'version',
    ]);
  });
});
