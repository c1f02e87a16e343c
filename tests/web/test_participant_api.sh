#!/usr/bin/env bash
# test_participant_api.sh — the participant API (docs/api.md) against a real
# server, PostgreSQL and a running ladder: accounts add/list/revoke/rotate;
# a participant uploads a Python bot (a tar archive) to a running ladder,
# it validates and plays; wrong, revoked and rotated-away tokens are 401 and
# record nothing; another's logs and transcripts are 404; 413 from the
# Content-Length before the body is sent; bad archives 400 naming the
# entry; 411, 415, 429; an audit row for every write; the web's database
# role cannot UPDATE a table; HTTPS with a self-signed certificate.
# Usage: test_participant_api.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" participant-api
test_pg_start 55491
. "$(dirname "$0")/../lib/test_serve.sh"
RUN_PID=""
trap 'stop_serve; [ -n "$RUN_PID" ] && kill -9 "$RUN_PID" 2>/dev/null; cleanup' EXIT
DB=$(newdb arb_papi)
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
cat > "$T/l.yaml" <<EOF
name: L
game: doudizhu
format: ladder
deals: 2
duplicate: rotate
seed: 7
rating: openskill
files_root: /
clock: {move_ms: 2000, bank_ms: 20000}
policy: {on_fault: autoplay, strikes: 3}
visibility: {stderr: private}
ladder:
  concurrent: 2
  provisional: 5
  matches: 0
entrants:
  - {name: greedy, command: $BOTS/greedy_bot}
  - {name: random, command: $BOTS/random_bot}
EOF
"$ARB" run "$T/l.yaml" --db "$DB" --state "$T/run" --quiet --workers 2 --secret-file "$T/secret" > "$T/run.out" 2>&1 &
RUN_PID=$!

# ---- accounts ---------------------------------------------------------------------
"$ARB" account add alice --role participant --db "$DB" > "$T/alice.out"
ALICE=$(tail -n 1 "$T/alice.out")
check "account add prints the token as its last line" '[[ "$ALICE" =~ ^arb1_[0-9a-f]{64}$ ]]'
check "the record keeps only its SHA-256" \
  '[ "$(sql "$DB" "SELECT token_hash FROM accounts WHERE name = '"'alice'"'")" = "$(printf %s "$ALICE" | sha256sum | cut -c1-64)" ] && [ "$(sql "$DB" "SELECT count(*) FROM accounts WHERE token_hash LIKE '"'%${ALICE:5:20}%'"'")" = 0 ]'
BOB=$("$ARB" account add bob --role participant --db "$DB" | tail -n 1)
ARBI=$("$ARB" account add judge --role arbiter --db "$DB" | tail -n 1)
GONE=$("$ARB" account add gone --role participant --db "$DB" | tail -n 1)
OLD=$("$ARB" account add rot --role participant --entries 1 --db "$DB" | tail -n 1)
"$ARB" account add alice --role participant --db "$DB" > /dev/null 2>&1
check "a name taken: refused (exit 2)" '[ $? = 2 ]'
"$ARB" account revoke gone --db "$DB" > /dev/null
NEW=$("$ARB" account rotate rot --db "$DB" | tail -n 1)
check "rotate gives another token" '[[ "$NEW" =~ ^arb1_ ]] && [ "$NEW" != "$OLD" ]'
"$ARB" account list --db "$DB" --format json > "$T/list.json"
check "account list --format json: five, gone revoked, no hash in it" \
  'python3 -c "import json,sys; a=json.load(open(sys.argv[1]))[\"accounts\"]; assert len(a)==5; assert [x[\"revoked\"] is not None for x in a if x[\"name\"]==\"gone\"]==[True]" "$T/list.json" && ! grep -q "$(printf %s "$ALICE" | sha256sum | cut -c1-20)" "$T/list.json"'
check "account changes audited" '[ "$(sql "$DB" "SELECT count(*) FROM audit_log WHERE action LIKE '"'account %'"'")" = 7 ]'

# ---- the API ----------------------------------------------------------------------------
start_serve "$DB" serve
check "serve takes the role arbiter_web" 'grep -q "arbiter_web" "$T/serve.out"'
for _ in $(seq 1 100); do [ "$(sql "$DB" "SELECT count(*) FROM matches WHERE state = 'done'")" -ge 1 ] && break; sleep 0.2; done
python3 "$(dirname "$0")/participant_api.py" "127.0.0.1:$PORT" "$DB" "$SRC" "$ALICE" "$BOB" "$ARBI" "$GONE" "$OLD" "$NEW" > "$T/py.out" 2>&1
pyrc=$?
cat "$T/py.out"
p=$(sed -n 's/^participant_api: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$T/py.out"); f=$(sed -n 's/^participant_api: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$T/py.out")
pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))
[ $pyrc = 0 ] || [ "${f:-1}" != 0 ] || bad "participant_api.py exited $pyrc"
[ "${f:-1}" = 0 ] && [ $pyrc = 0 ] || tail -n 30 "$T/serve.err" >&2   # what the server said

