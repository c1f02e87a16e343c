#!/usr/bin/env bash
# test_migrate.sh — commands that start together on a fresh database all
# migrate it, none fails: in each of ROUNDS rounds, on a new database, six
# commands that open the record with migration start at once (three
# `arbiter submit` of ladders, as entrants' submissions racing each other,
# and three `arbiter dispute list`, the cheapest command that migrates);
# every one exits 0, every embedded migration is recorded once, the latest
# is schemas/sql's last, and the three ladders are in the record. Before
# store_migrate took its advisory lock around everything, schema_migrations
# itself was created outside the lock and two CREATE TABLE IF NOT EXISTS
# could collide (duplicate key in pg_type), failing one command.
# Usage: test_migrate.sh ARBITER SOURCE_ROOT [ROUNDS]
set -u
ARB=$1 SRC=$2 ROUNDS=${3:-10}
. "$(dirname "$0")/../lib/test_sh.sh" migrate-test
test_pg_start 55471

versions=$(ls "$SRC"/schemas/sql/[0-9]*_*.sql | sed 's|.*/0*\([0-9][0-9]*\)_.*|\1|' | sort -n)
nver=$(echo "$versions" | wc -l)
latest=$(echo "$versions" | tail -n 1)
for i in 1 2 3; do
  cat > "$T/ladder$i.yaml" <<EOF
name: race ladder $i
game: doudizhu
format: ladder
deals: 1
ladder:
  matches: 1
EOF
done

failed_rounds=0 failed_cmds=0
for r in $(seq 1 "$ROUNDS"); do
  D=$(newdb "arb_migrate_$r")
  pids=()
  for i in 1 2 3; do
    "$ARB" submit "$T/ladder$i.yaml" --db "$D" > "$T/out.$r.s$i" 2>&1 & pids+=($!)
    "$ARB" dispute list --db "$D" > "$T/out.$r.d$i" 2>&1 & pids+=($!)
  done
  nfail=0
  for p in "${pids[@]}"; do wait "$p" || nfail=$((nfail + 1)); done
  if [ "$nfail" != 0 ]; then
    failed_rounds=$((failed_rounds + 1)) failed_cmds=$((failed_cmds + nfail))
    echo "round $r: $nfail of ${#pids[@]} commands failed:" >&2
    grep -h "ERROR" "$T"/out."$r".* | sort | uniq -c | head -n 3 >&2
  fi
  check "round $r: every embedded migration recorded once" \
    '[ "$(sql "$D" "SELECT count(*), count(DISTINCT version), max(version) FROM schema_migrations")" = "$nver|$nver|$latest" ]'
  check "round $r: the three ladders submitted" \
    '[ "$(sql "$D" "SELECT count(*) FROM tournaments WHERE name LIKE '"'race ladder %'"'")" = 3 ]'
done
echo "migrate: $failed_cmds of $((ROUNDS * 6)) commands failed, in $failed_rounds of $ROUNDS rounds"
check "every command of every round succeeded" '[ "$failed_rounds" = 0 ]'

echo "migrate: $pass passed, $fail failed"
[ "$fail" = 0 ]
