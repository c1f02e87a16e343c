#!/usr/bin/env bash
# test_daemons.sh — the distributed deployment end to end: arbiter-scheduler
# and arbiter-referee daemons on localhost over CURVE-encrypted tcp, a real
# PostgreSQL, real bot processes fetched by digest into each referee's cache.
#   1. spread: three referees run a tournament; every one of them plays,
#      the standings equal a one-machine `arbiter run` of the same file,
#      the metrics endpoints answer with the right counts, `arbiter status`
#      shows the pool, SIGTERM stops the daemons cleanly;
#      and its `web` pages serve the record as `arbiter serve` does: the
#      tournament's page and standings, the pool, a live event stream
#      delivering results as they land;
#   2. chaos: while the same tournament runs, referees are killed with
#      SIGKILL again and again and restarted, the scheduler is killed once
#      and restarted: standings and deals identical to the run without
#      faults, every match recorded exactly once, none void;
#   3. drain: a referee told SIGTERM in the middle of a long match finishes
#      it, its result is recorded, and it exits 0;
#   3b. hand-back: a referee told SIGTERM with a match in flight and no
#      drain time hands it back: `arbiter status` shows it under back (1),
#      not lost (0), and another referee plays it; one told SIGTERM with
#      drain time finishes its match and leaves without a match assigned
#      as it went (lost 0, no lease expired); the tournament ends with
#      every match once;
#   4. concurrent: a cup submitted while a long ladder runs on the same
#      daemon is taken up at once and shares the pool: it finishes first,
#      while the ladder still runs, matches of both finish interleaved, and
#      each one's standings equal a one-tournament `arbiter run` of its file;
#   5. a link cut: when this machine lets us make network namespaces, a
#      referee in a namespace of its own loses its link mid-match; its
#      lease returns to the queue, another referee plays the match, and the
#      cut referee, its link back, is taken back into the pool.
# The database: $ARBITER_TEST_DB when set (CI starts one), else a private
# cluster started here.
# Usage: test_daemons.sh ARBITER ARBITER_SCHEDULER ARBITER_REFEREE BOTS_DIR SOURCE_ROOT
set -u
[ -n "${DAEMONS_TRACE:-}" ] && set -x
ARB=$1 SCHED=$2 REF=$3 BOTS=$4 SRC=$5
T=$(mktemp -d /tmp/arbiter-daemons-test.XXXXXX)
chmod 755 "$T"
cd "$T" || exit 2
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
say() { echo "-- $*" >&2; }

NS=""
cleanup() {
  pkill -9 -f "$T/" 2>/dev/null
  [ -n "$NS" ] && { ip netns del "$NS" 2>/dev/null; ip link del "veth-$NS" 2>/dev/null; }
  test_pg_stop
  if [ -n "${DAEMONS_KEEP:-}" ]; then echo "kept $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT
. "$SRC/tests/lib/test_pg.sh"
test_pg_start 55434
. "$SRC/tests/lib/daemons.sh"

daemon_keys w1 w2 w3 w4 w5
"$ARB" keygen "$T/intruder" > /dev/null   # a key no list names
# nine entrants: 84 tables of three, two deals each in duplicate (6 games)
{
  echo "name: pool"; echo "format: round-robin"; echo "deals: 2"; echo "duplicate: rotate"; echo "seed: 7"
  echo "clock: {move_ms: 3000, bank_ms: 10000}"
  echo "files_root: /"   # files: lie in the tournament's tree; this one names the checkout's SDK module
  echo "entrants:"
  for i in 1 2 3 4 5 6 7 8; do
    b=random_bot; [ $((i % 3)) = 0 ] && b=greedy_bot
    printf "  - name: e%d\n    command: %s/%s\n" "$i" "$BOTS" "$b"
  done
  # a Python bot whose program is four files: the script and the SDK package beside it
  rel=$(realpath --relative-to="$T" "$SRC")
  printf "  - name: e9\n    command: %s/bots-sdk/python/greedy_bot.py\n    files: [%s, %s, %s]\n" "$SRC" \
    "$rel/bots-sdk/python/arbiter_bot/__init__.py" "$rel/bots-sdk/python/arbiter_bot/core.py" \
    "$rel/bots-sdk/python/arbiter_bot/doudizhu.py"
} > t.yaml
MATCHES=84
PORT=$((21000 + RANDOM % 20000))
MP=$((PORT + 1))
WP=$((PORT + 2))
EP="tcp://127.0.0.1:$PORT"

# One secret for the reference and the pool: deals follow from seed + secret.
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > secret; chmod 600 secret

# The reference: the same file on one machine.
LDB=$(newdb arb_daemons_local)
"$ARB" run t.yaml --db "$LDB" --state local --quiet --secret-file secret > /dev/null 2>&1
"$ARB" standings pool --db "$LDB" --format csv > local.csv
check "the reference run finished" '[ "$(sql "$LDB" "SELECT count(*) FROM matches WHERE state = '"'done'"'")" = $MATCHES ]'

# one match of 1,200 games: several seconds even between fast bots (drain, link cut)
{
  echo "name: long"; echo "format: round-robin"; echo "deals: 400"; echo "duplicate: rotate"; echo "seed: 3"
  echo "entrants:"
  for i in 1 2 3; do printf "  - name: e%d\n    command: %s/random_bot\n" "$i" "$BOTS"; done
} > long.yaml
PARTS=${DAEMONS_PARTS:-spread chaos drain handback concurrent netns}
want() { case " $PARTS " in *" $1 "*) return 0;; esac; return 1; }

