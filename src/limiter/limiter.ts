// The limiters: a sliding 60-second window per key (the account's rate_limit) and a monthly quota per
// account (calendar month, UTC), exact across processes and hosts.
//   - PgLimiter: without REDIS_URL; the processes of one host share the PostgreSQL primary. One statement
//     per request under a per-key advisory lock (limiter_take_many, migration 16; in the request path
//     with the key, http/auth.ts, which sends a key's waiting requests as one take).
//   - RedisLimiter: with REDIS_URL; every host shares Redis. One Lua script per request. When Redis does
//     not answer it fails open: a per-process window keeps working, the quota is not counted, a warning
//     is logged and healthy() is false until Redis answers again (docs/decisions.md, rate limits).
//   - MemoryLimiter: one process only (tests, and the Redis limiter's fallback).
// A denied request consumes neither a window slot nor quota. Every decision carries the three headers;
// the 429s carry them too.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type pg from 'pg';
import type { Config } from '../config.ts';
import type { KeyOwner } from '../db/keys.ts';
import type { Db } from '../db/pool.ts';
import { monthEnd, monthOf, type TakeResult, takeRequest, WINDOW_MS } from '../db/usage.ts';
import { ApiError, errors } from '../errors.ts';
import { type LimitDecision, type Limiter, rateLimitHeaders } from './limits.ts';

export type Clock = () => number;
export type Log = (level: 'warn' | 'info', msg: string) => void;

export interface LimiterOptions {
  /** Epoch milliseconds; injected by tests. */
  now?: Clock;
  log?: Log;
}

const defaultLog: Log = (level, msg) =>
  process.stderr.write(`${JSON.stringify({ level, msg, component: 'limiter' })}\n`);

/** The headers' values for a window holding `inWindow` requests, the oldest at `oldestMs`. */
function decision(limit: number, inWindow: number, oldestMs: number | null, now: number): LimitDecision {
  const reset = oldestMs === null ? 0 : Math.max(1, Math.ceil((oldestMs + WINDOW_MS - now) / 1000));
  return { limit, remaining: Math.max(0, limit - inWindow), reset };
}

/** The per-minute 429: Retry-After equals X-RateLimit-Reset, Remaining is 0. */
function rateLimitedError(d: LimitDecision): ApiError {
  const e = errors.rateLimited(Math.max(1, d.reset), d.limit);
  return new ApiError(e.status, e.body, { ...rateLimitHeaders({ ...d, remaining: 0 }), ...e.headers });
}

/** The monthly 429: no Retry-After; the window headers as they stand (the request took no slot). */
function quotaError(quota: number, d: LimitDecision, now: number): ApiError {
  const e = errors.quotaExhausted(quota, monthEnd(now));
  return new ApiError(e.status, e.body, { ...rateLimitHeaders(d), ...e.headers });
}

export class MemoryLimiter implements Limiter {
  readonly store: string = 'memory';
  private hits = new Map<number, number[]>();
  private used = new Map<string, number>();
  constructor(
    private now: Clock = Date.now,
    private countQuota = true,
  ) {}

