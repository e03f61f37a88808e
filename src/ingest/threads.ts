// A worker thread running one module of this code base: compiled (dist/), the entry is plain JavaScript;
// from the sources it is loaded through tsx's API, with no inherited loader flags (on Node 20 `--import
// tsx` does not apply to a worker's entry module). This also works under a test runner.
import { Worker } from 'node:worker_threads';

/** `entry`: the module's URL as seen from `from` (an import.meta.url), without its extension. */
export function startModuleThread(from: string, entry: string, workerData?: unknown): Worker {
  const compiled = from.endsWith('.js');
  const entryUrl = new URL(`${entry}${compiled ? '.js' : '.ts'}`, from);
  if (compiled) return new Worker(entryUrl, { execArgv: [], workerData });
  const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const href = JSON.stringify(entryUrl.href);
  return new Worker(`import(${api}).then(({ tsImport }) => tsImport(${href}, ${href}))`, {
    eval: true,
    execArgv: [],
    workerData,
  });
}
