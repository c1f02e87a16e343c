#!/usr/bin/env bash
# test_dabang_tournament.sh — Da Bang tournaments of teams end to end with
# `arbiter run`: a real PostgreSQL, real ZeroMQ, real bot processes (C and
# Python), partners seated opposite.
#   1. an eight-team double elimination runs uninterrupted; the same file
#      and secret killed with SIGKILL several times midway and resumed ends
#      with the same team standings, member standings, bracket and deals.
#      The record is a double elimination: 14 matches, or 15 with the grand
#      final's reset, a grand final, one champion with at most one loss,
#      every other team out after exactly two;
#   2. the six-team knockout of config/example-dabang-knockout.yaml (its
#      matches shortened) likewise: identical after kills, 5 matches in
#      rounds of 3, 1 and 1 (a bye for a winner of round 1), one champion, every
#      other team out after one loss;
#   3. a team file with a team of one member (or three) is refused by
#      `arbiter check` and `arbiter run` with FILE:LINE:COL.
# The database: $ARBITER_TEST_DB when set (CI starts one), else a private
# cluster started here. Usage: test_dabang_tournament.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" dabang-tournament-test
. "$(dirname "$0")/../lib/dabang_teams.sh"
test_pg_start 55451
say() { echo "-- $*" >&2; }

# The same secret for every run: deals follow from seed + secret (docs/rng.md).
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
run() {  # run FILE DB STATE: arbiter run, quiet, two local workers
  "$ARB" run "$1" --db "$2" --state "$3" --quiet --workers 2 --secret-file "$T/secret"
}
done_count() { sql "$1" "SELECT count(*) FROM matches WHERE state = 'done'" 2>/dev/null || echo 0; }
bracket_of() { sed -n '/^\(double elimination\|knockout\) of /,/^champion: /p' "$1"; }

