#!/usr/bin/env bash
# test_remote.sh — taking part from another machine, end to end: the
# organiser makes accounts (arbiter account add), a ladder runs (arbiter
# run), `arbiter serve` serves the participant API, and a participant in
# another directory with another HOME, the bot's files only there, joins
# with `arbiter join --server URL --token-file F`: the entry validates and
# plays; `arbiter remote entries` shows it active, `remote logs` its stderr
# (a line its helper module writes), `remote transcript -o` a match of it;
# another participant's `remote logs` on it is refused (404); a revoked
# token is the 401 message; `--format json` parses; the hint join prints
# works when pasted; retire takes it out. A join's --env and --startup-ms
# reach the record, the validation match's header and the bot's
# environment; a refused variable or a budget over the ladder's limit is
# the server's 400 naming it. The client's own error handling
# is test_remote_client.sh's.
# Usage: test_remote.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$SRC/tests/lib/test_sh.sh" remote
test_pg_start 55476
. "$SRC/tests/lib/test_serve.sh"
RUN_PID=""
trap 'stop_serve; [ -n "$RUN_PID" ] && kill "$RUN_PID" 2>/dev/null; cleanup' EXIT
DB=$(newdb arb_remote)
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
mkdir -p "$T/host"
cat > "$T/host/l.yaml" <<EOF
name: L
game: doudizhu
format: ladder
deals: 2
duplicate: rotate
seed: 7
rating: openskill
files_root: /
clock: {move_ms: 2000, bank_ms: 20000, startup_ms_max: 8000}
policy: {on_fault: autoplay, strikes: 3}
ladder:
  concurrent: 2
  provisional: 5
  matches: 0
entrants:
  - {name: greedy, command: $BOTS/greedy_bot}
  - {name: random, command: $BOTS/random_bot}
EOF
(cd "$T/host" && exec "$ARB" run l.yaml --db "$DB" --state "$T/host/state" --quiet --workers 2 --secret-file "$T/secret") \
  > "$T/run.out" 2>&1 &
RUN_PID=$!

# ---- the organiser: accounts -------------------------------------------------------
"$ARB" account add ann --role participant --db "$DB" > "$T/ann.out"
check "account add: the token is the last line" '[[ "$(tail -n 1 "$T/ann.out")" =~ ^arb1_[0-9a-f]{64}$ ]]'
"$ARB" account add ben --role participant --db "$DB" | tail -n 1 > "$T/ben.token"
"$ARB" account add gone --role participant --db "$DB" | tail -n 1 > "$T/gone.token"
"$ARB" account revoke gone --db "$DB" > /dev/null
start_serve "$DB" serve
URL=http://127.0.0.1:$PORT
check "serve is up ($URL)" '[ -n "$PORT" ]'

# ---- "another machine": its own directory and HOME, the bot's files only there ----
M=$T/laptop
mkdir -p "$M/home" "$M/work/mybot"
tail -n 1 "$T/ann.out" > "$M/home/token"
chmod 600 "$M/home/token" "$T/ben.token" "$T/gone.token"
cp "$SRC/tests/bots/first_legal.py" "$M/work/mybot/main.py"
sed -i '1a import helper' "$M/work/mybot/main.py"
printf 'import os, sys\nprint("helper-says-%s mode=" + os.environ.get("ANN_MODE", "unset"), file=sys.stderr, flush=True)\n' hello > "$M/work/mybot/helper.py"
cat > "$T/hdr.py" <<'PY'
import json, sys
h = json.loads(sys.stdin.readline())
def bots(o):
    if isinstance(o, dict):
        if o.get("startup_ms") == 6000 and o.get("env") == ["ANN_MODE=fast"]:
            yield o
        for v in o.values():
            yield from bots(v)
    elif isinstance(o, list):
        for v in o:
            yield from bots(v)
assert h.get("type") == "header" and list(bots(h)), h
PY
# client ARGS...: arbiter run there, as that machine would (cwd, HOME)
client() { (cd "$M/work" && HOME="$M/home" exec "$ARB" "$@"); }

