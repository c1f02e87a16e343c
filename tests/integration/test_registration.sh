#!/usr/bin/env bash
# test_registration.sh — an open tournament (registration:, schemas/
# tournament.md "Registration") end to end on a real PostgreSQL with real
# bots and `arbiter run`, from this host (arbiter register; the API's route
# is tested with the server):
#   1. submitted with no entrant of its own, it waits: status says
#      "registration open until ... (N registered)"; three bots register;
#      a name taken and a command naming no file of its own are refused;
#   2. after the deadline a fourth is refused (closed), the tournament
#      starts with the three, plays every match and finishes; the
#      registered play their programs from the record (the files removed
#      after registering); their order is SHA-256(secret || label || name),
#      recomputed from the revealed secret;
#   3. one registered for a table of three: not started, and why, in its
#      events and its status.
# Usage: test_registration.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" registration-test
test_pg_start 55481
D=$(newdb reg1)
cd "$T" || exit 2
cp "$BOTS/random_bot" "$T/rb"
deadline() { date -u -d "+$1 seconds" +%Y-%m-%dT%H:%M:%SZ; }

# 1. open: registrations before the deadline
cat > open.yaml <<EOF2
name: Open Cup
registration: {until: $(deadline 14), per_account: 2}
deals: 2
seed: 11
EOF2
"$ARB" submit open.yaml --db "$D" > submit.out 2>&1
check "submitted" "grep -q submitted submit.out"
"$ARB" run open.yaml --db "$D" --state "$T/st" --quiet --workers 2 > run.out 2>&1 &
run=$!
for n in carol alice bob; do
  "$ARB" register "Open Cup" "$n" --command "./rb" --db "$D" >> reg.out 2>&1
  check "$n registered" "[ $? = 0 ]"
done
"$ARB" register "Open Cup" alice --command "./rb" --db "$D" > taken.out 2>&1
check "a name taken: exit 2" "[ $? = 2 ] && grep -q 'name alice is taken' taken.out"
"$ARB" register "Open Cup" dave --command "/bin/true" --db "$D" > sys.out 2>&1
check "a system program: refused, exit 2" "[ $? = 2 ] && grep -q 'names no file of its own' sys.out"
"$ARB" status --db "$D" > status.out 2>&1
check "status: registration open (3 registered)" "grep -q 'registration open until .* (3 registered)' status.out"
rm -f "$T/rb"   # from now on only the record has the program
wait "$run"
check "the run finished" "[ $? = 0 ]"
cp "$BOTS/random_bot" "$T/rb"
"$ARB" register "Open Cup" erin --command "./rb" --db "$D" > late.out 2>&1
check "after the deadline: refused (closed), exit 2" "[ $? = 2 ] && grep -q 'registration is closed' late.out"
tid=$(sql "$D" "SELECT id FROM tournaments WHERE name = 'Open Cup'")
check "finished" "[ \"\$(sql \"$D\" \"SELECT state FROM tournaments WHERE id = $tid\")\" = done ]"
check "three entrants, one match done" "[ \"\$(sql \"$D\" \"SELECT count(*) FROM entrants WHERE tournament_id = $tid\")/\$(sql \"$D\" \"SELECT count(*) FROM matches WHERE tournament_id = $tid AND state = 'done'\")\" = 3/1 ]"
check "each plays its recorded program" "[ \"\$(sql \"$D\" \"SELECT count(*) FROM entrant_programs WHERE tournament_id = $tid\")\" = 3 ]"
# the order: sha256(secret || 'arbiter registration order ' || name)
secret=$(sql "$D" "SELECT encode(secret, 'hex') FROM tournaments WHERE id = $tid")
want=$(python3 -c "
import hashlib,sys
s=bytes.fromhex('$secret')
print(' '.join(sorted(['alice','bob','carol'], key=lambda n: hashlib.sha256(s+b'arbiter registration order '+n.encode()).digest())))")
got=$(sql "$D" "SELECT string_agg(name, ' ' ORDER BY idx) FROM entrants WHERE tournament_id = $tid")
check "entrants in the secret's order ($want)" "[ \"$got\" = \"$want\" ]"
check "registration events" "[ \"\$(sql \"$D\" \"SELECT count(*) FROM events WHERE tournament_id = $tid AND kind = 'registration'\")\" = 4 ]"

# 3. too few: not started, and why
cat > few.yaml <<EOF2
name: Few Cup
registration: {until: $(deadline 5)}
EOF2
"$ARB" submit few.yaml --db "$D" > /dev/null 2>&1
"$ARB" register "Few Cup" solo --command "./rb" --db "$D" > /dev/null 2>&1
sleep 6
"$ARB" run few.yaml --db "$D" --state "$T/st" --quiet --workers 1 > few.out 2>&1
check "too few: the run fails" "[ $? != 0 ] && grep -q 'does not start: 1 entrant (0 from the file, 1 registered)' few.out"
"$ARB" status --db "$D" > status2.out 2>&1
check "status: not started, and why" "grep -q 'not started: 1 entrant' status2.out"
check "a not-started event" "[ \"\$(sql \"$D\" \"SELECT count(*) FROM events e JOIN tournaments t ON t.id = e.tournament_id WHERE t.name = 'Few Cup' AND kind = 'not-started'\")\" = 1 ]"

echo "registration: $pass passed, $fail failed"
[ "$fail" = 0 ]
