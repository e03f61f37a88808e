// Migration 10. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 10,
  name: 'admission in one statement',
  // Every authenticated request needs its key, the limiter's step and the data version (the key of the
  // cached totals): one statement instead of three. Without p_now (the Redis or memory limiter) the
  // limiter's step is left to the caller.
  sql: `
CREATE FUNCTION api_admit(p_hash bytea, p_now bigint, p_window bigint, p_month date,
                          OUT key_id int, OUT account_id int, OUT rate_limit int, OUT monthly_quota bigint,
                          OUT version bigint, OUT outcome int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  SELECT d.version INTO version FROM data_version d WHERE d.id = 1;
  SELECT k.id, a.id, a.rate_limit, a.monthly_quota INTO key_id, account_id, rate_limit, monthly_quota
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
   WHERE k.key_hash = p_hash AND k.revoked_at IS NULL;
  IF key_id IS NULL OR p_now IS NULL THEN
    RETURN;
  END IF;
  SELECT t.outcome, t.in_window, t.oldest_ms INTO outcome, in_window, oldest_ms
    FROM limiter_take(key_id, account_id, p_now, p_window, rate_limit, monthly_quota, p_month) t;
END
$fn$;
`,
};
