#!/usr/bin/env bash
# rec_root0700.sh — `arbiter run` as root with its state directory under a
# 0700 directory (a home directory, mktemp -d): the postgres user cannot
# enter it, and bots under uids of their own could not reach their
# programs there. It used to fail with "initdb failed"; now the cluster
# lives in /var/lib/arbiter-clusters/HASH (named in STATE/cluster) and the
# local worker's directory in /var/lib/arbiter-work/HASH, and the
# tournament plays with no forfeit. Then the same state directory again
# (resumed from the same cluster). Root only: as another user there is no
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
echo "rec_root0700: $pass passed, $fail failed"
[ "$fail" = 0 ]
