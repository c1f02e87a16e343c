#!/usr/bin/env python3
"""participant_api.py — the checks of test_participant_api.sh against a
running `arbiter serve` (docs/api.md). Usage: participant_api.py HOST:PORT
CONNINFO SOURCE_ROOT ALICE BOB ARBITER REVOKED ROTATED_OLD ROTATED_NEW.
Prints one line per failure and a last line "participant_api: P passed, F failed"."""
import gzip, http.client, io, json, socket, subprocess, sys, tarfile, time, urllib.parse

hostport, DB, SRC, ALICE, BOB, ARBI, GONE, OLD, NEW = sys.argv[1:10]
host, port = hostport.split(":")
port = int(port)
passed = failed = 0


def check(what, cond):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what, flush=True)


def sql(q):
    return subprocess.run(["psql", DB, "-qAtc", q], capture_output=True, text=True).stdout.strip()


def req(method, path, token=None, body=None, ctype=None, headers=None):
    c = http.client.HTTPConnection(host, port, timeout=30)
    h = dict(headers or {})
    if token:
        h["Authorization"] = "Bearer " + token
    if ctype:
        h["Content-Type"] = ctype
    c.request(method, path, body=body, headers=h)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, dict((k.lower(), v) for k, v in r.getheaders()), data


def jreq(*a, **k):
    st, h, d = req(*a, **k)
    try:
        return st, h, json.loads(d)
    except ValueError:
        return st, h, d


def tar_of(entries, gz=False):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w") as t:
        for name, kind, data in entries:
            ti = tarfile.TarInfo(name)
            if kind == "file":
                ti.size, ti.mode = len(data), 0o755
                t.addfile(ti, io.BytesIO(data))
            elif kind == "link":
                ti.type, ti.linkname = tarfile.SYMTYPE, data
                t.addfile(ti)
            elif kind == "dev":
                ti.type, ti.devmajor, ti.devminor = tarfile.CHRTYPE, 1, 3
                t.addfile(ti)
    raw = b.getvalue()
    return gzip.compress(raw) if gz else raw


def join_path(ladder, name, command, replace=False):
    q = urllib.parse.urlencode({"name": name, "command": command} | ({"replace": "1"} if replace else {}))
    return "/api/v1/ladders/%s/entries?%s" % (ladder, q)


bot = open(SRC + "/tests/bots/first_legal.py", "rb").read()
good = tar_of([("first_legal.py", "file", bot)])

# ---- me, tokens ---------------------------------------------------------------
st, h, j = jreq("GET", "/api/v1/me", ALICE)
check("me: 200 alice participant with her quota", st == 200 and j["account"] == "alice"
      and j["role"] == "participant" and j["quota"]["uploads_per_day"] > 0
      and h.get("content-type") == "application/json")
counts = "SELECT (SELECT count(*) FROM audit_log), (SELECT count(*) FROM ladder_entries), (SELECT count(*) FROM programs)"
before = sql(counts)
for name, tok in (("wrong", "arb1_" + "0" * 64), ("revoked", GONE), ("rotated-away", OLD), ("malformed", "nope")):
    st, h, j = jreq("POST", join_path("L", "x" + name.replace("-", ""), "python3 first_legal.py"), tok, good,
                    "application/x-tar")
    check("%s token: 401 with WWW-Authenticate: Bearer" % name,
          st == 401 and h.get("www-authenticate") == "Bearer" and "error" in j)
st, h, j = jreq("GET", "/api/v1/me")
check("no token: 401", st == 401)
check("the refused joins recorded nothing (audit, entries, programs)", sql(counts) == before)
st, h, j = jreq("GET", "/api/v1/me", NEW)
check("the rotated token works", st == 200 and j["account"] == "rot")
st, h, j = jreq("GET", "/api/v1/nothing", ALICE)
check("an unknown route: 404 JSON", st == 404 and "error" in j)
st, h, j = jreq("GET", "/api/v1/ladders/L/entries", ALICE)
check("GET on the join route: 405", st == 405)

# ---- join ----------------------------------------------------------------------------
st, h, j = jreq("POST", join_path("L", "pyfirst", "python3 first_legal.py"), ALICE, good, "application/x-tar")
check("join with a tar: 201 validating, digest and version", st == 201 and j.get("entry") == "pyfirst"
      and j.get("status") == "validating" and len(j.get("digest", "")) == 64 and j.get("version") == 1)
