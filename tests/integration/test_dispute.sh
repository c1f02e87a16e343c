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
#      no number, a reason missing, two verdicts;
#   6. penalties: a bot that plays illegally and one that crashes (saying
#      so on stderr, an escape sequence in it): every penalty in the record
#      with its note, listed by match-info and dispute show, which also
#      shows the decoded exit status and the stderr, escaped; a rerun keeps
#      them in superseded and records the new ones, a void keeps them too.
# Usage: test_dispute.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" dispute-test
test_pg_start 55464
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
ESC=$(printf '\033')   # an escape byte: never to be echoed raw
run() { "$ARB" run "$1" --db "$2" --state "$3" --quiet --workers 2 --secret-file "$T/secret" "${@:4}"; }

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
# Transcripts live in the record (docs/transcripts.md, "In the record"):
# put_tr MATCH FILE stores FILE's bytes, uncompressed, as MATCH's
# transcript (the tampering an intruder with the database could do).
put_tr() {
  local d; d=$(sql "$D" "SELECT digest FROM matches WHERE id = $1")
  printf "UPDATE transcripts SET codec = 'none', raw_size = %d, body = decode('%s', 'hex') WHERE digest = '%s';\n" \
    "$(stat -c %s "$2")" "$(od -An -v -tx1 "$2" | tr -d ' \n')" "$d" | psql "$D" -qAt > /dev/null
}
tr2="$T/m2.arbt"
"$ARB" transcripts get "$M2" --db "$D" -o "$tr2"
check "transcripts get writes the recorded transcript, 0600, and it replays" \
  '[ "$(stat -c %a "$tr2")" = 600 ] && "$ARB" replay "$tr2" --digest "$(sql "$D" "SELECT digest FROM matches WHERE id = $M2")" > /dev/null'
cp "$tr2" "$T/tr2.bak"
printf 'x' | dd of="$tr2" bs=1 seek=200 conv=notrunc 2>/dev/null
put_tr "$M2" "$tr2"
"$ARB" dispute show "$M2" --db "$D" > "$T/show2.txt" 2>&1
check "a transcript changed in the record: dispute show fails and says so" \
  '[ $? = 1 ] && grep -Eq "check      FAILED: .*(hash to|digest|cannot be re-judged|not reproduced)" "$T/show2.txt"'
put_tr "$M2" "$T/tr2.bak"

# The referee's signature (docs/transcripts.md, "Signatures"): recorded with
# the result, checked by replay and dispute show; a forged one, a stripped
# one and another key's are caught.
tr3="$T/m3.arbt"
"$ARB" transcripts get "$M3" --db "$D" -o "$tr3"
K=$(sql "$D" "SELECT signer_key FROM matches WHERE id = $M3")
check "the record names the referee's signing key for every match" \
  '[ "$(sql "$D" "SELECT count(*) FROM matches WHERE state = '"'done'"' AND signer_key ~ '"'^[0-9a-f]{64}$'"' AND signature ~ '"'^[0-9a-f]{128}$'"'")" = "$total" ]'
"$ARB" match-info "$M3" --db "$D" > "$T/mi3.txt" 2>&1
check "match-info names the referee and its key" 'grep -q "signed by referee local:0, ed25519 key $K" "$T/mi3.txt"'
"$ARB" replay "$tr3" --signer "$K" > "$T/rp3.txt" 2>&1
check "replay --signer KEY: the signature verifies" '[ $? = 0 ] && grep -q "^signature: ok (ed25519, referee key $K)" "$T/rp3.txt"'
"$ARB" replay "$tr3" --signer "$(printf '%064d' 0)" > "$T/rp3b.txt" 2>&1
check "replay --signer ANOTHER: refused, naming the key that signed" \
  '[ $? = 1 ] && grep -q "^signature: FAILED: signed by key $K, but --signer says key 0000" "$T/rp3b.txt"'
"$ARB" replay "$tr3" --signer "$(printf '\033[2J%060d' 0)" > "$T/rp3s.txt" 2>&1
check "replay --signer that is no key: refused (exit 2), the text escaped" \
  '[ $? = 2 ] && grep -q "expected 64 lowercase hex digits" "$T/rp3s.txt" && ! grep -q "$ESC" "$T/rp3s.txt"'
cp "$tr3" "$T/tr3.bak"
size=$(stat -c %s "$tr3")
last=$(tail -c 1 "$tr3" | od -An -tu1 | tr -d ' ')
printf "\\$(printf '%03o' $(( (last + 1) % 256 )))" | dd of="$tr3" bs=1 seek=$((size - 1)) conv=notrunc 2>/dev/null
put_tr "$M3" "$tr3"
"$ARB" replay "$tr3" > "$T/rp3c.txt" 2>&1
check "a forged signature: replay fails on it, the digest itself intact" \
  '[ $? = 1 ] && grep -q "^digest:  ok" "$T/rp3c.txt" && grep -q "^signature: FAILED: .*forged or altered" "$T/rp3c.txt"'
