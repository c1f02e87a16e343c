#!/usr/bin/env bash
# test_dabang_python.sh — Da Bang with the Python SDK's example bots as real
# processes (bots-sdk/python/dabang_*_bot.py): a match of two greedy
# partners against two random ones runs to its end with no penalty, and its
# transcript re-judges with `arbiter replay`; then a seeded comparison over
# at least 40 deals, the greedy team in seats 0 and 2, then in 1 and 3,
# where the greedy team must gain more levels than the random one (the
# margin is printed); then the greedy bot's declaring over seeded matches
# against random partners: it declares (or overturns) at most of the
# requests to declare it gets — a simple hand count, as the C greedy bot —
# and the trump of most deals is declared, not flipped.
# Usage: test_dabang_python.sh ARBITER SOURCE_ROOT
set -u
ARB=$1
SRC=$2
T=$(mktemp -d /tmp/arbiter-dabang-py.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
printf '%s\n' 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef > secret
chmod 600 secret
G="python3 $SRC/bots-sdk/python/dabang_greedy_bot.py"
R="python3 $SRC/bots-sdk/python/dabang_random_bot.py"
M="$ARB match --game dabang --sandbox none --secret-file secret --move-ms 5000"

# ---- one match to its end, re-judged ------------------------------------------
$M --bot g1="$G" --bot r1="$R" --bot g2="$G" --bot r2="$R" --deals 4 --seed 17 \
  --transcript t.jsonl --format json > m.json 2> m.err
check "the match runs to its end" '[ $? = 0 ]'
check "four bots, no penalty, no strike, no forfeit" 'python3 -c "
import json; d = json.load(open(\"m.json\"))
assert d[\"game\"] == \"dabang\" and len(d[\"bots\"]) == 4, d
for b in d[\"bots\"]:
    assert (b[\"penalties\"], b[\"strikes\"], b[\"forfeited\"]) == (0, 0, False), b
    assert b[\"decisions\"] > 0, b
"'
check "partners share a result" 'python3 -c "
import json; b = {x[\"name\"]: x for x in json.load(open(\"m.json\"))[\"bots\"]}
assert b[\"g1\"][\"total\"] == b[\"g2\"][\"total\"] and b[\"r1\"][\"total\"] == b[\"r2\"][\"total\"], b
"'
check "the transcript re-judges" '"$ARB" replay t.jsonl --secret-file secret > replay.out 2>&1'
check "the transcript shows the deal" '"$ARB" replay t.jsonl --show 2>&1 | grep -q "seat 0 g1 .* play "'
python3 -c "
import sys; d = open('t.jsonl', 'rb').read(); i = d.index(b'play 0 ') + 7
open('bad.jsonl', 'wb').write(d[:i] + (b'3S' if d[i:i + 2] != b'3S' else b'4S') + d[i + 2:])"
check "a tampered transcript does not" '! "$ARB" replay bad.jsonl > /dev/null 2>&1'

# ---- the greedy team gains more levels than the random one -----------------------
# A match ends when a team passes 10; matches of up to 12 deals are played,
# seeds in turn, the seats swapped every other match, until 40 deals are in.
deals=0 greedy=0 random=0 seed=100
while [ "$deals" -lt 40 ]; do
  if [ $((seed % 2)) = 0 ]; then seats=(--bot g1="$G" --bot r1="$R" --bot g2="$G" --bot r2="$R")
  else seats=(--bot r1="$R" --bot g1="$G" --bot r2="$R" --bot g2="$G"); fi
  $M --fixed-seats "${seats[@]}" --deals 12 --seed $seed --format json > c.json 2> c.err || {
    echo "FAIL: comparison match seed $seed" >&2; cat c.err >&2; fail=$((fail + 1)); break; }
  read -r n g r < <(python3 -c "
import json; d = json.load(open('c.json')); b = {x['name']: x for x in d['bots']}
for x in d['bots']:
    assert (x['penalties'], x['strikes'], x['forfeited']) == (0, 0, False), x
print(d['games'], b['g1']['total'] - 3, b['r1']['total'] - 3)")
  deals=$((deals + n)) greedy=$((greedy + g)) random=$((random + r)) seed=$((seed + 1))
done
echo "greedy vs random over $deals deals ($((seed - 100)) matches, seats swapped): levels gained $greedy vs $random, margin $((greedy - random))"
check "the greedy team gains more levels ($greedy vs $random)" '[ "$greedy" -gt "$random" ]'

# ---- the greedy bot declares and overturns -----------------------------------------
# Over seeded matches (greedy partners in seats 0 and 2, random ones in 1 and
# 3), from the transcripts: the greedy bots' answers to `ask declare` (ask
# records of bots 0 and 2, their verdicts not by the referee) and how each
# deal's trump was fixed.
asked=0 declared=0 overturns=0 deals=0 by_declared=0
for seed in 1 2 3 4 5; do
  $M --fixed-seats --bot g1="$G" --bot r1="$R" --bot g2="$G" --bot r2="$R" --deals 9 --seed $seed \
    --transcript d$seed.arbt --format json > d.json 2> d.err || { echo "FAIL: declaring match seed $seed" >&2; fail=$((fail + 1)); }
  read -r a d o n t < <("$ARB" replay d$seed.arbt --dump | python3 -c "
import re, sys
asked = declared = overturns = 0
deals, by_declared, standing = set(), 0, {}
for l in sys.stdin:
    if re.match(r'ask [02] \d+ \d+ \"ask declare', l):
        asked += 1
    if l.startswith('deal '):
        deals.add(l.split()[1])
    if l.startswith('send 0 \"trump ') and 'by declared' in l:
        by_declared += 1
    m = re.match(r'verdict (\d+) \d+ \d+ (\d+) \"declare (\S+)\" false', l)
    if m and m.group(3) != 'pass':
        g, bot = m.group(1), int(m.group(2))
        if bot in (0, 2):
            declared += 1
            overturns += standing.get(g, False)
        standing[g] = True
print(asked, declared, overturns, len(deals), by_declared)")
  asked=$((asked + a)) declared=$((declared + d)) overturns=$((overturns + o)) deals=$((deals + n)) by_declared=$((by_declared + t))
done
echo "greedy declaring: $declared declarations ($overturns overturns) at $asked requests; trump declared in $by_declared of $deals deals"
check "the greedy bot declares at most requests ($declared of $asked)" '[ $asked -gt 0 ] && [ $((2 * declared)) -ge "$asked" ]'
check "the greedy bot overturns ($overturns times)" '[ "$overturns" -ge 1 ]'
check "most deals' trump is declared, not flipped ($by_declared of $deals)" '[ $((10 * by_declared)) -ge $((8 * deals)) ]'

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
