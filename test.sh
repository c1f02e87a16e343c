#!/usr/bin/env bash
# test.sh — set everything up and run every test suite (README: the test
# command): unit, integration (real bot processes sandboxed with bubblewrap
# where it works, real PostgreSQL, real ZeroMQ) and e2e (whole tournaments,
# killed and resumed, local and distributed), and the fuzz corpus replays.
# The slow suite (full exhaustive and property runs, the longest e2e tests)
# is left out: ./test.sh --suite slow, or --setup all for everything.
set -euo pipefail
cd "$(dirname "$0")"
. ops/deps.sh
# A line per step: the first build takes minutes, and the tests as long.
if [ ! -d build ]; then
  echo "test.sh: configuring build/ (meson setup)"
  meson setup build >/dev/null
fi
echo "test.sh: building (ninja -C build)"
ninja -C build
echo "test.sh: running the tests (meson test -C build; the slow suite is left out)"
meson test -C build --print-errorlogs "$@"
