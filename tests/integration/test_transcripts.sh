#!/usr/bin/env bash
# test_transcripts.sh — transcripts in the record (docs/transcripts.md, "In
# the record"): a scheduler (`arbiter run --listen`, no local workers) and a
# remote referee with a work directory of its own. Once the run is over the
# referee's directory is deleted, as when its host is retired; then
#   - arbiter verify proves every match, dispute show exits 0 and says OK,
#     replay --match re-judges, the web's transcript route and match page
#     answer from the record, and the record holds fewer bytes than the
#     transcripts' (zstd);
#   - with the bots' files gone too, a match disputed and resolved with
#     --rerun is played again by a new referee (an empty work directory)
#     from the programs in the record, with the same result;
#   - the referee removed each file once acknowledged; one started with
#     keep_transcripts kept them;
#   - a stored transcript altered in the record is named by verify;
#   - retention (transcripts prune) removes old transcripts but never a
#     disputed or a knockout match's, and verify, dispute show and replay
#     say "pruned on DATE by retention".
# Usage: test_transcripts.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" transcripts-test
cd "$T" || exit 2
REF_PID="" SERVE_PID=""
stop_ref() { [ -n "$REF_PID" ] && kill "$REF_PID" 2>/dev/null && wait "$REF_PID" 2>/dev/null; REF_PID=""; }
stop_web() { [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null && wait "$SERVE_PID" 2>/dev/null; SERVE_PID=""; }
trap 'stop_ref; stop_web; cleanup' EXIT

for k in sched w1 w2 w3; do "$ARB" keygen "$k" > /dev/null; done
for k in w1 w2 w3; do echo "$(head -1 $k.pub) $k"; done > workers.txt
mkdir bots && cp "$BOTS/random_bot" "$BOTS/greedy_bot" bots/   # removed later: the record keeps the programs
{
  echo "name: kept"; echo "format: round-robin"; echo "deals: 2"; echo "seed: 8"
  entrants_yaml 5 "$T/bots"
} > t.yaml   # C(5, 3) = 10 matches

# A distributed run: one referee (w1), its own work directory.
run_remote() {   # run_remote STATE KEY [referee flags...]
  local state=$1 key=$2; shift 2
  PORT=$((20000 + RANDOM % 20000))
  "$ARB" referee --connect "tcp://127.0.0.1:$PORT" --server-key sched.pub --key "$key" --slots 2 \
    --workdir "$key-dir" --metrics "" "$@" 2> "$key.log" &
  REF_PID=$!
  timeout 300 "$ARB" run t.yaml --state "$state" --listen "tcp://127.0.0.1:$PORT" --key sched \
    --worker-keys workers.txt --workers 0 --quiet > "$state.out" 2>&1
  local rc=$?
  stop_ref
  return $rc
}
run_remote remote w1
check "the distributed run exits 0" '[ $? = 0 ]'
"$ARB" status --state remote > status.out 2>&1
check "10 matches done, none void" 'grep -Eq "kept +round-robin +done +0 +0 +10 +0" status.out'
check "the referee removed each transcript once acknowledged" \
  '[ -d w1-dir/transcripts ] && [ -z "$(ls -A w1-dir/transcripts)" ]'
rm -rf w1-dir   # the referee's host retired

"$ARB" verify kept --state remote > verify.out 2>&1
check "verify proves every match from the record ($(tail -1 verify.out))" \
  '[ $? = 0 ] && grep -q "^kept: 10 transcripts: every deal follows from seed + secret: verified$" verify.out'
"$ARB" dispute show 1 --state remote > show.out 2>&1
check "dispute show exits 0 and re-judges the transcript from the record" \
  '[ $? = 0 ] && grep -q "check      OK: the digest is the record" show.out && grep -q "signature  ok (ed25519" show.out'
check "dispute show says the transcript was read from the record (the referee's path only as where it was written)" \
  'grep -q "^  transcript in the record (written by its referee as .*w1-dir/" show.out'
"$ARB" replay --match 1 --state remote > replay.out 2>&1
check "replay --match re-judges it, with the recorded digest and referee key" \
  '[ $? = 0 ] && grep -q "^verdict reproduced" replay.out && grep -q "^digest:  ok" replay.out && grep -q "^signature: ok" replay.out'
"$ARB" replay --match 1 --state remote --json > replay.json 2>&1
"$ARB" replay --match 99 --state remote > nomatch.out 2>&1
check "replay --match of a match not in the record: exit 3, said" '[ $? = 3 ] && grep -q "no match 99" nomatch.out'
"$ARB" replay --match 1 some.arbt > both.out 2>&1
check "replay: --match and FILE together are a usage error" '[ $? = 2 ]'

"$ARB" transcripts size --state remote > size.out 2>&1
raw=$(sed -n 's/^raw_bytes //p' size.out); stored=$(sed -n 's/^stored_bytes //p' size.out)
check "the record keeps 10 transcripts, fewer bytes stored than raw ($stored < $raw)" \
  'grep -q "^transcripts 10$" size.out && [ "$stored" -gt 0 ] && [ "$stored" -lt "$raw" ]'

# The web, from the record alone.
"$ARB" serve --state remote --listen 127.0.0.1:0 > serve.out 2> serve.err &
SERVE_PID=$!
for _ in $(seq 1 100); do grep -q "serving" serve.out 2>/dev/null && break; sleep 0.1; done
WPORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' serve.out)
code=$(curl -s -o web.ndjson -w '%{http_code}' "http://127.0.0.1:$WPORT/api/m/1/transcript")
check "/api/m/1/transcript answers 200 with the records of replay --json" \
  '[ "$code" = 200 ] && head -n -1 replay.json | cmp -s - web.ndjson'
curl -s "http://127.0.0.1:$WPORT/m/1" > page.html
check "the match page tells how the bots ended, from the transcript" \
  'grep -q "How the bots ended" page.html && ! grep -q "cannot be read here" page.html'
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$WPORT/m/1/replay")
check "the replay viewer's page is there" '[ "$code" = 200 ]'
stop_web

# The bots' files gone as well: match 10 disputed and played again by a
# referee that never saw the tournament, from the programs in the record.
rm -rf bots
q_seats="SELECT string_agg(entrant || ':' || total || ':' || rank, ',' ORDER BY slot) FROM match_seats WHERE match_id = 10"
was=$("$ARB" psql --state remote -qAtc "$q_seats")
"$ARB" dispute open 10 --reason "play it again" --state remote > /dev/null 2>&1
"$ARB" dispute resolve 10 --rerun --reason "from the record" --state remote > rr.out 2>&1
check "dispute resolve --rerun: match 10 pending again" \
  '[ $? = 0 ] && [ "$("$ARB" psql --state remote -qAtc "SELECT state || attempt FROM matches WHERE id = 10")" = pending2 ]'
run_remote remote w3
check "a new referee (an empty cache) plays the rerun with the bots' files gone: programs served from the record ($(grep -c "program in the record plays" remote.out) entrants from the record)" \
  '[ $? = 0 ] && [ "$("$ARB" psql --state remote -qAtc "SELECT state || attempt FROM matches WHERE id = 10")" = done2 ] && grep -q "program in the record plays" remote.out'
check "the same result as the first time ($was)" '[ -n "$was" ] && [ "$("$ARB" psql --state remote -qAtc "$q_seats")" = "$was" ]'
"$ARB" verify kept --state remote > verify-rr.out 2>&1
check "verify proves the rerun's transcript too" '[ $? = 0 ] && grep -q "verified$" verify-rr.out'

# A transcript altered in the record (its stored bytes changed): what is
# read back no longer holds its digest, and every reader says so.
d3=$("$ARB" psql --state remote -qAtc "SELECT digest FROM matches WHERE id = 3")
"$ARB" psql --state remote -qAtc "UPDATE transcripts SET codec = 'none', raw_size = length(body), body = set_byte(body, 10, get_byte(body, 10) # 1) WHERE digest = '$d3'" > /dev/null
"$ARB" verify kept --state remote > verify2.out 2>&1
check "verify names a transcript altered in the record" \
  '[ $? = 1 ] && grep -q "^kept: 1 of 10 transcripts FAILED" verify2.out && grep -q "match 3: transcript ${d3:0:16}.* in the record" verify2.out'
"$ARB" replay --match 3 --state remote > r3.out 2>&1
check "replay --match refuses it" '[ $? != 0 ] && grep -q "in the record" r3.out'

# What an altered (or imported) record may claim, checked against the
# transcripts (an adversarial review found each of these passing):
# a seat's total changed, another referee key named, a file path named
# for a transcript the record does not hold (a secret file, a FIFO).
q() { "$ARB" psql --state remote -qAtc "$1"; }
q "UPDATE match_seats SET total = total + 12 WHERE match_id = 5 AND slot = 0" > /dev/null
"$ARB" verify kept --state remote > vt.out 2>&1
check "verify compares the record's totals with the transcript's result" \
  '[ $? = 1 ] && grep -q "match 5: the record.s totals are .*, its transcript.s" vt.out'
q "UPDATE match_seats SET total = total - 12 WHERE match_id = 5 AND slot = 0" > /dev/null
key6=$(q "SELECT signer_key FROM matches WHERE id = 6")
q "UPDATE matches SET signer_key = repeat('ab', 32) WHERE id = 6" > /dev/null
"$ARB" verify kept --state remote > vk.out 2>&1
check "verify checks the signature against the key the record names" '[ $? = 1 ] && grep -q "match 6: signature FAILED" vk.out'
q "UPDATE matches SET signer_key = '$key6' WHERE id = 6" > /dev/null
echo "root:secret:0:0" > secret.txt; mkfifo fifo
d7=$(q "SELECT digest FROM matches WHERE id = 7")
q "UPDATE matches SET digest = repeat('ab', 32), transcript = '$T/secret.txt' WHERE id = 7" > /dev/null
"$ARB" transcripts get 7 --state remote > got7.out 2> got7.err
check "a path the record names is read only when its bytes are the transcript of the recorded digest" \
  '[ $? != 0 ] && ! grep -q "root:secret" got7.out && grep -q "hash\|digest" got7.err'
q "UPDATE matches SET transcript = '$T/fifo' WHERE id = 7" > /dev/null
timeout 20 "$ARB" transcripts get 7 --state remote > /dev/null 2> fifo.err
check "a FIFO named for a transcript does not hang the reader" '[ $? != 124 ] && grep -q "not a regular file" fifo.err'
q "UPDATE matches SET digest = '$d7', transcript = NULL WHERE id = 7" > /dev/null
echo precious > victim.txt; ln -s "$T/victim.txt" planted.arbt
"$ARB" transcripts get 7 --state remote -o planted.arbt > /dev/null 2>&1
check "transcripts get -o onto a planted link: refused, never written through (docs/cli.md, \"Files arbiter writes\")" \
  '[ $? = 1 ] && [ "$(cat victim.txt)" = precious ] && [ -L planted.arbt ]'
"$ARB" transcripts get 7 --state remote -o got.arbt > /dev/null 2>&1
check "transcripts get -o a new file: written 0600, and it replays" \
  '[ $? = 0 ] && [ "$(stat -c %a got.arbt)" = 600 ] && "$ARB" replay got.arbt > /dev/null 2>&1'

# keep_transcripts: a second run (its own record), the files stay.
mkdir bots && cp "$BOTS/random_bot" "$BOTS/greedy_bot" bots/
run_remote remote2 w2 --keep-transcripts
check "a referee with keep_transcripts keeps its 10 files" '[ "$(ls w2-dir/transcripts | wc -l)" = 10 ]'

# Retention. Matches 1..6 made old; match 2 disputed; a knockout played.
"$ARB" dispute open 2 --reason "a test of retention" --state remote > /dev/null 2>&1
{
  echo "name: ko"; echo "format: single-elimination"; echo "deals: 1"; echo "seed: 3"
  entrants_yaml 6 "$BOTS"
} > ko.yaml
"$ARB" run ko.yaml --state remote --quiet > ko.out 2>&1
check "a knockout runs into the same record" '[ $? = 0 ]'
"$ARB" psql --state remote -qAtc "UPDATE matches SET finished_at = now() - interval '40 days' WHERE id <= 6 OR tournament_id = (SELECT id FROM tournaments WHERE name = 'ko')" > /dev/null
nko=$("$ARB" psql --state remote -qAtc "SELECT count(*) FROM matches m JOIN transcripts x ON x.digest = m.digest WHERE tournament_id = (SELECT id FROM tournaments WHERE name = 'ko')")
"$ARB" transcripts prune --older-than 30 --state remote > prune.out 2>&1
check "prune removes the 5 old ones of kept, not the disputed or the $nko knockout ones ($(cat prune.out))" \
  '[ $? = 0 ] && grep -q "^pruned 5 transcripts" prune.out'
check "the disputed match's and the knockout's transcripts stay" \
  '[ "$("$ARB" psql --state remote -qAtc "SELECT count(*) FROM matches m JOIN transcripts x ON x.digest = m.digest WHERE m.id = 2 OR m.tournament_id = (SELECT id FROM tournaments WHERE name = '"'ko'"')")" = $((nko + 1)) ]'
"$ARB" verify kept --state remote > verify3.out 2>&1
check "verify says which were pruned, by retention, on which day" \
  'grep -q "match 1: transcript pruned on [0-9-]* by retention" verify3.out && grep -q "^kept: 5 transcripts pruned by retention: not checked$" verify3.out'
"$ARB" dispute show 1 --state remote > show1.out 2>&1
check "dispute show says the transcript was pruned" 'grep -q "transcript pruned on [0-9-]* by retention" show1.out'
"$ARB" dispute show 2 --state remote > show2.out 2>&1
check "the disputed match's transcript is still re-judged" '[ $? = 0 ] && grep -q "check      OK" show2.out'
"$ARB" replay --match 4 --state remote > r4.out 2>&1
check "replay --match of a pruned transcript says so" '[ $? != 0 ] && grep -q "pruned on .* by retention" r4.out'
# A digest another (recent) match shares is that match's transcript too:
# pruning the old one's tournament must not take it away.
d8=$(q "SELECT digest FROM matches WHERE id = 8")
q "UPDATE matches SET digest = '$d8', finished_at = now() - interval '400 days' WHERE id = 9" > /dev/null
"$ARB" transcripts prune --older-than 30 --tournament kept --state remote > prune3.out 2>&1
check "prune spares a digest a recent match still uses" \
  '[ "$(q "SELECT count(*) FROM transcripts WHERE digest = '"'$d8'"'")" = 1 ]'
"$ARB" transcripts prune --older-than 30 --state remote > prune2.out 2>&1
check "pruning again removes nothing" 'grep -q "^pruned 0 transcripts" prune2.out'
"$ARB" transcripts prune --state remote > noarg.out 2>&1
check "prune without --older-than: a usage error" '[ $? = 2 ] && grep -q "older-than DAYS is needed" noarg.out'

echo "transcripts: $pass passed, $fail failed"
[ "$fail" = 0 ]
