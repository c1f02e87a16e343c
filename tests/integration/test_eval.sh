#!/usr/bin/env bash
# test_eval.sh — `arbiter eval` end to end with the C example bots: greedy
# against random over a Dou Dizhu deal set in both roles (DouZero's
# protocol) wins more than half its deals, with its interval reported; the
# JSON's and the CSV's per-deal rows add up to the summary; a set exported
# and replayed from its file plays exactly the deals its seed plays; a file
# whose hands are not what its order deals is refused; the four-player
# preset and Da Bang (two tables a deal) are evaluated; the SPRT stops early;
# one bot against itself under the SPRT gets no H1 and no verdict before
# the minimum sample; --keep DIR keeps transcripts and stderr, and the
# deals a penalty decided are counted and said.
# Usage: test_eval.sh ARBITER BOTDIR
set -u
ARB=$(realpath "$1")
BOTS=$(realpath "$2")
T=$(mktemp -d /tmp/arbiter-eval.XXXXXX)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
py() { python3 -c "$@"; }
G="greedy=$BOTS/greedy_bot" R="random=$BOTS/random_bot"

# ---- Dou Dizhu, DouZero's protocol ---------------------------------------------
"$ARB" eval --bot "$G" --bot "$R" --seed 11 --deals 60 --sandbox none --quiet --format json \
  --output-csv rows.csv > e.json 2> e.err
