// npm start as a user runs it: the embedded PostgreSQL under DATA_DIR, first start and second start.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ENTRY } from '../helpers/service-entry.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string;

interface Started {
  child: ChildProcess;
  base: string;
  stderr: () => string;
  /** Keys received as IPC messages (the only way a non-terminal gets the whole key). */
  keys: string[];
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
  child.on('message', (m: { type?: string; key?: string }) => {
    if (m?.type === 'demo-key' && m.key) keys.push(m.key);
  });
  child.stderr!.on('data', (c) => {
    err += String(c);
  });
  child.stdout!.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 90 s:\n${err}`)), 90_000);
    const check = () => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, base: m[1], stderr: () => err, keys, exited });
      }
    };
    child.stderr!.on('data', check);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${err}`));
    });
  });
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-start-'));
  await fs.chmod(dir, 0o755);
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
    LOG_LEVEL: 'warn',
  });

  it('on an empty data directory: creates the database, loads the demo, prints a key once, serves, stops on SIGTERM', async () => {
    const s = await start(env());
    const key = s.keys[0];
    expect(key).toMatch(/^jps_[0-9a-f]{48}$/);
    // stderr is not a terminal here (it could be a log file): the key is announced, not written out.
    expect(s.stderr()).toMatch(/created account "demo" with the API key jps_/);
    expect(s.stderr()).not.toContain(key.slice(4));
    expect(s.stderr()).not.toContain(key.slice(8, 30));
    const health = await (await fetch(`${s.base}/v1/health`)).json();
    expect(health.status).toBe('ok');
    expect(health.jobs).toBeGreaterThan(100);
    const jobs = await fetch(`${s.base}/v1/jobs?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(jobs.status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  });

  it('on an existing data directory: reuses the data and prints no new key', async () => {
    const s = await start(env());
    expect(s.stderr()).not.toMatch(/API key jps_/);
    expect(s.keys).toEqual([]);
    expect(s.stderr()).not.toMatch(/generating the demo dataset/);
    const health = await (await fetch(`${s.base}/v1/health`)).json();
    expect(health.jobs).toBeGreaterThan(100);
    s.child.kill('SIGINT');
    expect(await s.exited).toBe(0);
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
