// Accounts and API keys. A key is shown once; only its SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { monthOf, type TakeOutcome, type TakeResult, WINDOW_MS } from './usage.ts';

export const MAX_ACTIVE_KEYS = 10;

export function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

function newKey(prefix: string): string {
  return prefix + randomBytes(24).toString('hex');
}

export interface Account {
  id: number;
  name: string;
  rate_limit: number;
  monthly_quota: number;
}

export async function ensureAccount(
  pool: pg.Pool,
  name: string,
  rateLimit: number,
  monthlyQuota: number,
): Promise<Account> {
  const { rows } = await pool.query<Account>(
    `INSERT INTO accounts (name, rate_limit, monthly_quota) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
     RETURNING id, name, rate_limit, monthly_quota`,
    [name, rateLimit, monthlyQuota],
  );
  return rows[0];
}

export class KeyLimitError extends Error {}

/** Creates a key for the account; refuses an 11th active key. Returns the key (shown once). */
export async function createKey(
  pool: pg.Pool,
  accountId: number,
  prefix: string,
): Promise<{ id: number; key: string }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Serialise key creation per account so two concurrent creations cannot both pass the check.
    await client.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
    const { rows } = await client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL',
      [accountId],
    );
    if (rows[0].n >= MAX_ACTIVE_KEYS) {
      throw new KeyLimitError(`the account already has ${MAX_ACTIVE_KEYS} active keys; revoke one first`);
    }
    const key = newKey(prefix);
    const ins = await client.query<{ id: number }>(
      'INSERT INTO api_keys (account_id, key_hash, prefix) VALUES ($1, $2, $3) RETURNING id',
      [accountId, hashKey(key), key.slice(0, prefix.length + 6)],
    );
    await client.query('COMMIT');
    return { id: ins.rows[0].id, key };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export interface KeyListing {
  id: number;
  account: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export async function listKeys(pool: pg.Pool, account?: string): Promise<KeyListing[]> {
  const { rows } = await pool.query<KeyListing>(
    `SELECT k.id::int AS id, a.name AS account, k.prefix, k.created_at, k.last_used_at, k.revoked_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE $1::text IS NULL OR a.name = $1 ORDER BY k.id`,
    [account ?? null],
  );
  return rows;
}

export async function revokeKey(pool: pg.Pool, id: number): Promise<boolean> {
  const { rowCount } = await pool.query(
    'UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL',
    [id],
  );
  return (rowCount ?? 0) > 0;
}

export interface KeyOwner {
  key_id: number;
  account_id: number;
  rate_limit: number;
  monthly_quota: number;
}

export interface Admitted {
  owner: KeyOwner;
  /** The data version when the key was read (the key of the cached totals). */
  version: number;
  /** The PostgreSQL limiter's step for each request, in order, when it was asked for (`take`). */
  taken?: TakeResult[];
}

/**
 * The active key with this hash (read on every request, so revocation is immediate) and the data version,
 * in one statement (api_admit_many, migration 16); with `take`, the PostgreSQL limiter's step for `n`
 * requests of the key at once too: the first that fit are admitted, the rest refused. Undefined when no
 * active key has this hash.
 */
export async function admitKey(
  pool: pg.Pool,
  hash: Buffer,
  take?: { nowMs: number; n: number },
): Promise<Admitted | undefined> {
  const { rows } = await pool.query<{
    key_id: number | null;
    account_id: number;
    rate_limit: number;
    monthly_quota: number;
    version: number;
    admitted: number | null;
    refusal: TakeOutcome;
    in_window: number;
    oldest_ms: number | null;
  }>({
    name: 'api_admit_many',
    text: 'SELECT * FROM api_admit_many($1, $2, $3, $4, $5)',
    values: [hash, take?.nowMs ?? null, WINDOW_MS, take ? monthOf(take.nowMs) : null, take?.n ?? 0],
  });
  const r = rows[0];
  if (r.key_id === null) return undefined;
  const owner = {
    key_id: r.key_id,
    account_id: r.account_id,
    rate_limit: r.rate_limit,
    monthly_quota: r.monthly_quota,
  };
  if (!take || r.admitted === null) return { owner, version: r.version };
  // The i-th admitted request is the (in_window + i + 1)-th of the window; the refused ones see it full.
  const k = r.admitted;
  const oldest = r.oldest_ms ?? (k > 0 ? take.nowMs : null);
  const taken = Array.from(
    { length: take.n },
    (_, i): TakeResult =>
      i < k
        ? { outcome: 0, inWindow: r.in_window + i + 1, oldestMs: oldest }
        : { outcome: r.refusal, inWindow: r.in_window + k, oldestMs: oldest },
  );
  return { owner, version: r.version, taken };
}

/** Writes the batched last-used times. */
export async function touchKeys(pool: pg.Pool, used: Map<number, Date>): Promise<void> {
  if (!used.size) return;
  await pool.query(
    `UPDATE api_keys k SET last_used_at = greatest(k.last_used_at, u.at)
       FROM unnest($1::bigint[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
    [[...used.keys()], [...used.values()]],
  );
}
