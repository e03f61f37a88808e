// Expiry by time and by disappearance, the expired feed, retrieval by id, and the retention purge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src/db/jobs-write.ts';
import { expireDue, expireMissingFromBoard } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { TestApp } from '../helpers/app.ts';
import { getJson, lifecycleApp, posting } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await lifecycleApp();
});
afterAll(async () => {
  await t?.close();
});

const EXPIRED_AT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function ids(url: string): Promise<string[]> {
  const r = await getJson(t, url);
  expect(r.status).toBe(200);
  return r.body.data.map((j: { id: string }) => j.id);
}

async function expectGoneFromLists(id: string, title: string) {
  expect(await ids(`/v1/jobs?title=${encodeURIComponent(`"${title}"`)}`)).not.toContain(id);
  expect(await ids('/v1/jobs/feed?since=1d&limit=1000')).not.toContain(id);
  expect(await ids('/v1/jobs/modified?since=1d&limit=1000')).not.toContain(id);
  const count = await getJson(t, `/v1/jobs/count?title=${encodeURIComponent(`"${title}"`)}`);
  expect(count.body.count).toBe(0);
}

async function expiredRow(id: string) {
  const r = await getJson(t, '/v1/jobs/expired?since=1d&limit=5000');
  expect(r.status).toBe(200);
  return r.body.data.find((x: { id: string }) => x.id === id) as
    | { id: string; expired_at: string }
    | undefined;
}

async function checkExpired(id: string, title: string) {
  await expectGoneFromLists(id, title);
  const row = await expiredRow(id);
  expect(row).toBeDefined();
  expect(Object.keys(row!)).toEqual(['id', 'expired_at']);
  expect(row!.expired_at).toMatch(EXPIRED_AT);
  expect(Math.abs(Date.parse(`${row!.expired_at.replace(' ', 'T')}Z`) - Date.now())).toBeLessThan(60_000);
  const byId = await getJson(t, `/v1/jobs/${id}`);
  expect(byId.status).toBe(200);
  expect(byId.body.id).toBe(id);
}

describe('expiry', () => {
  it('by time: expireDue moves a job whose expires_at passed to the expired population', async () => {
    const p = posting('lever', 'exp1', {
      title: 'Zebra Keeper',
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    await ingestRecords(t.db, [p]);
    expect(await ids(`/v1/jobs?title=${encodeURIComponent('"Zebra Keeper"')}`)).toContain(p.id);
    expect(await expireDue(t.db)).toBe(0);
    await t.db.write.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [p.id]);
    expect(await expireDue(t.db)).toBe(1);
    await checkExpired(p.id, 'Zebra Keeper');
  });

  it('by time at load: a posting whose expires_at already passed is never live', async () => {
    const p = posting('lever', 'exp2', { title: 'Walrus Trainer', expires_at: '2020-01-01T00:00:00Z' });
    const report = await ingestRecords(t.db, [p]);
    expect(report.expired).toBe(1);
    await expectGoneFromLists(p.id, 'Walrus Trainer');
    expect((await getJson(t, `/v1/jobs/${p.id}`)).status).toBe(200);
  });

  it('by disappearance from its board', async () => {
    const a = posting('greenhouse', 'b1', { title: 'Otter Groomer', board: 'greenhouse/otters' });
    const b = posting('greenhouse', 'b2', { title: 'Otter Feeder', board: 'greenhouse/otters' });
    await ingestRecords(t.db, [a, b]);
    expect(await expireMissingFromBoard(t.db, 'greenhouse/otters', [a.id, b.id])).toBe(0);
    expect(await expireMissingFromBoard(t.db, 'greenhouse/otters', [a.id])).toBe(1);
    await checkExpired(b.id, 'Otter Feeder');
    expect(await ids(`/v1/jobs?title=${encodeURIComponent('"Otter Groomer"')}`)).toContain(a.id);
    expect(await expireMissingFromBoard(t.db, 'greenhouse/otters', [a.id])).toBe(0);
    // Listed again later, unchanged: it comes back to life, through the modified feed.
    await ingestRecords(t.db, [b]);
    expect(await expiredRow(b.id)).toBeUndefined();
    expect(await ids(`/v1/jobs?title=${encodeURIComponent('"Otter Feeder"')}`)).toContain(b.id);
    expect(await ids('/v1/jobs/modified?since=1d&limit=1000')).toContain(b.id);
  });

  it('by a posting reported gone', async () => {
    const p = posting('ashby', 'g1', { title: 'Penguin Counter' });
    await ingestRecords(t.db, [p]);
    const report = await ingestRecords(t.db, [{ ...p, gone: true }]);
    expect(report.expired).toBe(1);
    await checkExpired(p.id, 'Penguin Counter');
  });

  it('a changed posting that ends is written expired by the load itself, not live and then expired', async () => {
    const p = posting('ashby', 'g3', { title: 'Puffin Ringer' });
    const q = posting('ashby', 'g4', { title: 'Puffin Bander' });
    await ingestRecords(t.db, [p, q]);
    const report = await ingestRecords(t.db, [
      { ...p, gone: true },
      { ...q, title: 'Puffin Bander II' },
    ]);
    expect(report.expired).toBe(1);
    expect(report.updated).toBe(2);
    await checkExpired(p.id, 'Puffin Ringer');
    // Both final versions come from the same statement of the batch (the upsert): a live version of p
    // expired by a later UPDATE would have entered every live-only search index first.
    const { rows } = await t.db.write.query<{ id: string; cmin: string; xmin: string }>(
      'SELECT id, cmin::text, xmin::text FROM jobs WHERE id = ANY($1)',
      [[p.id, q.id]],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0].xmin).toBe(rows[1].xmin);
    expect(rows[0].cmin).toBe(rows[1].cmin);
  });

  it('a job back after expiring is live again and in the modified feed', async () => {
    const p = posting('ashby', 'g2', { title: 'Seal Whisperer' });
    await ingestRecords(t.db, [p]);
    await ingestRecords(t.db, [{ ...p, gone: true }]);
    expect(await expiredRow(p.id)).toBeDefined();
    await ingestRecords(t.db, [p]);
    expect(await expiredRow(p.id)).toBeUndefined();
    expect(await ids('/v1/jobs/modified?since=1d&limit=1000')).toContain(p.id);
  });

  it('the retention purge removes expired jobs (404 by id)', async () => {
    const p = posting('workable', 'pg1', { title: 'Heron Spotter' });
    const q = posting('workable', 'pg2', { title: 'Heron Watcher' });
    await ingestRecords(t.db, [p, q]);
    await ingestRecords(t.db, [{ ...p, gone: true }]);
    expect(await purgeExpired(t.db.write, 30)).toBe(0);
    expect((await getJson(t, `/v1/jobs/${p.id}`)).status).toBe(200);
    await t.db.write.query(`UPDATE jobs SET expired_at = now() - interval '31 days' WHERE id = $1`, [p.id]);
    await purgeExpired(t.db.write, 30);
    const gone = await getJson(t, `/v1/jobs/${p.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'not found' });
    expect(await expiredRow(p.id)).toBeUndefined();
    expect((await getJson(t, `/v1/jobs/${q.id}`)).status).toBe(200);
    await ingestRecords(t.db, [{ ...q, gone: true }]);
    await new Promise((r) => setTimeout(r, 5));
    await purgeExpired(t.db.write, 0);
    expect((await getJson(t, `/v1/jobs/${q.id}`)).status).toBe(404);
  });
});
