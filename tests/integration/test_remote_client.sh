#!/usr/bin/env bash
# test_remote_client.sh — the participant API's client on its own side
# (arbiter join, arbiter remote): option parsing, the token file's checks,
# the answer's bound, timeouts, redirects and each refusal said in words
# with its exit code, and a join's packing (a bot's files, a directory, an
# archive; the command sent in the bundle's terms), against canned answers
# (remote_fixture.py). The flows against the real server are test_remote.sh.
# Usage: test_remote_client.sh ARBITER SRCDIR
set -u
A=$1 SRC=$2
. "$SRC/tests/lib/check.sh"
test_enter remote-client
FIX=$SRC/tests/integration/remote_fixture.py
python3 "$FIX" "$T/port" "$T/requests.log" &
fixpid=$!
trap 'kill $fixpid 2>/dev/null; cd /; rm -rf "$T"' EXIT
for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.05; done
P=$(cat "$T/port")
U=http://127.0.0.1:$P
TOKEN=arb1_$(printf '%064d' 7)
mkdir -p "$T/my dir"
TF="$T/my dir/token"           # a blank in the path: hints must quote it
printf '%s\n' "$TOKEN" > "$TF"
chmod 600 "$TF"
all_err="$T/all.err"
: > "$all_err"; : > "$T/requests.log"
# run ARGS...: the client, its stdout in out, stderr in err (and kept in all.err), its exit code in rc
run() { "$A" "$@" > "$T/out" 2> "$T/err"; rc=$?; out=$(cat "$T/out"); err=$(cat "$T/err"); cat "$T/err" >> "$all_err"; }
lastreq() { tail -n 1 "$T/requests.log"; }

# ---- options ----
run join lad bot --command "python3 x.py"
check "join without --server says where from ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "ARBITER_SERVER"'
run join --server "$U/ok" lad bot --command "python3 x.py"
check "join without --token-file says what it is ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "ARBITER_TOKEN_FILE"'
run join --server "$U/ok" --token-file "$TF" lad bot
check "join without --command ($err)" '[ $rc = 2 ] && echo "$err" | grep -q -- "--command CMD"'
run join --server "$U/ok" --token-file "$TF" lad bot.v2 --command "python3 x.py"
check "a versioned name is refused ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "not a name for an entry"'
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 x.py" --env "1X=2"
check "--env with a bad name ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "expected NAME=VALUE"'
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 x.py" --startup-ms 0
check "--startup-ms 0 refused ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "startup-ms"'
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 x.py" --replce
check "an unknown option is named with the one meant ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "replace"'
run remote me --server "$U/ok" --token-file "$TF" --match 3
check "remote me --match is refused ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "does not take"'
run remote logs lad --server "$U/ok" --token-file "$TF"
check "remote logs without ENTRY ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "LADDER ENTRY"'
run remote dispute 12 --server "$U/ok" --token-file "$TF"
check "remote dispute without --reason ($err)" '[ $rc = 2 ] && echo "$err" | grep -q -- "--reason"'
run remote transcript 1x --server "$U/ok" --token-file "$TF"
check "remote transcript of a non-id ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "not a match id"'
run remote frobnicate
check "an unknown subcommand ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "no subcommand"'
run remote --help
check "remote --help on stdout, exit 0" '[ $rc = 0 ] && echo "$out" | grep -q "arbiter remote logs LADDER ENTRY"'
run join --help
check "join --help names the environment" '[ $rc = 0 ] && echo "$out" | grep -q ARBITER_TOKEN_FILE'
run remote me --server "ftp://127.0.0.1:$P/ok" --token-file "$TF"
check "an ftp:// server is refused ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "https:// or http://"'
run remote me --server "http://alice:pw@127.0.0.1:$P/ok" --token-file "$TF"
check "credentials in the URL refused ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "user name or password"'
run remote me --server "$U/ok?x=1" --token-file "$TF"
check "a query in --server refused ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "no ?query"'

# ---- the token file ----
chmod 644 "$TF"
run remote me --server "$U/ok" --token-file "$TF"
check "a token file readable by others is refused with the chmod to run ($err)" \
  '[ $rc = 2 ] && echo "$err" | grep -q "mode 0644" && echo "$err" | grep -q "chmod 600"'
