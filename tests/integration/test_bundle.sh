#!/usr/bin/env bash
# test_bundle.sh — bots of any size (proto/bundle.h) end to end, on a real
# PostgreSQL with real Python bots in the real sandbox:
#   1. a bot of a library of 220+ modules (a package of subpackages, the SDK
#      vendored, two symbolic links) given as a directory, as a tar.gz and as
#      a zip plays a tournament under `arbiter run`: every seat plays without
#      a strike, the three programs are one bundle (one digest), recorded;
#   2. the same directory joins a ladder (`ladder join --files DIR`) and
#      passes its validation match;
#   3. refusals with clear errors: more files than ARB_BUNDLE_MAX_ENTRIES, a
#      tar whose header claims more bytes than a file may hold (refused from
#      the header: the archive is 10 KiB, its contents are never read), a
#      "../" escape, an absolute path, a link out, a hard link, a fifo and a
#      device in a tar, a link out of a directory;
#   4. a venv inside the bundle: its bin/python (a link to the system's
#      interpreter) runs the bot with the SDK installed in the venv.
# Usage: test_bundle.sh ARBITER SOURCE_ROOT BOTS_DIR
set -u
ARB=$1 SRC=$2 BOTS=$3
. "$(dirname "$0")/../lib/test_sh.sh" bundle-test
test_pg_start 55497
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$T/secret"; chmod 600 "$T/secret"
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; cleanup' EXIT

mkdir -p "$T/tn"
python3 "$SRC/tests/data/bundle/make_bot.py" "$T/tn/mybot" "$SRC/bots-sdk/python"
(cd "$T/tn/mybot" && tar czf ../mybot.tar.gz . && zip -qry ../mybot.zip .)
check "the bot has 220+ files" '[ "$(find "$T/tn/mybot" -name "*.py" | wc -l)" -ge 220 ]'

# ---- 1. a tournament of the three forms ------------------------------------
cat > "$T/tn/t.yaml" <<YAML
name: big
format: round-robin
deals: 2
seed: 5
clock: {move_ms: 3000, bank_ms: 20000}
entrants:
  - {name: dir, command: python3 main.py, files: [mybot/]}
  - {name: tgz, command: python3 bot.py, files: [mybot.tar.gz]}
  - {name: zip, command: python3 ./bot.py, files: mybot.zip}
YAML
check "arbiter check accepts a directory and archives as files:" '"$ARB" check "$T/tn/t.yaml" > "$T/check.out" 2>&1'
D1=$(newdb arb_bundle1)
"$ARB" run "$T/tn/t.yaml" --db "$D1" --state "$T/s1" --quiet --workers 1 --secret-file "$T/secret" > "$T/run.out" 2>&1
check "the tournament of big bots runs (exit 0)" '[ $? = 0 ] || { cat "$T/run.out" >&2; false; }'
check "its match is done" '[ "$(sql "$D1" "select count(*) filter (where state = '"'done'"') from matches")" = 1 ]'
check "every seat played its decisions without a strike, a penalty or a forfeit" \
  '[ "$(sql "$D1" "select count(*) from match_seats where decisions > 0 and strikes = 0 and penalties = 0 and not forfeited")" = 3 ]'
check "directory, tar.gz and zip are one program (one digest, recorded)" \
  '[ "$(sql "$D1" "select count(distinct digest) from entrant_programs")" = 1 ] && [ "$(sql "$D1" "select count(*) from programs")" = 1 ]'
check "the bundle in the record holds the whole tree" \
  '[ "$(sql "$D1" "select size from programs")" -gt 4000000 ]'

# ---- 2. a ladder entry from a directory --------------------------------------
cat > "$T/tn/l.yaml" <<YAML
name: L
game: doudizhu
format: ladder
deals: 2
seed: 7
files_root: /
clock: {move_ms: 3000, bank_ms: 20000}
ladder: {concurrent: 1, provisional: 5, matches: 0}
entrants:
  - {name: greedy, command: $BOTS/greedy_bot}
  - {name: random, command: $BOTS/random_bot}
YAML
D2=$(newdb arb_bundle2)
"$ARB" run "$T/tn/l.yaml" --db "$D2" --state "$T/s2" --quiet --workers 1 --secret-file "$T/secret" > "$T/l.out" 2>&1 &
pids+=($!)
for _ in $(seq 1 100); do sql "$D2" "select 1 from tournaments" > /dev/null 2>&1 && break; sleep 0.1; done
(cd "$T/tn" && "$ARB" ladder join L big --command "python3 main.py" --files mybot/ --db "$D2") > "$T/j.out" 2>&1
check "ladder join --files DIR is accepted" 'grep -q "big joined L as version 1" "$T/j.out" || { cat "$T/j.out" >&2; false; }'
status=""
for _ in $(seq 1 600); do
  status=$(sql "$D2" "SELECT le.status FROM ladder_entries le JOIN entrants e ON e.tournament_id = le.tournament_id AND e.idx = le.entrant WHERE e.name = 'big'" 2>/dev/null)
  [ "$status" = active ] || [ "$status" = rejected ] && break
  sleep 0.1
