#!/usr/bin/env bash
# test_export.sh — a tournament out of one record and into another
# (arbiter export / arbiter import, docs/operations.md "Archiving a
# competition"), and a match played again from the programs in the record
# alone (docs/disputes.md "Reruns"), on a real PostgreSQL with real bots:
#   1. a rated round robin whose bots are copies: each entrant's program in
#      the record (017_programs.sql), transcripts put in the transcripts
#      table by hand (the scheduler does not fill it yet);
#   2. export: one tar.zst, its MANIFEST last with a SHA-256 per member;
#   3. import into a fresh record whose ids are elsewhere: the same
#      standings, results, ratings, secret, programs (digests and bytes),
#      transcripts, every reference remapped; verify passes there; a second
#      import of the same name refused, nothing written; --check writes
#      nothing;
#   4. hostile archives refused with their reason, nothing written: not an
#      archive, truncated, a member changed, dropped or added, a path
#      trick, a link, a member over its size limit, a manifest claiming
#      too many members, a program that is not its digest, a bomb, a
#      MANIFEST naming another tournament; rows naming what the archive
#      does not bring (another tournament's transcript or program, one
#      claimed pruned), program paths that climb out, argument indexes
#      out of bounds; host transcript paths dropped, keyless events the
#      new tournament's, an `imported` event; a pruned tournament
#      round-trips; export refuses a link at -o and ignores links planted
#      at .partial names;
#   5. rerun from the record: the bots' files removed, a dispute resolved
#      --rerun in the imported record, arbiter run plays the match from
#      the recorded programs with the same result.
# Usage: test_export.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" export-test
test_pg_start 55493
run() { "$ARB" run "$1" --db "$2" --state "$3" --quiet --workers 2 "${@:4}"; }

# ---- 1. a tournament whose bots are copies --------------------------------------
mkdir -p "$T/bots"
cp "$BOTS/greedy_bot" "$BOTS/random_bot" "$T/bots/"
cat > "$T/rr.yaml" <<EOF
name: archived rr
game: doudizhu
rules: standard
format: round-robin
rating: openskill
deals: 3
seed: 31
files_root: /
entrants:
  - {name: greedy-a, command: $T/bots/greedy_bot --name greedy-a}
  - {name: greedy-b, command: $T/bots/greedy_bot --name greedy-b}
  - {name: random-a, command: $T/bots/random_bot --name random-a}
  - {name: random-b, command: $T/bots/random_bot --name random-b}
EOF
D=$(newdb arb_export_a)
run "$T/rr.yaml" "$D" "$T/s" > "$T/run.out" 2>&1
check "the round robin runs to the end" '[ $? = 0 ]' || tail -n 20 "$T/run.out" >&2
check "every entrant's program is in the record: two bundles, four entrants, the program as argument 0" \
  '[ "$(sql "$D" "SELECT count(*) FROM programs WHERE codec = '"'zstd'"'")" = 2 ] &&
   [ "$(sql "$D" "SELECT count(*) FROM entrant_programs WHERE argi = '"'{0}'"'")" = 4 ]'
# the transcripts in the table by hand (016_transcripts.sql; codec none)
for id in $(sql "$D" "SELECT id FROM matches WHERE state = 'done'"); do
  f=$(sql "$D" "SELECT transcript FROM matches WHERE id = $id")
  sql "$D" "INSERT INTO transcripts (digest, raw_size, codec, body) SELECT digest, $(stat -c %s "$f"), 'none',
            decode('$(od -An -tx1 -v "$f" | tr -d ' \n')', 'hex') FROM matches WHERE id = $id" > /dev/null
done
ntr=$(sql "$D" "SELECT count(*) FROM transcripts")
check "the transcripts are in the table, one per match" \
  '[ "$ntr" -gt 0 ] && [ "$ntr" = "$(sql "$D" "SELECT count(*) FROM matches WHERE state = '"'done'"'")" ]'

# ---- 2. export ---------------------------------------------------------------
"$ARB" export "archived rr" -o "$T/a.tar.zst" --db "$D" > "$T/exp.out" 2>&1
check "export writes the archive and says what is in it" \
  '[ $? = 0 ] && [ -s "$T/a.tar.zst" ] && grep -q "2 programs, $ntr transcripts, secret included" "$T/exp.out"' \
  || cat "$T/exp.out" >&2
