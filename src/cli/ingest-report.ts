// What an ingest command tells its operator: every rejection with its place and reason on stderr, one
// summary line, and the exit code that says whether everything, some or nothing was loaded.
import type { IngestReport } from '../ingest/report.ts';
import { EXIT } from './spec.ts';

export interface Rejected {
  file: string;
  line?: number;
  id?: string;
  reason: string;
}

export function printRejections(rejected: Rejected[]): void {
  for (const r of rejected) {
    const where = [r.line !== undefined ? `line ${r.line}` : '', r.id ?? ''].filter(Boolean).join(' ');
    process.stderr.write(`${r.file}: rejected${where ? ` ${where}` : ''}: ${r.reason}\n`);
  }
}

const loadedCount = (r: IngestReport) => r.inserted + r.updated + r.unchanged + r.folded;

export function printSummary(r: IngestReport, rejected: number, skipped = 0): void {
  process.stderr.write(
    `ingest: ${loadedCount(r)} postings loaded (${r.inserted} new, ${r.updated} changed, ${r.unchanged} unchanged, ${r.folded} folded as copies), ${rejected} rejected${skipped ? `, ${skipped} skipped on purpose (unlisted or draft)` : ''}, ${r.expired} expired\n`,
  );
}

/** 0 when nothing was rejected; 3 when some records were; 4 when none could be loaded. */
export function exitCode(r: IngestReport, rejected: number): number {
  if (rejected === 0) return EXIT.ok;
  return loadedCount(r) === 0 ? EXIT.nothingLoaded : EXIT.someRejected;
}
