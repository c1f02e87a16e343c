#!/usr/bin/env bash
# rec_moves.sh — `arbiter moves` holds its line limit exactly and stays in
# step: a line of ARB_MAX_LINE (4,096) bytes is read as a line, 4,097 bytes
# get an error line, a NUL byte gets an error for its own line only (it
# used to hide the newline and swallow the next line, so every later
# answer belonged to the wrong question). One answer line per input line.
# Usage: rec_moves.sh ARBITER
set -u
ARB=$1
T=$(mktemp -d /tmp/arbiter-rec-moves.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }

python3 - "$T/in" <<'PY'
import sys
lines = [
    b"5" + b" " * 4095,          # 4,096 bytes: a hand of one card
    b"5" + b" " * 4096,          # 4,097 bytes: too long
    b"3\x00",                    # a NUL: its newline must still end it
    b"4",                        # answered as itself
    b"33\x00 44",                # a NUL in the middle
    b"6",
    b"7" + b" " * 4094 + b"\r",  # 4,096 bytes before CR LF
]
open(sys.argv[1], "wb").write(b"\n".join(lines) + b"\n")
PY
"$ARB" moves < "$T/in" > "$T/out" 2>&1
check "exit 0" '[ $? = 0 ]'
mapfile -t got < "$T/out"
check "one answer per input line (7, got ${#got[@]})" '[ ${#got[@]} = 7 ]'
check "4,096 bytes: a line (answer 5, got [${got[0]:-}])" '[ "${got[0]:-}" = 5 ]'
check "4,097 bytes: refused (got [${got[1]:-}])" '[ "${got[1]:-}" = "error: line longer than 4096 bytes" ]'
check "a NUL: an error for that line (got [${got[2]:-}])" '[ "${got[2]:-}" = "error: a NUL byte in the line" ]'
check "the line after a NUL answered as itself (got [${got[3]:-}])" '[ "${got[3]:-}" = 4 ]'
check "a NUL mid-line: an error (got [${got[4]:-}])" '[ "${got[4]:-}" = "error: a NUL byte in the line" ]'
check "still in step (got [${got[5]:-}])" '[ "${got[5]:-}" = 6 ]'
check "4,096 bytes before CR LF: a line (got [${got[6]:-}])" '[ "${got[6]:-}" = 7 ]'
echo "rec_moves: $pass passed, $fail failed"
[ "$fail" = 0 ]
