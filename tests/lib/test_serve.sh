# test_serve.sh — sourced by the shell tests of `arbiter serve` (after
# test_sh.sh, with ARB set): start_serve DB OUT runs it on a free port of
# loopback (PORT is set to the port it printed; its output in $T/OUT.out
# and .err), stop_serve stops it; the EXIT trap stops it before cleanup.
SERVE_PID=""
stop_serve() {
  if [ -n "$SERVE_PID" ]; then kill "$SERVE_PID" 2>/dev/null; wait "$SERVE_PID" 2>/dev/null; fi
  SERVE_PID=""
}
trap 'stop_serve; cleanup' EXIT
start_serve() {
  "$ARB" serve --db "$1" --listen 127.0.0.1:0 > "$T/$2.out" 2> "$T/$2.err" &
  SERVE_PID=$!
  for _ in $(seq 1 50); do grep -q "serving" "$T/$2.out" 2>/dev/null && break; sleep 0.1; done
  PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$T/$2.out")
}
