#!/usr/bin/env bash
# test_rate_pairs.sh — `arbiter rate --system glicko2|elo` (docs/ratings.md):
# Glicko-2 against the JavaScript glicko2 library's values for a file of
# 30 rating periods (tests/data/ratings/glicko2.{in,out}, made by
# glicko2_fixture.js) to 1e-9, the periods' rules ("---" closes one, a
# trailing "---" adds none, "---" after "---" is an empty one), Elo one game
# at a time, sorted output, and every refusal with <stdin>:LINE.
# Usage: test_rate_pairs.sh ARBITER SOURCE_ROOT
set -u
ARB=$1 SRC=$2
D=$SRC/tests/data/ratings
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() {
  if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi
}
# the same names, each value within tol
close() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
a = [l.split() for l in open(sys.argv[1]) if l.strip()]
b = [l.split() for l in open(sys.argv[2]) if l.strip()]
tol = float(sys.argv[3])
ok = len(a) == len(b) and all(x[0] == y[0] and len(x) == len(y) and
     all(abs(float(u) - float(v)) <= tol for u, v in zip(x[1:], y[1:])) for x, y in zip(a, b))
sys.exit(0 if ok else 1)
PY
}

"$ARB" rate --system glicko2 < "$D/glicko2.in" > "$T/g2.out"
check "glicko2: exits 0 on the library's file" '[ $? = 0 ]'
check "glicko2: every name, rating, RD and volatility within 1e-9 of glicko2 1.2.2" 'close "$T/g2.out" "$D/glicko2.out" 1e-9'
check "glicko2: 17 significant digits printed" 'head -n 1 "$T/g2.out" | grep -Eq "^p00 [0-9]{4}\.[0-9]{10,} "'

# periods: one game, then an empty period, grows the RD; a trailing --- adds nothing
printf 'a b 1\n' | "$ARB" rate --system glicko2 > "$T/one"
printf 'a b 1\n---\n' | "$ARB" rate --system glicko2 > "$T/one-trailing"
printf 'a b 1\n---\n---\n' | "$ARB" rate --system glicko2 > "$T/one-empty"
printf 'a b 1\n---\n\n---\n' | "$ARB" rate --system glicko2 > "$T/one-blank"
check "a trailing --- adds no period" 'cmp -s "$T/one" "$T/one-trailing"'
check "--- right after --- is an empty period: RD grows" \
  '! cmp -s "$T/one" "$T/one-empty" && [ "$(cut -d" " -f2 "$T/one")" = "$(cut -d" " -f2 "$T/one-empty")" ] && python3 -c "
import sys; a = open(sys.argv[1]).read().split(); b = open(sys.argv[2]).read().split()
assert float(b[2]) > float(a[2])" "$T/one" "$T/one-empty"'
check "a blank line is no period" 'cmp -s "$T/one-empty" "$T/one-blank"'
printf 'a b 1\nb c 0.5\n' | "$ARB" rate --system glicko2 > "$T/same"
printf 'b c 0.5\na b 1\n' | "$ARB" rate --system glicko2 > "$T/swapped"
check "games inside a period commute" 'cmp -s "$T/same" "$T/swapped"'
printf 'a b 1\n---\nb c 0.5\n' | "$ARB" rate --system glicko2 > "$T/two"
check "two periods differ from one" '! cmp -s "$T/same" "$T/two"'
check "a player who has not yet played is not rated before (c joins in period 2)" \
  '[ "$(grep "^c " "$T/two" | cut -d" " -f3 | cut -c1-6)" != "350.00" ]'

# Elo: K = 32, both from their ratings before the game, "---" skipped
printf 'a b 1\n---\na b 0.5\n' | "$ARB" rate --system elo > "$T/elo"
check "elo: two games by hand (1516/1484, then a draw)" 'python3 -c "
import sys
ra, rb = 1516.0, 1484.0
ea = 1 / (1 + 10 ** ((rb - ra) / 400)); eb = 1 / (1 + 10 ** ((ra - rb) / 400))
ra, rb = ra + 32 * (0.5 - ea), rb + 32 * (0.5 - eb)
got = dict(l.split() for l in open(sys.argv[1]))
assert abs(float(got[\"a\"]) - ra) < 1e-9 and abs(float(got[\"b\"]) - rb) < 1e-9, got" "$T/elo"'
printf 'zed A 1\nb a 0\n\xc3\xa9 a 1\n' | "$ARB" rate --system elo | cut -d" " -f1 > "$T/names"
check "names sorted bytewise" '[ "$(tr "\n" " " < "$T/names")" = "A a b zed é " ]'

# refusals, each at its line
refused() {   # refused NAME INPUT WANT
  printf "$2" | "$ARB" rate --system glicko2 > /dev/null 2> "$T/err"
  local rc=$? want=$3
  check "$1" '[ $rc = 1 ] && grep -qF "$want" "$T/err"'
}
refused "a score that is not 1, 0.5 or 0" 'a b 1\na b 2\n' '<stdin>:2: score "2": expected 1, 0.5 or 0'
refused "two words" 'a b\n' '<stdin>:1: expected a game "A B S"'
refused "four words" 'a b 1 x\n' '<stdin>:1: expected a game "A B S"'
refused "a player against itself" '\n\na a 1\n' '<stdin>:3: a against itself'
refused "a name over 128 bytes" "$(printf 'x%.0s' $(seq 130)) b 1\n" '<stdin>:1: a name longer than 128 bytes'
printf 'a b 1\nc\000d 1\n' | "$ARB" rate --system glicko2 > "$T/out" 2> "$T/err"
check "a NUL byte in a line, refused at its line with nothing printed" \
  '[ $? = 1 ] && grep -q "<stdin>:2: a NUL byte" "$T/err" && [ ! -s "$T/out" ]'
head -c 70000 /dev/zero | tr '\0' 'x' > "$T/long"
"$ARB" rate --system elo < "$T/long" > /dev/null 2> "$T/err"
check "a line over 64 KiB" '[ $? = 1 ] && grep -q "<stdin>:1: a line longer than 65536 bytes" "$T/err"'
"$ARB" rate --system trueskill < /dev/null > /dev/null 2> "$T/err"
check "an unknown system is a usage error" '[ $? = 2 ] && grep -q "trueskill" "$T/err"'
"$ARB" rate --system elo extra < /dev/null > /dev/null 2>&1
check "an argument is a usage error" '[ $? = 2 ]'

echo "rate-pairs: $pass passed, $fail failed"
[ $fail = 0 ]