# ---- a day's bytes: an upload past them refused from its Content-Length ---------------------
# (429 with Retry-After before a byte of the body is read: a refused upload
# costs the server neither its bandwidth nor an archive's decoding)
TINY=$("$ARB" account add tiny --role participant --bytes-per-day 1000 --db "$DB" | tail -n 1)
python3 - "$PORT" "$TINY" > "$T/tiny.out" 2>&1 <<'PY'
import socket, sys, time
port, tok = int(sys.argv[1]), sys.argv[2]
s = socket.create_connection(("127.0.0.1", port), timeout=5)
t0 = time.time()
s.sendall(("POST /api/v1/ladders/L/entries?name=tiny&command=python3%%20bot.py HTTP/1.1\r\nHost: x\r\n"
           "Authorization: Bearer %s\r\nContent-Type: application/x-tar\r\nContent-Length: 5000\r\n\r\n" % tok).encode())
got = b""
try:
    while True:
        d = s.recv(65536)
        if not d:
            break
        got += d
except socket.timeout:
    pass
head = got.split(b"\r\n\r\n")[0].decode()
print(head.splitlines()[0] if head else "nothing", "retry-after" in head.lower(), "%.1f" % (time.time() - t0))
PY
check "an upload past the account's bytes for the day: 429 with Retry-After, no body read ($(cat "$T/tiny.out"))" \
  'grep -Eq "^HTTP/1.1 429 .* True 0\.[0-9]$" "$T/tiny.out"'

# ---- the web's role holds no write privilege ------------------------------------------------
sql "$DB" "SET ROLE arbiter_web; UPDATE ladder_entries SET status = 'active'" > "$T/upd.out" 2>&1
check "as arbiter_web an UPDATE of a table is refused" '[ $? != 0 ] && grep -q "permission denied" "$T/upd.out"'
sql "$DB" "SET ROLE arbiter_web; SELECT token_hash FROM accounts" > "$T/sel.out" 2>&1
check "as arbiter_web the accounts' hashes cannot be read" '[ $? != 0 ] && grep -q "permission denied" "$T/sel.out"'
stop_serve

# ---- TLS ----------------------------------------------------------------------------------
make_cert
"$ARB" serve --db "$DB" --listen 127.0.0.1:0 --tls-cert "$T/cert.pem" --tls-key "$T/key.pem" > "$T/tls.out" 2> "$T/tls.err" &
SERVE_PID=$!
for _ in $(seq 1 50); do grep -q "serving" "$T/tls.out" 2>/dev/null && break; sleep 0.1; done
TPORT=$(sed -n 's|.*https://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/tls.out")
check "serve --tls-cert/--tls-key says https" '[ -n "$TPORT" ]' || cat "$T/tls.err" >&2
check "GET /api/v1/me over https with the self-signed certificate" \
  'curl -sf --cacert "$T/cert.pem" -H "Authorization: Bearer $ALICE" "https://127.0.0.1:$TPORT/api/v1/me" | grep -q "\"account\":\"alice\""'
check "plain http to the https port gets no answer" '! curl -sf -m 3 "http://127.0.0.1:$TPORT/api/v1/me" > /dev/null 2>&1'
stop_serve
chmod 644 "$T/key.pem"
timeout 10 "$ARB" serve --db "$DB" --listen 127.0.0.1:0 --tls-cert "$T/cert.pem" --tls-key "$T/key.pem" > /dev/null 2> "$T/tls2.err"
krc=$?
check "a TLS key every user may read (0644) refused, the chmod said" '[ $krc != 0 ] && [ $krc != 124 ] && grep -q "chmod o-rwx" "$T/tls2.err"'
chmod 600 "$T/key.pem"
"$ARB" serve --db "$DB" --listen 127.0.0.1:0 --tls-cert "$T/cert.pem" > /dev/null 2> "$T/tls1.err"
check "--tls-cert without --tls-key refused" '[ $? != 0 ] && grep -q "go together" "$T/tls1.err"'

# ---- the static report follows the public's rule ------------------------------------------------
"$ARB" report L -o "$T/rep" --db "$DB" > "$T/rep.out" 2>&1
check "report of the ladder written" '[ $? = 0 ] && [ -f "$T/rep/index.html" ]' || cat "$T/rep.out" >&2
VM=$(sql "$DB" "SELECT m.id FROM matches m JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round WHERE r.stage = 'validation' AND m.state = 'done' LIMIT 1")
LM=$(sql "$DB" "SELECT m.id FROM matches m JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round WHERE r.stage = 'ladder' AND m.state = 'done' AND m.digest IS NOT NULL LIMIT 1")
check "the report holds no validation match ($VM)" '[ -n "$VM" ] && [ ! -e "$T/rep/m/$VM.html" ] && [ ! -e "$T/rep/m/$VM" ]'
check "the report's ladder match $LM: its stderr private" \
  '[ -f "$T/rep/m/$LM.html" ] && grep -q "stderr is private" "$T/rep/m/$LM.html" && grep -q "stderr_private" "$T/rep/m/$LM/transcript.js"'
bad_vis=$(sed 's/stderr: private/stderr: secret/' "$T/l.yaml" > "$T/bad.yaml"; "$ARB" check "$T/bad.yaml" 2>&1)
check "visibility.stderr: an unknown word refused naming it" '[[ "$bad_vis" == *"visibility.stderr"*secret* ]]' || echo "$bad_vis" >&2

kill "$RUN_PID" 2>/dev/null; wait "$RUN_PID" 2>/dev/null; RUN_PID=""
echo "participant-api: $pass passed, $fail failed"
[ $fail = 0 ]