if want spread || want chaos; then
# ---- 1. spread -------------------------------------------------------------
say "spread: a scheduler and three referees"
D1=$(newdb arb_daemons_spread)
"$SCHED" --db "$D1" --state "$T/s1" --listen "$EP" --key "$T/sched" --worker-keys workers.txt --check > check.out 2>&1
check "arbiter-scheduler --check accepts the configuration" 'grep -q "configuration ok" check.out'
# the sample configurations an operator copies load as they are (keys pointed at ours)
"$SCHED" --config "$SRC/config/scheduler.yaml" --key "$T/sched" --worker-keys workers.txt --check > check.out 2>&1
check "config/scheduler.yaml loads" 'grep -q "configuration ok" check.out'
"$REF" --config "$SRC/config/referee.yaml" --key "$T/w1" --server-key "$T/sched.pub" --check > check.out 2>&1
check "config/referee.yaml loads" 'grep -q "configuration ok" check.out'
printf 'slots: 3\nheartbeat_m: 100\n' > bad.yaml
"$REF" --config bad.yaml --check > check.out 2>&1
check "a misspelt key is refused with FILE:LINE:COL and a suggestion" 'grep -q "bad.yaml:2:1: unknown key \"heartbeat_m\" (did you mean \"heartbeat_ms\"?)" check.out'
"$REF" --connect "$EP" --server-key "$T/sched.pub" --key "$T/nokey" --check > check.out 2>&1
check "a missing key pair is named" '[ $? = 2 ] && grep -q "nokey.key" check.out'
"$SCHED" --db "$D1" --state "$T/s1" --listen "$EP" --key "$T/sched" --worker-keys workers.txt --web 127.0.0.1:http \
  --check > check.out 2>&1
