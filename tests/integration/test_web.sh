#!/usr/bin/env bash
# test_web.sh — arbiter in the browser (docs/web.md), end to end on a real
# PostgreSQL with a real server:
#   1. a knockout of the C example bots (one whose stderr carries HTML and
#      script) recorded with `arbiter run`, under a tournament name with
#      markup; an entrant renamed in the record to
#      "<script>alert(1)</script>" (the loader refuses such names; an older
#      record or another tool may not);
#   2. `arbiter serve` on a free port: every page and API answers, the JSON
#      is valid and its standings equal `arbiter standings --format json`,
#      the transcript API is `arbiter replay --json`'s records, no raw
#      markup of a bot or name in any page, the bracket is SVG, 404 for
#      unknown routes and /../etc/passwd, 405 for POST, the security
#      headers, an event stream;
#   3. a running tournament's page subscribes, and its event stream
#      delivers progress and results as they land;
#   4. `arbiter report` writes the pages, relative links, the transcripts
#      as scripts for the viewer.
# Usage: test_web.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" web-test
test_pg_start 55480
. "$(dirname "$0")/../lib/test_serve.sh"

# a bot whose stderr carries markup, then plays as the random bot
cat > "$T/loud_bot" <<EOS
#!/bin/sh
echo '<img src=x onerror=alert(2)><script>alert(3)</script>' >&2
exec "\$(dirname "\$0")/random_bot" "\$@"
EOS
chmod 755 "$T/loud_bot"
# the bot it execs travels with it (files:): a sandboxed bot sees its own
# program's files, not the test's directory (a private /tmp)
cp "$BOTS/random_bot" "$T/random_bot"

cat > "$T/ko.yaml" <<EOS
name: web <b>cup</b>
game: doudizhu
rules: standard
format: single-elimination
advance: 1
deals: 2
seed: 5
files_root: /
entrants:
  - {name: greedy-a, command: $BOTS/greedy_bot --name greedy-a}
  - {name: random-a, command: $BOTS/random_bot --name random-a}
  - {name: loud, command: $T/loud_bot, files: [random_bot]}
  - {name: greedy-b, command: $BOTS/greedy_bot --name greedy-b}
  - {name: random-b, command: $BOTS/random_bot --name random-b}
  - {name: random-c, command: $BOTS/random_bot --name random-c}
  - {name: greedy-c, command: $BOTS/greedy_bot --name greedy-c}
  - {name: random-d, command: $BOTS/random_bot --name random-d}
  - {name: greedy-d, command: $BOTS/greedy_bot --name greedy-d}
