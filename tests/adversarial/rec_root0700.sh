#!/usr/bin/env bash
# rec_root0700.sh — `arbiter run` as root with its state directory under a
# 0700 directory (a home directory, mktemp -d): the postgres user cannot
# enter it, and bots under uids of their own could not reach their
# programs there. It used to fail with "initdb failed"; now the cluster
# lives in /var/lib/arbiter-clusters/HASH (named in STATE/cluster) and the
# local worker's directory in /var/lib/arbiter-work/HASH, and the
# tournament plays with no forfeit. Then the same state directory again
# (resumed from the same cluster). arbiter match and eval refuse a bot
# program under the 0700 directory, naming it and what to do. Root only: as another user there is no
# postgres user to switch to and bots share the referee's uid.
# Usage: rec_root0700.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
if [ "$(id -u)" != 0 ]; then
  echo "rec_root0700: skip: the 0700-ancestor set-up concerns arbiter run as root (not root here)"
  exit 77
fi
T=$(mktemp -d /tmp/arbiter-rec-0700.XXXXXX)   # 0700, as mktemp makes it
trap 'rm -rf "$T"; [ -n "${home:-}" ] && rm -rf "$home" "${work:-}"' EXIT
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
check "the ancestor is 0700" '[ "$(stat -c %a "$T")" = 700 ]'
{ echo "name: closed"; echo "deals: 2"; echo "duplicate: rotate"; echo "seed: 9"; echo "entrants:"
  echo "  - {name: greedy, command: $BOTS/greedy_bot}"
  echo "  - {name: random, command: $BOTS/random_bot}"
  echo "  - {name: random2, command: $BOTS/random_bot}"
  echo "  - {name: greedy2, command: $BOTS/greedy_bot}"; } > "$T/t.yaml"
"$ARB" run "$T/t.yaml" --state "$T/state" > "$T/out" 2>&1
rc=$?
check "run as root under a 0700 directory succeeds (rc $rc: $(tail -n 3 "$T/out"))" '[ $rc = 0 ] && grep -q "final standings" "$T/out"'
check "every match played, no bot forfeited: $(grep -c forfeited "$T/out") forfeits" '! grep -q forfeited "$T/out" && grep -q "^1 " "$T/out"'
home=$(cat "$T/state/cluster" 2>/dev/null)
# the work directory is named after the state directory's path (FNV-1a, as pgctl_side_dir)
work=/var/lib/arbiter-work/$(python3 -c 'import sys
h = 1469598103934665603
for c in sys.argv[1].encode():
    h = ((h ^ c) * 1099511628211) % (1 << 64)
print("%016x" % h)' "$(realpath "$T/state")")
check "the bots' work directory lives apart, 0711 ($work)" '[ "$(stat -c %a "$work" 2>/dev/null)" = 711 ]'
check "the cluster lives under /var/lib/arbiter-clusters ($home)" '[[ "$home" == /var/lib/arbiter-clusters/* ]] && [ -f "$home/pg/PG_VERSION" ]'
check "its directory is postgres's, 0700" '[ "$(stat -c %U:%a "$home")" = postgres:700 ] && [ "$(stat -c %a "$home/run")" = 700 ]'
"$ARB" standings closed --state "$T/state" > "$T/st.out" 2>&1
check "standings from the same state directory (the same cluster)" '[ $? = 0 ] && [ "$(grep -c "^[1-4] " "$T/st.out")" = 4 ]'
# arbiter match and eval with a bot program under the 0700 directory: the
# bots' own uids cannot reach it; every bot used to forfeit at the
# handshake ("Permission denied" only in replay --stderr, eval a 0 win rate
# and nothing else). Both now refuse before the first match, naming the
# directory and what to do; a script named by path is checked too.
cp "$BOTS/random_bot" "$T/random_bot"
"$ARB" match --bot "closed=$T/random_bot" --bot "r1=$BOTS/random_bot" --bot "r2=$BOTS/random_bot" --deals 1 \
  --sandbox none > "$T/m.out" 2>&1
rc=$?
check "match refuses a bot under a 0700 directory (rc $rc: $(tail -n 1 "$T/m.out"))" \
  '[ $rc = 2 ] && grep -q "bot closed: $T/random_bot cannot be reached by the bots. own uids" "$T/m.out"'
check "match names the directory, its mode and what to do" \
  'grep -q "the directory $T is closed to others (mode 0700); open it for traversal (chmod o+x $T)" "$T/m.out"'
check "match played nothing" '! grep -q "forfeit" "$T/m.out"'
"$ARB" eval --bot "A=$T/random_bot" --bot "B=$BOTS/random_bot" --deals 2 --sandbox none > "$T/e.out" 2>&1
rc=$?
check "eval refuses it too, before the first match (rc $rc: $(tail -n 1 "$T/e.out"))" \
  '[ $rc = 2 ] && grep -q "arbiter: eval: bot A: $T/random_bot cannot be reached" "$T/e.out" && ! grep -q "^overall" "$T/e.out"'
printf 'print("never read")\n' > "$T/bot.py"
"$ARB" eval --bot "A=python3 $T/bot.py" --bot "B=$BOTS/random_bot" --deals 2 --sandbox none > "$T/p.out" 2>&1
check "a script named by path under the 0700 directory is refused, naming the directory" \
  '[ $? = 2 ] && grep -q "bot A: $T/bot.py cannot be reached by the bots. own uids.*the directory $T is closed" "$T/p.out"'
# opened for traversal (o+x), the same bot plays
chmod 711 "$T"
"$ARB" eval --bot "A=$T/random_bot" --bot "B=$BOTS/random_bot" --deals 2 --sandbox none --quiet > "$T/e2.out" 2>&1
check "once the directory is open for traversal, eval plays and no deal is forfeited" \
  '[ $? = 0 ] && grep -q "^overall" "$T/e2.out" && ! grep -q "penalties decided" "$T/e2.out"'
chmod 700 "$T"

echo "rec_root0700: $pass passed, $fail failed"
[ "$fail" = 0 ]
