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
# A line per step and ninja's progress, on stderr (stdout is the
# tournament's): the first build takes minutes.
if [ ! -d build ]; then
  echo "run.sh: configuring build/ (meson setup)" >&2
  meson setup build >/dev/null
fi
echo "run.sh: building (ninja -C build)" >&2
ninja -C build >&2
echo "run.sh: running ${CONFIG:-config/example-roundrobin.yaml}" >&2
exec build/cli/arbiter run "${CONFIG:-config/example-roundrobin.yaml}" --state .state "$@"
