#!/usr/bin/env bash
# rec_escape.sh — a bot's bytes never drive the terminal: a bot whose hello,
# replies and stderr carry escape sequences (clear screen, window title,
# colours), C0/C1 controls, a carriage return, a bidirectional override and
# invalid UTF-8 (rec_escape_bot.py) plays `arbiter match`, its transcript is
# shown by `arbiter replay --show`, and it plays a tournament under
# `arbiter run` (progress lines, standings), then `arbiter status` and
# `standings`; and at a Da Bang table (`match --game dabang`, `replay
# --show`). No output holds a raw control byte (other than newline), a
# C1 control or a bidirectional override; the escaped text is there (shown,
# not dropped). Usage: rec_escape.sh ARBITER SOURCE_ROOT
set -u
ARB=$1 SRC=$2
T=$(mktemp -d /tmp/arbiter-rec-escape.XXXXXX)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
EVIL=$SRC/tests/adversarial/rec_escape_bot.py FIRST=$SRC/tests/bots/first_legal.py
# raw control bytes but newline, DEL, C1 (as UTF-8), bidi overrides, invalid UTF-8
clean() { python3 - "$1" <<'PY'
import re, sys
b = open(sys.argv[1], "rb").read()
bad = re.search(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]", b)
try:
    b.decode("utf-8")
except UnicodeDecodeError as e:
    bad = bad or e
sys.exit(1 if bad else 0)
PY
}
cd "$T" || exit 2

"$ARB" match --bot evil="$EVIL" --bot a="$FIRST" --bot b="$FIRST" --deals 2 --transcript "$T/m.arbt" > match.out 2>&1
check "match runs" '[ $? = 0 ]'
check "match output: no raw control bytes" 'clean match.out'
check "match output: the reply shown escaped" 'grep -qF "\\e[2J\\e]0;pwned\\x07" match.out'
check "match output: the stderr tail shown escaped" 'grep -qF "stderr: \\e[2J" match.out'
"$ARB" match --bot evil="$EVIL hello" --bot a="$FIRST" --bot b="$FIRST" --deals 1 > hello.out 2>&1
check "a hostile hello: no raw control bytes" 'clean hello.out'
check "a hostile hello: shown escaped" 'grep -qF "bot 1 x\\e[2J" hello.out'

"$ARB" replay "$T/m.arbt" --show > replay.out 2>&1
check "replay --show: no raw control bytes" 'clean replay.out'
check "replay --show: the penalty shown escaped" 'grep -qF "\\e]0;pwned" replay.out'

"$ARB" match --game dabang --bot evil="$EVIL" --bot a="$FIRST" --bot b="$FIRST" --bot c="$FIRST" --deals 1 \
  --transcript "$T/db.arbt" > dbmatch.out 2>&1
check "dabang: match runs" '[ $? = 0 ]'
check "dabang: match output: no raw control bytes" 'clean dbmatch.out && grep -qF "\e[2J" dbmatch.out'
"$ARB" replay "$T/db.arbt" --show > dbreplay.out 2>&1
check "dabang: replay --show: no raw control bytes" 'clean dbreplay.out && grep -qF "\e]0;pwned" dbreplay.out'
# a team's name with escapes: the deal's summary at its end (the hands by
# name) shows it escaped too
"$ARB" match --game dabang --team "$(printf 'T\033[2J')=$FIRST" --team "U=$FIRST" --deals 1 \
  --transcript "$T/dbname.arbt" > /dev/null 2>&1
"$ARB" replay "$T/dbname.arbt" --show > dbname.out 2>&1
check "dabang: replay --show's deal summary: a name's escapes shown escaped" \
  'clean dbname.out && grep -A1 "the deal as drawn" dbname.out | grep -qF "T\e[2J-1"'

{ echo "name: escapes"; echo "deals: 2"; echo "seed: 5"; echo "entrants:"
  echo "  - {name: evil, command: $EVIL}"
  echo "  - {name: a, command: $FIRST}"
  echo "  - {name: b, command: $FIRST}"; } > t.yaml
"$ARB" run t.yaml --state "$T/st" > run.out 2>&1
check "run completes" '[ $? = 0 ] && grep -q "final standings" run.out'
check "run output (progress, standings): no raw control bytes" 'clean run.out'
"$ARB" status --state "$T/st" > status.out 2>&1
check "status: no raw control bytes" 'clean status.out'
"$ARB" standings escapes --state "$T/st" > standings.out 2>&1
check "standings: no raw control bytes" 'clean standings.out && grep -q evil standings.out'
# the transcripts, from the record (the worker's files are gone once recorded)
for m in $("$ARB" psql --state "$T/st" -qAtc "SELECT id FROM matches WHERE state = 'done'"); do
  "$ARB" replay --match "$m" --state "$T/st" --show
done > replay2.out 2>&1
check "replay of the tournament's transcripts: no raw control bytes" 'clean replay2.out && grep -qF "\\e[2J" replay2.out'
echo "rec_escape: $pass passed, $fail failed"
[ "$fail" = 0 ]
