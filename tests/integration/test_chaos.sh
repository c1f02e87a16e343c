#!/usr/bin/env bash
# test_chaos.sh — fault injection on the distributed deployment: a scheduler
# and three referees (each with its own work directory, over CURVE tcp on
# localhost, one of them through a loopback relay) play a Dou Dizhu round
# robin on a PostgreSQL cluster of the test's own while these faults land,
# one after another, mid-tournament:
#   1. a referee holding a match killed with SIGKILL and restarted; the
#      scheduler killed with SIGKILL and restarted;
#   2. PostgreSQL restarted with `pg_ctl restart -m immediate`: the
#      scheduler (and its connection) rides it out, it does not exit;
#   3. a referee holding a match stopped (SIGSTOP) past its lease, then
#      continued (SIGCONT): its match went to another referee, and its late
#      result is discarded (`stale-result`), neither recorded twice nor over
#      the other referee's;
#   4. a silent network cut: the relay of the third referee
#      (tests/lib/blackhole_relay.py) stops forwarding without closing
#      anything; the scheduler notices by heartbeat (lease-expired, "silent
#      for 5 heartbeats"), another referee plays the match; the link comes
#      back and the referee is taken back;
#   5. PostgreSQL's disk full, then freed: as root, the cluster lives on a
#      small tmpfs, filled with a file until writes fail ("No space left on
#      device") for some seconds while matches finish, then the file is
#      removed (skipped, with a message, when not root or mount is refused).
# Then: the tournament finished, every match recorded exactly once (none
# void, none lost), with the deals, results and standings of an
# uninterrupted one-machine `arbiter run` of the same file, seed and secret;
# and, after every referee's work directory is deleted, every transcript is
# verifiable from the record alone: `arbiter verify` says verified, `arbiter
# dispute show` re-judges a match and exits 0 (the record keeps the
# transcripts' bytes, table `transcripts`).
# The bots: random and greedy C bots, and three entrants that sleep 1 s at
# their first decision and then play like the random bot (hostile_bot late)
# — they keep each match in flight long enough for the faults to land
# mid-match, and cost no CPU. ~2-3 minutes.
# Its own cluster always ($ARBITER_TEST_DB is ignored: the test restarts
# PostgreSQL and fills its disk).
# CHAOS_KEEP=1 keeps the directory; CHAOS_TRACE=1 traces the shell;
# CHAOS_NO_TMPFS=1 runs it as where no tmpfs can be mounted (step 5 skipped).
# Usage: test_chaos.sh ARBITER ARBITER_SCHEDULER ARBITER_REFEREE BOTS_DIR SOURCE_ROOT
set -u
[ -n "${CHAOS_TRACE:-}" ] && set -x
ARB=$1 SCHED=$2 REF=$3 BOTS=$4 SRC=$5
. "$SRC/tests/lib/check.sh"
test_enter chaos
say() { echo "-- $(date +%T) $*" >&2; }
unset ARBITER_TEST_DB
. "$SRC/tests/lib/test_pg.sh"
. "$SRC/tests/lib/daemons.sh"

declare -A RP     # the referees running, by key
SPID="" RELAY=""  # the scheduler, the relay
FS=""             # the tmpfs under the cluster, when mounted
cleanup() {
  local p
  for p in "${RP[@]}" $SPID $RELAY; do kill -CONT "$p" 2>/dev/null; kill -9 "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -f "$T/pg/fill"
  test_pg_stop
  [ -n "$FS" ] && { umount "$FS" || umount -l "$FS"; }
  if [ -n "${CHAOS_KEEP:-}" ]; then echo "kept $T" >&2; else rm -rf "$T"; fi
}
trap cleanup EXIT

