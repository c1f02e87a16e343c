#!/usr/bin/env bash
# test_replay.sh — transcripts people can read (docs/transcripts.md, `arbiter
# replay` in docs/cli.md), with real bot processes: --json is valid JSON,
# every record, the options whole; --dump lists arrays with commas and the
# options whole; --stderr shows a bot's stderr by index or name, with how it
# ended; exit statuses and signals in words (--dump, --show); --show names
# the landlord and the kitty (Dou Dizhu) and the 打家 and the kitty (Da
# Bang); --game N one game; --rerun compares replies, not clocks (a bot that
# draws on its bank is reproduced); a bot that writes a stray stdout line is
# told its replies answer the previous request.
# Usage: test_replay.sh ARBITER BOTS_DIR
set -u
ARB=$1 BOTS=$2
. "$(dirname "$0")/../lib/test_sh.sh" replay-test
cd "$T" || exit 2
json_lines() { python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]'; }
R=$BOTS/random_bot G=$BOTS/greedy_bot H=$BOTS/hostile_bot

# ---- a match with a bot that floods stderr and one that crashes ----------------
"$ARB" match --deals 3 --seed 5 --sandbox none --bot rnd="$R" --bot noisy="$H stderr 2" --bot crash="$H crash 10" \
  --transcript m.arbt > m.out 2>&1
check "the match is played" '[ $? = 0 ] && [ -s m.arbt ]'

"$ARB" replay m.arbt --json > j.out 2> j.err
check "--json exits 0 on an intact transcript" '[ $? = 0 ]'
check "--json: every line is valid JSON" 'json_lines < j.out'
python3 - j.out > j.check 2>&1 <<'PY'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
h = L[0]
assert h["type"] == "header" and h["t"] == 0, h
opts = h["config"]["options"]
# the options whole: the last option line is there, not cut mid-word
assert opts.startswith("preset=standard\n") and opts.count("\n") > 20, opts
types = {r["type"] for r in L}
for t in ("header", "info", "deal", "send", "ask", "recv", "verdict", "penalty", "result", "botend", "end", "digest"):
    assert t in types, (t, types)
assert all(isinstance(r["bot_at"], list) for r in L if r["type"] == "deal")
ends = {r["bot"]: r for r in L if r["type"] == "botend"}
assert ends[2]["status_text"] == "killed by SIGSEGV", ends[2]
assert ends[1]["stderr"].startswith("eeee"), ends[1]["stderr"][:20]
assert len(ends[1]["stderr"]) >= 65536, len(ends[1]["stderr"])
assert L[-1]["type"] == "replay" and L[-1]["reproduced"] is True and L[-1]["digest_ok"] is True, L[-1]
assert L[-2]["type"] == "digest" and len(L[-2]["digest"]) == 64, L[-2]
PY
check "--json: every record named, the options whole, stderr and statuses, the verdict last ($(tail -3 j.check))" '[ $? = 0 ]'

"$ARB" replay m.arbt --dump > d.out 2>&1
check "--dump: arrays with commas" 'grep -q "^deal 0 0 0 [0-9]* \[[0-9], [0-9], [0-9]\]" d.out'
python3 - j.out d.out <<'PY'
import json, sys
opts = json.loads(open(sys.argv[1]).readline())["config"]["options"]
header = open(sys.argv[2]).readline()
assert '"options": "%s"' % opts.replace("\n", "\\x0a") in header, header[:300]
PY
check "--dump: the options whole, every option to the last" '[ $? = 0 ]'
check "--dump: a bot killed by a signal says so" 'grep -q "^botend 2 .*(killed by SIGSEGV)" d.out'
check "--dump: a bot stopped at the end says how it ended" 'grep -Eq "^botend 1 .*\((exited with status [0-9]+|killed by SIG[A-Z]+)\)$" d.out'

"$ARB" replay m.arbt --stderr noisy > e1.out 2>&1
check "--stderr NAME prints the bot's stderr and how it ended" '[ $? = 0 ] && grep -q "^bot 1 noisy: stderr" e1.out && grep -Eq "(exited with status [0-9]+( after \"end\")?|killed by SIG[A-Z]+|killed by the referee \(SIGKILL\): .*|still running at the match.s end: .*); 65536 bytes of stderr kept" e1.out && grep -q "^eeeeeeee" e1.out'
"$ARB" replay m.arbt --stderr 1 > e2.out 2>&1
check "--stderr INDEX is the same bot" 'cmp -s e1.out e2.out'
"$ARB" replay m.arbt --stderr 2 > e3.out 2>&1
check "--stderr of a crashed bot: killed by SIGSEGV" 'grep -q "killed by SIGSEGV" e3.out'
"$ARB" replay m.arbt --stderr nobody > e4.out 2>&1
check "--stderr of no such bot: exit 2, said" '[ $? = 2 ] && grep -q "no such bot" e4.out'

