#!/usr/bin/env bash
# test_report_safe.sh — commands that write where a user points do not
# follow another user's links (docs/cli.md, "Files arbiter writes";
# arb_file.h): on a tournament recorded with `arbiter run`,
#   a. a link planted at DIR/m/ID.html to a victim file: the victim is
#      never written (a DIR/m of the caller's: the page replaces the link;
#      a DIR/m of another user's: refused, naming it; DIR/m itself a link
#      to another directory: refused, nothing written there);
#   b. a DIR owned by another user: refused with what to do (root only);
#   c. a world-writable DIR, with and without the sticky bit: refused;
#      a DIR under a world-writable directory without the sticky bit (a
#      directory on the way another user could swap): refused;
#   d. a fresh DIR is made 0755 (its parents too) and the report written;
#      run again into the same DIR, every page replaced in place, a file
#      of the caller's in DIR left alone;
#   e. transcripts get -o and export -o onto a link: refused, the victim
#      untouched; onto a file in a world-writable directory: refused.
#   f. match --transcript into a world-writable directory, through a link
#      in one (and through another user's link in a sticky one), onto
#      another user's file: refused, or that file left as it was and the
#      transcript a fresh file renamed over its name; eval --keep a
#      world-writable DIR: refused before any match runs.
# Each of a-c and e's world-writable case fails on the code before
# arb_file_write.c (checked when it was written); f's refusals, the other
# user's file and --keep on the code before the transcript writer took
# arb_out's descriptor (checked).
# Usage: test_report_safe.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" report-safe
test_pg_start 55499

{
  echo "name: safe cup"
  echo "format: round-robin"
  echo "deals: 1"
  echo "seed: 3"
  entrants_yaml 3 "$BOTS"
} > "$T/rr.yaml"
D=$(newdb arb_report_safe)
"$ARB" run "$T/rr.yaml" --db "$D" --state "$T/s" --quiet --workers 1 > "$T/run.out" 2>&1
[ $? = 0 ] && ok || { bad "the tournament runs to the end"; tail -n 20 "$T/run.out" >&2; }
M=$(sql "$D" "SELECT id FROM matches ORDER BY id LIMIT 1")
report() { "$ARB" report "safe cup" -o "$1" --db "$D" > "$T/rep.out" 2> "$T/rep.err"; }
victim() { echo "victim, root's only" > "$T/victim"; chmod 600 "$T/victim"; }
untouched() { [ "$(cat "$T/victim")" = "victim, root's only" ]; }
ROOT=0; [ "$(id -u)" = 0 ] && ROOT=1

# ---- d. a fresh directory, and the report run again ------------------------------
report "$T/new/rep"
check "d: report into a fresh DIR (and its parent) exits 0" '[ $? = 0 ] && [ -f "$T/new/rep/index.html" ]' ||
  cat "$T/rep.err" >&2
check "d: the fresh DIR is 0755 and the caller's" \
  '[ "$(stat -c %a "$T/new/rep")" = 755 ] && [ "$(stat -c %u "$T/new/rep")" = "$(id -u)" ]'
check "d: its pages are 0644, its subdirectories 0755" \
  '[ "$(stat -c %a "$T/new/rep/m/$M.html")" = 644 ] && [ "$(stat -c %a "$T/new/rep/m")" = 755 ]'
n1=$(find "$T/new/rep" -type f | wc -l)
echo "mine" > "$T/new/rep/notes.txt"
ino=$(stat -c %i "$T/new/rep/index.html")
report "$T/new/rep"
check "d: report again into the same DIR exits 0" '[ $? = 0 ]' || cat "$T/rep.err" >&2
check "d: the same files, each replaced (a new inode), no temporary left" \
  '[ "$(find "$T/new/rep" -type f | wc -l)" = $((n1 + 1)) ] && [ "$(stat -c %i "$T/new/rep/index.html")" != "$ino" ] &&
   [ -z "$(find "$T/new/rep" -name ".*")" ]'
check "d: a file of the caller's in DIR is left alone" '[ "$(cat "$T/new/rep/notes.txt")" = mine ]'

# ---- a. a planted link --------------------------------------------------------------
victim
mkdir -p "$T/a1/m" && chmod 755 "$T/a1" "$T/a1/m"
ln -s "$T/victim" "$T/a1/m/$M.html"
report "$T/a1"
check "a: a link at DIR/m/ID.html in the caller's DIR is replaced by the page, not followed" \
  '[ $? = 0 ] && untouched && [ -f "$T/a1/m/$M.html" ] && [ ! -L "$T/a1/m/$M.html" ] && grep -q "<html" "$T/a1/m/$M.html"' ||
  cat "$T/rep.err" >&2