chmod 640 "$TF"
run remote me --server "$U/ok" --token-file "$TF"
check "... and one readable by its group ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "mode 0640"'
chmod 600 "$TF"
n0=$(wc -l < "$T/requests.log" 2>/dev/null || echo 0)
run remote me --server "$U/ok" --token-file "$T/nonesuch"
check "a missing token file ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "cannot be read"'
: > "$T/empty"; chmod 600 "$T/empty"
run remote me --server "$U/ok" --token-file "$T/empty"
check "an empty token file ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "is empty"'
printf '\n' > "$T/nl"; chmod 600 "$T/nl"
run remote me --server "$U/ok" --token-file "$T/nl"
check "a token file of one newline is empty ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "is empty"'
printf '%s\n%s\n' "$TOKEN" "$TOKEN" > "$T/two"; chmod 600 "$T/two"
run remote me --server "$U/ok" --token-file "$T/two"
check "two lines are refused, the token not shown ($err)" \
  '[ $rc = 2 ] && echo "$err" | grep -q "the token alone" && ! echo "$err" | grep -q "$TOKEN"'
head -c 300 /dev/zero | tr '\0' a > "$T/long"; chmod 600 "$T/long"
run remote me --server "$U/ok" --token-file "$T/long"
check "a long file is no token file ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "longer than"'
run remote me --server "$U/ok" --token-file "$T"
check "a directory is no token file ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "not a regular file"'
n1=$(wc -l < "$T/requests.log" 2>/dev/null || echo 0)
check "no refused token file sent a request ($n0 -> $n1)" '[ "$n0" = "$n1" ]'
printf '%s' "$TOKEN" > "$T/nonl"; chmod 600 "$T/nonl"
run remote me --server "$U/ok" --token-file "$T/nonl"
check "a token without a newline is read" '[ $rc = 0 ] && lastreq | grep -q "\"Bearer $TOKEN\""'
run remote me --server "$U/ok" --token-file "$TF"
check "one trailing newline is stripped: the header is Bearer TOKEN" \
  '[ $rc = 0 ] && lastreq | grep -q "\"auth\": \"Bearer $TOKEN\""'
check "me as a table" 'echo "$out" | grep -q "account alice (participant)" && echo "$out" | grep -q "1 of 50 uploads"'
ARBITER_SERVER="$U/ok" ARBITER_TOKEN_FILE="$TF" run remote me --format json
check "ARBITER_SERVER and ARBITER_TOKEN_FILE; --format json parses" \
  '[ $rc = 0 ] && echo "$out" | python3 -c "import json,sys; assert json.load(sys.stdin)[\"account\"] == \"alice\""'

# ---- refusals, each in words ----
run remote me --server "$U/401" --token-file "$TF"
check "401: the token refused, rotate said, exit 2 ($err)" \
  '[ $rc = 2 ] && echo "$err" | grep -q "refused the token" && echo "$err" | grep -q "arbiter account rotate"'
run remote me --server "$U/403" --token-file "$TF"
check "403: the role ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "role does not allow"'
run remote logs lad other.v1 --server "$U/404" --token-file "$TF"
check "404: not found, exit 3 ($err)" '[ $rc = 3 ] && echo "$err" | grep -q "404: canned 404"'
run remote me --server "$U/429" --token-file "$TF"
check "429: Retry-After said, exit 1 ($err)" '[ $rc = 1 ] && echo "$err" | grep -q "retry after 7 seconds"'
run remote me --server "$U/500" --token-file "$TF"
check "500: exit 1 with the server's text ($err)" '[ $rc = 1 ] && echo "$err" | grep -q "answered 500: canned 500"'
run remote me --server "$U/garbage" --token-file "$TF"
check "an HTML page is not the API ($err)" '[ $rc = 1 ] && echo "$err" | grep -q "not the API.s JSON" && echo "$err" | grep -q text/html'
run remote me --server "$U/garbage" --token-file "$TF" --format json
check "... nor printed as JSON ($out)" '[ $rc = 1 ] && [ -z "$out" ]'
run remote me --server "$U/big" --token-file "$TF"
check "an answer declared past the bound is refused ($err)" '[ $rc = 1 ] && echo "$err" | grep -q "larger than 16777216 bytes"'
run remote me --server "$U/bigchunked" --token-file "$TF"
check "an answer growing past the bound is refused ($err)" '[ $rc = 1 ] && echo "$err" | grep -q "larger than 16777216 bytes"'
t0=$(date +%s)
run remote me --server "$U/slow" --token-file "$TF" --timeout 1
t1=$(date +%s)
check "a slow server: given up after --timeout ($err)" '[ $rc = 1 ] && echo "$err" | grep -q "did not answer in time" && [ $((t1 - t0)) -le 3 ]'
n0=$(wc -l < "$T/requests.log")
run remote me --server "$U/redirect" --token-file "$TF"
n1=$(wc -l < "$T/requests.log")
check "a redirect is not followed (one request), said with its target ($err)" \
  '[ $rc = 2 ] && [ $((n1 - n0)) = 1 ] && echo "$err" | grep -q "127.0.0.1:9/elsewhere"'
