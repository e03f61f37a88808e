// Migration 17. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 17,
  name: 'rate limits: one window row per take',
  // A take of n requests wrote n rows of rate_hits, all at one instant. Each take deletes its key's
  // rows that left the window, and that delete walks over every index entry deleted since the last
  // vacuum: at 2,400 requests a second of one key, 140,000 rows a minute, and takes of 2-4 ms in some
  // windows even with a vacuum every 5 s. A take now writes one row with its count, n; the window is
  // the sum of n (rate_windows keeps it, as before). Rows of the version before (n = 1) still count.
  sql: `
ALTER TABLE rate_hits ADD COLUMN n int NOT NULL DEFAULT 1;

CREATE OR REPLACE FUNCTION limiter_take_many(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                             p_limit int, p_quota bigint, p_month date, p_n int,
                                             OUT admitted int, OUT refusal int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
  left_window int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  WITH gone AS (DELETE FROM rate_hits WHERE key_id = p_key AND at_ms <= p_now - p_window RETURNING n)
  SELECT coalesce(sum(gone.n), 0)::int INTO left_window FROM gone;
  IF left_window > 0 THEN
    UPDATE rate_windows SET n = n - left_window WHERE key_id = p_key RETURNING n INTO in_window;
  ELSE
    SELECT w.n INTO in_window FROM rate_windows w WHERE w.key_id = p_key;
  END IF;
  in_window := coalesce(in_window, 0);
  SELECT h.at_ms INTO oldest_ms FROM rate_hits h WHERE h.key_id = p_key ORDER BY h.at_ms LIMIT 1;
  admitted := 0;
  LOOP
    -- The account's row, locked (other keys of the account take from the same quota).
    SELECT u.n INTO used FROM usage_account_month u
     WHERE u.account_id = p_account AND u.month = p_month FOR UPDATE;
    admitted := greatest(0, least(p_n, p_limit - in_window, p_quota - coalesce(used, 0)));
    EXIT WHEN admitted = 0;
    IF used IS NOT NULL THEN
      UPDATE usage_account_month SET n = n + admitted WHERE account_id = p_account AND month = p_month;
      EXIT;
    END IF;
    INSERT INTO usage_account_month (account_id, month, n) VALUES (p_account, p_month, admitted)
      ON CONFLICT (account_id, month) DO NOTHING;
    EXIT WHEN FOUND;
    -- Another key of the account created the row meanwhile: read it again, locked.
  END LOOP;
  -- Why the requests beyond the admitted ones are refused: the quota wins when both are reached.
  refusal := CASE WHEN admitted = p_n THEN 0
                  WHEN coalesce(used, 0) + admitted >= p_quota THEN 2 ELSE 1 END;
  IF admitted = 0 THEN
    RETURN;
  END IF;
  INSERT INTO rate_hits (key_id, at_ms, n) VALUES (p_key, p_now, admitted);
  INSERT INTO rate_windows AS w (key_id, n) VALUES (p_key, admitted)
    ON CONFLICT (key_id) DO UPDATE SET n = w.n + admitted;
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, admitted)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + admitted;
END
$fn$;

CREATE OR REPLACE FUNCTION limiter_purge(p_now bigint, p_window bigint) RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  k bigint;
  removed int;
  total bigint := 0;
BEGIN
  FOR k IN SELECT DISTINCT key_id FROM rate_hits WHERE at_ms <= p_now - p_window LOOP
    PERFORM pg_advisory_xact_lock(7410002, (k % 2147483647)::int);
    WITH gone AS (DELETE FROM rate_hits WHERE key_id = k AND at_ms <= p_now - p_window RETURNING n)
    SELECT coalesce(sum(gone.n), 0)::int INTO removed FROM gone;
    UPDATE rate_windows SET n = n - removed WHERE key_id = k;
    DELETE FROM rate_windows WHERE key_id = k AND n <= 0;
    total := total + removed;
  END LOOP;
  RETURN total;
END
$fn$;
`,
};
