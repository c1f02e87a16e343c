#!/usr/bin/env bash
# test_placement.sh — results that are right (docs/rules/placement.md),
# `arbiter run` end to end on a real PostgreSQL with real bots:
#   - single elimination (a bye, then a final round robin) and groups then
#     knockout: the standings (table, CSV, JSON) rank by the stage reached
#     — the champion first, then the final's others in their order, then
#     the earlier rounds' losers, the group stage last — checked exactly
#     against an order computed from the record's matches;
#   - a knockout of one-deal matches, where tables end tied (+2 +2 -4): each
#     tie settled by the documented chain, filed as a `tie-break` event,
#     shown in the bracket and the standings, and the same in a second run;
#   - tournament ids: printed by run and status, `#ID` selects, a changed
#     file under a used name is refused with the choices, --new starts
#     another of the same name.
# Usage: test_placement.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" placement-test
test_pg_start 55439

config() {  # name format deals extra-yaml entrants
  {
    echo "name: $1"
    echo "format: $2"
    echo "deals: $3"
    echo "seed: 7"
    echo "clock: {move_ms: 3000, bank_ms: 10000}"
    printf "%b" "$4"
    entrants_yaml "$5" "$BOTS"
  }
}
printf "%064d" 7 > "$T/secret"; chmod 600 "$T/secret"   # fixed: the same deals, draws and results every time

# What rule P1 orders by, from the matches alone: per entrant the last
# round it played (its stage; later first) and, for those in the final,
# their match points in it (the final's order). Ties in these keys (the
# places at tables of one round, ties at tables) are settled by the rest of
# the chain, checked in section 3.
keys() {  # db: "name round:points" lines
  sql "$1" "with last as (select s.entrant, max(m.round) r from match_seats s join matches m on m.id = s.match_id group by 1),
    fin as (select s.entrant, sum(s.points) p from match_seats s join matches m on m.id = s.match_id
            join last l on l.entrant = s.entrant and l.r = m.round group by 1)
    select e.name || ' ' || l.r || ':' || case when l.r = (select max(round) from matches) then f.p else 0 end
    from entrants e join last l on l.entrant = e.idx join fin f on f.entrant = e.idx" | sort
}
csv_names() { tail -n +2 "$1" | cut -d, -f2 | tr '\n' ' '; }
csv_keys() {  # csv db: the keys in the CSV's order
  keys "$2" > "$T/keys"
  for n in $(csv_names "$1"); do grep "^$n " "$T/keys" | cut -d' ' -f2; done | tr '\n' ' '
}
sorted_keys() { keys "$1" | cut -d' ' -f2 | sort -t: -k1,1nr -k2,2gr | tr '\n' ' '; }

