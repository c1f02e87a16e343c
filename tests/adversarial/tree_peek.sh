#!/bin/bash
# tree_peek.sh — in `arbiter run`, a bot cannot read another entrant's
# files where the organiser keeps them (the tournament's tree) nor list the
# tree: each bot gets its own program from the program cache, by digest,
# and the tree is hidden. Before, bots ran from the organiser's directory
# and read every entrant's program and files: this test's peeking bot
# found the other entrant's file and took a penalty to say so.
# The tree is made under the build directory, not /tmp (private to every
# sandbox already), so that only the hiding can keep it from the bot.
# usage: tree_peek.sh ARBITER BOTS_DIR BUILD_DIR SOURCE_ROOT
set -u
ARB=$1 BOTS=$2 BUILD=$3 SRC=$4
T=$(mktemp -d "$BUILD/arbiter-tree-peek.XXXXXX")
chmod 755 "$T"
fail=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; fail=1; fi; }
cleanup() {
  "$ARB" status --state "$T/state" >/dev/null 2>&1 || true
  rm -rf "$T"
}
trap cleanup EXIT
mkdir -p "$T/cup/alice" "$T/cup/peek" "$T/elsewhere"
# outside the tree: what another tournament's state directory or the
# organiser's secret file would hold (readable by the referee's uid)
echo "arbiter:5432:*:arbiter:hunter2" > "$T/elsewhere/pg-arbiter.pgpass"
chmod 644 "$T/elsewhere/pg-arbiter.pgpass"
echo "alice's opening book: bid 3 on any bomb" > "$T/cup/alice/book.txt"
cp "$SRC/tests/bots/tree_peek.sh" "$T/cup/peek/peek.sh"
cp "$BOTS/hostile_bot" "$T/cup/peek/hostile_bot"
cp "$BOTS/hostile_bot" "$T/cup/alice/alice_bot"
chmod -R a+rX "$T/cup"
cat > "$T/cup/cup.yaml" <<YAML
name: tree peek
format: round-robin
deals: 2
seed: 11
entrants:
  - name: alice
    command: alice/alice_bot honest
    files: alice/book.txt
  - name: peek
    command: peek/peek.sh p=$T/cup/alice/book.txt p=$T/cup p=$T/elsewhere/pg-arbiter.pgpass
    files: peek/hostile_bot
  - name: carol
    command: $BOTS/random_bot
YAML
"$ARB" run "$T/cup/cup.yaml" --state "$T/state" --quiet --workers 1 > "$T/run.out" 2>&1
rc=$?
check "the tournament ran (exit $rc)" '[ $rc = 0 ]'
"$ARB" standings "tree peek" --state "$T/state" --format csv > "$T/st.csv" 2>&1
check "the standings list the peeking bot" 'grep -q "^[0-9]*,peek," "$T/st.csv"'
check "the peeking bot found nothing to read or list, in the tree or outside it (no penalty)" \
  'awk -F, '"'"'$2 == "peek" { p = $7 } END { exit !(p == "0") }'"'"' "$T/st.csv"'
check "no entrant was penalised" '[ -z "$(awk -F, '"'"'NR > 1 && $7 != "0"'"'"' "$T/st.csv")" ]'
# Another tournament's bot on this host (another uid, or outside bubblewrap)
# may pass through the program cache to a digest it knows, never list it.
check "the program cache cannot be listed by others (0711)" '[ "$(stat -c %a "$T/state/work/programs")" = 711 ]'
[ $fail = 0 ] || cat "$T/run.out" "$T/st.csv"
exit $fail