victim
mkdir -p "$T/a3" "$T/elsewhere" && chmod 755 "$T/a3"
ln -s "$T/elsewhere" "$T/a3/m"
report "$T/a3"
check "a: DIR/m a link to another directory: refused, naming it, nothing written there" \
  '[ $? != 0 ] && grep -q "a3/m.*symbolic link" "$T/rep.err" && [ -z "$(ls -A "$T/elsewhere")" ]'
if [ $ROOT = 1 ]; then
  victim
  mkdir -p "$T/a2/m" && chmod 755 "$T/a2" && chown nobody "$T/a2/m"
  runuser -u nobody -- ln -s "$T/victim" "$T/a2/m/$M.html"
  report "$T/a2"
  check "a: a link planted by another user in DIR/m of theirs: refused, naming DIR/m, the victim untouched" \
    '[ $? != 0 ] && untouched && grep -q "a2/m is owned by uid" "$T/rep.err"' || cat "$T/rep.err" >&2
else
  echo "a: not root: the case of a DIR/m of another user's is skipped"
fi

# ---- b. a directory of another user's ---------------------------------------------
if [ $ROOT = 1 ]; then
  mkdir "$T/b" && chown nobody "$T/b" && chmod 755 "$T/b"
  report "$T/b"
  check "b: a DIR owned by another user: refused, naming it and what to do" \
    '[ $? != 0 ] && grep -q "b is owned by uid $(id -u nobody), not you (uid 0): choose a directory you own, or let report create it" "$T/rep.err" &&
     [ -z "$(ls -A "$T/b")" ]' || cat "$T/rep.err" >&2
else
  echo "b: not root: a DIR of another user's cannot be made; skipped"
fi

# ---- c. world-writable directories ------------------------------------------------
for mode in 777 1777; do
  mkdir "$T/c$mode" && chmod $mode "$T/c$mode"
  report "$T/c$mode"
  check "c: a DIR of mode $mode: refused, naming it and what to do" \
    '[ $? != 0 ] && grep -q "c$mode is writable by others (mode 0*$mode): choose a directory only you can write, or let report create it" "$T/rep.err" &&
     [ -z "$(ls -A "$T/c$mode")" ]' || cat "$T/rep.err" >&2
done
mkdir "$T/open" && chmod 777 "$T/open"
report "$T/open/rep"
check "c: a DIR under a world-writable directory without the sticky bit: refused, naming that directory" \
  '[ $? != 0 ] && grep -q "open.*writable by others (mode 0777, no sticky bit)" "$T/rep.err" && [ ! -e "$T/open/rep" ]' ||
  cat "$T/rep.err" >&2

# ---- e. transcripts get -o and export -o --------------------------------------------
victim
ln -s "$T/victim" "$T/planted.arbt"
"$ARB" transcripts get "$M" -o "$T/planted.arbt" --db "$D" > /dev/null 2> "$T/get.err"
check "e: transcripts get -o onto a link: refused, not followed, the link left" \
  '[ $? != 0 ] && untouched && [ -L "$T/planted.arbt" ] && grep -q "symbolic link" "$T/get.err"' || cat "$T/get.err" >&2
"$ARB" transcripts get "$M" -o "$T/open/t.arbt" --db "$D" > /dev/null 2> "$T/get.err"
check "e: transcripts get -o into a world-writable directory without the sticky bit: refused" \
  '[ $? != 0 ] && [ ! -e "$T/open/t.arbt" ] && grep -q "no sticky bit" "$T/get.err"' || cat "$T/get.err" >&2
"$ARB" transcripts get "$M" -o "$T/t.arbt" --db "$D" > /dev/null 2> "$T/get.err"
check "e: transcripts get -o a plain path: written, 0600, and it replays" \
  '[ $? = 0 ] && [ "$(stat -c %a "$T/t.arbt")" = 600 ] && "$ARB" replay "$T/t.arbt" > /dev/null 2>&1'
ln -s "$T/victim" "$T/planted.tar.zst"
"$ARB" export "safe cup" -o "$T/planted.tar.zst" --db "$D" > /dev/null 2> "$T/exp.err"
check "e: export -o onto a link: refused, the victim untouched" \
  '[ $? = 2 ] && untouched && grep -q "symbolic link" "$T/exp.err"' || cat "$T/exp.err" >&2