# the ladder's limit on start-up budgets is in the record once the run took the ladder up
for _ in $(seq 1 100); do [ -n "$(sql "$DB" "SELECT ladder_startup_max FROM tournaments WHERE name = 'L'")" ] && break; sleep 0.1; done
client join --server "$URL" --token-file "$M/home/token" L badenv --command "python3 mybot/main.py" --files mybot \
  --env LD_PRELOAD=/tmp/x.so > /dev/null 2> "$T/badenv.err"
rc=$?
check "join --env LD_PRELOAD=...: the server's 400 names it and why (rc $rc: $(cat "$T/badenv.err"))" \
  '[ $rc != 0 ] && grep -q "400" "$T/badenv.err" && grep -q "LD_PRELOAD: not a variable a bot may set" "$T/badenv.err"'
client join --server "$URL" --token-file "$M/home/token" L slow --command "python3 mybot/main.py" --files mybot \
  --startup-ms 9000 > /dev/null 2> "$T/slow.err"
rc=$?
check "join --startup-ms over the ladder's limit: 400 naming it (rc $rc: $(cat "$T/slow.err"))" \
  '[ $rc != 0 ] && grep -q "400" "$T/slow.err" && grep -q "limit, 8000 ms" "$T/slow.err"'
check "the refused joins left no entry" '[ "$(sql "$DB" "SELECT count(*) FROM ladder_entries WHERE base IN ('"'badenv'"', '"'slow'"')")" = 0 ]'
client join --server "$URL" --token-file "$M/home/token" L annbot --command "python3 mybot/main.py" --files mybot \
  --env ANN_MODE=fast --startup-ms 6000 > "$T/join.out" 2> "$T/join.err"
rc=$?
check "join --env --startup-ms: the record holds them" \
  '[ "$(sql "$DB" "SELECT startup_ms || '"'|'"' || env::text FROM ladder_entries WHERE base = '"'annbot'"'")" = "6000|{ANN_MODE=fast}" ]'
check "join: 201, the entry validating (rc $rc: $(cat "$T/join.err"))" '[ $rc = 0 ] && grep -q "annbot joined L as version 1 (validating)" "$T/join.out"'
check "join: the command in the bundle's terms" 'grep -q "command: python3 main.py" "$T/join.out"'
hint=$(tail -n 1 "$T/join.out")
check "join prints a remote entries hint ($hint)" 'echo "$hint" | grep -q "arbiter remote entries --server $URL --token-file $M/home/token"'

# it validates, then plays
status=""
for _ in $(seq 1 300); do
  client remote entries --server "$URL" --token-file "$M/home/token" --format json > "$T/entries.json" 2>/dev/null
  status=$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["entries"]; print(e[0]["status"], e[0]["matches"])' "$T/entries.json" 2>/dev/null)
  case "$status" in active\ [2-9]*|active\ [1-9][0-9]*|rejected*) break ;; esac
  sleep 0.2
done
check "the entry validated and played ladder matches ($status)" 'case "$status" in active\ [2-9]*|active\ [1-9][0-9]*) true ;; *) false ;; esac'
check "remote entries --format json parses: one entry, annbot in L" \
  'python3 -c "import json,sys; e=json.load(open(sys.argv[1]))[\"entries\"]; assert len(e)==1 and e[0][\"ladder\"]==\"L\" and e[0][\"base\"]==\"annbot\" and e[0][\"validation_match\"]" "$T/entries.json"'
(cd / && PATH="$(dirname "$ARB"):$PATH" HOME="$M/home" && eval "$hint") > "$T/hint.out" 2>&1
check "the hint works when pasted: the entry active in a table" '[ $? = 0 ] && grep -qE "^L +annbot +active" "$T/hint.out"'

