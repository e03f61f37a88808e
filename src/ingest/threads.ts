// A module of this code base run apart from the calling one, on a worker thread or in a child process:
// compiled (dist/), the entry is plain JavaScript; from the sources it is loaded through tsx's API, with
// no inherited loader flags (on Node 20 `--import tsx` does not apply to a worker's entry module). This
// also works under a test runner.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** `entry`: the module's URL as seen from `from` (an import.meta.url), without its extension. */
function resolveEntry(from: string, entry: string): { url: URL; compiled: boolean; loader: string } {
  const compiled = from.endsWith('.js');
  const url = new URL(`${entry}${compiled ? '.js' : '.ts'}`, from);
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const href = JSON.stringify(url.href);
  return { url, compiled, loader: `import(${api}).then(({ tsImport }) => tsImport(${href}, ${href}))` };
}

export function startModuleThread(from: string, entry: string, workerData?: unknown): Worker {
  const e = resolveEntry(from, entry);
  if (e.compiled) return new Worker(e.url, { execArgv: [], workerData });
  return new Worker(e.loader, { eval: true, execArgv: [], workerData });
}

/** The module in a child process of its own, with `env` added to this one's; stdout and stderr are piped. */
export function startModuleProcess(from: string, entry: string, env: Record<string, string>): ChildProcess {
  const e = resolveEntry(from, entry);
  const args = e.compiled ? [fileURLToPath(e.url)] : ['--input-type=module', '-e', e.loader];
  return spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