# The cluster on a tmpfs of its own (step 5), when this machine lets us.
mkdir -p "$T/pg"
if [ -z "${CHAOS_NO_TMPFS:-}" ] && [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=192m,mode=0700 arbiter-chaos "$T/pg" 2>/dev/null; then
  FS=$T/pg
else
  say "no tmpfs for the cluster (not root, or mount refused): the disk-full step will be skipped"
fi
test_pg_start 55490

daemon_keys w1 w2 w3
# nine entrants, 84 tables of three, two deals each in duplicate (6 games)
{
  echo "name: pool"; echo "format: round-robin"; echo "deals: 2"; echo "duplicate: rotate"; echo "seed: 17"
  echo "clock: {move_ms: 5000, bank_ms: 20000}"
  echo "entrants:"
  for i in 1 2 3 4 5 6 7 8 9; do
    case $((i % 3)) in
      0) b="hostile_bot late 1 1000";;   # sleeps 1 s once, then plays like random_bot
      1) b=random_bot;;
      2) b=greedy_bot;;
    esac
    printf "  - name: e%d\n    command: %s/%s\n" "$i" "$BOTS" "$b"
  done
} > t.yaml
MATCHES=84
PORT=$((21000 + RANDOM % 20000))
MP=$((PORT + 1))
EP="tcp://127.0.0.1:$PORT"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > secret; chmod 600 secret

# The reference: the same file and secret on one machine, no fault.
LDB=$(newdb arb_chaos_local)
say "the reference: arbiter run"
"$ARB" run t.yaml --db "$LDB" --state local --quiet --workers 16 --secret-file secret > local.out 2>&1
check "the reference run finished" '[ "$(done_count "$LDB")" = $MATCHES ]'
"$ARB" standings pool --db "$LDB" --format csv > local.csv

D=$(newdb arb_chaos)
"$ARB" submit t.yaml --db "$D" --secret-file secret > submit.out 2>&1
check "arbiter submit puts the tournament in the record" 'grep -q submitted submit.out'

# w3 reaches the scheduler through the relay only
echo pass > relay.ctl
python3 "$SRC/tests/lib/blackhole_relay.py" "127.0.0.1:$PORT" "$T/relay.ctl" > relay.port 2> relay.log &
RELAY=$!
for i in $(seq 1 50); do [ -s relay.port ] && break; sleep 0.1; done
check "the relay listens" '[ -s relay.port ]'

sched_up() { start_sched "$D" sched; }
ref_up() {  # ref_up KEY: (re)start a referee of one slot
  if [ "$1" = w3 ]; then REF_EP="tcp://127.0.0.1:$(cat relay.port)" start_ref w3 1; else start_ref "$1" 1; fi
  RP[$1]=$RPID
}
t0=$SECONDS
sched_up
for k in w1 w2 w3; do ref_up "$k"; done
for i in $(seq 1 100); do [ "$(cat w1.log w2.log w3.log 2>/dev/null | grep -c "admitted by")" = 3 ] && break; sleep 0.1; done
check "the three referees were admitted (w3 through the relay)" \
  '[ "$(cat w1.log w2.log w3.log | grep -c "admitted by")" = 3 ]'

