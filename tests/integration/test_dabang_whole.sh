#!/usr/bin/env bash
# test_dabang_whole.sh — Da Bang from end to end with the example bots of
# both SDKs, and what its transcripts prove:
# - a mixed match, the C greedy team (`--team A=dabang_greedy`) against the
#   Python random team, runs to the engine's end: the last deal names the
#   winning team or the deal limit is reached; the levels and the winner in
#   the result agree with the transcript's last `result points` line, seat
#   for seat through the deal's seating, and every deal starts where the
#   last one left the match (levels, next 打家, blood); the transcript
#   re-judges and the bots' replies reproduce (`replay --rerun`);
# - no line sent to a bot holds a deal's seed or the secret;
# - a forfeit through `--team` (hostile_bot --dabang crashes, forfeit-match):
#   the team pays — both partners' totals, the team ranked last — while the
#   partner is not charged; the transcript re-judges;
# - what a seat is told: four bots that log every line they receive (tests/
#   bots/log_received.sh), checked by dabang_privacy.py — a partner's cards
#   never reach a seat; the checker itself fails on a log with one of the
#   partner's draws slipped in;
# - tampering: a flipped byte, a changed play and a changed score (both
#   with the digest recomputed), a transcript cut short — replay refuses
#   each (exit 1: `digest:  FAILED` or `verdict NOT reproduced`,
#   docs/transcripts.md "Tampering").
# Usage: test_dabang_whole.sh ARBITER BOTDIR SOURCE_ROOT
set -u
ARB=$(realpath "$1")
BOTS=$(realpath "$2")
SRC=$(realpath "$3")
G=$BOTS/dabang_greedy
R=$BOTS/dabang_random
PYR="python3 $SRC/bots-sdk/python/dabang_random_bot.py"
PYG="python3 $SRC/bots-sdk/python/dabang_greedy_bot.py"
LOG=$SRC/tests/bots/log_received.sh
T=$(mktemp -d /tmp/arbiter-dabang-whole.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
chmod 755 "$T"
cd "$T" || exit 2
# a fixed secret: the same deals every run
printf '%s\n' 00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff > secret
chmod 600 secret
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }

# ---- a mixed match to the engine's end ------------------------------------------
"$ARB" match --game dabang --team A="$G" --team B="$PYR" --deals 40 --seed 23 --sandbox none --move-ms 5000 --secret-file secret \
  --json --transcript mixed.arbt > mixed.json 2> mixed.err
check "the mixed match (C greedy team, Python random team) runs" '[ $? = 0 ]'
"$ARB" replay mixed.arbt --dump > mixed.dump 2>&1
python3 - mixed.json mixed.dump > ending.out 2>&1 <<'EOF'
import json, re, sys
d = json.load(open(sys.argv[1]))
dump = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()
for b in d["bots"]:
    assert (b["penalties"], b["strikes"], b["forfeited"]) == (0, 0, False), b
seating = [l for l in dump if re.match(r"deal \d+ \d+ \d+ \d+ \[", l)]
results = [l for l in dump if l.startswith('send 0 "result points ')]
assert len(seating) == d["games"] == len(results), (len(seating), d["games"], len(results))
bot_at = [int(x) for x in seating[-1].split("[")[1].rstrip("]").replace(",", " ").split()]
w = results[-1].strip('"').split()
lv = {c: i + 3 for i, c in enumerate("345678")} | {"9": 9, "T": 10, "W": 11}
levels = w[w.index("levels") + 1: w.index("levels") + 3]
winner = int(w[w.index("winner") + 1])
opts = dict(l.split("=", 1) for l in re.search(r'"options": "([^"]*)"', dump[0]).group(1).split("\\x0a") if l)
limit = min(40, int(opts["deal_limit"]))
# the end: a team named the winner (through 10, or a special ending), or the deal limit
assert winner >= 0 or d["games"] == limit, (winner, d["games"], limit)
# the seat-teams of the last deal are players' teams through its seating
for t in (0, 1):
    team = bot_at[t] % 2
    for b in (team, team + 2):
        assert d["bots"][b]["total"] == lv[levels[t]], (b, d["bots"][b]["total"], levels)
    assert d["teams"][team]["score"] == lv[levels[t]], (d["teams"], levels)
