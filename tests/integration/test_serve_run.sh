#!/usr/bin/env bash
# test_serve_run.sh — `arbiter serve --state S` is a reader: it holds no
# lock of S (a run's), and shares S's private PostgreSQL cluster with the
# runs (docs/operations.md, "One state directory, a run and its readers"):
#   1. serve started first, then `arbiter run --state S` runs to the end,
#      serve answering throughout, the new tournament on its pages;
#   2. a run under way, then serve started: it answers, the run ends, serve
#      still answers (the run did not stop the cluster under it);
#   3. serve started first (it starts the cluster), a run started, serve
#      stopped while the run plays: the run ends well (the cluster was not
#      stopped under it);
#   4. the last user out stops the cluster.
# Before place.c stopped taking the lock for readers, 1 failed with "S is
# in use by another arbiter run" (exit 2).
# Usage: test_serve_run.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" serve-run
S=$T/s
SERVE_PID=""
stop_serve() {
  if [ -n "$SERVE_PID" ]; then kill "$SERVE_PID" 2>/dev/null; wait "$SERVE_PID" 2>/dev/null; fi
  SERVE_PID=""
}
# a cluster left up by a failed case: stopped (SIGINT: a fast shutdown)
trap 'stop_serve; [ -f "$S/pg/postmaster.pid" ] && kill -INT "$(head -n 1 "$S/pg/postmaster.pid")"; sleep 1; cleanup' EXIT
start_serve() {   # start_serve OUT: serve --state S on a free port, PORT set
  "$ARB" serve --state "$S" --listen 127.0.0.1:0 > "$T/$1.out" 2> "$T/$1.err" &
  SERVE_PID=$!
  for _ in $(seq 1 200); do grep -q "serving" "$T/$1.out" 2>/dev/null && break; sleep 0.1; done
  PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/$1.out")
}
answers() { [ "$(curl -s -m 5 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/tournaments")" = 200 ]; }
config() {   # config NAME ENTRANTS DEALS
  printf 'name: %s\nformat: round-robin\ndeals: %s\nseed: 9\n' "$1" "$3"
  entrants_yaml "$2" "$BOTS"
}
# run_watching NAME LOG: the run in the background; serve asked every
# 0.2 s while it plays; NOT_ANSWERED counts the misses, RUN_RC its status
run_watching() {
  "$ARB" run "$T/$1.yaml" --state "$S" --quiet --workers 2 > "$T/$1.out" 2>&1 &
  local pid=$! asked=0
  NOT_ANSWERED=0
  while kill -0 $pid 2>/dev/null; do
    answers || NOT_ANSWERED=$((NOT_ANSWERED + 1))
    asked=$((asked + 1))
    sleep 0.2
  done
  wait $pid
  RUN_RC=$?
  echo "$1: serve asked $asked times while the run played, $NOT_ANSWERED unanswered"
}
cluster_up() { [ -f "$S/pg/postmaster.pid" ]; }
for n in first second third fourth; do config "$n" 6 2 > "$T/$n.yaml"; done

# the record made by a first run (a reader starts a cluster, never makes one)
"$ARB" run "$T/first.yaml" --state "$S" --quiet --workers 2 > "$T/first.out" 2>&1
check "a first run makes the record" '[ $? = 0 ]' || tail -n 20 "$T/first.out" >&2
check "its cluster is stopped when it ends (its last user)" '! cluster_up'

# ---- 1. serve first, then a run ------------------------------------------------------
start_serve serve1
check "1: serve --state S starts on a stopped cluster and answers" '[ -n "$PORT" ] && answers' || cat "$T/serve1.err" >&2
run_watching second
check "1: a run on S with serve up runs to the end (exit 0)" '[ $RUN_RC = 0 ]' || tail -n 5 "$T/second.out" >&2
check "1: serve answered throughout the run" '[ $NOT_ANSWERED = 0 ]'
check "1: the run's tournament is on serve's pages" \
  'curl -s "http://127.0.0.1:$PORT/api/tournaments" | grep -q "\"second\""'
check "1: serve still answers after the run" 'answers'

# ---- 2. a run under way, then serve ----------------------------------------------------
stop_serve
"$ARB" run "$T/third.yaml" --state "$S" --quiet --workers 2 > "$T/third.out" 2>&1 &
RUN=$!
for _ in $(seq 1 100); do flock -n "$S/lock" true || break; sleep 0.1; done
check "2: the run holds S's lock" '! flock -n "$S/lock" true'
start_serve serve2
check "2: serve --state S starts while the run plays and answers" '[ -n "$PORT" ] && answers' ||
  cat "$T/serve2.err" >&2
check "2: serve started while the run still played" 'kill -0 $RUN 2>/dev/null'
wait $RUN
check "2: the run ends well with serve up" '[ $? = 0 ]' || tail -n 5 "$T/third.out" >&2
check "2: serve still answers after the run ended (the cluster kept for it)" 'answers && cluster_up'

# ---- 3. serve starts the cluster, a run comes, serve goes --------------------------
stop_serve
check "serve, the last user, stopped the cluster" '! cluster_up'
start_serve serve3
check "3: serve starts the cluster" '[ -n "$PORT" ] && answers && cluster_up'
"$ARB" run "$T/fourth.yaml" --state "$S" --quiet --workers 2 > "$T/fourth.out" 2>&1 &
RUN=$!
for _ in $(seq 1 100); do flock -n "$S/lock" true || break; sleep 0.1; done
stop_serve
check "3: serve stopped while the run plays" 'kill -0 $RUN 2>/dev/null && cluster_up'
wait $RUN
check "3: the run ends well: the cluster was not stopped under it" '[ $? = 0 ]' || tail -n 5 "$T/fourth.out" >&2

# ---- 4. the last user out ----------------------------------------------------------------
check "4: the run, the last user, stopped the cluster" '! cluster_up'
for n in first second third fourth; do
  check "4: tournament $n's standings are in the record" \
    '"$ARB" standings "$n" --state "$S" 2>&1 | grep -q e01'
done
check "4: a reader (standings) stops the cluster it started" '! cluster_up'

echo "serve_run: $pass passed, $fail failed"
[ $fail = 0 ]
