// The sync example (examples/sync/mirror.ts) as its users run it: a separate process polling a
// listening service over HTTP with the typed client while change rounds load, killed and restarted
// in the middle. Once caught up, its stored mirror equals the live population, row for row.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadState } from '../../examples/sync/mirror.ts';
import { expireDue } from '../../src/ingest/expiry.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import type { TestApp } from '../helpers/app.ts';
import { description, lifecycleApp, type Posting, posting } from '../lifecycle/helpers.ts';

const PROGRAM = path.resolve('examples/sync/mirror.ts');

let t: TestApp;
let base: string;
let dir: string;
beforeAll(async () => {
  t = await lifecycleApp();
  await t.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.fastify.server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), 'jps-sync-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  done: Promise<number | null>;
  /** Resolves once the program has finished n passes over the three feeds. */
  passes(n: number): Promise<void>;
}

function run(file: string, args: string[]): Run {
  // node itself (not the tsx wrapper), so that a kill reaches the program.
  const child = spawn(process.execPath, ['--import', 'tsx', PROGRAM, ...args], {
    env: { ...process.env, JPS_URL: base, JPS_KEY: t.key, MIRROR_FILE: file },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err += d;
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  const passes = async (n: number) => {
    for (let i = 0; i < 600 && (out.match(/ mirror: /g) ?? []).length < n; i++) {
      if (child.exitCode !== null) throw new Error(`the sync example exited: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((out.match(/ mirror: /g) ?? []).length).toBeGreaterThanOrEqual(n);
  };
  const done = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      if (code && err) process.stderr.write(`sync example exited ${code}: ${err}\n`);
      resolve(code);
    }),
  );
  return { child, done, passes };
}

describe('the sync example', () => {
  it('keeps a mirror equal to the live population across change rounds and a restart', async () => {
    const file = path.join(dir, 'mirror.json');
    const current = new Map<string, Posting>();
    let serial = 0;
    const fresh = (source: string): Posting => {
      serial++;
      return posting(source, `s${serial}`, {
        title: `Engineer S${serial}`,
        company: { name: `Sync Co ${serial % 7}`, domain: `sync${serial % 7}.example` },
        description_html: description(9000 + serial),
        salary: { min: 40000 + serial, max: 60000 + serial, currency: 'EUR', unit: 'YEAR' },
      });
    };
    const load = async (recs: Posting[]) => {
      for (const r of recs) current.set(r.id, r);
      await ingestRecords(t.db, recs);
    };
    const live = async () =>
      (await t.db.write.query<{ id: string }>('SELECT id FROM jobs WHERE state = 0 ORDER BY id')).rows.map(
        (r) => r.id,
      );
    const round = async (n: number) => {
      await load(Array.from({ length: 15 }, () => fresh(n % 2 ? 'greenhouse' : 'lever')));
      const ids = (await live()).filter((id) => current.has(id));
      // Changes of tracked fields, postings reported gone, one already past its expiry, one due now.
      await load(ids.slice(0, 4).map((id) => ({ ...current.get(id)!, department: `Dept ${n}` })));
      const gone = ids.slice(4, 7);
      await load(gone.map((id) => ({ ...current.get(id)!, gone: true })));
      await load(ids.slice(7, 8).map((id) => ({ ...current.get(id)!, expires_at: '2020-01-01T00:00:00Z' })));
      await t.db.write.query(`UPDATE jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [
        ids[8],
      ]);
      await expireDue(t.db);
      // One posting reported gone comes back.
      const { gone: _g, ...back } = current.get(gone[0])!;
      await load([back as Posting]);
    };

    await round(0);
    const first = run(file, ['--interval=0.2']);
    await round(1);
    await round(2);
    // It has mirrored something before the crash, so the restart resumes rather than starts over.
    await first.passes(1);
    expect(Object.keys(loadState(file).jobs).length).toBeGreaterThan(10);
    first.child.kill('SIGKILL'); // a crash: the stored state is all that survives
    await first.done;
    const second = run(file, ['--interval=0.2']);
    await round(3);
    await second.passes(1);
    await round(4);
    second.child.kill('SIGKILL');
    await second.done;
    const resumed = loadState(file);
    expect(resumed.created_gte > '2000').toBe(true);
    expect(resumed.expired_gte > '2000').toBe(true);
    // Restarted once more, it catches up and exits.
    expect(await run(file, ['--once']).done).toBe(0);

    const ids = await live();
    expect(ids.length).toBeGreaterThan(40);
    const mirror = loadState(file).jobs;
    expect(Object.keys(mirror).sort()).toEqual(ids);
    for (const id of ids) {
      const res = await t.get(`/v1/jobs/${encodeURIComponent(id)}`);
      expect(mirror[id], id).toEqual(res.json());
    }
    const { rows } = await t.db.write.query('SELECT count(*)::int AS n FROM jobs WHERE state = 1');
    expect(rows[0].n).toBeGreaterThan(8);
  }, 120_000);
});
