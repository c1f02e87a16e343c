#!/usr/bin/env bash
# test_tiny_game.sh — a game the arbiter was not written for, played end
# to end: "high card" (tests/games/highcard/highcard.c) registered in
# arbiter-testgames is played by two bot programs through `match`, its
# transcript re-judged by `replay`, and a round robin of three entrants
# run by `run` on a real PostgreSQL. The plain `arbiter` does not know
# the game: the registration is all it takes.
# Usage: test_tiny_game.sh ARBITER_TESTGAMES HIGHCARD_DIR
set -u
ARB=$1 DIR=$2
PLAIN=$(dirname "$ARB")/../../../cli/arbiter
. "$(dirname "$0")/../../lib/test_sh.sh" tiny-game

cp "$DIR/highcard_bot.py" "$T/"
chmod 755 "$T/highcard_bot.py"
BOT="python3 $T/highcard_bot.py"
# a fixed secret: the same deals every run (a fresh one could deal a match
# in which neither side reaches the goal within the deal limit)
printf '%064x\n' 11 > "$T/secret"; chmod 600 "$T/secret"

# ---- one match -------------------------------------------------------------
"$ARB" match --game highcard --bot hi="$BOT high" --bot lo="$BOT low" --deals 40 --seed 3 \
  --secret-file "$T/secret" --transcript "$T/m.arbt" > "$T/m.out" 2>&1
check "a high card match is played to its end" '[ $? = 0 ] && grep -q "^match highcard/short, 40 deals" "$T/m.out"'
games=$(sed -n 's/.*duplicate off: \([0-9]*\) games.*/\1/p' "$T/m.out")
check "the match ends when a side reaches the goal (5), before its 40 deals ($games games)" \
  '[ -n "$games" ] && [ "$games" -lt 40 ] && grep -Eq "^1 +(hi|lo) +\+([5-9]|[1-9][0-9])" "$T/m.out"'
check "the result names a winner and the transcript" 'grep -q "^winner: " "$T/m.out" && grep -q "^transcript: $T/m.arbt (sha256 [0-9a-f]\{64\})" "$T/m.out"'
"$ARB" replay "$T/m.arbt" --secret-file "$T/secret" > "$T/r.out" 2>&1
check "replay re-judges the transcript" '[ $? = 0 ] && grep -q "^verdict reproduced: $games games" "$T/r.out"'
check "replay proves the deals from seed + secret" 'grep -q "every deal follows from seed + secret: verified" "$T/r.out"'
"$ARB" replay "$T/m.arbt" --dump > "$T/dump.out" 2>&1
check "the transcript holds the game's own events" 'grep -q "\"hand [2-9TJQK]\{3\}\"" "$T/dump.out" && grep -q "\"trick [01]\"" "$T/dump.out"'
size=$(stat -c %s "$T/m.arbt")
printf 'x' | dd of="$T/m.arbt" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null   # one byte of a record changed
"$ARB" replay "$T/m.arbt" > "$T/r2.out" 2>&1
check "an altered transcript is caught" '[ $? = 1 ] && grep -q "^digest: *FAILED" "$T/r2.out"'

# the same through JSON, four players in partnerships
"$ARB" match --game highcard --rules pairs --bot a="$BOT high" --bot b="$BOT low" --bot c="$BOT low" \
  --bot d="$BOT high" --deals 3 --seed 4 --json --quiet --secret-file "$T/secret" > "$T/p.json" 2>"$T/p.err"
