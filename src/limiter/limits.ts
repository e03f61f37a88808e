// The limiter's interface: one call per authenticated request, before the handler runs.
import type { KeyOwner } from '../db/keys.ts';
import type { TakeResult } from '../db/usage.ts';

export interface LimitDecision {
  limit: number;
  remaining: number;
  /** Seconds until the window frees a request. */
  reset: number;
}

export interface Limiter {
  /** Where the counters live: memory, postgres or redis. */
  readonly store: string;
  /** Counts the request; throws the 429 ApiError when over the limit or quota. */
  take(owner: KeyOwner): Promise<LimitDecision>;
  /**
   * The PostgreSQL limiter only: its step runs inside the key look-up's statement (one round trip for
   * the key, the limiter and the data version, db/keys.ts admitKey) at `now()`; `settle` turns the step's
   * result into the decision, or throws the 429, as `take` would.
   */
  inline?: { now(): number; settle(owner: KeyOwner, r: TakeResult, nowMs: number): LimitDecision };
  /** For health: whether the shared store answers. */
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export function rateLimitHeaders(d: LimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.reset),
  };
}