ended() { [ "$(sql "$D" "SELECT state FROM tournaments WHERE name = 'pool'" 2>/dev/null)" = done ]; }
# until N ACTION-DESCRIPTION: wait (at most 120 s) until N matches are done;
# false when the tournament ended first (the faults must land mid-run), or
# stuck (then at once for every later step)
STUCK=""
until_done() {
  local i
  [ -n "$STUCK" ] && return 1
  for i in $(seq 1 600); do
    ended && { say "the tournament ended before $2"; return 1; }
    [ "$(done_count "$D")" -ge "$1" ] && return 0
    sleep 0.2
  done
  say "not $1 matches done after 120 s, before $2: stuck"
  STUCK=1
  return 1
}
# holder [EXCEPT]: a referee holding a match now (not EXCEPT), waited for
holder() {
  local i w
  for i in $(seq 1 300); do
    w=$(sql "$D" "SELECT leased_by FROM matches WHERE state = 'leased' AND leased_by <> '${1:-}' ORDER BY id LIMIT 1" 2>/dev/null)
    [ -n "$w" ] && [ -n "${RP[$w]:-}" ] && { echo "$w"; return 0; }
    sleep 0.1
  done
  return 1
}
progress() {  # progress: 4 more matches done within 40 s (more than the 3 in hand now)
  local n i
  n=$(done_count "$D")
  for i in $(seq 1 200); do
    [ "$(done_count "$D")" -ge $((n + 4)) ] && return 0
    ended && return 0
    sleep 0.2
  done
  return 1
}
sched_alive() { kill -0 "$SPID" 2>/dev/null; }
# rides_out WHAT: after a fault, the scheduler still runs and records
# matches again. When it does not, it is restarted (as systemd, or an
# operator, would), so that the later faults still land mid-tournament.
rides_out() {
  local alive=1 moved=1
  sched_alive && alive=0
  [ $alive = 0 ] && progress && moved=0
  check "the scheduler rode out $1 (still running)" '[ $alive = 0 ]'
  check "it records matches again after $1, its tournament not dropped" '[ $moved = 0 ]'
  if [ $alive != 0 ] || [ $moved != 0 ]; then
    grep -v '"info"' sched.log | tail -n 2 >&2
    kill -9 "$SPID" 2>/dev/null; wait "$SPID" 2>/dev/null
    say "the scheduler restarted by hand, to go on"
    sched_up
  fi
}
events() { sql "$D" "SELECT count(*) FROM events WHERE kind = '$1' AND detail LIKE '$2'"; }

# ---- 1. SIGKILL: a referee, then the scheduler ------------------------------
landed=0
if until_done 4 "the referee kill"; then
  w=$(holder)
  say "1a. kill -9 referee $w mid-match ($(done_count "$D") done)"
  kill -9 "${RP[$w]}"; wait "${RP[$w]}" 2>/dev/null
  ref_up "$w"
  landed=$((landed + 1))
  KILLED_REF=$w
fi
if until_done 10 "the scheduler kill"; then
  say "1b. kill -9 the scheduler ($(done_count "$D") done)"
  kill -9 "$SPID"; wait "$SPID" 2>/dev/null
  sleep 1
  sched_up
  progress
  check "matches are recorded again after the scheduler's restart" '[ $? = 0 ]'
  landed=$((landed + 1))
fi
check "the killed referee's lease went back to the queue" \
  '[ "$(events lease-expired "%worker ${KILLED_REF:-none} %")" -ge 1 ]'

# ---- 2. PostgreSQL restarted (immediate) ------------------------------------
if until_done 18 "the PostgreSQL restart"; then
  say "2. pg_ctl restart -m immediate ($(done_count "$D") done)"
  test_pg_restart immediate
  check "PostgreSQL restarted" '[ $? = 0 ]'
  sleep 2
  rides_out "PostgreSQL's restart"
  landed=$((landed + 1))
fi