EOS
D=$(newdb arb_web)
"$ARB" run "$T/ko.yaml" --db "$D" --state "$T/s" --quiet --workers 2 > "$T/ko.out" 2>&1
[ $? = 0 ] && ok || { bad "the knockout runs to the end"; tail -n 20 "$T/ko.out" >&2; }
TID=$(sql "$D" "SELECT id FROM tournaments ORDER BY id DESC LIMIT 1")
sql "$D" "UPDATE entrants SET name = '<script>alert(1)</script>' WHERE tournament_id = $TID AND name = 'random-a'"
M=$(sql "$D" "SELECT m.id FROM matches m JOIN match_seats s ON s.match_id = m.id JOIN entrants e
              ON e.tournament_id = m.tournament_id AND e.idx = s.entrant WHERE e.name = 'loud' ORDER BY m.id LIMIT 1")
LOUD=$(sql "$D" "SELECT idx FROM entrants WHERE tournament_id = $TID AND name = 'loud'")

start_serve "$D" serve
check "serve prints the port it bound, on loopback" '[ -n "$PORT" ]' || cat "$T/serve.err" >&2
U="http://127.0.0.1:$PORT"
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

# ---- 2. pages and API -----------------------------------------------------------
for r in / /t/$TID /t/$TID/e/$LOUD /m/$M /m/$M/replay /pool /assets/style.css /assets/live.js \
         /api/tournaments /api/t/$TID /api/t/$TID/standings /api/t/$TID/e/$LOUD /api/m/$M /api/pool \
         /api/m/$M/transcript; do
  check "GET $r is 200" '[ "$(code "$U$r")" = 200 ]'
done
for r in /nope /t/ /t/x /t/999999 /m/99999999 /api/t/$TID/nope /../etc/passwd /%2e%2e/etc/passwd \
         /assets/../../etc/passwd /assets/nope.css /t/$TID/ /t/99999999999999999999 /l/$TID; do
  check "GET $r is 404" '[ "$(code --path-as-is "$U$r")" = 404 ]'
done
check "POST is 405 and says GET, HEAD" \
  '[ "$(code -X POST -d x=1 "$U/")" = 405 ] && curl -s -D - -o /dev/null -X POST "$U/api/tournaments" | grep -qi "^allow: GET, HEAD"'
check "DELETE is 405" '[ "$(code -X DELETE "$U/t/$TID")" = 405 ]'
check "HEAD answers 200" '[ "$(curl -s -I "$U/t/$TID" | head -n 1 | tr -d "\r")" = "HTTP/1.1 200 OK" ]'
curl -s -D "$T/h.txt" -o /dev/null "$U/t/$TID"
check "the security headers are sent" \
  'grep -qi "^content-security-policy: default-src '"'"'self'"'"'; script-src '"'"'self'"'"'" "$T/h.txt" &&
   grep -qi "^x-content-type-options: nosniff" "$T/h.txt" && grep -qi "^referrer-policy: no-referrer" "$T/h.txt"'

curl -s "$U/api/t/$TID/standings" > "$T/st.json"
"$ARB" standings "#$TID" --db "$D" --format json > "$T/st_cli.json"
check "the API's standings equal arbiter standings --format json" \
  'python3 -c "import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert a == b and len(a) == 9, (a, b)" "$T/st.json" "$T/st_cli.json"'
for r in /api/tournaments /api/t/$TID /api/t/$TID/e/$LOUD /api/m/$M /api/pool; do
  curl -s "$U$r" > "$T/a.json"
  check "$r is valid JSON" 'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/a.json"'
done
check "the tournament's JSON holds its name, standings and matches" \
  'curl -s "$U/api/t/$TID" | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert d[\"name\"] == \"web <b>cup</b>\" and d[\"format\"] == \"single-elimination\"
assert any(s[\"name\"] == \"<script>alert(1)</script>\" for s in d[\"standings\"])
assert len(d[\"matches\"]) >= 4 and d[\"progress\"][\"state\"] == \"done\""'
check "the match's JSON carries the loud bot's stderr, as data" \
  'curl -s "$U/api/m/$M" | python3 -c "
import json, sys
d = json.load(sys.stdin)
assert d[\"signature_status\"] in (\"signed\", \"unsigned\") and len(d[\"digest\"]) == 64
assert any(\"<script>alert(3)</script>\" in b[\"stderr\"] for b in d[\"bots\"]), d[\"bots\"]"'
curl -s "$U/api/m/$M/transcript" > "$T/tr.ndjson"
"$ARB" replay --match "$M" --db "$D" --json 2>/dev/null | grep -v '^{"type":"replay"' > "$T/tr_cli.ndjson"
check "the transcript API is the records of arbiter replay --json" \
  '[ -s "$T/tr.ndjson" ] && cmp -s "$T/tr.ndjson" "$T/tr_cli.ndjson" && python3 -c "
import json, sys
for l in open(sys.argv[1]): json.loads(l)" "$T/tr.ndjson"'

# no raw markup from a bot, a name or the file in any page
: > "$T/all.html"
for r in / /t/$TID /m/$M/replay /pool; do curl -s "$U$r" >> "$T/all.html"; done
for e in $(sql "$D" "SELECT idx FROM entrants WHERE tournament_id = $TID"); do curl -s "$U/t/$TID/e/$e" >> "$T/all.html"; done
for m in $(sql "$D" "SELECT id FROM matches WHERE tournament_id = $TID"); do curl -s "$U/m/$m" >> "$T/all.html"; done
check "no raw <script> or markup from bots or names in any page" \
  '! grep -q "<script>alert" "$T/all.html" && ! grep -q "<img src=x" "$T/all.html" && ! grep -q "<b>cup" "$T/all.html"'
check "the hostile texts are there, escaped" \
  'grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" "$T/all.html" && grep -q "&lt;img src=x onerror=alert(2)&gt;" "$T/all.html" &&
   grep -q "web &lt;b&gt;cup&lt;/b&gt;" "$T/all.html"'
check "no inline script anywhere: scripts come from /assets only" \
  '! grep -Eq "<script>|<script [^s]| on[a-z]+=\"" "$T/all.html"'
curl -s "$U/t/$TID" > "$T/t.html"
check "the tournament page: standings table, bracket as SVG, rounds, a viewport" \
  'grep -q "<table id=\"standings\">" "$T/t.html" && grep -q "<svg class=\"bracket\"" "$T/t.html" &&
   grep -q "<h3>Round 1" "$T/t.html" && grep -q "name=\"viewport\"" "$T/t.html" && grep -q "<th scope=\"col\">" "$T/t.html"'
check "the match page: digest, signature status, the replay link" \
  'curl -s "$U/m/$M" > "$T/m.html"; grep -q "Signature: \(un\)\?signed" "$T/m.html" && grep -q "href=\"/m/$M/replay\"" "$T/m.html"'
curl -s -N --max-time 3 "$U/api/t/$TID/events" > "$T/sse.txt"
check "the event stream of a finished tournament sends its progress, then event: end" \
  'grep -q "^event: progress" "$T/sse.txt" && grep -q "^data: {\"state\":\"done\"" "$T/sse.txt" &&
   [ "$(grep "^event:" "$T/sse.txt" | tail -n 1)" = "event: end" ]'
# Twelve spectators of one tournament cost the record one progress read a
# second between them, not twelve (web_server.c, live_progress): each read
# scans the tournaments table once, and nothing else reads it meanwhile.
# The tournament is finished, so each stream ends after its first poll: the
# twelve share one or two reads.
scans() { sql "$D" "SELECT pg_stat_clear_snapshot(); SELECT seq_scan + coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'tournaments'" | tail -n 1; }
# The server reads on a pool of sessions, and PostgreSQL reports an idle
# session's counts up to 10 s late: 11 s of quiet before and after.
sleep 11; s0=$(scans)
pids=()
for i in $(seq 1 12); do curl -s -N --max-time 4 "$U/api/t/$TID/events" > /dev/null & pids+=($!); done
wait "${pids[@]}"
sleep 11; s1=$(scans)
check "twelve streams of one tournament share a progress read a second ($((s1 - s0)) reads for 12 streams)" \
  '[ $((s1 - s0)) -ge 1 ] && [ $((s1 - s0)) -le 3 ]'
check "an unknown tournament's stream sends no event" \
  '! curl -s --max-time 3 "$U/api/t/99999/events" | grep -q "^event:"'
check "a header past the request limit is refused" \
  '[ "$(code -H "X-Big: $(head -c 40000 /dev/zero | tr "\0" a)" "$U/")" = 431 ]'
# The pages in a real browser (headless Chromium; skipped where there is none)
python3 "$(dirname "$0")/../web/pages.py" "$U" "$TID" "$M" > "$T/pages.out" 2>&1
rc=$?
if [ $rc = 77 ]; then
  echo "-- no chromium: the served pages are not checked in a browser"
else
  check "the served pages in headless Chromium: DOM, viewer keys, no console error, nothing fetched from outside ($(tail -1 "$T/pages.out"))" \
    '[ $rc = 0 ]'
  [ $rc = 0 ] || grep "^FAIL" "$T/pages.out" >&2
fi
check "the server is still up after all that" '[ "$(code "$U/")" = 200 ]'
stop_serve

# ---- 3. a running tournament, live ------------------------------------------------
cat > "$T/rr.yaml" <<EOS
name: web live
game: doudizhu
rules: standard
format: round-robin
deals: 6
seed: 9
files_root: /
entrants:
  - {name: g1, command: $BOTS/greedy_bot --name g1}
  - {name: r1, command: $BOTS/random_bot --name r1}
  - {name: g2, command: $BOTS/greedy_bot --name g2}
  - {name: r2, command: $BOTS/random_bot --name r2}
  - {name: g3, command: $BOTS/greedy_bot --name g3}
EOS
D2=$(newdb arb_web_live)
"$ARB" run "$T/rr.yaml" --db "$D2" --state "$T/s2" --quiet --workers 1 > "$T/rr.out" 2>&1 &
RUN_PID=$!
T2=""
for _ in $(seq 1 100); do
  T2=$(sql "$D2" "SELECT id FROM tournaments LIMIT 1" 2>/dev/null); [ -n "$T2" ] && break; sleep 0.1
done
start_serve "$D2" serve2
curl -s -N --max-time 30 "http://127.0.0.1:$PORT/api/t/$T2/events" > "$T/live.txt" &
CURL_PID=$!
curl -s "http://127.0.0.1:$PORT/t/$T2" > "$T/live.html"
check "a running tournament's page subscribes (data-live, live.js from /assets)" \
  'grep -q "data-live=\"$T2\"" "$T/live.html" && grep -q "<script src=\"/assets/live.js\"></script>" "$T/live.html"'
wait "$RUN_PID"
check "the live round robin finishes" '[ $? = 0 ]' || tail -n 5 "$T/rr.out" >&2
sleep 2
kill "$CURL_PID" 2>/dev/null; wait "$CURL_PID" 2>/dev/null
check "the stream delivered progress and results as they landed" \
  'grep -q "^event: progress" "$T/live.txt" && grep -q "^event: result" "$T/live.txt" &&
   grep "^data: " "$T/live.txt" | sed "s/^data: //" | python3 -c "
import json, sys
for l in sys.stdin: json.loads(l)"'
stop_serve

# ---- 4. arbiter report --------------------------------------------------------------
"$ARB" report "#$TID" -o "$T/rep" --db "$D" > "$T/rep.out" 2>&1
check "report writes the pages" '[ $? = 0 ] && [ -f "$T/rep/index.html" ] && [ -f "$T/rep/assets/style.css" ]' ||
  cat "$T/rep.out" >&2
check "index.html holds the standings, links relative" \
  'grep -q "<table id=\"standings\">" "$T/rep/index.html" && grep -q "href=\"assets/style.css\"" "$T/rep/index.html" &&
   grep -q "href=\"m/$M.html\"" "$T/rep/index.html" && ! grep -q "href=\"/" "$T/rep/index.html"'
check "each match page and its transcript for the viewer" \
  '[ -f "$T/rep/m/$M.html" ] && grep -q "href=\"../assets/style.css\"" "$T/rep/m/$M.html" &&
   head -c 25 "$T/rep/m/$M/transcript.js" | grep -q "window.ARB_TRANSCRIPT = \"" &&
   grep -q "src=\"transcript.js\"" "$T/rep/m/$M/replay.html"'
check "the report's JSON standings equal the CLI's" \
  'python3 -c "import json,sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))" "$T/rep/api/standings.json" "$T/st_cli.json"'
check "no raw markup from bots in the report" '! grep -rq "<script>alert\|<img src=x" --include=*.html "$T/rep"'
"$ARB" report nosuch -o "$T/rep2" --db "$D" > /dev/null 2>&1
check "report of an unknown tournament exits 3" '[ $? = 3 ]'

echo "web: $pass passed, $fail failed"
[ "$fail" = 0 ]
