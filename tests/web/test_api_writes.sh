#!/usr/bin/env bash
# test_api_writes.sh — the participant API's writes beyond ladders
# (docs/api.md: registrations, disputes, tournaments) against a real
# `arbiter serve`, PostgreSQL and an arbiter-scheduler daemon playing with
# real bots: an organiser submits an open tournament as YAML (201, the
# record's submitted_by), a broken file (400 with tournament.yaml:LINE), a
# file naming host files (400), a participant submitting (403); two
# accounts register three bots over HTTP (tar and bundle bodies, 201), a
# fourth of one account past per_account (429), one after the deadline
# (409); the daemon takes the tournament up from the record's text, starts
# it after the deadline and finishes it; a participant disputes its own
# match (201) and cannot dispute another's (404) nor resolve (403); an
# arbiter disputes and resolves (uphold, void); the lists; bad bodies
# (400, 411, 413, 415); every write and refusal has its audit row, each
# success's in the transaction of its write. The daemon serves its pages
# and the API over HTTPS (web_tls_cert, web_tls_key).
# Usage: test_api_writes.sh ARBITER SCHEDULER BOTS_DIR
set -u
ARB=$1 SCHED=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" api-writes
test_pg_start 55493
. "$(dirname "$0")/../lib/test_serve.sh"
SPID=""
trap 'stop_serve; [ -n "$SPID" ] && kill "$SPID" 2>/dev/null; wait 2>/dev/null; cleanup' EXIT
DB=$(newdb arb_writes)
cd "$T" || exit 2
ALICE=$("$ARB" account add alice --role participant --db "$DB" | tail -n 1)
BOB=$("$ARB" account add bob --role participant --db "$DB" | tail -n 1)
CAROL=$("$ARB" account add carol --role participant --db "$DB" | tail -n 1)
JUDGE=$("$ARB" account add judge --role arbiter --db "$DB" | tail -n 1)
ORG=$("$ARB" account add org --role organiser --db "$DB" | tail -n 1)
start_serve "$DB" serve
U="http://127.0.0.1:$PORT/api/v1"
# req TOKEN METHOD PATH [curl args...]: the body in $T/body, the status printed
req() { local tok=$1 m=$2 p=$3; shift 3; curl -s -o "$T/body" -w '%{http_code}' -X "$m" -H "Authorization: Bearer $tok" "$@" "$U$p"; }
audit() { sql "$DB" "SELECT count(*) FROM audit_log WHERE $1"; }

# ---- tournaments ------------------------------------------------------------------------
until=$(date -u -d '+14 seconds' +%Y-%m-%dT%H:%M:%SZ)
printf 'name: WebCup\nregistration: {until: %s, per_account: 2}\ndeals: 2\nseed: 5\n' "$until" > cup.yaml
check "a participant submitting: 403" '[ "$(req "$ALICE" POST /tournaments -H "Content-Type: application/yaml" --data-binary @cup.yaml)" = 403 ]'
check "an arbiter submitting: 403" '[ "$(req "$JUDGE" POST /tournaments -H "Content-Type: application/yaml" --data-binary @cup.yaml)" = 403 ]'
check "the organiser submits it: 201" '[ "$(req "$ORG" POST /tournaments -H "Content-Type: application/yaml" --data-binary @cup.yaml)" = 201 ] && grep -q "\"tournament\":\"WebCup\"" body'
check "submitted_by is the account" '[ "$(sql "$DB" "SELECT submitted_by FROM tournaments WHERE name = '"'WebCup'"'")" = org ]'
check "no file on record: the text is" '[ "$(sql "$DB" "SELECT coalesce(config_path, '"''"') || '"'|'"' || (config_text LIKE '"'name: WebCup%'"') FROM tournaments WHERE name = '"'WebCup'"'")" = "|true" ]'
printf 'name: Broken\ngame: doudizhu\ndeals: two\n' > broken.yaml
check "a broken file: 400 with tournament.yaml:3" '[ "$(req "$ORG" POST /tournaments -H "Content-Type: application/yaml" --data-binary @broken.yaml)" = 400 ] && grep -q "tournament.yaml:3:" body'
printf 'name: Host\nentrants:\n  - {name: a, command: /bin/cat}\n  - {name: b, command: cat}\n  - {name: c, command: cat}\n' > host.yaml
check "a file naming a host file: 400" '[ "$(req "$ORG" POST /tournaments -H "Content-Type: application/yaml" --data-binary @host.yaml)" = 400 ] && grep -q "names no file of the host" body'
printf 'name: Host2\nentrants:\n  - {name: a, command: cat, files: [x.txt]}\n  - {name: b, command: cat}\n  - {name: c, command: cat}\n' > host2.yaml
check "files: refused: 400" '[ "$(req "$ORG" POST /tournaments -H "Content-Type: application/yaml" --data-binary @host2.yaml)" = 400 ] && grep -q "files:" body'
check "text/plain: 415" '[ "$(req "$ORG" POST /tournaments -H "Content-Type: text/plain" --data-binary @cup.yaml)" = 415 ]'
check "nothing else in the record" '[ "$(sql "$DB" "SELECT count(*) FROM tournaments")" = 1 ]'