  async take(owner: KeyOwner): Promise<LimitDecision> {
    const t = this.now();
    // Hits are appended in clock order, so the ones that left the window are a prefix.
    const list = this.hits.get(owner.key_id) ?? [];
    this.hits.set(owner.key_id, list);
    let gone = 0;
    while (gone < list.length && list[gone] <= t - WINDOW_MS) gone++;
    if (gone) list.splice(0, gone);
    const limit = owner.rate_limit;
    const month = `${owner.account_id}:${monthOf(t)}`;
    const used = this.used.get(month) ?? 0;
    if (this.countQuota && used >= owner.monthly_quota) {
      throw quotaError(owner.monthly_quota, decision(limit, list.length, list[0] ?? null, t), t);
    }
    if (list.length >= limit) throw rateLimitedError(decision(limit, list.length, list[0], t));
    list.push(t);
    if (this.countQuota) this.used.set(month, used + 1);
    return decision(limit, list.length, list[0], t);
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

/** The decision of one limiter_take step, or its 429. */
function settle(owner: KeyOwner, r: TakeResult, t: number): LimitDecision {
  const d = decision(owner.rate_limit, r.inWindow, r.oldestMs, t);
  if (r.outcome === 2) throw quotaError(owner.monthly_quota, d, t);
  if (r.outcome === 1) throw rateLimitedError(d);
  return d;
}

export class PgLimiter implements Limiter {
  readonly store: string = 'postgres';
  constructor(
    private pool: pg.Pool,
    private now: Clock = Date.now,
  ) {}

  async take(owner: KeyOwner): Promise<LimitDecision> {
    const t = this.now();
    const r = await takeRequest(this.pool, {
      keyId: owner.key_id,
      accountId: owner.account_id,
      nowMs: t,
      limit: owner.rate_limit,
      quota: owner.monthly_quota,
    });
    return settle(owner, r, t);
  }

  readonly inline = { now: () => this.now(), settle };

  async healthy(): Promise<boolean> {
    try {
      await this.pool.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** The pool belongs to the service; nothing to close. */
  async close(): Promise<void> {}
}

// KEYS: window (sorted set of request times), account's month counter, key's month counter.
// ARGV: now ms, window ms, limit, quota, unique member, time to live of the month counters (s, from the
// limiter's clock, so that an injected clock works too).
// Returns {outcome, requests in window, oldest ms or -1}; outcome 0 admitted, 1 rate, 2 quota.
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local quota = tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local oldest = -1
if count > 0 then oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]) end
local used = tonumber(redis.call('GET', KEYS[2]) or '0')
if used >= quota then return {2, count, oldest} end
if count >= limit then return {1, count, oldest} end
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('PEXPIRE', KEYS[1], window)
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('INCR', KEYS[3])
redis.call('EXPIRE', KEYS[3], ARGV[6])
if oldest < 0 then oldest = now end
return {0, count + 1, oldest}
`;

type TakeCommand = (k1: string, k2: string, k3: string, ...argv: (string | number)[]) => Promise<number[]>;

/** Month counters are kept 40 days past the month's end, for the usage view of the previous month. */
const COUNTER_KEEP_S = 40 * 86_400;

/** The Redis keys of an account; one hash tag per account so a cluster keeps them in one slot. */
export function redisKeys(prefix: string, accountId: number, keyId: number, month: string) {
  const m = month.slice(0, 7).replace('-', '');
  const tag = `${prefix}:{a${accountId}}`;
  return { window: `${tag}:w:${keyId}`, account: `${tag}:m:${m}`, key: `${tag}:k:${keyId}:${m}` };
}

export interface RedisLimiterOptions extends LimiterOptions {
  /** Prefix of every Redis key (tests use their own). */
  prefix?: string;
}

export class RedisLimiter implements Limiter {
  readonly store: string = 'redis';
  private readonly now: Clock;
  private readonly log: Log;
  private readonly prefix: string;
  private readonly fallback: MemoryLimiter;
  private readonly member = randomBytes(6).toString('hex');
  private seq = 0;
  private degraded = false;
  private lastWarn = 0;

  constructor(
    readonly redis: Redis,
    opts: RedisLimiterOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? defaultLog;
    this.prefix = opts.prefix ?? 'jps:rl';
    this.fallback = new MemoryLimiter(this.now, false);
    redis.defineCommand('jpsTake', { numberOfKeys: 3, lua: TAKE_SCRIPT });
  }

  /** Connects (waiting at most connectTimeoutMs); an unreachable Redis still gives a limiter, failing open. */
  static async connect(
    url: string,
    opts: RedisLimiterOptions & { connectTimeoutMs?: number } = {},
  ): Promise<RedisLimiter> {
    const redis = new Redis(url, {
      lazyConnect: true,
      // Fail fast instead of queueing while disconnected: the request is served under the fallback.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: opts.connectTimeoutMs ?? 1000,
      commandTimeout: 500,
      retryStrategy: (n) => Math.min(100 * n, 2000),
    });
    const limiter = new RedisLimiter(redis, opts);
    redis.on('error', (err) => limiter.down(err));
    redis.on('ready', () => limiter.up());
    await redis.connect().catch((err) => limiter.down(err));
    return limiter;
  }

  async take(owner: KeyOwner): Promise<LimitDecision> {
    const t = this.now();
    const month = monthOf(t);
    const k = redisKeys(this.prefix, owner.account_id, owner.key_id, month);
    const ttl = Math.ceil((Date.parse(monthEnd(t)) - t) / 1000) + COUNTER_KEEP_S;
    let r: number[];
    try {
      r = await (this.redis as unknown as { jpsTake: TakeCommand }).jpsTake(
        k.window,
        k.account,
        k.key,
        t,
        WINDOW_MS,
        owner.rate_limit,
        owner.monthly_quota,
        `${t}:${this.member}:${this.seq++}`,
        ttl,
      );
    } catch (err) {
      this.down(err as Error);
      return this.fallback.take(owner);
    }
    this.up();
    const [outcome, inWindow, oldest] = r;
    const d = decision(owner.rate_limit, inWindow, oldest < 0 ? null : oldest, t);
    if (outcome === 2) throw quotaError(owner.monthly_quota, d, t);
    if (outcome === 1) throw rateLimitedError(d);
    return d;
  }

  /** Whether Redis answers now. False while the limiter fails open. */
  async healthy(): Promise<boolean> {
    try {
      await this.redis.ping();
      return true;
    } catch {
      return false;
    }
  }

  /** True while requests are limited per process only and the quota is not counted. */
  get failingOpen(): boolean {
    return this.degraded;
  }

  private down(err: Error): void {
    const t = Date.now();
    if (!this.degraded || t - this.lastWarn >= 60_000) {
      this.lastWarn = t;
      this.log(
        'warn',
        `redis unavailable (${err.message || err.name}); failing open: per-process window, monthly quota not counted`,
      );
    }
    this.degraded = true;
  }

  private up(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.log('info', 'redis available again; shared limits restored');
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  /** This month's counters (account, and per key) for the usage view. */
  async usage(
    accountId: number,
    keyIds: number[],
    nowMs: number,
  ): Promise<{ account: number; keys: number[] }> {
    const month = monthOf(nowMs);
    const names = [
      redisKeys(this.prefix, accountId, 0, month).account,
      ...keyIds.map((id) => redisKeys(this.prefix, accountId, id, month).key),
    ];
    const values = await this.redis.mget(...names);
    const n = values.map((v) => Number(v ?? 0));
    return { account: n[0], keys: n.slice(1) };
  }
}

export interface LimiterHealth {
  store: string;
  status: 'ok' | 'unavailable';
  /** What the service does meanwhile: limits per process, quota not counted. */
  failing_open?: true;
}

/** What /v1/health reports about the limiter's shared store. */
export async function limiterHealth(limiter: Limiter): Promise<LimiterHealth> {
  const store = limiter.store;
  if (await limiter.healthy()) return { store, status: 'ok' };
  return store === 'redis'
    ? { store, status: 'unavailable', failing_open: true }
    : { store, status: 'unavailable' };
}

/** The Redis limiter when REDIS_URL is set, else the PostgreSQL one on the primary. */
export async function createLimiter(
  config: Config,
  db: Db,
  opts: RedisLimiterOptions = {},
): Promise<Limiter> {
  if (config.REDIS_URL) return RedisLimiter.connect(config.REDIS_URL, opts);
  return new PgLimiter(db.write, opts.now);
}
