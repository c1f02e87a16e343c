#!/usr/bin/env bash
# test_operations.sh — docs/operations.md followed as written: every fenced
# block tagged `sh ops-step` is picked out in order and run verbatim, as one
# shell script, in a temporary directory: keys, the sample configurations
# installed and checked, a scheduler and two referees on this host (two
# metrics ports), the example round robin submitted and finished, the
# referees stopped with SIGTERM. Then: the standings are there, the pool
# shows no lease lost, the directories the daemons made are 0700 (0711 as
# root), and a second referee on a taken metrics port stops with the port
# named. The record: $ARBITER_TEST_DB when set, else a private PostgreSQL.
# Usage: test_operations.sh BUILD_CLI_DIR SOURCE_ROOT
set -u
BIN=$1 SRC=$2
. "$SRC/tests/lib/check.sh"
test_enter operations
cleanup() {
  pkill -9 -f "$T/" 2>/dev/null
  test_pg_stop
  if [ -n "${OPS_KEEP:-}" ]; then echo "kept $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT
. "$SRC/tests/lib/test_pg.sh"
test_pg_start 55436
export ARBITER_DB
ARBITER_DB=$(newdb arb_operations)

# The doc's blocks, verbatim, in order.
awk '/^```sh ops-step/ { on = 1; next } /^```/ { on = 0 } on' "$SRC/docs/operations.md" > steps.sh
check "the doc has its marked steps" '[ "$(grep -c "^\`\`\`sh ops-step" "$SRC/docs/operations.md")" -ge 5 ] && [ -s steps.sh ]'
# What the operator has: a checkout (config/ and the built bots it names)
# and the binaries on PATH.
ln -s "$SRC/config" config
ln -s "$SRC/ops" ops
export PATH="$BIN:$PATH"
export ARBITER_ETC="$T/etc/arbiter" ARBITER_STATE="$T/var/lib/arbiter" ARBITER_WORK="$T/var/lib/arbiter-referee"
export ARBITER_SCHEDULER=127.0.0.1 ARBITER_PORT=$((22000 + RANDOM % 18000))
export ARBITER_METRICS=$((ARBITER_PORT + 1))
timeout 600 bash -e steps.sh > steps.out 2> steps.err
rc=$?
check "the doc's steps run to the end (exit $rc)" '[ $rc = 0 ]'
[ $rc = 0 ] || { tail -n 20 steps.err; tail -n 5 scheduler.log referee1.log referee2.log 2>/dev/null; } >&2
check "both referees passed --check" '[ "$(grep -c "arbiter-referee: configuration ok" steps.out)" = 2 ]'
check "the scheduler passed --check" 'grep -q "arbiter-scheduler: configuration ok (tcp://0.0.0.0:$ARBITER_PORT, 2 worker keys" steps.out || grep -q "arbiter-scheduler: configuration ok" steps.out'
check "the standings were printed" 'grep -q "greedy" steps.out'
check "the tournament is done with no void match" 'grep -Eq "example round robin +round-robin +done +0 +0 +10 +0" steps.out'
check "both referees played" '[ "$(grep -Ec "^  worker[12] +[0-9]+ +(connected|draining|gone) " steps.out)" = 2 ]'
check "no lease lost on a clean stop (pool: lost 0)" '! grep -Eq "^  worker[12] +[0-9]+ +[a-z]+ +[0-9]+ +[0-9]+ +[1-9]" steps.out'
check "the referees drained and exited 0" 'grep -q "stopped (" referee1.log && grep -q "stopped (" referee2.log'
mode() { stat -c %a "$1" 2>/dev/null; }
want=700; [ "$(id -u)" = 0 ] && want=711
check "the state directory was made $want" '[ "$(mode "$ARBITER_STATE")" = $want ]'
check "each referee's work directory was made $want" '[ "$(mode "$ARBITER_WORK/1")" = $want ] && [ "$(mode "$ARBITER_WORK/2")" = $want ]'

# Two referees on one metrics port: the second stops, naming the port.
E=$ARBITER_ETC
"$BIN/arbiter-referee" --config "$E/referee.yaml" --key "$E/referee1" --server-key "$E/scheduler.pub" \
  --connect "tcp://127.0.0.1:$ARBITER_PORT" --workdir "$T/w1" --metrics "127.0.0.1:$ARBITER_METRICS" 2> clash1.log &
sleep 1
timeout 20 "$BIN/arbiter-referee" --config "$E/referee.yaml" --key "$E/referee2" --server-key "$E/scheduler.pub" \
  --connect "tcp://127.0.0.1:$ARBITER_PORT" --workdir "$T/w2" --metrics "127.0.0.1:$ARBITER_METRICS" 2> clash2.log
rc=$?
kill -TERM %1 2>/dev/null; wait
check "a second referee on a taken metrics port stops (exit $rc) naming the port" \
  '[ $rc = 2 ] && grep -q "metrics 127.0.0.1:$ARBITER_METRICS: the port is taken" clash2.log'
# A work directory that cannot be made: named, with what to do.
: > "$T/afile"
timeout 20 "$BIN/arbiter-referee" --config "$E/referee.yaml" --key "$E/referee1" --server-key "$E/scheduler.pub" \
  --connect "tcp://127.0.0.1:$ARBITER_PORT" --workdir "$T/afile/w" --metrics "" 2> baddir.log
rc=$?
check "an impossible workdir stops the referee (exit $rc) naming it" \
  '[ $rc = 2 ] && grep -q "workdir (workdir:, --workdir) $T/afile/w: cannot create it: Not a directory: create it" baddir.log'
echo "operations: $pass passed, $fail failed"
[ "$fail" = 0 ]
