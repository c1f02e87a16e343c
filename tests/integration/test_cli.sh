#!/usr/bin/env bash
# test_cli.sh — the command line behaves (docs/cli.md): for every command,
# --help prints usage on stdout, exits 0 and does nothing else (no file is
# read or written: the scratch directory is the same after); the commands
# that read the record create nothing where there is none (nor where
# DIR/cluster names no cluster of DIR's) and exit 3; submit checks every
# file before it makes anything, and with --db touches no state directory;
# an unreachable database is exit 2, said as such; an unknown option or
# command exits 2 with a suggestion; --version; --format json parses for
# rules, match, status, standings, verify and bench rules (a one-match
# tournament on a private PostgreSQL); a state directory with a blank, a
# quote and a backslash in its path holds its private cluster (as root,
# also under a 0700 parent: the cluster in /var/lib/arbiter-clusters).
# Usage: test_cli.sh ARBITER ARBITER_SCHEDULER ARBITER_REFEREE BOTS_DIR
set -u
ARB=$1 SCHED=$2 REF=$3 BOTS=$4
. "$(dirname "$0")/../lib/test_sh.sh" cli-test

mkdir "$T/cwd"
cd "$T/cwd" || exit 2
# a file named like the option: a command that took --help for a file
# would read it (check) or write beside it (keygen)
printf 'name: [' > ./--help
snapshot() { ls -A; }

# ---- 1. --help, for every command -----------------------------------------
commands="moves trick play rules run check scheduler referee submit keygen status standings match replay verify bench rate"
for cmd in $commands; do
  for h in --help -h; do
    before=$(snapshot)
    "$ARB" $cmd $h > out 2> err
    rc=$?
    after=$(snapshot)
    check "$cmd $h exits 0 (got $rc)" '[ $rc = 0 ]'
    check "$cmd $h prints usage on stdout" 'grep -q "usage" out'
    check "$cmd $h prints nothing on stderr" '[ ! -s err ]'
    rm -f out err
    check "$cmd $h creates no file" '[ "$(snapshot)" = "$before" ]'
  done
  "$ARB" help $cmd > out 2>&1
  check "arbiter help $cmd is $cmd --help" '[ $? = 0 ] && [ "$(cat out)" = "$("$ARB" $cmd --help)" ]'
  rm -f out
done
for exe in "$SCHED" "$REF"; do
  before=$(snapshot)
  "$exe" --help > out 2> err
  check "$(basename "$exe") --help exits 0 with usage" '[ $? = 0 ] && grep -q "usage" out && [ ! -s err ]'
  rm -f out err
  check "$(basename "$exe") --help creates no file" '[ "$(snapshot)" = "$before" ]'
done
"$ARB" bench rules --help > out
check "bench rules --help exits 0 with usage" '[ $? = 0 ] && grep -q "usage" out'
rm -f out
"$ARB" check --help > out 2>&1
check "check --help does not read a file named --help" '! grep -q "^--help" out'
rm -f out
"$ARB" keygen --help > /dev/null
check "keygen --help writes no key" '[ ! -e ./--help.key ] && [ ! -e ./--help.pub ]'
"$ARB" --help > out && grep -q "commands:" out
check "arbiter --help lists the commands" '[ $? = 0 ]'
rm -f out

# ---- 2. --version -----------------------------------------------------------
check "--version" '"$ARB" --version | grep -qE "^arbiter [0-9]+\.[0-9]+"'
check "-V" '[ "$("$ARB" -V)" = "$("$ARB" --version)" ]'

