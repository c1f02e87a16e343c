#!/usr/bin/env bash
# axe_install.sh — axe-core for the accessibility check of the browser
# tests: the version package-lock.json pins (with its integrity hash),
# installed by `npm ci` into DIR (the build directory's web-node/, so the
# source tree stays clean and later runs reuse it). Prints the path of
# axe.min.js. Exit 77 (meson: skipped) when npm is not installed, 1 when
# the install fails.
#   axe_install.sh DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
js=$dir/node_modules/axe-core/axe.min.js
if [ -f "$js" ] && cmp -s "$here/package-lock.json" "$dir/package-lock.json"; then
  echo "$js"
  exit 0
fi
command -v npm >/dev/null || {
  echo "npm not installed: the accessibility check needs axe-core from npm (apt-get install npm)" >&2
  exit 77
}
mkdir -p "$dir" && cp "$here/package.json" "$here/package-lock.json" "$dir/" || exit 1
(cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2 && [ -f "$js" ] || {
  echo "npm ci of axe-core into $dir failed (is the npm registry reachable?)" >&2
  exit 1
}
echo "$js"