check("the entry is alice's, uploaded, its program and argi/paths recorded",
      sql("SELECT a.name, le.uploaded, ep.argi::text, ep.paths::text FROM ladder_entries le JOIN accounts a "
          "ON a.id = le.account_id JOIN entrant_programs ep ON ep.tournament_id = le.tournament_id AND "
          "ep.entrant = le.entrant WHERE le.base = 'pyfirst'") == "alice|t|{1}|{first_legal.py}")
check("the join audited with its address",
      sql("SELECT count(*) FROM audit_log WHERE account = 'alice' AND action = 'join' AND ok AND "
          "target = 'L/pyfirst' AND address LIKE '%127.0.0.1'") == "1")
st, h, j = jreq("POST", join_path("L", "pyfirst", "python3 first_legal.py"), BOB, good, "application/x-tar")
check("bob joining under alice's name: 409", st == 409)
st, h, j = jreq("POST", join_path("L", "pyx", "nosuchprogram first_legal.py"), ALICE, good, "application/x-tar")
check("a first word neither in the bundle nor the server's: 400 naming it", st == 400 and "nosuchprogram" in j["error"])
st, h, j = jreq("POST", join_path("L", "pyx", "python3 first_legal.py"), ALICE, good, "text/plain")
check("415 for an unknown Content-Type", st == 415)
st, h, j = jreq("POST", join_path("NoLadder", "pyx", "python3 first_legal.py"), ALICE, good, "application/x-tar")
check("no such ladder: 404", st == 404)
for what, entries in (("path-escaping", [("../evil.py", "file", b"x")]),
                      ("linked", [("first_legal.py", "file", bot), ("passwd", "link", "/etc/passwd")]),
                      ("device-holding", [("first_legal.py", "file", bot), ("null", "dev", None)])):
    st, h, j = jreq("POST", join_path("L", "bad", "python3 first_legal.py"), ALICE, tar_of(entries), "application/x-tar")
    check("a %s archive: 400 naming the entry (%s)" % (what, j), st == 400 and "bad" in j.get("error", ""))
# words naming the server's paths: the referee resolves them on the host and binds
# what lies under /run, /tmp or the program cache into the bot's sandbox
for cmd in ("python3 first_legal.py /run/postgresql", "python3 first_legal.py ../../programs",
            "/usr/../tmp/x first_legal.py", "python3 first_legal.py sub/../../x"):
    st, h, j = jreq("POST", join_path("L", "hostpath", cmd), ALICE, good, "application/x-tar")
    check("a command word naming a server path (%s): 400 (%s)" % (cmd, j), st == 400 and "path of the server"
          in j.get("error", ""))
st, h, j = jreq("POST", join_path("L", "chain", "python3 first_legal.py b"), ALICE,
                tar_of([("first_legal.py", "file", bot), ("a", "link", "/usr/bin"), ("b", "link", "a/../../run")]),
                "application/x-tar")
check("a link climbing out through a link to /usr/bin: 400 (%s)" % j, st == 400 and "climbs out" in j.get("error", ""))
check("none of those recorded", sql("SELECT count(*) FROM ladder_entries WHERE base IN ('hostpath', 'chain')") == "0")
check("refusals after auth audited", int(sql("SELECT count(*) FROM audit_log WHERE account = 'alice' AND NOT ok")) >= 5)

# ---- 411 and 413 before the body -------------------------------------------------------
def raw(head, body=b"", wait=5):
    s = socket.create_connection((host, port), timeout=wait)
    s.sendall(head.encode() + body)
    got = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            got += d
    except socket.timeout:
        pass
    s.close()
    return got


path = join_path("L", "big", "python3 first_legal.py")
t0 = time.time()
got = raw("POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/x-tar\r\n"
          "Content-Length: 4000000000\r\n\r\n" % (path, ALICE))
check("413 from the Content-Length, no body sent, connection closed", got.startswith(b"HTTP/1.1 413")
      and time.time() - t0 < 4)
got = raw("POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/x-tar\r\n"
          "Transfer-Encoding: chunked\r\n\r\n" % (path, ALICE), b"0\r\n\r\n")
check("411 without a Content-Length", got.startswith(b"HTTP/1.1 411"))
# bodies held at once are bounded in all (ARB_API_BODIES_MAX, 2 x ARB_API_BODY_MAX): two uploads
# announcing 150 MB each and sending nothing hold their reservation; a third is 503 at once
hdr = ("POST %s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nContent-Type: application/x-tar\r\n"
       "Content-Length: 150000000\r\n\r\n" % (path, ALICE))
