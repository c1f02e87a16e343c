#!/usr/bin/env bash
# test_finding.sh — finding things in a private record (docs/cli.md), on the
# private cluster of a state directory and real bots:
#   - the cluster starts on demand and stops cleanly: a read command right
#     after `kill -INT` of a run reads; a run SIGKILLed then resumed to the
#     end leaves no PostgreSQL running; a first set-up killed at any moment
#     (the whole process group: initdb, the server's start, the role and
#     database) and run again succeeds, with nothing running after;
#   - arbiter psql runs a query on the record;
#   - arbiter matches, match-info and crosstable print what the record holds
#     (JSON checked with python3), and refuse hostile arguments by name.
# Usage: test_finding.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" finding-test
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$pg_bin" ] || { echo "no PostgreSQL installed"; exit 77; }
pg_run=(); [ "$(id -u)" = 0 ] && pg_run=(runuser -u postgres --)
# is the private cluster of state directory $1 running?
running() { [ -f "$1/pg/postmaster.pid" ] && "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$1/pg" status >/dev/null 2>&1; }
cleanup() {   # test_sh.sh's trap: also the private clusters made here
  for d in "$T"/*/pg; do [ -d "$d" ] && "${pg_run[@]}" "$pg_bin/pg_ctl" -D "$d" -m immediate -w stop >/dev/null 2>&1; done
  rm -rf "$T"
}

config() {  # name entrants deals
  echo "name: $1"
  echo "format: round-robin"
  echo "deals: $3"
  echo "seed: 7"
  echo "clock: {move_ms: 3000, bank_ms: 10000}"
  echo "entrants:"
  for i in $(seq 1 "$2"); do
    b=random_bot; [ $((i % 2)) = 0 ] && b=greedy_bot
    printf "  - name: e%02d\n    command: %s/%s\n" "$i" "$BOTS" "$b"
  done
}
config small 4 2 > "$T/small.yaml"
config big 8 6 > "$T/big.yaml"

# ---- 1. a read command right after kill -INT of a run -------------------------
for i in 1 2 3; do
  S=$T/int$i
  "$ARB" run "$T/big.yaml" --state "$S" --quiet --workers 2 > "$T/int.out" 2>&1 &
  pid=$!
  for _ in $(seq 100); do running "$S" && [ -e "$S/transcripts" ] && break; sleep 0.1; done
  sleep "0.$((i * 3))"
  kill -INT "$pid"
  "$ARB" status --state "$S" > "$T/st.out" 2>&1
  rc=$?
  check "status right after kill -INT of a run reads the record (try $i, exit $rc: $(head -c 300 "$T/st.out"))" \
    '[ $rc = 0 ] && grep -Eq "^[0-9]+ +big " "$T/st.out"'
  wait "$pid"
  check "the interrupted run exits 130 (try $i)" '[ $? = 130 ]'
  check "nothing left running after the run and the read (try $i)" '! running "$S"'
done

# ---- 2. SIGKILLed, resumed to the end: no PostgreSQL left --------------------
S=$T/kill9
"$ARB" run "$T/big.yaml" --state "$S" --quiet --workers 2 > /dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do running "$S" && [ -e "$S/transcripts" ] && break; sleep 0.1; done
sleep 0.5
kill -9 "$pid"; wait "$pid" 2>/dev/null
check "the cluster of a SIGKILLed run is still up (what the resume must stop)" 'running "$S"'
"$ARB" run "$T/big.yaml" --state "$S" --quiet --workers 2 > "$T/resume.out" 2>&1
check "the resumed run ends (exit $?)" '[ $? = 0 ]'
check "after the resumed run no PostgreSQL is running" '! running "$S"'
"$ARB" status --state "$S" > /dev/null 2>&1
check "a read command after it leaves none running either" '! running "$S"'

# ---- 3. a first set-up killed midway, run again ------------------------------
for ms in 50 150 300 500 800 1200 1700 2500; do
  S=$T/setup$ms
  setsid "$ARB" run "$T/small.yaml" --state "$S" --quiet > /dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
  kill -9 -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  "$ARB" run "$T/small.yaml" --state "$S" --quiet > "$T/setup.out" 2>&1
  rc=$?
  check "killed ${ms}ms into its first set-up, the run again succeeds (exit $rc: $(grep -m1 arbiter: "$T/setup.out"))" '[ $rc = 0 ]'
  [ $rc = 0 ] || tail -n 20 "$S/postgres.log" >&2   # what the server said, in the test's log
  check "and leaves no PostgreSQL running (${ms}ms)" '! running "$S"'
done

# ---- 4. arbiter psql ---------------------------------------------------------
S=$T/s
"$ARB" run "$T/small.yaml" --state "$S" --quiet > /dev/null 2>&1
check "the small tournament runs" '[ $? = 0 ]'
out=$("$ARB" psql --state "$S" -qAtc "select count(*) from matches")
check "arbiter psql runs a query on the record (got \"$out\")" '[ "$out" = 4 ]'
check "arbiter psql leaves no PostgreSQL running" '! running "$S"'
"$ARB" psql --state "$T/none" -c "select 1" > "$T/psql.out" 2>&1
check "arbiter psql without a record exits 3 and makes nothing" '[ $? = 3 ] && [ ! -e "$T/none" ]'
q() { "$ARB" psql --state "$S" -qAtc "$1"; }

# ---- 5. matches, match-info, crosstable against the record -------------------
M="select m.id, m.round, m.tbl, m.state, string_agg(e.name, ';' order by s.slot), string_agg(s.total::text, ';' order by s.slot), string_agg(s.points::text, ';' order by s.slot), string_agg(s.rank::text, ';' order by s.slot), m.transcript, m.digest from matches m join match_seats s on s.match_id = m.id join entrants e on e.tournament_id = m.tournament_id and e.idx = s.entrant"
q "$M group by m.id order by m.round, m.tbl" | tr '|' , > "$T/want.csv"
"$ARB" matches small --state "$S" --format csv | tail -n +2 > "$T/got.csv"
check "matches --format csv is the record's matches" 'diff "$T/want.csv" "$T/got.csv" >&2'
q "$M where m.id in (select match_id from match_seats where entrant = 1) group by m.id order by m.round, m.tbl" | tr '|' , > "$T/want.csv"
"$ARB" matches small --state "$S" --format csv --entrant e02 | tail -n +2 > "$T/got.csv"
check "matches --entrant e02 is e02's matches" '[ -s "$T/got.csv" ] && diff "$T/want.csv" "$T/got.csv" >&2'
"$ARB" matches small --state "$S" --format csv --round 2 > "$T/got.csv"
check "matches --round 2 of a one-round tournament: the header only" '[ "$(wc -l < "$T/got.csv")" = 1 ]'
"$ARB" matches small --state "$S" --format json > "$T/m.json"
q "select m.id, s.slot, e.name, s.total, s.points, s.rank, m.transcript, m.digest from matches m join match_seats s on s.match_id = m.id join entrants e on e.tournament_id = m.tournament_id and e.idx = s.entrant order by m.round, m.tbl, s.slot" > "$T/want.txt"
check "matches --format json parses and holds the record's seats" 'python3 -c "
import json, sys
rows = [\"|\".join(str(x) for x in (m[\"id\"], s[\"slot\"], s[\"entrant\"], s[\"total\"], (\"%g\" % s[\"points\"]), s[\"rank\"], m[\"transcript\"], m[\"digest\"]))
        for m in json.load(open(sys.argv[1])) for s in m[\"seats\"]]
want = open(sys.argv[2]).read().split()
sys.exit(0 if rows == want and len(rows) == 12 else 1)" "$T/m.json" "$T/want.txt"'
id=$(q "select min(id) from matches")
"$ARB" match-info "$id" --state "$S" --format json > "$T/mi.json"
q "select game, deal, seating, array_to_string(seat_slots, ','), array_to_string(scores, ',') from deals where match_id = $id order by game" > "$T/want.txt"
check "match-info --format json: the deals and seats of the record" 'python3 -c "
import json, sys
m = json.load(open(sys.argv[1]))
rows = [\"|\".join([str(d[\"game\"]), str(d[\"deal\"]), str(d[\"seating\"]), \",\".join(map(str, d[\"seat_slots\"])), \",\".join(map(str, d[\"scores\"]))]) for d in m[\"deals\"]]
ok = rows == open(sys.argv[2]).read().split() and len(rows) == 2 and m[\"id\"] == int(sys.argv[3]) and len(m[\"seats\"]) == 3
ok = ok and [sum(d[\"scores\"][d[\"seat_slots\"].index(s[\"slot\"])] for d in m[\"deals\"]) for s in m[\"seats\"]] == [s[\"total\"] for s in m[\"seats\"]]
sys.exit(0 if ok and m[\"penalties\"] == [] else 1)" "$T/mi.json" "$T/want.txt" "$id"'
"$ARB" match-info "$id" --state "$S" > "$T/mi.txt"
check "match-info as a table names the match, its transcript and each deal" 'grep -q "^match $id: small round 1" "$T/mi.txt" && grep -qF "transcript $(q "select transcript from matches where id = $id")" "$T/mi.txt" && [ "$(grep -c "^[01] " "$T/mi.txt")" -ge 2 ]'
q "select a.name, b.name, c.matches, c.points, c.score from crosstable c join entrants a on a.tournament_id = c.tournament_id and a.idx = c.entrant join entrants b on b.tournament_id = c.tournament_id and b.idx = c.opponent order by c.entrant, c.opponent" | tr '|' , > "$T/want.csv"
"$ARB" crosstable small --state "$S" --format csv | tail -n +2 > "$T/got.csv"
check "crosstable --format csv is the record's crosstable (12 pairs)" '[ "$(wc -l < "$T/got.csv")" = 12 ] && diff "$T/want.csv" "$T/got.csv" >&2'
"$ARB" crosstable small --state "$S" --format json | python3 -c "import json,sys; d=json.load(sys.stdin); sys.exit(0 if len(d) == 12 and all(set(r) == {'entrant','opponent','matches','points','score'} for r in d) else 1)"
check "crosstable --format json parses" '[ $? = 0 ]'
# hostile arguments: named, escaped, nothing printed on stdout
"$ARB" matches small --state "$S" --entrant $'\e[2Jx' > "$T/o" 2> "$T/e"
check "matches --entrant unknown: exit 3, named, escaped" '[ $? = 3 ] && grep -qF -- "--entrant \"\\e[2Jx\"" "$T/e" && [ ! -s "$T/o" ]'
"$ARB" matches small --state "$S" --round "1; drop table matches" > "$T/o" 2> "$T/e"
check "matches --round not a number: exit 2, named" '[ $? = 2 ] && grep -q -- "--round" "$T/e"'
"$ARB" matches "small' or '1'='1" --state "$S" > "$T/o" 2> "$T/e"
check "matches of a tournament that is not there: exit 3" '[ $? = 3 ] && grep -q "no tournament named" "$T/e"'
"$ARB" match-info "1 or 1=1" --state "$S" > "$T/o" 2> "$T/e"
check "match-info of a non-number: exit 2, named" '[ $? = 2 ] && grep -q "ID \"1 or 1=1\": not a match id" "$T/e"'
"$ARB" match-info 99999 --state "$S" > "$T/o" 2> "$T/e"
check "match-info of no match: exit 3" '[ $? = 3 ] && grep -q "no such match" "$T/e"'
check "the matches table still there, no PostgreSQL left running" '[ "$(q "select count(*) from matches")" = 4 ] && ! running "$S"'

echo "finding: $pass passed, $fail failed"
[ "$fail" = 0 ]
