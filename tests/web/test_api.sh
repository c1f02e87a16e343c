#!/usr/bin/env bash
# test_api.sh — the JSON API of `arbiter serve` (docs/web.md, "JSON API")
# route by route against its documentation, and hostile requests, on a real
# PostgreSQL with a real server:
#   1. a record: a finished round robin and a finished knockout of the C
#      example bots (one bot's stderr carries markup, quotes, backslashes,
#      control characters, a NUL and invalid UTF-8), a ladder with some
#      matches, an entrant and a tournament renamed in the record to
#      markup with quotes, backslashes and control characters (the loader
#      refuses such names; an older record or another tool may not), a
#      worker of the pool likewise;
#   2. `arbiter serve --listen 127.0.0.1:0`, then tests/web/api_check.py:
#      every documented route, strict JSON, its fields and types, equal to
#      the CLI's JSON (standings, matches, match-info, crosstable, ladder
#      list, status) and to the record (psql); hostile strings exactly;
#      hostile requests (routes, IDs, encodings, methods, sizes,
#      connections, silence); the record unchanged after it all;
#   3. `arbiter serve` with no --listen binds 127.0.0.1:8080, and the
#      server is not reachable on this host's other addresses.
# Usage: test_api.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" web-api
test_pg_start 55485
. "$(dirname "$0")/../lib/test_serve.sh"

# a bot whose stderr carries everything a JSON string must survive, then
# plays as the random bot
cat > "$T/loud_bot" <<'EOS'
#!/bin/sh
printf '<script>alert(1)</script> "q" \\ back\001\033[31m\177 bad:\377\300\257 nul:\000after & end\n' >&2
exec "$(dirname "$0")/random_bot" "$@"
EOS
chmod 755 "$T/loud_bot"
# the bot it execs travels with it (files:): a sandboxed bot sees its own
# program's files, not the test's directory (a private /tmp)
cp "$BOTS/random_bot" "$T/random_bot"
rr_file() {
  cat <<EOS
name: api rr
game: doudizhu
rules: standard
format: round-robin
deals: 1
seed: 3
files_root: /
entrants:
  - {name: loud, command: $T/loud_bot, files: [random_bot]}
  - {name: greedy-a, command: $BOTS/greedy_bot}
  - {name: random-a, command: $BOTS/random_bot}
  - {name: greedy-b, command: $BOTS/greedy_bot}
EOS
}
ko_file() {
  cat <<EOS
name: api ko
game: doudizhu
rules: standard
format: single-elimination
advance: 1
deals: 1
seed: 5
files_root: /
entrants:
EOS
  for i in 1 2 3 4 5 6 7 8 9; do
    b=random_bot; [ $((i % 2)) = 0 ] && b=greedy_bot
    printf '  - {name: k%d, command: %s/%s}\n' "$i" "$BOTS" "$b"
  done
}
ladder_file() {
  cat <<EOS
name: api ladder
game: doudizhu
format: ladder
deals: 1
seed: 7
rating: openskill
files_root: /
ladder:
  concurrent: 2
  provisional: 2
  matches: 6
entrants:
  - {name: lg, command: $BOTS/greedy_bot}
  - {name: lr, command: $BOTS/random_bot}
  - {name: lg2, command: $BOTS/greedy_bot}
  - {name: lr2, command: $BOTS/random_bot}
EOS
}
D=$(newdb arb_api)
rr_file > "$T/rr.yaml"; ko_file > "$T/ko.yaml"; ladder_file > "$T/l.yaml"
for f in rr ko l; do
  "$ARB" run "$T/$f.yaml" --db "$D" --state "$T/s" --quiet --workers 2 > "$T/$f.out" 2>&1
  check "the $f tournament runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/$f.out" >&2
done
RR=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'api rr'")
KO=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'api ko'")
LA=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'api ladder'")
# names no loader accepts, put in the record as another tool might
# (an entrant's name within ARB_MAX_BOT_NAME, 32 bytes: the standings hold no more)
SHORT="E'<script>alert(1)</script>\"''\\\\\x01\x1b'"
HOSTILE="E'<script>alert(1)</script> \"q\" ''s \\\\ \\x01\\x1b[31m\\x7f\\u202e & end'"
sql "$D" "UPDATE entrants SET name = $SHORT WHERE tournament_id = $RR AND name = 'greedy-a'"
sql "$D" "UPDATE entrants SET name = $SHORT WHERE tournament_id = $KO AND name = 'k2'"
sql "$D" "UPDATE tournaments SET name = $HOSTILE || ' cup' WHERE id = $KO"
sql "$D" "INSERT INTO workers (name, slots, state, last_seen) VALUES ($HOSTILE || ' w', 3, 'connected', now()), ('plain-w', 1, 'gone', now() - interval '1 hour')" ||
  bad "a worker can be put in the record"

start_serve "$D" serve
check "serve prints the port it bound" '[ -n "$PORT" ]' || cat "$T/serve.err" >&2

# the record's checksum: every table of the schema, every row
checksum() {
  for t in $(sql "$D" "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"); do
    echo "$t $(sql "$D" "SELECT count(*) || ' ' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '') FROM $t x")"
  done
}
checksum > "$T/before"
python3 "$(dirname "$0")/api_check.py" "$ARB" "$SRC" "$D" "$PORT" "$RR" "$KO" "$LA" > "$T/api.out" 2>&1
rc=$?
grep "^FAIL" "$T/api.out" >&2
grep -v "^FAIL" "$T/api.out" | tail -n 5 >&2
check "the API checks ($(tail -n 1 "$T/api.out"))" '[ $rc = 0 ]'
checksum > "$T/after"
check "the record is unchanged by the server: every table's rows and their checksum ($(wc -l < "$T/before") tables)" \
  '[ "$(wc -l < "$T/before")" -gt 10 ] && cmp -s "$T/before" "$T/after"' || diff "$T/before" "$T/after" >&2
check "serve is still up after it all" '[ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$PORT/api/pool")" = 200 ]'
# not reachable on this host's other addresses (when it has one)
OTHER=$(python3 -c "
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
try:
    s.connect(('192.0.2.1', 9)); a = s.getsockname()[0]
    print('' if a.startswith('127.') else a)
except OSError:
    print('')")
if [ -n "$OTHER" ]; then
  check "--listen 127.0.0.1:0 is not reachable on $OTHER" \
    '! curl -s -o /dev/null --max-time 3 "http://$OTHER:$PORT/api/pool"'
else
  echo "-- no address but loopback here: not checked that the server is unreachable from another"
fi
stop_serve

# no --listen: 127.0.0.1:8080, loopback only (the port may be taken here:
# then the refusal names the address it tried)
"$ARB" serve --db "$D" > "$T/def.out" 2> "$T/def.err" &
SERVE_PID=$!
for _ in $(seq 1 30); do grep -q "serving" "$T/def.out" 2>/dev/null && break; kill -0 "$SERVE_PID" 2>/dev/null || break; sleep 0.1; done
check "serve with no --listen binds 127.0.0.1:8080" \
  'grep -q "serving the record on http://127.0.0.1:8080/" "$T/def.out" || grep -q "127.0.0.1:8080" "$T/def.err"' ||
  cat "$T/def.out" "$T/def.err" >&2
stop_serve

echo "web-api: $pass passed, $fail failed"
[ "$fail" = 0 ]