check "four players in partnerships play a match" '[ $? = 0 ] && python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
t = {b[\"name\"]: b[\"total\"] for b in r[\"bots\"]}
assert r[\"game\"] == \"highcard\" and r[\"rules\"] == \"pairs\" and r[\"games\"] == 3, r
assert t[\"a\"] == t[\"c\"] and t[\"b\"] == t[\"d\"] and t[\"a\"] == -t[\"b\"], t
" "$T/p.json"'

# what the game refuses, in the game's words
"$ARB" match --game highcard --bot hi="$BOT high" --bot lo="$BOT low" --deals 3 --duplicate swap \
  --secret-file "$T/secret" > "$T/d.out" 2>&1
check "duplicate swap is refused for a game without two teams" '[ $? = 2 ] && grep -q "no two fixed teams" "$T/d.out"'
"$ARB" match --game highcard --bot hi="$BOT high" --bot lo="$BOT low" --deals 30 --duplicate rotate \
  --secret-file "$T/secret" --json --quiet > "$T/d.json" 2>/dev/null
check "a match that may end early plays duplicate at tables, each a match of its own" '[ $? = 0 ] && python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r[\"tables\"]) == 2 and r[\"games\"] == sum(t[\"games\"] for t in r[\"tables\"]), r
" "$T/d.json"'
"$ARB" match --game highcard --bot a="$BOT high" --bot b="$BOT low" --bot c="$BOT low" --secret-file "$T/secret" \
  > "$T/n.out" 2>&1
check "three bots for a two-seat game are refused" '[ $? = 2 ] && grep -q "seats 2 players, 3 bots given" "$T/n.out"'
# eval needs two fixed teams of two or the roles a game's command-line
# module fixes (game_cli_roles): high card for two has neither
"$ARB" eval --game highcard --deals 1 > "$T/e.out" 2>&1
check "eval refuses a game without eval roles or fixed teams" '[ $? = 4 ] && grep -q "highcard has neither roles for eval" "$T/e.out"'
if [ -x "$PLAIN" ]; then
  "$PLAIN" match --game highcard --bot hi="$BOT high" --bot lo="$BOT low" > "$T/u.out" 2>&1
  check "the plain arbiter does not know the game" '[ $? = 2 ] && grep -q "unknown game \"highcard\"" "$T/u.out"'
fi

# ---- a tournament ----------------------------------------------------------
test_pg_start 55437
{
  echo "name: tiny"
  echo "game: highcard"
  echo "format: round-robin"
  echo "deals: 10"
  echo "seed: 5"
  echo "clock: {move_ms: 3000, bank_ms: 10000}"
  echo "entrants:"
  echo "  - name: high1"
  echo "    command: $BOT high"
  echo "  - name: high2"
  echo "    command: $BOT high"
  echo "  - name: low"
  echo "    command: $BOT low"
} > "$T/tiny.yaml"
"$ARB" check "$T/tiny.yaml" > "$T/check.out" 2>&1
check "arbiter check accepts a tournament of the registered game" '[ $? = 0 ]'
D=$(newdb arb_tiny)
"$ARB" run "$T/tiny.yaml" --db "$D" --state "$T/s" --quiet --workers 1 --secret-file "$T/secret" > "$T/run.out" 2>&1
rc=$?
check "the round robin runs to completion (exit $rc)" '[ $rc = 0 ]' || cat "$T/run.out" >&2
check "three matches of two, all done" '[ "$(sql "$D" "select count(*), count(*) filter (where state = '"'done'"') from matches")" = "3|3" ]'
check "two seats per match" '[ "$(sql "$D" "select count(*) from match_seats where total is not null")" = 6 ]'
check "every match ended early or at its bound (1..10 deals)" '[ "$(sql "$D" "select count(*) from (select match_id, count(*) n from deals group by 1) x where n between 1 and 10")" = 3 ]'
check "scores sum to zero" '[ "$(sql "$D" "select sum(total) from match_seats")" = 0 ]'
check "standings printed" 'grep -q "final standings" "$T/run.out"'
m=$(sql "$D" "select id from matches order by id limit 1")
check "a tournament transcript re-judges (from the record)" '"$ARB" replay --match "$m" --db "$D" --secret-file "$T/secret" | grep -q "every deal follows from seed + secret: verified"'
check "arbiter verify proves the tournament" '"$ARB" verify tiny --db "$D" --state "$T/s" | grep -q "3 transcripts: every deal follows from seed + secret: verified"'

# ---- what the loader knows of the game ------------------------------------
# (each refused only by `run`, or not at all, before: noted per check)
entrants() { for e in "$@"; do echo "  - {name: ${e%%:*}, command: $BOT high${e#*:}}"; done; }
{ echo "name: dup"; echo "game: highcard"; echo "deals: 10"; echo "duplicate: rotate"; echo "entrants:"
  entrants a: b:; } > "$T/dup.yaml"
"$ARB" check "$T/dup.yaml" > "$T/c.out" 2>&1
check "check accepts duplicate play for a game whose match may end early (played at tables)" '[ $? = 0 ]'
{ echo "name: dup"; echo "game: highcard"; echo "deals: 10"; echo "duplicate: swap"; echo "entrants:"
  entrants a: b:; } > "$T/dup.yaml"
"$ARB" check "$T/dup.yaml" > "$T/c.out" 2>&1
check "check refuses duplicate swap without two teams, at the key" \
  '[ $? = 1 ] && grep -q "^$T/dup.yaml:4:1: duplicate: swap swaps two teams. seats, and highcard has no two fixed teams" "$T/c.out"'
{ echo "name: pairs"; echo "game: highcard"; echo "rules: pairs"; echo "entrants:"
  entrants "a:, team: x" "b:, team: x" "c:, team: x" "d:, team: y"; } > "$T/t31.yaml"
"$ARB" check "$T/t31.yaml" > "$T/c.out" 2>&1
check "check refuses a team of three for sides of two, at its first member's team (was: ok, b partnered with d)" \
  '[ $? = 1 ] && grep -q "^$T/t31.yaml:5:[0-9]*: team x: 3 members, and a highcard side has 2 seats" "$T/c.out"'
{ echo "name: pairs"; echo "game: highcard"; echo "rules: pairs"; echo "entrants:"
  entrants "a:, team: x" "b:, team: y" "c:, team: x" "d:"; } > "$T/t21.yaml"
"$ARB" check "$T/t21.yaml" > "$T/c.out" 2>&1
check "check refuses a partnership tournament where one entrant has no team (was: ok)" \
  '[ $? = 1 ] && grep -q "^$T/t21.yaml:8:5: entrant d: no team, and highcard.s teams are fixed" "$T/c.out"'
{ echo "name: pairs"; echo "game: highcard"; echo "rules: pairs"; echo "entrants:"
  entrants "a:, team: x" "b:, team: y" "c:, team: x" "d:, team: y" "e:"; } > "$T/t0.yaml"
"$ARB" check "$T/t0.yaml" > "$T/c.out" 2>&1
check "check refuses an entrant without a team beside full teams, at its entry" \
  '[ $? = 1 ] && grep -q "^$T/t0.yaml:9:5: entrant e: no team" "$T/c.out"'
{ echo "name: pairs"; echo "game: highcard"; echo "rules: pairs"; echo "entrants:"
  entrants "a:, team: x" "b:, team: y" "c:, team: x" "d:, team: y"; } > "$T/t22.yaml"
check "check accepts two teams of two" '"$ARB" check "$T/t22.yaml" > /dev/null 2>&1'
{ echo "name: pairs"; echo "game: highcard"; echo "entrants:"; entrants "a:, team: x" b:; } > "$T/t2.yaml"
check "a team: in a game without fixed teams is only recorded" '"$ARB" check "$T/t2.yaml" > /dev/null 2>&1'
"$ARB" rules --game highcard --rules pairs > "$T/rules.out"
check "rules prints the preset itself, first (was: players=4 first, the game's text only)" \
  '[ "$(head -n 1 "$T/rules.out")" = "preset=pairs" ] && grep -qx "goal=7" "$T/rules.out"'
check "rules ends with a newline (was: none)" '[ "$(tail -c 1 "$T/rules.out" | od -An -c | tr -d " ")" = "\n" ]'
check "rules --format json has the preset (was: no \"preset\")" \
  '"$ARB" rules --game highcard --format json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"preset\"]==\"short\" and d[\"options\"][\"goal\"]==5, d"'
# a tournament every match of which is void (no transcript can be written:
# the state directory's transcripts is a file) is not a result
mkdir -m 700 "$T/sv"; : > "$T/sv/transcripts"
D2=$(newdb arb_void)
"$ARB" run "$T/tiny.yaml" --db "$D2" --state "$T/sv" --quiet --workers 1 --secret-file "$T/secret" > "$T/void.out" 2>&1
rc=$?
check "run exits 1 when every match was void (got $rc; was 0)" '[ $rc = 1 ]' || cat "$T/void.out" >&2
check "... saying so, without final standings (was: all-zero final standings)" \
  'grep -q "every match was void" "$T/void.out" && ! grep -q "final standings" "$T/void.out"'
check "... and the matches are void in the record" '[ "$(sql "$D2" "select count(*) filter (where state = '"'void'"') from matches")" = 3 ]'

echo "tiny-game: $pass passed, $fail failed"
[ "$fail" = 0 ]
