#!/usr/bin/env bash
# run.sh — set everything up and run arbiter on the example bots (README: the run command).
# Until tournaments land, this plays seeded self-play deals with the built-in
# greedy policy and prints them move by move.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v meson >/dev/null || ! command -v ninja >/dev/null; then
  echo "installing build tools (needs root: apt-get)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    meson ninja-build pkg-config gcc >/dev/null
fi
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
exec build/cli/arbiter play --seed "${SEED:-7}" --deals "${DEALS:-2}" "$@"
