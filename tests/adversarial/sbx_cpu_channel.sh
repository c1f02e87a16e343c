#!/usr/bin/env bash
# sbx_cpu_channel.sh — measures the CPU-contention channel between two
# sandboxes (sbx_cpu_channel.c): a sender and a receiver, each in a
# bubblewrap sandbox of arbiter's kind (no network, IPC, pids; its own
# /dev and masked /proc), started at once; for each slot length, the bit
# rate, error rate and capacity. A benchmark: it prints, it does not fail.
#   sbx_cpu_channel.sh PROG [NBITS] [SLOT_MS...]
set -u
prog=$1; shift
nbits=${1:-200}; [ $# -gt 0 ] && shift
slots=("$@"); [ ${#slots[@]} -gt 0 ] || slots=(2 5 10 20 50)
command -v bwrap >/dev/null || { echo "sbx_cpu_channel: no bubblewrap"; exit 0; }
box() {
  bwrap --unshare-all --die-with-parent --ro-bind / / --tmpfs /dev --dev-bind /dev/null /dev/null \
    --proc /proc --tmpfs /proc/sys --dev-bind /dev/null /proc/stat --dev-bind /dev/null /proc/loadavg -- "$@"
}
echo "cpu channel: $(nproc) cpus, $nbits bits a run"
for slot in "${slots[@]}"; do
  # the slot clock's origin: CLOCK_MONOTONIC in ms, 300 ms ahead (both sandboxes started by then)
  start=$(python3 -c 'import time; print(int(time.clock_gettime(time.CLOCK_MONOTONIC)*1000) + 300)')
  seed=$RANDOM
  box "$prog" send "$slot" "$nbits" "$start" "$seed" &
  s=$!
  box "$prog" recv "$slot" "$nbits" "$start" "$seed"
  wait "$s"
done
