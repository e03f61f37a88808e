// Folding copies of the same posting into one survivor, taking over, and unfolding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { TestApp } from '../helpers/app.ts';
import { description, getJson, lifecycleApp, type Posting, posting } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await lifecycleApp();
});
afterAll(async () => {
  await t?.close();
});

async function status(id: string) {
  return (await getJson(t, `/v1/jobs/${id}`)).status;
}

async function listed(): Promise<Record<string, Set<string>>> {
  const out: Record<string, Set<string>> = {};
  for (const [name, url] of [
    ['search', '/v1/jobs?limit=200'],
    ['feed', '/v1/jobs/feed?since=1d&limit=1000'],
    ['modified', '/v1/jobs/modified?since=1d&limit=1000'],
    ['expired', '/v1/jobs/expired?since=1d&limit=5000'],
  ]) {
    const r = await getJson(t, url);
    expect(r.status).toBe(200);
    out[name] = new Set(r.body.data.map((j: { id: string }) => j.id));
  }
  return out;
}

async function expectNowhere(id: string) {
  expect(await status(id)).toBe(404);
  const l = await listed();
  for (const name of ['search', 'feed', 'modified']) expect(l[name].has(id), `${id} in ${name}`).toBe(false);
}

let n = 0;
/** An ATS original and copies of it on other sources: same employer, title, location and description. */
function family(): { original: Posting; copy: (source: string, over?: Partial<Posting>) => Posting } {
  n++;
  const shared = {
    title: `Data Engineer F${n}`,
    company: { name: `Folding Co ${n}`, domain: `folding${n}.example` },
    location: { raw: ['Paris, France'] },
    description_html: description(1000 + n),
  };
  const original = posting('greenhouse', `f${n}`, shared);
  return {
    original,
    copy: (source, over = {}) => posting(source, `f${n}`, { ...shared, ...over }),
  };
}

