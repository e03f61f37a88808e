// Progress of the long commands on stderr: on a terminal a live line (done/total, rate, ETA); off a
// terminal (CI, pipes) a plain line every PLAIN_EVERY_MS and one at the end. stdout stays the
// command's machine-readable report. `--quiet` silences it.
import path from 'node:path';
import cliProgress from 'cli-progress';
import type { LoadProgress } from '../ingest/jsonl.ts';

const PLAIN_EVERY_MS = 10_000;

export interface ProgressLine {
  /** `done` of `total` units (total 0: unknown). */
  update(done: number, total?: number): void;
  /** One more unit done. */
  tick(total?: number): void;
  /** Ends the line (a last plain line off a terminal). */
  stop(): void;
}

/** Removes `--quiet` from the arguments (wherever it is) and says whether it was there. */
export function takeQuiet(args: string[]): { quiet: boolean; args: string[] } {
  return { quiet: args.includes('--quiet'), args: args.filter((a) => a !== '--quiet') };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function duration(s: number): string {
  if (!Number.isFinite(s)) return '?';
  s = Math.round(s);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}h${String(m).padStart(2, '0')}m` : m ? `${m}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** What the line says: done/total unit (pct), rate, ETA. */
export function describe(label: string, unit: string, done: number, total: number, seconds: number): string {
  const rate = seconds > 0 ? done / seconds : 0;
  const of =
    total > 0
      ? `${fmt(done)}/${fmt(total)} ${unit} (${((100 * done) / total).toFixed(1)}%)`
      : `${fmt(done)} ${unit}`;
  const eta = total > 0 && rate > 0 ? `, ETA ${duration((total - done) / rate)}` : '';
  return `${label}: ${of}, ${fmt(rate)} ${unit}/s${eta}, ${duration(seconds)} elapsed`;
}

export function startProgress(
  label: string,
  unit: string,
  opts: { quiet?: boolean; stream?: NodeJS.WriteStream } = {},
): ProgressLine {
  const stream = opts.stream ?? process.stderr;
  if (opts.quiet) return { update() {}, tick() {}, stop() {} };
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  let done = 0;
  let total = 0;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: (options, params, payload: { text: string }) =>
          `${cliProgress.Format.BarFormat(params.progress, options)} ${payload.text}`,
        barsize: 24,
        hideCursor: true,
        clearOnComplete: false,
        fps: 4,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(1, 0, { text: describe(label, unit, 0, 0, 0) });
    const line: ProgressLine = {
      tick: (t) => line.update(done + 1, t),
      update(d, t = 0) {
        done = d;
        total = t;
        bar.setTotal(Math.max(total, 1));
        bar.update(total > 0 ? done : 0, { text: describe(label, unit, done, total, elapsed()) });
      },
      stop() {
        bar.update(total > 0 ? done : 0, { text: describe(label, unit, done, total, elapsed()) });
        bar.stop();
      },
    };
    return line;
  }
  let last = performance.now();
  const line: ProgressLine = {
    tick: (t) => line.update(done + 1, t),
    update(d, t = 0) {
      done = d;
      total = t;
      if (performance.now() - last < PLAIN_EVERY_MS) return;
      last = performance.now();
      stream.write(`${describe(label, unit, done, total, elapsed())}\n`);
    },
    stop() {
      stream.write(`${describe(label, unit, done, total, elapsed())}\n`);
    },
  };
  return line;
}

/** Progress of a file load (see ingestFile): postings read of the estimated total, then the index builds. */
export function loadProgress(
  label: string,
  quiet: boolean,
): { onProgress: (p: LoadProgress) => void; stop(): void } {
  let line = startProgress(label, 'postings', { quiet });
  let phase: LoadProgress['phase'] = 'load';
  return {
    onProgress(p) {
      if (p.phase === 'indexes' && phase === 'load') {
        line.stop();
        line = startProgress('search indexes', 'indexes', { quiet });
        phase = 'indexes';
      }
      if (p.phase === 'load')
        line.update(p.lines, p.bytes ? Math.round((p.lines * p.totalBytes) / p.bytes) : 0);
      else line.update(p.built, p.total);
    },
    stop: () => line.stop(),
  };
}

/** Progress of `demo generate`: one line per file (the base snapshot's total is known, a round's is not). */
export function generateProgress(
  jobs: number,
  quiet: boolean,
): { onProgress: (file: string, postings: number) => void; stop(): void } {
  let line: ProgressLine | undefined;
  let current = '';
  return {
    onProgress(file, postings) {
      if (file !== current) {
        line?.stop();
        current = file;
        line = startProgress(`generate ${path.basename(file)}`, 'postings', { quiet });
      }
      line!.update(postings, path.basename(file) === 'jobs.jsonl' ? jobs : 0);
    },
    stop: () => line?.stop(),
  };
}
