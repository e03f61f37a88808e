// ingest FILE.jsonl…: loads canonical JSON Lines; ingest --format ADAPTER …: saved source payloads
// (ingest-format.ts). The report goes to stdout as JSON; every rejection, with file, line and reason,
// to stderr; the exit code tells whether everything, some or nothing was loaded (ingest-report.ts).
import fs from 'node:fs';
import path from 'node:path';
import { startEnrichThread } from '../ingest/enrich-thread.ts';
import { ingestFile } from '../ingest/jsonl.ts';
import { addReports, emptyReport } from '../ingest/report.ts';
import { afterLoad } from '../service/schedules.ts';
import { parseArgs, withDb } from './db.ts';
import { CliError } from './failure.ts';
import { exitCode, printRejections, printSummary, type Rejected } from './ingest-report.ts';
import { EXIT, specOptions } from './spec.ts';

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

/** Every path must be a readable file (or, with --format, a directory) before anything loads. */
export function checkReadable(paths: string[], dirs: boolean): void {
  for (const p of paths) {
    let st: fs.Stats;
    try {
      fs.accessSync(p, fs.constants.R_OK);
      st = fs.statSync(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CliError(
        `cannot read ${p}: ${code === 'ENOENT' ? 'no such file or directory' : code}`,
        EXIT.input,
      );
    }
    if (st.isDirectory() && !dirs)
      throw new CliError(`${p} is a directory: give the .jsonl files in it`, EXIT.input);
  }
}

export async function run(args: string[]): Promise<number> {
  const { opts, rest } = parseArgs(args, specOptions('ingest'));
  if (!rest.length)
    throw new CliError('ingest needs at least one FILE (see npm run cli -- ingest --help)', EXIT.usage);
  if (opts.format) {
    const offline = await import('./ingest-format.ts');
    return offline.run(opts.format, rest, opts);
  }
  for (const k of [
    'source',
    'source-type',
    'source-domain',
    'source-name',
    'board',
    'company',
    'expire-missing',
  ])
    if (opts[k] !== undefined)
      throw new CliError(`--${k} applies to saved payloads only (with --format ADAPTER)`, EXIT.usage);
  checkReadable(rest, false);
  return withDb(async (db) => {
    let report = emptyReport();
    const rejected: Rejected[] = [];
    const started = Date.now();
    const thread = startEnrichThread();
    try {
      for (const file of rest) {
        const r = await ingestFile(db, file, opts.quiet ? undefined : progressBar(file), thread.enrich);
        if (process.stderr.isTTY) process.stderr.write('\n');
        for (const x of r.rejected) rejected.push({ file, ...x });
        report = addReports(report, r);
      }
    } finally {
      await thread.close();
    }
    await afterLoad(db);
    await db.write.query('VACUUM (ANALYZE) jobs');
    const seconds = (Date.now() - started) / 1000;
    printRejections(rejected);
    printSummary(report, rejected.length);
    process.stdout.write(
      `${JSON.stringify({ ...report, rejected: rejected.length, rejections: rejected.slice(0, 1000), seconds })}\n`,
    );
    return exitCode(report, rejected.length);
  });
}
