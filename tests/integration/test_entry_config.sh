#!/usr/bin/env bash
# test_entry_config.sh — what an entrant declares beside its command
# (issue 30): a start-up budget and environment variables, and the ladder's
# rough edges, on a real PostgreSQL with real bots:
#   1. `arbiter check`: a budget past the tournament's limit, a refused
#      variable (LD_PRELOAD, PATH, ARBITER_*), a limit below the clock's
#      start-up: each an error naming FILE:LINE:COL and why;
#   2. a tournament: a bot that takes 1.5 s to start plays under its own
#      budget (2.5 s) where the clock's 1 s forfeits the same bot declared
#      without one; each of its processes (three duplicate seatings) pays
#      it once; it sees its variables and no refused one; the transcript's
#      header keeps its budget and variables, the handshake's reply how
#      long its start took, and the match replays from the record;
#   3. a ladder: `ladder join --startup-ms/--env` refused past the limit or
#      for a refused name; an entry that declares both is validated, the
#      record keeping them; the hint join prints works as pasted (a name
#      with a space, --db repeated); a rejected entry's verdict quotes its
#      stderr and `ladder list` shows it without --all; the entry's page
#      lists its validation match once, with its three seats.
# Usage: test_entry_config.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" entry-config
. "$(dirname "$0")/../lib/test_serve.sh"
test_pg_start 55517
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
SLOW="$SRC/tests/bots/slow_start.sh $BOTS/random_bot"
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; stop_serve; cleanup' EXIT

# ---- 1. arbiter check ----------------------------------------------------------
head_yaml() {   # head_yaml NAME FORMAT CLOCK
  printf 'name: %s\ngame: doudizhu\nformat: %s\ndeals: 1\nduplicate: rotate\nseed: 3\nfiles_root: /\nclock: %s\n' "$1" "$2" "$3"
}
{ head_yaml over round-robin '{move_ms: 1000, startup_ms: 1000, startup_ms_max: 3000}'
  printf 'entrants:\n  - {name: a, command: %s/random_bot}\n  - name: slow\n    command: %s\n    startup_ms: 30000\n  - {name: c, command: %s/random_bot}\n' "$BOTS" "$SLOW" "$BOTS"
} > "$T/over.yaml"
"$ARB" check "$T/over.yaml" > "$T/c1.out" 2>&1
check "a budget past the limit: FILE:LINE:COL, the value and the limit" \
  '[ $? != 0 ] && grep -q "over.yaml:13:17: startup_ms: 30000 is over this tournament.s limit, 3000 ms (clock.startup_ms_max)" "$T/c1.out"' || cat "$T/c1.out" >&2
