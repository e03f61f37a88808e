// Runs limiter-worker.ts in parallel child processes (node --import tsx) and collects their counts.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./limiter-worker.ts', import.meta.url));

export interface WorkerCounts {
  admitted: number;
  rate: number;
  quota: number;
}

/** Starts one child per env, lets them all go at once when all are ready, returns their counts. */
export async function runWorkers(envs: Record<string, string>[]): Promise<WorkerCounts[]> {
  const children = envs.map((env) =>
    spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  const outputs = children.map((child) => {
    let out = '';
    let err = '';
    let readyResolve: () => void;
    const ready = new Promise<void>((r) => {
      readyResolve = r;
    });
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('ready\n')) readyResolve();
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    const done = new Promise<WorkerCounts>((resolve, reject) => {
      child.on('exit', (code) => {
        if (code !== 0) return reject(new Error(`limiter worker exited with ${code}: ${err}`));
        const last = out.trim().split('\n').pop()!;
        resolve(JSON.parse(last) as WorkerCounts);
      });
    });
    return { ready: Promise.race([ready, done.then(() => {})]), done };
  });
  await Promise.all(outputs.map((o) => o.ready));
  for (const child of children) child.stdin.write('go\n');
  return Promise.all(outputs.map((o) => o.done));
}