"$ARB" dispute show "$M3" --db "$D" > "$T/show3.txt" 2>&1
check "a forged signature: dispute show fails and says so" \
  '[ $? = 1 ] && grep -q "signature  FAILED: .*forged or altered" "$T/show3.txt"'
head -c $((size - 111)) "$T/tr3.bak" > "$tr3"
put_tr "$M3" "$tr3"
"$ARB" dispute show "$M3" --db "$D" > "$T/show4.txt" 2>&1
check "a signature stripped: dispute show names the referee that signed" \
  '[ $? = 1 ] && grep -q "signature  FAILED: the file is unsigned; the record (referee local:0) says key $K signed it" "$T/show4.txt"'
cp "$T/tr3.bak" "$tr3"
put_tr "$M3" "$tr3"
"$ARB" dispute show "$M3" --db "$D" > "$T/show5.txt" 2>&1
check "restored: dispute show verifies the signature by the recorded referee" \
  '[ $? = 0 ] && grep -q "signature  ok (ed25519, referee key $K)" "$T/show5.txt" && grep -q "finished .* by local:0;" "$T/show5.txt"'

# ---- 5. mistakes --------------------------------------------------------------
"$ARB" dispute resolve "$M" --void --reason x --db "$D" > "$T/e1" 2>&1
check "resolve without an open dispute is refused" '[ $? = 1 ] && grep -q "has no open dispute" "$T/e1"'
"$ARB" dispute open "1x" --reason x --db "$D" > "$T/e2" 2>&1
check "a match that is no number is refused" '[ $? = 2 ] && grep -q "MATCH \"1x\": not a match id" "$T/e2"'
"$ARB" dispute show 99999999999999999999 --db "$D" > "$T/e2b" 2>&1
check "a match id past 2^63 is refused, not wrapped" '[ $? = 2 ] && grep -q "not a match id" "$T/e2b"'
"$ARB" dispute show "$(printf '1\033[2J')" --db "$D" > "$T/e2c" 2>&1
check "an escape byte in MATCH is echoed escaped, never raw" '[ $? = 2 ] && ! grep -q "$ESC" "$T/e2c"'
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
old_digest=$(sql "$D" "SELECT digest FROM matches WHERE id = $M3")
old_seeds=$(sql "$D" "SELECT string_agg(seed::text, ',' ORDER BY game) FROM deals WHERE match_id = $M3")
"$ARB" dispute open "$M3" --reason "replay it" --db "$D" > /dev/null 2>&1
"$ARB" dispute resolve "$M3" --rerun --reason "a crashed worker" --db "$D" > "$T/rr2.txt" 2>&1
check "resolve --rerun: pending again, attempt 2, the tournament running again" \
  '[ $? = 0 ] && grep -q "played again with the same seeds" "$T/rr2.txt" &&
   [ "$(sql "$D" "SELECT state || attempt FROM matches WHERE id = $M3")" = pending2 ] &&
   [ "$(sql "$D" "SELECT state FROM tournaments WHERE name = '"'disputed rr'"'")" = running ]'
# status and standings agree while it is rerun (status said running, the
# standings "revealed: the tournament is over")
"$ARB" status --db "$D" --format json > "$T/st-rerun.json" 2>&1
"$ARB" standings "disputed rr" --db "$D" > "$T/sd-rerun.txt" 2>&1
check "while rerun: status says rerun, the standings say the secret came out when it first ended" \
  'grep -q "running again, \`arbiter status\` says rerun until it is done" "$T/rr2.txt" &&
   python3 -c "
