#!/usr/bin/env bash
# test_replica.sh — horizontal reading (issue 29; docs/operations.md,
# "Several serve processes" and "Reading from a replica"), on a PostgreSQL
# of its own (port 55476; a replica needs the cluster's files, so
# ARBITER_TEST_DB is not used):
#   1. two `arbiter serve` processes on one record answer every page and
#      API route with the same bytes after a tournament, and while another
#      runs (neither more than 2.5 s behind the other: each caches a page
#      while the record's change number it read, at most a second old,
#      says it is current);
#   2. a streaming replica made with pg_basebackup -R, started as a hot
#      standby: `arbiter serve --db` on it starts (before the fix it failed:
#      "cannot execute CREATE TABLE in a read-only transaction"), answers
#      as the primary's serve does, and shows a tournament recorded on the
#      primary once replayed; a record on the standby older than the binary
#      (a migration's row removed on the primary) is refused with what to do.
# Exits 77 (skip) when pg_basebackup is missing.
# Usage: test_replica.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
unset ARBITER_TEST_DB
. "$(dirname "$0")/../lib/test_sh.sh" web-replica
PRIMARY_PORT=55476 REPLICA_PORT=55477
test_pg_start $PRIMARY_PORT
if [ ! -x "$pg_bin/pg_basebackup" ]; then
  echo "web-replica: no pg_basebackup in $pg_bin: skipped"
  exit 77
fi
SERVES=() REPLICA=""
stop_all() {
  for p in "${SERVES[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  SERVES=()
  [ -n "$REPLICA" ] && "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$REPLICA" -m fast -w stop >/dev/null 2>&1
  REPLICA=""
}
trap 'stop_all; cleanup' EXIT
# serve_on DB NAME: an arbiter serve on a free port; PORT set ("" when it
# did not start: its stderr in $T/NAME.err)
serve_on() {
  "$ARB" serve --db "$1" --listen 127.0.0.1:0 > "$T/$2.out" 2> "$T/$2.err" &
  SERVES+=($!)
  PORT=""
  for _ in $(seq 1 100); do
    PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/$2.out")
    [ -n "$PORT" ] && return 0
    kill -0 "${SERVES[-1]}" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}
get() { curl -s --max-time 10 "http://127.0.0.1:$1$2"; }
rr_file() {   # rr_file NAME SEED
  printf 'name: %s\ngame: doudizhu\nrules: standard\nformat: round-robin\ndeals: %s\nseed: %s\nfiles_root: /\n' \
    "$1" "${3:-1}" "$2"
  entrants_yaml 5 "$BOTS"
}
D=$(newdb arb_replica)
rr_file "rep one" 3 > "$T/one.yaml"
"$ARB" run "$T/one.yaml" --db "$D" --state "$T/s" --quiet --workers 2 > "$T/one.out" 2>&1
check "the first tournament runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/one.out" >&2
ONE=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'rep one'")
MID=$(sql "$D" "SELECT min(id) FROM matches WHERE tournament_id = $ONE")
# a copy of the record whose schema lacks the newest migration's row: on
# the standby it stands for a record older than the binary
sql "$base" "CREATE DATABASE arb_old TEMPLATE arb_replica"
OLD="$(db) dbname=arb_old"
sql "$OLD" "DELETE FROM schema_migrations WHERE version = (SELECT max(version) FROM schema_migrations)"
ROUTES="/ /api/tournaments /t/$ONE /api/t/$ONE /api/t/$ONE/standings /t/$ONE/e/1 /api/t/$ONE/e/2 /m/$MID /api/m/$MID
/api/m/$MID/transcript /m/$MID/replay /assets/style.css"

# 1. two serve processes on one record
serve_on "$D" a; A=$PORT
serve_on "$D" b; B=$PORT
check "two serve processes start on one record (ports $A, $B)" '[ -n "$A" ] && [ -n "$B" ] && [ "$A" != "$B" ]' ||
  cat "$T/a.err" "$T/b.err" >&2
same=0 differ=""
for r in $ROUTES; do
  x=$(get "$A" "$r" | sha256sum) y=$(get "$B" "$r" | sha256sum)
  if [ "$x" = "$y" ] && [ -n "$(get "$A" "$r")" ]; then same=$((same + 1)); else differ="$differ $r"; fi
done
check "after a tournament both serves answer $same routes with the same bytes (differ:$differ)" '[ -z "$differ" ]'
# while a tournament runs: each server caches a page for as long as the
# record's change number it read (at most a second old) says it is current,
# so two servers may be a second apart, never more: the matches either
# server's standings count (played, summed) are never fewer than the other
# showed 2.5 s before, nor more than it shows 2.5 s after; every page of
# both answers meanwhile
rr_file "rep two" 5 4 > "$T/two.yaml"
"$ARB" run "$T/two.yaml" --db "$D" --state "$T/s" --quiet --workers 1 > "$T/two.out" 2>&1 &
RUN=$!
for _ in $(seq 1 100); do TWO=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'rep two'"); [ -n "$TWO" ] && break; sleep 0.1; done
: > "$T/samples"
bad=0
while kill -0 "$RUN" 2>/dev/null; do
  for s in "$A" "$B"; do
    n=$(get "$s" "/api/t/$TWO/standings" | python3 -c 'import json,sys; print(sum(e["played"] for e in json.load(sys.stdin)))' 2>/dev/null)
    [ -n "$n" ] || bad=$((bad + 1))
    echo "$(date +%s%N) $s ${n:--1}" >> "$T/samples"
    for r in "/t/$TWO" "/"; do [ -n "$(get "$s" "$r")" ] || bad=$((bad + 1)); done
  done