mkdir -p "$T/x" && tar --zstd -xf "$T/a.tar.zst" -C "$T/x"
tar --zstd -tf "$T/a.tar.zst" > "$T/members"
check "any tar reads it: record chunks first, the programs, the transcripts, MANIFEST last" \
  '[ "$(head -n 1 "$T/members")" = record/tournaments.000001.json ] && [ "$(tail -n 1 "$T/members")" = MANIFEST ] &&
   [ "$(grep -c "^programs/" "$T/members")" = 2 ] && [ "$(grep -c "^transcripts/" "$T/members")" = "$ntr" ]'
check "the MANIFEST names every member with its SHA-256 and size, which sha256sum agrees with" \
  '(cd "$T/x" && grep -E "^[0-9a-f]{64} [0-9]+ " MANIFEST | awk "{print \$1\"  \"\$3}" | sha256sum -c --quiet) &&
   [ "$(grep -cE "^[0-9a-f]{64} " "$T/x/MANIFEST")" = $(( $(wc -l < "$T/members") - 1 )) ]'
check "a program member is its digest's bundle, a transcript member the transcript of its digest" \
  '(cd "$T/x" && for f in programs/*; do [ "$(sha256sum < $f | cut -c1-64)" = "${f#*/}" ] || exit 1; done &&
    for f in transcripts/*; do "$ARB" replay "$f" --digest "${f#*/}" > /dev/null 2>&1 || exit 1; done)'
# a link planted where the output goes: not followed, the victim untouched
echo victim > "$T/victim" && ln -s "$T/victim" "$T/planted.tar.zst"
"$ARB" export "archived rr" -o "$T/planted.tar.zst" --db "$D" > "$T/e2" 2>&1
check "export -o naming a symbolic link: refused, the file it points at untouched" \
  '[ $? = 2 ] && grep -q "a symbolic link" "$T/e2" && [ "$(cat "$T/victim")" = victim ] && [ -L "$T/planted.tar.zst" ]'
for pid in $(seq $$ $(($$ + 400))); do ln -sf "$T/victim" "$T/b.tar.zst.partial-$pid"; done
"$ARB" export "archived rr" -o "$T/b.tar.zst" --db "$D" > "$T/e3" 2>&1
check "export writes under a name of its own drawing (mkstemp), not one a planted link holds" \
  '[ $? = 0 ] && [ "$(cat "$T/victim")" = victim ] && [ -f "$T/b.tar.zst" ] && [ ! -L "$T/b.tar.zst" ] &&
   [ "$(stat -c %a "$T/b.tar.zst")" = 600 ]' || cat "$T/e3" >&2
rm -f "$T"/b.tar.zst.partial-*
"$ARB" export "no such" -o "$T/none.tar.zst" --db "$D" > "$T/e1" 2>&1
check "export of a tournament the record lacks: exit 3, no file" '[ $? = 3 ] && [ ! -e "$T/none.tar.zst" ]'

# ---- 3. import into a fresh record --------------------------------------------
E=$(newdb arb_export_b)
"$ARB" import "$T/a.tar.zst" --check --db "$E" > "$T/chk.out" 2>&1
check "import --check: it imports, nothing written" \
  '[ $? = 0 ] && grep -q "then rolled back" "$T/chk.out" && [ "$(sql "$E" "SELECT count(*) FROM tournaments")" = 0 ]' \
  || cat "$T/chk.out" >&2
# ids elsewhere than the first record's: every one must be drawn anew
sql "$E" "SELECT setval('matches_id_seq', 5000), setval('tournaments_id_seq', 70), setval('disputes_id_seq', 90)" > /dev/null
"$ARB" import "$T/a.tar.zst" --db "$E" > "$T/imp.out" 2>&1
check "import loads it" '[ $? = 0 ] && grep -q "imported archived rr" "$T/imp.out"' || cat "$T/imp.out" >&2
for cmd in standings crosstable ratings; do
  "$ARB" $cmd "archived rr" --db "$D" > "$T/$cmd.a" 2>&1
  "$ARB" $cmd "archived rr" --db "$E" > "$T/$cmd.b" 2>&1
  check "arbiter $cmd is the same in both records" '[ -s "$T/$cmd.a" ] && cmp -s "$T/$cmd.a" "$T/$cmd.b"'
