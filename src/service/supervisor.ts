// Keeps WORKERS HTTP worker processes alive (node:cluster). A worker that dies is forked again and the
// event logged; replacements that keep dying are spaced out with exponential backoff; when no worker
// manages to serve at all the supervisor gives up, so that whatever runs the primary sees it fail
// instead of a live process behind a port nobody listens on.
import cluster, { type Worker } from 'node:cluster';
import v8 from 'node:v8';
import { closeUntakenOnDeath } from './handoffs.ts';

export interface SupervisorOptions {
  workers: number;
  env: NodeJS.ProcessEnv;
  log: (msg: string) => void;
  /** Called once, when every first-generation worker is listening. */
  onReady?: () => void;
  /** Called when a replacement worker is listening. */
  onReplaced?: (pid: number) => void;
  /** Called when the service cannot serve: no worker listening and replacements failing. */
  onGiveUp: (reason: string) => void;
  /** Deaths within `windowMs` beyond `workers` start the backoff. */
  windowMs?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Consecutive workers that die before listening, while none is listening, before giving up. */
  maxFailedStarts?: number;
}

export interface Supervisor {
  /** Live workers (forked and not exited). */
  readonly size: number;
  /** Workers forked as replacements so far. */
  readonly restarts: number;
  /** SIGTERM to every worker; resolves when all have exited. No replacement is forked after this. */
  stop(): Promise<void>;
}

/**
 * Keeps this process's young generation at V8's initial size (1 MB semi-spaces): for a primary whose
 * workers serve HTTP. What it allocates per request (IPC messages, typed arrays whose bytes live outside
 * V8's heap) dies young; left alone, V8 grows the young generation to its largest (16 MB semi-spaces, 64
 * under `npm run cli -- serve`) while the primary reads the match index at start, and keeps it, resident
 * and unused. V8 reads the growth factor each time it would grow the young generation, so setting it at run
 * time, before any growth, holds it. At a million live jobs, after 20 s of the varied mix: the primary's
 * RSS 401 → 346 MB at the same CPU time (bench/README.md, "The primary's young generation…").
 */
export function keepYoungGenerationSmall(): void {
  v8.setFlagsFromString('--semi-space-growth-factor=1');
}

/** Whether a Node flag sizes V8's young generation (`--max-semi-space-size`, dashes or underscores). */
export const isSemiSpaceFlag = (flag: string): boolean => /^--max[-_]semi[-_]space[-_]size/.test(flag);

/** V8's young generation per worker: semi-spaces of 8 MB instead of 16 (see the function below). */
const WORKER_SEMI_SPACE = '--max-semi-space-size=8';

/**
 * The Node flags of a worker: the primary's, plus a smaller young generation unless one was chosen
 * (flags or NODE_OPTIONS). A request's garbage is short-lived: with the smaller young generation the
 * service's peak memory under the benchmark fell by about 47 MB over three processes at the same throughput
 * (bench/README.md, "The workers' young generation").
 */
export function workerExecArgv(execArgv: readonly string[], nodeOptions = ''): string[] {
  const chosen = [...execArgv, ...nodeOptions.split(/\s+/)].some(isSemiSpaceFlag);
  return chosen ? [...execArgv] : [...execArgv, WORKER_SEMI_SPACE];
}

/**
 * glibc's allocator settings of a worker, unless the operator chose them. glibc returns freed memory to
 * the system only from the top of its heap; blocks freed below it stay resident. A worker's buffers
 * (socket reads of 64 kB, response bodies of ~100 kB, feed pages of megabytes) are freed by the garbage
 * collector in no particular order, so blocks above a threshold are mapped and unmapped on their own.
 * From 68 kB: every socket read (Node allocates 64 kB for each) is then served from the heap. From 32 kB
 * each read was a mapping of its own, its pages faulted in and unmapped again, and on a virtual machine
 * whose page faults are slow that halved the varied mix (200k postings: 93–107 against 190–274 requests/s,
 * the workers' system time 5 s → 1.5 s each over 20 s), for a heap ~20 MB smaller per worker
 * (bench/README.md). Free memory above 1 MB at the top of the heap is returned. Other C libraries ignore
 * these variables. `npm start` sets the same for the process it starts, which serves HTTP itself up to
 * two cores: at a million live jobs it ended the varied mix and a feed drain at 466–496 MB against 535–538
 * (bench/README.md, "A ninth machine…"); glibc reads them only at start, so it cannot set them itself.
 */
export const WORKER_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_MMAP_THRESHOLD_: '69632',
  MALLOC_TRIM_THRESHOLD_: '1048576',
};

/** The environment a worker is forked with, beyond the primary's: `extra`, and the allocator's settings. */
export function workerEnv(primaryEnv: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const malloc = Object.entries(WORKER_MALLOC_ENV).filter(([k]) => primaryEnv[k] === undefined);
  return { ...Object.fromEntries(malloc), ...extra };
}

export function superviseWorkers(opts: SupervisorOptions): Supervisor {
  cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });
  const env = workerEnv(process.env, opts.env);
  const windowMs = opts.windowMs ?? 30_000;
  const baseDelayMs = opts.baseDelayMs ?? 500;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  const maxFailedStarts = opts.maxFailedStarts ?? 5;
  const live = new Set<Worker>();
  const listening = new Set<Worker>();
  const deaths: number[] = [];
  let failedStarts = 0;
  let restarts = 0;
  let initialReady = 0;
  let stopping = false;
  let pending = 0;

  const fork = (replacement = false) => {
    const w = cluster.fork(env);
    const closedOnDeath = closeUntakenOnDeath(w);
    live.add(w);
    w.on('message', (m) => {
      if (m !== 'ready') return;
      listening.add(w);
      failedStarts = 0;
      if (replacement) opts.onReplaced?.(w.process.pid!);
      else if (++initialReady === opts.workers) opts.onReady?.();
    });
    w.on('exit', (code, signal) => {
      live.delete(w);
      const wasListening = listening.delete(w);
      if (stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!wasListening) failedStarts++;
      if (listening.size === 0 && failedStarts >= maxFailedStarts) {
        stopping = true;
        opts.onGiveUp(`${failedStarts} workers in a row died before listening (last: ${how})`);
        return;
      }
      const now = Date.now();
      deaths.push(now);
      while (deaths.length && now - deaths[0] > windowMs) deaths.shift();
      const excess = Math.max(0, deaths.length - opts.workers);
      const delay = excess === 0 ? 0 : Math.min(maxDelayMs, baseDelayMs * 2 ** (excess - 1));
      const closed = closedOnDeath();
      const lost = closed
        ? `; ${closed} connection${closed > 1 ? 's' : ''} handed to it closed for the client to retry`
        : '';
      opts.log(
        `worker ${w.process.pid} exited (${how})${lost}; starting a replacement${delay ? ` in ${delay} ms (${deaths.length} exits in ${windowMs / 1000} s)` : ''}`,
      );
      pending++;
      setTimeout(() => {
        pending--;
        if (stopping) return;
        restarts++;
        fork(true);
      }, delay);
    });
  };
  for (let i = 0; i < opts.workers; i++) fork();

  return {
    get size() {
      return live.size + pending;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      await Promise.all(
        [...live].map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.isDead()) return resolve();
              w.once('exit', () => resolve());
              w.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