# killed FILE DB STATE TOTAL KILLS: runs FILE, killing the run with
# SIGKILL once at a random moment in its start-up and then each time
# another match or two has been recorded, KILLS times in all (fewer if the
# matches run out: the last kill comes no later than in the last match);
# the run then resumes to the end (output in STATE.out). Sets KILLS and
# DONE_BEFORE (matches done before the last resumption).
killed() {
  local f=$1 d=$2 s=$3 total=$4 want=$5 pid target i
  KILLS=0
  # kills stop two matches short of the end: a short match can finish
  # between reaching the target and the kill, and the last resumption must
  # still have something to play
  while [ $KILLS -lt "$want" ] && [ "$(done_count "$d")" -lt $((total - 2)) ]; do
    "$ARB" run "$f" --db "$d" --state "$s" --quiet --workers 2 --secret-file "$T/secret" > /dev/null 2>&1 &
    pid=$!   # arbiter itself, not a subshell: the kill must reach it
    if [ $KILLS = 0 ]; then
      sleep "0.$((RANDOM % 4 + 1))"
    else
      target=$(($(done_count "$d") + 1 + RANDOM % 2))
      [ $target -gt $((total - 2)) ] && target=$((total - 2))
      for i in $(seq 1 600); do
        [ "$(done_count "$d")" -ge "$target" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
      done
      # and then somewhere in the next match: a match takes ~0.2 s here,
      # so no more than 30 ms, or the run may have ended before the kill
      sleep "0.0$((RANDOM % 4))"
    fi
    kill -9 "$pid" 2>/dev/null
    # a kill counts only if it stopped a running run (status 128 + 9): a
    # run that ended first was not killed, whatever kill answered (a
    # zombie takes a signal), and there is nothing more to kill
    wait "$pid" 2>/dev/null
    [ $? = 137 ] || break
    KILLS=$((KILLS + 1))
  done
  DONE_BEFORE=$(done_count "$d")
  run "$f" "$d" "$s" > "$s.out" 2>&1
}

# ---- 1. an eight-team double elimination, uninterrupted and killed ----------
say "double elimination of 8 teams"
dabang_config de8 double-elimination 8 4 "$BOTS" "$SRC" "$T" > "$T/de.yaml"
check "the double elimination's file checks" '"$ARB" check "$T/de.yaml" | grep -q "8 teams of 16 entrants, double-elimination, dabang"'
DA=$(newdb arb_dabang_de_a)
t0=$SECONDS
run "$T/de.yaml" "$DA" "$T/de-a" > "$T/de-a.out" 2>&1
check "the uninterrupted run exits 0" '[ $? = 0 ]' || tail -n 20 "$T/de-a.out" >&2
say "uninterrupted: $((SECONDS - t0)) s"
nde=$(done_count "$DA")
check "14 matches, or 15 with the grand final's reset ($nde)" '[ "$nde" = 14 ] || [ "$nde" = 15 ]'
check "no match left pending or void" '[ "$(sql "$DA" "SELECT count(*) FROM matches WHERE state <> '"'done'"'")" = 0 ]'
check "every match two teams of partners sitting opposite" '[ -z "$(dabang_bad_seating "$DA")" ]'
check "every match has two sides with results" '[ "$(sql "$DA" "SELECT count(*) FROM match_sides")" = $((nde * 2)) ]'
check "no bot penalised or forfeited" '[ "$(sql "$DA" "SELECT count(*) FROM match_seats WHERE penalties > 0 OR forfeited")" = 0 ]'
check "the Python teams played" '[ "$(sql "$DA" "SELECT count(*) FROM match_seats s JOIN entrants e ON e.idx = s.entrant WHERE e.name LIKE '"'py-%'"'")" -ge 4 ]'
bracket_of "$T/de-a.out" > "$T/de-a.bracket"
check "the bracket is printed, with a grand final" '[ "$(grep -c "^  grand final  " "$T/de-a.bracket")" = 1 ]'
resets=$(grep -c "^  grand final reset " "$T/de-a.bracket")
check "15 matches exactly when the grand final was reset ($resets resets)" '[ "$nde" = $((14 + resets)) ]'
champ=$(sed -n 's/^champion: //p' "$T/de-a.bracket")
check "one champion ($champ)" '[ -n "$champ" ] && [ "$(grep -c "^champion: " "$T/de-a.bracket")" = 1 ]'
dabang_losses "$DA" > "$T/de-a.losses"
check "the champion lost at most once" '[ "$(grep "^$champ|" "$T/de-a.losses" | cut -d"|" -f2)" -le 1 ]'
check "every other team lost exactly twice" '[ "$(grep -v "^$champ|" "$T/de-a.losses" | grep -vc "|2$")" = 0 ] && [ "$(grep -vc "^$champ|" "$T/de-a.losses")" = 7 ]'
# the last round is the grand final (or its reset): the champion against
# the winner of the losers' bracket, each with at most one loss before it
last=$(dabang_results "$DA" | tail -n 1)
check "the last match was the grand final, won by the champion ($last)" '[ "$(echo "$last" | cut -d"|" -f3)" = "$champ" ] && [ "$(sql "$DA" "SELECT count(*) FROM matches WHERE round = (SELECT max(round) FROM matches)")" = 1 ]'
check "the printed bracket is the record's: every result in it" \
  'dabang_results "$DA" | while IFS="|" read -r r t w l; do grep -q " $w > $l$" "$T/de-a.bracket" || exit 1; done'
# CSV: one table (it was two one after the other, which no CSV reader takes):
# a header, then 8 team rows and 16 member rows, every row as wide as it
"$ARB" standings de8 --db "$DA" --format csv > "$T/de-a.csv"
check "standings CSV of teams: one table, kind team/member" 'python3 -c "
import csv, sys; rows = list(csv.reader(open(sys.argv[1])))
assert rows[0][:3] == [\"kind\", \"rank\", \"name\"], rows[0]
assert all(len(r) == len(rows[0]) for r in rows), rows
kinds = [r[0] for r in rows[1:]]
assert kinds == [\"team\"] * 8 + [\"member\"] * 16, kinds
" "$T/de-a.csv"'
"$ARB" standings de8 --db "$DA" --format json > "$T/de-a.json"
check "standings JSON: 8 teams and 16 members, each member with its team's matches and wins" 'python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
assert len(d[\"teams\"]) == 8 and len(d[\"entrants\"]) == 16, d
played = {t[\"name\"]: t[\"played\"] for t in d[\"teams\"]}
wins = {t[\"name\"]: t[\"wins\"] for t in d[\"teams\"]}
assert sum(played.values()) == 2 * int(sys.argv[2]), played
for e in d[\"entrants\"]:
    team = [t for t in played if e[\"name\"].startswith(t + \"-\")]
    assert team and e[\"played\"] == played[max(team, key=len)], e
    # a member wins what its team wins: ranks follow the game verdict per team
    assert e[\"wins\"] == wins[max(team, key=len)], (e, wins)
" "$T/de-a.json" "$nde"'

say "the same, killed with SIGKILL midway and resumed"
DB=$(newdb arb_dabang_de_b)
t0=$SECONDS
killed "$T/de.yaml" "$DB" "$T/de-b" "$nde" 5
check "the resumed run exits 0" '[ $? = 0 ]' || tail -n 20 "$T/de-b.out" >&2
say "killed $KILLS times, $DONE_BEFORE of $nde done before the last resumption, $((SECONDS - t0)) s in all"
check "killed several times midway ($KILLS kills, $DONE_BEFORE of $nde matches done)" \
  '[ $KILLS -ge 4 ] && [ "$DONE_BEFORE" -gt 0 ] && [ "$DONE_BEFORE" -lt "$nde" ]'
check "one tournament, resumed" '[ "$(sql "$DB" "SELECT count(*) FROM tournaments")" = 1 ] && [ "$(sql "$DB" "SELECT count(*) FROM events WHERE kind = '"'resume'"'")" -ge 1 ]'
check "every match recorded once, none void" '[ "$(sql "$DB" "SELECT count(*), count(*) FILTER (WHERE state = '"'done'"') FROM matches")" = "$nde|$nde" ] && [ "$(sql "$DB" "SELECT count(*) FROM (SELECT round, tbl FROM matches GROUP BY 1, 2 HAVING count(*) > 1) x")" = 0 ]'
check "no duplicate or missing deals" '[ "$(sql "$DB" "SELECT count(*), count(DISTINCT (match_id, game)) FROM deals")" = "$(sql "$DA" "SELECT count(*), count(*) FROM deals")" ]'
"$ARB" standings de8 --db "$DB" --format json > "$T/de-b.json"
check "team and member standings identical to the uninterrupted run" 'cmp -s "$T/de-a.json" "$T/de-b.json"'
"$ARB" standings de8 --db "$DA" > "$T/de-a.txt"; "$ARB" standings de8 --db "$DB" > "$T/de-b.txt"
check "the standings tables identical too" 'cmp -s "$T/de-a.txt" "$T/de-b.txt"'
bracket_of "$T/de-b.out" > "$T/de-b.bracket"
check "the bracket printed at the end identical" '[ -s "$T/de-b.bracket" ] && cmp -s "$T/de-a.bracket" "$T/de-b.bracket"'
check "the same matches, results and deals as the uninterrupted run" '[ "$(dabang_digest "$DA")" = "$(dabang_digest "$DB")" ]'
# (this build's C bots, and anything run from the killed run's state directory: the Python bots' cache)
check "no bot process left behind" '! pgrep -f -- "$BOTS/dabang_|$T/de-b/" > /dev/null'

# ---- 2. the six-team knockout of the example, shortened ----------------------
say "the example's six-team knockout"
# the example as shipped, its paths pointed at this build and checkout, its
# matches three deals long
rel=$(realpath --relative-to="$T" "$SRC")
sed -e "s#\.\./build/bots-sdk/c/#$BOTS/#g" -e "s#command: \.\./bots-sdk/#command: $SRC/bots-sdk/#g" \
    -e "s#\.\./bots-sdk/#$rel/bots-sdk/#g" -e 's#^files_root: \.\.$#files_root: /#' \
    "$SRC/config/example-dabang-knockout.yaml" > "$T/ko.yaml"
check "the example's copy checks" '"$ARB" check "$T/ko.yaml" | grep -q "6 teams of 12 entrants, single-elimination"'
KA=$(newdb arb_dabang_ko_a)
run "$T/ko.yaml" "$KA" "$T/ko-a" > "$T/ko-a.out" 2>&1
check "the knockout exits 0" '[ $? = 0 ]' || tail -n 20 "$T/ko-a.out" >&2
check "5 matches in rounds of 3, 1 and 1" '[ "$(sql "$KA" "SELECT string_agg(n::text, '"','"' ORDER BY round) FROM (SELECT round, count(*) n FROM matches WHERE state = '"'done'"' GROUP BY round) x")" = "3,1,1" ]'
check "every match two teams of partners sitting opposite" '[ -z "$(dabang_bad_seating "$KA")" ]'
check "no bot penalised or forfeited" '[ "$(sql "$KA" "SELECT count(*) FROM match_seats WHERE penalties > 0 OR forfeited")" = 0 ]'
bracket_of "$T/ko-a.out" > "$T/ko-a.bracket"
kchamp=$(sed -n 's/^champion: //p' "$T/ko-a.bracket")
dabang_losses "$KA" > "$T/ko-a.losses"
check "one champion ($kchamp), unbeaten" '[ -n "$kchamp" ] && [ "$(grep "^$kchamp|" "$T/ko-a.losses")" = "$kchamp|0" ]'
check "every other team out after one loss" '[ "$(grep -v "^$kchamp|" "$T/ko-a.losses" | grep -c "|1$")" = 5 ]'
bye=$(sql "$KA" "SELECT DISTINCT sd.team FROM match_sides sd JOIN matches m ON m.id = sd.match_id WHERE m.round = 1 AND sd.rank = 1
                EXCEPT SELECT sd.team FROM match_sides sd JOIN matches m ON m.id = sd.match_id WHERE m.round = 2")
check "one winner of round 1 takes round 2's bye and plays the final" \
  '[ "$(echo "$bye" | grep -c .)" = 1 ] && [ "$(sql "$KA" "SELECT count(*) FROM match_sides sd JOIN matches m ON m.id = sd.match_id WHERE m.round = 3 AND sd.team = $bye")" = 1 ]'
"$ARB" standings "example dabang knockout" --db "$KA" --format json > "$T/ko-a.json"
KB=$(newdb arb_dabang_ko_b)
killed "$T/ko.yaml" "$KB" "$T/ko-b" 5 3
check "the killed knockout resumes and exits 0" '[ $? = 0 ]' || tail -n 20 "$T/ko-b.out" >&2
say "knockout killed $KILLS times, $DONE_BEFORE of 5 done before the last resumption"
check "killed midway ($KILLS kills, $DONE_BEFORE of 5 done)" '[ $KILLS -ge 1 ] && [ "$DONE_BEFORE" -lt 5 ]'
check "5 matches, each once" '[ "$(sql "$KB" "SELECT count(*), count(DISTINCT (round, tbl)) FROM matches WHERE state = '"'done'"'")" = "5|5" ]'
"$ARB" standings "example dabang knockout" --db "$KB" --format json > "$T/ko-b.json"
check "team and member standings identical to the uninterrupted knockout" 'cmp -s "$T/ko-a.json" "$T/ko-b.json"'
bracket_of "$T/ko-b.out" > "$T/ko-b.bracket"
check "the knockout's bracket identical" '[ -s "$T/ko-b.bracket" ] && cmp -s "$T/ko-a.bracket" "$T/ko-b.bracket"'
check "the same matches, results and deals" '[ "$(dabang_digest "$KA")" = "$(dabang_digest "$KB")" ]'

# ---- 3. a team of the wrong size ---------------------------------------------
say "broken team files"
# the double elimination's file with one team short of a member, and one
# with a member too many: refused at the team's members, with the place
for n in 1 3; do
  # random-2's members: keep one, or add a third
  awk -v n=$n '
    /^  - name: / { team = $3 }
    team == "random-2" && /^      - / { k++; if (n == 1 && k == 2) next; print; if (n == 3 && k == 2) print; next }
    { print }' "$T/de.yaml" > "$T/team$n.yaml"
  line=$(grep -n "^  - name: random-2$" "$T/team$n.yaml" | cut -d: -f1)
  want="$T/team$n.yaml:$((line + 2)):7: team random-2: $n member$([ $n = 1 ] || echo s), and a dabang side has 2 seats: a team needs exactly 2"
  got=$("$ARB" check "$T/team$n.yaml" 2>&1 > /dev/null)
  rc=$?
  check "check: a team of $n refused with FILE:LINE:COL (got [$got])" '[ $rc = 1 ] && [ "$got" = "$want" ]'
  D=$(newdb "arb_dabang_bad$n")
  run "$T/team$n.yaml" "$D" "$T/bad$n" > "$T/bad$n.out" 2>&1
  rc=$?
  check "run: a team of $n refused the same, nothing recorded" '[ $rc != 0 ] && grep -qF "$want" "$T/bad$n.out" && [ "$(sql "$D" "SELECT count(*) FROM pg_tables WHERE tablename = '"'tournaments'"'")" = 0 -o "$(sql "$D" "SELECT count(*) FROM tournaments" 2>/dev/null)" = 0 ]'
done

echo "dabang-tournament: $pass passed, $fail failed"
[ "$fail" = 0 ]
