// API-key authentication: header `Authorization: Bearer <key>` (or a bare key), else `api_key` in the
// query; the header wins. Every failure gives the same 401.
import type pg from 'pg';
import { findActiveKey, hashKey, type KeyOwner, touchKeys } from '../db/keys.ts';
import { errors } from '../errors.ts';
import type { RawQuery } from './params/registry.ts';

export function extractKey(authorization: string | undefined, query: RawQuery): string | undefined {
  if (authorization !== undefined) {
    const m = /^\s*(?:bearer\s+)?(\S+)\s*$/i.exec(authorization);
    return m ? m[1] : '';
  }
  const q = query.get('api_key');
  return q && q.length === 1 ? q[0] : q ? '' : undefined;
}

export class Authenticator {
  private shape: RegExp;
  private used = new Map<number, Date>();
  private timer: NodeJS.Timeout;

  /** `pool` is the primary: a revocation must be seen by the very next request. */
  constructor(
    private pool: pg.Pool,
    prefix: string,
    flushMs = 10_000,
  ) {
    this.shape = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9a-f]{48}$`);
    // last_used_at is written in batches, not once per request.
    this.timer = setInterval(() => void this.flush().catch(() => {}), flushMs);
    this.timer.unref();
  }

  async authenticate(key: string | undefined): Promise<KeyOwner> {
    if (!key || !this.shape.test(key)) throw errors.unauthorized();
    const owner = await findActiveKey(this.pool, hashKey(key));
    if (!owner) throw errors.unauthorized();
    this.used.set(owner.key_id, new Date());
    return owner;
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
