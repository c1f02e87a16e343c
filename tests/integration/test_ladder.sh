#!/usr/bin/env bash
# test_ladder.sh — a ladder end to end (docs/ladders.md) on a real
# PostgreSQL, with real bots and `arbiter run`:
#   1. a Dou Dizhu ladder runs until stopped; three entries join while it
#      runs: two pass their validation match (copies of themselves) and are
#      rated, one that exits at once is rejected with the verdict shown;
#      one retires and starts no match after; a new version with --replace
#      is validated, rated, and retires the version before;
#   2. the run is killed with SIGKILL twice and resumed: no rating update
#      lost or applied twice (one history row per entry per rated match,
#      every finished ladder match rated once, validation matches never),
#      every rating recomputed from the history equal to the stored one,
#      every matchmaking choice recorded with its seed;
#   3. the leaderboard: ranked by mu - 3 sigma, provisional under N games,
#      JSON and table agree; an entry's history; join mistakes refused;
#      an entry whose program changed after it joined is suspended;
#   4. a Da Bang ladder: each entry sits both seats of its side, rated once
#      per match as a team;
#   5. the same ladder on a distributed pool (referees over CURVE tcp) with
#      its scheduler killed by SIGKILL and restarted: nothing rated twice.
# Usage: test_ladder.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" ladder-test
test_pg_start 55462
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
pids=()
cleanup_ladder() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; pkill -f "referee --connect tcp://127.0.0.1:${PORT:-0}" 2>/dev/null; }
trap 'cleanup_ladder; cleanup' EXIT

ladder_file() {   # ladder_file NAME GAME MATCHES: a ladder of the C example bots
  cat <<EOF
name: $1
game: $2
format: ladder
deals: 2
duplicate: rotate
seed: 7
rating: openskill
files_root: /
clock: {move_ms: 1000, bank_ms: 10000}
policy: {on_fault: autoplay, strikes: 3}
ladder:
  concurrent: 2
  provisional: 5
  matches: $3
entrants:
EOF
  if [ "$2" = dabang ]; then
    printf '  - {name: greedy, command: %s/dabang_greedy}\n  - {name: random, command: %s/dabang_random}\n' "$BOTS" "$BOTS"
  else
    printf '  - {name: greedy, command: %s/greedy_bot}\n  - {name: random, command: %s/random_bot}\n' "$BOTS" "$BOTS"
    printf '  - {name: greedy-2, command: %s/greedy_bot}\n' "$BOTS"
  fi
}
start() {   # start FILE DB STATE [more options]: arbiter run in the background
  local f=$1 d=$2 s=$3; shift 3
  "$ARB" run "$f" --db "$d" --state "$s" --quiet --workers 2 --secret-file "$T/secret" "$@" >> "$s.out" 2>&1 &
  pid=$!; pids+=("$pid")
}
wait_for() {   # wait_for SECONDS SQL-COUNT-QUERY AT-LEAST
  for _ in $(seq 1 $(($1 * 10))); do
    [ "$(sql "$DB" "$2" 2>/dev/null || echo 0)" -ge "$3" ] && return 0
    sleep 0.1
  done
  return 1
}
entry() { sql "$DB" "SELECT le.$2 FROM ladder_entries le JOIN entrants e ON e.tournament_id = le.tournament_id AND e.idx = le.entrant WHERE e.name = '$1'"; }
J() { "$ARB" ladder join L "$@" --db "$DB"; }
ladder_matches="SELECT count(*) FROM matches m JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round WHERE r.stage = 'ladder'"

# ---- 1. entries come and go while it runs -------------------------------------
ladder_file L doudizhu 0 > "$T/l.yaml"
check "the ladder file checks" '"$ARB" check "$T/l.yaml" > /dev/null'
DB=$(newdb arb_ladder_a)
start "$T/l.yaml" "$DB" "$T/a"
check "the ladder starts playing its file's entries" "wait_for 60 \"$ladder_matches AND m.state = 'done'\" 3"
mkdir -p "$T/carol" "$T/dave"; cp "$BOTS/greedy_bot" "$T/carol/bot"; cp "$BOTS/random_bot" "$T/dave/bot"
(cd "$T/carol" && J carol --command ./bot > "$T/j1.out" 2>&1)
check "carol joins as version 1, her program recorded by digest" \
  '[ $? = 0 ] && grep -q "carol joined L as version 1; program [0-9a-f]\{64\}" "$T/j1.out"'