"$ARB" replay m.arbt --show > s.out 2>&1
check "--show: every deal dealt names its landlord (or none) and its kitty" 'n=$(grep -c "^game .*, seed " s.out); [ "$n" -ge 1 ] && [ $(grep -c "^  landlord: " s.out) = $n ] && [ $(grep -c "^  kitty: [3-9TJQKA2BR]\{3\}$" s.out) = $n ]'
check "--show: a crash is told with its signal" 'grep -q "crashed — .*(killed by SIGSEGV)" s.out'
"$ARB" replay m.arbt --show --game 1 > s1.out 2>&1
check "--show --game 1: game 1 only" '[ $? = 0 ] && [ "$(grep "^game " s1.out | cut -d: -f1)" = "game 1" ]'
"$ARB" replay m.arbt --json --game 0 > j0.out 2>&1
check "--json --game 0: valid JSON, the header and game 0 only" 'json_lines < j0.out && ! grep -q "\"type\":\"deal\",[^}]*\"game\":[12]," j0.out && grep -q "\"type\":\"header\"" j0.out'
"$ARB" replay m.arbt --game 9 > g9.out 2>&1
check "--game past the last game: exit 2, said" '[ $? = 2 ] && grep -q "no deal record of game 9" g9.out'

# a truncated transcript: --json still valid JSON, the error said
head -c $(( $(stat -c %s m.arbt) - 40 )) m.arbt > cut.arbt
"$ARB" replay cut.arbt --json > c.out 2> c.err
check "--json on a truncated transcript: exit 1, valid JSON, the corruption said" '[ $? = 1 ] && json_lines < c.out && grep -q "\"type\":\"corrupt\"" c.out'

# ---- --rerun: replies, never clocks ----------------------------------------------
# A deterministic bot (the first legal item) that takes 60..90 ms a
# decision, chosen at random: with 50 ms free it draws on its bank every
# time, and the bank left differs from run to run by milliseconds.
cat > slow.py <<'PY'
import random, sys, time
for raw in sys.stdin:
    w = raw.split()
    if w and w[0] == "arbiter":
        print("bot 1 slow legal", flush=True)
    elif w and w[0] == "ask":
        time.sleep(random.uniform(0.060, 0.090))
        print(w[w.index("legal") + 1], flush=True)
PY
"$ARB" match --deals 2 --seed 7 --move-ms 50 --sandbox none --bot a="$R" --bot slow="python3 $T/slow.py" \
  --bot c="$R" --transcript slow.arbt > slow.out 2>&1
check "a bot drawing on its bank plays without penalty" '[ $? = 0 ] && grep -q "^ *[0-9] *slow .* 0 *0 " slow.out'
"$ARB" replay slow.arbt --rerun > rr.out 2>&1
check "--rerun: a deterministic bot that used its bank is reproduced (the clocks are not compared)" \
  '[ $? = 0 ] && grep -q "^bots. replies reproduced" rr.out'

# ---- a timeout: the reply's kind by name in --json ------------------------------
cat > late.py <<'PY'
import sys, time
asked = 0
for raw in sys.stdin:
    w = raw.split()
    if w and w[0] == "arbiter":
        print("bot 1 late legal", flush=True)
    elif w and w[0] == "ask":
        asked += 1
        if asked == 1:
            time.sleep(0.4)
        print(w[w.index("legal") + 1], flush=True)
PY
"$ARB" match --deals 1 --seed 3 --move-ms 100 --bank-ms 0 --sandbox none --bot a="$R" --bot late="python3 $T/late.py" \
  --bot c="$R" --transcript late.arbt > late.out 2>&1
"$ARB" replay late.arbt --json | python3 -c '
import json, sys
L = [json.loads(l) for l in sys.stdin]
recv = [r for r in L if r["type"] == "recv"]
names = {0: "line", 1: "timeout"}
assert any(r["kind"] == 1 for r in recv), "no timeout recorded"
bad = [r for r in recv if r["kind"] in names and r["kind_name"] != names[r["kind"]]]
assert not bad, bad[:2]'
check "--json: a timeout reply is named timeout (kind_name follows kind)" '[ $? = 0 ]'