# the daemon: takes WebCup up from the record's text and waits for the deadline
# (its pages over HTTPS: web_tls_cert, web_tls_key; a cert without its key refused at start)
make_cert
"$SCHED" --db "$DB" --state "$T/sched1" --listen "" --local-workers 1 --allow-unsandboxed true --metrics "" --web 127.0.0.1:0 \
  --web-tls-cert "$T/cert.pem" --log-format text > sched1.log 2>&1
SRC1=$?
check "the daemon: web_tls_cert without web_tls_key refused" '[ $SRC1 = 2 ] && grep -q "web_tls_cert and web_tls_key go together" sched1.log'
"$SCHED" --db "$DB" --state "$T/sched" --listen "" --local-workers 2 --metrics "" --allow-unsandboxed true \
  --web 127.0.0.1:0 --web-tls-cert "$T/cert.pem" --web-tls-key "$T/key.pem" --log-format text > sched.log 2>&1 &
SPID=$!
for _ in $(seq 1 100); do grep -q "record's pages on" sched.log 2>/dev/null && break; sleep 0.1; done
SP=$(sed -n 's|.*pages on https://127.0.0.1:\([0-9]*\)/.*|\1|p' sched.log)
check "the daemon's pages say https" '[ -n "$SP" ]' || tail -5 sched.log >&2
check "the daemon's API over https with the self-signed certificate" \
  'curl -sf --cacert "$T/cert.pem" -H "Authorization: Bearer $ALICE" "https://127.0.0.1:$SP/api/v1/me" | grep -q "\"account\":\"alice\""'
check "the daemon's pages over https" 'curl -sf --cacert "$T/cert.pem" "https://127.0.0.1:$SP/" | grep -q "WebCup"'
check "plain http to the daemon's https port gets no answer" '! curl -sf -m 3 "http://127.0.0.1:$SP/" > /dev/null 2>&1'