done
check "arbiter ratings recomputes the imported ratings equal" 'grep -q ": equal" "$T/ratings.b"'
q_results="SELECT string_agg(concat_ws(':', m.round, m.tbl, m.state, m.digest, m.seed, s.slot, s.entrant, s.total,
             s.points, s.rank, s.decisions), ',' ORDER BY m.round, m.tbl, s.slot) FROM matches m JOIN match_seats s ON s.match_id = m.id"
check "every match and seat the same" '[ "$(sql "$D" "$q_results")" = "$(sql "$E" "$q_results")" ]'
q_deals="SELECT string_agg(concat_ws(':', m.round, m.tbl, d.game, d.seed, d.seat_slots, d.scores), ',' ORDER BY m.round, m.tbl, d.game)
         FROM matches m JOIN deals d ON d.match_id = m.id"
check "every deal the same" '[ "$(sql "$D" "$q_deals")" = "$(sql "$E" "$q_deals")" ]'
check "the match ids drawn anew, every seat, deal and rating update pointing at them" \
  '[ "$(sql "$E" "SELECT min(id) > 5000 FROM matches")" = t ] && [ "$(sql "$E" "SELECT min(id) FROM tournaments")" = 71 ] &&
   [ "$(sql "$E" "SELECT count(*) FROM match_seats s JOIN matches m ON m.id = s.match_id")" = "$(sql "$D" "SELECT count(*) FROM match_seats")" ] &&
   [ "$(sql "$E" "SELECT count(*) FROM rating_history h JOIN matches m ON m.id = h.match_id")" = "$(sql "$D" "SELECT count(*) FROM rating_history")" ] &&
   [ "$(sql "$E" "SELECT count(*) FROM events WHERE kind <> '"'imported'"'")" = "$(sql "$D" "SELECT count(*) FROM events")" ]'
keys=$(sql "$D" "SELECT string_agg(DISTINCT signer_key, ', ') FROM matches WHERE signer_key IS NOT NULL")
check "the import is recorded: an imported event with the archive's SHA-256 and the signer keys it carries" \
  '[ -n "$keys" ] && [ "$(sql "$E" "SELECT detail FROM events WHERE kind = '"'imported'"'")" = \
     "from an archive of SHA-256 $(sha256sum < "$T/a.tar.zst" | cut -c1-64); transcripts signed by keys from the archive: $keys" ]'
q_secret="SELECT encode(secret, 'hex') || commitment || state || seed || config_digest FROM tournaments"
check "the secret (the tournament is over), its commitment, seed and configuration the same" \
  '[ -n "$(sql "$E" "SELECT encode(secret, '"'hex'"') FROM tournaments")" ] && [ "$(sql "$D" "$q_secret")" = "$(sql "$E" "$q_secret")" ]'
q_progs="SELECT string_agg(digest || size || md5(body), ',' ORDER BY digest) FROM programs"
q_links="SELECT string_agg(concat_ws(':', entrant, digest, argi, paths), ',' ORDER BY entrant) FROM entrant_programs"
check "the programs identical (digests, bytes) and each entrant's the same" \
  '[ "$(sql "$D" "$q_progs")" = "$(sql "$E" "$q_progs")" ] && [ "$(sql "$D" "$q_links")" = "$(sql "$E" "$q_links")" ]'
q_tr="SELECT string_agg(digest || ':' || raw_size, ',' ORDER BY digest) FROM transcripts"
check "the transcripts the same (recompressed)" \
  '[ "$(sql "$D" "$q_tr")" = "$(sql "$E" "$q_tr")" ] && [ "$(sql "$E" "SELECT count(*) FROM transcripts WHERE codec = '"'zstd'"'")" = "$ntr" ]'
