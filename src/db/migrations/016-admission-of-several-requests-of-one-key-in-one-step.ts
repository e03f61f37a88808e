// Migration 16. Released: frozen, never edited (a change is a new migration). What it needs is
// written here, not imported, so that no later edit elsewhere changes what it does to a new database.
import type { Migration } from './migration.ts';

export const migration: Migration = {
  id: 16,
  name: 'admission of several requests of one key in one step',
  // Every take of a key holds the key's lock until it commits, so one key's requests are admitted one
  // at a time: about 2,300 a second however many connections it uses. A process now sends the requests
  // of a key that arrive while an earlier one is being admitted as one take of p_n requests (http/
  // auth.ts): the first that fit the window and the quota are admitted, in order, the rest refused
  // with the reason. Exact as before: every change of a key's rows and of its account's month counter
  // happens under the same locks. limiter_take becomes a take of one request, so the PostgreSQL limiter
  // has one implementation; it and api_admit stay for processes of the version before.
  sql: `
CREATE FUNCTION limiter_take_many(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                  p_limit int, p_quota bigint, p_month date, p_n int,
                                  OUT admitted int, OUT refusal int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  used bigint;
  left_window int;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(7410002, (p_key % 2147483647)::int);
  WITH gone AS (DELETE FROM rate_hits WHERE key_id = p_key AND at_ms <= p_now - p_window RETURNING 1)
  SELECT count(*)::int INTO left_window FROM gone;
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
  INSERT INTO rate_hits (key_id, at_ms) SELECT p_key, p_now FROM generate_series(1, admitted);
  INSERT INTO rate_windows AS w (key_id, n) VALUES (p_key, admitted)
    ON CONFLICT (key_id) DO UPDATE SET n = w.n + admitted;
  INSERT INTO usage_key_month AS u (key_id, month, n) VALUES (p_key, p_month, admitted)
    ON CONFLICT (key_id, month) DO UPDATE SET n = u.n + admitted;
END
$fn$;

CREATE OR REPLACE FUNCTION limiter_take(p_key bigint, p_account bigint, p_now bigint, p_window bigint,
                                        p_limit int, p_quota bigint, p_month date,
                                        OUT outcome int, OUT in_window int, OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  taken int;
BEGIN
  SELECT t.admitted, t.refusal, t.in_window, t.oldest_ms INTO taken, outcome, in_window, oldest_ms
    FROM limiter_take_many(p_key, p_account, p_now, p_window, p_limit, p_quota, p_month, 1) t;
  IF taken = 1 THEN
    in_window := in_window + 1;
    oldest_ms := coalesce(oldest_ms, p_now);
  END IF;
END
$fn$;

CREATE FUNCTION api_admit_many(p_hash bytea, p_now bigint, p_window bigint, p_month date, p_n int,
                               OUT key_id int, OUT account_id int, OUT rate_limit int, OUT monthly_quota bigint,
                               OUT version bigint, OUT admitted int, OUT refusal int, OUT in_window int,
                               OUT oldest_ms bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  SELECT d.version INTO version FROM data_version d WHERE d.id = 1;
  SELECT k.id, a.id, a.rate_limit, a.monthly_quota INTO key_id, account_id, rate_limit, monthly_quota
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
   WHERE k.key_hash = p_hash AND k.revoked_at IS NULL;
  IF key_id IS NULL OR p_now IS NULL THEN
    RETURN;
  END IF;
  SELECT t.admitted, t.refusal, t.in_window, t.oldest_ms INTO admitted, refusal, in_window, oldest_ms
    FROM limiter_take_many(key_id, account_id, p_now, p_window, rate_limit, monthly_quota, p_month, p_n) t;
END
$fn$;
`,
};
