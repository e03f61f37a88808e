#!/usr/bin/env bash
# A streaming replica of the local PostgreSQL 15 primary, for the tests that read from a replica.
#
#   scripts/replica.sh start    base backup of the primary (pg_basebackup -R), then start it as a hot standby
#   scripts/replica.sh stop     stop it and remove its data directory
#   scripts/replica.sh status   print whether it runs and how far it lags
#
# Settings (environment): PRIMARY_PORT (5432), REPLICA_PORT (5433), REPLICA_DIR
# (/var/lib/postgresql/replica-$REPLICA_PORT), APPLY_DELAY (200ms: commits become visible on the replica
# that much later, so tests see real lag). PostgreSQL's tools run as the postgres user.
# Once started:  TEST_READ_URL_BASE=postgres://postgres@127.0.0.1:5433 \
#                DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run test/lifecycle
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PRIMARY_PORT=${PRIMARY_PORT:-5432}
REPLICA_PORT=${REPLICA_PORT:-5433}
REPLICA_DIR=${REPLICA_DIR:-/var/lib/postgresql/replica-$REPLICA_PORT}
APPLY_DELAY=${APPLY_DELAY:-200ms}
HBA=${HBA:-$(ls /etc/postgresql/15/main/pg_hba.conf 2>/dev/null || true)}

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}
psql_primary() { "$PG_BIN/psql" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres -XAtq "$@"; }

allow_replication() {
  # pg_hba's "all" does not cover replication connections: they need their own line.
  if [ -n "$HBA" ] && ! grep -Eq '^\s*host\s+replication\s+all\s+127\.0\.0\.1/32' "$HBA"; then
    echo "host replication all 127.0.0.1/32 trust" >>"$HBA"
    psql_primary -c 'SELECT pg_reload_conf()' >/dev/null
    sleep 0.5
  fi
}

start() {
  if as_postgres "$PG_BIN/pg_ctl" -D "$REPLICA_DIR" status >/dev/null 2>&1; then
    echo "replica already running on port $REPLICA_PORT"
    return
  fi
  allow_replication
  rm -rf "$REPLICA_DIR"
  install -d -o postgres -g postgres -m 700 "$REPLICA_DIR"
  # -R writes standby.signal and primary_conninfo; -X stream copies the WAL written during the backup.
  as_postgres "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PRIMARY_PORT" -U postgres \
    -D "$REPLICA_DIR" -R -X stream -c fast
  # The primary's configuration files live outside its data directory (Debian layout): give the
  # replica its own.
  as_postgres tee "$REPLICA_DIR/postgresql.conf" >/dev/null <<EOF
port = $REPLICA_PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '/var/run/postgresql'
max_connections = 200
shared_buffers = 128MB
hot_standby = on
# Vacuum on the primary waits for the replica's queries instead of cancelling them.
hot_standby_feedback = on
recovery_min_apply_delay = '$APPLY_DELAY'
shared_preload_libraries = 'pg_stat_statements'
logging_collector = off
EOF
  as_postgres tee "$REPLICA_DIR/pg_hba.conf" >/dev/null <<EOF
local all all trust
host all all 127.0.0.1/32 trust
EOF
  as_postgres "$PG_BIN/pg_ctl" -D "$REPLICA_DIR" -l "$REPLICA_DIR/log" -w -t 60 start >/dev/null
  for _ in $(seq 1 100); do
    if [ "$("$PG_BIN/psql" -h 127.0.0.1 -p "$REPLICA_PORT" -U postgres -XAtqc 'SELECT pg_is_in_recovery()' 2>/dev/null)" = t ]; then
      echo "replica streaming from port $PRIMARY_PORT on port $REPLICA_PORT (apply delay $APPLY_DELAY)"
      return
    fi
    sleep 0.2
  done
  echo "replica did not come up; see $REPLICA_DIR/log" >&2
  exit 1
}

stop() {
  if [ -d "$REPLICA_DIR" ]; then
    as_postgres "$PG_BIN/pg_ctl" -D "$REPLICA_DIR" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$REPLICA_DIR"
  fi
  echo "replica on port $REPLICA_PORT stopped"
}

status() {
  if ! as_postgres "$PG_BIN/pg_ctl" -D "$REPLICA_DIR" status >/dev/null 2>&1; then
    echo "no replica running on port $REPLICA_PORT"
    exit 3
  fi
  "$PG_BIN/psql" -h 127.0.0.1 -p "$REPLICA_PORT" -U postgres -XAtqc \
    "SELECT 'replaying up to ' || pg_last_wal_replay_lsn() || ', last commit applied ' || coalesce(pg_last_xact_replay_timestamp()::text, 'none')"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *)
    echo "usage: $0 start|stop|status" >&2
    exit 2
    ;;
esac
