#!/usr/bin/env bash
# test_viewer.sh — the replay viewer in headless Chromium (test_viewer.py);
# exit 77 (meson: skipped) when chromium or python3 is absent.
#   test_viewer.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
command -v python3 >/dev/null || { echo "python3 not installed: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/test_viewer.py" "$@"
