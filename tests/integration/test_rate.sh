#!/usr/bin/env bash
# test_rate.sh — `arbiter rate --system openskill` (README, "Ratings"): the
# fixture's matches (tests/data/ratings, made by the openskill library
# 5.0.1) give the library's final ratings to 1e-9 for each model; output
# sorted bytewise, blank lines and CRLF accepted; every input mistake is
# refused with <stdin>:LINE and exit 1, usage mistakes exit 2; 1.5 x 10^5 names.
# Usage: test_rate.sh ARBITER DATA_DIR
set -u
ARB=$1 DATA=$2
T=$(mktemp -d /tmp/arbiter-rate.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

# same names in the same order, every number within 1e-9
agree() {
  awk 'NR == FNR { n[FNR] = $1; mu[FNR] = $2; s[FNR] = $3; rows = FNR; next }
       { if ($1 != n[FNR]) exit 1
         d = $2 - mu[FNR]; if (d < 0) d = -d; if (d > 1e-9) exit 1
         d = $3 - s[FNR]; if (d < 0) d = -d; if (d > 1e-9) exit 1
         got = FNR }
       END { exit got == rows && rows > 0 ? 0 : 1 }' "$1" "$2"
}

# ---- 1. the fixture -------------------------------------------------------
for model in plackett-luce bradley-terry thurstone-mosteller; do
  "$ARB" rate --system openskill --model $model < "$DATA/openskill-matches.txt" > "$T/out" 2> "$T/err"
  rc=$?
  check "$model: exit 0 (got $rc: $(cat "$T/err"))" '[ $rc = 0 ] && [ ! -s "$T/err" ]'
  check "$model: the library's ratings to 1e-9" 'agree "$DATA/openskill-$model.expected" "$T/out"'
  check "$model: 12 significant digits or more" \
    'awk "{ m = \$2; sub(/^-/, \"\", m); sub(/e.*/, \"\", m); gsub(/[.]/, \"\", m); sub(/^0+/, \"\", m); if (length(m) < 12 && \$2 != int(\$2)) exit 1 }" "$T/out"'
done
"$ARB" rate --system openskill < "$DATA/openskill-matches.txt" > "$T/default"
check "plackett-luce is the default model" 'agree "$DATA/openskill-plackett-luce.expected" "$T/default"'

# openskill's own test value (rate(): two new players, the first wins), a
# team, ties, the order of ranks only; blank lines and CRLF
printf 'a:1 b:2\n' | "$ARB" rate --system openskill > "$T/out"
printf 'a 27.635389493140497 8.06590141354368\nb 22.364610506859503 8.06590141354368\n' > "$T/want"
check "two players: openskill's published values" 'agree "$T/want" "$T/out"'
printf 'b:20 a:10\n' | "$ARB" rate --system openskill > "$T/out"
check "only the order of ranks matters" 'agree "$T/want" "$T/out"'
printf '\r\n \t\na:1 b:2\r\n\n' | "$ARB" rate --system openskill > "$T/out"
check "blank lines and CRLF" 'agree "$T/want" "$T/out"'
printf 'x+y:1 z:1\n' | "$ARB" rate --system openskill > "$T/out"
check "a team tied with a player: three lines, x and y equal" \
  '[ $(wc -l < "$T/out") = 3 ] && [ "$(sed -n 1p "$T/out" | cut -d" " -f2-)" = "$(sed -n 2p "$T/out" | cut -d" " -f2-)" ]'
printf 'b:1 B:2 \303\251:3 a:4\n' | "$ARB" rate --system openskill | cut -d' ' -f1 > "$T/out"
printf 'B\na\nb\n\303\251\n' > "$T/want"
check "names sorted bytewise" 'cmp -s "$T/want" "$T/out"'
printf '' | "$ARB" rate --system openskill > "$T/out"
check "no input, no output, exit 0" '[ $? = 0 ] && [ ! -s "$T/out" ]'

# ---- 2. input mistakes: exit 1, the line named, nothing on stdout ----------
refuse() {   # INPUT MESSAGE
  local msg="arbiter: rate: $2"
  printf 'a:1 b:2\n%b\n' "$1" | "$ARB" rate --system openskill > "$T/out" 2> "$T/err"
  rc=$?
  check "refused: $(printf '%.60s' "$1") (exit $rc, $(cat "$T/err"))" \
    '[ $rc = 1 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$msg" ]'
}
refuse 'a:1' '<stdin>:2: a match needs two teams or more'
refuse 'a:1 b' '<stdin>:2: "b" has no rank (NAME:RANK, or NAME+NAME:RANK for a team)'
refuse 'a:1 b:0' '<stdin>:2: "b:0": the rank must be a whole number from 1 to 999999999'
refuse 'a:1 b:-1' '<stdin>:2: "b:-1": the rank must be a whole number from 1 to 999999999'
refuse 'a:1 b:1.5' '<stdin>:2: "b:1.5": the rank must be a whole number from 1 to 999999999'
refuse 'a:1 b:1000000000' '<stdin>:2: "b:1000000000": the rank must be a whole number from 1 to 999999999'
refuse 'a+a:1 b:2' '<stdin>:2: "a" plays twice in this match'
refuse 'a+b:1 c+a:2' '<stdin>:2: "a" plays twice in this match'
refuse 'a:1 a:2' '<stdin>:2: "a" plays twice in this match'
refuse 'a:1 +b:2' '<stdin>:2: "+b:2": an empty name'
refuse 'a:1 b+:2' '<stdin>:2: "b+:2": an empty name'
refuse 'a:1 :2' '<stdin>:2: ":2": an empty name'
refuse 'a:1 b\001c:2' '<stdin>:2: a control character in a name'
refuse "a:1 $(printf 'n%.0s' $(seq 129)):2" '<stdin>:2: a name longer than 128 bytes'
refuse "$(for i in $(seq 65); do printf 't%d:%d ' $i $i; done)" '<stdin>:2: more than 64 teams in a match'
refuse "$(printf 'p%d+' $(seq 256))q:1 r:2" '<stdin>:2: more than 256 players in a match'
refuse 'a:1 b:2\000' '<stdin>:2: a NUL byte'
{ printf 'a:1 b:2\n'; head -c 65537 /dev/zero | tr '\0' x; printf ':1 b:2\n'; } |
  "$ARB" rate --system openskill > "$T/out" 2> "$T/err"
rc=$?
check "a line of 64 KiB + 1 refused (exit $rc)" \
  '[ $rc = 1 ] && [ "$(cat "$T/err")" = "arbiter: rate: <stdin>:2: a line longer than 65536 bytes" ]'
{ head -c 65529 /dev/zero | tr '\0' ' '; printf 'a:1 b:2\r\n'; } | "$ARB" rate --system openskill > "$T/out"
check "a line of exactly 64 KiB (and CR) is read" '[ $(wc -l < "$T/out") = 2 ]'

# ---- 3. usage mistakes: exit 2 ----------------------------------------------
usage_err() {   # DESCRIPTION MESSAGE ARGS...
  local what=$1 msg=$2
  shift 2
  "$ARB" rate "$@" < /dev/null > "$T/out" 2> "$T/err"
  rc=$?
  check "$what: exit 2 (got $rc)" '[ $rc = 2 ] && [ ! -s "$T/out" ] && [ "$(head -1 "$T/err")" = "$msg" ] && grep -q "^usage: arbiter rate" "$T/err"'
}
usage_err "no --system" 'arbiter: rate: --system is required'
usage_err "unknown system" 'arbiter: rate: unknown system "trueskill" (openskill, glicko2, elo)' --system trueskill
usage_err "unknown model" 'arbiter: rate: unknown model "plackett" (plackett-luce, bradley-terry, thurstone-mosteller)' \
  --system openskill --model plackett
usage_err "an operand" 'arbiter: rate: unexpected "matches.txt" (the results come on stdin)' --system openskill matches.txt
"$ARB" rate --help > "$T/out" 2> "$T/err"
check "--help: usage on stdout, exit 0" '[ $? = 0 ] && grep -q "^usage: arbiter rate" "$T/out" && [ ! -s "$T/err" ]'

# ---- 4. 10^5 names ----------------------------------------------------------
awk 'BEGIN { for (i = 0; i < 50000; i++) printf "n%d:1 m%d+k%d:2\n", i, i, (i * 7919) % 50000 }' > "$T/big"
start=$(date +%s)
"$ARB" rate --system openskill < "$T/big" > "$T/out"
rc=$? secs=$(( $(date +%s) - start ))
check "150,000 names in ${secs}s (exit $rc)" '[ $rc = 0 ] && [ $(wc -l < "$T/out") = 150000 ] && LC_ALL=C sort -c "$T/out"'
echo "rate: 50,000 matches of 150,000 names in ${secs}s"

echo "rate: $pass passed, $fail failed"
[ $fail = 0 ]