# ---- registrations --------------------------------------------------------------------------
mkdir -p bot && cp "$BOTS/random_bot" bot/rb && tar -C bot -cf bot.tar rb
reg() { req "$1" POST "/tournaments/WebCup/registrations?name=$2&command=./rb" -H "Content-Type: application/x-tar" --data-binary @bot.tar; }
check "alice registers a1: 201" '[ "$(reg "$ALICE" a1)" = 201 ] && grep -q "\"status\":\"registered\"" body'
check "alice registers a2: 201" '[ "$(reg "$ALICE" a2)" = 201 ]'
check "bob registers b1: 201" '[ "$(reg "$BOB" b1)" = 201 ]'
check "alice's third: 429 (per_account)" '[ "$(reg "$ALICE" a3)" = 429 ] && grep -q per_account body'
check "a name taken: 409" '[ "$(reg "$CAROL" b1)" = 409 ] && grep -q "is taken" body'
check "no such tournament: 404" '[ "$(req "$BOB" POST "/tournaments/Nope/registrations?name=x&command=./rb" -H "Content-Type: application/x-tar" --data-binary @bot.tar)" = 404 ]'
check "a command naming nothing: 400" '[ "$(req "$BOB" POST "/tournaments/WebCup/registrations?name=b2&command=./nothere" -H "Content-Type: application/x-tar" --data-binary @bot.tar)" = 400 ]'
check "registrations by account" '[ "$(sql "$DB" "SELECT string_agg(account || '"':'"' || name, '"' '"' ORDER BY name) FROM registrations")" = "alice:a1 alice:a2 bob:b1" ]'
check "audited: 3 registered, 4 refused" '[ "$(audit "action = '"'register'"' AND ok")/$(audit "action = '"'register'"' AND NOT ok")" = 3/4 ]'
while [ "$(date -u +%s)" -le "$(date -u -d "$until" +%s)" ]; do sleep 0.5; done
sleep 1
check "after the deadline: 409 (closed)" '[ "$(reg "$CAROL" c1)" = 409 ] && grep -q "registration is closed" body'
for _ in $(seq 1 150); do [ "$(sql "$DB" "SELECT state FROM tournaments WHERE name = 'WebCup'")" = done ] && break; sleep 0.2; done
check "the daemon started WebCup after the deadline and finished it" '[ "$(sql "$DB" "SELECT state FROM tournaments WHERE name = '"'WebCup'"'")" = done ]' || tail -20 sched.log >&2
M=$(sql "$DB" "SELECT min(m.id) FROM matches m JOIN tournaments t ON t.id = m.tournament_id WHERE t.name = 'WebCup' AND m.state = 'done'")
check "its match played by the three registered" '[ -n "$M" ] && [ "$(sql "$DB" "SELECT count(*) FROM match_seats WHERE match_id = $M")" = 3 ]'
kill "$SPID"; wait "$SPID" 2>/dev/null; SPID=""

