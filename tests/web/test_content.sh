#!/usr/bin/env bash
# test_content.sh — what the pages and their JSON say (issue 29, "pages fit
# to publish"), over real HTTP from a real `arbiter serve` on a real
# PostgreSQL, checked by content_check.py without a browser:
#   - a Da Bang double elimination of four teams of two (partnership):
#     the bracket's boxes name teams, the crosstable is teams × teams
#     (partners never scored against each other), page and JSON; every
#     placement named as the CLI names it (no "quarter-final" of four);
#     the bracket's sections labelled (winners', losers', grand final,
#     reset) and each loser's drop named;
#   - a groups→knockout of ten in two groups, two through from each: the
#     groups and their qualifiers, and the knockout's bye, in the bracket;
#   - a ladder: the chart's lines unfilled, numbers rounded, ticks at
#     round values, a legend; the leaderboard's rank change and form;
#   - a match: a transcript's 64-bit seeds as JSON strings; each bot's end
#     as it happened (not "killed by SIGKILL" for a bot that exited).
# Usage: test_content.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
command -v python3 >/dev/null || { echo "python3 not installed: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/test_sh.sh" web-content
test_pg_start 55496
. "$here/../lib/test_serve.sh"

D=$(newdb arb_content)
run() {  # run NAME YAML: arbiter run to the end
  "$ARB" run "$2" --db "$D" --state "$T/s-$1" --quiet --workers 2 > "$T/$1.out" 2>&1
  check "$1 runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/$1.out" >&2
}
{
  printf 'name: gk10\ngame: doudizhu\nformat: groups-knockout\ngroups: 2\nadvance: 2\ndeals: 1\nseed: 3\nfiles_root: /\n'
  entrants_yaml 10 "$BOTS"
} > "$T/gk10.yaml"
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
ladder: {concurrent: 2, provisional: 2, matches: 28}
entrants:
  - {name: greedy, command: $BOTS/greedy_bot}
  - {name: random, command: $BOTS/random_bot}
  - {name: greedy-2, command: $BOTS/greedy_bot}
  - {name: random-2, command: $BOTS/random_bot}
EOS
# a bot that stays running after "end" (it plays as the random bot, then
# sleeps); the bot it runs travels with it (files:)
cp "$BOTS/random_bot" "$T/random_bot"
printf '#!/bin/sh\n"$(dirname "$0")/random_bot" "$@"\nexec sleep 30\n' > "$T/stubborn"
chmod 755 "$T/stubborn"
cat > "$T/stub.yaml" <<EOS
name: stub
game: doudizhu
format: round-robin
deals: 1
seed: 5
files_root: /
entrants:
  - {name: stubborn, command: $T/stubborn, files: [random_bot]}
  - {name: greedy, command: $BOTS/greedy_bot}
  - {name: random, command: $BOTS/random_bot}
EOS
for t in gk10 de4 lad stub; do run $t "$T/$t.yaml"; done
tid() { sql "$D" "SELECT id FROM tournaments WHERE name = '$1'"; }
DE=$(tid de4) GK=$(tid gk10) LA=$(tid lad) ST=$(tid stub)
"$ARB" standings "#$DE" --db "$D" > "$T/de4.standings" 2>&1
check "the CLI names no quarter-final in a double elimination of four" \
  '! grep -q "quarter-final" "$T/de4.standings"' || cat "$T/de4.standings" >&2

start_serve "$D" serve
check "serve prints its port" '[ -n "$PORT" ]' || cat "$T/serve.err" >&2
python3 "$here/content_check.py" "http://127.0.0.1:$PORT" "$D" "$DE" "$GK" "$LA" "$ST" > "$T/check.out" 2>&1
rc=$?
grep "^FAIL" "$T/check.out" >&2
tail -n 1 "$T/check.out"
check "the pages' content ($(tail -n 1 "$T/check.out"))" '[ $rc = 0 ]'
stop_serve
echo "web-content: $pass passed, $fail failed"
[ "$fail" = 0 ]