(cd "$T/dave" && J dave --command ./bot > /dev/null 2>&1)
J eve --command "$SRC/tests/bots/exit_at_once.sh" > /dev/null 2>&1
check "three entries joined while it runs" '[ "$(sql "$DB" "SELECT count(*) FROM ladder_entries WHERE status = '"'validating'"' OR validation_match IS NOT NULL")" -ge 3 ]'
check "carol and dave validated" "wait_for 60 \"SELECT count(*) FROM ladder_entries le JOIN entrants e ON e.idx = le.entrant AND e.tournament_id = le.tournament_id WHERE e.name IN ('carol', 'dave') AND le.status = 'active'\" 2"
check "eve (exits at once) rejected, the verdict naming its match and transcript" \
  "wait_for 60 \"SELECT count(*) FROM ladder_entries WHERE status = 'rejected'\" 1 && entry eve verdict | grep -q 'rejected by match [0-9]*: [0-9]* penalt.*its transcript: arbiter replay --match [0-9]*'"
check "each validation match seats the entry alone (copies of itself) and is never rated" \
  '[ "$(sql "$DB" "SELECT count(*) FROM ladder_entries le JOIN match_seats s ON s.match_id = le.validation_match WHERE s.entrant <> le.entrant")" = 0 ] && [ "$(sql "$DB" "SELECT count(*) FROM rating_history h JOIN ladder_entries le ON le.validation_match = h.match_id")" = 0 ]'
check "carol and dave play rated ladder matches" "wait_for 60 \"SELECT count(*) FROM ratings r JOIN entrants e ON e.idx = r.entrant AND e.tournament_id = r.tournament_id WHERE e.name IN ('carol', 'dave') AND r.games >= 2\" 2"
check "eve never plays a ladder match" '[ "$(sql "$DB" "SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id JOIN rounds r ON r.round = m.round AND r.tournament_id = m.tournament_id JOIN entrants e ON e.idx = s.entrant AND e.tournament_id = m.tournament_id WHERE r.stage = '"'ladder'"' AND e.name = '"'eve'"'")" = 0 ]'
"$ARB" ladder retire L dave --db "$DB" > "$T/r.out" 2>&1
check "dave retires" '[ $? = 0 ] && grep -q "dave retired from L" "$T/r.out" && [ "$(entry dave status)" = retired ]'
"$ARB" ladder retire L dave --db "$DB" > /dev/null 2>&1
check "retiring him again: exit 3, nothing changes" '[ $? = 3 ]'
(cd "$T/carol" && J carol --command ./bot --replace > "$T/j2.out" 2>&1)
check "carol joins again: carol.v2, linked to carol" \
  '[ $? = 0 ] && grep -q "carol.v2 joined L as version 2" "$T/j2.out" && [ "$(entry carol.v2 previous)" = "$(entry carol entrant)" ]'
check "carol.v2 validated, carol retired as replaced" \
  "wait_for 60 \"SELECT count(*) FROM ladder_entries WHERE status = 'retired' AND verdict = 'replaced by version 2'\" 1 && [ \"\$(entry carol.v2 status)\" = active ]"
check "carol.v2 rated" "wait_for 60 \"SELECT count(*) FROM ratings r JOIN entrants e ON e.idx = r.entrant AND e.tournament_id = r.tournament_id WHERE e.name = 'carol.v2' AND r.games >= 1\" 1"

# ---- 2. SIGKILL and resume ---------------------------------------------------------
for k in 1 2; do
  n=$(sql "$DB" "$ladder_matches AND m.state = 'done'")
  wait_for 60 "$ladder_matches AND m.state = 'done'" $((n + 2))
  kill -9 "$pid"; wait "$pid" 2>/dev/null
  start "$T/l.yaml" "$DB" "$T/a"
done
n=$(sql "$DB" "$ladder_matches AND m.state = 'done'")
check "resumed twice after SIGKILL, the ladder plays on" "wait_for 60 \"$ladder_matches AND m.state = 'done'\" $((n + 3))" || tail -n 30 "$T/a.out" >&2
kill -INT "$pid"; wait "$pid"
check "Ctrl-C stops it with the resume message and the leaderboard so far" \
  '[ $? = 130 ] && grep -q "run the same command to resume" "$T/a.out" && grep -q "leaderboard so far" "$T/a.out"'
