#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on a loopback port and prints its URL.
# Usage: eval "$(scripts/test-postgres.sh start)"   …   scripts/test-postgres.sh stop
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
DIR=${PGTEST_DIR:-/tmp/linecrew-pg}
PORT=${PGTEST_PORT:-55432}
case "${1:-start}" in
  start)
    [ -x "$PGBIN/initdb" ] || { echo "PostgreSQL server binaries not found (apt-get install -y postgresql)" >&2; exit 1; }
    if [ -f "$DIR/postmaster.pid" ]; then su postgres -c "$PGBIN/pg_ctl -D $DIR -m fast stop" >&2 || true; fi
    rm -rf "$DIR" && mkdir -p "$DIR" && chown postgres "$DIR"
    su postgres -c "$PGBIN/initdb -D $DIR -U postgres --auth=trust -E UTF8 --no-locale" >/dev/null
    su postgres -c "$PGBIN/pg_ctl -D $DIR -l $DIR/server.log -o '-p $PORT -c listen_addresses=127.0.0.1 -k $DIR -c fsync=off -c max_connections=200' -w start" >&2
    echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$PORT/postgres"
    ;;
  stop)
    su postgres -c "$PGBIN/pg_ctl -D $DIR -m fast stop" >&2 || true
    ;;
esac
