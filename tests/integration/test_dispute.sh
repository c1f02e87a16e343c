#!/usr/bin/env bash
# test_dispute.sh — a disputed match from open to resolved (docs/disputes.md),
# end to end with `arbiter run` on a real PostgreSQL and real bots:
#   1. a rated round robin: `dispute show` re-judges a match's transcript and
#      finds it the one recorded; a transcript changed on disk is caught;
#      the referee's signature is recorded and verified, and a forged or a
#      stripped signature, or another key's, is caught;
#   2. open (once), resolve --void: the result kept in `superseded`, the
#      match out of the standings, every rating derived again and equal to
#      a recomputation, the event log saying who and why;
#   3. resolve --rerun: the match pending again (attempt 2), the finished
#      tournament running again, `arbiter run` plays it with the same deal
#      seeds into a new transcript, the old one kept;
#   4. a knockout: a first-round match rerun invalidates the final, which is
#      kept in `superseded`, planned again and played;
#   5. mistakes refused: no open dispute, a second open one, a match that is
#      no number, a reason missing, two verdicts.
# Usage: test_dispute.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" dispute-test
test_pg_start 55464
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
run() { "$ARB" run "$1" --db "$2" --state "$3" --quiet --workers 2 --secret-file "$T/secret"; }

# ---- 1. a rated round robin ---------------------------------------------------
cat > "$T/rr.yaml" <<EOF
name: disputed rr
game: doudizhu
rules: standard
format: round-robin
rating: openskill
deals: 4
seed: 77
files_root: /
entrants:
  - {name: greedy-a, command: $BOTS/greedy_bot --name greedy-a}
  - {name: greedy-b, command: $BOTS/greedy_bot --name greedy-b}
  - {name: random-a, command: $BOTS/random_bot --name random-a}
  - {name: random-b, command: $BOTS/random_bot --name random-b}
EOF
D=$(newdb arb_dispute_rr)
run "$T/rr.yaml" "$D" "$T/s" > "$T/rr.out" 2>&1
check "the round robin runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/rr.out" >&2
M=$(sql "$D" "SELECT id FROM matches ORDER BY round, tbl LIMIT 1")
M2=$(sql "$D" "SELECT id FROM matches ORDER BY round, tbl OFFSET 1 LIMIT 1")
M3=$(sql "$D" "SELECT id FROM matches ORDER BY round, tbl OFFSET 2 LIMIT 1")
total=$(sql "$D" "SELECT count(*) FROM matches WHERE state = 'done'")
"$ARB" dispute show "$M" --db "$D" > "$T/show.txt" 2>&1
check "dispute show: the transcript is the recorded one and re-judged" \
  '[ $? = 0 ] && grep -q "check      OK: the digest is the record" "$T/show.txt" && grep -q "^slot" "$T/show.txt"'
"$ARB" dispute show "$M" --db "$D" --format json > "$T/show.json"
check "dispute show --format json: valid, the seats and deals of the record" \
  'python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert d[\"transcript_check\"][\"reproduced\"] and d[\"transcript_check\"][\"digest_matches\"]