retired_at=$(entry dave retired_at)
check "dave started no ladder match after he retired" \
  '[ "$(sql "$DB" "SELECT count(*) FROM rounds r JOIN matches m ON m.round = r.round AND m.tournament_id = r.tournament_id JOIN match_seats s ON s.match_id = m.id JOIN entrants e ON e.idx = s.entrant AND e.tournament_id = m.tournament_id WHERE e.name = '"'dave'"' AND r.created_at > '"'$retired_at'"'")" = 0 ]'
check "one history row per entry per rated match, and a rated match has three" \
  '[ "$(sql "$DB" "SELECT count(*) FROM rating_history")" = "$(sql "$DB" "SELECT count(DISTINCT (match_id, entrant)) FROM rating_history")" ] && [ "$(sql "$DB" "SELECT count(*) FROM (SELECT match_id FROM rating_history GROUP BY 1 HAVING count(*) <> 3) x")" = 0 ]'
check "every rated ladder match has its history, and no other match has any" \
  '[ "$(sql "$DB" "SELECT count(DISTINCT match_id) FROM rating_history")" = "$(sql "$DB" "$ladder_matches AND m.rated")" ] && [ "$(sql "$DB" "$ladder_matches AND m.rated AND m.state <> '"'done'"'")" = 0 ]'
check "every finished ladder match is rated but those waiting for an earlier one" \
  '[ "$(sql "$DB" "$ladder_matches AND m.state = '"'done'"' AND NOT m.rated AND m.round < (SELECT coalesce(min(round), 1 << 30) FROM matches WHERE state IN ('"'pending'"', '"'leased'"'))")" = 0 ]'
check "each entry's games are its history rows" \
  '[ "$(sql "$DB" "SELECT count(*) FROM ratings r WHERE games <> (SELECT count(*) FROM rating_history h JOIN matches m ON m.id = h.match_id WHERE h.entrant = r.entrant AND m.tournament_id = r.tournament_id)")" = 0 ]'
check "every ladder round records its matchmaking choice with its seed" \
  '[ "$(sql "$DB" "SELECT count(*) FROM rounds WHERE stage = '"'ladder'"' AND note !~ '"'^seed [0-9]+: anchor '"'")" = 0 ] && [ "$(sql "$DB" "SELECT count(*) FROM rounds WHERE stage = '"'ladder'"'")" -ge 10 ]'
"$ARB" ratings L --db "$DB" > "$T/ratings.out" 2>&1
check "arbiter ratings recomputes every rating from the history: equal" '[ $? = 0 ] && grep -q ": equal" "$T/ratings.out"'

