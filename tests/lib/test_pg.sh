# test_pg.sh — sourced by the shell tests: the database a test records in.
# $ARBITER_TEST_DB when set (CI starts one), else a PostgreSQL cluster of
# the test's own in $T/pg (made for this run, trust on a Unix socket in $T/pg
# only, no TCP; PORT only names the socket), stopped by test_pg_stop — call
# it from the test's EXIT trap, set before test_pg_start; test_pg_restart
# restarts it. Needs T (the test's directory). Defines base (a conninfo),
# and db, newdb and sql.
test_pg_start() {   # test_pg_start PORT
  PGPID=""
  base=${ARBITER_TEST_DB:-}
  [ -n "$base" ] && return 0
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$pg_bin" ] || { echo "no PostgreSQL installed"; exit 77; }
  pg_run=()
  if [ "$(id -u)" = 0 ]; then mkdir -p "$T/pg"; chown postgres "$T/pg"; pg_run=(runuser -u postgres --); fi
  "${pg_run[@]}" "$pg_bin/initdb" -D "$T/pg" -A trust -U arbiter --no-sync >/dev/null || exit 2
  "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$T/pg" -o "-k $T/pg -c listen_addresses='' -p $1" -l "$T/pg/log" -w start \
    >/dev/null || exit 2
  PGPID=1
  base="host=$T/pg port=$1 user=arbiter dbname=postgres"
}
test_pg_restart() {   # test_pg_restart MODE: pg_ctl restart -m MODE (the private cluster only)
  "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$T/pg" -m "$1" -l "$T/pg/log" -w restart >/dev/null
}
test_pg_stop() {
  if [ -n "${PGPID:-}" ]; then "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$T/pg" -m fast -w stop >/dev/null 2>&1; fi
}
db() { echo "$base" | sed "s/dbname=[^ ]*//"; }   # the server, without a database
newdb() {   # newdb NAME: a fresh database, its conninfo
  psql "$base" -qAtc "DROP DATABASE IF EXISTS $1" >/dev/null 2>&1
  psql "$base" -qAtc "CREATE DATABASE $1" >/dev/null
  echo "$(db) dbname=$1"
}
sql() { psql "$1" -qAtc "$2"; }
