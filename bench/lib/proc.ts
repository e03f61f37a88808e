// Child processes: the project's CLI, the service, the baseline server; memory of a process tree.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
const say = (msg: string) => process.stderr.write(`${msg}\n`);

/** Runs a script with Node: TypeScript through tsx, compiled JavaScript (the service) as it is. */
export function spawnTs(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  nodeFlags: string[] = [],
): ChildProcess {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  return spawn(process.execPath, [...nodeFlags, ...loader, path.resolve(ROOT, script), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const scripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** The Node flags of `npm run cli` (its heap cap, package.json), so that commands run as users run them. */
export const CLI_NODE_FLAGS: string[] = scripts.cli.split(' ').filter((f) => f.startsWith('--max-'));

/**
 * The service's entry as `npm start` runs it, the Node flags it runs it with and the environment it sets
 * (glibc's allocator variables), from package.json.
 */
export const SERVICE_ENTRY = 'dist/main.js';
const startWords = scripts.start.split('&&').at(-1)!.trim().split(/\s+/);
export const SERVICE_NODE_FLAGS: string[] = startWords.filter((f) => f.startsWith('--'));
export const SERVICE_ENV: Record<string, string> = Object.fromEntries(
  startWords
    .filter((w) => /^[A-Z_]+=/.test(w))
    .map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
);

/** Compiles the service as `npm start` does; its entry is then `dist/main.js`. */
export function buildService(): void {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
}

/** A child's stdout and stderr once it has exited, and its exit code (1 when killed by a signal). */
export async function finished(
  child: ChildProcess,
  echo = false,
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  child.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
    if (echo) process.stderr.write(b);
  });
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  return { code, out, err };
}

/** Runs an operator command (`npm run cli -- …`) to completion; stdout is returned, stderr passed through. */
export async function cli(args: string[], env: NodeJS.ProcessEnv, echo = true): Promise<string> {
  const { code, out, err } = await finished(spawnTs('src/cli/index.ts', args, env, CLI_NODE_FLAGS), echo);
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited with ${code}\n${err.slice(-2000)}`);
  return out;
}

export { freePort } from '../../src/db/embedded.ts';

export interface Server {
  child: ChildProcess;
  base: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts a server process and waits until `readyPath` answers (any status below 500). */
export async function startServer(
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  readyPath: string,
  timeoutMs = 120_000,
): Promise<Server> {
  const service = script === SERVICE_ENTRY;
  const child = spawnTs(
    script,
    args,
    service ? { ...SERVICE_ENV, ...env } : env,
    service ? SERVICE_NODE_FLAGS : [],
  );
  let errText = '';
  child.stderr!.on('data', (b: Buffer) => {
    errText += b.toString();
    if (errText.length > 200_000) errText = errText.slice(-100_000);
  });
  child.stdout!.on('data', () => {});
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    if (exited) throw new Error(`${name} exited during start-up:\n${errText.slice(-3000)}`);
    if (Date.now() - started > timeoutMs) {
      child.kill('SIGTERM');
      throw new Error(`${name} did not answer on ${base}${readyPath} within ${timeoutMs / 1000}s`);
    }
    try {
      const res = await fetch(base + readyPath);
      await res.arrayBuffer();
      if (res.status < 500) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  say(`${name} listening on ${base} (pid ${child.pid})`);
  return {
    child,
    base,
    stderr: () => errText,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** The pid and its descendants (cluster workers). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const ppid = parentPid(Number(d));
    if (ppid === 0) continue; // exited meanwhile (or the kernel's own)
    const list = children.get(ppid) ?? [];
    list.push(Number(d));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    out.push(p);
    stack.push(...(children.get(p) ?? []));
  }
  return out;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The parent of a process (0 when it cannot be read). */
function parentPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** A process's proportional set size in kB: each page it shares with n processes counts 1/n (0 if unreadable). */
function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * The memory of the local PostgreSQL server that `backendPid` serves from, at one moment: the
 * proportional set size summed over its postmaster and every process under it, so a page of shared
 * buffers mapped by many backends counts once. Shared memory in huge pages is not in it (the kernel
 * accounts it apart). Undefined when the processes cannot be read (another user's, without root).
 */
export function postgresMemory(backendPid: number): { processes: number; pss_mb: number } | undefined {
  const postmaster = parentPid(backendPid);
  if (postmaster <= 1) return undefined; // not a backend of this machine's server
  const pids = processTree(postmaster);
  const kb = pids.reduce((sum, p) => sum + pssKb(p), 0);
  return kb > 0 ? { processes: pids.length, pss_mb: Math.round(kb / 1024) } : undefined;
}

/**
 * Samples the resident memory of a process tree twice a second. `peakTreeMb` is the largest sum of VmRSS
 * over the tree seen in a sample; `peakProcessMb` the largest VmHWM (the kernel's own high-water mark) of
 * any one process of the tree, read at every sample so an exited worker is not lost; `end_process_rss_mb`
 * each process's VmRSS at the last sample.
 */
export function rssSampler(pid: number) {
  let peakTree = 0;
  let lastTree = 0;
  let peakProcess = 0;
  let processes = 0;
  let lastEach: number[] = [];
  const sample = () => {
    const pids = processTree(pid);
    processes = Math.max(processes, pids.length);
    let sum = 0;
    const each: number[] = [];
    for (const p of pids) {
      const kb = statusKb(p, 'VmRSS');
      each.push(kb);
      sum += kb;
      peakProcess = Math.max(peakProcess, statusKb(p, 'VmHWM'));
    }
    lastTree = sum;
    lastEach = each;
    peakTree = Math.max(peakTree, sum);
  };
  sample();
  const timer = setInterval(sample, 500);
  timer.unref();
  return {
    stop() {
      sample();
      clearInterval(timer);
      // The proportional set size at the end: the node binary's text and the shared libraries, which
      // VmRSS counts once in every process (about 40 MB each), count once over the tree.
      const pss = processTree(pid).reduce((sum, p) => sum + pssKb(p), 0);
      return {
        peak_tree_rss_mb: Math.round(peakTree / 1024),
        end_tree_rss_mb: Math.round(lastTree / 1024),
        end_tree_pss_mb: Math.round(pss / 1024),
        // The root (the service's primary) first, then its children: where the end's memory is.
        end_process_rss_mb: lastEach.map((kb) => Math.round(kb / 1024)),
        peak_process_hwm_mb: Math.round(peakProcess / 1024),
        processes,
      };
    },
  };
}
