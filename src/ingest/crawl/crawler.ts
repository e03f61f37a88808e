// The crawler: polls the registered boards with bounded concurrency and hands what a successful
// fetch lists to the ingestion sink. A failed fetch (HTTP error, 429 after retries, redirect,
// a 200 that is not the source's format) is never an empty board: nothing is loaded or expired.
import { adapters, AdapterFormatError, type Rejection } from '../adapters/index.ts';
import type { CanonicalLine } from '../../model/record.ts';
import { FetchError, HttpClient, type HttpOptions, type Validators } from './http.ts';
import type { Board } from './registry.ts';
import { DetailCache, fetchBoard } from './sources.ts';

export interface SinkReport {
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: { line?: number; id?: string; reason: string }[];
  expired: number;
  folded: number;
}

/** Where crawled postings go: the ingestion pipeline, or memory in tests. */
export interface CrawlSink {
  ingestRecords(records: CanonicalLine[]): Promise<SinkReport>;
  /** Expires the live postings of `board` whose id is not in seenIds; returns how many. */
  expireMissingFromBoard(board: string, seenIds: string[]): Promise<number>;
}

export interface BoardReport {
  board: string;
  status: 'ok' | 'unchanged' | 'failed';
  /** Postings listed in the fetched payload (loaded, rejected and skipped). */
  fetched: number;
  /** Postings handed to the pipeline. */
  postings: number;
  /** Rejected by the adapter or the pipeline. */
  rejected: number;
  error?: string;
  /** Unlisted/unpublished postings skipped. */
  dropped: number;
  inserted: number;
  updated: number;
  unchanged: number;
  folded: number;
  /** Postings of the board expired because the listing no longer has them. */
  expired: number;
  /** HTTP requests sent, retries included. */
  requests: number;
  ms: number;
  /** The first rejection reasons, for the operator. */
  reasons?: Rejection[];
}

export interface CrawlOptions {
  concurrency: number;
  /** Base URL per source (see DEFAULT_BASES), e.g. a local server in tests. */
  bases: Record<string, string>;
  http: Partial<HttpOptions>;
  detailConcurrency: number;
  maxPages: number;
  now: () => Date;
}

const DEFAULT_CRAWL: CrawlOptions = {
  concurrency: 4,
  bases: {},
  http: {},
  detailConcurrency: 2,
  maxPages: 100,
  now: () => new Date(),
};

export interface CrawlState {
  /** Board id → validators of the last payload that was loaded. */
  validators: Record<string, Validators & { url: string }>;
}

function emptyReport(board: string): BoardReport {
  return {
    board,
    status: 'failed',
    fetched: 0,
    postings: 0,
    rejected: 0,
    dropped: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    folded: 0,
    expired: 0,
    requests: 0,
    ms: 0,
  };
}

class SinkError extends Error {}

async function viaSink<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new SinkError(`ingestion failed: ${(err as Error).message}`);
  }
}

export class Crawler {
  readonly opts: CrawlOptions;
  readonly http: HttpClient;
  readonly state: CrawlState;
  private details = new DetailCache();

  constructor(
    private sink: CrawlSink,
    opts: Partial<CrawlOptions> = {},
    state: CrawlState = { validators: {} },
  ) {
    this.opts = { ...DEFAULT_CRAWL, ...opts };
    this.http = new HttpClient(this.opts.http);
    this.state = state;
  }

  /** One pass over the boards; reports come back in the boards' order. */
  async round(boards: Board[], onReport?: (r: BoardReport) => void): Promise<BoardReport[]> {
    this.details.rotate();
    const reports: BoardReport[] = new Array(boards.length);
    let next = 0;
    const worker = async () => {
      while (next < boards.length) {
        const i = next++;
        reports[i] = await this.crawlBoard(boards[i]);
        onReport?.(reports[i]);
      }
    };
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(this.opts.concurrency, boards.length)) }, worker),
    );
    return reports;
  }

  async crawlBoard(board: Board): Promise<BoardReport> {
    const report = emptyReport(board.id);
    const started = Date.now();
    const requestsBefore = this.http.requests;
    try {
      await this.load(board, report);
    } catch (err) {
      report.status = 'failed';
      report.error =
        err instanceof FetchError || err instanceof AdapterFormatError || err instanceof SinkError
          ? err.message
          : `unexpected error: ${(err as Error).message}`;
    }
    // Concurrent boards share the client: the count is approximate when they overlap.
    report.requests = this.http.requests - requestsBefore;
    report.ms = Date.now() - started;
    return report;
  }

  private async load(board: Board, report: BoardReport): Promise<void> {
    const fetched = await fetchBoard(
      {
        http: this.http,
        bases: this.opts.bases,
        details: this.details,
        detailConcurrency: this.opts.detailConcurrency,
        maxPages: this.opts.maxPages,
      },
      board,
      this.state.validators[board.id],
    );
    if (fetched.status === 'unchanged') {
      report.status = 'unchanged';
      return;
    }
    const adapter = adapters[board.format];
    const parsed = adapter.parse(fetched.payload, {
      source: board.source,
      board: board.id,
      company: board.company,
      now: this.opts.now(),
      url: fetched.url,
    });
    report.fetched = parsed.postings.length + parsed.rejected.length + (parsed.dropped ?? 0);
    report.postings = parsed.postings.length;
    report.dropped = parsed.dropped ?? 0;
    const reasons: Rejection[] = [...parsed.rejected];
    if (parsed.postings.length) {
      const records = parsed.postings.map((p) => ({ kind: 'posting' as const, ...p }));
      const res = await viaSink(() => this.sink.ingestRecords(records));
      report.inserted = res.inserted;
      report.updated = res.updated;
      report.unchanged = res.unchanged;
      report.folded = res.folded;
      for (const r of res.rejected) {
        const native = r.id?.startsWith(`${board.source}:`) ? r.id.slice(board.source.length + 1) : r.id;
        reasons.push({ native_id: native, reason: r.reason });
      }
    }
    report.rejected = reasons.length;
    if (reasons.length) report.reasons = reasons.slice(0, 20);
    // Still listed, even when malformed now: a rejected posting is not gone.
    const seen = [
      ...parsed.postings.map((p) => p.id),
      ...parsed.rejected.filter((r) => r.native_id).map((r) => `${board.source}:${r.native_id}`),
    ];
    report.expired = await viaSink(() => this.sink.expireMissingFromBoard(board.id, seen));
    // Stored only now: a payload that failed to load must be fetched in full next time.
    if (fetched.validators) this.state.validators[board.id] = fetched.validators;
    else delete this.state.validators[board.id];
    report.status = 'ok';
  }
}
