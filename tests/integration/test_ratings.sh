#!/usr/bin/env bash
# test_ratings.sh — ratings in the record (docs/ratings.md), end to end
# with `arbiter run` on a real PostgreSQL and real bots:
#   1. a Dou Dizhu round robin with `rating: openskill`: every finished match
#      rated once, in its result's transaction (history rows = matches x
#      seats); `arbiter ratings` ranks by mu - 3 sigma and recomputes every
#      rating from the history, equal to the stored one;
#   2. the same file and secret killed with SIGKILL midway and resumed: the
#      same ratings to the last digit, and no match rated twice;
#   3. a stored rating changed behind arbiter's back: `arbiter ratings`
#      fails, naming the difference;
#   4. a Da Bang tournament of teams with `rating: glicko2` (partners rated
#      from their team's place: equal ratings) and one with `rating: elo`;
#   5. `rating:` mistakes refused at FILE:LINE:COL.
# Usage: test_ratings.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" ratings-test
. "$(dirname "$0")/../lib/dabang_teams.sh"
test_pg_start 55452
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
run() { "$ARB" run "$1" --db "$2" --state "$3" --quiet --workers 2 --secret-file "$T/secret"; }
done_count() { sql "$1" "SELECT count(*) FROM matches WHERE state = 'done'" 2>/dev/null || echo 0; }

# ---- 1. a rated round robin -------------------------------------------------
rel=$(realpath --relative-to="$T" "$SRC")   # files: lie inside files_root, relative to the file
sed -e 's/^name: example round robin/name: rated rr\nrating: openskill/' -e "s#\.\./build/bots-sdk/c#$BOTS#g" \
    -e "s#\.\./#$rel/#g" -e 's#^files_root: \.\.$#files_root: /#' \
    "$SRC/config/example-roundrobin.yaml" > "$T/rr.yaml"
check "the rated file checks" '"$ARB" check "$T/rr.yaml" > /dev/null'
DA=$(newdb arb_ratings_a)
run "$T/rr.yaml" "$DA" "$T/a" > "$T/a.out" 2>&1
check "the run exits 0" '[ $? = 0 ]' || tail -n 20 "$T/a.out" >&2
n=$(done_count "$DA")
check "10 matches, each rated once: 30 history rows, 5 ratings of 6 games" \
  '[ "$n" = 10 ] && [ "$(sql "$DA" "SELECT count(*) FROM rating_history")" = 30 ] && [ "$(sql "$DA" "SELECT count(*) FROM ratings WHERE games = 6")" = 5 ]'
