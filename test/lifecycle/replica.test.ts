// Reads from a streaming replica (DATABASE_READ_URL) while writes go to the primary: the replica lags,
// a feed cursor handed out by one host never skips a row when the next page comes from another host
// (a replica or the primary), and authentication reads the primary, so a revocation holds on the very
// next request. Needs TEST_READ_URL_BASE (scripts/replica.sh); skipped without it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../src/db/keys.ts';
import { isTimeoutOrConnectionError } from '../../src/db/pool.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { TestApp } from '../helpers/app.ts';
import { NO_REPLICA, replicaBase } from '../helpers/db.ts';
import { lifecycleApp, posting } from './helpers.ts';

const replica = replicaBase();
if (!replica) console.warn(`replica: the tests on a streaming replica are skipped (${NO_REPLICA})`);
let t: TestApp;
/** A second host of the same deployment that reads the primary (no lag at all). */
let onPrimary: App;
let primaryReads: pg.Pool;

beforeAll(async () => {
  if (!replica) return;
  t = await lifecycleApp();
  primaryReads = new pg.Pool({ connectionString: t.db.url, max: 3 });
  onPrimary = await buildApp({
    ctx: {
      db: { ...t.db.forService(), read: primaryReads },
      config: t.db.config,
      cursorSecret: 'test-secret',
      version: '1.0.0',
      fullTextSearch: true,
    },
    logger: false,
  });
});
afterAll(async () => {
  await onPrimary?.close();
  await primaryReads?.end();
  await t?.close();
});

const auth = () => ({ authorization: `Bearer ${t.key}` });

/** Runs `fn` while the replica applies no WAL: what it shows stays as it was, whatever the timing. */
async function replayPaused<T>(fn: () => Promise<T>): Promise<T> {
  const url = new URL(replica!);
  url.pathname = '/postgres';
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  t.db.lagging = true;
  try {
    await c.query('SELECT pg_wal_replay_pause()');
    return await fn();
  } finally {
    await c.query('SELECT pg_wal_replay_resume()');
    await c.end();
    t.db.lagging = false;
  }
}

describe.skipIf(!replica)(`on a streaming replica${replica ? '' : ` (skipped: ${NO_REPLICA})`}`, () => {
  it('reads from the replica, which shows a commit only once it has replayed it', async () => {
    const { rows } = await t.db.read.query('SELECT pg_is_in_recovery() AS standby');
    expect(rows[0].standby).toBe(true);
    const seen = async () =>
      (await t.db.read.query("SELECT count(*)::int AS n FROM jobs WHERE id = 'greenhouse:lag1'")).rows[0].n;
    await replayPaused(async () => {
      await ingestRecords(t.db, [posting('greenhouse', 'lag1')]);
      expect(await seen()).toBe(0);
      expect((await t.get('/v1/jobs/greenhouse:lag1')).statusCode).toBe(404);
    });
    await t.db.synced();
    expect(await seen()).toBe(1);
    expect((await t.get('/v1/jobs/greenhouse:lag1')).statusCode).toBe(200);
  });

  it('never skips a row when the pages of one feed walk come from different hosts', async () => {
    t.db.lagging = true;
    const hosts = [
      (url: string) => t.app.fastify.inject({ url, headers: auth() }),
      (url: string) => onPrimary.fastify.inject({ url, headers: auth() }),
    ];
    const written: string[] = [];
    let done = false;
    // Small commits, one after another and two at a time, while the consumer pages.
    const writer = (async () => {
      for (let i = 0; i < 40; i++) {
        const batch = [posting('lever', `rw${i}a`), posting('lever', `rw${i}b`)];
        await Promise.all([ingestRecords(t.db, [batch[0]]), ingestRecords(t.db, [batch[1]])]);
        written.push(...batch.map((p) => p.id));
      }
    })().finally(() => {
      done = true;
    });
    const seen: string[] = [];
    let created = '1970-01-01T00:00:00Z';
    let turn = 0;
    const poll = async () => {
      let url = `/v1/jobs/feed?created_gte=${encodeURIComponent(created)}&limit=3`;
      const first = url;
      for (;;) {
        // Alternate hosts page by page: the cursor of one is used on the other.
        const res = await hosts[turn++ % 2](url);
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        for (const j of body.data) {
          if (!seen.includes(j.id)) seen.push(j.id);
          expect(j.created_at >= created).toBe(true);
          created = j.created_at;
        }
        if (body.next_cursor === null) return;
        url = `${first}&cursor=${encodeURIComponent(body.next_cursor)}`;
      }
    };
    while (!done) await poll();
    await writer;
    t.db.lagging = false;
    await t.db.synced();
    await poll();
    const live = (await t.db.write.query<{ id: string }>("SELECT id FROM jobs WHERE source = 'lever'")).rows;
    expect(live.length).toBe(written.length);
    expect(seen.filter((id) => id.startsWith('lever:')).sort()).toEqual([...written].sort());
  });

  it('authenticates on the primary: a revoked key is refused on the next request of either host', async () => {
    const url = '/v1/jobs?limit=1';
    expect((await t.get(url)).statusCode).toBe(200);
    expect((await onPrimary.fastify.inject({ url, headers: auth() })).statusCode).toBe(200);
    const { rows } = await t.db.write.query<{ id: number }>('SELECT id::int FROM api_keys');
    await replayPaused(async () => {
      expect(await revokeKey(t.db.write, rows[0].id)).toBe(true);
      // The replica has not applied the revocation: it still lists the key as active.
      const active = await t.db.read.query('SELECT 1 FROM api_keys WHERE revoked_at IS NULL');
      expect(active.rowCount).toBe(1);
      expect((await t.get(url)).statusCode).toBe(401);
      expect((await onPrimary.fastify.inject({ url, headers: auth() })).statusCode).toBe(401);
    });
  });
});

describe('a read cancelled by a replica', () => {
  it('is a 503 to retry, not a 500: recovery conflicts and a dropped database', () => {
    const cancelled = Object.assign(new Error('canceling statement due to conflict with recovery'), {
      code: '40001',
    });
    expect(isTimeoutOrConnectionError(cancelled)).toBe(true);
    expect(isTimeoutOrConnectionError({ code: '57P04' })).toBe(true);
    expect(isTimeoutOrConnectionError({ code: '23505' })).toBe(false);
  });
});