check "eval exits 0" '[ $? = 0 ]'
check "greedy wins more than half its deals, the interval reported" '[ "$(py "
import json; d = json.load(open(\"e.json\")); o = d[\"overall\"]
print(o[\"wp\"] > 0.5 and o[\"wp_ci95\"][0] <= o[\"wp\"] <= o[\"wp_ci95\"][1] and o[\"deals\"] == 120
      and d[\"elo\"][\"elo\"] > 0 and d[\"elo\"][\"pairs\"] == 60)")" = True ]'
check "per-deal JSON rows add up to each role and the whole" '[ "$(py "
import json; d = json.load(open(\"e.json\")); rows = d[\"rows\"]; ok = True
for r in d[\"roles\"] + [d[\"overall\"]]:
    mine = [x for x in rows if r[\"role\"] in (\"overall\", x[\"role\"])]
    ok &= len(mine) == r[\"deals\"] and sum(x[\"result\"] == \"win\" for x in mine) == r[\"wins\"]
    ok &= sum(x[\"result\"] == \"loss\" for x in mine) == r[\"losses\"]
    ok &= abs(sum(x[\"points\"] for x in mine) / len(mine) - r[\"adp\"]) < 1e-5
    ok &= abs(r[\"wp\"] - r[\"wins\"] / r[\"deals\"]) < 1e-6
ok &= all(x[\"diff\"] == x[\"a_score\"] - x[\"b_score\"] and x[\"a_score\"] == -x[\"b_score\"] for x in rows)
ok &= all(abs(x[\"points\"]) * 2 == abs(x[\"a_score\"]) for x in rows)
print(ok)")" = True ]'
check "the CSV holds the same rows" '[ "$(py "
import json, csv; d = json.load(open(\"e.json\")); rows = list(csv.DictReader(open(\"rows.csv\")))
print(len(rows) == len(d[\"rows\"]) and all(int(a[\"deal\"]) == b[\"deal\"] and a[\"role\"] == b[\"role\"]
      and int(a[\"a_score\"]) == b[\"a_score\"] and int(a[\"seed\"]) == b[\"seed\"] for a, b in zip(rows, d[\"rows\"])))")" = True ]'
"$ARB" eval --bot "$G" --bot "$R" --seed 11 --deals 60 --sandbox none --quiet > table.txt
check "the table names the roles, WP and ADP intervals and the Elo" \
  'grep -q "^landlord " table.txt && grep -q "^peasants " table.txt && grep -q "Elo of A over B: +" table.txt'

# ---- deal sets: export, import, tampering ----------------------------------------
"$ARB" eval --export-deals set.jsonl --seed 11 --deals 30
check "export writes 30 lines" '[ "$(wc -l < set.jsonl)" = 30 ]'
check "each line: game, rules, seed, three hands of 17, a kitty of 3, 54 ids" '[ "$(py "
import json; L = [json.loads(l) for l in open(\"set.jsonl\")]
print(all(x[\"game\"] == \"doudizhu\" and x[\"rules\"] == \"douzero\" and len(x[\"hands\"]) == 3
          and all(len(h) == 17 for h in x[\"hands\"]) and len(x[\"kitty\"]) == 3
          and sorted(x[\"order\"]) == list(range(54)) for x in L))")" = True ]'
"$ARB" eval --bot "$G" --bot "$R" --deals-file set.jsonl --sandbox none --quiet --format csv > from-file.csv
"$ARB" eval --bot "$G" --bot "$R" --seed 11 --deals 30 --sandbox none --quiet --format csv > from-seed.csv
check "a replayed set plays exactly the seed's deals" 'cmp -s from-file.csv from-seed.csv && [ "$(wc -l < from-file.csv)" = 61 ]'
# the order alone is enough; hands only checked when given
py "
import json
with open('orders.jsonl', 'w') as f:
    for l in open('set.jsonl'):
        x = json.loads(l); f.write(json.dumps({'seed': x['seed'], 'order': x['order']}) + '\n')"
"$ARB" eval --bot "$G" --bot "$R" --deals-file orders.jsonl --sandbox none --quiet --format csv > from-orders.csv
check "a set of orders and seeds alone plays the same" 'cmp -s from-orders.csv from-seed.csv'
py "
import json
L = [json.loads(l) for l in open('set.jsonl')]; L[4]['hands'][1] = L[4]['hands'][2]
open('bad.jsonl', 'w').write(''.join(json.dumps(x) + '\n' for x in L))"
"$ARB" eval --bot "$G" --bot "$R" --deals-file bad.jsonl --sandbox none --quiet > /dev/null 2> bad.err
check "a hand that is not what the order deals is refused (exit 2)" '[ $? = 2 ] && grep -q "bad.jsonl:5: hand 1" bad.err'
py "
import json
L = [json.loads(l) for l in open('set.jsonl')]; L[2]['order'][0] = L[2]['order'][1]
open('bad2.jsonl', 'w').write(''.join(json.dumps({'seed': x['seed'], 'order': x['order']}) + '\n' for x in L))"
"$ARB" eval --bot "$G" --bot "$R" --deals-file bad2.jsonl --sandbox none --quiet > /dev/null 2> bad2.err
check "an order that is not a shuffle is refused (exit 2)" '[ $? = 2 ] && grep -q "bad2.jsonl:3:" bad2.err'

# ---- four players, Da Bang, SPRT ---------------------------------------------------
"$ARB" eval --rules four-player --bot "$G" --bot "$R" --deals 10 --sandbox none --quiet --format json > four.json
check "four-player: 10 deals in both roles, A's landlord points are a third of its score" '[ "$(py "
import json; d = json.load(open(\"four.json\"))
print(d[\"overall\"][\"deals\"] == 20 and all(x[\"points\"] * 3 == x[\"a_score\"] for x in d[\"rows\"] if x[\"role\"] == \"landlord\"))")" = True ]'
"$ARB" eval --game dabang --bot "g=$BOTS/dabang_greedy" --bot "r=$BOTS/dabang_random" --deals 6 --sandbox none \
  --quiet --format json > db.json
check "dabang: each deal at both tables" '[ "$(py "
import json; d = json.load(open(\"db.json\")); R = d[\"rows\"]
print(len(R) == 12 and sorted(set(x[\"role\"] for x in R)) == [\"seats-0-2\", \"seats-1-3\"]
      and all(sum(1 for y in R if y[\"deal\"] == x[\"deal\"]) == 2 for x in R))")" = True ]'
"$ARB" eval --bot "$G" --bot "$R" --deals 400 --batch 10 --sprt 0,100,0.05,0.05 --sandbox none --quiet --format json > sprt.json
check "the SPRT accepts H1 before the set is played out" '[ "$(py "
import json; d = json.load(open(\"sprt.json\")); s = d[\"sprt\"]
print(s[\"verdict\"] == \"H1\" and s[\"llr\"] >= s[\"upper\"] and d[\"elo\"][\"pairs\"] < 400)")" = True ]'

# ---- the same bot against itself under the SPRT (docs/evaluation.md) ----------------
# dabang_random against itself once read "H1 accepted" after 3 deal pairs.
# Under 8 seeds: below the minimum sample (9 deals) no verdict at all; over
# 60 deals every verdict comes after 10 pairs or more, H1 (a false
# positive, alpha = 5 % each) at most 2 of 8 times (P(3 or more) = 0.6 %),
# and the words say what the verdict is.
for seed in 1 2 3 4 5 6 7 8; do
  for n in 9 60; do
    "$ARB" eval --game dabang --bot "a=$BOTS/dabang_random" --bot "b=$BOTS/dabang_random" --seed $seed --deals $n \
      --sprt 0,50,0.05,0.05 --sandbox none --quiet --format json > self$seed-$n.json 2>/dev/null
  done
done
check "dabang_random against itself, 8 seeds, 9 deals: no verdict before the minimum sample" '[ "$(py "
import json
ds = [json.load(open(\"self%d-9.json\" % seed)) for seed in range(1, 9)]
print(all(d[\"sprt\"][\"verdict\"] == \"none\" and d[\"elo\"][\"pairs\"] == 9 and d[\"sprt\"][\"min_pairs\"] == 10
          and d[\"sprt\"][\"words\"].startswith(\"no verdict: too few pairs (9 of the 10\") for d in ds))")" = True ]'
check "dabang_random against itself, 8 seeds, 60 deals: verdicts after 10 pairs, H1 at most 2 of 8" '[ "$(py "
import json
h1, ok = 0, True
for seed in range(1, 9):
    d = json.load(open(\"self%d-60.json\" % seed)); s = d[\"sprt\"]; n = d[\"elo\"][\"pairs\"]
    h1 += s[\"verdict\"] == \"H1\"
    ok &= s[\"verdict\"] == \"none\" or n >= 10
    ok &= (s[\"verdict\"] == \"H0\") == s[\"words\"].startswith(\"A is not +50 Elo better than B\")
    ok &= (s[\"verdict\"] == \"H1\") == s[\"words\"].startswith(\"A is more than +0 Elo better than B\")
print(ok and h1 <= 2)")" = True ]'
"$ARB" eval --game dabang --bot "a=$BOTS/dabang_random" --bot "b=$BOTS/dabang_random" --seed 1 --deals 3 \
  --sprt 0,50,0.05,0.05 --sandbox none --quiet > few.out 2>&1
check "3 pairs: no verdict, no Elo interval, said plainly" \
  'grep -q "verdict: no verdict: too few pairs (3 of the 10" few.out && grep -q "no interval: too few pairs" few.out'

# ---- --keep DIR, and penalties that decide results --------------------------------------
# B is a program that exits at once: it forfeits every deal.
printf '#!/bin/sh\necho "quitting before the handshake" >&2\nexit 3\n' > quitter && chmod 755 quitter
"$ARB" eval --bot "$G" --bot "q=$T/quitter" --deals 4 --sandbox none --quiet --keep kept --format json > pen.json 2>pen.err
check "eval with a bot that quits exits 0" '[ $? = 0 ]'
check "the penalised deals are counted in JSON: all 8, all B's" '[ "$(py "
import json; d = json.load(open(\"pen.json\")); p = d[\"penalised\"]
print(p[\"deals\"] == 8 and p[\"by_b\"] == 8 and p[\"by_a\"] == 0 and p[\"pairs\"] == 4
      and all(r[\"penalised\"] for r in d[\"rows\"]))")" = True ]'
"$ARB" eval --bot "$G" --bot "q=$T/quitter" --deals 4 --sandbox none --quiet > pen.out 2>&1
check "the table says penalties decided the results" 'grep -q "^penalties decided 8 of 8 deals played (A.s 0, B.s 8), in 4 of 4 pairs" pen.out'
check "--keep: a transcript per match, 0700" '[ "$(ls kept/*.tr | wc -l)" = 2 ] && [ "$(stat -c %a kept)" = 700 ]'
check "--keep: the quitter's stderr beside each transcript" 'grep -q "quitting before the handshake" kept/deal-0-landlord.tr.stderr'
"$ARB" replay kept/deal-0-landlord.tr --stderr 1 > replay.out 2>&1
check "--keep: arbiter replay reads a kept transcript's stderr" '[ $? = 0 ] && grep -q "quitting before the handshake" replay.out'
"$ARB" eval --bot "$G" --bot "$R" --deals 4 --sandbox none --quiet > clean.out 2>&1
check "no penalties, no such line" '! grep -q "penalties decided" clean.out'

echo "eval: $pass passed, $fail failed"
[ "$fail" = 0 ]
