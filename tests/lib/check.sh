# check.sh — sourced by the shell tests: a test's own directory and its checks.
# test_enter NAME: T, a fresh directory /tmp/arbiter-NAME-test.XXXXXX
# (0755: bots under uids of their own reach into it), made the working
# directory; check DESCRIPTION EXPR counts EXPR true as passed, else prints
# FAIL and counts it failed.
test_enter() {
  T=$(mktemp -d "/tmp/arbiter-$1-test.XXXXXX")
  chmod 755 "$T"
  cd "$T" || exit 2
  pass=0 fail=0
}
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
