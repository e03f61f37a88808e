// ingest FILE.jsonl…: loads canonical JSON Lines; ingest --format ADAPTER …: saved source payloads
// (ingest-format.ts). The report goes to stdout as JSON; every rejection, with file, line and reason,
// to stderr; the exit code tells whether everything, some or nothing was loaded (ingest-report.ts).
import path from 'node:path';
import { startEnrichThread } from '../ingest/enrich-thread.ts';
import { ingestFile } from '../ingest/jsonl.ts';
import { addReports, emptyReport } from '../ingest/report.ts';
import { writtenBy } from '../service/schedules.ts';
import { afterIngest } from './after-ingest.ts';
import { parseArgs, withDb } from './db.ts';
import { CliError } from './failure.ts';
import { checkReadable } from './input.ts';
import { exitCode, printRejections, printSummary, type Rejected } from './ingest-report.ts';
import { loadProgress } from './progress.ts';
import { EXIT, specOptions } from './spec.ts';

export async function run(args: string[]): Promise<number> {
  const { opts, rest } = parseArgs(args, specOptions('ingest'));
  if (!rest.length)
    throw new CliError('ingest needs at least one FILE (see npm run -s cli -- ingest --help)', EXIT.usage);
  if (opts.format) {
    const offline = await import('./ingest-format.ts');
    return offline.run(opts.format, rest, opts, opts.quiet === 'true');
  }
  for (const k of [
    'source',
    'source-type',
    'source-domain',
    'source-name',
    'board',
    'company',
    'url',
    'expire-missing',
  ])
    if (opts[k] !== undefined)
      throw new CliError(`--${k} applies to saved payloads only (with --format ADAPTER)`, EXIT.usage);
  checkReadable(rest, false);
  return withDb(async (db, config) => {
    let report = emptyReport();
    const rejected: Rejected[] = [];
    const started = Date.now();
    const thread = startEnrichThread();
    try {
      for (const file of rest) {
        const progress = loadProgress(`ingest ${path.basename(file)}`, opts.quiet === 'true');
        const r = await ingestFile(db, file, progress.onProgress, thread.enrich);
        progress.stop();
        for (const x of r.rejected) rejected.push({ file, ...x });
        report = addReports(report, r);
      }
    } finally {
      await thread.close();
    }
    await afterIngest(db, config, writtenBy(report), opts.quiet === 'true');
    const seconds = (Date.now() - started) / 1000;
    printRejections(rejected);
    printSummary(report, rejected.length);
    process.stdout.write(
      `${JSON.stringify({ ...report, rejected: rejected.length, rejections: rejected.slice(0, 1000), seconds })}\n`,
    );
    return exitCode(report, rejected.length);
  });
}
