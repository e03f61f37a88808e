// ingest <file.jsonl>...: loads canonical JSON Lines; prints the report as JSON on stdout.
import fs from 'node:fs';
import path from 'node:path';
import { ingestFile } from '../ingest/jsonl.ts';
import { startEnrichThread } from '../ingest/enrich-thread.ts';
import { addReports, emptyReport } from '../ingest/report.ts';
import { afterLoad } from '../service/schedules.ts';
import { parseArgs, withDb } from './db.ts';
import { loadProgress, takeQuiet } from './progress.ts';

export async function run(argv: string[]): Promise<number> {
  const { quiet, args } = takeQuiet(argv);
  const { opts, rest } = parseArgs(args);
  if (!rest.length) {
    process.stderr.write('usage: ingest [--format ADAPTER] <file|dir>...\n');
    return 2;
  }
  if (opts.format) {
    const offline = await import('./ingest-format.ts');
    return offline.run(opts.format, rest, opts, quiet);
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
        const progress = loadProgress(`ingest ${path.basename(file)}`, quiet);
        report = addReports(report, await ingestFile(db, file, progress.onProgress, thread.enrich));
        progress.stop();
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
