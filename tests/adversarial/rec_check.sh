#!/usr/bin/env bash
# rec_check.sh — what `arbiter check` and `arbiter run` let into a
# tournament: an entrant's files: naming /etc/shadow, climbing out with
# "..", or a symbolic link out are refused with FILE:LINE:COL by check and
# by run; a link swapped for one pointing out after a clean check is
# refused by run (the loader resolves again; the scheduler once more when
# it packs the bundle); "\0" in YAML text is refused; `check FILE` checks
# programs (--no-programs: not); `check FILE
# --programs` checks programs as `check --programs FILE` does; a round
# robin of 4,096 entrants that run refuses, check refuses with the same
# message. Usage: rec_check.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
T=$(mktemp -d /tmp/arbiter-rec-check.XXXXXX)
chmod 755 "$T"
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
cd "$T" || exit 2
mkdir -p tour/lib outside
echo "model" > tour/lib/model.bin
echo "secret" > outside/secret.txt
ln -s ../../outside/secret.txt tour/lib/link-out.bin
ln -s "$T/outside" tour/dir-out
tour() {  # files-value -> tour/t.yaml
  { echo "name: t"; echo "deals: 1"
    echo "entrants:"
    echo "  - name: a"; echo "    command: $BOTS/random_bot"; echo "    files: $1"
    echo "  - {name: b, command: $BOTS/random_bot}"
    echo "  - {name: c, command: $BOTS/random_bot}"; } > tour/t.yaml
}
refused() {  # what files-value pattern
  tour "$2"
  want=$3
  out=$("$ARB" check tour/t.yaml 2>&1); rc=$?
  check "check refuses $1 (rc $rc: $out)" '[ $rc = 1 ] && [[ "$out" == tour/t.yaml:6:12:\ files:* ]] && [[ "$out" == *"$want"* ]]'
  out=$("$ARB" run tour/t.yaml --state "$T/st" --quiet 2>&1); rc=$?
  check "run refuses $1 (rc $rc: $out)" '[ $rc != 0 ] && [[ "$out" == *"$want"* ]] && ! [[ "$out" == *standings* ]]'
}
refused "an absolute path" /etc/shadow "is an absolute path"
refused "a .. escape" ../outside/secret.txt 'climbs out with ".."'
refused "a winding .. escape" lib/../../tour/../outside/secret.txt 'climbs out with ".."'
refused "a symbolic link out" lib/link-out.bin "resolves to $T/outside/secret.txt (a symbolic link out)"
refused "a directory link out" dir-out/secret.txt "resolves to $T/outside/secret.txt (a symbolic link out)"

# inside: fine, and it is what the bundle ships
tour lib/model.bin
out=$("$ARB" check --programs tour/t.yaml 2>&1)
check "a file inside the tree passes (${out})" '[ $? = 0 ]'
# swapped after the check: the name now leads out
mv tour/lib/model.bin tour/lib/model.real
ln -s ../../outside/secret.txt tour/lib/model.bin
out=$("$ARB" run tour/t.yaml --state "$T/st" --quiet 2>&1); rc=$?
check "a link swapped in after check: run refuses (rc $rc: $out)" '[ $rc != 0 ] && [[ "$out" == *"resolves to $T/outside/secret.txt"* ]]'
check "nothing of the secret reached a program cache" '! grep -rqs secret "$T/st/work" /var/lib/arbiter-work 2>/dev/null'

# "\0" in double-quoted text
printf 'name: "a\\0b"\nentrants:\n  - {name: a, command: /bin/true}\n  - {name: b, command: /bin/true}\n  - {name: c, command: /bin/true}\n' > nul.yaml
out=$("$ARB" check nul.yaml 2>&1)
check "a \\0 escape refused with its place ($out)" '[ "$out" = "nul.yaml:1:7: a NUL character (\0) in text at offset 1 (expected printable text)" ]'

# --programs wherever it stands
printf 'name: p\nentrants:\n  - {name: a, command: ./no-such-program}\n  - {name: b, command: /bin/true}\n  - {name: c, command: /bin/true}\n' > p.yaml
a=$("$ARB" check --programs p.yaml 2>&1); ra=$?
b=$("$ARB" check p.yaml --programs 2>&1); rb=$?
check "check --programs FILE refuses ($ra: $a)" '[ $ra = 1 ] && [[ "$a" == p.yaml:3:* ]]'
check "check FILE --programs says the same ($rb: $b)" '[ $rb = 1 ] && [ "$a" = "$b" ]'
# without an option too: a missing program is no "ok" (it was, unless
# --programs); --no-programs checks the file alone
c=$("$ARB" check p.yaml 2>&1); rc=$?
check "check FILE refuses a missing program by default ($rc: $c)" '[ $rc = 1 ] && [ "$c" = "$a" ]'
d=$("$ARB" check --no-programs p.yaml 2>&1); rd=$?
check "check --no-programs FILE checks the file alone ($rd: $d)" '[ $rd = 0 ] && [[ "$d" == "p.yaml: ok "* ]]'

# 4,096 entrants in a round robin: what run refuses, check refuses, in the same words
{ echo "name: huge"; echo "format: round-robin"; echo "entrants:"
  for i in $(seq 1 4096); do echo "  - {name: e$i, command: $BOTS/random_bot}"; done; } > huge.yaml
c=$("$ARB" check huge.yaml 2>&1); rc=$?
r=$("$ARB" run huge.yaml --state "$T/st2" --quiet 2>&1); rr=$?
check "check refuses 4,096 in a round robin ($rc: $c)" '[ $rc = 1 ] && [[ "$c" == "huge.yaml:4:3: entrants: 4096 entrants make "*" tables of 3 in a round robin"* ]]'
check "run refuses it with the same message ($rr: $r)" '[ $rr != 0 ] && [[ "$r" == *"$c"* ]]'
echo "rec_check: $pass passed, $fail failed"
[ "$fail" = 0 ]