check "a web address that is not HOST:PORT is refused at --check, named" '[ $? = 2 ] && grep -q "web: " check.out'
"$ARB" submit t.yaml --db "$D1" --secret-file secret > /dev/null 2>&1   # the reference's secret
start_sched "$D1" s1 --tournaments t.yaml --web "127.0.0.1:$WP"
S1=$SPID
R=()
for k in w1 w2 w3; do start_ref "$k" 2; R+=("$RPID"); done
# a spectator's live stream while the pool plays (the scheduler's own pages)
for i in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$WP/" && break; sleep 0.2; done
TID1=$(sql "$D1" "SELECT id FROM tournaments WHERE name = 'pool'")
curl -s -N --max-time 6 "http://127.0.0.1:$WP/api/t/$TID1/events" > events.out 2>/dev/null &
EVP=$!
start_ref intruder 2
INTRUDER=$RPID
wait_done "$D1" 120
check "the tournament finished on the pool" '[ $? = 0 ]'
check "every match recorded once, none void, with seats and deals" 'rows_ok "$D1"'
"$ARB" standings pool --db "$D1" --format csv > spread.csv
check "standings equal the one-machine run's" 'cmp -s spread.csv local.csv'
check "deals equal the one-machine run's" 'same_deals "$D1"'
played=$(sql "$D1" "SELECT count(DISTINCT leased_by) FROM matches WHERE state = 'done'")
check "the matches spread over all three referees ($played played)" '[ "$played" = 3 ]'
check "the intruder played nothing" '[ "$(sql "$D1" "SELECT count(*) FROM matches WHERE leased_by NOT IN ('"'w1', 'w2', 'w3', 'w4', 'w5'"')")" = 0 ]'
check "each referee fetched the three programs once" '[ "$(ls w1-dir/programs | grep -c "^[0-9a-f]\{64\}$")" = 3 ] && [ "$(ls w3-dir/programs | grep -c "^[0-9a-f]\{64\}$")" = 3 ]'
check "the Python bot came with its package, in their layout" 'ls w1-dir/programs/*/greedy_bot.py w1-dir/programs/*/arbiter_bot/core.py > /dev/null'
check "and played without a penalty" '[ "$(grep "^[0-9]*,e9," spread.csv | cut -d, -f7,8)" = "0,false" ]'
check "metrics: $MATCHES matches done" '[ "$(metric 127.0.0.1:$MP arbiter_matches_done_total)" = $MATCHES ]'
check "metrics: three workers connected" '[ "$(metric 127.0.0.1:$MP arbiter_workers_connected)" = 3 ]'
check "metrics: six slots" '[ "$(metric 127.0.0.1:$MP arbiter_worker_slots)" = 6 ]'
check "metrics: decisions counted" '[ "$(metric 127.0.0.1:$MP arbiter_decisions_total)" -gt 1000 ]'
check "metrics: programs served" '[ "$(metric 127.0.0.1:$MP arbiter_programs_served_total)" -ge 6 ]'
wait "$EVP"
check "the scheduler's pages: a live stream delivered results as they landed" \
  'grep -q "^event: progress" events.out && grep -q "^event: result" events.out'
check "the scheduler's pages: the tournament page with its standings" \
  'curl -sf "http://127.0.0.1:$WP/t/$TID1" | grep -q "<h1>pool"'
check "the scheduler's pages: the API's standings in the CLI's order" \
  '[ "$(curl -sf "http://127.0.0.1:$WP/api/t/$TID1" | python3 -c "import json,sys; print(\",\".join(r[\"name\"] for r in json.load(sys.stdin)[\"standings\"]))")" = "$(cut -d, -f2 spread.csv | tail -n +2 | paste -sd,)" ]'
check "the scheduler's pages: the pool page names the referees" \
  'curl -sf "http://127.0.0.1:$WP/pool" > pool.html && grep -q ">w1<" pool.html && grep -q ">w3<" pool.html'
check "the scheduler's pages are read only (POST is 405)" \
  '[ "$(curl -s -o /dev/null -w "%{http_code}" -X POST "http://127.0.0.1:$WP/t/$TID1")" = 405 ]'
"$ARB" status --db "$D1" > status.out 2>&1
check "arbiter status shows the pool with three connected referees" '[ "$(grep -cE "^  w[123] +2 +connected" status.out)" = 3 ]'
kill -TERM "${R[@]}" "$INTRUDER"
for p in "${R[@]}"; do wait "$p"; check "a referee exits 0 on SIGTERM" '[ $? = 0 ]'; done
wait "$INTRUDER"
check "the intruder was never admitted (it drains its nothing and exits 0)" '[ $? = 0 ] && ! grep -q "admitted by" intruder.log'
kill -TERM "$S1"; wait "$S1"
check "the scheduler exits 0 on SIGTERM" '[ $? = 0 ]'
check "its pages stopped with it" '! curl -s -o /dev/null --max-time 2 "http://127.0.0.1:$WP/"'
check "the scheduler logs JSON lines" 'head -n 1 s1.log | python3 -c "import json,sys; json.loads(sys.stdin.readline())"'
check "the scheduler marked the pool gone" '[ "$(sql "$D1" "SELECT count(*) FROM workers WHERE state <> '"'gone'"'")" = 0 ]'

