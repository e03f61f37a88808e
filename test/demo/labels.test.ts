import { describe, expect, it } from 'vitest';
import { DemoDataset, type PostingLabel } from '../../src/demo/generate.ts';
import type { PostingRecord } from '../../src/model/record.ts';
import { validateLine } from '../../src/ingest/validate.ts';

const NOW = new Date('2026-06-01T12:00:00Z');

function labelled(opts: { jobs: number; seed: number; nearDuplicates?: boolean }) {
  const out: { rec: PostingRecord; label: PostingLabel }[] = [];
  for (const { line, label } of new DemoDataset({ ...opts, now: NOW }).labelled()) {
    if (line.kind === 'posting' && label) out.push({ rec: line, label });
  }
  return out;
}

describe('ground truth of the generated postings', () => {
  it('labels each syndicated copy with its original; without near-duplicates base() is unchanged', () => {
    const items = labelled({ jobs: 800, seed: 5 });
    const base = [...new DemoDataset({ jobs: 800, seed: 5, now: NOW }).base()].filter(
      (l) => l.kind === 'posting',
    );
    expect(items.map((x) => x.rec)).toEqual(base);
    const byId = new Map(items.map((x) => [x.rec.id, x.rec]));
    expect(new Set(items.map((x) => x.label.kind))).toEqual(new Set(['original', 'syndicated']));
    for (const { rec, label } of items) {
      if (label.kind === 'original') expect(label.job).toBe(rec.id);
      else expect(rec.canonical_url).toBe(byId.get(label.job)!.url);
    }
  });

  it('adds agency re-posts, re-spelled copies and siblings, deterministically', () => {
    const items = labelled({ jobs: 3000, seed: 5, nearDuplicates: true });
    expect(items).toHaveLength(3000);
    expect(labelled({ jobs: 3000, seed: 5, nearDuplicates: true })).toEqual(items);
    const byId = new Map(items.map((x) => [x.rec.id, x.rec]));
    expect(byId.size).toBe(3000);
    const kinds = new Map<string, number>();
    for (const { rec, label } of items) {
      kinds.set(label.kind, (kinds.get(label.kind) ?? 0) + 1);
      expect(() => validateLine({ kind: 'posting', ...rec })).not.toThrow();
      const orig = byId.get(label.job)!;
      expect(Date.parse(rec.posted_at!)).toBeGreaterThanOrEqual(Date.parse(orig.posted_at!));
      if (label.kind === 'agency') {
        // No link to the original, another title, the client's text framed by the agency's.
        expect(rec.canonical_url).toBeUndefined();
        expect(rec.title).not.toBe(orig.title);
        expect(rec.description_html ?? rec.description_text).toContain('employment agency');
      }
      if (label.kind === 'respelled') {
        expect(rec.canonical_url).toBeUndefined();
        expect(rec.location?.raw).not.toEqual(orig.location?.raw);
        expect(rec.location?.countries).toBeUndefined();
      }
      if (label.kind === 'sibling') {
        // A different job: its own id as its job, another city, the same title.
        expect(label.job).toBe(rec.id);
        expect(rec.title).toBe(orig.title);
      }
    }
    for (const k of ['original', 'syndicated', 'agency', 'respelled', 'sibling'])
      expect(kinds.get(k), k).toBeGreaterThan(k === 'sibling' ? 30 : 60);
  });
});
