#!/usr/bin/env bash
# run.sh — set everything up and run arbiter on the example bots (README: the
# run command). Until tournaments land (issue 4) this plays one duplicate
# match between the example bots — the greedy and random C bots and, when
# python3 is there, the greedy Python bot — keeps its transcript under
# .state/, and re-judges the transcript to show the verdict reproduces.
set -euo pipefail
cd "$(dirname "$0")"
need=()
command -v meson >/dev/null || need+=(meson)
command -v ninja >/dev/null || need+=(ninja-build)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v cc >/dev/null || need+=(gcc)
pkg-config --exists msgpack libsodium 2>/dev/null || need+=(libmsgpack-dev libsodium-dev)
command -v bwrap >/dev/null || need+=(bubblewrap)
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]} (needs root: apt-get)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
[ -d build ] || meson setup build >/dev/null
ninja -C build >/dev/null
mkdir -p .state
bots=(--bot greedy="$PWD/build/bots-sdk/c/greedy_bot" --bot random="$PWD/build/bots-sdk/c/random_bot")
if [ -x bots-sdk/python/examples/greedy_bot.py ] && command -v python3 >/dev/null; then
  bots+=(--bot py-greedy="$PWD/bots-sdk/python/examples/greedy_bot.py")
else
  bots+=(--bot random2="$PWD/build/bots-sdk/c/random_bot")
fi
build/cli/arbiter match --game doudizhu --rules standard --deals "${DEALS:-20}" --seed "${SEED:-7}" \
  --duplicate rotate "${bots[@]}" --transcript .state/example.arbt "$@"
echo
build/cli/arbiter replay .state/example.arbt