# ---- 2. chaos --------------------------------------------------------------
say "chaos: referees killed again and again, the scheduler once"
# longer matches (six deals in duplicate: 18 games), so that kills land mid-match
sed 's/^deals: 2$/deals: 6/' t.yaml > chaos.yaml
LDB2=$(newdb arb_daemons_local2)
"$ARB" run chaos.yaml --db "$LDB2" --state local2 --quiet --secret-file secret > /dev/null 2>&1
"$ARB" standings pool --db "$LDB2" --format csv > local2.csv
D2=$(newdb arb_daemons_chaos)
"$ARB" submit chaos.yaml --db "$D2" --secret-file secret > submit.out 2>&1
check "arbiter submit puts the tournament in the record" 'grep -q "submitted" submit.out'
start_sched "$D2" s2
S2=$SPID
declare -A RP
for k in w1 w2 w3; do start_ref "$k" 2; RP[$k]=$RPID; done
kills=0 sched_killed=0
for i in $(seq 1 600); do
  [ "$(sql "$D2" "SELECT state FROM tournaments WHERE name = 'pool'" 2>/dev/null)" = done ] && break
  sleep 0.$((3 + RANDOM % 7))
  k=w$((1 + RANDOM % 3))
  if [ $((RANDOM % 3)) != 0 ]; then
    kill -9 "${RP[$k]}" 2>/dev/null; wait "${RP[$k]}" 2>/dev/null
    kills=$((kills + 1))
    start_ref "$k" 2; RP[$k]=$RPID
  fi
  if [ $sched_killed = 0 ] && [ "$(sql "$D2" "SELECT count(*) FROM matches WHERE state = 'done'")" -ge $((MATCHES / 3)) ]; then
    kill -9 "$S2"; wait "$S2" 2>/dev/null
    sched_killed=1
    start_sched "$D2" s2
    S2=$SPID
  fi
done
say "chaos: $kills referees killed, scheduler killed $sched_killed time"
wait_done "$D2" 5
check "the tournament finished despite $kills kills" '[ $? = 0 ]'
check "the scheduler was killed once mid-tournament" '[ $sched_killed = 1 ]'
check "every match recorded once, none void, with seats and deals" 'GAMES=18 rows_ok "$D2"'
"$ARB" standings pool --db "$D2" --format csv > chaos.csv
check "standings identical to the run without faults" 'cmp -s chaos.csv local2.csv'
check "deals identical to the run without faults" 'REF_DB=$LDB2 same_deals "$D2"'
check "every seat's result identical to the run without faults" 'REF_DB=$LDB2 same_results "$D2"'
lost=$(sql "$D2" "SELECT count(*) FROM events WHERE kind = 'lease-expired'")
check "leases of killed referees went back to the queue ($lost)" '[ "$lost" -ge 1 ]'
kill -TERM "${RP[@]}" "$S2" 2>/dev/null; wait

fi

if want drain; then
# ---- 3. drain --------------------------------------------------------------
say "drain: SIGTERM in the middle of a long match"
D3=$(newdb arb_daemons_drain)

start_sched "$D3" s3 --tournaments long.yaml
S3=$SPID
start_ref w4 1 --drain-s 120
R4=$RPID
for i in $(seq 1 100); do grep -q '"slot 0\|in slot 0\|admitted by' w4.log && break; sleep 0.1; done
sleep 1
kill -TERM "$R4"
wait "$R4"
check "a draining referee exits 0" '[ $? = 0 ]'
check "it finished its match before leaving: recorded" '[ "$(sql "$D3" "SELECT count(*) FROM matches WHERE state = '"'done'"'")" = 1 ]'
check "the signal came mid-match: it drained with the match in hand" 'grep -q "draining: 1 matches in hand" w4.log'
kill -TERM "$S3"; wait "$S3"