# ---- 3. reading commands create nothing -------------------------------------
mkdir "$T/empty"
for args in "status" "standings pool" "verify pool"; do
  "$ARB" $args --state "$T/empty" > out 2> err
  rc=$?
  check "$args --state EMPTY exits 3 (got $rc)" '[ $rc = 3 ]'
  check "$args --state EMPTY says there is no record" 'grep -q "no record in $T/empty" err'
  check "$args --state EMPTY creates nothing" '[ -z "$(ls -A "$T/empty")" ]'
  rm -f out err
  before=$(snapshot)
  "$ARB" $args > /dev/null 2>&1
  rc=$?
  check "$args without a state directory exits 3 (got $rc)" '[ $rc = 3 ]'
  check "$args creates no ./arbiter-state" '[ "$(snapshot)" = "$before" ] && [ ! -e arbiter-state ]'
done
"$ARB" status --state "$T/nowhere" > /dev/null 2>&1
check "status --state MISSING creates no directory" '[ $? = 3 ] && [ ! -e "$T/nowhere" ]'

# a DIR/cluster that names no cluster of this state directory (a stale
# pointer, or something that is not a cluster at all): nothing is started
# or made, neither under DIR nor in /var/lib/arbiter-clusters
clusters() { ls -A /var/lib/arbiter-clusters 2>/dev/null; }
# the directory named after a state directory's path (FNV-1a of it, as
# pgctl.c names clusters and work directories as root); what a run as root
# puts there for this test's state directories is removed at the end
fnv() { python3 -c 'import sys
h = 1469598103934665603
for c in sys.argv[1].encode():
    h = ((h ^ c) * 1099511628211) % (1 << 64)
print("%016x" % h)' "$1"; }
made=()
trap 'cleanup; rm -rf "${made[@]}"' EXIT
for target in /var/lib/arbiter-clusters/deadbeefdeadbeef /etc; do
  mkdir "$T/pointer"
  echo "$target" > "$T/pointer/cluster"
  tree() { find "$T/pointer" -printf '%p %m %s\n' | sort; }
  before_tree=$(tree) before_clusters=$(clusters)
  for args in "status" "standings pool" "verify pool"; do
    "$ARB" $args --state "$T/pointer" > out 2> err
    rc=$?
    check "$args, DIR/cluster naming $target: exits 3 (got $rc)" '[ $rc = 3 ]'
    check "$args, DIR/cluster naming $target: says there is no record" 'grep -q "no record in $T/pointer" err'
    check "$args, DIR/cluster naming $target: nothing made under DIR" '[ "$(tree)" = "$before_tree" ]'
    check "$args, DIR/cluster naming $target: no cluster made" '[ "$(clusters)" = "$before_clusters" ]'
    rm -f out err
  done
  rm -rf "$T/pointer"
done

# submit reads and checks every file before it opens (or makes) the record
RB="$BOTS/random_bot"
{ echo "name: ok"; echo "deals: 1"; echo "seed: 3"; echo "entrants:"
  for e in a b c; do echo "  - {name: $e, command: $RB}"; done; } > "$T/ok.yaml"
mkdir -m 700 "$T/sub"
made+=("/var/lib/arbiter-clusters/$(fnv "$T/sub/arbiter-state")" "/var/lib/arbiter-work/$(fnv "$T/sub/arbiter-state")")
for files in "nonexist.yaml" "$T/ok.yaml nonexist.yaml"; do
  before_clusters=$(clusters)
  (cd "$T/sub" && "$ARB" submit $files > "$T/out" 2> "$T/err")
  rc=$?
  check "submit $files exits 2 (got $rc)" '[ $rc = 2 ]'
  check "submit $files names the file" 'grep -q "nonexist.yaml" "$T/err"'
  check "submit $files makes no state directory" '[ -z "$(ls -A "$T/sub")" ]'
  check "submit $files makes no cluster" '[ "$(clusters)" = "$before_clusters" ]'
done
for cmd in submit run; do
  (cd "$T/sub" && "$ARB" $cmd "$T/ok.yaml" --db "host=127.0.0.1 port=1" > "$T/out" 2> "$T/err")
  rc=$?
  check "$cmd --db UNREACHABLE exits 2 (got $rc)" '[ $rc = 2 ]'
  check "$cmd --db UNREACHABLE makes no ./arbiter-state" '[ -z "$(ls -A "$T/sub")" ]'
done
# the scheduler daemon too (it made its state directory and lock first)
(cd "$T/sub" && "$SCHED" --db "host=127.0.0.1 port=1" --state "$T/sub/sched-state" --listen "" --local-workers 1 \
  --metrics "" > "$T/out" 2> "$T/err")
rc=$?
check "arbiter-scheduler --db UNREACHABLE exits 2 (got $rc)" '[ $rc = 2 ]'
check "arbiter-scheduler --db UNREACHABLE makes no state directory" '[ -z "$(ls -A "$T/sub")" ]'
check "arbiter-scheduler --db UNREACHABLE says so: nothing was made ($(head -c 300 "$T/err"))" \
  'grep -q "the database cannot be reached: .*nothing was made (state directory $T/sub/sched-state untouched)" "$T/err"'
rm -f "$T/out" "$T/err"

# an unreachable database (or a conninfo that does not parse) is exit 2,
# said as such: it is not "no tournament of that name"
for args in "status" "standings x" "verify x"; do
  for db in "host=127.0.0.1 port=1" "garbage=="; do
    "$ARB" $args --db "$db" > out 2> err
    rc=$?
    check "$args --db \"$db\" exits 2 (got $rc)" '[ $rc = 2 ]'
    check "$args --db \"$db\" says the database cannot be reached" 'grep -q "the database cannot be reached" err && ! grep -q "no tournament named" err'
    rm -f out err
  done
done

# ---- 4. unknown options and commands ----------------------------------------
"$ARB" run --wrokers 3 t.yaml > out 2> err
check "run --wrokers exits 2" '[ $? = 2 ]'
check "run --wrokers suggests --workers" 'grep -q "arbiter: run: unknown option --wrokers (did you mean --workers?)" err'
check "run --wrokers prints the usage on stderr, nothing on stdout" 'grep -q "^usage: arbiter run" err && [ ! -s out ]'
"$ARB" stauts > /dev/null 2> err
check "a mistyped command exits 2 with a suggestion" '[ $? = 2 ] && grep -q "did you mean \"status\"" err'
"$ARB" standings x --formt json > /dev/null 2> err
check "standings --formt suggests --format" '[ $? = 2 ] && grep -q "did you mean --format?" err'
"$ARB" match --deals > /dev/null 2> err
check "an option without its value exits 2" '[ $? = 2 ] && grep -q "needs a value" err'
"$ARB" moves --game nosuchgame < /dev/null > /dev/null 2> err
check "an unknown game exits 2 naming the games" '[ $? = 2 ] && grep -q "unknown game \"nosuchgame\"; games: dabang doudizhu" err'
"$ARB" rules --format yaml > /dev/null 2> err
check "an unknown format exits 2" '[ $? = 2 ] && grep -q "expected table, json" err'
"$SCHED" --heartbeat-m 5 > /dev/null 2> err
check "the scheduler daemon suggests a key" '[ $? = 2 ] && grep -q "did you mean --heartbeat-ms?" err'
rm -f out err

# ---- 5. --format json -------------------------------------------------------
json() { python3 -m json.tool > /dev/null; }
check "rules --format json parses" '"$ARB" rules --format json | json'
check "rules --format json names the preset" '"$ARB" rules --rules douzero --format json | python3 -c "import json,sys; d=json.load(sys.stdin); assert d[\"preset\"]==\"douzero\" and d[\"game\"]==\"doudizhu\" and \"standard\" in d[\"presets\"]"'
check "rules --presets lists standard" '"$ARB" rules --presets | grep -qx standard'
check "bench rules --format json parses" '"$ARB" bench rules --seconds 0.01 --format json | json'
"$ARB" match --bot 'q"u\\o='"$RB" --bot b="$RB" --bot c="$RB" --sandbox none --format json > q.json 2> /dev/null
cat > name.py <<'PY'
import json, sys
bots = json.load(open(sys.argv[1]))["bots"]
assert bots[0]["name"] == r'q"u\\o', bots[0]["name"]
PY
check "match --format json escapes a bot name with a quote and backslashes" 'python3 name.py q.json'
rm -f name.py
rm -f q.json
"$ARB" match --bot a="$RB" --bot b="$RB" --bot c="$RB" --deals 2 --sandbox none --format json > match.json 2> err
check "match --format json exits 0" '[ $? = 0 ]'
check "match --format json parses" 'json < match.json'
check "match --format json has three bots" 'python3 -c "import json; d=json.load(open(\"match.json\")); assert len(d[\"bots\"]) == 3 and d[\"game\"] == \"doudizhu\""'
check "match --json is --format json" '"$ARB" match --bot a="$RB" --bot b="$RB" --bot c="$RB" --sandbox none --json 2>/dev/null | json'
rm -f match.json err

test_pg_start 55439
D=$(newdb arb_cli)
cat > t.yaml <<YAML
name: cli
format: round-robin
deals: 1
seed: 5
entrants:
  - name: a
    command: $RB
  - name: b
    command: $RB
  - name: c
    command: $RB
YAML
"$ARB" run t.yaml --db "$D" --state "$T/state" --quiet --workers 1 --sandbox none --allow-unsandboxed > run.out 2>&1
check "a one-match tournament runs" '[ $? = 0 ]' || cat run.out
"$ARB" status --db "$D" --format json > status.json
check "status --format json parses" '[ $? = 0 ] && json < status.json'
check "status --format json has the tournament, done" 'python3 -c "import json; d=json.load(open(\"status.json\")); t=d[\"tournaments\"][0]; assert t[\"tournament\"] == \"cli\" and t[\"done\"] == 1 and t[\"state\"] == \"done\", d"'
check "status --format json names the game" 'python3 -c "import json; d=json.load(open(\"status.json\")); assert d[\"tournaments\"][0][\"game\"] == \"doudizhu\", d"'
"$ARB" standings cli --db "$D" --format json > st.json
check "standings --format json parses with three entrants" 'json < st.json && python3 -c "import json; assert len(json.load(open(\"st.json\"))) == 3"'
"$ARB" standings cli --db "$D" --format csv > st.csv
check "standings --format csv has a header and three rows" '[ "$(head -n 1 st.csv)" = "rank,name,played,points,score,wins,penalties,forfeited" ] && [ "$(wc -l < st.csv)" = 4 ]'
"$ARB" standings nosuch --db "$D" > /dev/null 2>&1
check "standings of a tournament not in the record exits 3" '[ $? = 3 ]'
"$ARB" verify cli --db "$D" --format json > v.json
check "verify --format json parses and verifies" '[ $? = 0 ] && python3 -c "import json; d=json.load(open(\"v.json\")); assert d[\"verified\"] is True and d[\"checked\"] == 1, d"'
"$ARB" status --db "$D" > status.txt
check "status (table) still shows the tournament" '[ $? = 0 ] && grep -Eq "^[0-9]+ +cli " status.txt'
check "status (table) has a game column" 'grep -Eq "^id .* game$" status.txt && grep -Eq "^[0-9]+ +cli .* doudizhu$" status.txt'
# The record keeps the text the loader parsed, and its digest: the file is
# read once. A named pipe can be read only once; a second read of it waited
# for a writer that never came (and a file changed in between was recorded
# as another text than the one parsed).
D2=$(newdb arb_cli_pipe)
sed 's/^name: cli$/name: piped/' t.yaml > piped.yaml
mkfifo fifo.yaml
(cat piped.yaml > fifo.yaml &)
timeout 30 "$ARB" submit fifo.yaml --db "$D2" > submit.out 2>&1
check "submit of a named pipe puts the tournament in the record" '[ $? = 0 ]' || cat submit.out >&2
check "submit of a named pipe records the text parsed and its digest" \
  '[ "$(sql "$D2" "select config_text from tournaments where name = '"'piped'"'")" = "$(cat piped.yaml)" ] && [ "$(sql "$D2" "select config_digest from tournaments where name = '"'piped'"'")" = "$(sha256sum < piped.yaml | cut -c1-64)" ]'
sed 's/^name: cli$/name: piped-run/' t.yaml > piped.yaml
(cat piped.yaml > fifo.yaml &)
timeout 60 "$ARB" run fifo.yaml --db "$D2" --state "$T/state-pipe" --quiet --workers 1 --sandbox none --allow-unsandboxed > run.out 2>&1
check "run of a named pipe runs and records the text parsed and its digest" \
  '[ $? = 0 ] && [ "$(sql "$D2" "select config_digest from tournaments where name = '"'piped-run'"'")" = "$(sha256sum < piped.yaml | cut -c1-64)" ]' || cat run.out >&2
rm -f piped.yaml fifo.yaml submit.out

# ---- 6. a state directory with a space, a quote and a backslash -----------
# the private cluster's socket directory goes to the server, and the
# socket and password files into conninfo strings: every character passes
for st in "$T/sp ace/st" "$T/it's \\ \"odd\"/st"; do
  mkdir -p "$(dirname "$st")"
  "$ARB" run t.yaml --state "$st" --quiet --workers 1 --sandbox none --allow-unsandboxed > run.out 2>&1
  check "run --state \"$st\" (private cluster) runs" '[ $? = 0 ]' || { cat run.out; cat "$st/postgres.log" 2>/dev/null | tail -n 5; }
  "$ARB" status --state "$st" > status.txt 2>&1
  check "status --state \"$st\" reads it" '[ $? = 0 ] && grep -Eq "^[0-9]+ +cli " status.txt' || cat status.txt
done
if [ "$(id -u)" = 0 ]; then
  # as root under a 0700 parent the cluster lives in /var/lib/arbiter-clusters/HASH
  # and the work directory in /var/lib/arbiter-work/HASH (removed after)
  mkdir -m 700 "$T/pr ivate"
  st="$T/pr ivate/st"
  hash=$(fnv "$st")
  made+=("/var/lib/arbiter-clusters/$hash" "/var/lib/arbiter-work/$hash")
  "$ARB" run t.yaml --state "$st" --quiet --workers 1 --sandbox none --allow-unsandboxed > run.out 2>&1
  check "run as root under a 0700 parent with a space runs" '[ $? = 0 ] && [ -f "/var/lib/arbiter-clusters/$hash/pg/PG_VERSION" ]' || cat run.out
  "$ARB" standings cli --state "$st" > st.txt 2>&1
  check "standings under a 0700 parent with a space reads it" '[ $? = 0 ] && [ "$(grep -c "^[1-3] " st.txt)" = 3 ]' || cat st.txt
fi
rm -f run.out status.txt st.txt

# ---- 7. refusals before anything is done, and small words ------------------
# (each of these once did the wrong thing: noted per check)
"$ARB" check "$T/nonexist.yaml" > out 2> err
check "check of a file that cannot be read exits 2, as the exit-code table says (was 1)" \
  '[ $? = 2 ] && grep -q "nonexist.yaml: No such file or directory" err && [ ! -s out ]'
printf 'not a bot\n' > notexec; chmod 644 notexec
for b in referee tournament dispatch; do
  for bot in /nonexist "$PWD/notexec"; do
    "$ARB" bench $b --bot "$bot" > out 2> err
    rc=$?
    # was: exit 0 and figures measured from nothing (referee_decisions 0, inf us)
    check "bench $b --bot ${bot##*/} (no bot to run) exits 2 (got $rc)" '[ $rc = 2 ]'
    check "bench $b --bot ${bot##*/} prints no figures, and says why" '[ ! -s out ] && grep -q "bench $b: --bot" err'
  done
done
rm -f notexec out err
# --help first, before --config is opened or a key refused (was: exit 2)
before=$(snapshot)
for args in "$ARB referee --config nofile --help" "$SCHED --config nofile --help" "$ARB scheduler --bogus 1 --help" \
            "$REF -h --config nofile"; do
  $args > out 2> err
  rc=$?
  check "$args: usage on stdout, exit 0 (got $rc)" '[ $rc = 0 ] && grep -q "^usage: arbiter-" out && [ ! -s err ]'
done
rm -f out err
check "the daemons' --help read and created nothing" '[ "$(snapshot)" = "$before" ]'
"$ARB" keygen "" > out 2> err
check "keygen \"\" exits 2 and writes no hidden .key/.pub (was: exit 0, both written)" \
  '[ $? = 2 ] && [ ! -e .key ] && [ ! -e .pub ] && grep -q "NAME must not be empty" err'
"$ARB" keygen --help=x > out 2> err
check "keygen --help=x says --help takes no value (was: unknown option --help, did you mean --help?)" \
  '[ $? = 2 ] && grep -q "keygen: --help takes no value" err && ! grep -q "did you mean" err'
"$ARB" help --help > out 2> err
check "help --help is the general usage, exit 0 (was: unknown command \"--help\", exit 2)" \
  '[ $? = 0 ] && [ "$(cat out)" = "$("$ARB" --help)" ] && [ ! -s err ]'
"$ARB" match --bot a="$RB" --bot b="$RB" --bot c="$RB" --sandbox none \
  --transcript /nonexist/x.arbt > out 2> err
check "match --transcript in a missing directory exits 2 with nothing on stdout (was: the commitment line first)" \
  '[ $? = 2 ] && [ ! -s out ] && grep -q "transcript /nonexist/x.arbt" err'
# a full disk is named as such (was: "match failed: input/output error",
# and a program's unpacking "PATH: write failed")
if [ -w /dev/full ]; then
  # (a transcript is a fresh file renamed over its name: a device is
  # refused, never replaced; docs/cli.md, "Files arbiter writes")
  "$ARB" match --bot a="$RB" --bot b="$RB" --bot c="$RB" --sandbox none --transcript /dev/full > out 2> err; rc=$?
  check "match --transcript /dev/full is refused, the device kept (rc $rc: $(head -c 200 err))" \
    '[ $rc = 2 ] && grep -q "transcript /dev/full: .*not a regular file" err && [ -c /dev/full ]'
  printf 'a:1 b:2\n' | "$ARB" rate --system openskill > /dev/full 2> err; rc=$?
  check "rate > /dev/full fails naming the cause (rc $rc: $(head -c 200 err))" \
    '[ $rc != 0 ] && grep -q "cannot write the ratings: No space left on device" err'
fi
"$ARB" match --bot a="$RB" --bot b="$RB" --bot c="$RB" --sandbox none --deals 1 \
  --transcript one.arbt --quiet > out 2> err
check "a one-deal match says \"1 deal\" (was: \"1 deals\")" '[ $? = 0 ] && grep -q "^match doudizhu/standard, 1 deal, " out'
"$ARB" replay one.arbt > out 2> err
check "replay starts with its first line, not a blank one (was: a blank line first)" \
  '[ $? = 0 ] && head -n 1 out | grep -q "^one.arbt: doudizhu/standard, seed 1, 1 deal, duplicate off$"'
"$ARB" replay one.arbt --show > out 2> err
check "replay --show still sets the summary apart from the deals with a blank line" \
  '[ $? = 0 ] && grep -B1 "^one.arbt: doudizhu" out | head -n 1 | grep -q "^$"'
rm -f out err one.arbt
check "match --help gives the forfeit stake's default as the game's (was: default 6)" \
  '"$ARB" match --help | grep -q -- "--forfeit-points N .*the game'"'"'s own, 6 for doudizhu"'
"$ARB" rules > out
check "rules names the preset first and ends with a newline" \
  '[ "$(head -n 1 out)" = "preset=standard" ] && [ "$(grep -c "^preset=" out)" = 1 ] && [ "$(tail -c 1 out | od -An -c | tr -d " ")" = "\n" ]'
rm -f out

# ---- Dou Dizhu: arbiter play's table line, arbiter moves with wild cards ----
"$ARB" play --seed 1 --deals 20 --set bidding=fixed > out 2> err
check "play with a fixed landlord prints the landlord line of every deal (was: none)" \
  '[ $? = 0 ] && [ "$(grep -c "^deal " out)" = 20 ] && [ "$(grep -c "^  landlord seat0, stake 1, kitty [3-9TJQKA2BR]* shown to all$" out)" = 20 ]'
check "play with a fixed landlord prints the landlord line before the first play" \
  '[ "$(sed -n 6p out | cut -c1-17)" = "  landlord seat0," ]'
"$ARB" play --rules four-player --seed 1 --deals 300 --set four_jokers_claim=true > out 2> err
check "play prints the landlord line of a deal won by the four-jokers claim (was: none)" \
  '[ $? = 0 ] && grep -q "wins by the claim: landlord win; bombs 1" out && [ "$(grep -c "^deal " out)" = "$(grep -c "^  landlord seat[0-3], stake" out)" ]'
"$ARB" play --rules four-player --seed 1 --deals 300 --set four_jokers_claim=true,claim_mode=separate > out 2> err
check "claim_mode=separate: the claimed deals are played out" \
  '[ $? = 0 ] && grep -q "does claim" out && ! grep -q "wins by the claim" out'
printf '3377\n55 4444\n7777 3337=3333\n3377 3337=333+7\n' > in
"$ARB" moves --set wild=1,wild_ranks=7 < in > out 2> err
check "moves with a named wild rank lists plays with = (was: wild ignored)" \
  '[ $? = 0 ] && [ "$(sed -n 1p out)" = "3 33 7=2 37=33 337=333 77=22 377=333 3377=3333" ] && [ "$(sed -n 2p out)" = pass ]'
check "moves reads a previous play written with = (was: refused)" \
  '[ "$(sed -n 3p out)" = "7777 pass" ] && [ "$(sed -n 4p out)" = "3377=3333 pass" ]'
"$ARB" moves --set wild=1,wild_ranks=7 --readings < in > out 2> err
check "moves --readings with wild cards names the reading" \
  '[ $? = 0 ] && sed -n 1p out | tr " " "\n" | grep -qx "3377=3333/bomb"'
printf '5555 TTTT\nTTTT 5555\n' | "$ARB" moves --set wild=2,wild_ranks=5T > out 2> err
check "moves: of two pure wild bombs the higher rank beats the other (DDZ-83)" \
  '[ $? = 0 ] && [ "$(sed -n 1p out)" = pass ] && [ "$(sed -n 2p out)" = "TTTT pass" ]'
"$ARB" moves --set wild=1 < in > out 2> err
check "moves --set wild=1 without the ranks exits 2 naming wild_ranks (was: wild ignored)" \
  '[ $? = 2 ] && [ ! -s out ] && grep -q "wild_ranks=7" err'
"$ARB" moves --set wild_ranks=7 < in > out 2> err
check "wild_ranks without wild is refused" '[ $? = 2 ] && grep -q "set wild=1 too" err'
"$ARB" moves --set chain.min=1 < in > out 2> err
check "chain.min=1 is refused naming the smallest allowed (was: 3/solo 3/chain)" \
  '[ $? = 2 ] && grep -qF "\"chain.min\": expected a length 2..12 (one unit is a solo)" err'
"$ARB" rules --set four_jokers_claim=true,claim_mode=separate > out 2> err
check "rules prints claim_mode and wild_ranks" \
  '[ $? = 0 ] && grep -qx "claim_mode=separate" out && grep -qx "wild_ranks=none" out'
rm -f in out err

echo "test_cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
