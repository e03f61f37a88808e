// The contract every source adapter follows: raw payload in, canonical postings out.
import type { PostingRecord } from '../../model/record.ts';

export interface Rejection {
  native_id?: string;
  reason: string;
}

export interface AdapterResult {
  postings: PostingRecord[];
  rejected: Rejection[];
  /** Postings present in the payload but deliberately skipped (unlisted, unpublished). */
  dropped?: number;
}

export interface AdapterContext {
  /** Public source slug the ids are prefixed with. */
  source: string;
  /** `<source>/<token>`. */
  board: string;
  company?: { name?: string; slug?: string; domain?: string };
  /** Reference time for relative dates (Workday "Posted 3 Days Ago"). */
  now: Date;
  /** Address the payload was fetched from (JSON-LD pages without their own URL). */
  url?: string;
}

export interface Adapter {
  format: string;
  parse(payload: string, ctx: AdapterContext): AdapterResult;
}

/** The payload is not the expected format at all: the fetch failed, the board is not empty. */
export class AdapterFormatError extends Error {
  constructor(
    readonly format: string,
    message: string,
  ) {
    super(`${format}: ${message}`);
    this.name = 'AdapterFormatError';
  }
}