describe('folding', () => {
  it('a jobboard copy with the same canonical_url folds into the ATS original', async () => {
    const f = family();
    const copy = f.copy('careerboard', {
      title: 'Something else entirely',
      description_html: description(99_999),
      canonical_url: f.original.url,
    });
    await ingestRecords(t.db, [f.original]);
    const report = await ingestRecords(t.db, [copy]);
    expect(report.folded).toBe(1);
    await expectNowhere(copy.id);
    expect(await status(f.original.id)).toBe(200);
    expect((await listed()).expired.has(copy.id)).toBe(false);
  });

  it('same employer + title + location with a near-identical description folds', async () => {
    const f = family();
    const copy = f.copy('techjobs', {
      description_html: f.original.description_html!.replace('</p>', ' Apply now.</p>'),
    });
    await ingestRecords(t.db, [f.original, copy]);
    await expectNowhere(copy.id);
    expect(await status(f.original.id)).toBe(200);
  });

  it('a new copy arrives folded: written by the batch upsert itself, not live and then folded', async () => {
    const f = family();
    const copy = f.copy('careerboard');
    const g = family();
    const takeover = g.copy('workhub');
    await ingestRecords(t.db, [takeover]);
    const report = await ingestRecords(t.db, [f.original, copy, g.original]);
    expect(report.folded).toBe(2);
    await expectNowhere(copy.id);
    await expectNowhere(takeover.id);
    const { rows } = await t.db.write.query<{
      id: string;
      cmin: string;
      state: number;
      duplicate_of: string;
    }>('SELECT id, cmin::text, state, duplicate_of FROM jobs WHERE id = ANY($1)', [
      [f.original.id, copy.id, takeover.id],
    ]);
    const by = new Map(rows.map((r) => [r.id, r]));
    expect(by.get(copy.id)).toMatchObject({ state: 2, duplicate_of: f.original.id });
    expect(by.get(takeover.id)).toMatchObject({ state: 2, duplicate_of: g.original.id });
    // The new copy's only version comes from the statement that wrote its original (a live version
    // folded by a later UPDATE would have entered every live-only search index first); the stored,
    // published copy taken over by a new original is folded by a later statement.
    expect(by.get(copy.id)!.cmin).toBe(by.get(f.original.id)!.cmin);
    expect(by.get(takeover.id)!.cmin).not.toBe(by.get(f.original.id)!.cmin);
  });

  it('same employer + title + location with a different description does not fold', async () => {
    const f = family();
    const other = f.copy('techjobs', { description_html: description(77_777) });
    const report = await ingestRecords(t.db, [f.original, other]);
    expect(report.folded).toBe(0);
    expect(await status(other.id)).toBe(200);
    expect(await status(f.original.id)).toBe(200);
  });

  it('the survivor is ats over jobboard over aggregator', async () => {
    const f = family();
    const agg = f.copy('jobmirror');
    const board = f.copy('workhub');
    await ingestRecords(t.db, [agg]);
    await ingestRecords(t.db, [board]);
    expect(await status(board.id)).toBe(200);
    expect(await status(agg.id)).toBe(404);
    await ingestRecords(t.db, [f.original]);
    expect(await status(f.original.id)).toBe(200);
    expect(await status(board.id)).toBe(404);
    expect(await status(agg.id)).toBe(404);
    // In one batch, whatever the order.
    const g = family();
    await ingestRecords(t.db, [g.copy('alljobs'), g.copy('careerboard'), g.original]);
    expect(await status(g.original.id)).toBe(200);
    expect(await status(g.copy('alljobs').id)).toBe(404);
    expect(await status(g.copy('careerboard').id)).toBe(404);
  });

  it('the ATS original arriving after its copy was published takes over; the copy leaves by the expired feed', async () => {
    const f = family();
    const copy = f.copy('careerboard');
    await ingestRecords(t.db, [copy]);
    let l = await listed();
    expect(l.feed.has(copy.id)).toBe(true);
    await ingestRecords(t.db, [f.original]);
    await expectNowhere(copy.id);
    l = await listed();
    expect(l.expired.has(copy.id)).toBe(true);
    expect(l.feed.has(f.original.id)).toBe(true);
    expect(l.expired.has(f.original.id)).toBe(false);
  });

  it('unfolding: when the original expires, the best copy is live again through the modified feed', async () => {
    const f = family();
    const agg = f.copy('jobmirror');
    const board = f.copy('careerboard');
    await ingestRecords(t.db, [f.original]);
    await ingestRecords(t.db, [agg, board]);
    expect(await status(board.id)).toBe(404);
    const before = await getJson(t, '/v1/jobs/modified?since=1d&limit=1000');
    const last = before.body.data.at(-1)?.modified_at ?? '2000-01-01T00:00:00Z';
    await ingestRecords(t.db, [{ ...f.original, gone: true }]);
    expect(await status(board.id)).toBe(200);
    expect(await status(agg.id)).toBe(404);
    const mod = await getJson(t, `/v1/jobs/modified?modified_gte=${encodeURIComponent(last)}&limit=1000`);
    const row = mod.body.data.find((j: { id: string }) => j.id === board.id);
    expect(row).toBeDefined();
    expect(row).toEqual((await getJson(t, `/v1/jobs/${board.id}`)).body);
    const l = await listed();
    expect(l.expired.has(f.original.id)).toBe(true);
    expect(l.search.has(board.id)).toBe(true);
    // And when that copy expires too, the next one comes back.
    await ingestRecords(t.db, [{ ...board, gone: true }]);
    expect(await status(agg.id)).toBe(200);
  });

  it('a copy that was gone when its original expired comes back when listed again', async () => {
    const f = family();
    const board = f.copy('careerboard');
    await ingestRecords(t.db, [f.original, board]);
    await ingestRecords(t.db, [{ ...board, gone: true }]);
    await ingestRecords(t.db, [{ ...f.original, gone: true }]);
    expect(await status(board.id)).toBe(404);
    await ingestRecords(t.db, [board]);
    expect(await status(board.id)).toBe(200);
    const l = await listed();
    expect(l.search.has(board.id)).toBe(true);
    expect(l.modified.has(board.id)).toBe(true);
  });

  it('a folded copy that becomes the best survivor again is announced in the modified feed', async () => {
    // Two jobboard copies: the older one survives; when it is gone the newer takes over; when the
    // older is listed again it takes over back and must be visible again.
    const f = family();
    const first = f.copy('careerboard');
    const second = f.copy('techjobs');
    await ingestRecords(t.db, [first]);
    await ingestRecords(t.db, [second]);
    expect(await status(second.id)).toBe(404);
    await ingestRecords(t.db, [{ ...first, gone: true }]);
    expect(await status(second.id)).toBe(200);
    await ingestRecords(t.db, [first]);
    const live = [first.id, second.id].filter((id) => id);
    const statuses = await Promise.all(live.map(status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const l = await listed();
    const survivor = live[statuses.indexOf(200)];
    expect(l.search.has(survivor)).toBe(true);
    expect(l.modified.has(survivor) || l.feed.has(survivor)).toBe(true);
    const loser = live.find((id) => id !== survivor)!;
    expect(l.search.has(loser)).toBe(false);
    expect(l.expired.has(loser)).toBe(true);
  });
});
