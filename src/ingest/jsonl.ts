// Streams a canonical JSON Lines file into the pipeline in batches. A malformed line is rejected
// with its line number and reason; the rest loads. A large load into an empty or near-empty table
// builds the search indexes once at its end (src/db/bulk-indexes.ts).
import fs from 'node:fs';
import readline from 'node:readline';
import { type BulkLoad, beginBulkLoad, canDefer, countJobsUpTo, shouldDefer } from '../db/bulk-indexes.ts';
import type { Db } from '../db/pool.ts';
import { ingestChunks, type LineChunk } from './pipeline.ts';
import { addReports, emptyReport, type IngestReport } from './report.ts';
import type { Enricher } from './stages/enrich-batch.ts';
import type { CanonicalLine } from '../model/record.ts';
import { RecordError, validateLine } from './validate.ts';

const LINES_PER_BATCH = 5000;

/** Where a load is: bytes of the file read and loaded, then the search indexes built (when deferred). */
export type LoadProgress =
  | { phase: 'load'; lines: number; bytes: number; totalBytes: number }
  | { phase: 'indexes'; built: number; total: number };

export type Progress = (p: LoadProgress) => void;

/** auto: defer the search indexes when shouldDefer says so; defer/keep: always/never (tests). */
export type IndexMode = 'auto' | 'defer' | 'keep';

export async function ingestFile(
  db: Db,
  file: string,
  onProgress?: Progress,
  enrich?: Enricher,
  indexes: IndexMode = 'auto',
): Promise<IngestReport> {
  const total = (await fs.promises.stat(file)).size;
  // Opened when the first chunk is asked for: lines read before then would be lost.
  let input: fs.ReadStream | undefined;
  const bytesRead = () => Math.min(input?.bytesRead ?? 0, total);
  const read = emptyReport();
  let n = 0;
  let bulk: BulkLoad | undefined;
  const decide = async () => {
    if (indexes === 'keep' || !canDefer(db.write)) return;
    // Lines in the file, extrapolated from the first chunk.
    const expected = bytesRead() ? Math.round((n * total) / bytesRead()) : n;
    if (indexes === 'defer' || shouldDefer(expected, await countJobsUpTo(db.write, expected + 1))) {
      bulk = await beginBulkLoad(db.write);
    }
  };
  // Chunks of valid lines as read; each reports its progress once its postings are written.
  async function* chunks(): AsyncGenerator<LineChunk> {
    let lines: CanonicalLine[] = [];
    let numbers: number[] = [];
    let first = true;
    const chunk = async (): Promise<LineChunk> => {
      if (first) await decide();
      first = false;
      const at = { phase: 'load' as const, lines: n, bytes: bytesRead(), totalBytes: total };
      const c = { lines, lineNumbers: numbers, done: () => onProgress?.(at) };
      lines = [];
      numbers = [];
      return c;
    };
    input = fs.createReadStream(file);
    const rl = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const text of rl) {
      n++;
      if (text.trim() === '') continue;
      try {
        lines.push(validateLine(JSON.parse(text)));
        numbers.push(n);
      } catch (err) {
        const reason = err instanceof RecordError ? err.message : `invalid JSON: ${(err as Error).message}`;
        read.rejected.push({ line: n, reason });
      }
      if (lines.length >= LINES_PER_BATCH) yield await chunk();
    }
    if (lines.length) yield await chunk();
  }
  try {
    const report = addReports(read, await ingestChunks(db, chunks(), enrich));
    // In the file's order, whichever stage rejected the line.
    report.rejected.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    return report;
  } finally {
    // Also after a failed batch: the committed ones are whole and must be searchable.
    await bulk?.finish((built, total) => onProgress?.({ phase: 'indexes', built, total }));
  }
}