"$ARB" verify "archived rr" --db "$E" > "$T/verify.out" 2>&1
check "arbiter verify passes on the imported record" '[ $? = 0 ]' || tail -n 5 "$T/verify.out" >&2
M1=$(sql "$E" "SELECT min(id) FROM matches")
"$ARB" replay --match "$M1" --db "$E" > "$T/replay.out" 2>&1
check "arbiter replay --match re-judges an imported match from the imported transcript and key" \
  '[ $? = 0 ] && grep -q "^verdict reproduced" "$T/replay.out" && grep -q "^signature: ok" "$T/replay.out"' || tail -n 5 "$T/replay.out" >&2
before=$(sql "$E" "SELECT count(*) FROM matches")
"$ARB" import "$T/a.tar.zst" --db "$E" > "$T/clash.out" 2>&1
check "a second import of the same tournament refused by name, nothing written" \
  '[ $? = 1 ] && grep -q "a tournament named \"archived rr\" is in this record already" "$T/clash.out" &&
   grep -q "nothing was written" "$T/clash.out" && [ "$(sql "$E" "SELECT count(*) FROM matches")" = "$before" ] &&
   [ "$(sql "$E" "SELECT count(*) FROM tournaments")" = 1 ]'

# ---- 4. hostile archives -------------------------------------------------------
# repack OUT MUTATION: the members of $T/x, in the archive's order (MANIFEST
# last), as a plain tar, changed as MUTATION says (python's tarfile).
repack() {
  python3 - "$T/x" "$T/members" "$1" "$2" <<'PY'
import hashlib, io, sys, tarfile
src, order, out, how = sys.argv[1:5]
names = [l.strip() for l in open(order) if l.strip()]
data = {n: open(f"{src}/{n}", "rb").read() for n in names}
def manifest(members):
    head = [l for l in data["MANIFEST"].decode().splitlines() if not l[:64].isalnum() or " " not in l or len(l.split(" ")[0]) != 64]
    lines = [f"{hashlib.sha256(data[n]).hexdigest()} {len(data[n])} {n}" for n in members]
    head = [f"members {len(lines)}" if h.startswith("members ") else h for h in head]
    return ("\n".join(head + lines) + "\n").encode()
members = [n for n in names if n != "MANIFEST"]
extra = []
if how == "changed":        # a digit of the matches' rows changed, the manifest not
    data["record/matches.000001.json"] = data["record/matches.000001.json"].replace(b'"games": 3', b'"games": 4', 1)
elif how == "dropped":      # the last transcript left out
    members = [n for n in members if n != [m for m in members if m.startswith("transcripts/")][-1]]
elif how == "program":      # a program's bytes changed, the manifest agreeing: its digest does not
    p = [n for n in members if n.startswith("programs/")][0]
    data[p] = data[p][:-1] + bytes([data[p][-1] ^ 1])
    data["MANIFEST"] = manifest(members)
elif how.startswith("as:"):  # renamed (to import beside the original), then changed as the rest says
    new, how = how[3:].split(":", 1)
    data["record/tournaments.000001.json"] = data["record/tournaments.000001.json"].replace(b'"name": "archived rr"', f'"name": "{new}"'.encode(), 1)
    data["MANIFEST"] = data["MANIFEST"].replace(b"\ntournament archived rr", f"\ntournament {new}".encode(), 1)
    ep = "record/entrant_programs.000001.json"
    if how == "notranscript":   # a transcript left out, the manifest agreeing: its match borrows the record's
        members = [n for n in members if n != [m for m in members if m.startswith("transcripts/")][-1]]
    elif how == "noprogram":    # a program left out, the manifest agreeing: its entrants borrow the record's
        members = [n for n in members if n != [m for m in members if m.startswith("programs/")][-1]]
    elif how == "badpath":
        data[ep] = data[ep].replace(b'"paths": ["', b'"paths": ["../../', 1)
    elif how == "badargi":
        data[ep] = data[ep].replace(b'"argi": [0]', b'"argi": [99]', 1)
    elif how == "hostpath":     # a transcript path of this host's, events of no tournament
        import re
        data["record/matches.000001.json"] = re.sub(rb'"transcript": "[^"]*"', b'"transcript": "/etc/shadow"', data["record/matches.000001.json"])
        data["record/events.000001.json"] = re.sub(rb', "tournament_id": [0-9]+', b'', data["record/events.000001.json"])
    elif how == "othername":    # the row renamed, the MANIFEST saying another name
        data["MANIFEST"] = data["MANIFEST"].replace(f"\ntournament {new}".encode(), b"\ntournament innocent", 1)
    data["MANIFEST"] = manifest(members)
elif how == "toomany":
    data["MANIFEST"] = data["MANIFEST"].replace(b"\nmembers ", b"\nmembers 99999999999", 1)
with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as t:
    def add(name, body, kind=tarfile.REGTYPE, link=""):
        i = tarfile.TarInfo(name); i.size = len(body) if kind == tarfile.REGTYPE else 0; i.type = kind; i.linkname = link
        t.addfile(i, io.BytesIO(body) if kind == tarfile.REGTYPE else None)
    if how == "trick":
        add("../../etc/arbiter-evil", b"x")
    if how == "link":
        add("record/tournaments.000001.json", b"", tarfile.SYMTYPE, "/etc/passwd")
    if how == "big":
        add("record/tournaments.000001.json", b"[" + b" " * (64 << 20) + b"]")
    for n in members:
        add(n, data[n])
    if how == "added":
        add("record/events.000002.json", b"[]")
    add("MANIFEST", data["MANIFEST"])
PY
}
F=$(newdb arb_export_c)
hostile() {   # hostile DESCRIPTION FILE PATTERN [DB]: refused, DB (F, empty) unchanged
  local pat=$3 db=${4:-$F}
  local nt np
  nt=$(sql "$db" "SELECT count(*) FROM tournaments") np=$(sql "$db" "SELECT count(*) FROM programs")
  "$ARB" import "$2" --db "$db" > "$T/h.out" 2>&1
  local rc=$?
  if [ $rc = 1 ] && grep -Eq "$pat" "$T/h.out" && grep -q "nothing was written" "$T/h.out" &&
     [ "$(sql "$db" "SELECT count(*) FROM tournaments")" = "$nt" ] && [ "$(sql "$db" "SELECT count(*) FROM programs")" = "$np" ]; then
    ok
  else
    bad "hostile archive refused: $1 (exit $rc: $(cat "$T/h.out"))"
  fi
}
"$ARB" import "$T/a.tar.zst" --check --db "$F" > /dev/null 2>&1   # F's schema, so that the checks can read it
head -c 4096 /dev/urandom > "$T/noise"
hostile "not an archive" "$T/noise" "not an arbiter archive"
size=$(stat -c %s "$T/a.tar.zst")
head -c $((size / 2)) "$T/a.tar.zst" > "$T/cut.tar.zst"
hostile "truncated" "$T/cut.tar.zst" "not a whole archive|truncated|no MANIFEST|[Tt]runcated"
repack "$T/ok.tar" none
"$ARB" import "$T/ok.tar" --check --db "$F" > "$T/ok.out" 2>&1
check "the repacking itself is sound: its plain tar imports (--check)" '[ $? = 0 ]' || cat "$T/ok.out" >&2
repack "$T/changed.tar" changed
hostile "a member changed" "$T/changed.tar" "member record/matches.000001.json: .* the MANIFEST says"
repack "$T/dropped.tar" dropped
hostile "a member dropped" "$T/dropped.tar" "is MANIFEST|the MANIFEST says|fewer members"
repack "$T/added.tar" added
hostile "a member not in the manifest" "$T/added.tar" "member [0-9]+ is record/events.000002.json, the MANIFEST says none"
repack "$T/trick.tar" trick
hostile "a path that climbs out" "$T/trick.tar" "member \"../../etc/arbiter-evil\": not a name an arbiter archive holds"
repack "$T/link.tar" link
hostile "a symbolic link" "$T/link.tar" "record/tournaments.000001.json: not a regular file"
repack "$T/big.tar" big
hostile "a member over its size limit" "$T/big.tar" "over the 67108864 a member of its kind may hold"
repack "$T/toomany.tar" toomany
hostile "a manifest claiming too many members" "$T/toomany.tar" "members, over the 2097152 an archive may hold"
# a bomb: three members of 60 MiB of spaces, a few hundred KB compressed
python3 - <<'PY2' | zstd -q > "$T/bomb.tar.zst"
import io, sys, tarfile
with tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.PAX_FORMAT) as t:
    for k in range(1, 4):
        i = tarfile.TarInfo(f"record/events.{k:06d}.json"); i.size = 60 << 20
        t.addfile(i, io.BytesIO(b"[" + b" " * (i.size - 2) + b"]"))