closed=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
run remote me --server "http://127.0.0.1:$closed" --token-file "$TF"
check "connection refused names the URL ($err)" \
  '[ $rc = 2 ] && echo "$err" | grep -q "cannot connect to http://127.0.0.1:$closed"'
run remote me --server "http://192.0.2.1:9" --token-file "$TF" --timeout 1
check "plain http:// to another host: the token travels in clear ($err)" 'echo "$err" | grep -q "travels in clear"'
run remote me --server "$U/ok" --token-file "$TF"
check "no such warning to this machine" '! echo "$err" | grep -q "travels in clear"'
run remote me --server "https://127.0.0.1:$P/ok" --token-file "$TF" --cacert "$T/nonesuch.pem"
check "--cacert that cannot be read ($err)" '[ $rc = 2 ] && echo "$err" | grep -q -- "--cacert"'
run remote me --server "https://127.0.0.1:$P/ok" --token-file "$TF"
check "https:// to a plain server: no TLS said ($err)" '[ $rc = 2 ] && echo "$err" | grep -qi "TLS"'

# ---- the other subcommands' tables ----
run remote entries --server "$U/ok" --token-file "$TF"
check "entries as a table, escapes shown not played" \
  '[ $rc = 0 ] && echo "$out" | grep -q "bot.v2 .*active .* 4 .*27.5" && ! grep -q $'"'"'\x1b'"'"' "$T/out"'
run remote logs lad bot.v2 --server "$U/ok" --token-file "$TF" --match 3
check "logs: the request names the match" '[ $rc = 0 ] && lastreq | grep -q "/ladders/lad/entries/bot.v2/logs?match=3"'
check "logs: the stderr lines, escaped" 'echo "$out" | grep -q "| line one" && ! grep -q $'"'"'\x1b'"'"' "$T/out"'
run remote retire "my lad" bot.v2 --server "$U/ok" --token-file "$TF"
check "retire: names escaped in the path, POST" \
  '[ $rc = 0 ] && lastreq | grep -q "\"POST\", \"path\": \"/ok/api/v1/ladders/my%20lad/entries/bot.v2/retire\"" && echo "$out" | grep -q retired'
run remote dispute 12 --reason 'a "quoted" reason' --server "$U/ok" --token-file "$TF"
check "dispute: JSON body, the dispute's id" \
  '[ $rc = 0 ] && lastreq | grep -q "application/json" && echo "$out" | grep -q "dispute 9 about match 12: open"'
echo keep > "$T/tr.jsonl"
run remote transcript 5 -o "$T/tr.jsonl" --server "$U/404" --token-file "$TF"
check "transcript refused: FILE left as it was" '[ $rc = 3 ] && [ "$(cat "$T/tr.jsonl")" = keep ]'
run remote transcript 5 -o "$T/tr.jsonl" --server "$U/ok" --token-file "$TF"
check "transcript to FILE, 0600" \
  '[ $rc = 0 ] && [ "$(wc -l < "$T/tr.jsonl")" = 2 ] && [ "$(stat -c %a "$T/tr.jsonl")" = 600 ]'
run remote transcript 5 --server "$U/ok" --token-file "$TF"
check "transcript to stdout" '[ $rc = 0 ] && echo "$out" | grep -q "\"type\":\"move\""'

