#!/bin/bash
# sbx_optin.sh — a tournament never runs unsandboxed by accident: `arbiter run
# --sandbox none` is refused without --allow-unsandboxed; with it, it warns
# and every seat's sandbox is recorded. (Before, --sandbox none just ran.)
# usage: sbx_optin.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
T=$(mktemp -d /tmp/arbiter-sbx-optin.XXXXXX)
chmod 755 "$T"
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi; }
cleanup() {
  test_pg_stop
  rm -rf "$T"
}
trap cleanup EXIT
. "$(dirname "$0")/../lib/test_pg.sh"
test_pg_start 55447
{
  echo "name: optin"; echo "format: round-robin"; echo "deals: 1"; echo "seed: 5"
  echo "entrants:"
  for i in 1 2 3; do printf "  - name: e%d\n    command: %s/random_bot\n" "$i" "$BOTS"; done
} > "$T/t.yaml"

D1=$(newdb arb_sbx_optin1)
"$ARB" run "$T/t.yaml" --db "$D1" --state "$T/s1" --quiet --workers 1 --sandbox none > "$T/1.out" 2>&1
rc=$?
check "--sandbox none without the opt-in is refused (exit $rc)" '[ $rc != 0 ]'
check "… naming the sandbox and the opt-in" 'grep -q "sandbox:.*--allow-unsandboxed" "$T/1.out"'
check "… and no match was played" '[ "$(psql "$D1" -qAtc "select count(*) from matches where state = '"'done'"'" 2>/dev/null || echo 0)" = 0 ]'

D2=$(newdb arb_sbx_optin2)
"$ARB" run "$T/t.yaml" --db "$D2" --state "$T/s2" --workers 1 --sandbox none --allow-unsandboxed > "$T/2.out" 2>&1
rc=$?
check "with --allow-unsandboxed it runs (exit $rc)" '[ $rc = 0 ]'
check "… and warns" 'grep -q "WARNING: --allow-unsandboxed" "$T/2.out"'
want=rlimits; [ "$(id -u)" = 0 ] && want=uid+ns
check "… and every seat's sandbox ($want) is recorded" \
  '[ "$(psql "$D2" -qAtc "select count(*) filter (where sandbox = '"'$want'"' or sandbox like '"'$want+cg%'"'), count(*) from match_seats")" = "3|3" ]'
[ $fail = 0 ] || { cat "$T/1.out" "$T/2.out"; }
exit $fail