for bad in "LD_PRELOAD: /tmp/x.so|LD_PRELOAD: not a variable a bot may set: read by the dynamic loader" \
           "PATH: /x|PATH: not a variable a bot may set: set by the referee" \
           "ARBITER_BOT: 2|ARBITER_BOT: not a variable a bot may set: the referee.s own prefix" \
           "GLIBC_TUNABLES: x|GLIBC_TUNABLES: not a variable a bot may set" \
           "lower: x|\"lower\": a variable.s name is 1 to 64 of A-Z 0-9 _"; do
  kv=${bad%%|*} want=${bad#*|}
  { head_yaml envbad round-robin '{move_ms: 1000}'
    printf 'entrants:\n  - {name: a, command: %s/random_bot}\n  - name: b\n    command: %s/random_bot\n    env: {OK_ONE: 1, %s}\n  - {name: c, command: %s/random_bot}\n' "$BOTS" "$BOTS" "$kv" "$BOTS"
  } > "$T/env.yaml"
  "$ARB" check "$T/env.yaml" > "$T/c2.out" 2>&1
  check "env {$kv} refused at its line, with the reason" '[ $? != 0 ] && grep -q "env.yaml:13:.*env: $want" "$T/c2.out"' || cat "$T/c2.out" >&2
done
{ head_yaml low round-robin '{move_ms: 1000, startup_ms: 5000, startup_ms_max: 2000}'
  printf 'entrants:\n  - {name: a, command: %s/random_bot}\n  - {name: b, command: %s/random_bot}\n  - {name: c, command: %s/random_bot}\n' "$BOTS" "$BOTS" "$BOTS"
} > "$T/low.yaml"
"$ARB" check "$T/low.yaml" > "$T/c3.out" 2>&1
check "a limit below the clock's start-up is refused at its place" \
  '[ $? != 0 ] && grep -q "low.yaml:8:.*clock.startup_ms_max: 2000 is below clock.startup_ms, 5000" "$T/c3.out"' || cat "$T/c3.out" >&2

# ---- 2. a tournament -----------------------------------------------------------
{ head_yaml budget round-robin '{move_ms: 1000, bank_ms: 5000, startup_ms: 1000, startup_ms_max: 3000}'
  printf 'entrants:\n  - name: slow\n    command: %s\n    startup_ms: 2500\n    env: {SLOW_SAY: "hello world", SLOW_START_S: "1.5"}\n' "$SLOW"
  # 4 s, not 1.5: the referee gives a bot the benefit of the doubt when it
  # looks at a handshake after the budget ran out and finds it written (a
  # loaded host reaching the third bot's handshake 1.5 s after its start);
  # 4 s is past the clock's 1 s however late the referee looks
  printf '  - name: slow-nobudget\n    command: %s\n    env: {SLOW_START_S: "4"}\n' "$SLOW"
  printf '  - {name: rnd, command: %s/random_bot}\n' "$BOTS"
} > "$T/budget.yaml"
check "the file with a budget and variables checks" '"$ARB" check "$T/budget.yaml" > "$T/c4.out" 2>&1' || cat "$T/c4.out" >&2
DB=$(newdb arb_entry_a)
"$ARB" run "$T/budget.yaml" --db "$DB" --state "$T/a" --quiet --workers 1 --secret-file "$T/secret" > "$T/run.out" 2>&1
check "the tournament runs" '[ $? = 0 ]' || tail -n 20 "$T/run.out" >&2
M=$(sql "$DB" "SELECT min(id) FROM matches")
pen() { sql "$DB" "SELECT count(*) FROM penalties p JOIN match_seats s ON s.match_id = p.match_id AND s.slot = p.slot JOIN entrants e ON e.idx = s.entrant AND e.tournament_id = (SELECT tournament_id FROM matches WHERE id = $M) WHERE p.match_id = $M AND e.name = '$1' AND p.reason = 'handshake'"; }
check "slow starts in 1.5 s within its own 2.5 s budget: no handshake penalty" '[ "$(pen slow)" = 0 ]'
check "the same bot, slower and without a budget of its own, forfeits at the clock's 1 s" '[ "$(pen slow-nobudget)" -ge 1 ]' \
  || sql "$DB" "SELECT p.match_id, p.slot, p.reason, p.note FROM penalties p ORDER BY 1, 2" >&2
"$ARB" replay --match "$M" --db "$DB" --json > "$T/tr.json" 2> "$T/tr.err"
check "the match replays from the record" '[ $? = 0 ]' || cat "$T/tr.err" >&2
python3 - "$T/tr.json" > "$T/tr.check" 2>&1 <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
head = next(r for r in recs if r.get("type") in (0, "header"))
text = json.dumps(head)
bots = None
def find(o):
    global bots
    if isinstance(o, dict):
        if "bots" in o and isinstance(o["bots"], list): bots = o["bots"]
        for v in o.values(): find(v)
    elif isinstance(o, list):
        for v in o: find(v)
find(head)
slow = next(i for i, b in enumerate(bots) if b["name"] == "slow")
nob = next(i for i, b in enumerate(bots) if b["name"] == "slow-nobudget")
print("budget", bots[slow].get("startup_ms"), "env", sorted(bots[slow].get("env", [])), "nobudget", bots[nob].get("startup_ms"))
EOF
check "the header keeps slow's budget and variables (and none for the one that declared none)" \
  'grep -q "budget 2500 env \[.SLOW_SAY=hello world., .SLOW_START_S=1.5.\] nobudget None" "$T/tr.check"' || cat "$T/tr.check" "$T/tr.json" | head -5 >&2
"$ARB" replay --match "$M" --db "$DB" --dump > "$T/tr.dump" 2>&1
# the handshake replies of slow (its processes: one per seating): their wall time from its start
slow_idx=$(python3 -c "
import json,sys
for l in open('$T/tr.json'):
    r=json.loads(l)
    s=json.dumps(r)
    if '\"bots\"' in s:
        def f(o):
            if isinstance(o,dict):
                if 'bots' in o: return o['bots']
                for v in o.values():
                    x=f(v)
                    if x: return x
        b=f(r); print([i for i,x in enumerate(b) if x['name']=='slow'][0]); break")
"$ARB" replay --match "$M" --db "$DB" --stderr slow > "$T/slow.err" 2>&1
check "slow sees its variables and neither LD_PRELOAD nor another PATH" \
  'grep -q "SLOW_SAY=hello world LD_PRELOAD=unset PATH=/usr/local/bin:/usr/bin:/bin" "$T/slow.err"' || cat "$T/slow.err" >&2
python3 - "$T/tr.json" "$slow_idx" > "$T/hello.check" 2>&1 <<'EOF'
import json, sys
bot = int(sys.argv[2])
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
# the first reply of each process of the bot: after its start and after each restart
fresh, walls, restarts = True, [], 0
for r in recs:
    t = r.get("type")
    if t in ("restart",) and r.get("bot") == bot:
        fresh = True; restarts += 1
    if t in ("recv",) and r.get("bot") == bot and fresh:
        walls.append(r.get("wall_ns")); fresh = False
print("restarts", restarts, "handshakes", len(walls), "min_ms", min(walls) // 1000000 if walls else -1,
      "max_ms", max(walls) // 1000000 if walls else -1)
EOF
read -r _ restarts _ nhello _ minms _ maxms < "$T/hello.check"
check "each of slow's processes (3 seatings) spent its start once: its handshake took 1.5 to 2.5 s" \
  '[ "$restarts" = 2 ] && [ "$nhello" = 3 ] && [ "$minms" -ge 1400 ] && [ "$maxms" -lt 2500 ]' || cat "$T/hello.check" >&2

# ---- 3. a ladder ------------------------------------------------------------------
{ head_yaml "my ladder" ladder '{move_ms: 1000, bank_ms: 5000, startup_ms: 1000, startup_ms_max: 3000}'
  printf 'rating: openskill\nladder: {concurrent: 1, provisional: 5, matches: 0}\nentrants:\n'
  printf '  - {name: greedy, command: %s/greedy_bot}\n  - {name: random, command: %s/random_bot}\n  - {name: random2, command: %s/random_bot}\n' "$BOTS" "$BOTS" "$BOTS"
} > "$T/l.yaml"
DB=$(newdb arb_entry_l)
"$ARB" run "$T/l.yaml" --db "$DB" --state "$T/l" --quiet --workers 2 --secret-file "$T/secret" > "$T/l.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do [ "$(sql "$DB" "SELECT count(*) FROM ladder_entries" 2>/dev/null || echo 0)" -ge 3 ] && break; sleep 0.1; done
J() { "$ARB" ladder join "my ladder" "$@" --db "$DB"; }
J fat --command "$SLOW" --startup-ms 9000 > "$T/j1.out" 2>&1
check "--startup-ms past the ladder's limit refused, the limit named" \
  '[ $? = 2 ] && grep -q "startup-ms 9000 is over the ladder.s limit, 3000 ms" "$T/j1.out"' || cat "$T/j1.out" >&2
J pre --command "$SLOW" --env LD_PRELOAD=/tmp/x.so > "$T/j2.out" 2>&1
check "--env LD_PRELOAD refused with the reason" \
  '[ $? = 2 ] && grep -q "LD_PRELOAD: not a variable a bot may set: read by the dynamic loader" "$T/j2.out"' || cat "$T/j2.out" >&2
J slow --command "$SLOW" --startup-ms 2500 --env SLOW_SAY=ladder --env SLOW_START_S=1.5 > "$T/j3.out" 2>&1
check "an entry declaring a budget and variables joins" '[ $? = 0 ]' || cat "$T/j3.out" >&2
check "the record keeps them with the entry" \
  '[ "$(sql "$DB" "SELECT le.startup_ms || '"' '"' || array_to_string(le.env, '"','"') FROM ladder_entries le JOIN entrants e ON e.idx = le.entrant AND e.tournament_id = le.tournament_id WHERE e.name = '"'slow'"'")" = "2500 SLOW_SAY=ladder,SLOW_START_S=1.5" ]'
hint=$(sed -n 's/.*its verdict: //p' "$T/j3.out")
want="arbiter ladder list 'my ladder' --db '$DB'"
check "the hint quotes the ladder's name and repeats --db (quoted: a conninfo has spaces)" '[ "$hint" = "$want" ]'
eval "\"$ARB\" ${hint#arbiter }" > "$T/hint.out" 2>&1
check "the hint works as pasted" '[ $? = 0 ] && grep -q "^.*slow " "$T/hint.out"' || cat "$T/hint.out" >&2
J broken --command "$SRC/tests/bots/import_error.sh" > /dev/null 2>&1
for _ in $(seq 1 600); do
  [ "$(sql "$DB" "SELECT count(*) FROM ladder_entries WHERE status IN ('active', 'rejected') AND validation_match IS NOT NULL")" -ge 2 ] && break
  sleep 0.1
done
st() { sql "$DB" "SELECT le.$2 FROM ladder_entries le JOIN entrants e ON e.idx = le.entrant AND e.tournament_id = le.tournament_id WHERE e.name = '$1'"; }
check "slow (1.5 s to start, its budget 2.5 s, the clock's 1 s) is validated" '[ "$(st slow status)" = active ]' || st slow verdict >&2
check "broken is rejected, its verdict quoting its own stderr" \
  '[ "$(st broken status)" = rejected ] && st broken verdict | grep -q "its stderr ends: \".*ModuleNotFoundError: No module named '"'rlcard'"'\""' || st broken verdict >&2
"$ARB" ladder list "my ladder" --db "$DB" > "$T/list.out" 2>&1
check "ladder list shows the rejected entry and why, without --all" \
  'grep -q "broken .*rejected: rejected by match .*No module named" "$T/list.out"' || cat "$T/list.out" >&2
TID=$(sql "$DB" "SELECT id FROM tournaments")
VM=$(st slow validation_match) IDX=$(st slow entrant)
start_serve "$DB" serve
curl -s "http://127.0.0.1:$PORT/api/t/$TID/e/$IDX" > "$T/e.json"
check "the entry's page lists its validation match once, with its three seats" \
  '[ "$(python3 -c "import json,sys; m=[x for x in json.load(open(sys.argv[1]))[\"matches\"] if x[\"id\"]==int(sys.argv[2])]; print(len(m), len(m[0][\"seats\"]) if m else 0)" "$T/e.json" "$VM")" = "1 3" ]' || head -c 600 "$T/e.json" >&2
stop_serve

echo "test_entry_config: $pass passed, $fail failed"
[ "$fail" = 0 ]
