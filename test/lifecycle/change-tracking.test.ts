// Change tracking: a tracked field changed alone bumps modified_at and names exactly that field;
// enrichment-only changes and identical re-loads change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { PostingRecord } from '../../src/model/record.ts';
import type { TestApp } from '../helpers/app.ts';
import { getJson, lifecycleApp, type Posting, posting } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await lifecycleApp();
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
function base(): Posting {
  seq++;
  return posting('greenhouse', `ct${seq}`, {
    title: `Backend Engineer ${seq}`,
    company: { name: `Tracked Co ${seq}`, domain: `tracked${seq}.example` },
    apply_url: `https://greenhouse.example/apply/ct${seq}`,
    location: { raw: ['Berlin, Germany'], countries: ['Germany'], remote: false },
    employment_type: ['FULL_TIME'],
    work_arrangement: 'Hybrid',
    seniority: 'Associate',
    department: 'Engineering',
    salary: { min: 60000, max: 80000, currency: 'EUR', unit: 'YEAR' },
    skills: ['python', 'sql'],
    taxonomies: ['Software'],
    keywords: ['backend'],
  });
}

// Each change and the tracked fields it must name. location.remote follows the work arrangement
// (one truth for both), so remote changes only together with work_arrangement.
const CHANGES: [string, (p: Posting) => Partial<PostingRecord>, string[]?][] = [
  ['title', (p) => ({ title: `${p.title} II` })],
  ['organization_name', (p) => ({ company: { ...p.company, name: `${p.company.name} Group` } })],
  ['locations', (p) => ({ location: { ...p.location, raw: ['Berlin, DE'] } })],
  ['countries', (p) => ({ location: { ...p.location, countries: ['Germany', 'Austria'] } })],
  ['employment_type', () => ({ employment_type: ['PART_TIME'] })],
  ['work_arrangement', () => ({ work_arrangement: 'On-site' })],
  ['seniority', () => ({ seniority: 'Director' })],
  ['salary_min', (p) => ({ salary: { ...p.salary, min: 65000 } })],
  ['salary_max', (p) => ({ salary: { ...p.salary, max: 85000 } })],
  ['salary_currency', (p) => ({ salary: { ...p.salary, currency: 'CHF' } })],
  ['salary_unit', () => ({ salary: { min: 60000, max: 80000, currency: 'EUR', unit: 'MONTH' } })],
  ['apply_url', (p) => ({ apply_url: `${p.apply_url}?step=2` })],
  ['url', (p) => ({ url: `${p.url}/v2` })],
  [
    'remote',
    (p) => ({ location: { ...p.location, remote: true }, work_arrangement: 'Remote' }),
    ['work_arrangement', 'remote'],
  ],
  ['department', () => ({ department: 'Platform' })],
  ['description', (p) => ({ description_html: p.description_html!.replace('</p>', ' Apply today.</p>') })],
];

async function job(id: string) {
  const r = await getJson(t, `/v1/jobs/${encodeURIComponent(id)}`);
  expect(r.status).toBe(200);
  return r.body;
}

describe('change tracking', () => {
  it('covers the whole tracked vocabulary', async () => {
    const { TRACKED_FIELDS } = await import('../../src/model/job-row.ts');
    expect(CHANGES.map((c) => c[0]).sort()).toEqual([...TRACKED_FIELDS].sort());
  });

  for (const [field, change, names = [field]] of CHANGES) {
    it(`${field} changed bumps modified_at and names exactly ${names.join(', ')}`, async () => {
      const p = base();
      const first = await ingestRecords(t.db, [p]);
      expect(first.inserted).toBe(1);
      const before = await job(p.id);
      expect(before.modified_fields).toEqual([]);
      const report = await ingestRecords(t.db, [{ ...p, ...change(p) }]);
      expect(report.updated).toBe(1);
      const after = await job(p.id);
      expect(after.modified_fields).toEqual(names);
      expect(Date.parse(after.modified_at)).toBeGreaterThan(Date.parse(before.modified_at));
      expect(after.created_at).toBe(before.created_at);
      // And it is in the modified feed with that field.
      const feed = await getJson(
        t,
        `/v1/jobs/modified?modified_gte=${encodeURIComponent(before.created_at)}&limit=1000`,
      );
      const row = feed.body.data.find((j: { id: string }) => j.id === p.id);
      expect(row?.modified_fields).toEqual(names);
      expect(row?.modified_at).toBe(after.modified_at);
    });
  }

  it('enrichment-only changes (skills, taxonomies, keywords) bump nothing', async () => {
    const p = base();
    await ingestRecords(t.db, [p]);
    const before = await job(p.id);
    let cur: Posting = p;
    for (const over of [
      { skills: ['rust', 'go'] },
      { taxonomies: ['Engineering'] },
      { keywords: ['systems'] },
    ]) {
      cur = { ...cur, ...over };
      const report = await ingestRecords(t.db, [cur]);
      expect(report.updated).toBe(1);
      const after = await job(p.id);
      expect(after.modified_at).toBe(before.modified_at);
      expect(after.modified_fields).toEqual([]);
    }
    const after = await job(p.id);
    expect([...after.skills].sort()).toEqual(['go', 'rust']);
    expect(after.taxonomies).toEqual(['Engineering']);
    expect(after.keywords).toContain('systems');
    const feed = await getJson(t, `/v1/jobs/modified?since=1h&limit=1000`);
    expect(feed.body.data.map((j: { id: string }) => j.id)).not.toContain(p.id);
  });

  it('an identical re-load changes nothing', async () => {
    const p = base();
    await ingestRecords(t.db, [p]);
    const before = await t.get(`/v1/jobs/${p.id}?description_format=html`);
    const report = await ingestRecords(t.db, [p]);
    expect(report).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, expired: 0, folded: 0 });
    const after = await t.get(`/v1/jobs/${p.id}?description_format=html`);
    expect(after.body).toBe(before.body);
    const { rows } = await t.db.write.query('SELECT updated_at, modified_at FROM jobs WHERE id = $1', [p.id]);
    expect(rows[0].modified_at).toBeNull();
  });

  it('a field changed twice keeps only the latest change', async () => {
    const p = base();
    await ingestRecords(t.db, [p]);
    await ingestRecords(t.db, [{ ...p, title: 'Changed Once' }]);
    await ingestRecords(t.db, [{ ...p, title: 'Changed Once', department: 'Data' }]);
    const after = await job(p.id);
    expect(after.modified_fields).toEqual(['department']);
  });
});
