// The mirror test: a consumer keeps a copy of the index through the three feeds only (add from
// /feed, upsert from /modified, delete from /expired), resuming each window from the last
// timestamp it stored, while ingestion commits concurrently. At the end the copy equals the live
// population exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireDue, expireMissingFromBoard } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { TestApp } from '../helpers/app.ts';
import { description, lifecycleApp, type Posting, posting } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await lifecycleApp();
});
afterAll(async () => {
  await t?.close();
});

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

type Job = Record<string, unknown> & { id: string };

class Consumer {
  mirror = new Map<string, Job>();
  created = '1970-01-01T00:00:00Z';
  modified = '1970-01-01T00:00:00Z';
  expired = '1970-01-01T00:00:00Z';
  pages = 0;

  private async drain(
    path: string,
    param: string,
    from: string,
    limit: number,
    // biome-ignore lint/suspicious/noExplicitAny: response JSON is inspected freely in tests
    apply: (rows: any[]) => void,
  ) {
    let url = `${path}?${param}=${encodeURIComponent(from)}&limit=${limit}`;
    const first = url;
    for (;;) {
      const res = await t.get(url);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      this.pages++;
      apply(body.data);
      if (body.next_cursor === null) return;
      url = `${first}&cursor=${encodeURIComponent(body.next_cursor)}`;
    }
  }