# deal by deal: each deal starts where the last one left the match (levels,
# the next 打家 and the blood owed), through both deals' seatings
starts = []                 # bot 0's first `deal seat ...` line of each game
for l in dump:
    if re.match(r"deal \d+ \d+ \d+ \d+ \[", l):
        starts.append(None)
    elif l.startswith('send 0 "deal seat ') and starts and starts[-1] is None:
        starts[-1] = l.strip('"').split()
assert len(starts) == len(results) and None not in starts, starts
seats = [[int(x) for x in l.split("[")[1].rstrip("]").replace(",", " ").split()] for l in seating]
for k in range(1, len(results)):
    prev = results[k - 1].strip('"').split()
    plev = prev[prev.index("levels") + 1: prev.index("levels") + 3]
    st = starts[k]
    nlev = st[st.index("levels") + 1: st.index("levels") + 3]
    for t in (0, 1):
        player_team = seats[k - 1][t] % 2
        t2 = [u for u in (0, 1) if seats[k][u] % 2 == player_team][0]
        assert plev[t] == nlev[t2], (k, plev, nlev, seats[k - 1], seats[k])
    nxt = seats[k - 1][int(prev[prev.index("next") + 1])]
    assert seats[k][int(st[st.index("dajia") + 1])] == nxt, (k, prev, st)
    assert prev[prev.index("blood") + 1] == st[st.index("blood") + 1], (k, prev, st)
if winner >= 0:
    wt = bot_at[winner] % 2
    assert d["teams"][wt]["rank"] == 1 and d["teams"][1 - wt]["rank"] == 2, (d["teams"], winner)
print("games", d["games"], "levels", levels, "winner seat-team", winner, "teams",
      [(t["members"], t["score"], t["rank"]) for t in d["teams"]])
EOF
rc=$?
check "the match ran to its end; the levels and winner in the result are the transcript's ($(tail -1 ending.out))" '[ $rc = 0 ]'
"$ARB" replay mixed.arbt > replay.out 2>&1
check "the mixed transcript re-judges" '[ $? = 0 ] && grep -q "verdict reproduced" replay.out'
"$ARB" replay --rerun mixed.arbt > rerun.out 2>&1
check "replay --rerun reproduces the C and Python bots" '[ $? = 0 ] && grep -q "replies reproduced" rerun.out'

# no line sent to a bot holds a deal's seed or the secret (docs/rng.md)
python3 - mixed.dump secret > seeds.out 2>&1 <<'EOF'
import re, sys
dump = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
secret = open(sys.argv[2]).read().strip()
seeds = [l.split()[4] for l in dump if re.match(r"deal \d+ \d+ \d+ \d+ \[", l)]
told = [l for l in dump if l.startswith(("send ", "ask "))]
assert seeds and told
leaks = [(s, l) for l in told for s in seeds + [secret] if s in l]
assert not leaks, leaks[:3]
print(len(seeds), "deal seeds,", len(told), "lines told")
EOF
rc=$?
check "no bot is told a deal's seed or the secret ($(tail -1 seeds.out))" '[ $rc = 0 ]'

# ---- a forfeit through `--team`: the team pays, the partner keeps a clean record ----
"$ARB" match --game dabang --team A="$BOTS/hostile_bot --dabang crash 5,$R" --team B="$R" --deals 3 --seed 4 \
  --policy forfeit-match --secret-file secret --json --transcript forfeit.arbt > forfeit.json 2> forfeit.err
check "a match with a crashing partner runs" '[ $? = 0 ]'
python3 - forfeit.json > forfeit.out 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
b = {x["name"]: x for x in d["bots"]}
t = {tuple(x["members"]): x for x in d["teams"]}
assert b["A-1"]["forfeited"] and b["A-1"]["penalties"] == 1 and b["A-1"]["rank"] == 4, b["A-1"]
assert not b["A-2"]["forfeited"] and b["A-2"]["penalties"] == 0, b["A-2"]
assert b["A-2"]["total"] == b["A-1"]["total"] < b["B-1"]["total"] == b["B-2"]["total"], b
assert b["A-2"]["rank"] > max(b["B-1"]["rank"], b["B-2"]["rank"]), b
assert t[("A-1", "A-2")]["rank"] == 2 and t[("B-1", "B-2")]["rank"] == 1, t
print("team A", t[("A-1", "A-2")]["score"], "team B", t[("B-1", "B-2")]["score"])
EOF
rc=$?
check "the forfeit hits team A: both partners' totals, the team last; A-2 not charged ($(tail -1 forfeit.out))" '[ $rc = 0 ]'
"$ARB" replay forfeit.arbt > forfeit-replay.out 2>&1
check "the forfeited match re-judges" '[ $? = 0 ] && grep -q "verdict reproduced" forfeit-replay.out'

