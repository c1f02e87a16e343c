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
[ -d build ] || meson setup build >/dev/null
ninja -C build
meson test -C build --print-errorlogs "$@"
