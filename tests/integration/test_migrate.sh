#!/usr/bin/env bash
# test_migrate.sh — commands that start together on a fresh database all
# migrate it, none fails: in each of ROUNDS rounds, on a new database, six
# commands that open the record with migration start at once (three
# `arbiter submit` of ladders, as entrants' submissions racing each other,
# and three `arbiter dispute list`, the cheapest command that migrates);
# every one exits 0, every embedded migration is recorded once, the latest
# is record/sql's last, and the three ladders are in the record. Before
# store_migrate took its advisory lock around everything, schema_migrations
# itself was created outside the lock and two CREATE TABLE IF NOT EXISTS
# could collide (duplicate key in pg_type), failing one command.
# Then: read commands on an empty and on a foreign database say there is
# no arbiter record; and starts killed (SIGKILL) mid-migration never leave
# a half-migrated record that `arbiter status` fails on (see below).
# Usage: test_migrate.sh ARBITER SOURCE_ROOT [ROUNDS]
set -u
ARB=$1 SRC=$2 ROUNDS=${3:-10}
. "$(dirname "$0")/../lib/test_sh.sh" migrate-test
test_pg_start 55471

versions=$(ls "$SRC"/record/sql/[0-9]*_*.sql | sed 's|.*/0*\([0-9][0-9]*\)_.*|\1|' | sort -n)
nver=$(echo "$versions" | wc -l)
latest=$(echo "$versions" | tail -n 1)
for i in 1 2 3; do
  cat > "$T/ladder$i.yaml" <<EOF
name: race ladder $i
game: doudizhu
format: ladder
deals: 1
ladder:
  matches: 1
EOF
done

failed_rounds=0 failed_cmds=0
for r in $(seq 1 "$ROUNDS"); do
  D=$(newdb "arb_migrate_$r")
  pids=()
  for i in 1 2 3; do
    "$ARB" submit "$T/ladder$i.yaml" --db "$D" > "$T/out.$r.s$i" 2>&1 & pids+=($!)
    "$ARB" dispute list --db "$D" > "$T/out.$r.d$i" 2>&1 & pids+=($!)
  done
  nfail=0
  for p in "${pids[@]}"; do wait "$p" || nfail=$((nfail + 1)); done
  if [ "$nfail" != 0 ]; then
    failed_rounds=$((failed_rounds + 1)) failed_cmds=$((failed_cmds + nfail))
    echo "round $r: $nfail of ${#pids[@]} commands failed:" >&2
    grep -h "ERROR" "$T"/out."$r".* | sort | uniq -c | head -n 3 >&2
  fi
  check "round $r: every embedded migration recorded once" \
    '[ "$(sql "$D" "SELECT count(*), count(DISTINCT version), max(version) FROM schema_migrations")" = "$nver|$nver|$latest" ]'
  check "round $r: no bracket_links (015 dropped the table nothing used)" \
    '[ "$(sql "$D" "SELECT to_regclass('"'bracket_links'"') IS NULL")" = t ]'
  check "round $r: the three ladders submitted" \
    '[ "$(sql "$D" "SELECT count(*) FROM tournaments WHERE name LIKE '"'race ladder %'"'")" = 3 ]'
done
echo "migrate: $failed_cmds of $((ROUNDS * 6)) commands failed, in $failed_rounds of $ROUNDS rounds"
check "every command of every round succeeded" '[ "$failed_rounds" = 0 ]'

# A command that reads the record, on a database with no record, says so
# (exit 3, "no arbiter record in database"), on one holding something
# else's tables likewise (exit 2), and creates nothing there. Before
# store_ready, each failed with raw SQL (relation "tournaments" does not
# exist).
E=$(newdb arb_migrate_empty)
for cmd in status "standings x" "matches x" "ratings x" "verify x" "ladder list x" "report x"; do
  # shellcheck disable=SC2086
  "$ARB" $cmd --db "$E" > "$T/empty.out" 2> "$T/empty.err"; rc=$?
  check "$cmd on an empty database: exit 3, no arbiter record (rc $rc: $(head -c 200 "$T/empty.err"))" \
    '[ "$rc" = 3 ] && grep -q "no arbiter record in database \"arb_migrate_empty\"" "$T/empty.err"'
done
check "the empty database stays empty" \
  '[ "$(sql "$E" "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()")" = 0 ]'
F=$(newdb arb_migrate_foreign)
sql "$F" "CREATE TABLE invoices (id int)" >/dev/null
"$ARB" status --db "$F" > "$T/foreign.out" 2> "$T/foreign.err"; rc=$?
check "status on another application's database: exit 2, no arbiter record (rc $rc: $(head -c 200 "$T/foreign.err"))" \
  '[ "$rc" = 2 ] && grep -q "no arbiter record in database \"arb_migrate_foreign\".*1 tables of something else" "$T/foreign.err"'

# SIGKILL during a first start's migrations, KILLS times on one database at
# delays spread over the migrations' run: the record is never half
# migrated (no versions or all of them) and `arbiter status` after each
# kill answers (0, or 3 for no record yet), never with raw SQL. Before the
# migrations shared one transaction, a kill between two of them left e.g.
# 009 applied and 010 not, and status failed (column ... does not exist).
K=$(newdb arb_migrate_kill)
kills=0 partial=0 bad_status=0
for k in $(seq 1 "${KILLS:-14}"); do
  "$ARB" dispute list --db "$K" > /dev/null 2>&1 & p=$!
  sleep "$(printf '0.%03d' $(( 40 + (k * 37) % 300 )))"   # 40..339 ms: a first start migrates in 100..300
  kill -9 "$p" 2>/dev/null
  wait "$p"; [ $? = 137 ] && kills=$((kills + 1))
  n=$(sql "$K" "SELECT count(*) FROM schema_migrations" 2>/dev/null || echo 0)
  if [ "$n" != 0 ] && [ "$n" != "$nver" ]; then partial=$((partial + 1)); echo "kill $k: $n of $nver migrations" >&2; fi
  "$ARB" status --db "$K" > "$T/kill.out" 2> "$T/kill.err"; rc=$?
  if { [ "$rc" != 0 ] && [ "$rc" != 3 ]; } || grep -q "does not exist" "$T/kill.err"; then
    bad_status=$((bad_status + 1)); echo "kill $k: status rc $rc: $(head -c 300 "$T/kill.err")" >&2
  fi
  # status brings an existing record up to date: start again from nothing
  # half the time, so both the first start and a later one are killed
  [ $((k % 2)) = 0 ] && K=$(newdb arb_migrate_kill)
done
echo "migrate: $kills of ${KILLS:-14} starts killed mid-way; $partial half-migrated records; $bad_status failed status"
check "no kill left a half-migrated record" '[ "$partial" = 0 ]'
check "status answered after every kill" '[ "$bad_status" = 0 ]'
"$ARB" dispute list --db "$K" > /dev/null 2>&1
"$ARB" status --db "$K" > "$T/kill.out" 2> "$T/kill.err"
check "after the kills a start migrates and status answers" \
  '[ $? = 0 ] && [ "$(sql "$K" "SELECT count(*) FROM schema_migrations")" = "$nver" ]'

echo "migrate: $pass passed, $fail failed"
[ "$fail" = 0 ]
