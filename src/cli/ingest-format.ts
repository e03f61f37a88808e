// ingest --format ADAPTER [--source SLUG [--source-type T --source-domain D]] [--board TOKEN] [--company NAME]
// [--url URL] [--expire-missing] FILE|DIR…: saved source payloads through the adapters and the same pipeline as
// everything else.
import { adapters, convertPayloadFiles } from '../ingest/adapters/index.ts';
import type { SourceRecord } from '../model/record.ts';
import { expireMissingFromBoard } from '../ingest/expiry.ts';
import { ingestRecords } from '../ingest/pipeline.ts';
import { writtenBy } from '../service/schedules.ts';
import { afterIngest } from './after-ingest.ts';
import { withDb } from './db.ts';
import { CliError } from './failure.ts';
import { checkReadable } from './input.ts';
import { exitCode, printRejections, printSummary, type Rejected } from './ingest-report.ts';
import { startProgress } from './progress.ts';
import { EXIT } from './spec.ts';

const SOURCE_TYPES = ['ats', 'jobboard', 'aggregator'];

/** A new source given on the command line, or undefined when none is described. */
function describedSource(opts: Record<string, string>): SourceRecord | undefined {
  const type = opts['source-type'];
  const domain = opts['source-domain'];
  if (type === undefined && domain === undefined && opts['source-name'] === undefined) return undefined;
  if (!opts.source)
    throw new CliError('--source-type, --source-domain and --source-name describe --source SLUG', EXIT.usage);
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(opts.source))
    throw new CliError('--source must be a slug: lower-case letters, digits, - and _', EXIT.usage);
  if (!type || !SOURCE_TYPES.includes(type))
    throw new CliError(`--source-type must be one of ${SOURCE_TYPES.join(', ')}`, EXIT.usage);
  if (!domain || !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(domain))
    throw new CliError('--source-domain must be a domain name such as jobs.example.org', EXIT.usage);
  return {
    slug: opts.source,
    type: type as SourceRecord['type'],
    domain: domain.toLowerCase(),
    name: opts['source-name'] ?? opts.source,
  };
}

export async function run(
  format: string,
  paths: string[],
  opts: Record<string, string> = {},
  quiet = false,
): Promise<number> {
  if (!Object.hasOwn(adapters, format))
    throw new CliError(`unknown format "${format}" (known: ${Object.keys(adapters).join(', ')})`, EXIT.usage);
  if (format === 'jsonld' && !opts.source)
    throw new CliError(
      'format jsonld needs --source SLUG: a known board (careerboard, techjobs, workhub, jobmirror, alljobs), or a new one described with --source-type and --source-domain',
      EXIT.usage,
    );
  const newSource = describedSource(opts);
  if (opts.url !== undefined) {
    if (format !== 'jsonld') throw new CliError('--url applies to --format jsonld pages only', EXIT.usage);
    if (!/^https?:\/\/[^\s/]+/i.test(opts.url) || !URL.canParse(opts.url))
      throw new CliError(
        '--url must be an absolute http(s) URL, e.g. https://jobs.example.org/job/42',
        EXIT.usage,
      );
    // One address names one page.
    if (paths.length !== 1)
      throw new CliError('--url names the address of one saved page: give one file', EXIT.usage);
  }
  checkReadable(paths, true);
  return withDb(async (db, config) => {
    if (opts.source && !newSource) {
      const { rows } = await db.write.query('SELECT 1 FROM sources WHERE slug = $1 OR legacy_slug = $1', [
        opts.source,
      ]);
      if (!rows.length)
        throw new CliError(
          `unknown source "${opts.source}": describe it in the same command, e.g. npm run cli -- ingest --format ${format} --source ${opts.source} --source-type jobboard --source-domain ${opts.source}.example.org ${paths.join(' ')}`,
          EXIT.usage,
        );
    }
    const converted = await convertPayloadFiles(format, paths, {
      source: opts.source,
      token: opts.board,
      company: opts.company ? { name: opts.company } : undefined,
      url: opts.url,
    }).catch((err: NodeJS.ErrnoException) => {
      // An I/O failure names its file; anything else is an option the adapters refuse (a bad --board).
      throw err.code ? err : new CliError(err.message, EXIT.usage);
    });
    const records = newSource
      ? [{ kind: 'source' as const, ...newSource }, ...converted.records]
      : converted.records;
    const progress = startProgress(`ingest --format ${format}`, 'postings', { quiet });
    const report = await ingestRecords(db, records, undefined, undefined, (d, t) => progress.update(d, t));
    progress.stop();
    let expired = 0;
    // A saved payload is a whole board only when the operator says so; a failed file never expires anything.
    if (opts['expire-missing'] === 'true') {
      for (const f of converted.files) {
        if (f.error) continue;
        const seen = converted.records
          .filter((r) => r.kind === 'posting' && r.board === f.board)
          .map((r) => (r as { id: string }).id);
        expired += await expireMissingFromBoard(db, f.board, seen);
      }
    }
    await afterIngest(db, config, writtenBy(report) + expired, quiet);

    // Rejections in file order: whole files that are not the format, the adapters' own, then the pipeline's.
    const fileOf = new Map<string, string>();
    let i = 0;
    for (const f of converted.files) {
      for (let n = 0; n < f.postings; n++, i++)
        fileOf.set((converted.records[i] as { id: string }).id, f.file);
    }
    const rejected: Rejected[] = [];
    for (const f of converted.files) {
      if (f.error) rejected.push({ file: f.file, reason: `not readable as ${format}: ${f.error}` });
      for (const r of f.rejected) rejected.push({ file: f.file, id: r.native_id, reason: r.reason });
    }
    for (const r of report.rejected)
      rejected.push({ file: (r.id && fileOf.get(r.id)) || '(payloads)', ...r });
    const skipped = converted.files.reduce((n, f) => n + f.dropped, 0);
    printRejections(rejected);
    printSummary(report, rejected.length, skipped);
    process.stdout.write(
      `${JSON.stringify({
        ...report,
        expired: report.expired + expired,
        rejected: rejected.length,
        rejections: rejected.slice(0, 1000),
        skipped,
        files: converted.files.map(({ rejected: r, ...f }) => ({ ...f, rejected: r.length })),
      })}\n`,
    );
    return exitCode({ ...report, expired: report.expired + expired }, rejected.length);
  });
}
