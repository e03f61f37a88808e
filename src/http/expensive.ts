// A bound on expensive work: requests whose cost grows with the data (collapse, deep offsets, searches
// over descriptions, prefix terms) or that build megabytes (feed pages of more than 200 jobs with their
// descriptions) take a slot; each process runs at most `perProcess` of them at once
// and each account (all its keys) at most `perKey`. Past the key's share the answer is 429, past the process's 503, both
// with Retry-After, so one key's heavy queries cannot take the pool and everyone's latency with them.
import { errors } from '../errors.ts';
import { isLargeFeedPage, LARGE_FEED_PAGE } from '../search/feeds.ts';

export interface ExpensiveLimits {
  perProcess: number;
  perKey: number;
}

/** Offsets from here on are expensive: the rows before them are read and thrown away. */
const DEEP_OFFSET = 1000;

/** Whether a request to `path` with these validated parameters is expensive work. */
export function isExpensive(path: string, params: Record<string, unknown>): boolean {
  if (path === '/v1/jobs/feed' || path === '/v1/jobs/modified')
    return isLargeFeedPage((params.limit as number | undefined) ?? 200, params.description_format);
  // Analytics read every match, whatever the filters.
  if (path === '/v1/jobs/facets' || path === '/v1/jobs/salary' || path === '/v1/jobs/trends') return true;
  if (path !== '/v1/jobs' && path !== '/v1/jobs/count') return false;
  if (params.collapse !== undefined) return true;
  if (params.description !== undefined || params.description_advanced !== undefined) return true;
  if (typeof params.offset === 'number' && params.offset >= DEEP_OFFSET) return true;
  const advanced = params.title_advanced;
  return typeof advanced === 'string' && advanced.includes(':*');
}

export class ExpensiveGate {
  private inFlight = 0;
  private byAccount = new Map<number, number>();

  constructor(private limits: ExpensiveLimits) {}

  /** Takes a slot for the account or throws the 429/503; call the returned function when done. */
  enter(accountId: number): () => void {
    const mine = this.byAccount.get(accountId) ?? 0;
    if (mine >= this.limits.perKey) {
      throw errors.busy(
        `at most ${this.limits.perKey} expensive requests (collapse, offset ≥ ${DEEP_OFFSET}, description search, prefix terms, feed pages over ${LARGE_FEED_PAGE} with descriptions) at once per account; retry after 1 s`,
      );
    }
    if (this.inFlight >= this.limits.perProcess) {
      throw errors.unavailable('too many expensive requests in progress; retry after 1 s', 1);
    }
    this.inFlight++;
    this.byAccount.set(accountId, mine + 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight--;
      const left = (this.byAccount.get(accountId) ?? 1) - 1;
      if (left <= 0) this.byAccount.delete(accountId);
      else this.byAccount.set(accountId, left);
    };
  }
}
