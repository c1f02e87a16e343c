#!/usr/bin/env bash
# test_link.sh — binaries link only what they need (issue 27): the referee
# daemon, which runs untrusted bots, carries neither the record (libpq, the
# store) nor the web (libmicrohttpd, the pages); the common core and its
# base need nothing beyond libc; each adapter needs only its library.
# The participant API's client (libcurl, jansson) is the arbiter command's
# alone: neither daemon carries an HTTP client.
# Usage: test_link.sh REFEREE_EXE COMMON_BUILD_DIR [SCHEDULER_EXE ARBITER_EXE]
set -u
REF=$1 COMMON=$2 SCHED=${3:-} ARB=${4:-}
fails=0 passes=0
check() { if eval "$2"; then passes=$((passes + 1)); else echo "FAIL: $1" >&2; fails=$((fails + 1)); fi; }

libs=$(ldd "$REF" | awk '{print $1}')
check "arbiter-referee does not link libpq ($(echo "$libs" | grep -c libpq))" '! echo "$libs" | grep -q "^libpq"'
check "arbiter-referee does not link libmicrohttpd" '! echo "$libs" | grep -q "^libmicrohttpd"'
check "arbiter-referee links libzmq (the check reads ldd)" 'echo "$libs" | grep -q "^libzmq"'
check "arbiter-referee does not link libcurl" '! echo "$libs" | grep -q "^libcurl"'
check "arbiter-referee does not link jansson" '! echo "$libs" | grep -q "^libjansson"'
if [ -n "$SCHED" ]; then
  slibs=$(ldd "$SCHED" | awk '{print $1}')
  check "arbiter-scheduler does not link libcurl" '! echo "$slibs" | grep -q "^libcurl"'
  check "arbiter links libcurl (arbiter join, remote; the check reads ldd)" 'ldd "$ARB" | grep -q "libcurl"'
fi
syms=$(nm "$REF" | awk '$2 ~ /^[TtDdBb]$/ {print $3}')
check "no store, pgctl or web function in arbiter-referee ($(echo "$syms" | grep -cE '^(store_|pgctl_|web_)'))" \
  '! echo "$syms" | grep -qE "^(store_|pgctl_|web_)"'
check "the worker is in it (the check reads nm)" 'echo "$syms" | grep -qx worker_run'
check "arbiter-referee --help answers" '"$REF" --help | grep -q "usage: arbiter-referee"'

# What a static library leaves undefined is what it needs from outside.
undef() { nm -u "$COMMON/$1" 2>/dev/null | awk '{print $2}' | sort -u; }
for lib in libarb_common_core.a libarb_common_base.a; do
  check "$lib exists" '[ -f "$COMMON/$lib" ]'
  bad=$(undef "$lib" | grep -E '^(yaml_|sodium_|crypto_|MHD_|PQ|zmq_|msgpack_)' | tr '\n' ' ')
  check "$lib needs no library beyond libc (${bad:-none})" '[ -z "$bad" ]'
done
check "the YAML adapter needs libyaml" 'undef libarb_common_conf.a | grep -q "^yaml_"'
bad=$(undef libarb_common_crypto.a | grep -E '^(yaml_|MHD_|PQ|zmq_)' | tr '\n' ' ')
check "the crypto adapter needs only libsodium (${bad:-none})" '[ -z "$bad" ] && undef libarb_common_crypto.a | grep -q "^crypto_\|^sodium_"'

echo "link: $passes passed, $fails failed"
[ $fails = 0 ]