placed_run() {  # label yaml db
  local label=$1 yaml=$2 db=$3
  "$ARB" run "$yaml" --db "$db" --state "$T/s-$label" --quiet --workers 2 --secret-file "$T/secret" > "$T/$label.out" 2>&1
  check "$label: runs (exit 0)" '[ $? = 0 ]'
  local name; name=$(sql "$db" "select name from tournaments")
  "$ARB" standings "$name" --db "$db" --format csv > "$T/$label.csv"
  "$ARB" standings "$name" --db "$db" --format json > "$T/$label.json"
  local want got; want=$(sorted_keys "$db"); got=$(csv_keys "$T/$label.csv" "$db")
  check "$label: standings CSV by the stage reached, the final's points first [$want] (got [$got])" '[ "$got" = "$want" ]'
  local champ; champ=$(sed -n 's/^champion: //p' "$T/$label.out")
  local final; final=$(sql "$db" "select string_agg(e.name, ' ' order by s.rank, s.slot) from match_seats s join matches m on m.id = s.match_id join entrants e on e.idx = s.entrant where m.round = (select max(round) from matches)")
  check "$label: the bracket's champion ($champ) won the final and is first" '[ -n "$champ" ] && [ "$(csv_names "$T/$label.csv" | cut -d" " -f1)" = "$champ" ] && sql "$db" "select 1 from match_seats s join matches m on m.id = s.match_id join entrants e on e.idx = s.entrant where m.round = (select max(round) from matches) and e.name = '"'$champ'"' and s.rank = 1" | grep -q 1'
  check "$label: standings JSON in the same order, champion then final" 'python3 -c "
import json,sys; d=json.load(open(sys.argv[1])); assert \" \".join(r[\"name\"] for r in d) + \" \" == sys.argv[2], d
assert d[0][\"reached\"] == \"champion\" and d[1][\"reached\"] == \"final\", d" "$T/$label.json" "$(csv_names "$T/$label.csv")"'
  check "$label: the run's table lists the champion first" 'grep -A3 "final standings" "$T/$label.out" | tail -1 | grep -Eq "^1 +$champ .* champion"'
  check "$label: the record's placements agree" '[ "$(sql "$db" "select string_agg(e.name, '"' '"' order by p.place) from placements p join entrants e on e.idx = p.unit and e.tournament_id = p.tournament_id") " = "$(csv_names "$T/$label.csv")" ]'
}

# ---- 1. single elimination: ten entrants, a bye, a final round robin -----------
config "ko10" single-elimination 2 "" 10 > "$T/ko10.yaml"
D1=$(newdb arb_pl_ko)
placed_run ko10 "$T/ko10.yaml" "$D1"
check "ko10: round-1 losers are last, labelled by their stage" '[ "$(tail -n +6 "$T/ko10.csv" | cut -d, -f9 | sort -u)" = "semi-final" ]'
check "ko10: the bracket shows the bye" 'grep -q "^  byes: " "$T/ko10.out"'

# ---- 2. groups then knockout: four groups of three, two go on -------------------
config "gk12" groups-knockout 2 "groups: 4\nadvance: 2\n" 12 > "$T/gk12.yaml"
D2=$(newdb arb_pl_gk)
placed_run gk12 "$T/gk12.yaml" "$D2"
check "gk12: the group stage is last, and shown" '[ "$(tail -n 4 "$T/gk12.csv" | cut -d, -f9 | sort -u)" = "group stage" ] && grep -q "^  group 4:" "$T/gk12.out"'

# ---- 3. tied tables: one-deal matches (+2 +2 -4), settled by the chain ----------
config "ties" single-elimination 1 "" 9 > "$T/ties.yaml"
D3=$(newdb arb_pl_tie)
"$ARB" run "$T/ties.yaml" --db "$D3" --state "$T/s-ties" --quiet --workers 2 --secret-file "$T/secret" > "$T/ties.out" 2>&1
check "ties: runs (exit 0)" '[ $? = 0 ]'
nt=$(sql "$D3" "select count(*) from events where kind = 'tie-break'")
check "ties: tied tables filed as tie-break events ($nt)" '[ "$nt" -ge 1 ]'
check "ties: every tied table of the record has its event" '[ "$(sql "$D3" "select count(*) from matches m where exists (select 1 from match_seats a join match_seats b on a.match_id = b.match_id and a.slot < b.slot and a.rank = b.rank where a.match_id = m.id)")" = "$nt" ]'
check "ties: the bracket shows each tie" '[ "$(grep -c "    tie: round" "$T/ties.out")" = "$nt" ]'
"$ARB" standings ties --db "$D3" --format csv > "$T/ties.csv"
check "ties: the standings show the tie-break" 'grep -q "head-to-head" "$T/ties.csv" && grep -q "ties settled" "$T/ties.out"'
# a tie for first place at a round-1 table: the one the event puts first is
# the one who went on to round 2
first_ties=$(sql "$D3" "select detail from events where kind = 'tie-break' and detail like 'round 1 %tied at place 1 %'")
while IFS= read -r d; do
  [ -n "$d" ] || continue
  winner=$(printf '%s' "$d" | sed 's/.*: \([^ >]*\) > .*/\1/')
  loser=$(printf '%s' "$d" | sed 's/.*: [^ >]* > \([^ >;]*\).*/\1/')
  check "ties: \"$d\": $winner went on, $loser did not" '[ "$(sql "$D3" "select string_agg(distinct e.name, '"','"') from match_seats s join matches m on m.id = s.match_id join entrants e on e.idx = s.entrant where m.round = 2 and e.name in ('"'$winner', '$loser'"')")" = "$winner" ]'
done <<< "$first_ties"
D3b=$(newdb arb_pl_tie2)
"$ARB" run "$T/ties.yaml" --db "$D3b" --state "$T/s-ties2" --quiet --workers 2 --secret-file "$T/secret" > /dev/null 2>&1
check "ties: settled the same way in a second run (the draw is the secret's)" '[ "$(sql "$D3" "select string_agg(detail, '"'|'"' order by detail) from events where kind = '"'tie-break'"'")" = "$(sql "$D3b" "select string_agg(detail, '"'|'"' order by detail) from events where kind = '"'tie-break'"'")" ]'

# ---- 4. ids; a changed file under a used name ------------------------------------
config "same" round-robin 1 "" 3 > "$T/same.yaml"
D4=$(newdb arb_pl_id)
"$ARB" run "$T/same.yaml" --db "$D4" --state "$T/s-id" --quiet --workers 1 > "$T/id1.out" 2>&1
id1=$(sql "$D4" "select id from tournaments where name = 'same'")
check "run prints the tournament's id" 'grep -q "^same (id $id1, select it as \"#$id1\")" "$T/id1.out"'
"$ARB" status --db "$D4" > "$T/status.out"
check "status lists the id" 'grep -Eq "^$id1 +same +round-robin" "$T/status.out"'
sed -i 's/^deals: 1/deals: 2/' "$T/same.yaml"
"$ARB" run "$T/same.yaml" --db "$D4" --state "$T/s-id" --quiet --workers 1 > "$T/id2.out" 2>&1
st=$?
check "a changed file under the same name is refused (exit 2)" '[ "$st" = 2 ] && [ "$(sql "$D4" "select count(*) from tournaments")" = 1 ]'
check "the refusal names file:line, the id and the choices" 'grep -q "same.yaml:1: tournament \"same\" (id $id1) was started from a different file" "$T/id2.out" && grep -q -- "--new" "$T/id2.out" && grep -q "restore the file" "$T/id2.out"'
"$ARB" run "$T/same.yaml" --db "$D4" --state "$T/s-id" --quiet --workers 1 --new > "$T/id3.out" 2>&1
check "--new starts another tournament of the same name" '[ $? = 0 ] && [ "$(sql "$D4" "select count(*) from tournaments where name = '"'same'"'")" = 2 ]'
id2=$(sql "$D4" "select max(id) from tournaments")
"$ARB" standings "#$id1" --db "$D4" --format csv > "$T/one.csv"
"$ARB" standings "#$id2" --db "$D4" --format csv > "$T/two.csv"
"$ARB" standings same --db "$D4" --format csv > "$T/latest.csv"
check "#ID selects each: the first played 1 deal a match, the second 2" '[ "$(sql "$D4" "select count(*) from deals d join matches m on m.id = d.match_id where m.tournament_id = $id1")" = 1 ] && [ -s "$T/one.csv" ] && [ -s "$T/two.csv" ] && ! cmp -s "$T/one.csv" "$T/two.csv"'
check "a name selects the latest of that name" 'cmp -s "$T/latest.csv" "$T/two.csv"'
"$ARB" standings "#999999" --db "$D4" > /dev/null 2> "$T/noid.err"
check "an unknown id exits 3" '[ $? = 3 ] && grep -q "no tournament of id \"#999999\"" "$T/noid.err"'
"$ARB" verify "#$id1" --db "$D4" --state "$T/s-id" > "$T/verify.out" 2>&1
check "verify takes #ID too" 'grep -q "1 transcripts\|1 transcript" "$T/verify.out"'
sed -i 's/^deals: 2/deals: 1/' "$T/same.yaml"
"$ARB" run "$T/same.yaml" --db "$D4" --state "$T/s-id" --quiet --workers 1 > "$T/id4.out" 2>&1
check "the original file again resumes the first (nothing new)" '[ $? = 0 ] && [ "$(sql "$D4" "select count(*) from tournaments")" = 2 ] && grep -q "^same (id $id1" "$T/id4.out"'

echo "placement: $pass passed, $fail failed"
[ "$fail" = 0 ]