# ---- 3. the leaderboard -------------------------------------------------------------
"$ARB" ladder list L --db "$DB" --format json > "$T/board.json"
"$ARB" ladder list L --db "$DB" --all > "$T/board.txt"
check "the leaderboard: active entries by mu - 3 sigma, provisional under 5 games, ranks 1..n" 'python3 -c "
import json, sys; d = json.load(open(sys.argv[1])); e = d[\"entries\"]
act = [x for x in e if x[\"status\"] == \"active\"]
names = sorted(x[\"name\"] for x in act)
assert names == [\"carol.v2\", \"greedy\", \"greedy-2\", \"random\"], names
assert [x[\"rank\"] for x in act] == list(range(1, len(act) + 1))
assert [x[\"score\"] for x in act] == sorted((x[\"score\"] for x in act), reverse=True)
assert all(abs(x[\"score\"] - (x[\"mu\"] - 3 * x[\"sigma\"])) < 1e-9 for x in act)
assert all(x[\"provisional\"] == (x[\"games\"] < 5) for x in e)
assert not any(x[\"name\"] in (\"dave\", \"carol\") for x in e)   # retired: --all only
assert [x[\"status\"] for x in e if x[\"name\"] == \"eve\"] == [\"rejected\"]   # rejected: listed, with why
" "$T/board.json"'
check "--all lists the retired with their verdicts, and the rejected" \
  'grep -Eq "^- +dave .*retired: retired [0-9-]+" "$T/board.txt" && grep -Eq "^- +eve .*rejected: rejected by match" "$T/board.txt" && grep -Eq "^- +carol .*retired: replaced by version 2" "$T/board.txt"'
"$ARB" ladder history L carol.v2 --db "$DB" --format json > "$T/hist.json"
check "carol.v2's history: one row per rated match, the last equal to her rating" 'python3 -c "
import json, sys; h = json.load(open(sys.argv[1]))[\"history\"]; b = json.load(open(sys.argv[2]))[\"entries\"]
me = [x for x in b if x[\"name\"] == \"carol.v2\"][0]
assert len(h) == me[\"games\"] and abs(h[-1][\"mu\"] - me[\"mu\"]) < 1e-9 and abs(h[-1][\"sigma\"] - me[\"sigma\"]) < 1e-9
" "$T/hist.json" "$T/board.json"'
J "x.v2" --command "$BOTS/random_bot" > "$T/e1" 2>&1
check "a name that looks like a version is refused" '[ $? = 2 ] && grep -q "not ending in .vN" "$T/e1"'
J zed --command "$T/nope" > "$T/e2" 2>&1
check "a command that does not exist is refused at join" '[ $? = 2 ] && grep -q "nope" "$T/e2"'
"$ARB" ladder join nosuch zed --command "$BOTS/random_bot" --db "$DB" > "$T/e3" 2>&1
check "an unknown ladder: exit 3" '[ $? = 3 ] && grep -q "no ladder named" "$T/e3"'
J "" --command "$BOTS/random_bot" > /dev/null 2>&1
check "an empty name is refused" '[ $? = 2 ]'
J "$(printf 'n%.0s' $(seq 1 65))" --command "$BOTS/random_bot" > /dev/null 2>&1
check "a name of 65 characters is refused" '[ $? = 2 ]'
J "$(printf 'a\033[2Jb')" --command "$BOTS/random_bot" > "$T/e4" 2>&1
check "a name with escape bytes is refused, and not echoed raw" '[ $? = 2 ] && ! grep -q "$(printf "\033")" "$T/e4"'
mkdir -p "$T/in" "$T/out"; cp "$BOTS/random_bot" "$T/in/bot"; echo secret > "$T/out/weights"
ln -s "$T/out/weights" "$T/in/link"
(cd "$T/in" && J yan --command ./bot --files ../out/weights > "$T/e5" 2>&1)
check "--files outside the join's directory is refused" '[ $? = 2 ]'
(cd "$T/in" && J yan --command ./bot --files link > "$T/e6" 2>&1)
check "--files through a symlink that leads outside is refused" '[ $? = 2 ]'
check "nothing of them was recorded" '[ -z "$(entry yan status)" ]'
mkdir -p "$T/zed"; cp "$BOTS/random_bot" "$T/zed/bot"
(cd "$T/zed" && J zed --command ./bot > /dev/null 2>&1)
echo "changed" >> "$T/zed/bot"   # the program changes after it joined, before the ladder runs again
start "$T/l.yaml" "$DB" "$T/a"
check "an entry whose program changed since it joined is suspended, not run" \
  "wait_for 30 \"SELECT count(*) FROM ladder_entries WHERE status = 'suspended'\" 1 && entry zed verdict | grep -q 'files changed since it joined'"
kill -INT "$pid"; wait "$pid"
check "zed played nothing" '[ -z "$(entry zed validation_match)" ]'

# ---- 4. Da Bang: an entry sits both seats of its side ---------------------------------
ladder_file D dabang 6 > "$T/d.yaml"
DB=$(newdb arb_ladder_d)
"$ARB" run "$T/d.yaml" --db "$DB" --state "$T/d" --quiet --workers 2 --secret-file "$T/secret" > "$T/d.out" 2>&1
check "a Da Bang ladder of 6 matches finishes" '[ $? = 0 ] && grep -q "final leaderboard" "$T/d.out"' || tail -5 "$T/d.out" >&2
check "each Da Bang ladder match: seats 0 and 2 one entry, 1 and 3 the other" \
  '[ "$(sql "$DB" "SELECT count(*) FROM matches m WHERE (SELECT entrant FROM match_seats WHERE match_id = m.id AND slot = 0) = (SELECT entrant FROM match_seats WHERE match_id = m.id AND slot = 2) AND (SELECT entrant FROM match_seats WHERE match_id = m.id AND slot = 1) = (SELECT entrant FROM match_seats WHERE match_id = m.id AND slot = 3) AND (SELECT entrant FROM match_seats WHERE match_id = m.id AND slot = 0) <> (SELECT entrant FROM match_seats WHERE match_id = m.id AND slot = 1)")" = 6 ]'
check "rated once per match per entry: 12 history rows, 6 games each" \
  '[ "$(sql "$DB" "SELECT count(*) FROM rating_history")" = 12 ] && [ "$(sql "$DB" "SELECT string_agg(games::text, chr(32)) FROM ratings")" = "6 6" ]'
"$ARB" ratings D --db "$DB" > /dev/null 2>&1
check "the Da Bang ladder's ratings recompute equal" '[ $? = 0 ]'
"$ARB" ladder join D late --command "$BOTS/dabang_random" --db "$DB" > "$T/late" 2>&1
check "joining a ladder that is over is refused" '[ $? = 2 ] && grep -q "the ladder is over" "$T/late"'
printf 'name: cup\nentrants:\n  - {name: a, command: %s}\n  - {name: b, command: %s}\n  - {name: c, command: %s}\n' \
  "$BOTS/random_bot" "$BOTS/random_bot" "$BOTS/random_bot" > "$T/cup.yaml"
"$ARB" submit "$T/cup.yaml" --db "$DB" > /dev/null 2>&1
"$ARB" ladder join cup zed --command "$BOTS/random_bot" --db "$DB" > "$T/cup.err" 2>&1
check "joining a tournament that is not a ladder is refused (exit 3)" '[ $? = 3 ] && grep -q "not a ladder" "$T/cup.err"'

# ---- 5. the distributed pool, its scheduler killed ---------------------------------------
cd "$T" || exit 2
for k in sched w1 w2; do "$ARB" keygen "$k" > /dev/null; done
for k in w1 w2; do echo "$(head -1 $k.pub) $k"; done > workers.txt
PORT=$((20000 + RANDOM % 20000))
for k in w1 w2; do
  "$ARB" referee --connect "tcp://127.0.0.1:$PORT" --server-key sched.pub --key "$k" --slots 1 --workdir "$k-dir" --metrics "" 2> "$k.log" &
  pids+=("$!")
done
ladder_file R doudizhu 24 > "$T/r.yaml"
DB=$(newdb arb_ladder_r)
remote() { start "$T/r.yaml" "$DB" "$T/r" --listen "tcp://127.0.0.1:$PORT" --key sched --worker-keys workers.txt --workers 0; }
remote
wait_for 60 "$ladder_matches AND m.state = 'done'" 4
(cd "$T/carol" && "$ARB" ladder join R carol --command ./bot --db "$DB" > /dev/null 2>&1)
wait_for 60 "$ladder_matches AND m.state = 'done'" 8
kill -9 "$pid"; wait "$pid" 2>/dev/null
remote
wait "$pid"
check "the distributed ladder, its scheduler killed once, plays its 24 matches" \
  '[ "$(sql "$DB" "$ladder_matches AND m.state = '"'done'"'")" = 24 ] && grep -q "final leaderboard" "$T/r.out"' || tail -5 "$T/r.out" >&2
check "on the pool too: every ladder match rated once (3 rows each), nothing twice" \
  '[ "$(sql "$DB" "SELECT count(*) FROM rating_history")" = 72 ] && [ "$(sql "$DB" "SELECT count(DISTINCT (match_id, entrant)) FROM rating_history")" = 72 ]'
check "both referees played, and carol joined and played there" \
  '[ "$(sql "$DB" "SELECT count(DISTINCT leased_by) FROM matches WHERE state = '"'done'"'")" = 2 ] && [ "$(entry carol status)" = active ] && [ "$(sql "$DB" "SELECT games FROM ratings r JOIN entrants e ON e.idx = r.entrant AND e.tournament_id = r.tournament_id WHERE e.name = '"'carol'"'")" -ge 1 ]'
"$ARB" ratings R --db "$DB" > /dev/null 2>&1
check "the pool's ratings recompute equal" '[ $? = 0 ]'

echo "ladder: $pass passed, $fail failed"
[ $fail = 0 ]
