#!/usr/bin/env bash
# test_dabang_cli.sh — Da Bang's command line (docs/rules/notation.md "Da
# Bang", docs/cli.md): `arbiter moves` lists every lead and every follow
# with its obligations in the documented order, `arbiter trick` judges
# tricks (trumps over side cards, equal cards: the earlier ahead, mixed
# follows never win, points), both answer a bad line with an error line and
# go on, and refuse to run without the deal's level and trump; `arbiter
# play` prints the same match for the same seed, move by move, and only
# the totals with --quiet; `arbiter bench rules` prints its figures.
# Usage: test_dabang_cli.sh ARBITER
set -u
ARB=$1
T=$(mktemp -d /tmp/arbiter-dabang-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 2
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
CTX="--game dabang --set level=5,trump=H"

# ---- moves: one answer a line, in order (level 5, hearts trump) --------------
# each case: input line <TAB> expected answer
cat > moves.tsv <<'EOF2'
4S4S4SJS7D	4S 7D JS 4S4S 4S4S4S
jS7d4s4S4s	4S 7D JS 4S4S 4S4S4S
BJRJ5H5H2C	5H 2C BJ RJ 5H5H
9S7D 3S	9S
7D5H 9S	5H 7D
KSKS4S9S7D 9S9S	KSKS
4S4S4SJS7D 9S9S	4S4S 4SJS
9S7D7H 3S3S	7H9S 7D9S
QSQSQS4S9S 8S8S8S	QSQSQS
KSKS4S4S9S7D 8S8S8S	4S4S9S 4S4SKS 4SKSKS 9SKSKS
KSKS7D7H 8S8S8S	7HKSKS 7DKSKS
5S2DAS 3H	5S 2D
BJRJ3S 3H	BJ RJ
5s5c2d7d 3h3h	5S5C 5S2D 5C2D
4S4S4S4S	error: hand: column 7: more than 3 of 4S (three packs)
5X	error: hand: column 1: "5X" is not a card (rank 3456789TJQKA2 then suit SHCD, or BJ, RJ)
KSKSKS KS	error: the hand and the led play hold 4 of KS (three packs)
5H 9S9S	error: the hand holds 1 card, fewer than the 2 led
AS KSQS	error: led play: a lead is one card, or two or three identical cards (DB-20)
AS AS KS	error: expected HAND or HAND LED, got more words
	error: expected HAND or HAND LED, got an empty line
AS	AS
EOF2
cut -f1 moves.tsv > moves.in
cut -f2 moves.tsv > moves.want
"$ARB" moves $CTX < moves.in > moves.out 2> moves.err
check "moves exits 0 after bad lines" '[ $? = 0 ]'
check "moves answers one line per line" '[ "$(wc -l < moves.out)" = "$(wc -l < moves.in)" ]'
i=0
while IFS= read -r want; do
  i=$((i + 1))
  got=$(sed -n "${i}p" moves.out)
  line=$(sed -n "${i}p" moves.in)
  check "moves line $i \"$line\": want \"$want\", got \"$got\"" '[ "$got" = "$want" ]'
done < moves.want
printf '9S8SJD 7S7S7S\n' | "$ARB" moves $CTX > out
check "triple led, two of the suit: both and any card" '[ "$(cat out)" = "8S9SJD" ]'

# another deal, level T (also written 10), diamonds trump: the level cards
# and the 2s are trumps, not spades
printf 'TSTH2S3S 4S\n' | "$ARB" moves --game dabang --set level=10,trump=d > out
check "level=10 reads as T; TS and 2S follow trumps, not spades" '[ "$(cat out)" = "3S" ]'
printf 'TSTH2S3D 4S\n' | "$ARB" moves --game dabang --set level=T,trump=D > out
check "void in spades (TS, 2S are trumps): any card" '[ "$(cat out)" = "3D TS TH 2S" ]'

# ---- missing or bad context, real rules beside it ----------------------------
for args in "--game dabang" "--game dabang --set level=5" "--game dabang --set trump=H"; do
  "$ARB" moves $args < /dev/null > out 2> err
  check "moves $args exits 2" '[ $? = 2 ]'
  check "moves $args names --set level=L,trump=S" 'grep -q "level=L,trump=S" err && [ ! -s out ]'
done
"$ARB" moves --game dabang --set level=J,trump=H < /dev/null > /dev/null 2> err
check "level J is refused" '[ $? = 2 ] && grep -q "level=J: expected a level" err'
"$ARB" moves --game dabang --set level=5,trump=N < /dev/null > /dev/null 2> err
check "trump N is refused" '[ $? = 2 ] && grep -q "trump=N: expected a suit" err'
echo 5H | "$ARB" moves --game dabang --set level=5 --set trump=H,kitty_multiplier=4 > out 2> err
check "context and rules mix in --set, over several --set" '[ $? = 0 ] && [ "$(cat out)" = "5H" ]'
"$ARB" moves --game dabang --set level=5,trump=H,kitty_multiplier=3 < /dev/null > /dev/null 2> err
check "a bad rule is still refused beside the context" '[ $? = 2 ] && grep -q "kitty_multiplier" err'
"$ARB" moves --game dabang --set level=5,trump=H,kiter=1 < /dev/null > /dev/null 2> err
check "an unknown rule is still refused beside the context" '[ $? = 2 ] && grep -q "unknown option \"kiter\"" err'
"$ARB" play --game dabang --set level=5 > /dev/null 2> err
check "play takes no deal context: level is no rule" '[ $? = 2 ] && grep -q "unknown option \"level\"" err'
"$ARB" moves $CTX --readings < /dev/null > /dev/null 2> err
check "moves --readings is refused for dabang" '[ $? = 2 ] && grep -q "readings" err'
echo 33 | "$ARB" moves --set level=5 > /dev/null 2> err
check "Dou Dizhu has no context keys: level is an unknown rule there" '[ $? = 2 ] && grep -q "unknown option" err'
"$ARB" moves --game dabang --help > out
check "moves --game dabang --help describes the context and the order" 'grep -q "level=L,trump=S" out && grep -q "singles first" out'

# ---- trick ------------------------------------------------------------------
cat > trick.tsv <<'EOF2'
9S9S BJRJ 3H3H KSTS	2 20
5S 5C 5D 3H	0 15
KS KS 3H 2D	3 20
2S 2C 2H AH	2 0
AS 3H 4S 9S	1 0
AS 3H 4S 5S	3 5
KS KS KS 3S	0 30
5S 5H 5C 5D	1 20
9S9S 3H4H 2D2D 5C5C	3 10
9S JS 3C KS	3 10
9S AC 3S 4S	0 0
RJ BJ 5H 2H	0 5
3H3H3H 4S4S4S 2C2C2C AHAHAH	2 0
9S9S 9H9H 9C9C TSTS	1 20
KS QS	error: expected the four plays of a trick, P0 P1 P2 P3, got fewer
KS QS JS TS 9S	error: expected the four plays of a trick, P0 P1 P2 P3, got more words
KSQS 3S3S 4S4S 5S5S	error: P0: a lead is one card, or two or three identical cards (DB-20)
KS 3S3S 4S 5S	error: P1: 2 cards to a lead of 1 (DB-21)
KS 3X 4S 5S	error: P1: column 1: "3X" is not a card (rank 3456789TJQKA2 then suit SHCD, or BJ, RJ)
5S 5S 5S 5S	error: the four plays hold 4 of 5S (three packs)
KS KS 3H 2D	3 20
EOF2
cut -f1 trick.tsv > trick.in
cut -f2 trick.tsv > trick.want
"$ARB" trick $CTX < trick.in > trick.out 2> trick.err
check "trick exits 0 after bad lines" '[ $? = 0 ]'
check "trick answers one line per line" '[ "$(wc -l < trick.out)" = "$(wc -l < trick.in)" ]'
i=0
while IFS= read -r want; do
  i=$((i + 1))
  got=$(sed -n "${i}p" trick.out)
  line=$(sed -n "${i}p" trick.in)
  check "trick line $i \"$line\": want \"$want\", got \"$got\"" '[ "$got" = "$want" ]'
done < trick.want
"$ARB" trick --game dabang < /dev/null > /dev/null 2> err
check "trick without the context exits 2" '[ $? = 2 ] && grep -q "level=L,trump=S" err'
"$ARB" trick < /dev/null > /dev/null 2> err
check "trick for Dou Dizhu: the game has none" '[ $? = 2 ] && grep -q "has no .arbiter trick." err'
"$ARB" trick --game dabang extra < /dev/null > /dev/null 2> err
check "trick takes no operand" '[ $? = 2 ] && grep -q "unexpected" err'

# ---- play -------------------------------------------------------------------
"$ARB" play --game dabang --seed 5 --deals 3 > p1 2> err
check "play exits 0" '[ $? = 0 ] && [ ! -s err ]'
"$ARB" play --game dabang --seed 5 --deals 3 > p2
check "the same seed prints the same match" 'cmp -s p1 p2'
"$ARB" play --game dabang --seed 6 --deals 3 > p3
check "another seed prints another match" '! cmp -s p1 p3'
check "play shows the deals" '[ "$(grep -c "^deal [0-9]* (seed [0-9]*)" p1)" = 3 ]'
check "play shows the first deal and the later ones" 'grep -q "^deal 0 (seed [0-9]*): the first deal, level 3" p1 && grep -q "^deal 1 (seed [0-9]*): levels . ., dajia seat[0-3] plays level" p1'
check "play shows the trump suit and the 打家" '[ "$(grep -cE "^  trump [SHCD], level [3-9T], dajia seat[0-3]" p1)" -ge 3 ]'
check "play shows the hands" '[ "$(grep -cE "^  seat[0-3] holds ([2-9TJQKA][SHCD]|[BR]J){39}$" p1)" -ge 12 ]'
check "play shows the kitty and the burying" 'grep -qE "^  kitty( \(shown\))? ([2-9TJQKA][SHCD]|[BR]J){6}$" p1 && [ "$(grep -c "buries [2-9TJQKABR][SHCDJ]$" p1)" -ge 6 ]'
check "play shows every trick" 'grep -qE "^  trick  1: seat[0-3] [^ ]+ +seat" p1 && grep -qE "^  trick [0-9 ]+:.* -> seat[0-3]" p1'
check "play shows the result and the levels" '[ "$(grep -c "^  result: the attackers (team [01]) [0-9]* points" p1)" = 3 ] && [ "$(grep -cE "^  levels [3-9T]|^  levels passed" p1)" = 3 ]'
check "play ends with the totals" 'tail -1 p1 | grep -qE "^totals after 3 deals: team 0 \(seats 0\+2\) level [3-9T], team 1 \(seats 1\+3\) level [3-9T]; team [01] wins"'
# every trick's cards: 156 cards in the deal's tricks (39 a seat)
python3 - p1 > cards <<'PY'
import re, sys
deal = None; n = {}
for line in open(sys.argv[1]):
    m = re.match(r"deal (\d+)", line)
    if m: deal = int(m.group(1)); n[deal] = 0
    m = re.match(r"  trick +\d+:(.*) -> ", line)
    if m:
        for play in re.findall(r"seat\d (\S+)", m.group(1)):
            n[deal] += len(play) // 2
print(" ".join(str(n[d]) for d in sorted(n)))
PY
check "every deal plays its 156 cards in tricks" '[ "$(cat cards)" = "156 156 156" ]'
"$ARB" play --game dabang --seed 5 --deals 1 > one
sed -n '/^deal 0/,/^$/p' one > one0
sed -n '/^deal 0/,/^$/p' p1 > p10
check "deal 0 is the same deal whatever the number of deals" 'cmp -s one0 p10'
"$ARB" play --game dabang --seed 5 --deals 3 --quiet > q
check "--quiet prints the totals only, the same totals" '[ "$(wc -l < q)" = 1 ] && [ "$(cat q)" = "$(tail -1 p1)" ]'
"$ARB" play --game dabang --seed 11 --deals 12 > p12
check "a later deal pays tribute and gives back" 'grep -q "pays tribute [2-9TJQKABR][SHCDJ] to seat" p12 && grep -q "gives back" p12'
"$ARB" play --game dabang --rules short --seed 1 --deals 50 > ps
check "a short match ends when a team passes 10" 'grep -q "team [01] wins the match" ps && tail -1 ps | grep -q "^totals after [0-9]* deals" && ! tail -1 ps | grep -q "after 50 deals"'
"$ARB" play --game dabang --seed 5 --deals 3 --policy greedy > g1 && "$ARB" play --game dabang --seed 5 --deals 3 --policy greedy > g2
check "the greedy policy plays, deterministically" 'cmp -s g1 g2 && ! cmp -s g1 p1 && tail -1 g1 | grep -q "^totals after"'
"$ARB" play --game dabang --policy clever > /dev/null 2> err
check "an unknown policy exits 2" '[ $? = 2 ] && grep -q "unknown policy \"clever\"" err'

# ---- bench rules ------------------------------------------------------------
"$ARB" bench rules --game dabang --seconds 0.01 > b
check "bench rules --game dabang exits 0" '[ $? = 0 ]'
for fig in follow_enumerations_39cards tricks_judged selfplay_deals selfplay_deals_via_interface; do
  check "bench rules --game dabang reports $fig" 'grep -qE "^$fig [1-9][0-9]* per_second$" b'
done
"$ARB" bench rules --game dabang --seconds 0.01 --format json > b.json
check "bench rules --game dabang --format json parses, with its figures" \
  'python3 -c "import json,sys; d=json.load(open(\"b.json\")); n={f[\"name\"] for f in d[\"figures\"]}; assert {\"selfplay_deals\",\"tricks_judged\"} <= n"'

# ---- match --team: partners opposite, the result per team ---------------------
# a bot that answers every request with a random legal item (asks for lists);
# the bots run under a uid of their own: they must be able to read it
chmod 755 "$T"
cat > legalbot.py <<'EOF2'
import random, sys
random.seed(sys.argv[1] if len(sys.argv) > 1 else 1)
for raw in sys.stdin:
    w = raw.split()
    if w and w[0] == "arbiter":
        print("bot 1 legalbot legal", flush=True)
    elif w and w[0] == "ask":
        print(random.choice(raw.split(" legal ", 1)[1].split()), flush=True)
    elif w and w[0] == "end":
        break
EOF2
chmod 644 legalbot.py
BOT="python3 $T/legalbot.py"
"$ARB" match --game dabang --team north="$BOT 1,$BOT 2" --team east="$BOT 3" --deals 2 --sandbox none \
  --transcript m.arbt --json > m.json 2> m.err
check "match --team plays a Da Bang match" '[ $? = 0 ]'
check "match --team: bots NAME-1 and NAME-2, partners opposite (players 0+2, 1+3)" \
  'python3 -c "import json; d=json.load(open(\"m.json\")); b=[x[\"name\"] for x in d[\"bots\"]]; assert b==[\"north-1\",\"east-1\",\"north-2\",\"east-2\"], b"'
check "match --team: the result per team, winner first, no penalties" \
  'python3 -c "import json; d=json.load(open(\"m.json\")); t=d[\"teams\"]; assert sorted(x[\"rank\"] for x in t)==[1,2]; assert {tuple(x[\"members\"]) for x in t}=={(\"north-1\",\"north-2\"),(\"east-1\",\"east-2\")}; assert all(x[\"penalties\"]==0 for x in d[\"bots\"])"'
"$ARB" replay m.arbt > r 2>&1
check "the team match's transcript re-judges" '[ $? = 0 ] && grep -q "verdict reproduced" r'
"$ARB" match --team a="$BOT" --team b="$BOT" > /dev/null 2> e1
check "match --team refuses a game without fixed teams (exit 2)" '[ $? = 2 ] && grep -q "no two fixed teams" e1'
"$ARB" match --game dabang --team a="$BOT" --team a="$BOT" > /dev/null 2> e2
check "match --team refuses two teams of one name" '[ $? = 2 ] && grep -q "two teams named" e2'
"$ARB" match --game dabang --team a="$BOT,$BOT,$BOT" --team b="$BOT" > /dev/null 2> e3
check "match --team refuses three partners" '[ $? = 2 ] && grep -q "two commands" e3'
"$ARB" match --game dabang --team a="$BOT" --bot c="$BOT" --team b="$BOT" > /dev/null 2> e4
check "match --team and --bot do not mix" '[ $? = 2 ] && grep -q "no --bot with them" e4'

echo "dabang-cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