fi

if want handback; then
# ---- 3b. hand-back ---------------------------------------------------------
say "hand-back: SIGTERM with a match in flight"
# four entrants, four tables of three: every bot sleeps 1.5 s at its first
# decision, so that each match is in flight for seconds
{
  echo "name: slow"; echo "format: round-robin"; echo "deals: 1"; echo "seed: 5"
  echo "clock: {move_ms: 10000, bank_ms: 30000}"
  echo "entrants:"
  for i in 1 2 3 4; do printf "  - name: s%d\n    command: %s/hostile_bot late 1 1500\n" "$i" "$BOTS"; done
} > slow.yaml
D6=$(newdb arb_daemons_handback)
pool_of() {  # pool_of DB WORKER: its row in `arbiter status` (worker slots state running done lost back ...)
  "$ARB" status --db "$1" 2>/dev/null | awk -v w="$2" '$1 == w && NF >= 8'
}
in_flight() {  # in_flight DB WORKER: wait until WORKER holds a match, then 0.5 s more (its bots asleep)
  local i
  for i in $(seq 1 200); do
    [ "$(sql "$1" "SELECT count(*) FROM matches WHERE state = 'leased' AND leased_by = '$2'" 2>/dev/null)" = 1 ] && break
    sleep 0.1
  done
  sleep 0.5
  [ "$(sql "$1" "SELECT count(*) FROM matches WHERE state = 'leased' AND leased_by = '$2'")" = 1 ]
}
start_sched "$D6" s6 --tournaments slow.yaml
S6=$SPID
start_ref w4 1 --drain-s 0
R4=$RPID
in_flight "$D6" w4
check "w4 holds a match in flight" '[ $? = 0 ]'
HELD=$(sql "$D6" "SELECT id FROM matches WHERE state = 'leased' AND leased_by = 'w4'")
kill -TERM "$R4"; wait "$R4"
check "a referee with no drain time exits 0 on SIGTERM" '[ $? = 0 ]'
for i in $(seq 1 50); do [ "$(pool_of "$D6" w4 | awk '{print $7}')" = 1 ] && break; sleep 0.1; done
pool_of "$D6" w4 > handback.status
check "arbiter status: w4's match handed back, not lost (running 0, lost 0, back 1: $(cat handback.status))" \
  '[ "$(awk "{print \$4, \$6, \$7}" handback.status)" = "0 0 1" ]'
check "the record agrees (leases_lost 0, leases_handed_back 1)" \
  '[ "$(sql "$D6" "SELECT leases_lost, leases_handed_back FROM workers WHERE name = '"'w4'"'")" = "0|1" ]'
check "w4 said it handed the match back" 'grep -q "match $HELD handed back" w4.log'
check "the match is back in the queue, not played" \
  '[ "$(sql "$D6" "SELECT state FROM matches WHERE id = $HELD")" = pending ]'
# a referee that drains: it finishes its match and loses none as it leaves
# (with one slot, busy, its "0 free" does not tell the scheduler it is
# draining, so the next match may be assigned as it finishes: it waits two
# heartbeats for such a match and hands it back, or it would be lost)
start_ref w5 1 --drain-s 120
R5=$RPID
in_flight "$D6" w5
check "w5 holds a match in flight" '[ $? = 0 ]'
DRAINED=$(sql "$D6" "SELECT id FROM matches WHERE state = 'leased' AND leased_by = 'w5'")
kill -TERM "$R5"; wait "$R5"
check "a draining referee exits 0 on SIGTERM" '[ $? = 0 ]'
check "it finished its match" '[ "$(sql "$D6" "SELECT state, leased_by FROM matches WHERE id = $DRAINED")" = "done|w5" ]'
sleep 2   # a match assigned to w5 as it left would be given up by now (heartbeat 200 ms, 5 misses)
pool_of "$D6" w5 > drain.status
check "arbiter status: w5 lost nothing as it left (lost 0: $(cat drain.status))" \
  '[ "$(awk "{print \$6}" drain.status)" = 0 ]'
