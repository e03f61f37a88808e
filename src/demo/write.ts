// The demo dataset as files of canonical JSON Lines:
//   DIR/jobs.jsonl      source lines, then company lines, then postings (the base snapshot)
//   DIR/round-<r>.jsonl the changes of round r (modified, expired, gone and new postings), r = 1..R
// Each file is written to a temporary name and renamed when complete, so a crash never leaves a
// truncated file that looks finished.
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CanonicalLine } from '../model/record.ts';
import { DemoDataset, type GenerateOptions } from './generate.ts';

export interface FileSummary {
  file: string;
  lines: number;
  postings: number;
  bytes: number;
}

async function writeLines(
  file: string,
  lines: Iterable<CanonicalLine>,
  progress?: (postings: number) => void,
): Promise<FileSummary> {
  const tmp = `${file}.partial`;
  const out = createWriteStream(tmp, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const failed = new Promise<never>((_, reject) => out.on('error', reject));
  failed.catch(() => {});
  let count = 0;
  let postings = 0;
  let chunk: string[] = [];
  let lastReport = Date.now();
  const flush = async () => {
    if (!chunk.length) return;
    const ok = out.write(`${chunk.join('\n')}\n`);
    chunk = [];
    // Backpressure: wait until the stream has drained before producing more.
    if (!ok) await Promise.race([new Promise<void>((r) => out.once('drain', () => r())), failed]);
  };
  for (const line of lines) {
    chunk.push(JSON.stringify(line));
    count++;
    if (line.kind === 'posting') postings++;
    if (chunk.length >= 512) {
      await flush();
      if (progress && Date.now() - lastReport > 1000) {
        lastReport = Date.now();
        progress(postings);
      }
    }
  }
  await flush();
  await Promise.race([new Promise<void>((r) => out.end(r)), failed]);
  await rename(tmp, file);
  const { size } = await stat(file);
  return { file, lines: count, postings, bytes: size };
}

/** Writes the dataset (base snapshot and rounds) into dir; returns what was written. */
export async function writeDataset(
  dir: string,
  opts: GenerateOptions,
  progress?: (file: string, postings: number) => void,
): Promise<FileSummary[]> {
  await mkdir(dir, { recursive: true });
  const ds = new DemoDataset(opts);
  const files: FileSummary[] = [];
  const base = path.join(dir, 'jobs.jsonl');
  files.push(await writeLines(base, ds.base(), progress && ((n) => progress(base, n))));
  for (let r = 1; r <= ds.rounds; r++) {
    const f = path.join(dir, `round-${r}.jsonl`);
    files.push(await writeLines(f, ds.round(r), progress && ((n) => progress(f, n))));
  }
  return files;
}

/** The dataset `npm start` creates on first start: the base snapshot only, dated now. */
export async function writeDemoDataset(dir: string, jobs: number, seed: number): Promise<string[]> {
  const files = await writeDataset(dir, { jobs, seed });
  return files.map((f) => f.file);
}