PY2
hostile "a decompression bomb, refused as it unpacks past 64 times its size" "$T/bomb.tar.zst" \
  "the archive unpacks to more than [0-9]+ bytes \(64 times its size"
# a MANIFEST claiming more members than its text could list (memory for each, before any line)
python3 - "$T/claim.tar" <<'PY2'
import io, sys, tarfile
m = b"arbiter-archive 1\nschema 1\nmembers 2000000\n"
with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as t:
    i = tarfile.TarInfo("MANIFEST"); i.size = len(m); t.addfile(i, io.BytesIO(m))
PY2
hostile "a MANIFEST claiming more members than its bytes can list" "$T/claim.tar" "more than its [0-9]+ bytes can list"
repack "$T/program.tar" program
hostile "a program that is not its digest" "$T/program.tar" "programs/[0-9a-f]{64}: not the program of that digest"
# into E, which holds the original's programs and transcripts: a copy
# under another name may not borrow them, nor name files of this host
repack "$T/notr.tar" "as:thief1:notranscript"
hostile "a match digest without its transcript in the archive (another tournament's)" "$T/notr.tar" \
  "name a transcript digest the archive does not hold" "$E"
repack "$T/noprog.tar" "as:thief2:noprogram"
hostile "an entrant's program not in the archive (another tournament's)" "$T/noprog.tar" \
  "name a program the archive does not hold" "$E"
