// npm start as a user runs it: the embedded PostgreSQL under DATA_DIR, first start and second start;
// the banner's and the README's commands run as pasted; SIGHUP stops the service and its database.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ENTRY } from '../helpers/service-entry.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;
/** Services started and not yet exited: a failed test's is stopped before the next starts. */
const running = new Set<ChildProcess>();

interface Started {
  child: ChildProcess;
  base: string;
  stderr: () => string;
  /** Keys received as IPC messages (the only way a non-terminal gets the whole key). */
  keys: string[];
  /**
   * The first key's message: `process.send` is asynchronous and stderr is not, so it may arrive after
   * the banner. Undefined if none came within 10 s of asking.
   */
  firstKey: () => Promise<string | undefined>;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Promise<Started> {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env };
  delete childEnv.DATABASE_URL;
  delete childEnv.REDIS_URL;
  const child = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let err = '';
  const keys: string[] = [];
  let keyArrived: (key: string) => void = () => {};
  const arrived = new Promise<string>((resolve) => {
    keyArrived = resolve;
  });
  const firstKey = () =>
    Promise.race([
      arrived,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref()),
    ]);
  child.on('message', (m: { type?: string; key?: string }) => {
    if (m?.type === 'demo-key' && m.key) {
      keys.push(m.key);
      keyArrived(m.key);
    }
  });
  running.add(child);
  child.stderr!.on('data', (c) => {
    err += String(c);
  });
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${err}`)), 90_000);
    const check = () => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1], stderr: () => err, keys, firstKey, exited });
      }
    };
    child.stderr!.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${err}`));
    });
  });
}

/** Runs shell lines as a user pastes them: bash, in the checkout, with the service's DATA_DIR. */
function sh(lines: string[]): string {
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dir };
  delete env.DATABASE_URL;
  return execFileSync('bash', ['-ec', lines.join('\n')], { cwd: ROOT, env, encoding: 'utf8', stdio: 'pipe' });
}

/** Pasted lines whose last one is a curl: its HTTP status and body. */
function paste(lines: string[]): { status: number; body: string } {
  const curl = lines.at(-1)!.replace(/^\s*curl /, `curl -sS -w '\\n%{http_code}' `);
  const out = sh([...lines.slice(0, -1), curl]);
  const at = out.lastIndexOf('\n');
  return { status: Number(out.slice(at + 1)), body: out.slice(0, at) };
}

const postmasterRunning = () =>
  fs.stat(path.join(dir, 'pg', 'postmaster.pid')).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-start-'));
  await fs.chmod(dir, 0o755);
});
afterEach(async () => {
  await Promise.all(
    [...running].map((child) => {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return gone;
    }),
  );
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  const env = () => ({
    DATA_DIR: dir,
    PORT: '0',
    WORKERS: '1',
    DEMO_JOBS: '300',
    EMBEDDED_PG_PORT: '56432',
    LOG_LEVEL: 'info',
  });

  it('on an empty data directory: creates the database, loads the demo, prints a key once, serves, stops on SIGTERM', async () => {
    const s = await start(env());
    const key = (await s.firstKey())!;
    expect(key).toMatch(/^jps_[0-9a-f]{48}$/);
    // stderr is not a terminal here (it could be a log file): the key is announced, not written out.
    expect(s.stderr()).toMatch(/created account "demo" with an API key, written out only on a terminal/);
    expect(s.stderr()).not.toContain(key.slice(4, 12));
    expect(s.stderr()).not.toMatch(/shown once|keep it/);
    // Advice for large data only: a demo start says nothing of huge pages.
    expect(s.stderr()).not.toMatch(/nr_hugepages/);
    const health = await (await fetch(`${s.base}/v1/health`)).json();
    expect(health.status).toBe('ok');
    expect(health.jobs).toBeGreaterThan(100);
    // The demo line says how many of the postings loaded are live, as health counts them.
    const demo =
      /demo dataset loaded: (\d+) postings, (\d+) live \((\d+) folded into the posting they repeat, (\d+) expired\)/.exec(
        s.stderr(),
      );
    expect(demo, s.stderr()).not.toBeNull();
    const [stored, live, folded, expired] = demo!.slice(1).map(Number);
    expect(live).toBe(health.jobs);
    expect(stored).toBe(live + folded + expired);
    expect(folded + expired).toBeGreaterThan(0);
    // The banner's lines, pasted as they are, make a key and get jobs with it.
    const banner = s.stderr().split('\n');
    const makeKey = banner.find((l) => /^ {2}KEY=/.test(l));
    const curl = banner.find((l) => /^ {2}curl /.test(l));
    expect(makeKey).toBe('  KEY=$(npm run -s cli -- keys create --account demo)');
    expect(curl).toContain('"Authorization: Bearer $KEY"');
    const pasted = paste([makeKey!, curl!]);
    expect(pasted.status, pasted.body).toBe(200);
    expect(JSON.parse(pasted.body).data).toHaveLength(2);
    const jobs = await fetch(`${s.base}/v1/jobs?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(jobs.status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });

  it('on an existing data directory: reuses the data and prints no new key', async () => {
    const s = await start(env());
    expect(s.stderr()).not.toMatch(/API key/);
    expect(s.keys).toEqual([]);
    expect(s.stderr()).not.toMatch(/generating the demo dataset/);
    const health = await (await fetch(`${s.base}/v1/health`)).json();
    expect(health.jobs).toBeGreaterThan(100);
    // The README's lines, as written there (its address replaced by this service's): the key alone on
    // stdout, then a search with it.
    const readme = await fs.readFile(path.join(ROOT, 'README.md'), 'utf8');
    const makeKey = readme.split('\n').find((l) => l.startsWith('KEY=$(npm run'));
    const curl = readme.split('\n').find((l) => l.startsWith('curl -H "Authorization: Bearer $KEY"'));
    expect(makeKey).toBe('KEY=$(npm run -s cli -- keys create --account demo)');
    const key = sh([makeKey!, 'printf %s "$KEY"']);
    expect(key).toMatch(/^jps_[0-9a-f]{48}$/);
    const pasted = paste([makeKey!, curl!.replace('http://127.0.0.1:8080', s.base)]);
    expect(pasted.status, pasted.body).toBe(200);
    expect(JSON.parse(pasted.body).data.length).toBeGreaterThan(0);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
    // Checked again at the end: a key's message may trail the banner.
    expect(s.keys).toEqual([]);
  });

  it('SIGHUP (the terminal closing) stops the service and the embedded database', async () => {
    const s = await start(env());
    expect(await postmasterRunning()).toBe(true);
    s.child.kill('SIGHUP');
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toMatch(/SIGHUP: draining requests and stopping/);
    expect(await postmasterRunning()).toBe(false);
  });

  it('stops with a message naming a bad setting', async () => {
    const childEnv: Record<string, string | undefined> = { ...process.env, PORT: 'eighty' };
    const child = spawn(process.execPath, [SERVICE_ENTRY], { cwd: ROOT, env: childEnv });
    let err = '';
    child.stderr.on('data', (c) => {
      err += String(c);
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/invalid setting PORT="eighty"/);
  });
});
