#!/bin/bash
# sbx_bytes.sh — a reply with a NUL in it ("pass<NUL>junk") is malformed in a
# real match (arbiter match): before, the referee read it as "pass". The
# same at a Da Bang table, where "pass" is a legal answer to `ask declare`.
# usage: sbx_bytes.sh ARBITER RANDOM_BOT SOURCE_ROOT
set -u
arbiter=$1 random=$2 src=$3
out=$(mktemp) && trap 'rm -f "$out"' EXIT
"$arbiter" match --deals 1 --seed 7 --fixed-seats --strikes 100 \
    --bot nul="$src/tests/bots/sbx_nul_bot.sh" --bot a="$random" --bot b="$random" >"$out" 2>&1
rc=$?
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi; }
check "the match ran (exit $rc)" '[ $rc -eq 0 ]'
check "the NUL reply is judged malformed" 'grep -q "penalty: bot nul.*malformed" "$out"'
check "never read as a pass or judged illegal" '! grep -q "penalty: bot nul.*illegal" "$out"'
# The NUL is marked (0x1A), and the terminal shows the marker escaped.
check "the penalty quotes the whole reply, NUL marked" 'grep -q "pass\\\\x1ajunk" "$out"'
[ $fail -eq 0 ] || cat "$out"
first=$src/tests/bots/first_legal.py
"$arbiter" match --game dabang --deals 1 --seed 7 --fixed-seats --strikes 1000 \
    --bot nul="$src/tests/bots/sbx_nul_bot.sh" --bot a="$first" --bot b="$first" --bot c="$first" >"$out" 2>&1
rc=$?
before=$fail
check "dabang: the match ran (exit $rc)" '[ $rc -eq 0 ]'
check "dabang: the NUL reply is judged malformed" 'grep -q "penalty: bot nul.*malformed" "$out"'
check "dabang: never read as a pass or judged illegal" '! grep -q "penalty: bot nul.*illegal" "$out"'
check "dabang: the penalty quotes the whole reply, NUL marked" 'grep -q "pass\\\\x1ajunk" "$out"'
[ $fail -eq "$before" ] || cat "$out"
exit $fail