done
check "the entry from a directory passes its validation match (status $status)" '[ "$status" = active ]'

# ---- 3. refusals ----------------------------------------------------------------
J() { (cd "$T/tn" && "$ARB" ladder join L "$@" --db "$D2" 2>&1); }
refused() {   # refused NAME FILES EXPECTED-TEXT
  local out; out=$(J "$1" --command "python3 bot.py" --files "$2")
  if [ $? = 0 ] || ! grep -qF -- "$3" <<< "$out"; then echo "$out" >&2; return 1; fi
}
python3 - "$T/tn" <<'PY'
import io, os, sys, tarfile
d = sys.argv[1]
def tar(name, members):
    with tarfile.open(os.path.join(d, name), "w") as t:
        for info, data in members:
            t.addfile(info, io.BytesIO(data) if data is not None else None)
def reg(n, data=b"x"):
    i = tarfile.TarInfo(n); i.size = len(data); return i, data
def kind(n, t, **kw):
    i = tarfile.TarInfo(n); i.type = t
    for k, v in kw.items(): setattr(i, k, v)
    return i, None
tar("dotdot.tar", [reg("bot.py"), reg("../evil.py")])
tar("abs.tar", [reg("bot.py"), reg("/etc/evil.py")])
tar("linkout.tar", [reg("bot.py"), kind("out", tarfile.SYMTYPE, linkname="../../etc/passwd")])
tar("linkabs.tar", [reg("bot.py"), kind("out", tarfile.SYMTYPE, linkname="/etc/passwd")])
tar("hard.tar", [reg("bot.py"), kind("h", tarfile.LNKTYPE, linkname="bot.py")])
tar("fifo.tar", [reg("bot.py"), kind("f", tarfile.FIFOTYPE)])
tar("dev.tar", [reg("bot.py"), kind("null", tarfile.CHRTYPE, devmajor=1, devminor=3)])
# many entries: one more than ARB_BUNDLE_MAX_ENTRIES (16384), empty files
with tarfile.open(os.path.join(d, "many.tar"), "w") as t:
    for k in range(16385):
        t.addfile(tarfile.TarInfo("f%05d" % k), io.BytesIO(b""))
# a header claiming 100 GiB before a few bytes: the archive is tiny
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as t:
    i, data = reg("bot.py")
    t.addfile(i, io.BytesIO(data))
    i = tarfile.TarInfo("weights.bin"); i.size = 0
    t.addfile(i, io.BytesIO(b""))
raw = bytearray(buf.getvalue())
off = 1024   # the second header: bot.py's header and one block of its data
assert raw[off:off + 11] == b"weights.bin"
size = 100 << 30
raw[off + 124:off + 136] = b"\x80" + size.to_bytes(11, "big")   # GNU base-256 size
chk = sum(raw[off:off + 148]) + 8 * 32 + sum(raw[off + 156:off + 512])
raw[off + 148:off + 156] = b"%06o\0 " % chk
open(os.path.join(d, "huge.tar"), "wb").write(raw[:10240])
PY
check "a tar is refused: ../ escape" 'refused r1 dotdot.tar "../evil.py: a path with \"..\": refused"'
check "a tar is refused: an absolute path" 'refused r2 abs.tar "/etc/evil.py: an absolute path: refused"'
check "a tar is refused: a link out" 'refused r3 linkout.tar "the link to ../../etc/passwd leads out of the bundle"'
check "a tar is refused: a link to an absolute path" 'refused r4 linkabs.tar "a symbolic link to the absolute path /etc/passwd: refused"'
check "a tar is refused: a hard link" 'refused r5 hard.tar "h: a hard link (to bot.py): refused"'
check "a tar is refused: a fifo" 'refused r6 fifo.tar "f: a fifo: a program holds files, directories and links only"'
check "a tar is refused: a device" 'refused r7 dev.tar "null: a device: a program holds files, directories and links only"'
check "a tar is refused: one entry more than 16384" 'refused r8 many.tar "archive: more than 16384 entries"'
check "the 10 KiB tar claiming 100 GiB is refused from its header" \
  '[ "$(stat -c %s "$T/tn/huge.tar")" = 10240 ] && refused r9 huge.tar "weights.bin: 107374182400 bytes, over 67108864 for one file"'
