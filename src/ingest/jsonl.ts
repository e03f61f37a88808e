// Streams a canonical JSON Lines file into the pipeline in batches. A malformed line is rejected
// with its line number and reason; the rest loads.
import fs from 'node:fs';
import readline from 'node:readline';
import type { Db } from '../db/pool.ts';
import { ingestRecords } from './pipeline.ts';
import { addReports, emptyReport, type IngestReport } from './report.ts';
import type { Enricher } from './stages/enrich-batch.ts';
import type { CanonicalLine } from '../model/record.ts';
import { RecordError, validateLine } from './validate.ts';

const LINES_PER_BATCH = 5000;

export type Progress = (linesRead: number, bytesRead: number, totalBytes: number) => void;

export async function ingestFile(
  db: Db,
  file: string,
  onProgress?: Progress,
  enrich?: Enricher,
): Promise<IngestReport> {
  const total = (await fs.promises.stat(file)).size;
  const input = fs.createReadStream(file);
  const rl = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let report = emptyReport();
  let batch: CanonicalLine[] = [];
  let numbers: number[] = [];
  let n = 0;
  const flush = async () => {
    if (!batch.length) return;
    report = addReports(report, await ingestRecords(db, batch, numbers, enrich));
    batch = [];
    numbers = [];
    onProgress?.(n, input.bytesRead, total);
  };
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
  return report;
}