# ---- 3. a referee stopped past its lease ------------------------------------
if until_done 26 "the SIGSTOP"; then
  S=$(holder w3)
  HELD=$(sql "$D" "SELECT id FROM matches WHERE state = 'leased' AND leased_by = '$S' ORDER BY id LIMIT 1")
  say "3. SIGSTOP referee $S holding match $HELD ($(done_count "$D") done)"
  kill -STOP "${RP[$S]}"
  stopped=$SECONDS
  for i in $(seq 1 300); do
    [ "$(sql "$D" "SELECT state FROM matches WHERE id = $HELD")" = done ] && [ $((SECONDS - stopped)) -ge 9 ] && break
    sleep 0.2
  done
  before=$(sql "$D" "SELECT state, leased_by, lease_gen, digest, finished_at FROM matches WHERE id = $HELD")
  check "the stopped referee's lease expired (${HELD:-none})" \
    '[ "$(events lease-expired "match $HELD %worker $S %")" -ge 1 ]'
  check "another referee played its match while it was stopped ($before)" \
    '[ "$(echo "$before" | cut -d"|" -f1)" = done ] && [ "$(echo "$before" | cut -d"|" -f2)" != "$S" ]'
  kill -CONT "${RP[$S]}"
  say "3. SIGCONT referee $S after $((SECONDS - stopped)) s"
  for i in $(seq 1 150); do [ "$(events stale-result "match $HELD %from $S:%")" -ge 1 ] && break; sleep 0.2; done
  check "its late result came and was discarded as stale" '[ "$(events stale-result "match $HELD %from $S:%")" -ge 1 ]'
  check "and changed nothing: the match's row is the other referee's" \
    '[ "$(sql "$D" "SELECT state, leased_by, lease_gen, digest, finished_at FROM matches WHERE id = $HELD")" = "$before" ]'
  check "nor was it counted twice" '[ "$(sql "$D" "SELECT count(*) FROM deals WHERE match_id = $HELD")" = 6 ]'
  landed=$((landed + 1))
fi

# ---- 4. a silent network cut ------------------------------------------------
if until_done 36 "the network cut"; then
  # w3 (behind the relay) holding a match
  for i in $(seq 1 600); do
    CUT=$(sql "$D" "SELECT id FROM matches WHERE state = 'leased' AND leased_by = 'w3' ORDER BY id LIMIT 1")
    [ -n "$CUT" ] && break; sleep 0.1
  done
  say "4. the relay of w3 becomes a black hole (w3 holds match ${CUT:-none}; $(done_count "$D") done)"
  echo cut > relay.ctl
  cut_at=$SECONDS
  for i in $(seq 1 150); do [ "$(events lease-expired "match ${CUT:-0} %worker w3 silent%")" -ge 1 ] && break; sleep 0.2; done
  check "the scheduler noticed the silence by heartbeat: w3's lease expired (${CUT:-none})" \
    '[ "$(events lease-expired "match ${CUT:-0} %worker w3 silent%")" -ge 1 ]'
  for i in $(seq 1 300); do [ "$(sql "$D" "SELECT state FROM matches WHERE id = ${CUT:-0}")" = done ] && break; sleep 0.2; done
  check "another referee played the match during the cut" \
    '[ "$(sql "$D" "SELECT state, leased_by <> '"'w3'"' FROM matches WHERE id = ${CUT:-0}")" = "done|t" ]'
  check "the relay held its connections through the cut (a black hole, not a close)" \
    'grep -Eq "relay: cut \([1-9][0-9]* connections\)" relay.log'
  sleep $((cut_at + 6 - SECONDS > 0 ? cut_at + 6 - SECONDS : 0))
  echo pass > relay.ctl
  say "4. the link of w3 is back after $((SECONDS - cut_at)) s"
  for i in $(seq 1 150); do [ "$(grep -c "admitted by" w3.log)" -ge 2 ] && break; sleep 0.2; done
  check "w3 noticed the silence and was admitted again once the link came back" \
    'grep -q "reconnecting" w3.log && [ "$(grep -c "admitted by" w3.log)" -ge 2 ]'
  landed=$((landed + 1))
fi

# ---- 5. PostgreSQL's disk full ----------------------------------------------
if [ -z "$FS" ]; then
  echo "disk full: no tmpfs under the cluster (not root, or mount refused): skipped"