mkdir -p "$T/tn/escdir"; echo 'print(1)' > "$T/tn/escdir/bot.py"; ln -s ../../etc/passwd "$T/tn/escdir/out"
check "a directory with a link out is refused, naming it" 'refused r10 escdir/ "escdir: bundle entry 1 (out): the link to ../../etc/passwd leads out of the bundle"'
mkdir -p "$T/tn/fifodir"; echo 'print(1)' > "$T/tn/fifodir/bot.py"; mkfifo "$T/tn/fifodir/pipe"
check "a directory with a fifo is refused, naming it" 'refused r11 fifodir/ "pipe: a fifo"'
check "a command word outside the directory is refused" \
  'out=$(J r12 --command "./elsewhere/run" --files mybot/); [ $? != 0 ] && grep -q "is not a file of its program" <<< "$out"'

# ---- 4. a venv inside the bundle --------------------------------------------------
# the system's interpreter (a venv of another, e.g. pyenv's under /root, would
# link out of /usr and be refused)
# A default venv (pip and setuptools in it, where ensurepip is installed):
# setuptools' "launcher manifest.xml" and "script (dev).tmpl" are names a
# bundle once refused.
if /usr/bin/python3 -m venv "$T/tn/vbot/venv" 2>/dev/null || /usr/bin/python3 -m venv --without-pip "$T/tn/vbot/venv" 2>/dev/null; then
  site=$(echo "$T"/tn/vbot/venv/lib/python3*/site-packages)
  if [ -d "$site/setuptools" ]; then
    check "a default venv's setuptools holds names with spaces and brackets" \
      '[ -n "$(find "$site/setuptools" -name "* *" -print -quit)" ]'
  fi
  cp -r "$SRC/bots-sdk/python/arbiter_bot" "$site/"
  cp "$SRC/bots-sdk/python/random_bot.py" "$T/tn/vbot/bot.py"
  check "the venv's interpreter is a link to the system's" '[ -L "$T/tn/vbot/venv/bin/python" ]'
  (cd "$T/tn" && "$ARB" ladder join L venvbot --command "venv/bin/python bot.py" --files vbot/ --db "$D2") > "$T/jv.out" 2>&1
  check "a bot in a venv inside its directory joins" 'grep -q "venvbot joined L" "$T/jv.out" || { cat "$T/jv.out" >&2; false; }'
  status=""
  for _ in $(seq 1 600); do
    status=$(sql "$D2" "SELECT le.status FROM ladder_entries le JOIN entrants e ON e.tournament_id = le.tournament_id AND e.idx = le.entrant WHERE e.name = 'venvbot'" 2>/dev/null)
    [ "$status" = active ] || [ "$status" = rejected ] && break
    sleep 0.1
  done
  check "the venv bot (SDK only in its venv) passes its validation match (status $status)" '[ "$status" = active ]'
else
  echo "python3 -m venv unavailable: the venv case is skipped" >&2
fi

# ---- 5. a venv outside any bundle: its interpreter named by its own path -----------
# The SDK is installed only in V; `V/bin/python` is a link to the system's
# interpreter, and Python finds V from the name it is run by. The program
# was resolved through the link before (No module named 'arbiter_bot').
if /usr/bin/python3 -m venv --without-pip "$T/V" 2>/dev/null; then
  cp -r "$SRC/bots-sdk/python/arbiter_bot" "$(echo "$T"/V/lib/python3*/site-packages)/"
  cp "$SRC/bots-sdk/python/random_bot.py" "$T/mybot.py"
  for sb in none auto; do
    # all three Python (a sanitised build's C bots cannot start under the
    # bots' address-space limit: CI runs this under AddressSanitizer)
    (cd "$T" && "$ARB" match --bot "py=V/bin/python mybot.py" --bot "b=V/bin/python mybot.py" --bot "c=V/bin/python mybot.py" \
       --sandbox "$sb" --deals 2 --quiet --format json) > "$T/venv-$sb.json" 2> "$T/venv-$sb.err"
    check "a bot run by a venv's interpreter outside the bundle imports the venv's SDK (--sandbox $sb)" \
      'python3 -c "import json,sys; r=json.load(open(sys.argv[1])); b=[x for x in r[\"bots\"] if x[\"name\"]==\"py\"][0]; sys.exit(0 if b[\"decisions\"]>0 and not b.get(\"forfeited\") else 1)" "$T/venv-$sb.json" || { cat "$T/venv-$sb.json" "$T/venv-$sb.err" >&2; false; }'
  done
fi

echo "bundle: $pass passed, $fail failed"
[ "$fail" = 0 ]
