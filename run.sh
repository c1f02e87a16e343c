#!/usr/bin/env bash
# run.sh — set everything up and run a real tournament with the example bots
# (README: the run command): config/example-roundrobin.yaml, a round robin
# of the C and Python example bots in duplicate matches, recorded in a
# private PostgreSQL under .state/ (started and stopped here; nothing to
# configure), with progress, standings and every match's transcript. Run it
# again and it resumes (or, when finished, shows the standings).
set -euo pipefail
cd "$(dirname "$0")"
need=()
command -v meson >/dev/null || need+=(meson)
command -v ninja >/dev/null || need+=(ninja-build)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v cc >/dev/null || need+=(gcc)
pkg-config --exists msgpack libsodium libzmq libpq yaml-0.1 2>/dev/null \
  || need+=(libmsgpack-dev libsodium-dev libzmq3-dev libpq-dev libyaml-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v psql >/dev/null || need+=(postgresql-client)
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]} (needs root: apt-get)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
exec build/cli/arbiter run "${CONFIG:-config/example-roundrobin.yaml}" --state .state "$@"
