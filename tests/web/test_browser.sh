#!/usr/bin/env bash
# test_browser.sh — the pages of issue 16 in headless Chromium
# (browser_pages.py), on a real PostgreSQL and a real `arbiter serve`:
# a single elimination, a double elimination (Da Bang teams), a groups
# knockout, a ladder, a round robin, a swiss, a gauntlet, a tournament
# running while its page is open (the live update), and `arbiter report`
# opened from disk; axe-core's accessibility check on every page. Exit 77
# (meson: skipped) without chromium, python3 or npm.
#   test_browser.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
command -v python3 >/dev/null || { echo "python3 not installed: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
python3 -c "import sys; sys.path.insert(0, '$here'); import browser; sys.exit(0 if browser.find_chromium() else 1)" ||
  { echo "chromium not installed: skipped"; exit 77; }
# axe-core (npm, pinned by package-lock.json) for the accessibility check
ARB_AXE_JS=$(bash "$here/axe_install.sh" "${ARB_NODE_DIR:-${TMPDIR:-/tmp}/arbiter-web-node}")
case $? in
  0) export ARB_AXE_JS ;;
  77) echo "npm not installed: the accessibility check cannot run: skipped"; exit 77 ;;
  *) echo "FAIL: axe-core could not be installed"; exit 1 ;;
esac
. "$here/../lib/test_sh.sh" web-browser
test_pg_start 55482
PIDS=()
stop_all() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; PIDS=(); }
trap 'stop_all; cleanup' EXIT
# screenshots: a directory of their own under the suites' artifacts
export ARB_ARTIFACTS=${ARB_ARTIFACTS:-${ARB_ARTIFACTS_DEFAULT:-$T/artifacts}}/browser
mkdir -p "$ARB_ARTIFACTS"

D=$(newdb arb_browser)
run() {  # run NAME YAML: arbiter run to the end
  "$ARB" run "$2" --db "$D" --state "$T/s-$1" --quiet --workers 2 > "$T/$1.out" 2>&1
  check "$1 runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/$1.out" >&2
}
ddz() {  # ddz NAME FORMAT N [EXTRA]: a Dou Dizhu tournament of N C bots, one deal a match
  printf 'name: %s\ngame: doudizhu\nformat: %s\ndeals: 1\nseed: 3\nfiles_root: /\n%b' "$1" "$2" "${4:-}"
  entrants_yaml "$3" "$BOTS"
}
ddz ko9 single-elimination 9 > "$T/ko9.yaml"
ddz gk9 groups-knockout 9 "groups: 3\nadvance: 1\n" > "$T/gk9.yaml"
{
  printf 'name: de4\ngame: dabang\nformat: double-elimination\ndeals: 1\nseed: 29\nfiles_root: /\n'
  printf 'clock: {move_ms: 3000, bank_ms: 20000}\nentrants:\n'
  for t in 1 2 3 4; do
    b=dabang_random; [ $((t % 2)) = 0 ] && b=dabang_greedy
    printf '  - name: team-%d\n    members:\n      - %s/%s\n      - %s/%s\n' "$t" "$BOTS" "$b" "$BOTS" "$b"
  done
} > "$T/de4.yaml"
cat > "$T/lad.yaml" <<EOS
name: lad
game: doudizhu
format: ladder
deals: 1
seed: 7
rating: openskill
files_root: /
ladder: {concurrent: 2, provisional: 2, matches: 4}
entrants:
  - {name: greedy, command: $BOTS/greedy_bot}
  - {name: random, command: $BOTS/random_bot}
  - {name: greedy-2, command: $BOTS/greedy_bot}
EOS
# the other formats' pages: a round robin, a swiss, a gauntlet
ddz rr4 round-robin 4 > "$T/rr4.yaml"
ddz sw6 swiss 6 "rounds: 2\n" > "$T/sw6.yaml"
ddz gt4 gauntlet 4 "gauntlet: e01\n" > "$T/gt4.yaml"
for t in ko9 gk9 de4 lad rr4 sw6 gt4; do run $t "$T/$t.yaml"; done
echo "-- ${SECONDS}s: seven tournaments recorded"
# a name with markup (the loader refuses one; an older record may hold it)
sql "$D" "UPDATE entrants SET name = '<b>e&01</b>' WHERE name = 'e01' AND tournament_id = (SELECT id FROM tournaments WHERE name = 'ko9')"