held = []
for _ in range(2):
    hs = socket.create_connection((host, port), timeout=5)
    hs.sendall(hdr.encode())
    held.append(hs)
time.sleep(0.5)
t0 = time.time()
got = raw(hdr, wait=3)
check("a third 150 MB upload while two are held: 503 with Retry-After, at once (%r)" % got[:40],
      got.startswith(b"HTTP/1.1 503") and b"Retry-After" in got and time.time() - t0 < 2.5)
for hs in held:
    hs.close()
time.sleep(0.5)
st, h, j = jreq("POST", join_path("NoLadder", "pyx", "python3 first_legal.py"), ALICE, good, "application/x-tar")
check("their reservations given back when their connections closed (%s)" % j, st == 404)

# ---- it validates and plays --------------------------------------------------------------
def entry_of(tok, name, all_=False):
    st, h, j = jreq("GET", "/api/v1/entries" + ("?all=1" if all_ else ""), tok)
    return [e for e in j.get("entries", []) if e["entry"] == name] if st == 200 else []


deadline = time.time() + 90
e = []
while time.time() < deadline:
    e = entry_of(ALICE, "pyfirst")
    if e and e[0]["status"] != "validating" and e[0]["matches"] >= 2:
        break
    time.sleep(0.5)
check("pyfirst validated and played a ladder match (%s)" % e, e and e[0]["status"] == "active" and e[0]["matches"] >= 2
      and e[0]["validation_match"])
check("bob's entries do not list alice's", entry_of(BOB, "pyfirst") == [])
st, _, _ = jreq("GET", "/api/v1/entries?all=1", BOB)
check("all=1 for a participant: 403", st == 403)
check("all=1 for an arbiter lists it", len(entry_of(ARBI, "pyfirst", True)) == 1)

# ---- logs and transcripts ----------------------------------------------------------------
st, h, j = jreq("GET", "/api/v1/ladders/L/entries/pyfirst/logs", ALICE)
check("alice reads her entry's logs: its seats' stderr", st == 200 and j["matches"]
      and all("stderr" in b for m in j["matches"] for b in m["bots"])
      and any(m["role"] == "validation" for m in j["matches"]))
st, h, j = jreq("GET", "/api/v1/ladders/L/entries/pyfirst/logs", BOB)
check("bob reading alice's logs: 404", st == 404)
st, h, j = jreq("GET", "/api/v1/ladders/L/entries/pyfirst/logs", ARBI)
check("an arbiter reads them", st == 200)
vm = entry_of(ALICE, "pyfirst")[0]["validation_match"]
st, h, d = req("GET", "/api/v1/matches/%d/transcript" % vm, BOB)
check("bob reading alice's validation transcript: 404", st == 404)
st, h, d = req("GET", "/api/v1/matches/%d/transcript" % vm, ALICE)
ends = [json.loads(x) for x in d.decode().splitlines() if '"type":"botend"' in x]
check("alice reads it, every stderr hers", st == 200 and ends and not any(x.get("stderr_private") for x in ends))
lm = ""
for _ in range(120):
    lm = sql("SELECT m.id FROM matches m JOIN rounds r ON r.tournament_id = m.tournament_id AND r.round = m.round "
         "JOIN match_seats s ON s.match_id = m.id JOIN ladder_entries le ON le.tournament_id = m.tournament_id "
             "AND le.entrant = s.entrant WHERE r.stage = 'ladder' AND le.base = 'pyfirst' AND m.state = 'done' LIMIT 1")
    if lm:
        break
    time.sleep(0.5)
st, h, d = req("GET", "/api/v1/matches/%s/transcript" % lm, BOB)
ends = [json.loads(x) for x in d.decode().splitlines() if '"type":"botend"' in x]
check("bob reads ladder match %s's transcript with no stderr but none his (%d, %s)" % (lm, st, ends[:1]),
      st == 200 and ends and all(x.get("stderr_private") and x.get("stderr") == "" for x in ends))
st, h, d = req("GET", "/api/v1/matches/%s/transcript" % lm, ALICE)
ends = [json.loads(x) for x in d.decode().splitlines() if '"type":"botend"' in x]
check("alice sees her own seat's stderr, not the others'",
      st == 200 and any(not x.get("stderr_private") for x in ends) and any(x.get("stderr_private") for x in ends))

