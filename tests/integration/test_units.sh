#!/usr/bin/env bash
# test_units.sh — the systemd units of ops/ agree and the scheduler's is
# hardened: both install /etc/arbiter with the same mode (they said 0755
# and 0750); the scheduler, which runs no bot, has NoNewPrivileges=,
# ProtectSystem=strict, PrivateTmp=, ProtectHome= and an empty capability
# set; the referee keeps what bubblewrap and cgroups need (no
# ProtectSystem=strict, RestrictNamespaces= or NoNewPrivileges=); and
# systemd-analyze, where there is one, finds nothing to say about either.
# Usage: test_units.sh SOURCE_ROOT
set -u
SRC=$1
. "$SRC/tests/lib/check.sh"
test_enter units
trap 'cd /; rm -rf "$T"' EXIT
S=$SRC/ops/arbiter-scheduler.service R=$SRC/ops/arbiter-referee.service
mode() { grep -oE 'install -d -m [0-7]+( -o [a-z]+ -g [a-z]+)? /etc/arbiter' "$1" | grep -oE '[0-7]{4}' | head -n 1; }
check "the scheduler's unit installs /etc/arbiter 0750 ($(mode "$S"))" '[ "$(mode "$S")" = 0750 ]'
check "the referee's unit installs /etc/arbiter with the same mode ($(mode "$R"))" '[ "$(mode "$R")" = "$(mode "$S")" ]'
for d in NoNewPrivileges=yes ProtectSystem=strict PrivateTmp=yes ProtectHome=yes PrivateDevices=yes \
         ProtectKernelTunables=yes ProtectControlGroups=yes RestrictNamespaces=yes RestrictSUIDSGID=yes; do
  check "scheduler: $d" 'grep -qx "$d" "$S"'
done
check "scheduler: an empty capability set" 'grep -qx "CapabilityBoundingSet=" "$S"'
for d in ProtectSystem=strict RestrictNamespaces=yes NoNewPrivileges=yes ProtectControlGroups=yes; do
  check "referee: no $d (bubblewrap, cgroups, bot uids)" '! grep -qx "$d" "$R"'
done
if command -v systemd-analyze >/dev/null; then
  # verify wants the ExecStart binaries: stand-ins at the units' paths, in a copy
  mkdir -p bin
  for u in "$S" "$R"; do
    sed "s|/usr/local/bin/|$T/bin/|" "$u" > "$(basename "$u")"
  done
  printf '#!/bin/sh\n' > bin/arbiter-scheduler; cp bin/arbiter-scheduler bin/arbiter-referee
  chmod +x bin/*
  out=$(systemd-analyze verify --man=no ./arbiter-scheduler.service ./arbiter-referee.service 2>&1 \
        | grep -v "Failed to \(connect\|prepare\)\|Cannot add dependency\|network-online\|postgresql.service\|multi-user")
  check "systemd-analyze verify says nothing of the units ($out)" '[ -z "$out" ]'
else
  echo "systemd-analyze not here: the units' syntax not verified"
fi
echo "units: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
