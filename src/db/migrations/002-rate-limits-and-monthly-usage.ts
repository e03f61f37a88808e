// Migration 2. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 2,
  name: 'rate limits and monthly usage',
  sql: `
-- Requests admitted in the last 60 seconds per key (epoch milliseconds of the limiter's clock).
-- Rows older than the window are deleted by the next request of the same key (and by a periodic purge).
-- Unlogged: no WAL for these short-lived rows; a database crash empties the windows, nothing more.
CREATE UNLOGGED TABLE rate_hits (
  key_id bigint NOT NULL,
  at_ms  bigint NOT NULL
);
CREATE INDEX rate_hits_key_at ON rate_hits (key_id, at_ms);

-- Requests admitted per calendar month (UTC), per account (the quota) and per key (the usage view).
CREATE TABLE usage_account_month (
  account_id bigint NOT NULL,
  month      date NOT NULL,
  n          bigint NOT NULL,
  PRIMARY KEY (account_id, month)
);
CREATE TABLE usage_key_month (
  key_id bigint NOT NULL,
  month  date NOT NULL,
  n      bigint NOT NULL,
  PRIMARY KEY (key_id, month)
);

-- One call per request, exact across processes: the per-key advisory lock serialises the takes of a
-- key, and each statement of this (volatile) function takes a fresh snapshot after the lock, so it sees
-- every hit committed before. The account counter is incremented only while under the quota
-- (ON CONFLICT locks the row and sees its latest version). A denied request changes nothing.
-- The commit does not wait for the WAL flush (synchronous_commit off for this transaction only): the
-- result is visible to every other session at once, so exactness holds; a crash may lose the counts of
-- the last fraction of a second, in the client's favour.
-- outcome: 0 admitted, 1 over the per-minute limit, 2 monthly quota exhausted.
CREATE FUNCTION limiter_take(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                             p_limit int, p_quota bigint, p_month date,
                             OUT outcome int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  DELETE FROM rate_hits WHERE key_id = p_key AND at_ms <= p_now - p_window;
  SELECT count(*)::int, min(at_ms) INTO in_window, oldest_ms
    FROM rate_hits WHERE key_id = p_key AND at_ms > p_now - p_window;
  SELECT u.n INTO used FROM usage_account_month u WHERE u.account_id = p_account AND u.month = p_month;
  IF coalesce(used, 0) >= p_quota THEN
    outcome := 2;
    RETURN;
  END IF;
  IF in_window >= p_limit THEN
    outcome := 1;
    RETURN;
  END IF;
  INSERT INTO usage_account_month AS u (account_id, month, n) VALUES (p_account, p_month, 1)
    ON CONFLICT (account_id, month) DO UPDATE SET n = u.n + 1 WHERE u.n < p_quota
    RETURNING u.n INTO used;
  IF used IS NULL THEN
    outcome := 2;  -- another key of the account took the last request of the month meanwhile
    RETURN;
  END IF;
  INSERT INTO rate_hits (key_id, at_ms) VALUES (p_key, p_now);
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, 1)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + 1;
  outcome := 0;
  in_window := in_window + 1;
  oldest_ms := coalesce(oldest_ms, p_now);
END
$fn$;
`,
};