client remote logs L annbot --server "$URL" --token-file "$M/home/token" > "$T/logs.out" 2> "$T/logs.err"
check "remote logs: the validation match and the bot's stderr ($(head -c 300 "$T/logs.err"))" \
  'grep -q "(validation)" "$T/logs.out" && grep -q "| helper-says-hello" "$T/logs.out"'
check "the bot ran with its --env (its stderr says mode=fast)" 'grep -q "helper-says-hello mode=fast" "$T/logs.out"'
vm=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["entries"][0]["validation_match"])' "$T/entries.json")
client remote transcript "$vm" -o "$M/work/vm.jsonl" --server "$URL" --token-file "$M/home/token" 2> "$T/tr.err"
check "remote transcript -o: the validation match's lines, 0600 ($(cat "$T/tr.err"))" \
  '[ -s "$M/work/vm.jsonl" ] && [ "$(stat -c %a "$M/work/vm.jsonl")" = 600 ] && head -n 1 "$M/work/vm.jsonl" | python3 -c "import json,sys; json.loads(sys.stdin.readline())"'
check "the validation match's header: annbot's startup_ms and env" \
  'head -n 1 "$M/work/vm.jsonl" | python3 "$T/hdr.py"' || head -c 800 "$M/work/vm.jsonl" >&2

# another participant
client remote logs L annbot --server "$URL" --token-file "$T/ben.token" > "$T/ben.out" 2> "$T/ben.err"
rc=$?
check "ben's remote logs on ann's entry: refused, not found (rc $rc: $(cat "$T/ben.err"))" \
  '[ $rc = 3 ] && grep -q "404" "$T/ben.err" && ! grep -q helper-says "$T/ben.out"'
client remote transcript "$vm" --server "$URL" --token-file "$T/ben.token" > "$T/ben.tr" 2> "$T/ben.err"; rc=$?
check "ben's transcript of ann's validation match: 404 (rc $rc: $(cat "$T/ben.err"))" '[ $rc = 3 ] && ! grep -q helper-says "$T/ben.tr"'
client remote entries --server "$URL" --token-file "$T/ben.token" > "$T/ben.out"
check "ben has no entries" 'grep -q "no entries yet" "$T/ben.out"'

# a revoked token
client remote me --server "$URL" --token-file "$T/gone.token" > /dev/null 2> "$T/gone.err"
rc=$?
check "a revoked token: the 401 message, exit 2 ($(cat "$T/gone.err"))" \
  '[ $rc = 2 ] && grep -q "refused the token (401" "$T/gone.err" && grep -q "arbiter account rotate" "$T/gone.err" && ! grep -q "$(cat "$T/gone.token")" "$T/gone.err"'
client remote me --server "$URL" --token-file "$M/home/token" --format json > "$T/me.json"
check "remote me --format json: ann, a participant" \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j[\"account\"]==\"ann\" and j[\"role\"]==\"participant\" and j[\"quota\"][\"uploads_today\"]==1" "$T/me.json"'

# a second version, then retire
client join --server "$URL" --token-file "$M/home/token" L annbot --command "python3 mybot/main.py" --files mybot \
  --format json > "$T/join2.json"
check "joining again: annbot.v2, --format json parses" \
  'python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j[\"entry\"]==\"annbot.v2\" and j[\"version\"]==2 and len(j[\"digest\"])==64" "$T/join2.json"'
client remote retire L annbot.v2 --server "$URL" --token-file "$M/home/token" > "$T/retire.out" 2> "$T/retire.err"; rc=$?
check "remote retire: retired (rc $rc: $(cat "$T/retire.err"))" '[ $rc = 0 ] && grep -q "annbot.v2: retired" "$T/retire.out"'
client remote retire L annbot --server "$URL" --token-file "$T/ben.token" > /dev/null 2> "$T/ben.err"; rc=$?
check "ben cannot retire ann's entry: 404 (rc $rc: $(cat "$T/ben.err"))" '[ $rc = 3 ]'

echo "remote: $pass passed, $fail failed"
[ $fail = 0 ]