assert len(d[\"seats\"]) == 3 and len(d[\"deals\"]) == 4 and d[\"match\"][\"attempt\"] == \"1\"
" "$T/show.json"'
tr2=$(sql "$D" "SELECT transcript FROM matches WHERE id = $M2")
cp "$tr2" "$T/tr2.bak"
printf 'x' | dd of="$tr2" bs=1 seek=200 conv=notrunc 2>/dev/null
"$ARB" dispute show "$M2" --db "$D" > "$T/show2.txt" 2>&1
check "a transcript changed on disk: dispute show fails and says so" \
  '[ $? = 1 ] && grep -Eq "check      FAILED: (digest|.*cannot be re-judged|not reproduced)" "$T/show2.txt"'
cp "$T/tr2.bak" "$tr2"

# The referee's signature (docs/transcripts.md, "Signatures"): recorded with
# the result, checked by replay and dispute show; a forged one, a stripped
# one and another key's are caught.
tr3=$(sql "$D" "SELECT transcript FROM matches WHERE id = $M3")
K=$(sql "$D" "SELECT signer_key FROM matches WHERE id = $M3")
check "the record names the referee's signing key for every match" \
  '[ "$(sql "$D" "SELECT count(*) FROM matches WHERE state = '"'done'"' AND signer_key ~ '"'^[0-9a-f]{64}$'"' AND signature ~ '"'^[0-9a-f]{128}$'"'")" = "$total" ]'
"$ARB" match-info "$M3" --db "$D" > "$T/mi3.txt" 2>&1
check "match-info names the referee and its key" 'grep -q "signed by referee local:0, ed25519 key $K" "$T/mi3.txt"'
"$ARB" replay "$tr3" --signer "$K" > "$T/rp3.txt" 2>&1
check "replay --signer KEY: the signature verifies" '[ $? = 0 ] && grep -q "^signature: ok (ed25519, referee key $K)" "$T/rp3.txt"'
"$ARB" replay "$tr3" --signer "$(printf '%064d' 0)" > "$T/rp3b.txt" 2>&1
check "replay --signer ANOTHER: refused, naming the key that signed" \
  '[ $? = 1 ] && grep -q "^signature: FAILED: signed by key $K, not by 0000" "$T/rp3b.txt"'
cp "$tr3" "$T/tr3.bak"
size=$(stat -c %s "$tr3")
last=$(tail -c 1 "$tr3" | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(( (last + 1) % 256 )))" | dd of="$tr3" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
"$ARB" replay "$tr3" > "$T/rp3c.txt" 2>&1
check "a forged signature: replay fails on it, the digest itself intact" \
  '[ $? = 1 ] && grep -q "^digest:  ok" "$T/rp3c.txt" && grep -q "^signature: FAILED: .*forged or altered" "$T/rp3c.txt"'
"$ARB" dispute show "$M3" --db "$D" > "$T/show3.txt" 2>&1
check "a forged signature: dispute show fails and says so" \
  '[ $? = 1 ] && grep -q "signature  FAILED: .*forged or altered" "$T/show3.txt"'
head -c $((size - 111)) "$T/tr3.bak" > "$tr3"
"$ARB" dispute show "$M3" --db "$D" > "$T/show4.txt" 2>&1
check "a signature stripped: dispute show names the referee that signed" \
  '[ $? = 1 ] && grep -q "signature  FAILED: the file is unsigned; the record says referee local:0 signed it with key $K" "$T/show4.txt"'
cp "$T/tr3.bak" "$tr3"
"$ARB" dispute show "$M3" --db "$D" > "$T/show5.txt" 2>&1
check "restored: dispute show verifies the signature by the recorded referee" \
  '[ $? = 0 ] && grep -q "signature  ok: ed25519 signature of the digest by referee local:0 (key $K)" "$T/show5.txt"'

# ---- 5. mistakes --------------------------------------------------------------
"$ARB" dispute resolve "$M" --void --reason x --db "$D" > "$T/e1" 2>&1
check "resolve without an open dispute is refused" '[ $? = 1 ] && grep -q "has no open dispute" "$T/e1"'
"$ARB" dispute open "1x" --reason x --db "$D" > "$T/e2" 2>&1
check "a match that is no number is refused" '[ $? = 2 ] && grep -q "MATCH \"1x\": not a match id" "$T/e2"'
"$ARB" dispute show 99999999999999999999 --db "$D" > "$T/e2b" 2>&1
check "a match id past 2^63 is refused, not wrapped" '[ $? = 2 ] && grep -q "not a match id" "$T/e2b"'
"$ARB" dispute show "$(printf '1\033[2J')" --db "$D" > "$T/e2c" 2>&1
check "an escape byte in MATCH is echoed escaped, never raw" '[ $? = 2 ] && ! grep -q "$(printf '\033')" "$T/e2c"'
"$ARB" dispute open "$M" --reason "$(printf 'a\033[31mred')" --db "$D" > "$T/e2d" 2>&1
check "a reason with a control byte is refused" '[ $? = 2 ] && grep -q "control character" "$T/e2d"'
"$ARB" dispute open "$M" --reason "$(head -c 2001 /dev/zero | tr '\0' x)" --db "$D" > "$T/e2e" 2>&1
check "a reason over 2000 bytes is refused" '[ $? = 2 ] && grep -q "longer than 2000" "$T/e2e"'
"$ARB" dispute open "$M" --reason ok --by "$(head -c 101 /dev/zero | tr '\0' y)" --db "$D" > "$T/e2f" 2>&1
check "a --by over 100 bytes is refused; nothing opened by the refusals" \
  '[ $? = 2 ] && [ "$(sql "$D" "SELECT count(*) FROM disputes")" = 0 ]'
"$ARB" dispute open "$M" --reason "x'); DROP TABLE disputes; --" --by "o'brien" --db "$D" > /dev/null 2>&1
check "quotes in a reason and a name are stored as given (parameterised)" \
  '[ "$(sql "$D" "SELECT opened_by FROM disputes")" = "o'"'"'brien" ] && "$ARB" dispute resolve "$M" --uphold --reason fine --db "$D" > /dev/null 2>&1 &&
   [ "$(sql "$D" "SELECT state FROM disputes")" = upheld ]'
"$ARB" dispute open "$M" --db "$D" > "$T/e3" 2>&1
check "open without --reason is refused" '[ $? = 2 ] && grep -q -- "--reason is required" "$T/e3"'
"$ARB" dispute open 999999 --reason x --db "$D" > "$T/e4" 2>&1
check "a match not in the record" '[ $? = 3 ] && grep -q "no match 999999" "$T/e4"'

# ---- 2. open and void -----------------------------------------------------------
"$ARB" dispute open "$M" --reason "seat 2 timed out on a loaded host" --by alice --db "$D" > "$T/o.txt" 2>&1
check "dispute open" '[ $? = 0 ] && grep -q "dispute 2 opened on match $M" "$T/o.txt"'
"$ARB" dispute open "$M" --reason again --db "$D" > "$T/e5" 2>&1
check "a second open dispute on the match is refused" '[ $? = 1 ] && grep -q "open dispute already" "$T/e5"'
"$ARB" dispute resolve "$M" --void --rerun --reason x --db "$D" > "$T/e6" 2>&1
check "two verdicts are refused" '[ $? = 2 ] && grep -q "one of --uphold, --void, --rerun" "$T/e6"'
played_before=$(sql "$D" "SELECT sum(played) FROM standings WHERE tournament_id = (SELECT id FROM tournaments WHERE name = 'disputed rr')" 2>/dev/null)
"$ARB" dispute resolve "$M" --void --reason "the host was overloaded: the clock is not the bot's fault" --by bob \
  --db "$D" > "$T/v.txt" 2>&1
check "resolve --void" '[ $? = 0 ] && grep -q "voided: it counts for nothing" "$T/v.txt"'
check "the voided match: void, its result kept in superseded with its seats and deals" \
  '[ "$(sql "$D" "SELECT state FROM matches WHERE id = $M")" = void ] &&
   [ "$(sql "$D" "SELECT why || jsonb_array_length(snapshot->'"'seats'"') || jsonb_array_length(snapshot->'"'deals'"') || (snapshot->'"'match'"'->>'"'state'"') FROM superseded WHERE match_id = $M")" = "voided34done" ]'
check "ratings derived again without it: history rows for the other matches only" \
  '[ "$(sql "$D" "SELECT count(*) FROM rating_history")" = $(( (total - 1) * 3 )) ]'
"$ARB" ratings "disputed rr" --db "$D" > "$T/r1.txt" 2>&1
check "arbiter ratings recomputes them equal" '[ $? = 0 ] && grep -q ": equal" "$T/r1.txt"'
check "the dispute resolved, with who and why; two dispute events" \
  '[ "$(sql "$D" "SELECT state || opened_by || resolved_by FROM disputes WHERE match_id = $M ORDER BY id DESC LIMIT 1")" = voidedalicebob ] &&
   [ "$(sql "$D" "SELECT count(*) FROM events WHERE kind = '"'dispute'"' AND detail LIKE '"'%bob%overloaded%'"'")" = 1 ]'
"$ARB" standings "disputed rr" --db "$D" --format csv > "$T/st.csv" 2>&1
check "the standings count one match fewer (3 seats)" \
  '[ "$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(sum(int(r[\"played\"]) for r in rows))
" "$T/st.csv")" = $(( (total - 1) * 3 )) ]'

# ---- 3. rerun -------------------------------------------------------------------
old_tr=$(sql "$D" "SELECT transcript FROM matches WHERE id = $M3")
old_seeds=$(sql "$D" "SELECT string_agg(seed::text, ',' ORDER BY game) FROM deals WHERE match_id = $M3")
"$ARB" dispute open "$M3" --reason "replay it" --db "$D" > /dev/null 2>&1
"$ARB" dispute resolve "$M3" --rerun --reason "a crashed worker" --db "$D" > "$T/rr2.txt" 2>&1
check "resolve --rerun: pending again, attempt 2, the tournament running again" \
  '[ $? = 0 ] && grep -q "played again with the same seeds" "$T/rr2.txt" &&
   [ "$(sql "$D" "SELECT state || attempt FROM matches WHERE id = $M3")" = pending2 ] &&
   [ "$(sql "$D" "SELECT state FROM tournaments WHERE name = '"'disputed rr'"'")" = running ]'
run "$T/rr.yaml" "$D" "$T/s" > "$T/rr3.out" 2>&1
check "arbiter run plays the rerun and finishes" \
  '[ $? = 0 ] && [ "$(sql "$D" "SELECT state FROM matches WHERE id = $M3")" = done ] &&
   [ "$(sql "$D" "SELECT state FROM tournaments WHERE name = '"'disputed rr'"'")" = done ]' || tail -n 20 "$T/rr3.out" >&2
new_tr=$(sql "$D" "SELECT transcript FROM matches WHERE id = $M3")
check "the same deal seeds, a new transcript, the old one kept on disk and in superseded" \
  '[ "$(sql "$D" "SELECT string_agg(seed::text, '"','"' ORDER BY game) FROM deals WHERE match_id = $M3")" = "$old_seeds" ] &&
   [ "$new_tr" != "$old_tr" ] && [ -f "$old_tr" ] && [ -f "$new_tr" ] &&
   [ "$(sql "$D" "SELECT snapshot->'"'match'"'->>'"'transcript'"' FROM superseded WHERE match_id = $M3")" = "$old_tr" ]'
"$ARB" ratings "disputed rr" --db "$D" > "$T/r2.txt" 2>&1
check "after the rerun the ratings recompute equal, every match but the void one rated" \
  '[ $? = 0 ] && [ "$(sql "$D" "SELECT count(*) FROM rating_history")" = $(( (total - 1) * 3 )) ]'
"$ARB" dispute show "$M3" --db "$D" > "$T/show3.txt" 2>&1
check "dispute show of the rerun match: attempt 2 verified, the superseded attempt listed" \
  '[ $? = 0 ] && grep -q "(attempt 2)" "$T/show3.txt" && grep -q "attempt 1, rerun" "$T/show3.txt"'
"$ARB" dispute list "disputed rr" --db "$D" --format json > "$T/list.json"
check "dispute list: three, upheld, voided and rerun" \
  'python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))[\"disputes\"]
assert [x[\"state\"] for x in d] == [\"upheld\", \"voided\", \"rerun\"], d
" "$T/list.json"'

# ---- 4. a knockout: the final planned again -------------------------------------
{
  printf 'name: disputed ko\ngame: doudizhu\nrules: standard\nformat: single-elimination\nadvance: 1\ndeals: 3\nseed: 5\nfiles_root: /\nentrants:\n'
  for i in 1 2 3 4 5 6 7 8 9; do
    b=greedy_bot; [ $((i % 2)) = 0 ] && b=random_bot
    printf '  - {name: bot-%d, command: %s/%s --name bot-%d}\n' "$i" "$BOTS" "$b" "$i"
  done
} > "$T/ko.yaml"
K=$(newdb arb_dispute_ko)
run "$T/ko.yaml" "$K" "$T/k" > "$T/ko.out" 2>&1
check "the knockout runs to its final" \
  '[ $? = 0 ] && [ "$(sql "$K" "SELECT count(*) FROM matches WHERE state = '"'done'"'")" = 4 ]' || tail -n 20 "$T/ko.out" >&2
R1=$(sql "$K" "SELECT id FROM matches WHERE round = 1 ORDER BY tbl LIMIT 1")
F=$(sql "$K" "SELECT id FROM matches WHERE round = 2")
"$ARB" dispute open "$R1" --reason "check it" --db "$K" > /dev/null 2>&1
"$ARB" dispute resolve "$R1" --rerun --reason "rerun it" --db "$K" > "$T/ko2.txt" 2>&1
check "a first-round rerun invalidates the final: kept in superseded, its round gone" \
  '[ $? = 0 ] && grep -q "later matches invalidated" "$T/ko2.txt" &&
   [ "$(sql "$K" "SELECT why FROM superseded WHERE match_id = $F")" = "invalidated by match $R1" ] &&
   [ "$(sql "$K" "SELECT count(*) FROM matches WHERE round = 2")" = 0 ]'
run "$T/ko.yaml" "$K" "$T/k" > "$T/ko3.out" 2>&1
check "arbiter run replays the match and plans and plays the final again" \
  '[ $? = 0 ] && [ "$(sql "$K" "SELECT count(*) FROM matches WHERE state = '"'done'"'")" = 4 ] &&
   [ "$(sql "$K" "SELECT attempt FROM matches WHERE id = $R1")" = 2 ] &&
   [ "$(sql "$K" "SELECT count(*) FROM matches WHERE round = 2 AND state = '"'done'"'")" = 1 ]' || tail -n 20 "$T/ko3.out" >&2

echo "dispute: $pass passed, $fail failed"
[ "$fail" = 0 ]