"$ARB" ratings "rated rr" --db "$DA" > "$T/a.ratings"
check "arbiter ratings exits 0 and finds the history equal" '[ $? = 0 ] && grep -q "recomputed from the record.s history (10 matches): equal" "$T/a.ratings"'
"$ARB" ratings "rated rr" --db "$DA" --format json > "$T/a.json"
check "ranked by mu - 3 sigma, openskill's defaults before any game" 'python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
r = d[\"ratings\"]; assert d[\"system\"] == \"openskill\" and d[\"model\"] == \"plackett-luce\" and len(r) == 5
assert all(abs(x[\"score\"] - (x[\"mu\"] - 3 * x[\"sigma\"])) < 1e-9 for x in r)
assert [x[\"score\"] for x in r] == sorted((x[\"score\"] for x in r), reverse=True)
assert d[\"recomputed\"][\"equal\"] and d[\"recomputed\"][\"matches\"] == 10
" "$T/a.json"'
check "the first update of every entrant starts from mu 25, sigma 25/3" \
  '[ "$(sql "$DA" "SELECT count(*) FROM rating_history h WHERE seq = (SELECT min(seq) FROM rating_history g WHERE g.entrant = h.entrant) AND mu_before = 25 AND abs(sigma_before - 25.0/3) < 1e-12")" = 5 ]'
check "sum of mu changes per match is near zero for a fair ranking update (winners up, losers down)" \
  '[ "$(sql "$DA" "SELECT count(*) FROM (SELECT match_id FROM rating_history GROUP BY match_id HAVING max(mu_after - mu_before) > 0 AND min(mu_after - mu_before) < 0) x")" -ge 9 ]'

by_seq=$(sql "$DA" "SELECT string_agg(match_id::text, chr(44) ORDER BY s) FROM (SELECT match_id, min(seq) s FROM rating_history GROUP BY match_id) x")
by_plan=$(sql "$DA" "SELECT string_agg(id::text, chr(44) ORDER BY round, tbl) FROM matches WHERE rated")
check "matches rated in the plan's order (round, table), whatever order their results came in ($by_seq)" \
  '[ "$(echo "$by_plan" | tr , "\n" | grep -c .)" = 10 ] && [ "$by_seq" = "$by_plan" ]'

# ---- 2. killed and resumed: the same ratings -----------------------------------
DB=$(newdb arb_ratings_b)
kills=0 tries=0
while [ $kills -lt 4 ] && [ $tries -lt 20 ] && [ "$(done_count "$DB")" -lt 8 ]; do
  tries=$((tries + 1))
  "$ARB" run "$T/rr.yaml" --db "$DB" --state "$T/b" --quiet --workers 2 --secret-file "$T/secret" > "$T/b.try$tries" 2>&1 &
  pid=$!
  target=$(( $(done_count "$DB") + 1 + RANDOM % 2 ))
  for i in $(seq 1 600); do
    [ "$(done_count "$DB")" -ge "$target" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill -9 "$pid" 2>/dev/null
  # only a kill that stopped a running run counts (status 128 + 9): one
  # that ended first was not killed, though kill answers for a zombie
  wait "$pid" 2>/dev/null
  [ $? = 137 ] || break
  kills=$((kills + 1))
done
before=$(done_count "$DB")
[ $kills -ge 1 ] || tail -n 5 "$T/b.try1" >&2
run "$T/rr.yaml" "$DB" "$T/b" > "$T/b.out" 2>&1
check "killed $kills times ($before of 10 done), the resumed run exits 0" '[ $? = 0 ] && [ $kills -ge 1 ] && [ "$before" -lt 10 ]'
"$ARB" ratings "rated rr" --db "$DB" --format json > "$T/b.json"
check "no match rated twice: 30 history rows, one per (match, entrant)" \
  '[ "$(sql "$DB" "SELECT count(*) FROM rating_history")" = 30 ] && [ "$(sql "$DB" "SELECT count(DISTINCT (match_id, entrant)) FROM rating_history")" = 30 ]'
python3 -c "import json,sys; [print(x) for x in json.load(open(sys.argv[1]))[\"ratings\"]]" "$T/a.json" > "$T/a.list"
python3 -c "import json,sys; [print(x) for x in json.load(open(sys.argv[1]))[\"ratings\"]]" "$T/b.json" > "$T/b.list"
diff "$T/a.list" "$T/b.list" >&2
check "the same ratings to the last digit as the uninterrupted run" \
  '[ "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"ratings\"])" "$T/a.json")" = "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"ratings\"])" "$T/b.json")" ]'

# ---- 3. a rating changed behind arbiter's back ------------------------------
sql "$DB" "UPDATE ratings SET mu = mu + 0.001 WHERE entrant = 0" > /dev/null
"$ARB" ratings "rated rr" --db "$DB" > /dev/null 2> "$T/tamper.err"
check "a stored rating that the history does not give fails arbiter ratings" \
  '[ $? = 1 ] && grep -q "the stored ratings differ" "$T/tamper.err"'

sql "$DB" "UPDATE ratings SET mu = mu - 0.001 WHERE entrant = 0" > /dev/null
"$ARB" ratings "rated rr" --db "$DB" > /dev/null 2>&1
check "the rating put back: arbiter ratings passes again" '[ $? = 0 ]'
sql "$DB" "UPDATE rating_history SET rank = 4 - rank WHERE match_id = (SELECT min(match_id) FROM rating_history)" > /dev/null
"$ARB" ratings "rated rr" --db "$DB" > /dev/null 2> "$T/tamper2.err"
check "a place changed in the history behind arbiter's back fails arbiter ratings" \
  '[ $? = 1 ] && grep -q "the stored ratings differ" "$T/tamper2.err"'

# ---- 4. teams: Glicko-2 and Elo -------------------------------------------------
for sys in glicko2 elo; do
  dabang_config "rated $sys" round-robin 4 3 "$BOTS" "$SRC" "$T" | sed "s/^format: round-robin/format: round-robin\nrating: $sys/" > "$T/$sys.yaml"
  DC=$(newdb "arb_ratings_$sys")
  run "$T/$sys.yaml" "$DC" "$T/$sys" > "$T/$sys.out" 2>&1
  check "$sys: the Da Bang round robin of 4 teams exits 0" '[ $? = 0 ]' || tail -n 20 "$T/$sys.out" >&2
  "$ARB" ratings "rated $sys" --db "$DC" --format json > "$T/$sys.json"
  check "$sys: 6 matches, 8 members rated 3 times each, equal on recomputation" 'python3 -c "
import json, sys; d = json.load(open(sys.argv[1]))
r = d[\"ratings\"]; assert d[\"system\"] == sys.argv[2] and len(r) == 8 and all(x[\"games\"] == 3 for x in r), r
assert d[\"recomputed\"][\"equal\"] and d[\"recomputed\"][\"matches\"] == 6, d[\"recomputed\"]
" "$T/$sys.json" "$sys"'
  check "$sys: partners share their team's place, so their ratings are equal" \
    '[ "$(sql "$DC" "SELECT count(*) FROM (SELECT e.team FROM ratings r JOIN entrants e ON e.tournament_id = r.tournament_id AND e.idx = r.entrant GROUP BY e.team HAVING max(r.mu) - min(r.mu) > 1e-9) x")" = 0 ]'
done

# ---- 5. mistakes --------------------------------------------------------------
printf 'name: t\nrating: trueskill\nentrants:\n  - {name: a, command: /bin/true}\n  - {name: b, command: /bin/true}\n  - {name: c, command: /bin/true}\n' > "$T/bad1.yaml"
"$ARB" check "$T/bad1.yaml" > "$T/bad1.out" 2>&1
check "rating: trueskill refused at 2:9" '[ $? = 1 ] && grep -q "bad1.yaml:2:9: unknown rating system \"trueskill\"" "$T/bad1.out"'
printf 'name: t\nrating: glicko2\nrating_model: bradley-terry\nentrants:\n  - {name: a, command: /bin/true}\n  - {name: b, command: /bin/true}\n  - {name: c, command: /bin/true}\n' > "$T/bad2.yaml"
"$ARB" check "$T/bad2.yaml" > "$T/bad2.out" 2>&1
check "rating_model without openskill refused at 3:15" '[ $? = 1 ] && grep -q "bad2.yaml:3:15: rating_model: a model of openskill.s, and the rating is glicko2" "$T/bad2.out"'

echo "ratings: $pass passed, $fail failed"
[ $fail = 0 ]
