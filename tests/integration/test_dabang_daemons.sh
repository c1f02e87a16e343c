#!/usr/bin/env bash
# test_dabang_daemons.sh — a Da Bang tournament of teams on the distributed
# deployment: arbiter-scheduler and two arbiter-referee daemons over
# CURVE-encrypted tcp on localhost, a real PostgreSQL, the teams' programs
# (C, and Python with the SDK package beside the script) fetched by digest
# into each referee's cache. The eight-team double elimination of
# test_dabang_tournament.sh, submitted with the secret of a one-machine
# `arbiter run` of the same file, runs while referees are killed with
# SIGKILL in the middle of a match and restarted: the tournament finishes,
# every match recorded once and none void, and the team standings, member
# standings, bracket and deals equal the one-machine run's.
# The database: $ARBITER_TEST_DB when set (CI starts one), else a private
# cluster started here.
# Usage: test_dabang_daemons.sh ARBITER ARBITER_SCHEDULER ARBITER_REFEREE BOTS_DIR SOURCE_ROOT
set -u
ARB=$1 SCHED=$2 REF=$3 BOTS=$4 SRC=$5
. "$SRC/tests/lib/test_sh.sh" dabang-daemons-test
. "$SRC/tests/lib/dabang_teams.sh"
cd "$T" || exit 2
say() { echo "-- $*" >&2; }
PIDS=()   # the daemons started here, stopped on the way out
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
  wait 2>/dev/null
  test_pg_stop
  rm -rf "$T"
}
test_pg_start 55452

for k in sched w1 w2; do "$ARB" keygen "$T/$k" > /dev/null; done
for k in w1 w2; do echo "$(head -1 $k.pub) $k"; done > workers.txt
dabang_config de8 double-elimination 8 4 "$BOTS" "$SRC" "$T" > de.yaml
PORT=$((21000 + RANDOM % 20000))
EP="tcp://127.0.0.1:$PORT"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > secret; chmod 600 secret

# The reference: the same file and secret on one machine.
LDB=$(newdb arb_dabang_daemons_local)
"$ARB" run de.yaml --db "$LDB" --state local --quiet --workers 2 --secret-file secret > local.out 2>&1
check "the one-machine run finished" '[ $? = 0 ] && [ "$(sql "$LDB" "SELECT state FROM tournaments")" = done ]'
N=$(sql "$LDB" "SELECT count(*) FROM matches WHERE state = 'done'")
"$ARB" standings de8 --db "$LDB" --format json > local.json

start_sched() {
  "$SCHED" --db "$D" --state "$T/sched-state" --listen "$EP" --key "$T/sched" --worker-keys workers.txt \
    --heartbeat-ms 200 --heartbeat-misses 5 --lease-s 8 --metrics "" >> sched.log 2>&1 &
  SPID=$!; PIDS+=("$SPID")
}
declare -A RP
start_ref() {  # start_ref KEY
  "$REF" --connect "$EP" --server-key "$T/sched.pub" --key "$T/$1" --slots 2 --workdir "$T/$1-dir" \
    --heartbeat-ms 200 --heartbeat-misses 5 --metrics "" >> "$1.log" 2>&1 &
  RP[$1]=$!; PIDS+=("$!")
}
done_count() { sql "$D" "SELECT count(*) FROM matches WHERE state = 'done'"; }

say "the double elimination of 8 teams on a scheduler and two referees"
D=$(newdb arb_dabang_daemons)
"$ARB" submit de.yaml --db "$D" --secret-file secret > submit.out 2>&1
check "arbiter submit puts the team tournament in the record" 'grep -q "submitted" submit.out'
start_sched
start_ref w1
start_ref w2
# Kill a referee holding a match (the lease in the record names it), twice:
# once early, once when half the matches are done, each restarted at once.
kills=0 held=""
t0=$SECONDS
for at in 1 $((N / 2)); do
  for i in $(seq 1 1200); do
    [ "$(done_count)" -ge "$at" ] && held=$(sql "$D" "SELECT leased_by FROM matches WHERE state = 'leased' ORDER BY id LIMIT 1") &&
      [ -n "$held" ] && [ -n "${RP[$held]:-}" ] && break
    held=""
    sleep 0.05
  done
  [ -n "$held" ] || break
  kill -9 "${RP[$held]}" && kills=$((kills + 1))
  wait "${RP[$held]}" 2>/dev/null
  say "referee $held killed with SIGKILL mid-match ($(done_count) of $N done), restarted"
  start_ref "$held"
done
check "referees were killed mid-match twice ($kills)" '[ $kills = 2 ]'
for i in $(seq 1 900); do
  [ "$(sql "$D" "SELECT state FROM tournaments WHERE name = 'de8'")" = done ] && break
  sleep 0.2
done
say "finished in $((SECONDS - t0)) s"
check "the tournament finished on the pool" '[ "$(sql "$D" "SELECT state FROM tournaments WHERE name = '"'de8'"'")" = done ]'
check "every match recorded once, none void ($N)" '[ "$(sql "$D" "SELECT count(*), count(*) FILTER (WHERE state = '"'done'"') FROM matches")" = "$N|$N" ] && [ "$(sql "$D" "SELECT count(*) FROM (SELECT round, tbl FROM matches GROUP BY 1, 2 HAVING count(*) > 1) x")" = 0 ]'
check "the killed referees' leases went back to the queue" '[ "$(sql "$D" "SELECT count(*) FROM events WHERE kind = '"'lease-expired'"'")" -ge 1 ]'
check "every match two teams of partners sitting opposite" '[ -z "$(dabang_bad_seating "$D")" ]'
check "no bot penalised or forfeited" '[ "$(sql "$D" "SELECT count(*) FROM match_seats WHERE penalties > 0 OR forfeited")" = 0 ]'
check "both referees played" '[ "$(sql "$D" "SELECT count(DISTINCT leased_by) FROM matches WHERE state = '"'done'"'")" = 2 ]'
check "the Python teams' program came with its package" 'ls w1-dir/programs/*/dabang_greedy_bot.py w1-dir/programs/*/arbiter_bot/dabang.py > /dev/null 2>&1 || ls w2-dir/programs/*/dabang_greedy_bot.py w2-dir/programs/*/arbiter_bot/dabang.py > /dev/null 2>&1'
"$ARB" standings de8 --db "$D" --format json > pool.json
check "team and member standings equal the one-machine run's" 'cmp -s pool.json local.json'
"$ARB" standings de8 --db "$D" > pool.txt; "$ARB" standings de8 --db "$LDB" > local.txt
check "the standings tables too" 'cmp -s pool.txt local.txt'
check "the same bracket (every match's round, table, winner and loser) and deals" '[ "$(dabang_digest "$D")" = "$(dabang_digest "$LDB")" ]'
dabang_losses "$D" > pool.losses
check "one team left with fewer than two losses, the others out after two" \
  '[ "$(grep -vc "|2$" pool.losses)" = 1 ] && [ "$(grep -c "|2$" pool.losses)" = 7 ]'
kill -TERM "${RP[w1]}" "${RP[w2]}"
for k in w1 w2; do wait "${RP[$k]}"; check "referee $k exits 0 on SIGTERM" '[ $? = 0 ]'; done
kill -TERM "$SPID"; wait "$SPID"
check "the scheduler exits 0 on SIGTERM" '[ $? = 0 ]'

echo "dabang-daemons: $pass passed, $fail failed"
[ "$fail" = 0 ]