check "no match leased to w5 any more" '[ "$(sql "$D6" "SELECT count(*) FROM matches WHERE state = '"'leased'"' AND leased_by = '"'w5'"'")" = 0 ]'
start_ref w1 2
R1=$RPID
wait_done "$D6" 120 slow
check "another referee played the rest: the tournament finished" '[ $? = 0 ]'
check "every match once, done, with its deal" \
  '[ "$(sql "$D6" "SELECT count(*), count(*) FILTER (WHERE state = '"'done'"') FROM matches")" = "4|4" ] && [ "$(sql "$D6" "SELECT count(*) FROM deals")" = 4 ]'
check "the handed-back match was played by another referee" \
  '[ "$(sql "$D6" "SELECT state, leased_by <> '"'w4'"' FROM matches WHERE id = $HELD")" = "done|t" ]'
check "no lease expired in the whole run" '[ "$(sql "$D6" "SELECT count(*) FROM events WHERE kind = '"'lease-expired'"'")" = 0 ]'
kill -TERM "$R1" "$S6"; wait "$R1" "$S6"

fi

if want concurrent; then
# ---- 4. concurrent ---------------------------------------------------------
say "concurrent: a cup submitted while a ladder runs"
# the ladder: 7 entrants, 35 tables of 24 games; the cup: 4 entrants, 4 tables of 6
{
  echo "name: ladder"; echo "format: round-robin"; echo "deals: 8"; echo "duplicate: rotate"; echo "seed: 11"
  echo "entrants:"
  for i in 1 2 3 4 5 6 7; do printf "  - name: l%d\n    command: %s/random_bot\n" "$i" "$BOTS"; done
} > ladder.yaml
{
  echo "name: cup"; echo "format: round-robin"; echo "deals: 2"; echo "duplicate: rotate"; echo "seed: 12"
  echo "entrants:"
  for i in 1 2 3 4; do b=random_bot; [ $i = 2 ] && b=greedy_bot; printf "  - name: c%d\n    command: %s/%s\n" "$i" "$BOTS" "$b"; done
} > cup.yaml
for n in ladder cup; do
  LDBC=$(newdb "arb_daemons_ref_$n")
  "$ARB" run $n.yaml --db "$LDBC" --state "local-$n" --quiet --secret-file secret > /dev/null 2>&1
  "$ARB" standings $n --db "$LDBC" --format csv > "local-$n.csv"
done
D5=$(newdb arb_daemons_concurrent)
"$ARB" submit ladder.yaml --db "$D5" --secret-file secret > /dev/null 2>&1
start_sched "$D5" s5
S5=$SPID
start_ref w1 2
R1=$RPID
for i in $(seq 1 300); do
  [ "$(sql "$D5" "SELECT count(*) FROM matches WHERE state = 'done'")" -ge 2 ] && break; sleep 0.1
done
"$ARB" submit cup.yaml --db "$D5" --secret-file secret > /dev/null 2>&1
cup_done=""
for i in $(seq 1 600); do
  cup_done=$(sql "$D5" "SELECT state FROM tournaments WHERE name = 'cup'")
  [ "$cup_done" = done ] && break; sleep 0.1
done
ladder_then=$(sql "$D5" "SELECT state FROM tournaments WHERE name = 'ladder'")
check "the cup finished while the ladder still ran (cup $cup_done, ladder $ladder_then)" '[ "$cup_done" = done ] && [ "$ladder_then" = running ]'
wait_done "$D5" 240 ladder
check "the ladder finished too" '[ $? = 0 ]'
between=$(sql "$D5" "SELECT count(*) FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE t.name = 'ladder' AND m.finished_at BETWEEN (SELECT min(m2.finished_at) FROM matches m2 JOIN tournaments t2 ON t2.id = m2.tournament_id WHERE t2.name = 'cup') AND (SELECT max(m2.finished_at) FROM matches m2 JOIN tournaments t2 ON t2.id = m2.tournament_id WHERE t2.name = 'cup')")
check "matches of both finished interleaved: $between ladder matches while the cup played" '[ "$between" -ge 1 ]'
check "every match of both recorded, none void" '[ "$(sql "$D5" "SELECT count(*) FILTER (WHERE state = '"'done'"'), count(*) FROM matches")" = "39|39" ]'
for n in ladder cup; do
  "$ARB" standings $n --db "$D5" --format csv > "daemon-$n.csv"
  check "the $n's standings equal a one-tournament run's" 'cmp -s daemon-$n.csv local-$n.csv'
