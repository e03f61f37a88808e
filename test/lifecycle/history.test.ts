// A job's history (GET /v1/jobs/{id}/history): its versions are the modified feed's announcements with
// old and new values, its copies are its duplicate cluster with why each was judged a copy, and its
// expiry reason says how it left. Recorded in the transaction of the change, purged with the job.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src/db/jobs-write.ts';
import { expireDue, expireMissingFromBoard } from '../../src/ingest/expiry.ts';
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

// biome-ignore lint/suspicious/noExplicitAny: response JSON is inspected freely in tests
async function history(id: string): Promise<any> {
  const r = await getJson(t, `/v1/jobs/${encodeURIComponent(id)}/history`);
  expect(r.status).toBe(200);
  return r.body;
}

let seq = 0;
function base(over: Partial<PostingRecord> = {}): Posting {
  seq++;
  return posting('greenhouse', `h${seq}`, {
    title: `History Engineer ${seq}`,
    company: { name: `History Co ${seq}`, domain: `history${seq}.example` },
    department: 'Engineering',
    salary: { min: 60000, max: 80000, currency: 'EUR', unit: 'YEAR' },
    ...over,
  });
}

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

describe('versions', () => {
  it('records each change of tracked fields with old and new values, oldest first', async () => {
    const p = base();
    await ingestRecords(t.db, [p]);
    const first = await history(p.id);
    expect(first).toMatchObject({ id: p.id, requested_id: p.id, folded_into: null, expired_at: null });
    expect(first.expiry_reason).toBeNull();
    expect(first.versions).toEqual([]);
    expect(first.copies).toEqual([]);

    await ingestRecords(t.db, [{ ...p, title: 'Renamed Engineer', department: 'Platform' }]);
    const html = p.description_html!.replace('</p>', ' Apply today.</p>');
    await ingestRecords(t.db, [
      { ...p, title: 'Renamed Engineer', department: 'Platform', description_html: html },
    ]);
    const h = await history(p.id);
    expect(h.versions).toHaveLength(2);
    const [v1, v2] = h.versions;
    expect(v1.modified_fields).toEqual(['title', 'department']);
    expect(v1.changes).toEqual({
      title: { old: p.title, new: 'Renamed Engineer' },
      department: { old: 'Engineering', new: 'Platform' },
    });
    expect(v2.modified_fields).toEqual(['description']);
    expect(Date.parse(v2.modified_at)).toBeGreaterThan(Date.parse(v1.modified_at));
    // The description as digest and length of the sanitised HTML the job shows, never the text.
    const before = (await getJson(t, `/v1/jobs/${p.id}?description_format=html`)).body;
    expect(v2.changes.description.new).toEqual({
      sha256: sha256Hex(before.description),
      length: [...before.description].length,
    });
    expect(v2.changes.description.old.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(v2.changes.description.old.sha256).not.toBe(v2.changes.description.new.sha256);
    expect(v2.changes.description.old.length).toBe(
      v2.changes.description.new.length - ' Apply today.'.length,
    );
    // The latest version is what the job and the modified feed announce.
    expect(before.modified_at).toBe(v2.modified_at);
    expect(before.modified_fields).toEqual(v2.modified_fields);
  });

  it('an identical re-load and a change of untracked or enrichment fields add no version', async () => {
    const p = base({ skills: ['python'] });
    await ingestRecords(t.db, [p]);
    await ingestRecords(t.db, [p]);
    await ingestRecords(t.db, [{ ...p, skills: ['rust'], keywords: ['systems'], team: 'Core' }]);
    expect((await history(p.id)).versions).toEqual([]);
  });

  it('a load killed after recording leaves no half-recorded change', async () => {
    const p = base();
    await ingestRecords(t.db, [p]);
    // The batch's last statement fails: everything the batch wrote, history included, rolls back.
    await t.db.write.query(`CREATE FUNCTION fail_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'killed'; END $$`);
    await t.db.write.query(
      'CREATE TRIGGER fail_version AFTER UPDATE ON data_version FOR EACH STATEMENT EXECUTE FUNCTION fail_version()',
    );
    try {
      await expect(ingestRecords(t.db, [{ ...p, title: 'Never Recorded' }])).rejects.toThrow(/killed/);
    } finally {
      await t.db.write.query('DROP TRIGGER fail_version ON data_version; DROP FUNCTION fail_version()');
    }
    const h = await history(p.id);
    expect(h.versions).toEqual([]);
    const { rows } = await t.db.write.query('SELECT count(*)::int AS n FROM job_versions WHERE job_id = $1', [
      p.id,
    ]);
    expect(rows[0].n).toBe(0);
    expect((await getJson(t, `/v1/jobs/${p.id}`)).body.title).not.toBe('Never Recorded');
  });
});

describe('last seen', () => {
  it('moves with every load that lists the posting, not with one that sends it gone', async () => {
    const p = base();
    await ingestRecords(t.db, [p]);
    const h1 = await history(p.id);
    expect(h1.last_seen_at).toBe(h1.first_seen_at);
    await ingestRecords(t.db, [p]); // unchanged, but listed
    const h2 = await history(p.id);
    expect(Date.parse(h2.last_seen_at)).toBeGreaterThan(Date.parse(h1.last_seen_at));
    expect(h2.versions).toEqual([]);
    await ingestRecords(t.db, [{ ...p, gone: true }]);
    const h3 = await history(p.id);
    expect(h3.last_seen_at).toBe(h2.last_seen_at);
    expect(Date.parse(h3.expired_at)).toBeGreaterThan(Date.parse(h2.last_seen_at));
  });
});

describe('expiry reasons', () => {
  const reasonOf = async (id: string) => {
    const h = await history(id);
    expect(h.expired_at).not.toBeNull();
    return h.expiry_reason;
  };

  it('source_marked_closed: sent as gone (changed or not)', async () => {
    const p = base();
    const q = base();
    await ingestRecords(t.db, [p, q]);
    await ingestRecords(t.db, [
      { ...p, gone: true },
      { ...q, gone: true, title: 'Closed And Renamed' },
    ]);
    expect(await reasonOf(p.id)).toBe('source_marked_closed');
    expect(await reasonOf(q.id)).toBe('source_marked_closed');
  });

  it('valid_through_passed: at load (new or unchanged), and by the expiry schedule', async () => {
    const atLoad = base({ expires_at: '2020-01-01T00:00:00Z' });
    const soon = base({ expires_at: new Date(Date.now() + 60_000).toISOString() });
    const due = base({ expires_at: new Date(Date.now() + 60_000).toISOString() });
    await ingestRecords(t.db, [atLoad, soon, due]);
    expect(await reasonOf(atLoad.id)).toBe('valid_through_passed');
    await t.db.write.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = ANY($1)`, [
      [soon.id, due.id],
    ]);
    // The same record again, its end now past: expired by the load.
    await ingestRecords(t.db, [{ ...soon, expires_at: new Date(Date.now() - 1000).toISOString() }]);
    expect(await reasonOf(soon.id)).toBe('valid_through_passed');
    expect(await expireDue(t.db)).toBeGreaterThanOrEqual(1);
    expect(await reasonOf(due.id)).toBe('valid_through_passed');
  });

  it('removed_from_source: a whole-board fetch no longer lists it', async () => {
    const a = base({ board: 'greenhouse/history' });
    const b = base({ board: 'greenhouse/history' });
    await ingestRecords(t.db, [a, b]);
    expect(await expireMissingFromBoard(t.db, 'greenhouse/history', [a.id])).toBe(1);
    expect(await reasonOf(b.id)).toBe('removed_from_source');
    expect((await history(a.id)).expiry_reason).toBeNull();
  });

  it('null again once a job comes back; a copy promoted when its original left answers for itself', async () => {
    const o = base();
    await ingestRecords(t.db, [o]);
    const copy: Posting = {
      ...o,
      id: 'workhub:h-copy',
      source: 'workhub',
      url: 'https://workhub.example/jobs/h-copy',
      canonical_url: o.url,
    };
    await ingestRecords(t.db, [copy]);
    const asCopy = await history(copy.id);
    expect(asCopy).toMatchObject({ id: o.id, requested_id: copy.id, folded_into: o.id });
    expect(asCopy.copies.map((c: { id: string }) => c.id)).toEqual([copy.id]);

    await ingestRecords(t.db, [{ ...o, gone: true }]);
    const orig = await history(o.id);
    expect(orig.expiry_reason).toBe('source_marked_closed');
    expect(orig.copies).toEqual([]);
    const promoted = await history(copy.id);
    expect(promoted).toMatchObject({ id: copy.id, requested_id: copy.id, folded_into: null });
    expect(promoted.expired_at).toBeNull();
    expect(promoted.expiry_reason).toBeNull();
    // Its promotion was announced through the modified feed: a version naming no field.
    const job = (await getJson(t, `/v1/jobs/${encodeURIComponent(copy.id)}`)).body;
    expect(promoted.versions).toEqual([{ modified_at: job.modified_at, modified_fields: [], changes: {} }]);

    // The original listed again: live, its reason gone with its expiry.
    await ingestRecords(t.db, [o]);
    const back = await history(o.id);
    expect(back.expired_at).toBeNull();
    expect(back.expiry_reason).toBeNull();
  });
});

describe('copies', () => {
  const TEXT = [
    '<p>Harbourline Logistics runs the largest cold-chain network in the region. Our Manchester team plans and',
    'tracks refrigerated freight for grocery and pharmacy customers, around the clock.</p>',
    '<h3>What you will do</h3><ul><li>Build and maintain data pipelines for shipment tracking events</li>',
    '<li>Model delivery windows and temperature excursions in our warehouse</li>',
    '<li>Work with dispatch, finance and customer teams on reporting needs</li>',
    '<li>Own data quality checks and alerting for late or missing scans</li></ul>',
    '<h3>What you bring</h3><ul><li>Five or more years of experience with SQL and Python</li>',
    '<li>Experience with Airflow, dbt or similar orchestration and modelling tools</li></ul>',
  ].join('\n');
  const original: Posting = {
    kind: 'posting',
    id: 'greenhouse:h7001',
    source: 'greenhouse',
    title: 'Senior Data Engineer',
    company: { name: 'Harbourline Logistics Ltd' },
    url: 'https://boards.greenhouse.io/harbourline/jobs/h7001',
    description_html: TEXT,
    location: { raw: ['Manchester, United Kingdom'] },
    posted_at: '2026-05-20T09:00:00.000Z',
  };
  const syndicated: Posting = {
    ...original,
    id: 'techjobs:h7001',
    source: 'techjobs',
    url: 'https://techjobs.example/jobs/h7001',
    canonical_url: original.url,
    description_html: `${TEXT}\n<p>Originally posted on Greenhouse.</p>`,
  };
  const agency: Posting = {
    kind: 'posting',
    id: 'jobmirror:h-ag-77',
    source: 'jobmirror',
    title: 'Data Engineer (Senior) - Manchester',
    company: { name: 'Harbourline Logistics' },
    url: 'https://jobmirror.example/agency/northstar/h-ag-77',
    description_html: `<p>Northstar Recruitment is recruiting on behalf of Harbourline Logistics.</p>\n${TEXT}\n<p>Northstar Recruitment acts as an employment agency for this vacancy. Reference AG-77.</p>`,
    location: { raw: ['Manchester, UK'] },
    posted_at: '2026-05-22T09:00:00.000Z',
  };
  const respelled: Posting = {
    kind: 'posting',
    id: 'careerboard:h-rs-12',
    source: 'careerboard',
    title: 'Senior Data Engineer',
    company: { name: 'Harbourline Logistics Ltd' },
    url: 'https://careerboard.example/jobs/h-rs-12',
    description_html: TEXT,
    location: { raw: ['Greater Manchester Area, England, United Kingdom'] },
    posted_at: '2026-05-21T09:00:00.000Z',
  };

  it('lists the cluster with why each was judged a copy, asked by the original or any copy', async () => {
    await ingestRecords(t.db, [original, syndicated, agency, respelled]);
    const h = await history(original.id);
    const byId = Object.fromEntries(h.copies.map((c: { id: string }) => [c.id, c]));
    expect(Object.keys(byId).sort()).toEqual([agency.id, respelled.id, syndicated.id].sort());
    expect(byId[syndicated.id]).toMatchObject({
      source: 'techjobs',
      source_type: 'jobboard',
      url: syndicated.url,
      reason: 'same_url',
    });
    expect(byId[respelled.id]).toMatchObject({
      source_type: 'jobboard',
      reason: 'same_employer_title_place',
    });
    expect(byId[agency.id]).toMatchObject({
      source_type: 'aggregator',
      reason: 'near_identical_description',
    });
    for (const c of h.copies) {
      expect(Date.parse(c.first_seen_at)).toBeGreaterThanOrEqual(Date.parse(h.first_seen_at));
      expect(c.last_seen_at).toBe(c.first_seen_at);
    }
    for (const id of [syndicated.id, agency.id, respelled.id]) {
      const asCopy = await history(id);
      expect(asCopy).toMatchObject({ id: original.id, requested_id: id, folded_into: original.id });
      expect(asCopy.copies).toEqual(h.copies);
    }
  });
});

describe('the endpoint', () => {
  it('answers 404 as /v1/jobs/{id} does, validates its parameters and needs a key', async () => {
    const missing = await getJson(t, '/v1/jobs/greenhouse%3Anope/history');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual((await getJson(t, '/v1/jobs/greenhouse%3Anope')).body);
    expect((await getJson(t, '/v1/jobs/a%00b/history')).status).toBe(404);
    const p = base();
    await ingestRecords(t.db, [p]);
    const bad = await getJson(t, `/v1/jobs/${p.id}/history?limit=5`);
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe('limit');
    const anon = await t.app.fastify.inject({ url: `/v1/jobs/${p.id}/history` });
    expect(anon.statusCode).toBe(401);
  });

  it('the retention purge removes the history with the job', async () => {
    const p = base();
    await ingestRecords(t.db, [p]);
    await ingestRecords(t.db, [{ ...p, title: 'Purged Title' }]);
    await ingestRecords(t.db, [{ ...p, title: 'Purged Title', gone: true }]);
    await t.db.write.query(`UPDATE jobs SET expired_at = now() - interval '31 days' WHERE id = $1`, [p.id]);
    expect(await purgeExpired(t.db.write, 30)).toBeGreaterThanOrEqual(1);
    expect((await getJson(t, `/v1/jobs/${p.id}/history`)).status).toBe(404);
    const { rows } = await t.db.write.query(
      `SELECT (SELECT count(*) FROM job_versions WHERE job_id = $1)::int AS v,
              (SELECT count(*) FROM job_lifecycle WHERE id = $1)::int AS l`,
      [p.id],
    );
    expect(rows[0]).toEqual({ v: 0, l: 0 });
  });
});
