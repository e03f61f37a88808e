// ingest --format ADAPTER [--source SLUG] [--company NAME] [--expire-missing] <file|dir>...:
// saved source payloads through the adapters and the same pipeline as everything else.
import { convertPayloadFiles } from '../ingest/adapters/index.ts';
import { expireMissingFromBoard, ingestRecords } from '../ingest/pipeline.ts';
import { afterLoad } from '../service/schedules.ts';
import { withDb } from './db.ts';
import { startProgress } from './progress.ts';

export async function run(
  format: string,
  paths: string[],
  opts: Record<string, string> = {},
  quiet = false,
): Promise<number> {
  let converted: Awaited<ReturnType<typeof convertPayloadFiles>>;
  try {
    converted = await convertPayloadFiles(format, paths, {
      source: opts.source,
      company: opts.company ? { name: opts.company } : undefined,
    });
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  return withDb(async (db) => {
    const progress = startProgress(`ingest --format ${format}`, 'postings', { quiet });
    const report = await ingestRecords(db, converted.records, undefined, undefined, (d, t) =>
      progress.update(d, t),
    );
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
    await afterLoad(db);
    for (const f of converted.files) {
      process.stderr.write(
        `${f.file}: ${f.error ? `failed: ${f.error}` : `${f.postings} postings, ${f.rejected.length} rejected, ${f.dropped} unlisted`}\n`,
      );
    }
    process.stdout.write(
      `${JSON.stringify({ ...report, expired: report.expired + expired, rejected: report.rejected.length + converted.files.reduce((n, f) => n + f.rejected.length, 0), files: converted.files })}\n`,
    );
    return converted.files.some((f) => f.error) ? 1 : 0;
  });
}