done
for i in $(seq 1 20); do [ "$(metric 127.0.0.1:$MP arbiter_tournaments_running)" = 0 ] && break; sleep 0.1; done
check "the metrics gauge counts no tournament left" '[ "$(metric 127.0.0.1:$MP arbiter_tournaments_running)" = 0 ]'
kill -TERM "$R1" "$S5"; wait "$R1" "$S5"

fi

# ---- 5. a link cut ---------------------------------------------------------
NS=arb$$
if ! want netns; then
  :
elif [ "$(id -u)" = 0 ] && ip netns add "$NS" 2>/dev/null; then
  say "link cut: a referee in network namespace $NS"
  NET=10.$((100 + RANDOM % 100)).$((RANDOM % 250))   # a subnet no other run is using
  ip link add "veth-$NS" type veth peer name eth0 netns "$NS" &&
  ip addr add "$NET.1/24" dev "veth-$NS" && ip link set "veth-$NS" up &&
  ip -n "$NS" addr add "$NET.2/24" dev eth0 && ip -n "$NS" link set eth0 up && ip -n "$NS" link set lo up
  check "the namespace and its link are set up" '[ $? = 0 ]'
  D4=$(newdb arb_daemons_netns)
  start_sched "$D4" s4 --tournaments long.yaml --listen "tcp://0.0.0.0:$PORT"
  S4=$SPID
  ip netns exec "$NS" "$REF" --connect "tcp://$NET.1:$PORT" --server-key "$T/sched.pub" --key "$T/w5" --slots 1 --workdir "$T/w5-dir" \
    --heartbeat-ms 200 --heartbeat-misses 5 --metrics "" >> w5.log 2>&1 &
  R5=$!
  for i in $(seq 1 100); do [ "$(sql "$D4" "SELECT count(*) FROM matches WHERE state = 'leased'")" = 1 ] && break; sleep 0.1; done
  check "the referee in the namespace was admitted and holds the match" 'grep -q "admitted by" w5.log && [ "$(sql "$D4" "SELECT state FROM matches")" = leased ]'
  sleep 0.5
  ip link set "veth-$NS" down
  start_ref w4 1   # on this side of the cut
  R4=$RPID
  wait_done "$D4" 120 long
  check "the match was played by the other referee after the cut" '[ $? = 0 ]'
  check "the cut referee's lease went back to the queue" '[ "$(sql "$D4" "SELECT count(*) FROM events WHERE kind = '"'lease-expired'"'")" -ge 1 ]'
  check "recorded once" '[ "$(sql "$D4" "SELECT count(*) FROM deals")" = 1200 ]'
  ip link set "veth-$NS" up
  for i in $(seq 1 100); do grep -q "reconnecting" w5.log && break; sleep 0.2; done
  check "the cut referee noticed the silence and reconnects" 'grep -q reconnecting w5.log'
  for i in $(seq 1 300); do [ "$(sql "$D4" "SELECT count(*) FROM events WHERE kind = 'stale-result'")" -ge 1 ] && break; sleep 0.2; done
  check "its late result, resent after the reconnection, was discarded as stale" '[ "$(sql "$D4" "SELECT count(*) FROM events WHERE kind = '"'stale-result'"'")" -ge 1 ]'
  check "and not counted twice" '[ "$(sql "$D4" "SELECT count(*) FROM deals")" = 1200 ]'
  kill -TERM "$R4" "$S4" 2>/dev/null; kill -9 "$R5" 2>/dev/null; wait 2>/dev/null
else
  echo "link cut: network namespaces are not available here (not root, or no CAP_SYS_ADMIN): skipped"
fi

echo "daemons: $pass passed, $fail failed"
[ "$fail" = 0 ]
