#!/usr/bin/env bash
# test.sh — set everything up and run every test suite (README: the test command).
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v meson >/dev/null || ! command -v ninja >/dev/null; then
  echo "installing build tools (needs root: apt-get)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    meson ninja-build pkg-config gcc libzmq3-dev libmsgpack-dev libpq-dev libyaml-dev \
    libsodium-dev postgresql >/dev/null
fi
[ -d build ] || meson setup build >/dev/null
ninja -C build
meson test -C build --print-errorlogs "$@"