  async poll() {
    await this.drain('/v1/jobs/feed', 'created_gte', this.created, 7, (rows: Job[]) => {
      for (const j of rows) {
        this.mirror.set(j.id, j);
        this.created = j.created_at as string;
      }
    });
    await this.drain('/v1/jobs/modified', 'modified_gte', this.modified, 5, (rows: Job[]) => {
      for (const j of rows) {
        this.mirror.set(j.id, j);
        this.modified = j.modified_at as string;
      }
    });
    await this.drain(
      '/v1/jobs/expired',
      'expired_gte',
      this.expired,
      4,
      (rows: { id: string; expired_at: string }[]) => {
        for (const r of rows) {
          expect(r.expired_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
          this.mirror.delete(r.id);
          this.expired = `${r.expired_at.replace(' ', 'T')}Z`;
        }
      },
    );
  }
}

describe('a mirror kept through the three feeds', () => {
  it('equals the live population after concurrent ingestion', async () => {
    const rnd = mulberry32(20260105);
    const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
    const current = new Map<string, Posting>(); // last record loaded per id
    let serial = 0;
    const fresh = (source: string): Posting => {
      serial++;
      return posting(source, `m${serial}`, {
        title: `Engineer M${serial}`,
        company: { name: `Mirror Co ${serial}`, domain: `mirror${serial}.example` },
        location: { raw: [pick(['Berlin, Germany', 'Paris, France', 'Madrid, Spain'])] },
        description_html: description(5000 + serial),
        board: `${source}/board${serial % 3}`,
        salary: { min: 50000 + serial, max: 70000 + serial, currency: 'EUR', unit: 'YEAR' },
      });
    };
    const copyOf = (o: Posting, source: string): Posting => ({
      ...o,
      id: `${source}:${o.id.split(':')[1]}`,
      source,
      url: `https://${source}.example/jobs/${o.id.split(':')[1]}`,
      board: undefined,
    });
    const load = async (recs: Posting[]) => {
      for (const r of recs) current.set(r.id, r);
      await ingestRecords(t.db, recs);
    };
    const liveIds = async () =>
      (await t.db.write.query<{ id: string }>('SELECT id FROM jobs WHERE state = 0 ORDER BY id')).rows.map(
        (r) => r.id,
      );
    const pending: Posting[] = []; // ATS originals whose jobboard copy is published first
    const originalsWithCopies: Posting[] = [];

    const ingestRound = async (round: number) => {
      // Inserts, some of them jobboard copies whose ATS original arrives next round.
      const inserts = Array.from({ length: 12 }, () =>
        fresh(pick(['greenhouse', 'lever', 'ashby', 'careerboard'])),
      );
      for (let i = 0; i < 3; i++) {
        const original = fresh('workday');
        pending.push(original);
        inserts.push(copyOf(original, pick(['careerboard', 'techjobs'])));
      }
      // Two writers commit at the same time.
      await Promise.all([load(inserts.slice(0, 8)), load(inserts.slice(8))]);
      // Originals of last round's published copies: they take over, the copies leave.
      const arriving = pending.splice(0, pending.length - 3);
      if (arriving.length) await load(arriving);
      // Originals loaded with copies that will be unfolded when the original expires.
      const fam = fresh('smartrecruiters');
      await load([fam, copyOf(fam, 'workhub'), copyOf(fam, 'jobmirror')]);
      originalsWithCopies.push(fam);
      // Modifications of tracked fields.
      const live = await liveIds();
      const mods = live.filter(() => rnd() < 0.25).slice(0, 10);
      const changed: Posting[] = [];
      for (const id of mods) {
        const p = current.get(id);
        if (!p) continue;
        const kind = Math.floor(rnd() * 3);
        changed.push(
          kind === 0
            ? { ...p, department: `Dept ${round}-${serial}` }
            : kind === 1
              ? { ...p, salary: { ...p.salary, max: (p.salary?.max ?? 90000) + 1000 } }
              : { ...p, apply_url: `${p.url}?apply=${round}` },
        );
      }
      await load(changed);
      // Expiries: reported gone, expires_at already past, expires_at passing (expiry schedule).
      const live2 = (await liveIds()).filter((id) => current.has(id));
      const gone = live2.filter(() => rnd() < 0.06);
      await load(gone.map((id) => ({ ...current.get(id)!, gone: true })));
      const past = live2.filter((id) => !gone.includes(id) && rnd() < 0.04);
      await load(past.map((id) => ({ ...current.get(id)!, expires_at: '2020-01-01T00:00:00Z' })));
      const due = live2.filter((id) => !gone.includes(id) && !past.includes(id) && rnd() < 0.04);
      await t.db.write.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = ANY($1)`, [
        due,
      ]);
      await expireDue(t.db);
      // A board fetched successfully no longer lists some of its postings.
      const board = `lever/board${round % 3}`;
      const onBoard = (
        await t.db.write.query<{ id: string }>('SELECT id FROM jobs WHERE board = $1 AND state = 0', [board])
      ).rows.map((r) => r.id);
      await expireMissingFromBoard(
        t.db,
        board,
        onBoard.filter(() => rnd() < 0.7),
      );
      // Originals with folded copies expire: the best copy comes back.
      if (originalsWithCopies.length > 1) {
        const o = originalsWithCopies.shift()!;
        await load([{ ...current.get(o.id)!, gone: true }]);
      }
      // Some postings reported gone come back unchanged.
      const back = gone.filter(() => rnd() < 0.5).map((id) => current.get(id)!);
      if (back.length) await load(back.map(({ gone: _g, ...p }) => p as Posting));
    };

    const consumer = new Consumer();
    // On a replica the consumer reads what has been replayed so far while the loads commit.
    t.db.lagging = true;
    for (let round = 0; round < 10; round++) {
      let done = false;
      const ingest = ingestRound(round).finally(() => {
        done = true;
      });
      const polls = (async () => {
        while (!done) await consumer.poll();
      })();
      await Promise.all([ingest, polls]);
    }
    t.db.lagging = false;
    await t.db.synced();
    await consumer.poll();

    const live = await liveIds();
    expect(live.length).toBeGreaterThan(50);
    expect([...consumer.mirror.keys()].sort()).toEqual(live);
    for (const id of live) {
      const res = await t.get(`/v1/jobs/${encodeURIComponent(id)}`);
      expect(res.statusCode).toBe(200);
      expect(consumer.mirror.get(id), id).toEqual(res.json());
    }
    // The scenario exercised what it claims to: folds, unfolds and every kind of expiry.
    const { rows } = await t.db.write.query(
      `SELECT count(*) FILTER (WHERE state = 2 AND expired_at IS NOT NULL)::int AS folded_published,
              count(*) FILTER (WHERE state = 2)::int AS folded,
              count(*) FILTER (WHERE state = 1)::int AS expired,
              count(*) FILTER (WHERE state = 0 AND source IN ('workhub', 'jobmirror'))::int AS unfolded
         FROM jobs`,
    );
    expect(rows[0].folded_published).toBeGreaterThan(0);
    expect(rows[0].folded).toBeGreaterThan(0);
    expect(rows[0].expired).toBeGreaterThan(5);
    expect(rows[0].unfolded).toBeGreaterThan(0);
    expect(consumer.pages).toBeGreaterThan(30);
  });
});