"$ARB" export "safe cup" -o "$T/open/a.tar.zst" --db "$D" > /dev/null 2> "$T/exp.err"
check "e: export -o into a world-writable directory without the sticky bit: refused" \
  '[ $? != 0 ] && [ -z "$(ls -A "$T/open")" ]' || cat "$T/exp.err" >&2

# ---- f. match --transcript and eval --keep --------------------------------------------
RB="$BOTS/random_bot"
play() {
  "$ARB" match --bot a="$RB" --bot b="$RB" --bot c="$RB" --sandbox none --deals 1 --quiet \
    --transcript "$1" > "$T/m.out" 2> "$T/m.err"
}
play "$T/open/t.tr"
check "f: match --transcript into a world-writable directory without the sticky bit: refused, nothing written" \
  '[ $? = 2 ] && [ -z "$(ls -A "$T/open")" ] && grep -q "open.*no sticky bit" "$T/m.err"' || cat "$T/m.err" >&2
mkdir -p "$T/elsewhere2" && chmod 755 "$T/elsewhere2"
ln -s "$T/elsewhere2" "$T/open/lnk"
play "$T/open/lnk/t.tr"
check "f: match --transcript through a link in a world-writable directory: refused, nothing written where it points" \
  '[ $? = 2 ] && [ -z "$(ls -A "$T/elsewhere2")" ]' || cat "$T/m.err" >&2
rm "$T/open/lnk"
if [ $ROOT = 1 ]; then
  mkdir -p "$T/sticky" && chmod 1777 "$T/sticky"
  runuser -u nobody -- ln -s "$T/elsewhere2" "$T/sticky/lnk"
  play "$T/sticky/lnk/t.tr"
  check "f: match --transcript through another user's link in a sticky directory: refused, nothing written" \
    '[ $? = 2 ] && [ -z "$(ls -A "$T/elsewhere2")" ] && grep -q "lnk.*uid $(id -u nobody)" "$T/m.err"' || cat "$T/m.err" >&2
  mkdir -p "$T/own" && chmod 755 "$T/own"
  echo "theirs" > "$T/own/t.tr" && chown nobody "$T/own/t.tr" && chmod 666 "$T/own/t.tr"
  ln "$T/own/t.tr" "$T/theirs"   # the other user's file, whatever name it has
  play "$T/own/t.tr"
  check "f: match --transcript onto another user's file: their file left as it was, the transcript a fresh 0600 file of ours" \
    '[ $? = 0 ] && [ "$(cat "$T/theirs")" = theirs ] && [ "$(stat -c %a:%u "$T/own/t.tr")" = 600:0 ] &&
     "$ARB" replay "$T/own/t.tr" > /dev/null 2>&1 && [ -z "$(find "$T/own" -name ".*")" ]' || cat "$T/m.err" >&2
else
  echo "f: not root: another user's link and file cannot be made; skipped"
fi
play "$T/mine.tr"
check "f: match --transcript a plain path: written, 0600, it replays, no temporary left" \
  '[ $? = 0 ] && [ "$(stat -c %a "$T/mine.tr")" = 600 ] && "$ARB" replay "$T/mine.tr" > /dev/null 2>&1 &&
   [ -z "$(find "$T" -maxdepth 1 -name ".mine.tr*")" ]' || cat "$T/m.err" >&2
mkdir "$T/k777" && chmod 777 "$T/k777"
"$ARB" eval --bot "a=$RB" --bot "b=$RB" --deals 1 --sandbox none --quiet --keep "$T/k777" > "$T/e.out" 2> "$T/e.err"
check "f: eval --keep a world-writable DIR: refused before any match runs (no result), nothing written" \
  '[ $? = 2 ] && [ ! -s "$T/e.out" ] && [ -z "$(ls -A "$T/k777")" ] && grep -q "k777 is writable by others" "$T/e.err"' ||
  cat "$T/e.err" >&2
"$ARB" eval --bot "a=$RB" --bot "b=$RB" --deals 1 --sandbox none --quiet --keep "$T/kept" > "$T/e.out" 2> "$T/e.err"
check "f: eval --keep a fresh DIR: made 0700, a 0600 transcript per match that replay reads, no temporary left" \
  '[ $? = 0 ] && [ "$(stat -c %a "$T/kept")" = 700 ] && [ "$(stat -c %a "$T/kept/deal-0-landlord.tr")" = 600 ] &&
   "$ARB" replay "$T/kept/deal-0-landlord.tr" --stderr 1 > /dev/null 2>&1 && [ -z "$(find "$T/kept" -name ".*")" ]' ||
  { cat "$T/e.err" >&2; ls -la "$T/kept" >&2; }

echo "report_safe: $pass passed, $fail failed"
[ $fail = 0 ]