elif until_done 44 "the disk-full step"; then
  # a fresh WAL segment (allocated, zeroed: WAL goes on being written into
  # it), so that the full disk refuses new data pages, not the WAL itself
  sql "$D" "SELECT pg_switch_wal()" > /dev/null; sql "$D" "CHECKPOINT"
  say "5. PostgreSQL's disk filled ($(done_count "$D") done)"
  logged=$(wc -l < sched.log)
  dd if=/dev/zero of="$FS/fill" bs=1M > /dev/null 2>&1
  full_at=$SECONDS
  sql "$D" "CREATE TABLE chaos_probe AS SELECT g, repeat('x', 200) AS pad FROM generate_series(1, 100000) g" > probe.out 2>&1
  check "PostgreSQL's writes fail: no space left on device" 'grep -q "No space left on device" probe.out'
  n_full=$(done_count "$D")
  # full until a statement of the scheduler's fails (a row that needs a new
  # page: within some matches), and 3 s more
  met() { tail -n +$((logged + 1)) sched.log | grep -q "No space left on device"; }
  for i in $(seq 1 200); do met && break; sleep 0.2; done
  check "the scheduler met the full disk: a statement of its failed" 'met'
  sleep 3
  rm -f "$FS/fill"
  say "5. disk freed after $((SECONDS - full_at)) s ($n_full done when it filled, $(done_count "$D") now)"
  rides_out "the full disk"
  landed=$((landed + 1))
fi
want=6; [ -z "$FS" ] && want=5   # 1 is two
check "every fault landed mid-tournament ($landed of $want)" '[ $landed = $want ]'

# ---- the record -------------------------------------------------------------
[ -z "$STUCK" ] && wait_done "$D" 240
check "the tournament finished despite the faults" '[ $? = 0 ] && [ -z "$STUCK" ]'
check "no tournament was skipped for a lost database" '[ "$(events skipped "%")" = 0 ]'
say "the tournament took $((SECONDS - t0)) s"
check "every match recorded exactly once, none void, none lost, with seats and deals" 'rows_ok "$D"'
check "deals identical to the uninterrupted run's" 'same_deals "$D"'
check "results (every seat's score, points, rank) identical to the uninterrupted run's" 'same_results "$D"'
"$ARB" standings pool --db "$D" --format csv > chaos.csv
check "standings identical to the uninterrupted run's" 'cmp -s chaos.csv local.csv'
check "no result was refused as forged" '[ "$(events refused-result "%")" = 0 ]'
played=$(sql "$D" "SELECT count(DISTINCT leased_by) FROM matches WHERE state = 'done'")
check "all three referees played ($played)" '[ "$played" = 3 ]'

say "the record checked; the transcripts"
# the transcripts: from the record alone, every referee's copy gone
for k in w1 w2 w3; do kill -TERM "${RP[$k]}" 2>/dev/null; done
kill -TERM "$SPID" 2>/dev/null
for k in w1 w2 w3; do wait "${RP[$k]}" 2>/dev/null; done
wait "$SPID" 2>/dev/null
rm -rf w1-dir w2-dir w3-dir
check "the record keeps every match's transcript (table transcripts)" \
  '[ "$(sql "$D" "SELECT count(*) FROM matches m JOIN transcripts t ON t.digest = m.digest WHERE m.state = '"'done'"'" 2>/dev/null)" = $MATCHES ]'
"$ARB" verify pool --db "$D" > verify.out 2>&1; rc=$?
check "arbiter verify: every transcript verified from the record, the referees' directories deleted" \
  '[ $rc = 0 ] && grep -q "$MATCHES transcripts: every deal follows from seed + secret: verified" verify.out'
[ $rc = 0 ] || sed -n 2,3p verify.out >&2
M=${HELD:-$(sql "$D" "SELECT id FROM matches ORDER BY round, tbl LIMIT 1")}
"$ARB" dispute show "$M" --db "$D" > show.out 2>&1; rc=$?
check "arbiter dispute show re-judges match $M (the one whose late result was discarded) from the record" \
  '[ $rc = 0 ] && grep -q "check      OK: the digest is the record" show.out'
[ $rc = 0 ] || grep -i "check\|transcript" show.out | head -n 3 >&2

echo "chaos: $pass passed, $fail failed"
[ "$fail" = 0 ]
