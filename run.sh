#!/usr/bin/env bash
# run.sh — set everything up and run a real tournament with the example bots
# (README: the run command): config/example-roundrobin.yaml, a round robin
# of the C and Python example bots in duplicate matches, recorded in a
# private PostgreSQL under .state/ (started and stopped here; nothing to
# configure), with progress, standings and every match's transcript. Run it
# again and it resumes (or, when finished, shows the standings).
set -euo pipefail
cd "$(dirname "$0")"
. ops/deps.sh
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
exec build/cli/arbiter run "${CONFIG:-config/example-roundrobin.yaml}" --state .state "$@"