# the facts the browser checks against, from the CLI and the record
tid() { sql "$D" "SELECT id FROM tournaments WHERE name = '$1'"; }
{
  echo "{"
  for t in ko9 gk9 de4; do
    id=$(tid $t)
    "$ARB" standings "#$id" --db "$D" --format json > "$T/st-$t.json"
    echo "\"$t\": {\"id\": $id, \"standings\": $(cat "$T/st-$t.json"),"
    echo " \"matches\": $(sql "$D" "SELECT count(*) FROM matches WHERE tournament_id = $id"),"
    echo " \"knockout_matches\": $(sql "$D" "SELECT count(*) FROM matches m JOIN rounds r USING (tournament_id, round) WHERE m.tournament_id = $id AND r.stage <> 'group'"),"
    echo " \"rounds\": $(sql "$D" "SELECT count(DISTINCT m.round) FROM matches m JOIN rounds r USING (tournament_id, round) WHERE m.tournament_id = $id AND r.stage <> 'group'")},"
  done
  for t in lad rr4 sw6 gt4; do
    id=$(tid $t)
    echo "\"$t\": {\"id\": $id, \"matches\": $(sql "$D" "SELECT count(*) FROM matches WHERE tournament_id = $id")},"
  done
  echo "\"match\": $(sql "$D" "SELECT min(id) FROM matches WHERE tournament_id = $(tid ko9)")"
  echo "}"
} > "$T/facts.json"
check "the facts are JSON" 'python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$T/facts.json"' || cat "$T/facts.json" >&2

# a slow round robin, running while its page is open: each move waits a little
# (the referee's messages reach the bot through a loop that sleeps first)
# The bot it pipes into travels with it (files:): a sandboxed bot sees its
# own program's files, not the test's directory (a private /tmp).
cp "$BOTS/random_bot" "$T/random_bot"
cat > "$T/slow_bot" <<'EOS'
#!/bin/sh
while IFS= read -r l; do sleep 0.03; printf '%s\n' "$l"; done | "$(dirname "$0")/random_bot" "$@"
EOS
chmod 755 "$T/slow_bot"
printf 'name: live\ngame: doudizhu\nformat: round-robin\ndeals: 1\nseed: 4\nfiles_root: /\nentrants:\n' > "$T/live.yaml"
for i in 1 2 3 4; do printf '  - {name: slow-%d, command: %s, files: [random_bot]}\n' "$i" "$T/slow_bot" >> "$T/live.yaml"; done

"$ARB" report "#$(tid ko9)" -o "$T/rep" --db "$D" > "$T/rep.out" 2>&1
check "report writes the knockout's pages" '[ $? = 0 ] && [ -f "$T/rep/index.html" ]' || cat "$T/rep.out" >&2
M=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['match'])" "$T/facts.json")
check "the report's transcript is one NDJSON string for the viewer" \
  'head -c 25 "$T/rep/m/$M/transcript.js" | grep -q "^window.ARB_TRANSCRIPT = \"" && ! grep -q "</script" "$T/rep/m/$M/transcript.js"'

"$ARB" serve --db "$D" --listen 127.0.0.1:0 > "$T/serve.out" 2> "$T/serve.err" &
PIDS+=($!)
for _ in $(seq 1 50); do grep -q "serving" "$T/serve.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/serve.out")
check "serve prints its port" '[ -n "$PORT" ]' || cat "$T/serve.err" >&2

"$ARB" run "$T/live.yaml" --db "$D" --state "$T/s-live" --quiet --workers 1 > "$T/live.out" 2>&1 &
LIVE_PID=$!
PIDS+=($LIVE_PID)
LIVE=""
for _ in $(seq 1 100); do LIVE=$(tid live 2>/dev/null); [ -n "$LIVE" ] && break; sleep 0.1; done
check "the live tournament is in the record" '[ -n "$LIVE" ]'

echo "-- ${SECONDS}s: serving, the live one running"
python3 "$here/browser_pages.py" "http://127.0.0.1:$PORT" "$T/facts.json" "$LIVE" "$T/rep" > "$T/pages.out" 2>&1
rc=$?
cat "$T/pages.out"
check "the pages in headless Chromium ($(tail -n 1 "$T/pages.out"))" '[ $rc = 0 ]'
echo "-- ${SECONDS}s: browser done"
wait "$LIVE_PID"
check "the live round robin finishes" '[ $? = 0 ]' || tail -n 5 "$T/live.out" >&2
echo "-- ${SECONDS}s: the live one finished"
stop_all
echo "screenshots: $ARB_ARTIFACTS"
echo "web-browser: $pass passed, $fail failed"
[ "$fail" = 0 ]
