// SQL of the PostgreSQL limiter and of the operator's account and usage commands.
// The take itself is the function limiter_take_many (migration 16; limiter_take is a take of one):
// one statement, one round trip.
import type pg from 'pg';

export const WINDOW_MS = 60_000;

/** 0 admitted, 1 over the per-minute limit, 2 monthly quota exhausted. */
export type TakeOutcome = 0 | 1 | 2;

export interface TakeResult {
  outcome: TakeOutcome;
  /** Requests of the key in the window, this one included when admitted. */
  inWindow: number;
  /** Time of the oldest request in the window (epoch ms), or null when the window is empty. */
  oldestMs: number | null;
}

/** The calendar month (UTC) of an instant, as its first day: `YYYY-MM-01`. */
export function monthOf(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** The instant the month of `ms` ends (the first moment of the next month, UTC), ISO 8601. */
export function monthEnd(ms: number): string {
  const d = new Date(ms);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().replace('.000Z', 'Z');
}

export async function takeRequest(
  pool: pg.Pool,
  o: { keyId: number; accountId: number; nowMs: number; limit: number; quota: number },
): Promise<TakeResult> {
  const { rows } = await pool.query<{ outcome: number; in_window: number; oldest_ms: number | null }>({
    name: 'limiter_take',
    text: 'SELECT outcome, in_window, oldest_ms FROM limiter_take($1, $2, $3, $4, $5, $6, $7)',
    values: [o.keyId, o.accountId, o.nowMs, WINDOW_MS, o.limit, o.quota, monthOf(o.nowMs)],
  });
  const r = rows[0];
  return { outcome: r.outcome as TakeOutcome, inWindow: r.in_window, oldestMs: r.oldest_ms };
}

/**
 * Vacuums the window rows. The purge (below, run just before) deletes the rows that left their keys'
 * windows in bulk; takes read above every deleted entry (migration 21), and the vacuum keeps the table
 * and its index from growing with the dead ones.
 */
export async function vacuumRateHits(pool: pg.Pool): Promise<void> {
  await pool.query('VACUUM rate_hits');
}

/**
 * Deletes the window rows that left their keys' windows at `nowMs`, moving each such key's window on
 * first (a take moves only its own, and deletes nothing). Returns the number of requests whose rows were
 * deleted.
 */
export async function purgeRateHits(pool: pg.Pool, nowMs: number): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT limiter_purge($1, $2) AS n', [nowMs, WINDOW_MS]);
  return Number(rows[0].n);
}

// --- accounts (operator commands) ---

export interface AccountRow {
  id: number;
  name: string;
  rate_limit: number;
  monthly_quota: number;
  created_at: string;
  active_keys: number;
}

const ACCOUNT_COLUMNS = `a.id::int AS id, a.name, a.rate_limit, a.monthly_quota::float8 AS monthly_quota, a.created_at,
  (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS active_keys`;

/** Creates an account; undefined when the name is taken. */
export async function createAccount(
  pool: pg.Pool,
  name: string,
  rateLimit: number,
  monthlyQuota: number,
): Promise<AccountRow | undefined> {
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO accounts (name, rate_limit, monthly_quota) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO NOTHING RETURNING id`,
    [name, rateLimit, monthlyQuota],
  );
  return rows[0] ? getAccount(pool, name) : undefined;
}

async function getAccount(pool: pg.Pool, name: string): Promise<AccountRow | undefined> {
  const { rows } = await pool.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.name = $1`,
    [name],
  );
  return rows[0];
}

export async function listAccounts(pool: pg.Pool): Promise<AccountRow[]> {
  const { rows } = await pool.query<AccountRow>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.id`);
  return rows;
}

/** Changes the limits of an account (null keeps a value); they apply from the account's next request. */
export async function setLimits(
  pool: pg.Pool,
  name: string,
  rateLimit: number | null,
  monthlyQuota: number | null,
): Promise<AccountRow | undefined> {
  const { rowCount } = await pool.query(
    `UPDATE accounts SET rate_limit = coalesce($2, rate_limit), monthly_quota = coalesce($3, monthly_quota)
      WHERE name = $1`,
    [name, rateLimit, monthlyQuota],
  );
  return rowCount ? getAccount(pool, name) : undefined;
}

export interface KeyUsage {
  key_id: number;
  prefix: string;
  revoked: boolean;
  requests: number;
}

export interface AccountUsage {
  account_id: number;
  account: string;
  month: string;
  requests: number;
  monthly_quota: number;
  keys: KeyUsage[];
}

/** The accounts (one, or all) with their keys: the skeleton that the usage counters fill in. */
export async function usageSkeleton(pool: pg.Pool, month: string, name?: string): Promise<AccountUsage[]> {
  const { rows } = await pool.query<{
    id: number;
    name: string;
    monthly_quota: number;
    key_id: number | null;
    prefix: string | null;
    revoked: boolean | null;
  }>(
    `SELECT a.id::int AS id, a.name, a.monthly_quota::float8 AS monthly_quota,
            k.id::int AS key_id, k.prefix, k.revoked_at IS NOT NULL AS revoked
       FROM accounts a LEFT JOIN api_keys k ON k.account_id = a.id
      WHERE $1::text IS NULL OR a.name = $1
      ORDER BY a.id, k.id`,
    [name ?? null],
  );
  const out: AccountUsage[] = [];
  for (const r of rows) {
    let acc = out[out.length - 1];
    if (!acc || acc.account_id !== r.id) {
      acc = {
        account_id: r.id,
        account: r.name,
        month,
        requests: 0,
        monthly_quota: r.monthly_quota,
        keys: [],
      };
      out.push(acc);
    }
    if (r.key_id !== null)
      acc.keys.push({ key_id: r.key_id, prefix: r.prefix!, revoked: r.revoked!, requests: 0 });
  }
  return out;
}

/** Requests of the month per account and per key, from the PostgreSQL counters. */
export async function monthlyUsage(pool: pg.Pool, month: string, name?: string): Promise<AccountUsage[]> {
  const accounts = await usageSkeleton(pool, month, name);
  const ids = accounts.map((a) => a.account_id);
  const keyIds = accounts.flatMap((a) => a.keys.map((k) => k.key_id));
  const [acc, keys] = await Promise.all([
    pool.query<{ id: number; n: number }>(
      'SELECT account_id::int AS id, n FROM usage_account_month WHERE month = $1 AND account_id = ANY($2::bigint[])',
      [month, ids],
    ),
    pool.query<{ id: number; n: number }>(
      'SELECT key_id::int AS id, n FROM usage_key_month WHERE month = $1 AND key_id = ANY($2::bigint[])',
      [month, keyIds],
    ),
  ]);
  const accN = new Map(acc.rows.map((r) => [r.id, r.n]));
  const keyN = new Map(keys.rows.map((r) => [r.id, r.n]));
  for (const a of accounts) {
    a.requests = accN.get(a.account_id) ?? 0;
    for (const k of a.keys) k.requests = keyN.get(k.key_id) ?? 0;
  }
  return accounts;
}
