#!/usr/bin/env bash
# test_distributed.sh — remote referee workers over CURVE-encrypted tcp on
# localhost: a scheduler with no local workers (`arbiter run --listen`),
# two listed referees (`arbiter referee`) and one intruder whose key is not
# listed. The tournament completes, the matches spread over both referees,
# the intruder plays nothing, and the standings equal those of a local run
# of the same file and seed. Usage: test_distributed.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
T=$(mktemp -d /tmp/arbiter-distributed-test.XXXXXX)
chmod 755 "$T"
cd "$T" || exit 2
pass=0 fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1" >&2; fi; }
trap 'pkill -f "arbiter referee --connect tcp://127.0.0.1:$PORT" 2>/dev/null; rm -rf "$T"' EXIT

for k in sched w1 w2 intruder; do "$ARB" keygen "$k" > /dev/null; done
# each key listed with its name: the identity the record knows its worker by
for k in w1 w2; do echo "$(head -1 $k.pub) $k"; done > workers.txt
{
  echo "name: spread"; echo "format: round-robin"; echo "deals: 2"; echo "seed: 4"
  echo "entrants:"
  for i in 1 2 3 4 5 6; do
    b=random_bot; [ $((i % 2)) = 0 ] && b=greedy_bot
    printf "  - name: e%d\n    command: %s/%s\n" "$i" "$BOTS" "$b"
  done
} > t.yaml

PORT=$((20000 + RANDOM % 20000))
for k in w1 w2 intruder; do
  "$ARB" referee --connect "tcp://127.0.0.1:$PORT" --server-key sched.pub --key "$k" --slots 1 --workdir "$k-dir" --metrics "" 2> "$k.log" &
done
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > secret; chmod 600 secret   # one secret for both runs
timeout 300 "$ARB" run t.yaml --secret-file secret --state remote --listen "tcp://127.0.0.1:$PORT" --key sched --worker-keys workers.txt \
  --workers 0 --quiet > remote.out 2>&1
check "the distributed run exits 0" '[ $? = 0 ]'
pkill -f "arbiter referee --connect tcp://127.0.0.1:$PORT"
"$ARB" status --state remote > status.out 2>&1
check "20 matches done, none void" 'grep -Eq "spread +round-robin +done +0 +0 +20 +0" status.out'
"$ARB" standings spread --state remote --format csv > remote.csv
"$ARB" run t.yaml --secret-file secret --state local --quiet > /dev/null 2>&1
"$ARB" standings spread --state local --format csv > local.csv
check "standings equal a local run's" 'cmp -s remote.csv local.csv'
# who played: the record names each match's referee. Three were connected;
# exactly the two listed ones played (the intruder was refused by ZAP).
workers=$(grep -cE "^  spread +w[12] +[0-9]+$" status.out)
check "the matches spread over both listed referees and no other ($workers played)" '[ "$workers" = 2 ]'
echo "distributed: $pass passed, $fail failed"
[ "$fail" = 0 ]