# ---- disputes ------------------------------------------------------------------------------
check "alice disputes her own match: 201" '[ "$(req "$ALICE" POST /disputes -H "Content-Type: application/json" --data "{\"match\":$M,\"reason\":\"a1 timed out oddly\"}")" = 201 ] && grep -q "\"state\":\"open\"" body'
D1=$(sed -n 's/.*"dispute":\([0-9]*\).*/\1/p' body)
check "opened by alice in the record" '[ "$(sql "$DB" "SELECT opened_by || '"'|'"' || reason FROM disputes WHERE id = ${D1:-0}")" = "alice|a1 timed out oddly" ]'
check "carol disputes a match not hers: 404" '[ "$(req "$CAROL" POST /disputes -H "Content-Type: application/json" --data "{\"match\":$M,\"reason\":\"x\"}")" = 404 ]'
check "a match that is not: 404 for a participant" '[ "$(req "$ALICE" POST /disputes -H "Content-Type: application/json" --data "{\"match\":999999,\"reason\":\"x\"}")" = 404 ]'
check "a second open dispute on the match: 409" '[ "$(req "$BOB" POST /disputes -H "Content-Type: application/json" --data "{\"match\":$M,\"reason\":\"me too\"}")" = 409 ]'
check "not JSON: 400" '[ "$(req "$ALICE" POST /disputes -H "Content-Type: application/json" --data "{\"match\":")" = 400 ] && grep -q "not JSON" body'
check "an unknown field: 400 naming it" '[ "$(req "$ALICE" POST /disputes -H "Content-Type: application/json" --data "{\"match\":$M,\"reason\":\"x\",\"by\":\"judge\"}")" = 400 ] && grep -q "\\\\\"by\\\\\"" body'
check "match as a string: 400" '[ "$(req "$ALICE" POST /disputes -H "Content-Type: application/json" --data "{\"match\":\"$M\",\"reason\":\"x\"}")" = 400 ]'
check "form-encoded: 415" '[ "$(req "$ALICE" POST /disputes --data "match=$M")" = 415 ]'
check "a JSON body too large: 413 from Content-Length" '[ "$(req "$ALICE" POST /disputes -H "Content-Type: application/json" -H "Content-Length: 99999" --data "{}")" = 413 ]'
check "alice cannot resolve: 403" '[ "$(req "$ALICE" POST "/disputes/$D1/resolve" -H "Content-Type: application/json" --data "{\"verdict\":\"void\",\"reason\":\"mine\"}")" = 403 ]'
check "still open" '[ "$(sql "$DB" "SELECT state FROM disputes WHERE id = $D1")" = open ]'
check "a bad verdict: 400" '[ "$(req "$JUDGE" POST "/disputes/$D1/resolve" -H "Content-Type: application/json" --data "{\"verdict\":\"maybe\",\"reason\":\"r\"}")" = 400 ]'
check "the arbiter upholds: 200" '[ "$(req "$JUDGE" POST "/disputes/$D1/resolve" -H "Content-Type: application/json" --data "{\"verdict\":\"uphold\",\"reason\":\"the clock was fair\"}")" = 200 ] && grep -q "\"state\":\"upheld\"" body'
check "resolved by judge in the record" '[ "$(sql "$DB" "SELECT state || '"'|'"' || resolved_by || '"'|'"' || resolution FROM disputes WHERE id = $D1")" = "upheld|judge|the clock was fair" ]'
check "resolved again: 409" '[ "$(req "$JUDGE" POST "/disputes/$D1/resolve" -H "Content-Type: application/json" --data "{\"verdict\":\"void\",\"reason\":\"r\"}")" = 409 ]'
check "the arbiter disputes any match: 201" '[ "$(req "$JUDGE" POST /disputes -H "Content-Type: application/json" --data "{\"match\":$M,\"reason\":\"a review\"}")" = 201 ]'
D2=$(sed -n 's/.*"dispute":\([0-9]*\).*/\1/p' body)
check "and voids it: 200, the match void" '[ "$(req "$JUDGE" POST "/disputes/$D2/resolve" -H "Content-Type: application/json" --data "{\"verdict\":\"void\",\"reason\":\"test void\"}")" = 200 ] && [ "$(sql "$DB" "SELECT state FROM matches WHERE id = $M")" = void ]'
check "GET /disputes: alice sees her one" '[ "$(req "$ALICE" GET /disputes)" = 200 ] && [ "$(grep -o "\"id\":" body | wc -l)" = 1 ] && grep -q "\"resolved_by\":\"judge\"" body'
check "GET /disputes: carol none" '[ "$(req "$CAROL" GET /disputes)" = 200 ] && grep -q "{\"disputes\":\[\]}" body'
check "GET /disputes: the arbiter all" '[ "$(req "$JUDGE" GET /disputes)" = 200 ] && [ "$(grep -o "\"id\":" body | wc -l)" = 2 ]'
check "DELETE /disputes: 405" '[ "$(req "$JUDGE" DELETE /disputes)" = 405 ]'

# ---- the audit log ---------------------------------------------------------------------
check "audit: submit 1 ok, 6 refused (403 x2, 400 x3, 415)" '[ "$(audit "action = '"'submit'"' AND ok")/$(audit "action = '"'submit'"' AND NOT ok")" = 1/6 ]'
check "audit: the submission by org from 127.0.0.1" '[ "$(audit "action = '"'submit'"' AND ok AND account = '"'org'"' AND address = '"'127.0.0.1'"'")" = 1 ]'
check "audit: register refused after the deadline" '[ "$(audit "action = '"'register'"' AND NOT ok AND account = '"'carol'"' AND detail LIKE '"'registration is closed%'"'")" = 1 ]'
check "audit: dispute open 2 ok (alice, judge)" '[ "$(sql "$DB" "SELECT string_agg(account, '"' '"' ORDER BY id) FROM audit_log WHERE action = '"'dispute open'"' AND ok")" = "alice judge" ]'
check "audit: dispute open refused 8 times" '[ "$(audit "action = '"'dispute open'"' AND NOT ok")" = 8 ]'
check "audit: dispute resolve 2 ok by judge, 3 refused (403, 400, 409)" '[ "$(audit "action = '"'dispute resolve'"' AND ok AND account = '"'judge'"'")/$(audit "action = '"'dispute resolve'"' AND NOT ok")" = 2/3 ]'
echo "api-writes: $pass passed, $fail failed"
[ "$fail" = 0 ]
