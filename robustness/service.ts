// The service under test as a real process tree (`dist/main.js`, as `npm start` runs it, primary + workers), with its logs in files.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What `npm start` runs, compiled by `buildService`. */
export const SERVICE_ENTRY = path.join(ROOT, 'dist/main.js');

export function buildService(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
}

export interface Service {
  child: ChildProcess;
  key: string;
  port: number;
  /** Everything the process tree wrote (stdout: the pino log; stderr: operator messages). */
  stdoutFile: string;
  stderrFile: string;
  stderr(): string;
  workerPids(): number[];
  exited: Promise<number | null>;
}

export function childrenOf(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

export async function waitFor<T>(what: string, fn: () => T | undefined | false, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts `npm start`'s entry with `env`; resolves once every worker listens and the key arrived. */
export async function startService(
  dir: string,
  name: string,
  env: Record<string, string>,
  key?: string,
): Promise<Service> {
  const stdoutFile = path.join(dir, `${name}.stdout.log`);
  const stderrFile = path.join(dir, `${name}.stderr.log`);
  const out = fs.openSync(stdoutFile, 'a');
  const err = fs.openSync(stderrFile, 'a');
  const child = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, err, 'ipc'],
  });
  fs.closeSync(out);
  fs.closeSync(err);
  let demoKey = key;
  child.on('message', (m: { type?: string; key?: string }) => {
    if (m?.type === 'demo-key' && m.key) demoKey = m.key;
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const stderr = () => fs.readFileSync(stderrFile, 'utf8');
  let dead = false;
  void exited.then(() => {
    dead = true;
  });
  await waitFor(
    `${name} to listen`,
    () => {
      if (dead) throw new Error(`${name} exited during start-up:\n${stderr().slice(-2000)}`);
      return /listening on/.test(stderr());
    },
    240_000,
  );
  if (!demoKey) throw new Error('no demo key was sent over IPC (the database already had one?)');
  return {
    child,
    key: demoKey,
    port: Number(env.PORT),
    stdoutFile,
    stderrFile,
    stderr,
    workerPids: () => childrenOf(child.pid!),
    exited,
  };
}
