#!/usr/bin/env bash
# test_tournament.sh — `arbiter run` end to end on a real PostgreSQL, real
# ZeroMQ and real bot processes:
#   - a twelve-entrant round robin runs to completion, and the database holds
#     exactly the expected matches, seats, deals and standings;
#   - the same tournament killed with SIGKILL at random moments and resumed
#     ends with standings identical to the uninterrupted run, and no
#     duplicate or missing rows;
#   - Swiss, single elimination and groups-then-knockout run to a result;
#   - every broken configuration in tests/data/configs gives exactly its
#     expected error.
# The database: $ARBITER_TEST_DB when set (CI starts one), else a private
# cluster started here. Usage: test_tournament.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" tournament-test
test_pg_start 55433

# ---- a configuration -------------------------------------------------------
# twelve entrants: six C random bots and six C greedy bots under other names
config() {  # name format extra-yaml entrants
  {
    echo "name: $1"
    echo "format: $2"
    echo "deals: 2"
    echo "seed: 11"
    echo "clock: {move_ms: 3000, bank_ms: 10000}"
    printf "%b" "$3"
    entrants_yaml "$4" "$BOTS"
  }
}
config "twelve" round-robin "" 12 > "$T/rr.yaml"

# The same secret for both runs: deals follow from seed + secret (docs/rng.md).
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"

# ---- 1. a round robin to completion ----------------------------------------
D1=$(newdb arb_rr1)
"$ARB" run "$T/rr.yaml" --db "$D1" --state "$T/s1" --quiet --workers 2 --secret-file "$T/secret" > "$T/rr1.out" 2>&1
check "round robin exits 0" '[ $? = 0 ]'
check "the commitment recorded is sha256 of the secret" '[ "$(sql "$D1" "select commitment from tournaments")" = "$(xxd -r -p "$T/secret" | sha256sum | cut -c1-64)" ]'
check "the secret is revealed when the tournament is over" 'grep -q "secret (revealed: the tournament is over): $(cat "$T/secret")" "$T/rr1.out"'
tr1="$T/r1t0.arbt"   # out of the record, as anyone handed it gets it
"$ARB" transcripts get "$(sql "$D1" "select id from matches where round = 1 and tbl = 0")" --db "$D1" -o "$tr1"
check "replay proves a match's deals from seed + secret" '"$ARB" replay "$tr1" --secret-file "$T/secret" | grep -q "every deal follows from seed + secret: verified"'
check "replay refuses a wrong secret" '! "$ARB" replay "$tr1" --secret 00000000000000000000000000000000000000000000000000000000000000ff | grep -q "verified" && "$ARB" replay "$tr1" --secret 00000000000000000000000000000000000000000000000000000000000000ff | grep -q "fairness: FAILED: wrong secret"'
check "220 matches, all done" '[ "$(sql "$D1" "select count(*), count(*) filter (where state = '"'done'"') from matches")" = "220|220" ]'
check "every table of three met once" '[ "$(sql "$D1" "select count(distinct array(select entrant from match_seats s where s.match_id = m.id order by entrant)) from matches m")" = 220 ]'
check "660 seats with results" '[ "$(sql "$D1" "select count(*) from match_seats where total is not null")" = 660 ]'
check "440 deals (2 per match)" '[ "$(sql "$D1" "select count(*) from deals")" = 440 ]'
check "scores sum to zero" '[ "$(sql "$D1" "select sum(total) from match_seats")" = 0 ]'
check "3 match points per match" '[ "$(sql "$D1" "select sum(points) from match_seats")" = 660 ]'
check "every entrant played 55 matches" '[ "$(sql "$D1" "select count(*) from standings where played = 55")" = 12 ]'
# seat balance: the largest spread, over entrants, between the seat an
# entrant sat in most and the one it sat in least
spread=$(sql "$D1" "select max(hi - lo) from (select idx, max(c) hi, min(c) lo from (select e.idx, d.s, count(ms.*) c from entrants e cross join generate_series(0,2) d(s) left join match_seats ms on ms.entrant = e.idx and ms.slot = d.s group by 1, 2) x group by idx) y")
check "each entrant sits each seat about equally (spread $spread <= 2 over 55 matches)" '[ "$spread" -le 2 ]'
check "a transcript and digest per match, each transcript in the record" '[ "$(sql "$D1" "select count(*) from matches m join transcripts x on x.digest = m.digest where m.digest ~ '"'^[0-9a-f]{64}$'"' and m.transcript like '"'%.arbt'"'")" = 220 ]'
check "the local worker removed its files once they were recorded" '[ -z "$(ls -A "$T/s1/transcripts")" ]'
m1=$(sql "$D1" "select id from matches order by id limit 1")
h=$(sql "$D1" "select digest from matches order by id limit 1")
check "a recorded transcript re-judges with its recorded digest" '"$ARB" replay --match "$m1" --db "$D1" --digest "$h" >/dev/null'
check "arbiter verify proves all 220 matches from seed + secret" '"$ARB" verify twelve --db "$D1" --state "$T/s1" | grep -q "220 transcripts: every deal follows from seed + secret: verified"'
# one byte of one stored transcript changed (kept uncompressed, altered)
"$ARB" transcripts get "$m1" --db "$D1" -o "$T/m1.arbt"
printf '\x00' | dd of="$T/m1.arbt" bs=1 seek=200 conv=notrunc 2>/dev/null
printf "UPDATE transcripts SET codec = 'none', raw_size = %d, body = decode('%s', 'hex') WHERE digest = '%s';\n" \
  "$(stat -c %s "$T/m1.arbt")" "$(od -An -v -tx1 "$T/m1.arbt" | tr -d ' \n')" "$h" | psql "$D1" -qAt > /dev/null
