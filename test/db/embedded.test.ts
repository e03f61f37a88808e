// The embedded cluster: a random superuser password kept in a private file, shared by every process
// on the same DATA_DIR, stopped by its last user, and the old fixed password rotated away.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  credentialsPath,
  EmbeddedError,
  HUGE_PAGES_ADVICE_FROM_BYTES,
  hugePagesNotice,
  LEGACY_PASSWORD,
  startEmbedded,
  urlOf,
} from '../../src/db/embedded.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-embedded-'));
  await fs.chmod(dir, 0o755);
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function login(url: string): Promise<string> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => {});
  try {
    await c.connect();
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? 'error';
  } finally {
    await c.end().catch(() => {});
  }
}

const running = () =>
  fs.stat(path.join(dir, 'pg', 'postmaster.pid')).then(
    () => true,
    () => false,
  );

describe('embedded PostgreSQL', () => {
  it('is initialised with a random password in a 0600 file, in a 0700 cluster directory', async () => {
    const a = await startEmbedded(dir, 56510);
    try {
      const creds = JSON.parse(await fs.readFile(credentialsPath(dir), 'utf8'));
      expect(creds.user).toBe('postgres');
      expect(creds.password).toMatch(/^[0-9a-f]{48}$/);
      expect((await fs.stat(credentialsPath(dir))).mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.join(dir, 'pg'))).mode & 0o777).toBe(0o700);
      expect(await login(a.url)).toBe('ok');
      // The fixed password of earlier versions, and no password at all, are refused.
      expect(await login(urlOf({ user: 'postgres', password: LEGACY_PASSWORD }, a.port))).toBe('28P01');
      expect(await login(`postgres://postgres@127.0.0.1:${a.port}/postgres`)).not.toBe('ok');
    } finally {
      await a.stop();
    }
    expect(await running()).toBe(false);
  });

  it('keeps the list of its cached blocks across a restart (autoprewarm)', async () => {
    const a = await startEmbedded(dir, 56510);
    try {
      const c = new pg.Client({ connectionString: a.url });
      await c.connect();
      const { rows } = await c.query('SHOW shared_preload_libraries');
      await c.end();
      expect(rows[0].shared_preload_libraries).toBe('pg_prewarm');
    } finally {
      await a.stop();
    }
    // Written at shutdown, read back at the next start.
    expect((await fs.stat(path.join(dir, 'pg', 'autoprewarm.blocks'))).size).toBeGreaterThan(0);
  });

  it('is joined by a second user and stopped only when the last one leaves', async () => {
    const a = await startEmbedded(dir, 56510);
    const b = await startEmbedded(dir, 56510);
    expect(a.startedHere).toBe(true);
    expect(b.startedHere).toBe(false);
    expect(b.port).toBe(a.port);
    await a.stop();
    expect(await running()).toBe(true);
    expect(await login(b.url)).toBe('ok');
    await b.stop();
    expect(await running()).toBe(false);
  });

  it('says how to put its shared memory in huge pages when the OS has none for it, once its data is large', async () => {
    const notices: string[] = [];
    const a = await startEmbedded(dir, 56510, (m) => notices.push(m));
    try {
      const c = new pg.Client({ connectionString: a.url });
      await c.connect();
      const { rows } = await c.query(
        `SELECT current_setting('huge_pages_status', true) AS status,
                current_setting('shared_memory_size_in_huge_pages', true)::int AS pages,
                (SELECT sum(pg_database_size(oid)) FROM pg_database)::bigint AS bytes`,
      );
      await c.end();
      const advice = notices.filter((m) => /huge pages/.test(m));
      // A fresh cluster holds a few MB: no advice, as on every start of the demo.
      expect(Number(rows[0].bytes)).toBeLessThan(HUGE_PAGES_ADVICE_FROM_BYTES);
      expect(advice).toEqual([]);
    } finally {
      await a.stop();
    }
    const large = HUGE_PAGES_ADVICE_FROM_BYTES;
    expect(hugePagesNotice('off', 3100, large)).toMatch(/vm\.nr_hugepages=3100\b/);
    expect(hugePagesNotice('off', 3100, large - 1)).toBeUndefined();
    expect(hugePagesNotice('on', 3100, large)).toBeUndefined();
    expect(hugePagesNotice(null, 0, large)).toBeUndefined();
  });

  it('rotates the fixed password of a cluster initialised by an earlier version, with a notice', async () => {
    const a = await startEmbedded(dir, 56510);
    const c = new pg.Client({ connectionString: a.url });
    await c.connect();
    await c.query(`ALTER ROLE postgres PASSWORD '${LEGACY_PASSWORD}'`);
    await c.end();
    await a.stop();
    await fs.rm(credentialsPath(dir));

    const notices: string[] = [];
    const b = await startEmbedded(dir, 56510, (m) => notices.push(m));
    try {
      const password = notices.filter((m) => /password/.test(m));
      expect(password).toHaveLength(1);
      expect(password[0]).toMatch(/fixed default superuser password was replaced .*credentials\.json/);
      expect((await fs.stat(credentialsPath(dir))).mode & 0o777).toBe(0o600);
      expect(await login(urlOf({ user: 'postgres', password: LEGACY_PASSWORD }, b.port))).toBe('28P01');
      expect(await login(b.url)).toBe('ok');
    } finally {
      await b.stop();
    }
  });

  it('names a credentials file that is not JSON, and how to recover', async () => {
    const a = await startEmbedded(dir, 56510);
    await a.stop();
    const saved = await fs.readFile(credentialsPath(dir), 'utf8');
    await fs.writeFile(credentialsPath(dir), '{"user": "postgres", "pass');
    try {
      const err = await startEmbedded(dir, 56510).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(EmbeddedError);
      expect((err as Error).message).toMatch(
        /credentials\.json is not \{"user": …, "password": …\}: restore it/,
      );
    } finally {
      await fs.writeFile(credentialsPath(dir), saved, { mode: 0o600 });
    }
  });
});