done
wait "$RUN"
check "the second tournament runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/two.out" >&2
agree=$(python3 - "$T/samples" 2.5 <<'PY'
import sys
rows = [(int(t), s, int(v)) for t, s, v in (l.split() for l in open(sys.argv[1]))]
win = float(sys.argv[2]) * 1e9
late = sum(1 for t, s, v in rows for t2, s2, v2 in rows
           if s2 != s and ((t2 <= t - win and v2 > v) or (t2 >= t + win and v2 < v)))
print(len(rows), late, len({v for _, _, v in rows}))
PY
)
read -r seen late kinds <<< "$agree"
check "while it ran, neither serve was over 2.5 s behind the other ($seen standings read, $kinds counts seen, $late behind, $bad pages unanswered)" \
  '[ "$seen" -gt 6 ] && [ "$kinds" -gt 2 ] && [ "$late" = 0 ] && [ "$bad" = 0 ]'
x=$(get "$A" "/api/t/$TWO/standings") y=$(get "$B" "/api/t/$TWO/standings")
check "after it, both serve its standings alike" '[ -n "$x" ] && [ "$x" = "$y" ]'

# 2. a streaming replica, hot standby
REP_DIR="$T/replica"
mkdir -m 700 "$REP_DIR" "$T/rsock"
[ "$(id -u)" = 0 ] && chown postgres "$REP_DIR" "$T/rsock"
"${pg_run[@]}" "$pg_bin/pg_basebackup" -h "$T/pg" -p $PRIMARY_PORT -U arbiter -D "$REP_DIR" -R -X stream -c fast \
  > "$T/basebackup.log" 2>&1
check "pg_basebackup -R copies the cluster" '[ $? = 0 ] && [ -f "$REP_DIR/standby.signal" ]' || cat "$T/basebackup.log" >&2
"${pg_run[@]}" "$pg_bin/pg_ctl" -D "$REP_DIR" -o "-k $T/rsock -c listen_addresses='' -p $REPLICA_PORT" \
  -l "$T/rsock/replica.log" -w start > /dev/null && REPLICA=$REP_DIR
REP="host=$T/rsock port=$REPLICA_PORT user=arbiter dbname=arb_replica"
check "the replica runs as a hot standby" '[ "$(sql "$REP" "SELECT pg_is_in_recovery()")" = t ]' ||
  tail -n 20 "$T/rsock/replica.log" >&2
serve_on "$REP" rep; R=$PORT
check "arbiter serve --db on the standby starts" '[ -n "$R" ]' || cat "$T/rep.err" >&2
differ=""
for r in $ROUTES "/t/$TWO" "/api/t/$TWO/standings"; do
  [ "$(get "$A" "$r" | sha256sum)" = "$(get "$R" "$r" | sha256sum)" ] || differ="$differ $r"
done
check "the standby's serve answers as the primary's (differ:$differ)" '[ -z "$differ" ]'
rr_file "rep three" 7 > "$T/three.yaml"
"$ARB" run "$T/three.yaml" --db "$D" --state "$T/s" --quiet --workers 2 > "$T/three.out" 2>&1
check "a third tournament runs to the end on the primary" '[ $? = 0 ]' || tail -n 20 "$T/three.out" >&2
THREE=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'rep three'")
seen=""
for _ in $(seq 1 100); do
  x=$(get "$A" "/api/t/$THREE/standings") y=$(get "$R" "/api/t/$THREE/standings")
  [ -n "$x" ] && [ "$x" = "$y" ] && seen=1 && break
  sleep 0.2
done
check "the standby's serve shows the new tournament's standings once replayed" '[ -n "$seen" ]'
check "... and lists it on its front page" 'get "$R" / | grep -q "rep three"'
check "the standby took no write from serve (still in recovery)" '[ "$(sql "$REP" "SELECT pg_is_in_recovery()")" = t ]'
REP_OLD="host=$T/rsock port=$REPLICA_PORT user=arbiter dbname=arb_old"
timeout 20 "$ARB" serve --db "$REP_OLD" --listen 127.0.0.1:0 > "$T/old.out" 2> "$T/old.err"
rc=$?
check "serve on a standby whose record is older than the binary exits 2 ($rc)" '[ $rc = 2 ]'
check "... saying it is a read-only standby and to upgrade the record on the primary" \
  'grep -q "read-only standby" "$T/old.err" && grep -q "on the primary" "$T/old.err"' || cat "$T/old.err" >&2

echo "web-replica: $pass passed, $fail failed"
[ "$fail" = 0 ]
