#!/usr/bin/env bash
# test_faults.sh — the record rides out faults (issue 28): a PostgreSQL of
# the test's own whose database lives in a tablespace on a small tmpfs,
# and the scheduler daemon with two local workers:
#   1. disk full: the tablespace is filled before the daemon takes up a
#      submitted tournament; it says the database failed and that it tries
#      again, skips nothing ("skipped" made it drop the tournament for
#      good), and once the file filling the disk is removed it takes the
#      tournament up and finishes it, standings equal to an uninterrupted
#      `arbiter run` of the same file and secret;
#   2. restart: PostgreSQL is restarted (pg_ctl restart -m fast) while the
#      daemon plays a second tournament; the daemon waits it out (it used
#      to stop with "database lost"), every match is recorded once and the
#      standings equal a reference run's;
#   3. `arbiter run --state DIR` on a full disk stops at once, exit 1,
#      naming the directory and "No space left on device" (it handed the
#      same match back and forth every second, for ever).
# Needs root (mount -t tmpfs); exits 77 (skipped) otherwise, or when no
# PostgreSQL is installed. FAULTS_KEEP=1 keeps its directory (the daemon's
# log, sched.log). Always its own cluster, even with
# $ARBITER_TEST_DB: the test restarts it and fills its disk.
# Usage: test_faults.sh ARBITER ARBITER_SCHEDULER BOTS_DIR
set -u
ARB=$1 SCHED=$2 BOTS=$3
if [ "$(id -u)" != 0 ]; then echo "test_faults: needs root (a tmpfs to fill): skipped"; exit 77; fi
unset ARBITER_TEST_DB
. "$(dirname "$0")/../lib/test_sh.sh" faults
cd "$T" || exit 2
SPID=""
cleanup() {   # test_sh.sh's, and the daemon, the mounts
  [ -n "$SPID" ] && kill -9 "$SPID" 2>/dev/null && wait "$SPID" 2>/dev/null
  test_pg_stop
  umount "$T/disk" "$T/full" 2>/dev/null
  if [ -n "${FAULTS_KEEP:-}" ]; then echo "kept $T" >&2; else rm -rf "$T"; fi
}
mkdir "$T/disk" "$T/full"
if ! mount -t tmpfs -o size=24m tmpfs "$T/disk" || ! mount -t tmpfs -o size=1m tmpfs "$T/full"; then
  echo "test_faults: cannot mount a tmpfs here: skipped"; exit 77
fi
test_pg_start $((56000 + RANDOM % 1000))
mkdir "$T/disk/ts" && chown postgres "$T/disk/ts"
sql "$base" "CREATE TABLESPACE faults LOCATION '$T/disk/ts'" > /dev/null || exit 2
sql "$base" "CREATE DATABASE arb_faults TABLESPACE faults" > /dev/null || exit 2
D="$(db) dbname=arb_faults"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > secret; chmod 600 secret

tournament() {   # tournament NAME ENTRANTS DEALS
  printf 'name: %s\ngame: doudizhu\nformat: round-robin\ndeals: %d\nseed: 9\nfiles_root: /\n' "$1" "$3"
  entrants_yaml "$2" "$BOTS"
}
tournament "faults a" 4 4 > a.yaml
tournament "faults b" 6 6 > b.yaml
REF=$(newdb arb_faults_ref)
for f in a b; do
  "$ARB" run $f.yaml --db "$REF" --state ref --quiet --workers 2 --secret-file secret > /dev/null 2>&1
  "$ARB" standings "faults $f" --db "$REF" --format csv > ref-$f.csv
done
check "the reference runs finished" \
  '[ "$(sql "$REF" "SELECT count(*) FROM tournaments WHERE state = '"'done'"'")" = 2 ] && [ -s ref-a.csv ] && [ -s ref-b.csv ]'

wait_for() {   # wait_for SECONDS COMMAND...: until it succeeds
  local n=$(($1 * 5)); shift
  while [ $n -gt 0 ]; do "$@" && return 0; sleep 0.2; n=$((n - 1)); done
  return 1
}
state_of() { sql "$D" "SELECT state FROM tournaments WHERE name = '$1'" 2>/dev/null; }
is_done() { [ "$(state_of "$1")" = done ]; }
logged() { grep -q "$1" sched.log; }

