// The limiter of one process: an exact sliding 60-second window per key, in memory.
import type { Config } from '../config.ts';
import type { KeyOwner } from '../db/keys.ts';
import type { Db } from '../db/pool.ts';
import { errors } from '../errors.ts';
import type { LimitDecision, Limiter } from './limits.ts';

const WINDOW_MS = 60_000;

export class MemoryLimiter implements Limiter {
  private hits = new Map<number, number[]>();
  constructor(private now: () => number = Date.now) {}

  async take(owner: KeyOwner): Promise<LimitDecision> {
    const t = this.now();
    const list = (this.hits.get(owner.key_id) ?? []).filter((x) => x > t - WINDOW_MS);
    const limit = owner.rate_limit;
    if (list.length >= limit) {
      const reset = Math.max(1, Math.ceil((list[0] + WINDOW_MS - t) / 1000));
      this.hits.set(owner.key_id, list);
      throw errors.rateLimited(reset, limit);
    }
    list.push(t);
    this.hits.set(owner.key_id, list);
    const reset = Math.max(0, Math.ceil((list[0] + WINDOW_MS - t) / 1000));
    return { limit, remaining: limit - list.length, reset };
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

export async function createLimiter(_config: Config, _db: Db): Promise<Limiter> {
  return new MemoryLimiter();
}