# ---- a stray line on stdout: every later reply one request late ------------------
"$ARB" match --deals 3 --seed 5 --sandbox none --bot a="$R" --bot stray="$H stray 2" --bot c="$R" \
  --transcript stray.arbt > stray.out 2>&1
check "a bot that writes a stray stdout line is forfeited, told its reply answers its previous request" \
  'grep -q "^penalty: bot stray .*the reply answers request [0-9]* of game [0-9]*, the bot.s previous one: a stray line on stdout?; forfeit-match" stray.out'
"$ARB" replay stray.arbt > rs.out 2>&1
check "the stray-line notes are re-judged (version 3)" '[ $? = 0 ] && grep -q "^verdict reproduced" rs.out'
"$ARB" replay stray.arbt --json | python3 -c '
import json, sys
L = [json.loads(l) for l in sys.stdin]
assert L[0]["config"]["version"] == 3, L[0]["config"]["version"]
assert any("a stray line on stdout?" in r["detail"] for r in L if r["type"] == "penalty")'
check "--json: the transcript is version 3, the note in the penalty" '[ $? = 0 ]'
# a version 2 transcript (the same match, its header's version 2, the digest
# made again) is still read, and judged as version 2 was
python3 - m.arbt m2.arbt <<'PY'
import hashlib, sys
data = open(sys.argv[1], "rb").read()
body = data[:-44]   # [11, 0, "sha256", bin 32] is the last 44 bytes
assert data[-44:-32] == b"\x94\x0b\x00\xa6sha256\xc4\x20", data[-44:-32]
assert body.count(b"\xa7version\x03") == 1
body = body.replace(b"\xa7version\x03", b"\xa7version\x02")
open(sys.argv[2], "wb").write(body + data[-44:-32] + hashlib.sha256(body).digest())
PY
"$ARB" replay m2.arbt > m2.out 2>&1
check "a version 2 transcript still replays" '[ $? = 0 ] && grep -q "^digest:  ok" m2.out && grep -q "^verdict reproduced" m2.out'

# ---- Da Bang: the 打家 and the kitty ---------------------------------------------
D=$BOTS/dabang_random
"$ARB" match --game dabang --deals 2 --seed 3 --sandbox none --bot a="$D" --bot b="$D" --bot c="$D" --bot d="$D" \
  --transcript db.arbt > db.out 2>&1
"$ARB" replay db.arbt --show > dbs.out 2>&1
check "--show (Da Bang): each deal names the 打家 and the kitty" '[ $? = 0 ] && [ $(grep -c "打家 seat [0-3]" dbs.out) -ge 1 ] && [ $(grep -c "kitty as dealt" dbs.out) = $(grep -c "^game " dbs.out) ]'
"$ARB" replay db.arbt --json | json_lines
check "--json (Da Bang): valid JSON" '[ $? = 0 ]'

# ---- transcripts written before: re-judged by this build -------------------------
# tests/data/transcripts: a Dou Dizhu match and a Da Bang match written by
# arbiter at 420d458 (before the games moved into folders of their own, the
# seeds into one module and Da Bang's prefix became dab_), with the secret
# their deals were derived from. This build re-judges them: the same
# digest, every verdict and score reproduced, every deal from seed + secret.
OLD=$(dirname "$0")/../data/transcripts
cp "$OLD/secret-420d458" old-secret && chmod 600 old-secret
for t in "ddz-420d458 dcf537fea2a6e1e7a88d5c976914a801cee06c19891f5ede968c519f7591f756 3 games, 123 decisions; r -18 g +9 h +9" \
         "dab-420d458 30b442277a9850b84d41dd09cd6be8eb01cda6f2ffdb35d4e13d3135eb2c7297 2 games, 267 decisions; A-1 +4 B-1 +3 A-2 +4 B-2 +3"; do
  set -- $t
  name=$1 digest=$2; shift 2
  want="verdict reproduced: $*"
  "$ARB" replay "$OLD/$name.arbt" --digest "$digest" --secret-file old-secret > old.out 2>&1
  check "$name (written at 420d458) re-judges: exit 0, the same verdict ($*)" \
    '[ $? = 0 ] && grep -qxF "$want" old.out' || cat old.out >&2
  check "$name: every deal follows from seed + secret" 'grep -q "^fairness: every deal follows from seed + secret: verified" old.out'
done

echo "replay: $pass passed, $fail failed"
[ $fail = 0 ]
