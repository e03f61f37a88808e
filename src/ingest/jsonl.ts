// Streams a canonical JSON Lines file into the pipeline in batches. A malformed line is rejected
// with its line number and reason; the rest loads. A large load into an empty or near-empty table
// builds the search indexes once at its end (src/db/bulk-indexes.ts).
import fs from 'node:fs';
import readline from 'node:readline';
import { type BulkLoad, beginBulkLoad, canDefer, countJobsUpTo, shouldDefer } from '../db/bulk-indexes.ts';
import type { Db } from '../db/pool.ts';
import { ingestRecords } from './pipeline.ts';
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
  const input = fs.createReadStream(file);
  const rl = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let report = emptyReport();
  let batch: CanonicalLine[] = [];
  let numbers: number[] = [];
  let n = 0;
  let bulk: BulkLoad | undefined;
  let decided = false;
  const decide = async () => {
    decided = true;
    if (indexes === 'keep' || !canDefer(db.write)) return;
    // Lines in the file, extrapolated from the first batch.
    const expected = input.bytesRead ? Math.round((n * total) / Math.min(input.bytesRead, total)) : n;
    if (indexes === 'defer' || shouldDefer(expected, await countJobsUpTo(db.write, expected + 1))) {
      bulk = await beginBulkLoad(db.write);
    }
  };
  const flush = async () => {
    if (!batch.length) return;
    if (!decided) await decide();
    report = addReports(report, await ingestRecords(db, batch, numbers, enrich));
    batch = [];
    numbers = [];
    onProgress?.({ phase: 'load', lines: n, bytes: Math.min(input.bytesRead, total), totalBytes: total });
  };
  try {
    for await (const text of rl) {
      n++;
      if (text.trim() === '') continue;
      try {
        batch.push(validateLine(JSON.parse(text)));
        numbers.push(n);
      } catch (err) {
        const reason = err instanceof RecordError ? err.message : `invalid JSON: ${(err as Error).message}`;
        report.rejected.push({ line: n, reason });
      }
      if (batch.length >= LINES_PER_BATCH) await flush();
    }
    await flush();
  } finally {
    // Also after a failed batch: the committed ones are whole and must be searchable.
    await bulk?.finish((built, total) => onProgress?.({ phase: 'indexes', built, total }));
  }
  return report;
}
