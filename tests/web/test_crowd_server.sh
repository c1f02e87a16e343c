#!/usr/bin/env bash
# test_crowd_server.sh — `arbiter serve` with a crowd (issue 29; docs/web.md,
# "Serving a crowd"), on a real PostgreSQL with real sockets:
#   1. a record: a finished round robin of three greedy bots playing one
#      long match (its transcript some megabytes of JSON), and a finished
#      round robin of four;
#   2. `arbiter serve --trusted-proxy 127.0.0.9`, then
#      tests/web/crowd_check.py: one address (127.0.0.2) hammering the long
#      transcript on 16 connections while another (127.0.0.3) fetches the
#      front page (each answer 200 and fast; p50/max printed); the hammering
#      address answered 429 with Retry-After, never closed silently; a
#      finished tournament's stream ends with `event: end`; a client
#      sending a byte a second cut within the header deadline; X-Forwarded-For
#      ignored from an untrusted peer, believed from the trusted proxy; ETag
#      and 304, the immutable transcript; more connections than the busy
#      threshold, each answered with a status; the long transcript streamed
#      (chunked, no Content-Length; byte for byte arbiter replay --json's
#      lines; the server's RSS not grown by its JSON while two clients read
#      it slowly; 304 to its ETag; HEAD headers only), with its time to the
#      first byte and the server's RSS printed.
# Usage: test_crowd_server.sh ARBITER BOTS_DIR [DEALS]
set -u
ARB=$1 BOTS=$2 DEALS=${3:-400}
. "$(dirname "$0")/../lib/test_sh.sh" web-crowd
test_pg_start 55487
. "$(dirname "$0")/../lib/test_serve.sh"

cat > "$T/long.yaml" <<EOS
name: crowd long
game: doudizhu
rules: standard
format: round-robin
deals: $DEALS
seed: 11
entrants:
  - {name: g1, command: $BOTS/greedy_bot}
  - {name: g2, command: $BOTS/greedy_bot}
  - {name: r3, command: $BOTS/random_bot}
EOS
cat > "$T/rr.yaml" <<EOS
name: crowd rr
game: doudizhu
rules: standard
format: round-robin
deals: 1
seed: 3
entrants:
  - {name: a, command: $BOTS/greedy_bot}
  - {name: b, command: $BOTS/random_bot}
  - {name: c, command: $BOTS/greedy_bot}
  - {name: d, command: $BOTS/random_bot}
EOS
D=$(newdb arb_crowd)
for f in long rr; do
  "$ARB" run "$T/$f.yaml" --db "$D" --state "$T/s" --quiet --workers 2 > "$T/$f.out" 2>&1
  check "the $f tournament runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/$f.out" >&2
done
LONG=$(sql "$D" "SELECT min(m.id) FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE t.name = 'crowd long'")
RR=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'crowd rr'")
SMALL=$(sql "$D" "SELECT min(m.id) FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE t.name = 'crowd rr'")
RAW=$(sql "$D" "SELECT t.raw_size FROM transcripts t JOIN matches m ON m.digest = t.digest WHERE m.id = $LONG")

"$ARB" serve --db "$D" --listen 127.0.0.1:0 --trusted-proxy 127.0.0.9 --trusted-proxy 10.0.0.0/8 \
  > "$T/serve.out" 2> "$T/serve.err" &
SERVE_PID=$!
for _ in $(seq 1 50); do grep -q "serving" "$T/serve.out" 2>/dev/null && break; sleep 0.1; done
PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/serve.out")
check "serve --trusted-proxy starts and prints its port" '[ -n "$PORT" ]' || cat "$T/serve.err" >&2

python3 "$(dirname "$0")/crowd_check.py" "$PORT" "$LONG" "$RR" "$SERVE_PID" "$ARB" "$D" "$RAW" "$SMALL" > "$T/crowd.out" 2>&1
rc=$?
cat "$T/crowd.out" >&2
check "the crowd checks ($(tail -n 1 "$T/crowd.out"))" '[ $rc = 0 ]'
check "serve is still up after it all" '[ "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$PORT/api/pool")" = 200 ]'

# a dispute voids a finished match whose (short) transcript serve keeps in
# its cache: the plain route must not go on answering the old transcript
# (it was cached for good under the route alone, and sent immutable)
U="http://127.0.0.1:$PORT/api/m/$SMALL/transcript"
curl -s "$U" > /dev/null; curl -s "$U" > "$T/before.ndjson"
"$ARB" dispute open "$SMALL" --reason "crowd test" --db "$D" > /dev/null 2>&1 &&
  "$ARB" dispute resolve "$SMALL" --void --reason "crowd test" --db "$D" > "$T/void.out" 2>&1
check "a dispute voids the short match" '[ $? = 0 ]' || cat "$T/void.out" >&2
after=$(curl -s -o "$T/after.ndjson" -w "%{http_code}" "$U")
check "its transcript was served before ($(wc -c < "$T/before.ndjson") bytes) and is not served once voided ($after)" \
  '[ -s "$T/before.ndjson" ] && [ "$after" != 200 ] && ! cmp -s "$T/before.ndjson" "$T/after.ndjson"'
stop_serve

echo "web-crowd: $pass passed, $fail failed"
[ "$fail" = 0 ]