# ---- 1. PostgreSQL's disk full while the daemon takes the tournament up --------
"$ARB" submit a.yaml --db "$D" --secret-file secret > /dev/null
dd if=/dev/zero of="$T/disk/fill" bs=64k > /dev/null 2>&1   # until the disk is full
check "the tablespace's disk is full" '[ "$(df --output=avail "$T/disk" | tail -n 1 | tr -d " ")" = 0 ]'
"$SCHED" --db "$D" --state "$T/sched" --listen "" --local-workers 2 --metrics "" --log-format text > sched.log 2>&1 &
SPID=$!
wait_for 20 logged "the database failed"
check "the daemon says the database failed and that it tries again" \
  'grep -q "the database failed (.*No space left on device.*): no tournament is dropped; trying again in" sched.log'
logged "the database failed" || tail -n 5 sched.log >&2
sleep 3   # a few tries while the disk stays full
check "nothing is skipped while the disk is full" '! grep -q "skipped" sched.log'
check "the daemon is still up" 'kill -0 $SPID'
rm -f "$T/disk/fill"
t0=$(date +%s)
wait_for 40 is_done "faults a"
check "the disk freed, the tournament is taken up and finishes ($(($(date +%s) - t0)) s; state $(state_of "faults a"))" \
  'is_done "faults a"'
"$ARB" standings "faults a" --db "$D" --format csv > a.csv 2>&1
check "its standings equal the reference run's" 'cmp -s a.csv ref-a.csv'
check "no skipped event in the record" \
  '[ "$(sql "$D" "SELECT count(*) FROM events WHERE kind = '"'skipped'"'")" = 0 ]'

# ---- 2. PostgreSQL restarted while the daemon plays -----------------------------
"$ARB" submit b.yaml --db "$D" --secret-file secret > /dev/null
some_done() { [ "$(sql "$D" "SELECT count(*) FROM matches m JOIN tournaments t ON t.id = m.tournament_id
  WHERE t.name = 'faults b' AND m.state = 'done'" 2>/dev/null)" -ge 2 ]; }
wait_for 20 some_done
check "the second tournament is under way before the restart" 'some_done && ! is_done "faults b"'
"${pg_run[@]}" "$pg_bin/pg_ctl" -D "$T/pg" -m fast -w restart -l "$T/pg/log" > /dev/null 2>&1   # its options again
check "PostgreSQL restarted" '[ $? = 0 ]'
wait_for 45 is_done "faults b"
check "the daemon rode out the restart and the tournament finished (state $(state_of "faults b"))" \
  'is_done "faults b" && kill -0 $SPID'
check "the daemon said it waited for the database" \
  'grep -Eq "the database failed \(" sched.log' || grep -E "database|failed" sched.log | tail -n 8 >&2
check "... with the failure's SQLSTATE (a connection's: 57P01 or 08xxx) where the statement said it" \
  'grep -Eq "the database failed \((57P01|08[0-9A-Z]{3}): " sched.log || ! grep -Eq "the database failed \([0-9A-Z]{5}: " sched.log' \
  || grep -E "the database failed" sched.log | tail -n 4 >&2
"$ARB" standings "faults b" --db "$D" --format csv > b.csv 2>&1
check "its standings equal the reference run's" 'cmp -s b.csv ref-b.csv'
check "every match recorded once, none void" \
  '[ "$(sql "$D" "SELECT count(*) FILTER (WHERE m.state = '"'done'"'), count(*) FROM matches m
        JOIN tournaments t ON t.id = m.tournament_id WHERE t.name = '"'faults b'"'")" = \
     "$(sql "$REF" "SELECT count(*), count(*) FROM matches m JOIN tournaments t ON t.id = m.tournament_id
        WHERE t.name = '"'faults b'"'")" ]'
kill -TERM "$SPID"; wait "$SPID"; rc=$?; SPID=""
check "the daemon stops cleanly on SIGTERM (rc $rc)" '[ $rc = 0 ]'

# ---- 3. arbiter run with its state directory on a full disk ---------------------
dd if=/dev/zero of="$T/full/fill" bs=4k > /dev/null 2>&1
RUN=$(newdb arb_faults_run)
timeout 30 "$ARB" run a.yaml --db "$RUN" --state "$T/full" --workers 2 --quiet > run.out 2> run.err; rc=$?
check "run on a full state directory stops, exit 1 (rc $rc: $(head -c 300 run.err))" '[ $rc = 1 ]'
check "... naming the directory and the cause" \
  'grep -q "the state directory $T/full is on a full disk: .*No space left on device" run.err'

echo "test_faults: $pass passed, $fail failed"
[ "$fail" = 0 ]