# ---- what each seat is told ---------------------------------------------------
mkdir -m 777 w
"$ARB" match --game dabang --bot a="$LOG $G" --bot b="$LOG $PYR" --bot c="$LOG $R" --bot d="$LOG $PYG" \
  --deals 4 --seed 31 --sandbox none --move-ms 5000 --secret-file secret --workdir "$T/w" --keep-workdir --json > seen.json 2> seen.err
check "the logging bots play a match" '[ $? = 0 ]'
logs=(w/bot0-a/received.log w/bot1-b/received.log w/bot2-c/received.log w/bot3-d/received.log)
python3 "$SRC/tests/integration/dabang_privacy.py" "${logs[@]}" > privacy.out 2>&1
rc=$?
check "no seat is told its partner's (or anyone's) cards: $(tail -1 privacy.out)" '[ $rc = 0 ]'
# the checker can fail: one of the partner's draws slipped into bot 0's deal
d2=$(grep -m 1 '^draw ' w/bot2-c/received.log)
awk -v extra="$d2" '{ print } /^draw / && !done { print extra; done = 1 }' w/bot0-a/received.log > leaked.log
python3 "$SRC/tests/integration/dabang_privacy.py" leaked.log "${logs[@]:1}" > leaked.out 2>&1
check "a partner's draw in a seat's log is caught" '[ $? = 1 ] && grep -q "40 draws" leaked.out'

# ---- tampering --------------------------------------------------------------------
# digest record: the last 44 bytes, [11, 0, "sha256", bin(32)] over everything before
python3 - mixed.arbt <<'EOF'
import hashlib, re, sys
d = open(sys.argv[1], "rb").read()
def redigest(b):
    return b[:-32] + hashlib.sha256(b[:-44]).digest()
assert d[-44:-32] == b"\x94\x0b\x00\xa6sha256\xc4\x20"
flip = bytearray(d); flip[len(d) // 2] ^= 0x20
open("flip.arbt", "wb").write(flip)
# a recorded reply of the C bots ("play XY", the first one) made another card
i = d.index(b"\xa7play ") + 6
other = b"3" if d[i:i + 1] != b"3" else b"4"
open("play.arbt", "wb").write(redigest(d[:i] + other + d[i + 1:]))
# a deal's score per seat (result record [8, t, game, [4 scores], forfeit]) negated
m = re.search(rb"\x95\x08(?:[\x00-\x7f]|\xcc.|\xcd..|\xce....|\xcf........)[\x00-\x7f]\x94([\x00-\x7f\xe0-\xff]{4})",
              d, re.S)
s = m.start(1)
neg = bytes((256 - x) % 256 for x in d[s:s + 4])
assert neg != d[s:s + 4], "a deal scored 0 for every seat"
open("score.arbt", "wb").write(redigest(d[:s] + neg + d[s + 4:]))
open("cut.arbt", "wb").write(d[:len(d) * 2 // 3])
EOF
check "tampered copies written" '[ $? = 0 ]'
for f in flip play score cut; do
  "$ARB" replay $f.arbt > $f.out 2>&1
  echo $? > $f.rc
done
check "a flipped byte: refused (digest)" '[ "$(cat flip.rc)" = 1 ] && grep -q "digest:  FAILED" flip.out'
check "a changed play, digest recomputed: the digest passes, the verdicts do not" \
  '[ "$(cat play.rc)" = 1 ] && grep -q "digest:  ok" play.out && grep -q "verdict NOT reproduced" play.out'
check "a changed score, digest recomputed: not reproduced" \
  '[ "$(cat score.rc)" = 1 ] && grep -q "digest:  ok" score.out && grep -q "verdict NOT reproduced" score.out'
check "a transcript cut short: refused" \
  '[ "$(cat cut.rc)" = 1 ] && grep -q "digest:  FAILED" cut.out && grep -q "verdict NOT reproduced" cut.out'

echo "dabang-whole: $pass passed, $fail failed"
[ "$fail" = 0 ]
