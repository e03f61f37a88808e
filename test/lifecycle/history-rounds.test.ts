// Histories after the generator's change rounds: each job's versions are exactly what the modified
// feed delivered for it across the rounds (fields and values), and each cluster's copies are the
// generator's ground truth of copies of that job, each with the reason its kind implies.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoDataset, type PostingKind } from '../../src/demo/generate.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { CanonicalLine, PostingRecord } from '../../src/model/record.ts';
import type { TestApp } from '../helpers/app.ts';
import { getJson, lifecycleApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await lifecycleApp();
});
afterAll(async () => {
  await t?.close();
});

type Item = Record<string, unknown> & { id: string; modified_at: string; modified_fields: string[] };

/** Drains the modified feed from `from` (exclusive of what was read), returning the items and the new start. */
async function drainModified(from: string): Promise<{ items: Item[]; next: string }> {
  const items: Item[] = [];
  let url = `/v1/jobs/modified?modified_gte=${encodeURIComponent(from)}&limit=1000&description_format=html`;
  let next = from;
  for (;;) {
    const r = await getJson(t, url);
    expect(r.status).toBe(200);
    items.push(...r.body.data);
    for (const j of r.body.data as Item[]) next = j.modified_at;
    if (!r.body.next_cursor) break;
    url = `/v1/jobs/modified?cursor=${encodeURIComponent(r.body.next_cursor)}&description_format=html`;
  }
  // The next poll starts just after the last item read.
  return { items, next: new Date(Date.parse(next) + 1).toISOString() };
}

/** The value a tracked field has in the Job JSON, where the two are the same value. */
const PUBLIC: Record<string, (j: Item) => unknown> = {
  url: (j) => j.url,
  apply_url: (j) => j.apply_url,
  department: (j) => j.department,
  employment_type: (j) => j.employment_type,
  work_arrangement: (j) => j.work_arrangement,
  seniority: (j) => j.seniority,
  salary_min: (j) => (j.salary as { min?: number } | null)?.min ?? null,
  salary_max: (j) => (j.salary as { max?: number } | null)?.max ?? null,
  salary_currency: (j) => (j.salary as { currency?: string } | null)?.currency ?? null,
  salary_unit: (j) => (j.salary as { unit?: string } | null)?.unit ?? null,
  remote: (j) => (j.location as { remote: boolean }).remote,
  countries: (j) => (j.location as { countries: string[] }).countries,
  locations: (j) => (j.location as { raw: string[] }).raw,
  description: (j) => ({
    sha256: createHash('sha256')
      .update(j.description as string)
      .digest('hex'),
    length: [...(j.description as string)].length,
  }),
};

describe('histories after the generator rounds', () => {
  const ROUNDS = 2;
  const ds = new DemoDataset({ jobs: 3000, seed: 11, rounds: ROUNDS, nearDuplicates: true });
  /** Ground truth: job (original id) → its copies and their kinds. */
  const truth = new Map<string, Map<string, PostingKind>>();
  /** Feed items per id, across all rounds. */
  const delivered = new Map<string, Item[]>();

  it('loads the base snapshot and the rounds, draining the modified feed after each', async () => {
    const lines: CanonicalLine[] = [];
    const urls = new Map<string, string>();
    for (const { line, label } of ds.labelled()) {
      lines.push(line);
      if (!label) continue;
      if (label.kind === 'original') urls.set((line as PostingRecord).url, label.id);
      if (label.kind !== 'original' && label.kind !== 'sibling') {
        if (!truth.has(label.job)) truth.set(label.job, new Map());
        truth.get(label.job)!.set(label.id, label.kind);
      }
    }
    await ingestRecords(t.db, lines);
    let { next } = await drainModified('1970-01-01T00:00:00.000Z');
    for (let r = 1; r <= ROUNDS; r++) {
      const round = [...ds.round(r)];
      // A copy first listed in a round points at its original by canonical_url; originals born in a
      // round are listed first, with their copies after them.
      for (const l of round) {
        if (l.kind !== 'posting') continue;
        const rec = l as PostingRecord;
        if (!rec.canonical_url) {
          urls.set(rec.url, urls.get(rec.url) ?? rec.id);
          continue;
        }
        const job = urls.get(rec.canonical_url);
        if (job && job !== rec.id && !truth.get(job)?.has(rec.id)) {
          if (!truth.has(job)) truth.set(job, new Map());
          truth.get(job)!.set(rec.id, 'syndicated');
        }
      }
      await ingestRecords(t.db, round);
      const drained = await drainModified(next);
      next = drained.next;
      expect(drained.items.length).toBeGreaterThan(0);
      for (const j of drained.items) {
        const list = delivered.get(j.id) ?? [];
        list.push(j);
        delivered.set(j.id, list);
      }
    }
    expect(delivered.size).toBeGreaterThan(20);
  });

  it("each job's versions are what the modified feed delivered for it, no more and no fewer", async () => {
    const { rows } = await t.db.write.query<{ id: string }>(
      `SELECT id FROM jobs WHERE state = 0 AND NOT (id = ANY($1)) ORDER BY md5(id) LIMIT 150`,
      [[...delivered.keys()]],
    );
    const sample = [...delivered.keys(), ...rows.map((r) => r.id)];
    let compared = 0;
    for (const id of sample) {
      const h = (await getJson(t, `/v1/jobs/${encodeURIComponent(id)}/history`)).body;
      const items = delivered.get(id) ?? [];
      expect(h.id).toBe(id);
      expect(
        h.versions.map((v: Item) => [v.modified_at, v.modified_fields]),
        id,
      ).toEqual(items.map((j) => [j.modified_at, j.modified_fields]));
      for (const [k, v] of (
        h.versions as { changes: Record<string, { old: unknown; new: unknown }> }[]
      ).entries()) {
        for (const [field, change] of Object.entries(v.changes)) {
          expect(change.old, `${id} ${field}`).not.toEqual(change.new);
          const pub = PUBLIC[field];
          if (pub) {
            expect(change.new, `${id} ${field}`).toEqual(pub(items[k]));
            compared++;
          }
          // Each version starts from the value the previous one left.
          const prev = h.versions
            .slice(0, k)
            .reverse()
            .find((p: { changes: Record<string, unknown> }) => field in p.changes);
          if (prev) expect(change.old, `${id} ${field}`).toEqual(prev.changes[field].new);
        }
      }
    }
    expect(compared).toBeGreaterThan(10);
  });

  it("each live original's copies are the generator's copies of that job, with their reasons", async () => {
    const { rows } = await t.db.write.query<{ id: string }>(
      'SELECT id FROM jobs WHERE state = 0 AND id = ANY($1) ORDER BY id',
      [[...truth.keys()]],
    );
    expect(rows.length).toBeGreaterThan(50);
    const REASON: Partial<Record<PostingKind, string>> = {
      syndicated: 'same_url',
      respelled: 'same_employer_title_place',
      agency: 'near_identical_description',
    };
    const kinds = new Set<string>();
    for (const { id } of rows) {
      const h = (await getJson(t, `/v1/jobs/${encodeURIComponent(id)}/history`)).body;
      const expected = truth.get(id)!;
      const got = new Map<string, string>(
        h.copies.map((c: { id: string; reason: string }) => [c.id, c.reason]),
      );
      expect([...got.keys()].sort(), id).toEqual([...expected.keys()].sort());
      for (const [copy, kind] of expected) {
        expect(got.get(copy), `${copy} (${kind})`).toBe(REASON[kind]);
        kinds.add(kind);
      }
    }
    expect([...kinds].sort()).toEqual(['agency', 'respelled', 'syndicated']);
  });
});
