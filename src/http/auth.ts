// API-key authentication: header `Authorization: Bearer <key>` (or a bare key), else `api_key` in the
// query; the header wins. Every failure gives the same 401.
import type pg from 'pg';
import { admitKey, hashKey, type KeyOwner, touchKeys } from '../db/keys.ts';
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

export class Authenticator {
  private shape: RegExp;
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
    const now = inline?.now();
    const admitted = await admitKey(this.pool, hashKey(key), now === undefined ? undefined : { nowMs: now });
    if (!admitted) throw errors.unauthorized();
    const { owner, version, taken } = admitted;
    this.used.set(owner.key_id, new Date());
    const decision =
      inline && taken && now !== undefined
        ? inline.settle(owner, taken, now)
        : await this.limiter?.take(owner);
    return { owner, decision, version };
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