# ---- the public side: no stderr, no validation matches (docs/security.md) -----------------
for route in ("/m/%d" % vm, "/api/m/%d" % vm, "/api/m/%d/transcript" % vm, "/m/%d/replay" % vm):
    st, h, d = req("GET", route)
    check("public %s of a validation match: 404 (%d)" % (route, st), st == 404)
st, h, d = req("GET", "/t/%s/e/%s" % (sql("SELECT tournament_id FROM ladder_entries WHERE base = 'pyfirst'"),
                                      sql("SELECT entrant FROM ladder_entries WHERE base = 'pyfirst'")))
check("the public entrant page still answers (%d)" % st, st == 200)
check("the file's visibility.stderr is in the record",
      sql("SELECT stderr_visibility FROM tournaments WHERE name = 'L'") == "private")


def public_ends(m):
    st, h, d = req("GET", "/api/m/%s/transcript" % m)
    return st, h, [json.loads(x) for x in d.decode().splitlines() if '"type":"botend"' in x]


st, h, ends = public_ends(lm)
check("public transcript of ladder match %s: every stderr private (%d, %s)" % (lm, st, ends[:1]),
      st == 200 and ends and all(x.get("stderr_private") and x.get("stderr") == "" for x in ends))
st, h, j = jreq("GET", "/api/m/%s" % lm)
check("public match JSON: bots' stderr empty and private, their end words kept (%s)" % j.get("bots", "")[:1],
      st == 200 and j["bots"] and all(b["stderr"] == "" and b.get("stderr_private") and b["ended"] for b in j["bots"]))
st, h, d = req("GET", "/m/%s" % lm)
check("public match page: stderr private", st == 200 and b"stderr is private" in d)
sql("UPDATE tournaments SET stderr_visibility = NULL WHERE name = 'L'")
st, h, ends = public_ends(lm)
check("visibility unsaid, the record has accounts: private", st == 200 and ends and all(x.get("stderr_private") for x in ends))
sql("UPDATE tournaments SET stderr_visibility = 'public' WHERE name = 'L'")
st, h, ends = public_ends(lm)
check("visibility.stderr public: the public transcript keeps stderr",
      st == 200 and ends and not any(x.get("stderr_private") for x in ends) and all("stderr" in x for x in ends))
sql("UPDATE tournaments SET stderr_visibility = 'private' WHERE name = 'L'")

# ---- retire, replace --------------------------------------------------------------------
st, h, j = jreq("POST", join_path("L", "pyg", "python3 first_legal.py"), ALICE,
                tar_of([("first_legal.py", "file", bot)], gz=True), "application/gzip")
check("join with a tar.gz: 201", st == 201)
st, h, j = jreq("POST", "/api/v1/ladders/L/entries/pyg/retire", BOB)
check("bob retiring alice's entry: 404", st == 404)
st, h, j = jreq("POST", "/api/v1/ladders/L/entries/pyg/retire", ALICE)
check("alice retires hers: 200 retired", st == 200 and j["status"] == "retired")
check("retire audited", sql("SELECT count(*) FROM audit_log WHERE account = 'alice' AND action = 'retire' AND ok") == "1")
st, h, j = jreq("POST", join_path("L", "pyfirst", "python3 first_legal.py", True), ALICE, good, "application/x-tar")
check("replace=1: pyfirst.v2", st == 201 and j["entry"] == "pyfirst.v2" and j["version"] == 2)

# ---- quotas and rates ----------------------------------------------------------------------
st, h, j = jreq("POST", join_path("L", "r1", "python3 first_legal.py"), NEW, good, "application/x-tar")
st2, h2, j2 = jreq("POST", join_path("L", "r2", "python3 first_legal.py"), NEW, good, "application/x-tar")
check("entries quota (--entries 1): the second is 429 with Retry-After", st == 201 and st2 == 429
      and "retry-after" in h2 and "quota" in j2["error"])
codes = [req("GET", "/api/v1/me", BOB)[0] for _ in range(130)]
st, h, j = jreq("GET", "/api/v1/me", BOB)
check("the per-account rate limit: 429 with Retry-After", 429 in codes and st == 429 and int(h["retry-after"]) >= 1)
st, h, j = jreq("GET", "/api/v1/me", ALICE)
check("another account is not limited by bob's", st == 200)
for _ in range(25):
    req("GET", "/api/v1/me", "arb1_" + "1" * 64)
st, h, j = jreq("GET", "/api/v1/me", ALICE)
check("too many bad tokens from one address: 429 even with a good token", st == 429 and "retry-after" in h)

print("participant_api: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