repack "$T/badpath.tar" "as:thief3:badpath"
hostile "a program path that climbs out" "$T/badpath.tar" "a path no bundle may hold .*\.\./\.\./" "$E"
repack "$T/badargi.tar" "as:thief4:badargi"
hostile "an argument index outside a command" "$T/badargi.tar" "argument index outside a command's .*99" "$E"
repack "$T/othername.tar" "as:realname:othername"
hostile "a MANIFEST naming another tournament than its row" "$T/othername.tar" \
  "the MANIFEST names tournament \"innocent\", its row \"realname\""
G=$(newdb arb_export_g)
repack "$T/hostpath.tar" "as:elsewhere:hostpath"
"$ARB" import "$T/hostpath.tar" --db "$G" > "$T/hp.out" 2>&1
check "an imported match names no transcript path (one of the exporting host's means nothing here)" \
  '[ $? = 0 ] && [ "$(sql "$G" "SELECT count(*) FROM matches WHERE transcript IS NOT NULL")" = 0 ] &&
   [ "$(sql "$G" "SELECT count(*) FROM matches")" -gt 0 ]' || cat "$T/hp.out" >&2
check "every imported event is the new tournament's, its row naming one or not" \
  '[ "$(sql "$G" "SELECT count(*) FROM events WHERE tournament_id IS NULL")" = 0 ] &&
   [ "$(sql "$G" "SELECT count(*) FROM events")" -gt 0 ]'
"$ARB" replay --match "$(sql "$G" "SELECT min(id) FROM matches")" --db "$G" > "$T/replay2.out" 2>&1
check "replay --match reads the imported transcript from the record, not a path" \
  '[ $? = 0 ] && grep -q "^verdict reproduced" "$T/replay2.out"' || tail -n 5 "$T/replay2.out" >&2

# a tournament one of whose transcripts retention pruned: its archive says
# so (record/transcripts_pruned), and it imports; a copy may not claim as
# pruned a transcript this record holds
PD=$(sql "$D" "SELECT min(digest) FROM matches WHERE digest IS NOT NULL")
sql "$D" "INSERT INTO transcripts_pruned (digest, raw_size) SELECT digest, raw_size FROM transcripts WHERE digest = '$PD';
          DELETE FROM transcripts WHERE digest = '$PD'" > /dev/null
"$ARB" export "archived rr" -o "$T/pruned.tar.zst" --db "$D" > "$T/pe.out" 2>&1
H=$(newdb arb_export_h)
"$ARB" import "$T/pruned.tar.zst" --db "$H" > "$T/pi.out" 2>&1
check "an archive of a tournament with a pruned transcript imports, the pruning carried" \
  '[ $? = 0 ] && [ "$(sql "$H" "SELECT count(*) FROM transcripts_pruned WHERE digest = '"'$PD'"'")" = 1 ] &&
   [ "$(sql "$H" "SELECT count(*) FROM transcripts")" = $((ntr - 1)) ]' || cat "$T/pe.out" "$T/pi.out" >&2
