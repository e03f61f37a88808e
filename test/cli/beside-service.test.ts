// Every operator command run as a user runs it (a separate process, the embedded default, the same
// DATA_DIR) beside a running service, and alone; every failure is one line with its exit code.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE } from '../helpers/app.ts';
import { SERVICE_ENTRY } from '../helpers/service-entry.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
let service: { child: ChildProcess; base: string; exited: Promise<number | null> } | undefined;

function baseEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATABASE_READ_URL;
  delete env.REDIS_URL;
  return { ...env, DATA_DIR: dir, EMBEDDED_PG_PORT: '56520', LOG_LEVEL: 'warn', ...extra };
}

function cli(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    env: baseEnv(extra),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => {
    out += String(c);
  });
  child.stderr.on('data', (c) => {
    err += String(c);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

function startService(): Promise<NonNullable<typeof service>> {
  const child = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: baseEnv({ PORT: '0', WORKERS: '1', DEMO_JOBS: '200' }),
  });
  let err = '';
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${err}`)), 90_000);
    child.stderr.on('data', (c) => {
      err += String(c);
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1], exited });
      }
    });
    exited.then((code) => reject(new Error(`exited with ${code}:\n${err}`)));
  });
}

const clusterRuns = () =>
  fs.stat(path.join(dir, 'pg', 'postmaster.pid')).then(
    () => true,
    () => false,
  );

/** One line on stderr, no stack trace, no bare `undefined`. */
function oneLine(err: string) {
  const lines = err.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(err).not.toMatch(/\n\s+at |triggerUncaughtException|^undefined$/m);
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-beside-'));
  await fs.chmod(dir, 0o755);
  service = await startService();
});
afterAll(async () => {
  if (service?.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await fs.rm(dir, { recursive: true, force: true });
});

describe('commands beside the running service (embedded default, same DATA_DIR)', () => {
  it('a key created beside the service works on the next request; revoked, it is refused on the next one', async () => {
    const created = await cli(['keys', 'create', '--account', 'me']);
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^jps_[0-9a-f]{48}$/);
    const get = () =>
      fetch(`${service!.base}/v1/jobs?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect((await get()).status).toBe(200);
    const listed = await cli(['keys', 'list', '--account', 'me']);
    expect(listed.code).toBe(0);
    const id = JSON.parse(listed.out.trim().split('\n')[0]).id;
    expect((await cli(['keys', 'revoke', String(id)])).code).toBe(0);
    expect((await get()).status).toBe(401);
  });

  it('two commands at once, and ingest, stats, migrate and accounts, all beside the service', async () => {
    const [accounts, stats] = await Promise.all([cli(['accounts', 'list']), cli(['stats'])]);
    expect(accounts.code).toBe(0);
    expect(accounts.out).toContain('"name":"demo"');
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.out.split('\n')[0]).source).toBe('(all)');
    const ingest = await cli(['ingest', '--quiet', SAMPLE]);
    expect(ingest.code).toBe(3); // the sample holds rejected lines on purpose
    expect(JSON.parse(ingest.out).inserted).toBeGreaterThan(0);
    expect((await cli(['migrate'])).code).toBe(0);
    const health = await (await fetch(`${service!.base}/v1/health`)).json();
    expect(health.status).toBe('ok');
    expect(await clusterRuns()).toBe(true);
  });

  it('the service stops the cluster when it leaves last; a command alone starts and stops its own', async () => {
    service!.child.kill('SIGTERM');
    expect(await service!.exited).toBe(0);
    expect(await clusterRuns()).toBe(false);
    const alone = await cli(['accounts', 'list']);
    expect(alone.code).toBe(0);
    expect(alone.out).toContain('"name":"me"');
    expect(await clusterRuns()).toBe(false);
  });
});

describe('failures are one line with a documented exit code', () => {
  it('unknown command, subcommand and option: 2', async () => {
    for (const args of [
      ['frobnicate'],
      ['keys', 'rotate'],
      ['accounts', 'list', '--verbose'],
      ['stats', '--json'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      oneLine(r.err);
    }
  });

  it('an unreachable DATABASE_URL: 5; an invalid setting: 7; an unreadable file: 6', async () => {
    const db = await cli(['accounts', 'list'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(db.code).toBe(5);
    oneLine(db.err);
    expect(db.err).toMatch(/cannot use the database at 127\.0\.0\.1:1\/none: .*DATABASE_URL/);
    const bad = await cli(['stats'], { POOL_MAX: 'many' });
    expect(bad.code).toBe(7);
    oneLine(bad.err);
    expect(bad.err).toMatch(/invalid setting POOL_MAX="many"/);
    const missing = await cli(['ingest', path.join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(6);
    oneLine(missing.err);
  });

  it('a cluster locked by a process that is not PostgreSQL: 5, naming the lock file', async () => {
    const lock = path.join(dir, 'pg', 'postmaster.pid');
    await fs.writeFile(lock, `${process.pid}\n${path.join(dir, 'pg')}\n0\n56520\n\n127.0.0.1\n0 0\nready\n`);
    try {
      const r = await cli(['accounts', 'list']);
      expect(r.code).toBe(5);
      oneLine(r.err);
      expect(r.err).toContain('postmaster.pid');
      expect(r.err).toMatch(/remove that file/);
    } finally {
      await fs.rm(lock, { force: true });
    }
  });
});
