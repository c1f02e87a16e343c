#!/usr/bin/env bash
# test_dabang_match.sh — whole Da Bang matches between C bots on the bot
# library (bots-sdk/c, abot_db_*): the greedy team (seats 0 and 2) against
# the random team plays to the end of the match with no penalty; its
# transcript re-judges (`arbiter replay`) and the bots' replies reproduce
# (`replay --rerun`). Then a seeded comparison of at least 100 deals in
# each seating (the same seeds with the teams' seats swapped): the greedy
# team's margin in levels (its final level minus the random team's, summed
# over the matches) is printed and must be positive.
# Usage: test_dabang_match.sh ARBITER BOTDIR
set -u
ARB=$(realpath "$1")
BOTS=$(realpath "$2")
G=$BOTS/dabang_greedy
R=$BOTS/dabang_random
T=$(mktemp -d /tmp/arbiter-dabang-match.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
# one field of the match's JSON: python reads it
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }

# ---- one match to its end ------------------------------------------------------
"$ARB" match --game dabang --bot g1="$G" --bot r1="$R" --bot g2="$G" --bot r2="$R" --fixed-seats \
  --deals 40 --seed 7 --sandbox none --json --transcript m.bin > m.json 2> m.err
check "match exits 0" '[ $? = 0 ]'
check "no penalties" '[ "$(field m.json "sum(b[\"penalties\"] for b in d[\"bots\"])")" = 0 ]'
check "no strikes" '[ "$(field m.json "sum(b[\"strikes\"] for b in d[\"bots\"])")" = 0 ]'
check "played to the end: a team passed 10 or the deals ran out" \
  '[ "$(field m.json "max(b[\"total\"] for b in d[\"bots\"]) == 11 or d[\"games\"] == 40")" = True ]'
check "partners share a score" \
  '[ "$(field m.json "d[\"bots\"][0][\"total\"] == d[\"bots\"][2][\"total\"] and d[\"bots\"][1][\"total\"] == d[\"bots\"][3][\"total\"]")" = True ]'
check "more than a deal played" '[ "$(field m.json "d[\"games\"] > 1")" = True ]'
"$ARB" replay m.bin > replay.out 2>&1
check "replay re-judges the transcript" '[ $? = 0 ] && grep -q "verdict reproduced" replay.out'
"$ARB" replay --rerun m.bin > rerun.out 2>&1
check "replay --rerun reproduces the bots" '[ $? = 0 ] && grep -q "replies reproduced" rerun.out'

# ---- greedy against random, seats swapped, >= 100 deals each way ------------------
margin=0 deals_a=0 deals_b=0 seed=100 matches=0
while [ $deals_a -lt 100 ] || [ $deals_b -lt 100 ]; do
  seed=$((seed + 1))
  matches=$((matches + 1))
  "$ARB" match --game dabang --bot g1="$G" --bot r1="$R" --bot g2="$G" --bot r2="$R" --fixed-seats \
    --deals 100 --seed $seed --sandbox none --json > a.json 2>/dev/null || { echo "match seed $seed failed" >&2; break; }
  "$ARB" match --game dabang --bot r1="$R" --bot g1="$G" --bot r2="$R" --bot g2="$G" --fixed-seats \
    --deals 100 --seed $seed --sandbox none --json > b.json 2>/dev/null || { echo "match seed $seed failed" >&2; break; }
  pen=$(( $(field a.json 'sum(b["penalties"] for b in d["bots"])') + $(field b.json 'sum(b["penalties"] for b in d["bots"])') ))
  [ $pen = 0 ] || { echo "seed $seed: $pen penalties" >&2; fail=$((fail + 1)); }
  margin=$((margin + $(field a.json 'd["bots"][0]["total"] - d["bots"][1]["total"]') \
                   + $(field b.json 'd["bots"][1]["total"] - d["bots"][0]["total"]')))
  deals_a=$((deals_a + $(field a.json 'd["games"]')))
  deals_b=$((deals_b + $(field b.json 'd["games"]')))
  [ $matches -lt 200 ] || break
done
echo "greedy team vs random team: $matches seeds, $deals_a + $deals_b deals (seats swapped), margin $margin levels"
check "at least 100 deals in each seating" '[ $deals_a -ge 100 ] && [ $deals_b -ge 100 ]'
check "the greedy team's margin is positive ($margin levels)" '[ $margin -gt 0 ]'

echo "dabang-match: $pass passed, $fail failed"
[ $fail = 0 ]
