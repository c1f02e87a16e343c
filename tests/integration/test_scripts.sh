#!/usr/bin/env bash
# test_scripts.sh — the README's commands, ./run.sh and ./test.sh, say what
# they do while they build (they were silent for minutes: run.sh sent
# ninja's output to /dev/null, neither said it was configuring or
# building). The scripts run from a copy of themselves beside stub meson
# and ninja, which print a build's lines and make a stub arbiter.
# Usage: test_scripts.sh SOURCE_ROOT
set -u
SRC=$1
. "$SRC/tests/lib/check.sh"
test_enter scripts
trap 'cd /; [ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
mkdir -p tree/ops stub
cp "$SRC/run.sh" "$SRC/test.sh" tree/
cp "$SRC/ops/deps.sh" tree/ops/
cat > stub/meson <<'STUB'
#!/bin/sh
case "$1" in
  setup) mkdir -p "$2/cli"; printf '#!/bin/sh\necho "arbiter $*"\n' > "$2/cli/arbiter"; chmod +x "$2/cli/arbiter"
         echo "The Meson build system (stub)";;
  test) echo "meson $*";;
esac
STUB
cat > stub/ninja <<'STUB'
#!/bin/sh
echo "[1/2] Compiling C object stub.c.o"
echo "[2/2] Linking target stub"
STUB
chmod +x stub/meson stub/ninja
PATH="$T/stub:$PATH" tree/test.sh --suite unit > test.out 2>&1
check "test.sh ran (stub)" 'grep -q "meson test -C build --print-errorlogs --suite unit" test.out'
check "test.sh says it configures" 'grep -q "^test.sh: configuring build/" test.out'
check "test.sh says it builds" 'grep -q "^test.sh: building" test.out'
check "test.sh shows ninja's progress" 'grep -q "^\[2/2\] Linking target stub" test.out'
check "test.sh says it runs the tests" 'grep -q "^test.sh: running the tests" test.out'
rm -rf tree/build
PATH="$T/stub:$PATH" tree/run.sh > run.out 2> run.err
check "run.sh ran arbiter run (stub)" 'grep -q "^arbiter run config/example-roundrobin.yaml --state .state" run.out'
check "run.sh says it configures (stderr)" 'grep -q "^run.sh: configuring build/" run.err'
check "run.sh says it builds (stderr)" 'grep -q "^run.sh: building" run.err'
check "run.sh shows ninja's progress (stderr)" 'grep -q "^\[2/2\] Linking target stub" run.err'
check "run.sh keeps stdout for the tournament" '! grep -q "Linking\|run.sh:" run.out'
rm -f tree/build/cli/arbiter
PATH="$T/stub:$PATH" tree/run.sh > run2.out 2> run2.err
check "run.sh with build/ there: no configuring, still building" \
  '! grep -q "configuring" run2.err && grep -q "^run.sh: building" run2.err'
echo "scripts: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
