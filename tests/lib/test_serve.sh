# test_serve.sh — sourced by the shell tests of `arbiter serve` (after
# test_sh.sh, with ARB set): start_serve DB OUT runs it on a free port of
# loopback (PORT is set to the port it printed; its output in $T/OUT.out
# and .err), stop_serve stops it; the EXIT trap stops it before cleanup.
# make_cert writes a self-signed certificate for localhost and 127.0.0.1
# to $T/cert.pem and its key to $T/key.pem (openssl, else GnuTLS's certtool).
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
make_cert() {
  if command -v openssl > /dev/null; then
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/key.pem" -out "$T/cert.pem" -days 2 -subj /CN=localhost \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" > /dev/null 2>&1
  elif command -v certtool > /dev/null; then
    certtool --generate-privkey --outfile "$T/key.pem" > /dev/null 2>&1
    printf 'cn = localhost\nip_address = 127.0.0.1\nexpiration_days = 2\nca\n' > "$T/tmpl"
    certtool --generate-self-signed --load-privkey "$T/key.pem" --template "$T/tmpl" --outfile "$T/cert.pem" > /dev/null 2>&1
  fi
  chmod 600 "$T/key.pem"   # serve refuses a key others may read
}
