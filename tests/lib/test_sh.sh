# test_sh.sh — sourced by the shell tests that record in a database: a
# scratch directory T (0755, so that bots under uids of their own can reach
# what is put there), the pass/fail counters with ok, bad and check
# ("check DESCRIPTION EXPRESSION"), and an EXIT trap that stops the test's
# PostgreSQL (test_pg.sh, sourced here) and removes T.
# Usage: . tests/lib/test_sh.sh NAME
T=$(mktemp -d "/tmp/arbiter-$1.XXXXXX")
chmod 755 "$T"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
cleanup() {
  test_pg_stop
  rm -rf "$T"
}
trap cleanup EXIT
# entrants_yaml N BOTS: a tournament file's `entrants:`, e01..eN, the C
# random bot and greedy bot of BOTS in turn.
entrants_yaml() {
  echo "entrants:"
  for i in $(seq 1 "$1"); do
    b=random_bot; [ $((i % 2)) = 0 ] && b=greedy_bot
    printf "  - name: e%02d\n    command: %s/%s\n" "$i" "$2" "$b"
  done
}
. "$(dirname "${BASH_SOURCE[0]}")/test_pg.sh"
