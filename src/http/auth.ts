// API-key authentication: header `Authorization: Bearer <key>` (or a bare key), else `api_key` in the
// query; the header wins. Every failure gives the same 401.
import type pg from 'pg';
import { type Admitted, admitKey, hashKey, type KeyOwner, touchKeys } from '../db/keys.ts';
import type { TakeResult } from '../db/usage.ts';
import { errors } from '../errors.ts';
import type { LimitDecision, Limiter } from '../limiter/limits.ts';
import type { RawQuery } from './params/registry.ts';

export function extractKey(authorization: string | undefined, query: RawQuery): string | undefined {
  if (authorization !== undefined) {
    const m = /^\s*(?:bearer\s+)?(\S+)\s*$/i.exec(authorization);
    return m ? m[1] : '';
  }
  const q = query.get('api_key');
  return q && q.length === 1 ? q[0] : q ? '' : undefined;
}

/** An authenticated request: its key's owner, the limiter's decision, the data version read with the key. */
export interface Admission {
  owner: KeyOwner;
  decision?: LimitDecision;
  version: number;
}

interface Taken {
  admitted: Admitted | undefined;
  taken: TakeResult | undefined;
  now: number | undefined;
}

interface Waiter {
  resolve: (t: Taken) => void;
  reject: (err: unknown) => void;
}

export class Authenticator {
  private shape: RegExp;
  /** Per key hash with a take in flight: the requests waiting for the next one. */
  private waiting = new Map<string, Waiter[]>();
  private used = new Map<number, Date>();
  private timer: NodeJS.Timeout;

  /**
   * `pool` is the primary: a revocation must be seen by the very next request. With the PostgreSQL
   * limiter the key, the limiter's step and the data version take one statement; with another limiter,
   * the key and the version one statement and the limiter its own call.
   */
  constructor(
    private pool: pg.Pool,
    prefix: string,
    private limiter?: Limiter,
    flushMs = 10_000,
  ) {
    this.shape = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9a-f]{48}$`);
    // last_used_at is written in batches, not once per request.
    this.timer = setInterval(() => void this.flush().catch(() => {}), flushMs);
    this.timer.unref();
  }

  /** Authenticates the key and counts the request against its limits (the 401 or the 429 on failure). */
  async admit(key: string | undefined): Promise<Admission> {
    if (!key || !this.shape.test(key)) throw errors.unauthorized();
    const inline = this.limiter?.inline;
    const { admitted, taken, now } = inline
      ? await this.take(hashKey(key), inline.now)
      : { admitted: await admitKey(this.pool, hashKey(key)), taken: undefined, now: undefined };
    if (!admitted) throw errors.unauthorized();
    const { owner, version } = admitted;
    this.used.set(owner.key_id, new Date());
    const decision =
      inline && taken && now !== undefined
        ? inline.settle(owner, taken, now)
        : await this.limiter?.take(owner);
    return { owner, decision, version };
  }

  /**
   * The key and the PostgreSQL limiter's step in one statement. A key's takes run one at a time in the
   * database (its lock), so the requests of a key that arrive while one of its takes is in flight wait
   * here and go as one take of them all (migration 16), in the order they came.
   */
  private take(hash: Buffer, clock: () => number): Promise<Taken> {
    const id = hash.toString('hex');
    return new Promise<Taken>((resolve, reject) => {
      const queue = this.waiting.get(id);
      if (queue) {
        queue.push({ resolve, reject });
        return;
      }
      this.waiting.set(id, []);
      this.send(id, hash, clock, [{ resolve, reject }]);
    });
  }

  private send(id: string, hash: Buffer, clock: () => number, batch: Waiter[]): void {
    const now = clock();
    admitKey(this.pool, hash, { nowMs: now, n: batch.length })
      .then(
        (admitted) => {
          for (const [i, w] of batch.entries()) w.resolve({ admitted, taken: admitted?.taken?.[i], now });
        },
        (err) => {
          for (const w of batch) w.reject(err);
        },
      )
      .finally(() => {
        const next = this.waiting.get(id) ?? [];
        if (next.length) {
          this.waiting.set(id, []);
          this.send(id, hash, clock, next);
        } else this.waiting.delete(id);
      });
  }

  async flush(): Promise<void> {
    if (!this.used.size) return;
    const batch = this.used;
    this.used = new Map();
    await touchKeys(this.pool, batch);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => {});
  }
}