import json, sys
t = [x for x in json.load(open(sys.argv[1]))[\"tournaments\"] if x[\"tournament\"] == \"disputed rr\"]
assert [x[\"state\"] for x in t] == [\"rerun\"], t
" "$T/st-rerun.json" &&
   grep -q "^secret (revealed when the tournament first ended; disputed matches are being played again): " "$T/sd-rerun.txt" &&
   ! grep -q "the tournament is over" "$T/sd-rerun.txt"'
run "$T/rr.yaml" "$D" "$T/s" > "$T/rr3.out" 2>&1
check "arbiter run plays the rerun and finishes" \
  '[ $? = 0 ] && [ "$(sql "$D" "SELECT state FROM matches WHERE id = $M3")" = done ] &&
   [ "$(sql "$D" "SELECT state FROM tournaments WHERE name = '"'disputed rr'"'")" = done ]' || tail -n 20 "$T/rr3.out" >&2
"$ARB" status --db "$D" > "$T/st-done.txt" 2>&1
"$ARB" standings "disputed rr" --db "$D" > "$T/sd-done.txt" 2>&1
check "after the rerun: status says done, the standings the tournament is over" \
  'grep -q "disputed rr .* done " "$T/st-done.txt" && grep -q "^secret (revealed: the tournament is over): " "$T/sd-done.txt"'
new_tr=$(sql "$D" "SELECT transcript FROM matches WHERE id = $M3")
new_digest=$(sql "$D" "SELECT digest FROM matches WHERE id = $M3")
check "the same deal seeds, a new transcript, the old one kept in the record and in superseded" \
  '[ "$(sql "$D" "SELECT string_agg(seed::text, '"','"' ORDER BY game) FROM deals WHERE match_id = $M3")" = "$old_seeds" ] &&
   [ "$new_tr" != "$old_tr" ] && [ "$new_digest" != "$old_digest" ] &&
   [ "$(sql "$D" "SELECT count(*) FROM transcripts WHERE digest IN ('"'$old_digest'"', '"'$new_digest'"')")" = 2 ] &&
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
  '[ $? = 0 ] && grep -q "; 1 later match invalidated, to be planned again" "$T/ko2.txt" && ! grep -q "\[" "$T/ko2.txt" &&
   [ "$(sql "$K" "SELECT why FROM superseded WHERE match_id = $F")" = "invalidated by match $R1" ] &&
   [ "$(sql "$K" "SELECT count(*) FROM matches WHERE round = 2")" = 0 ]'
run "$T/ko.yaml" "$K" "$T/k" > "$T/ko3.out" 2>&1
check "arbiter run replays the match and plans and plays the final again" \
  '[ $? = 0 ] && [ "$(sql "$K" "SELECT count(*) FROM matches WHERE state = '"'done'"'")" = 4 ] &&
   [ "$(sql "$K" "SELECT attempt FROM matches WHERE id = $R1")" = 2 ] &&
   [ "$(sql "$K" "SELECT count(*) FROM matches WHERE round = 2 AND state = '"'done'"'")" = 1 ]' || tail -n 20 "$T/ko3.out" >&2

# ---- 6. penalties in the record --------------------------------------------------
cat > "$T/pen.yaml" <<EOF
name: penalised
game: doudizhu
rules: standard
format: round-robin
deals: 2
seed: 11
files_root: /
entrants:
  - {name: honest, command: $BOTS/random_bot --name honest}
  - {name: cheat, command: $BOTS/hostile_bot illegal 1}
  - {name: crasher, command: $BOTS/hostile_bot crashsay 2}
EOF
P=$(newdb arb_dispute_pen)
# unsandboxed, so that the crash is the bot's own wait status (under bubblewrap
# the referee waits for bwrap, which exits with 128 + the signal)
run_pen() { run "$T/pen.yaml" "$P" "$T/p" --sandbox none --allow-unsandboxed; }
run_pen > "$T/pen.out" 2>&1
check "the tournament with a cheat and a crasher runs to the end" \
  '[ $? = 0 ] && [ "$(sql "$P" "SELECT count(*) FROM matches WHERE state = '"'done'"'")" = 1 ]' || tail -n 20 "$T/pen.out" >&2
PM=$(sql "$P" "SELECT id FROM matches")
npen=$(sql "$P" "SELECT count(*) FROM penalties WHERE match_id = $PM")
nseat=$(sql "$P" "SELECT sum(penalties) FROM match_seats WHERE match_id = $PM")
check "every penalty in the record, one row each ($npen rows, the seats count $nseat)" \
  '[ "$npen" -ge 2 ] && [ "$npen" = "$nseat" ] &&
   [ "$(sql "$P" "SELECT count(*) FROM penalties p JOIN match_seats s USING (match_id, slot)
        JOIN entrants e ON e.tournament_id = (SELECT tournament_id FROM matches WHERE id = p.match_id) AND e.idx = s.entrant
        WHERE e.name = '"'cheat'"' AND p.reason = '"'illegal'"' AND p.note LIKE '"'%(reply %'"'")" -ge 1 ] &&
   [ "$(sql "$P" "SELECT count(*) FROM penalties WHERE reason = '"'crashed'"'")" -ge 1 ]'
check "each slot's rows add up to its count" \
  '[ "$(sql "$P" "SELECT count(*) FROM match_seats s WHERE s.match_id = $PM AND s.penalties <>
        (SELECT count(*) FROM penalties p WHERE p.match_id = s.match_id AND p.slot = s.slot)")" = 0 ]'
"$ARB" match-info "$PM" --db "$P" > "$T/pi.txt" 2>&1
check "match-info lists the penalties with their reasons and notes" \
  '[ $? = 0 ] && grep -q "^penalties: $npen\$" "$T/pi.txt" && grep -q ": illegal: autoplay" "$T/pi.txt" &&
   grep -q ": crashed: " "$T/pi.txt" && grep -q "^    .*(reply " "$T/pi.txt"'
"$ARB" match-info "$PM" --db "$P" --format json > "$T/pi.json" 2>&1
check "match-info --format json: the penalties with their notes" \
  'python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))[\"penalties\"]
assert len(p) == int(sys.argv[2]) and any(x[\"reason\"] == \"illegal\" and \"(reply \" in x[\"note\"] for x in p), p
" "$T/pi.json" "$npen"'
"$ARB" dispute show "$PM" --db "$P" > "$T/ps.txt" 2>&1
check "dispute show lists the penalties with their notes" \
  '[ $? = 0 ] && grep -q "slot .*: illegal: autoplay" "$T/ps.txt" && grep -q "slot .*: crashed: " "$T/ps.txt" &&
   grep -q "^    .*(reply " "$T/ps.txt"'
check "dispute show: the crasher killed by SIGSEGV, its last words on stderr, the escape escaped" \
  'grep -q "^  slot [0-9] crasher" "$T/ps.txt" && grep -q "^    --- process 1 (sandbox [^)]*): killed by SIGSEGV; [0-9]* bytes of stderr kept" "$T/ps.txt" &&
   grep -qF "    hostile_bot: crashing now \\e[2J" "$T/ps.txt" && ! grep -q "$(printf "\033")" "$T/ps.txt"'
"$ARB" dispute show "$PM" --db "$P" --format json > "$T/ps.json" 2>&1
check "dispute show --format json: the notes, each process's status and stderr" \
  'python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
assert all(\"note\" in x for x in d[\"penalties\"]) and len(d[\"penalties\"]) == int(sys.argv[2])
crash = [e for e in d[\"bot_processes\"] if e[\"status\"] == \"killed by SIGSEGV\"]
assert crash and \"crashing now \x1b[2J\" in crash[0][\"stderr\"], d[\"bot_processes\"]
" "$T/ps.json" "$npen"'
notes=$(sql "$P" "SELECT string_agg(n || reason || note, '|' ORDER BY n) FROM penalties WHERE match_id = $PM")
"$ARB" dispute open "$PM" --reason "was the crash ours?" --db "$P" > /dev/null 2>&1
"$ARB" dispute resolve "$PM" --rerun --reason "play it again" --db "$P" > /dev/null 2>&1
check "a rerun keeps the penalties in superseded, notes and all, and takes them off the match" \
  '[ "$(sql "$P" "SELECT jsonb_array_length(snapshot->'"'penalties'"') FROM superseded WHERE match_id = $PM")" = "$npen" ] &&
   [ "$(sql "$P" "SELECT string_agg((x->>'"'n'"') || (x->>'"'reason'"') || (x->>'"'note'"'), '"'|'"' ORDER BY (x->>'"'n'"')::int)
        FROM superseded s, jsonb_array_elements(s.snapshot->'"'penalties'"') x WHERE s.match_id = $PM")" = "$notes" ] &&
   [ "$(sql "$P" "SELECT count(*) FROM penalties WHERE match_id = $PM")" = 0 ]'
run_pen > "$T/pen2.out" 2>&1
check "the rerun's penalties are recorded (the same: the bots and the deals are)" \
  '[ $? = 0 ] && [ "$(sql "$P" "SELECT state || attempt FROM matches WHERE id = $PM")" = done2 ] &&
   [ "$(sql "$P" "SELECT string_agg(n || reason || note, '"'|'"' ORDER BY n) FROM penalties WHERE match_id = $PM")" = "$notes" ] &&
   [ "$(sql "$P" "SELECT sum(penalties) FROM match_seats WHERE match_id = $PM")" = "$npen" ]' || tail -n 20 "$T/pen2.out" >&2
"$ARB" dispute open "$PM" --reason "void it" --db "$P" > /dev/null 2>&1
"$ARB" dispute resolve "$PM" --void --reason "void it" --db "$P" > /dev/null 2>&1
check "a void keeps the rerun's penalties in superseded too, none left on the match" \
  '[ "$(sql "$P" "SELECT string_agg(jsonb_array_length(snapshot->'"'penalties'"')::text, '"','"' ORDER BY id) FROM superseded WHERE match_id = $PM")" = "$npen,$npen" ] &&
   [ "$(sql "$P" "SELECT count(*) FROM penalties WHERE match_id = $PM")" = 0 ]'

echo "dispute: $pass passed, $fail failed"
[ "$fail" = 0 ]
