#!/usr/bin/env bash
# test_dabang_match.sh — whole Da Bang matches between C bots on the bot
# library (bots-sdk/c, abot_dab_*): the greedy team (seats 0 and 2) against
# the random team plays to the end of the match with no penalty; its
# transcript re-judges (`arbiter replay`) and the bots' replies reproduce
# (`replay --rerun`). Then a seeded comparison of at least 100 deals in
# each seating (the same seeds with the teams' seats swapped): the greedy
# team's margin in levels (its final level minus the random team's, summed
# over the matches) is printed and must be positive. Then duplicate swap:
# one match at two tables re-judged and shown, and a seeded series of 200+
# deals compared at both tables, whose margin's 95% interval lies above 0.
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

# A fixed secret: the deals follow from it and the seed, so the matches below
# are the same on every run (a fresh secret made the first match's ending,
# and so its check, change from run to run).
printf '5a%.0s' $(seq 32) > secret && chmod 600 secret

# ---- one match to its end ------------------------------------------------------
"$ARB" match --game dabang --bot g1="$G" --bot r1="$R" --bot g2="$G" --bot r2="$R" --fixed-seats \
  --deals 40 --seed 7 --secret-file secret --sandbox none --json --transcript m.bin > m.json 2> m.err
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

# ---- duplicate swap: the same deals at two tables, the teams' seats swapped -----
"$ARB" match --game dabang --duplicate swap --deals 30 --seed 5 --team A="$G" --team B="$R" --secret-file secret \
  --sandbox none --json --quiet --transcript d.bin > d.json 2> d.err
check "a duplicate swap match exits 0" '[ $? = 0 ]'
check "it is played at two tables, each a match cut short by its end" \
  '[ "$(field d.json "len(d[\"tables\"]) == 2 and all(t[\"games\"] < 30 and t[\"winner_team\"] >= 0 for t in d[\"tables\"])")" = True ]'
check "the deals played at both tables are compared, each with the same seed at both" \
  '[ "$(field d.json "d[\"duplicate\"][\"compared\"] == min(t[\"games\"] for t in d[\"tables\"]) == d[\"duplicate\"][\"seeds_equal\"] and all(x[\"seed\"][0] == x[\"seed\"][1] for x in d[\"duplicate\"][\"deals\"])")" = True ]'
check "the tables' team scores add up to the teams' totals" \
  '[ "$(field d.json "all(t[\"score\"] == sum(x[\"team_scores\"][i] for x in d[\"tables\"]) for i, t in enumerate(d[\"teams\"]))")" = True ]'
"$ARB" replay d.bin > dreplay.out 2>&1
check "the duplicate transcript re-judges" '[ $? = 0 ] && grep -q "verdict reproduced" dreplay.out'
"$ARB" replay --show d.bin > dshow.out 2>&1
check "replay --show shows both tables" '[ $? = 0 ] && grep -q "deal 0, seating 0" dshow.out && grep -q "game 30: deal 0, seating 1" dshow.out'
"$ARB" match --game dabang --duplicate swap --deals 30 --seed 5 --team A="$G" --team B="$R" --secret-file secret \
  --sandbox none --quiet > d.txt 2>&1
check "the table output compares deal by deal and sums up" \
  'grep -q "^duplicate swap, deal by deal" d.txt && grep -q "^margin of A over B: .* 95% CI" d.txt'

# Greedy partners against random ones, over 200 deals compared: a series of
# seeded duplicate swap matches (a match lasts a few deals: the greedy team
# passes 10 long before the deal limit), every deal compared with the same
# cards at both tables. The margin's 95% interval must lie above 0.
"$ARB" match --game dabang --duplicate swap --deals 200 --compare-deals 200 --seed 1 --team A="$G,$G" \
  --team B="$R,$R" --secret-file secret --sandbox none --json --quiet > s.json 2> s.err
check "the series exits 0" '[ $? = 0 ]'
check "at least 200 deals compared, every one with the same seed at both tables" \
  '[ "$(field s.json "d[\"duplicate\"][\"compared\"] >= 200 and d[\"duplicate\"][\"seeds_equal\"] == d[\"duplicate\"][\"compared\"]")" = True ]'
check "no penalties in the series" \
  '[ "$(field s.json "sum(b[\"penalties\"] for m in d[\"matches\"] for b in m[\"bots\"])")" = 0 ]'
echo "greedy vs random, duplicate swap: $(field s.json '"%d deals compared, margin %+.3f per deal, 95%% CI [%+.3f, %+.3f]" % (d["duplicate"]["compared"], d["duplicate"]["mean"], *d["duplicate"]["ci95"])')"
check "the greedy team's margin is above 0 with 95% confidence" \
  '[ "$(field s.json "d[\"duplicate\"][\"ci95\"][0] > 0")" = True ]'

echo "dabang-match: $pass passed, $fail failed"
[ $fail = 0 ]
