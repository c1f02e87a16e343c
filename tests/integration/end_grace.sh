#!/usr/bin/env bash
# end_grace.sh — a bot ends as the protocol says (issue 26): told "end", it
# gets a grace to exit by itself (--end-grace-ms, ARB_BOT_END_GRACE_MS);
# what it writes until then is kept, and only a bot still running after the
# grace is recorded as killed, with the referee's line saying so. Before,
# every bot was killed 50 ms after "end" and read "killed by SIGKILL": the
# SDK's Python example too, and what it wrote at exit was lost.
# argv: arbiter random_bot tests/bots bots-sdk/python
set -u
arbiter=$1 random=$2 bots=$3 sdk=$4
. "$(dirname "$0")/../lib/check.sh"
test_enter end-grace
trap 'cd /; rm -rf "$T"' EXIT

# A C bot, a Python bot that takes 0.3 s to exit and writes at exit, and the
# SDK's Python example: each seating ends with "end" (3 seatings, rotate).
"$arbiter" match --bot c="$random" --bot s="$bots/end_grace.py slowexit" --bot p="$sdk/random_bot.py" \
  --deals 1 --duplicate rotate --end-grace-ms 2000 --transcript ok.arbt > ok.out 2>&1
check "the match is played" '[ $? = 0 ] && grep -q "3 games" ok.out'
for b in 0 1 2; do "$arbiter" replay ok.arbt --stderr "$b" > "end$b.txt" 2>&1; done
check "the C bot exits by itself, every process" '[ "$(grep -c "exited with status 0" end0.txt)" = 3 ] && ! grep -q killed end0.txt'
check "the SDK's Python bot exits by itself" '[ "$(grep -c "exited with status 0" end2.txt)" = 3 ] && ! grep -q killed end2.txt'
check "a bot that takes 0.3 s to exit is not killed" '[ "$(grep -c "exited with status 0" end1.txt)" = 3 ]'
check "what it writes at exit is kept" '[ "$(grep -c "goodbye, written at exit" end1.txt)" = 3 ]'

# A bot that never exits: killed after its grace (0.4 s), said so, its
# stderr until then kept; the match waits for the grace, not for ever.
start=$(date +%s%N)
"$arbiter" match --bot c="$random" --bot l="$bots/end_grace.py linger" --bot s="$bots/end_grace.py slowexit" \
  --deals 1 --duplicate rotate --end-grace-ms 400 --transcript linger.arbt > linger.out 2>&1
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "the match with a lingering bot is played" '[ $rc = 0 ] && grep -q "3 games" linger.out'
"$arbiter" replay linger.arbt --stderr 1 > linger1.txt 2>&1
check "the lingering bot is killed, each of its 3 processes" '[ "$(grep -c "killed by the referee (SIGKILL)" linger1.txt)" = 3 ]'
check "its stderr before the kill is kept" '[ "$(grep -c "^lingering" linger1.txt)" = 3 ]'
check "the referee says why it was killed" '[ "$(grep -c "^arbiter: killed: still running 400 ms after \"end\"" linger1.txt)" = 3 ]'
check "and the process's heading says it too" '[ "$(grep -c "SIGKILL): still running 400 ms after \"end\"" linger1.txt)" = 3 ]'

check "the match waited the grace three times, not for ever (${ms} ms)" '[ "$ms" -ge 1200 ] && [ "$ms" -lt 20000 ]'

# The graces of one table run at once: three lingering bots cost one grace
# per seating change, not three.
start=$(date +%s%N)
"$arbiter" match --bot a="$bots/end_grace.py linger" --bot b="$bots/end_grace.py linger" \
  --bot c="$bots/end_grace.py linger" --deals 1 --end-grace-ms 1000 > three.out 2>&1
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "three lingering bots at one table cost one grace, not three (${ms} ms)" '[ "$ms" -ge 1000 ] && [ "$ms" -lt 2500 ]'

# Without a cgroup (ARBITER_NO_CGROUP=1; also a referee under `ip netns
# exec`, which hides /sys/fs/cgroup) no sandbox is built ahead, and the
# restarts between seatings kill no live bot: a sandbox made ahead and
# thrown away was stopped with the uid-wide kill, which took the bot of the
# same uid still playing (every restart of a duplicate match forfeited
# bots: the daemons test's referee in a network namespace).
ARBITER_NO_CGROUP=1 "$arbiter" match --bot a="$random" --bot b="$random" --bot c="$random" --deals 2 \
  --duplicate rotate --format json > nocg.json 2> nocg.err
check "without a cgroup, a duplicate match is played" '[ $? = 0 ]'
check "without a cgroup, no bot is penalised across the restarts" \
  '[ "$(python3 -c "import json,sys; r=json.load(open(\"nocg.json\")); print(sum(b[\"penalties\"] for b in r[\"bots\"]))")" = 0 ]'

echo "end grace: $pass passed, $fail failed"
[ "$fail" = 0 ]