# ---- join: the program packed here ----
mkdir -p mybot/lib
printf 'import sys\nprint("ok", file=sys.stderr)\n' > mybot/main.py
printf 'X = 1\n' > mybot/lib/helper.py
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 mybot/main.py --level 3" --files mybot/lib/helper.py --env K=v --startup-ms 9000 --replace
req=$(lastreq)
check "join: the command in the bundle's terms, options in the query ($req)" \
  '[ $rc = 0 ] && echo "$req" | grep -q "entries?name=bot&command=python3%20main.py%20--level%203&replace=1&startup_ms=9000&env=K%3Dv"'
check "join: the bundle's content type" 'echo "$req" | grep -q "application/x-arbiter-bundle"'
sha=$(echo "$req" | python3 -c 'import json,sys; print(json.load(sys.stdin)["sha"])')
check "join: the digest said is the bytes sent" 'echo "$out" | grep -q "program $sha"'
ladder_digest=$(cd "$T" && "$A" join --server "$U/ok" --token-file "$TF" lad bot --command "python3 mybot/main.py" --files mybot/lib/helper.py | grep -o "program [0-9a-f]*")
check "the same program packed twice is the same digest" '[ "$ladder_digest" = "program $sha" ]'
hint=$(echo "$out" | tail -n 1)
check "the hint quotes the token file's path ($hint)" 'echo "$hint" | grep -q "'"'"'$T/my dir/token'"'"'"'
(cd / && PATH="$(dirname "$A"):$PATH" && eval "$hint" > "$T/hint.out" 2>&1); hintrc=$?
check "the hint works when pasted, from another directory" '[ $hintrc = 0 ] && grep -q "bot.v2" "$T/hint.out"'
run join --server "$U/baddigest" --token-file "$TF" lad bot --command "python3 mybot/main.py"
check "a digest other than the one packed is said ($err)" '[ $rc = 1 ] && echo "$err" | grep -q "changed on the way"'
run join --server "$U/ok" --token-file "$TF" lad bot --command "./nonesuch.sh"
check "a program that is not here is refused before any request ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "not found"'
run join --server "$U/ok" --token-file "$TF" lad bot --command "no-such-interp-x mybot/main.py"
check "a bare program this machine lacks: noted, the server decides" \
  '[ $rc = 0 ] && echo "$err" | grep -q "not on this machine" && lastreq | grep -q "command=no-such-interp-x%20main.py"'
run join --server "$U/413" --token-file "$TF" lad bot --command "python3 mybot/main.py"
check "413: the body's size said ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "413" && echo "$err" | grep -q "body was [0-9]* bytes"'
# a directory: the tree whole, the command's paths into it said in its terms
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 mybot/main.py" --files mybot
check "a directory: python3 main.py ($err)" '[ $rc = 0 ] && lastreq | grep -q "command=python3%20main.py\""'
run join --server "$U/ok" --token-file "$TF" lad bot --command "mybot/main.py" --files mybot
check "a directory's program not executable: refused ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "chmod +x"'
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 main.py" --files mybot
check "a word the bundle holds as it is" '[ $rc = 0 ] && lastreq | grep -q "command=python3%20main.py\""'
ln -s /etc/passwd mybot/leak
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 main.py" --files mybot
check "a directory with a link out is refused before any request ($err)" '[ $rc = 2 ] && echo "$err" | grep -q "leak"'
rm mybot/leak
(cd mybot && tar czf ../bot.tar.gz main.py lib)
run join --server "$U/ok" --token-file "$TF" lad bot --command "python3 main.py" --files bot.tar.gz
check "an archive: converted here, sent as a bundle ($err)" \
  '[ $rc = 0 ] && lastreq | grep -q "application/x-arbiter-bundle" && lastreq | grep -q "command=python3%20main.py\""'
run remote register cup bot --server "$U/ok" --token-file "$TF" --command "python3 mybot/main.py"
check "register: the registrations route" '[ $rc = 0 ] && lastreq | grep -q "/api/v1/tournaments/cup/registrations?name=bot"'

check "the token never appears in any message" '! grep -q "$TOKEN" "$all_err"'
echo "remote-client: $pass passed, $fail failed"
[ $fail = 0 ]
