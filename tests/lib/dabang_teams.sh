# dabang_teams.sh — sourced by the end-to-end tests of Da Bang team
# tournaments (test_dabang_tournament.sh, test_dabang_daemons.sh): a team
# tournament file, and what the record says about a bracket of two-sided
# matches (who lost each match, each team's losses, the bracket's digest).
# Needs sql (test_pg.sh).

# dabang_config NAME FORMAT TEAMS DEALS BOTS SRC DIR: a Da Bang tournament
# of TEAMS teams (up to 8) on stdout, to be written in DIR. C teams (two
# greedy, two random, a greedy and a random with names of their own) and
# Python teams whose program is the script and the SDK package beside it
# (files relative to DIR, inside files_root /), two teams seeded.
dabang_config() {
  local name=$1 format=$2 n=$3 deals=$4 bots=$5 src=$6 dir=$7 rel py
  rel=$(realpath --relative-to="$dir" "$src")
  py="[$rel/bots-sdk/python/arbiter_bot/__init__.py, $rel/bots-sdk/python/arbiter_bot/core.py,"
  py="$py $rel/bots-sdk/python/arbiter_bot/doudizhu.py, $rel/bots-sdk/python/arbiter_bot/dabang.py]"
  echo "name: $name"
  echo "game: dabang"
  echo "format: $format"
  echo "deals: $deals"
  echo "seed: 29"
  echo "clock: {move_ms: 3000, bank_ms: 20000, startup_ms: 10000}"
  echo "policy: {on_fault: forfeit-match, strikes: 3}"
  echo "files_root: /"
  echo "entrants:"
  local teams=(
    "greedy|seed: 1|$bots/dabang_greedy|$bots/dabang_greedy"
    "random||$bots/dabang_random|$bots/dabang_random"
    "mixed||{name: mixed-g, command: $bots/dabang_greedy}|{name: mixed-r, command: $bots/dabang_random}"
    "py-greedy|seed: 2|{command: $src/bots-sdk/python/dabang_greedy_bot.py, files: $py}|{command: $src/bots-sdk/python/dabang_greedy_bot.py, files: $py}"
    "greedy-2||$bots/dabang_greedy|$bots/dabang_greedy"
    "random-2||$bots/dabang_random|$bots/dabang_random"
    "py-random||{command: $src/bots-sdk/python/dabang_random_bot.py, files: $py}|{command: $src/bots-sdk/python/dabang_random_bot.py, files: $py}"
    "mixed-2||{name: mixed-2-r, command: $bots/dabang_random}|{name: mixed-2-g, command: $bots/dabang_greedy}"
  )
  local i t tname tseed m1 m2
  for i in $(seq 0 $((n - 1))); do
    t=${teams[$i]}
    IFS='|' read -r tname tseed m1 m2 <<< "$t"
    echo "  - name: $tname"
    [ -n "$tseed" ] && echo "    $tseed"
    echo "    members:"
    echo "      - $m1"
    echo "      - $m2"
  done
}

# The loser of every finished match, in the bracket's order of a table's
# sides (rank, then the team's score, then the side: the order the
# scheduler reads a round's results in): rows "round|tbl|winner|loser".
dabang_results() {
  sql "$1" "WITH o AS (SELECT m.round, m.tbl, t.name,
              row_number() OVER (PARTITION BY m.id ORDER BY sd.rank, sd.total DESC, sd.side) AS place
            FROM matches m JOIN match_sides sd ON sd.match_id = m.id
            JOIN teams t ON t.idx = sd.team AND t.tournament_id = m.tournament_id WHERE m.state = 'done')
            SELECT w.round, w.tbl, w.name, l.name FROM o w JOIN o l ON l.round = w.round AND l.tbl = w.tbl
            WHERE w.place = 1 AND l.place = 2 ORDER BY 1, 2"
}
# Each team's losses: rows "team|losses", by name.
dabang_losses() {
  sql "$1" "WITH o AS (SELECT sd.team, m.tournament_id,
              row_number() OVER (PARTITION BY m.id ORDER BY sd.rank, sd.total DESC, sd.side) AS place
            FROM matches m JOIN match_sides sd ON sd.match_id = m.id WHERE m.state = 'done')
            SELECT t.name, count(o.team) FILTER (WHERE o.place = 2) FROM teams t
            LEFT JOIN o ON o.team = t.idx AND o.tournament_id = t.tournament_id GROUP BY t.name ORDER BY t.name"
}
# One digest of the bracket (every match's round, table, winner and
# loser) and of every deal's scores, to compare two records.
dabang_digest() {
  { dabang_results "$1"
    sql "$1" "SELECT m.round || '/' || m.tbl || '/' || d.game || ':' || d.scores::text FROM deals d
              JOIN matches m ON m.id = d.match_id ORDER BY m.round, m.tbl, d.game"
  } | md5sum | cut -c1-32
}
# Partners sit opposite: at every match seats 0 and 2 hold one team's
# members, 1 and 3 the other's, and the two teams differ. Prints the
# matches that break it (none: empty).
dabang_bad_seating() {
  sql "$1" "SELECT m.id FROM matches m JOIN match_seats s ON s.match_id = m.id
            JOIN entrants e ON e.idx = s.entrant AND e.tournament_id = m.tournament_id
            GROUP BY m.id HAVING count(*) <> 4
              OR count(DISTINCT e.idx) <> 4
              OR count(DISTINCT e.team_idx) FILTER (WHERE s.slot IN (0, 2)) <> 1
              OR count(DISTINCT e.team_idx) FILTER (WHERE s.slot IN (1, 3)) <> 1
              OR count(DISTINCT e.team_idx) <> 2"
}
