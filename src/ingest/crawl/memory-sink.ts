// An in-memory sink for the crawler: tests and dry runs. Counts changes the way the pipeline reports them.
import type { CanonicalLine, PostingRecord } from '../../model/record.ts';
import type { CrawlSink, SinkReport } from './crawler.ts';

/** Keeps the latest record per id and which are live; counts changes like the pipeline does. */
export class MemorySink implements CrawlSink {
  readonly jobs = new Map<string, { record: PostingRecord; live: boolean }>();
  readonly calls: { ingested: number; expireCalls: { board: string; seen: string[] }[] } = {
    ingested: 0,
    expireCalls: [],
  };

  async ingestRecords(records: CanonicalLine[]): Promise<SinkReport> {
    const report: SinkReport = { inserted: 0, updated: 0, unchanged: 0, rejected: [], expired: 0, folded: 0 };
    for (const line of records) {
      if (line.kind !== 'posting') continue;
      const { kind: _kind, ...record } = line;
      this.calls.ingested++;
      const prev = this.jobs.get(record.id);
      if (!prev) report.inserted++;
      else if (prev.live && JSON.stringify(prev.record) === JSON.stringify(record)) report.unchanged++;
      else report.updated++;
      this.jobs.set(record.id, { record, live: true });
    }
    return report;
  }

  async expireMissingFromBoard(board: string, seenIds: string[]): Promise<number> {
    this.calls.expireCalls.push({ board, seen: [...seenIds] });
    const seen = new Set(seenIds);
    let n = 0;
    for (const [id, job] of this.jobs) {
      if (job.live && job.record.board === board && !seen.has(id)) {
        job.live = false;
        n++;
      }
    }
    return n;
  }

  live(): string[] {
    return [...this.jobs]
      .filter(([, j]) => j.live)
      .map(([id]) => id)
      .sort();
  }
}