check "arbiter verify names an altered transcript" '! "$ARB" verify twelve --db "$D1" --state "$T/s1" > "$T/verify.out" && grep -q "1 of 220 transcripts FAILED" "$T/verify.out"'
check "standings printed" 'grep -q "final standings" "$T/rr1.out"'
"$ARB" standings twelve --db "$D1" --state "$T/s1" --format csv > "$T/rr1.csv"
check "standings csv has 12 rows" '[ "$(tail -n +2 "$T/rr1.csv" | wc -l)" = 12 ]'

# ---- 2. killed at random moments, resumed ----------------------------------
D2=$(newdb arb_rr2)
for i in 1 2 3 4; do
  "$ARB" run "$T/rr.yaml" --db "$D2" --state "$T/s2" --quiet --workers 2 --secret-file "$T/secret" > /dev/null 2>&1 &
  pid=$!
  sleep "0.$((RANDOM % 9 + 3))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
done
done_before=$(sql "$D2" "select count(*) from matches where state = 'done'")
check "the secret stays sealed while the tournament runs" '"$ARB" status --db "$D2" --state "$T/s2" | grep -q "sealed until the tournament is over"'
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/other"; chmod 600 "$T/other"
check "resuming with another secret is refused" '! "$ARB" run "$T/rr.yaml" --db "$D2" --state "$T/s2" --quiet --workers 2 --secret-file "$T/other" 2>&1 | grep -q "final standings"'
"$ARB" run "$T/rr.yaml" --db "$D2" --state "$T/s2" --quiet --workers 2 --secret-file "$T/secret" > "$T/rr2.out" 2>&1
check "the resumed run exits 0" '[ $? = 0 ]'
check "the kills left work to resume ($done_before of 220 done)" '[ "$done_before" -lt 220 ]'
check "one tournament, resumed" '[ "$(sql "$D2" "select count(*) from tournaments")" = 1 ] && [ "$(sql "$D2" "select count(*) from events where kind = '"'resume'"'")" -ge 1 ]'
check "220 matches done after resuming" '[ "$(sql "$D2" "select count(*) from matches where state = '"'done'"'")" = 220 ]'
check "no duplicate or missing deals" '[ "$(sql "$D2" "select count(*), count(distinct (match_id, game)) from deals")" = "440|440" ]'
"$ARB" standings twelve --db "$D2" --state "$T/s2" --format csv > "$T/rr2.csv"
check "standings identical to the uninterrupted run" 'cmp -s "$T/rr1.csv" "$T/rr2.csv"'
deals_digest() { sql "$1" "select md5(string_agg(concat_ws('/', m.round, m.tbl, d.game, d.scores::text), ',' order by m.round, m.tbl, d.game)) from deals d join matches m on m.id = d.match_id"; }
check "the same deals and scores as the uninterrupted run" '[ "$(deals_digest "$D1")" = "$(deals_digest "$D2")" ]'
check "no bot process left behind" '! pgrep -f "$BOTS/(random|greedy)_bot" >/dev/null'