mkdir -p "$T/px" && tar --zstd -xf "$T/pruned.tar.zst" -C "$T/px"
sed -i 's/"name": "archived rr"/"name": "thief5"/' "$T/px/record/tournaments.000001.json"
sed -i 's/^tournament archived rr$/tournament thief5/' "$T/px/MANIFEST"
python3 - "$T/px" "$T/thief5.tar" <<'PY2'
import hashlib, io, sys, tarfile
src, out = sys.argv[1:3]
old = open(f"{src}/MANIFEST").read().splitlines()
names = [l.split(" ", 2)[2] for l in old if len(l) > 65 and l[64] == " "]
lines = []
with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as t:
    for n in names:
        d = open(f"{src}/{n}", "rb").read()
        lines.append(f"{hashlib.sha256(d).hexdigest()} {len(d)} {n}")
        i = tarfile.TarInfo(n); i.size = len(d); t.addfile(i, io.BytesIO(d))
    m = ("\n".join([l for l in old if not (len(l) > 65 and l[64] == " ")] + lines) + "\n").encode()
    i = tarfile.TarInfo("MANIFEST"); i.size = len(m); t.addfile(i, io.BytesIO(m))
PY2
hostile "a digest claimed pruned whose transcript this record holds (another tournament's)" "$T/thief5.tar" \
  "nor says was pruned" "$E"

# ---- 5. rerun from the record ---------------------------------------------------
# The bots' files are gone; in the imported record a match is disputed and
# played again: from the programs in the record, with the same result.
rm -rf "$T/bots"
M=$(sql "$E" "SELECT id FROM matches ORDER BY round, tbl LIMIT 1")
q_seats="SELECT string_agg(entrant || ':' || total || ':' || rank, ',' ORDER BY slot) FROM match_seats WHERE match_id = $M"
q_snap="SELECT string_agg((s->>'entrant') || ':' || (s->>'total') || ':' || (s->>'rank'), ',' ORDER BY (s->>'slot')::int)
        FROM superseded, jsonb_array_elements(snapshot->'seats') s WHERE match_id = $M"
was=$(sql "$E" "$q_seats")
"$ARB" dispute open "$M" --reason "play it from the record" --db "$E" > /dev/null 2>&1
"$ARB" dispute resolve "$M" --rerun --reason "files gone" --db "$E" > "$T/rr.out" 2>&1
check "resolve --rerun: pending again" '[ $? = 0 ] && [ "$(sql "$E" "SELECT state || attempt FROM matches WHERE id = $M")" = pending2 ]' \
  || cat "$T/rr.out" >&2
run "$T/rr.yaml" "$E" "$T/s2" > "$T/rerun.out" 2>&1
check "arbiter run plays the rerun with the bots' files gone, and finishes" \
  '[ $? = 0 ] && [ "$(sql "$E" "SELECT state || attempt FROM matches WHERE id = $M")" = done2 ] &&
   [ "$(sql "$E" "SELECT state FROM tournaments")" = done ]' || tail -n 20 "$T/rerun.out" >&2
check "the recorded programs played, said in the event log" \
  '[ "$(sql "$E" "SELECT count(*) FROM events WHERE kind = '"'program'"' AND detail LIKE '"'%recorded program%plays'"'")" = 4 ]'
check "from the record's bundles, unpacked under the state directory" \
  '[ "$(ls "$T/s2/work/programs" 2>/dev/null | grep -c "^[0-9a-f]\{64\}$")" = 2 ] || [ "$(find "$T/s2" -path "*programs/*" -name greedy_bot | wc -l)" -ge 1 ]'
check "the same result as the first time (the same deals, the same programs)" \
  '[ -n "$was" ] && [ "$(sql "$E" "$q_seats")" = "$was" ] && [ "$(sql "$E" "$q_snap")" = "$was" ]'

echo "export: $pass passed, $fail failed"
[ "$fail" = 0 ]
