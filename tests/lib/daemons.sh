# daemons.sh — sourced by the shell tests of the daemons (test_daemons.sh,
# test_chaos.sh), after test_pg.sh, with T (the test's directory), ARB,
# SCHED and REF (the three binaries) set:
#   daemon_keys W...        key pairs sched and W... in $T, workers.txt
#                           naming each worker's key
#   start_sched DB STATE [ARG...]   the scheduler on $EP (metrics on $MP),
#                           heartbeats 200 ms x 5, leases of 8 s; log
#                           STATE.log; its pid in SPID
#   start_ref KEY SLOTS [ARG...]    a referee of key KEY, work directory
#                           KEY-dir, on ${REF_EP:-$EP}; log KEY.log; pid RPID
#   wait_done DB SECONDS [NAME]     the tournament (pool) finished in time
#   done_count DB           its matches done
#   rows_ok DB              every match once, done, with its seats and deals
#                           ($MATCHES matches of ${GAMES:-6} games), nothing else
#   same_deals DB           every deal (seating, seed, seats, scores, forfeit)
#                           equals the reference's (${REF_DB:-$LDB}), match by match
#   same_results DB         every seat's result (entrant, score, points, rank,
#                           forfeit) equals the reference's, match by match
#   metric HOST:PORT NAME   a value of a metrics endpoint
daemon_keys() {
  local k
  for k in sched "$@"; do "$ARB" keygen "$T/$k" > /dev/null; done
  # each key listed with its name: the identity the record knows its worker by
  for k in "$@"; do echo "$(head -1 "$T/$k.pub") $k"; done > "$T/workers.txt"
}
start_sched() {  # start_sched DB STATE [extra...]
  local d=$1 s=$2; shift 2
  "$SCHED" --db "$d" --state "$T/$s" --listen "$EP" --key "$T/sched" --worker-keys "$T/workers.txt" \
    --heartbeat-ms 200 --heartbeat-misses 5 --lease-s 8 --metrics "127.0.0.1:$MP" "$@" >> "$T/$s.log" 2>&1 &
  SPID=$!
}
start_ref() {  # start_ref KEY SLOTS [extra...] -> RPID
  local k=$1 n=$2; shift 2
  "$REF" --connect "${REF_EP:-$EP}" --server-key "$T/sched.pub" --key "$T/$k" --slots "$n" --workdir "$T/$k-dir" \
    --heartbeat-ms 200 --heartbeat-misses 5 --metrics "" "$@" >> "$T/$k.log" 2>&1 &
  RPID=$!
}
wait_done() {  # wait_done DB SECONDS [NAME]: the tournament finished
  local i
  for i in $(seq 1 $(($2 * 5))); do
    [ "$(sql "$1" "SELECT state FROM tournaments WHERE name = '${3:-pool}'" 2>/dev/null)" = done ] && return 0
    sleep 0.2
  done
  return 1
}
done_count() { sql "$1" "SELECT count(*) FROM matches WHERE state = 'done'" 2>/dev/null || echo 0; }
rows_ok() {  # every match once, done, with its seats and deals; nothing else
  local d=$1
  [ "$(sql "$d" "SELECT count(*), count(*) FILTER (WHERE state = 'done') FROM matches")" = "$MATCHES|$MATCHES" ] &&
  [ "$(sql "$d" "SELECT count(*) FROM match_seats")" = $((MATCHES * 3)) ] &&
  [ "$(sql "$d" "SELECT count(*) FROM deals")" = $((MATCHES * ${GAMES:-6})) ] &&
  [ "$(sql "$d" "SELECT count(*) FROM (SELECT round, tbl FROM matches GROUP BY 1, 2 HAVING count(*) > 1) x")" = 0 ]
}
deals_digest() {  # deals_digest DB: every deal of every match, in order, hashed
  sql "$1" "SELECT md5(string_agg(concat_ws('/', m.round, m.tbl, d.game, d.deal, d.seating, d.seed, d.seat_slots::text,
    d.scores::text, d.forfeit_slot), ',' ORDER BY m.round, m.tbl, d.game)) FROM deals d JOIN matches m ON m.id = d.match_id"
}
same_deals() {  # the deals equal the reference's, match by match
  [ "$(deals_digest "$1")" = "$(deals_digest "${REF_DB:-$LDB}")" ]
}
results_digest() {  # results_digest DB: every seat's result (entrant, score, points, rank, forfeit), in order, hashed
  sql "$1" "SELECT md5(string_agg(concat_ws('/', m.round, m.tbl, s.slot, e.name, s.total, s.points, s.rank, s.forfeited),
    ',' ORDER BY m.round, m.tbl, s.slot)) FROM match_seats s JOIN matches m ON m.id = s.match_id
    JOIN entrants e ON e.tournament_id = m.tournament_id AND e.idx = s.entrant"
}
same_results() {  # every seat's result equals the reference's, match by match
  [ "$(results_digest "$1")" = "$(results_digest "${REF_DB:-$LDB}")" ]
}
metric() {  # metric HOST:PORT NAME -> its value
  python3 -c "import sys,urllib.request
for l in urllib.request.urlopen('http://'+sys.argv[1]+'/metrics', timeout=5).read().decode().splitlines():
    if l.split(' ')[0] == sys.argv[2]: print(l.split(' ')[1])" "$1" "$2" 2>/dev/null
}