# ---- 3. the other formats ----------------------------------------------------
config "swiss" swiss "rounds: 4\n" 12 > "$T/sw.yaml"
D3=$(newdb arb_sw)
"$ARB" run "$T/sw.yaml" --db "$D3" --state "$T/s3" --quiet > "$T/sw.out" 2>&1
check "swiss: 4 rounds of 4 tables" '[ "$(sql "$D3" "select count(*) from matches where state = '"'done'"'")" = 16 ] && [ "$(sql "$D3" "select max(round) from matches")" = 4 ]'
check "swiss: no one plays twice in a round" '[ "$(sql "$D3" "select count(*) from (select m.round, s.entrant from match_seats s join matches m on m.id = s.match_id group by 1, 2 having count(*) > 1) x")" = 0 ]'
check "swiss: no repeat meeting in round 2" '[ "$(sql "$D3" "select count(*) from match_seats a join match_seats b on a.match_id = b.match_id and a.entrant < b.entrant join matches m on m.id = a.match_id join match_seats c on c.entrant = a.entrant join match_seats d on d.match_id = c.match_id and d.entrant = b.entrant join matches n on n.id = c.match_id where m.round = 1 and n.round = 2")" = 0 ]'
config "knockout" single-elimination "" 10 > "$T/ko.yaml"
D4=$(newdb arb_ko)
"$ARB" run "$T/ko.yaml" --db "$D4" --state "$T/s4" --quiet > "$T/ko.out" 2>&1
check "knockout: a champion" 'grep -q "^champion: e" "$T/ko.out"'
check "knockout: every table full" '[ "$(sql "$D4" "select count(*) from (select match_id from match_seats group by 1 having count(*) <> 3) x")" = 0 ]'
config "groups" groups-knockout "groups: 3\nadvance: 1\n" 12 > "$T/gk.yaml"
D5=$(newdb arb_gk)
"$ARB" run "$T/gk.yaml" --db "$D5" --state "$T/s5" --quiet > "$T/gk.out" 2>&1
check "groups-knockout: 3 groups of 4 (12 group matches), then a final" '[ "$(sql "$D5" "select count(*) from matches where round = 1")" = 12 ] && grep -q "^champion: e" "$T/gk.out"'

# ---- 3b. the example configurations, as shipped --------------------------------
# Their bots (C, and Python importing the SDK module) run from the program
# cache with the tournament's tree hidden: an entrant that forgot to ship a
# file it needs forfeits every match. Only when this build is the one the
# examples name (../build).
if [ "$BOTS" -ef "$SRC/build/bots-sdk/c" ]; then
  for ex in swiss knockout; do
    Dx=$(newdb "arb_ex_$ex")
    "$ARB" run "$SRC/config/example-$ex.yaml" --db "$Dx" --state "$T/ex-$ex" --quiet --workers 2 > "$T/ex-$ex.out" 2>&1
    check "config/example-$ex.yaml runs (exit 0)" '[ $? = 0 ]'
    check "config/example-$ex.yaml: no entrant penalised or forfeited" \
      '[ "$(sql "$Dx" "select count(*) from match_seats where penalties > 0 or forfeited")" = 0 ] && [ "$(sql "$Dx" "select count(*) from match_seats")" -gt 0 ]'
  done
fi

# ---- 4. broken configurations --------------------------------------------------
# The files alone (--no-programs): the corpus names programs and files:
# of no host (ok-full.yaml's lib/model.bin).
cd "$SRC" || exit 2
for f in tests/data/configs/*.yaml; do
  want="${f%.yaml}.err"
  if [ -f "$want" ]; then
    got=$("$ARB" check --no-programs "$f" 2>&1 >/dev/null)
    if [ "$got" = "$(cat "$want")" ]; then ok; else bad "$f: expected [$(cat "$want")], got [$got]"; fi
  else
    if "$ARB" check --no-programs "$f" >/dev/null 2>&1; then ok; else bad "$f should load: $("$ARB" check --no-programs "$f" 2>&1)"; fi
  fi
done

echo "tournament: $pass passed, $fail failed"
[ "$fail" = 0 ]
