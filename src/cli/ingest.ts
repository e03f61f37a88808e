// ingest <file.jsonl>...: loads canonical JSON Lines; prints the report as JSON on stdout.
import fs from 'node:fs';
import path from 'node:path';
import { ingestFile } from '../ingest/jsonl.ts';
import { startEnrichThread } from '../ingest/enrich-thread.ts';
import { addReports, emptyReport } from '../ingest/report.ts';
import { afterLoad } from '../service/schedules.ts';
import { parseArgs, withDb } from './db.ts';

function progressBar(file: string) {
  if (!process.stderr.isTTY) return undefined;
  return (lines: number, bytes: number, total: number) => {
    const pct = total ? Math.min(100, Math.round((100 * bytes) / total)) : 100;
    const width = 30;
    const done = Math.round((pct / 100) * width);
    process.stderr.write(
      `\r${path.basename(file)} [${'#'.repeat(done)}${'.'.repeat(width - done)}] ${pct}% ${lines} lines`,
    );
  };
}

export async function run(args: string[]): Promise<number> {
  const { opts, rest } = parseArgs(args);
  if (!rest.length) {
    process.stderr.write('usage: ingest [--format ADAPTER] <file|dir>...\n');
    return 2;
  }
  if (opts.format) {
    const offline = await import('./ingest-format.ts');
    return offline.run(opts.format, rest, opts);
  }
  for (const f of rest) {
    if (!fs.existsSync(f)) {
      process.stderr.write(`no such file: ${f}\n`);
      return 2;
    }
  }
  return withDb(async (db) => {
    let report = emptyReport();
    const started = Date.now();
    const thread = startEnrichThread();
    try {
      for (const file of rest) {
        report = addReports(report, await ingestFile(db, file, progressBar(file), thread.enrich));
        if (process.stderr.isTTY) process.stderr.write('\n');
      }
    } finally {
      await thread.close();
    }
    await afterLoad(db);
    await db.write.query('VACUUM (ANALYZE) jobs');
    const seconds = (Date.now() - started) / 1000;
    for (const r of report.rejected.slice(0, 50)) {
      process.stderr.write(
        `rejected${r.line ? ` line ${r.line}` : ''}${r.id ? ` ${r.id}` : ''}: ${r.reason}\n`,
      );
    }
    if (report.rejected.length > 50)
      process.stderr.write(`… and ${report.rejected.length - 50} more rejected\n`);
    process.stdout.write(
      `${JSON.stringify({ ...report, rejected: report.rejected.length, rejections: report.rejected.slice(0, 1000), seconds })}\n`,
    );
    return 0;
  });
}
