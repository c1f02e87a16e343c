#!/usr/bin/env python3
"""api_check.py — the JSON API of a running `arbiter serve` against
docs/web.md (its "JSON API reference": each route's fields, their types),
the CLI's own JSON and the record (psql); hostile strings and hostile
requests; the record unchanged after it all. Standard library only.

Usage: api_check.py ARBITER SOURCE_ROOT CONNINFO PORT RR KO LADDER
Prints FAIL lines and a summary; exits 0 when every check passed."""
import json
import re
import socket
import subprocess
import sys
import threading
import time

ARB, SRC, DB, PORT = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
RR, KO, LA = (int(x) for x in sys.argv[5:8])
HOST = "127.0.0.1"
passed = failed = 0


def check(what, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}{': ' + str(detail)[:600] if detail else ''}", flush=True)
    return cond


# ---- the record and the CLI ------------------------------------------------

def psql(query):
    return subprocess.run(["psql", DB, "-qAtc", query], capture_output=True, check=True,
                          text=True).stdout.rstrip("\n")


def record_text(query):
    """One text value of the record, exactly: fetched as hex of its UTF-8."""
    return bytes.fromhex(psql(f"SELECT encode(convert_to(({query}), 'UTF8'), 'hex')")).decode("utf-8")


def cli(*args):
    out = subprocess.run([ARB, *args, "--db", DB], capture_output=True, check=True).stdout
    return strict(out)


# ---- HTTP, by hand (the exact bytes of a request) --------------------------

def raw(target, method="GET", extra=b"", src=None, timeout=10):
    """Send one request; (status, headers, body). status 0: the connection
    closed without an answer."""
    s = socket.socket()
    s.settimeout(timeout)
    if src:
        s.bind((src, 0))
    s.connect((HOST, PORT))
    req = f"{method} {target} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n".encode() + extra + b"\r\n"
    data = b""
    try:
        s.sendall(req)
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except (ConnectionResetError, BrokenPipeError):
        pass
    except socket.timeout:
        return -1, {}, data     # no end: a stream, or a hang
    finally:
        s.close()
    if not data.startswith(b"HTTP/1."):
        return 0, {}, data
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        out, rest = b"", body
        while rest:
            size, _, rest = rest.partition(b"\r\n")
            n = int(size.split(b";")[0], 16)
            if n == 0:
                break
            out, rest = out + rest[:n], rest[n + 2:]
        body = out
    return status, headers, body


def bad_constant(name):
    raise ValueError(f"not JSON: {name}")


def strict(body):
    return json.loads(body.decode("utf-8"), parse_constant=bad_constant)


def get_json(path):
    """GET path: 200, application/json, strict JSON, no raw < > & in it."""
    status, headers, body = raw(path)
    check(f"GET {path} is 200", status == 200, status)
    check(f"GET {path} is application/json", headers.get("content-type") == "application/json",
          headers.get("content-type"))
    check(f"GET {path}: no raw < > & in the JSON", not re.search(rb"[<>&]", body))
    try:
        return strict(body)
    except ValueError as e:
        check(f"GET {path} is strict JSON", False, e)
        return None


# ---- the documentation: docs/web.md's JSON API reference -------------------

def doc_routes():
    """{route: {path: (types, optional)}} from the '#### `GET /api/...`'
    sections' field tables (| `path` | type | meaning |)."""
    routes, cur = {}, None
    for line in open(f"{SRC}/docs/web.md", encoding="utf-8"):
        m = re.match(r"#### `GET (/api/\S+)`", line)
        if m:
            cur = routes.setdefault(m.group(1), {})
            continue
        if line.startswith("#") or line.startswith("## "):
            cur = None
        m = re.match(r"\| `([^`]*)` \| ([^|]+) \|", line)
        if cur is not None and m:
            t = m.group(2).strip()
            optional = "(optional)" in t
            types = {x.strip() for x in t.replace("(optional)", "").split(" or ")}
            cur[m.group(1)] = (types, optional)
    return routes


TYPES = {
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def flatten(v, path="", out=None):
    """(path, value) of every value: object keys joined with '.', array
    items as '[]'; the root is ''."""
    if out is None:
        out = []
    out.append((path, v))
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(x, f"{path}.{k}" if path else k, out)
    elif isinstance(v, list):
        for x in v:
            flatten(x, path + "[]", out)
    return out


def conforms(route, doc, v):
    """Every field documented, present with its documented type; nothing
    undocumented. Returns the list of what is wrong."""
    wrong = []
    for path, x in flatten(v):
        if path == "":
            continue
        if path not in doc:
            wrong.append(f"{path}: not documented")
            continue
        types, _ = doc[path]
        if not any(TYPES[t](x) for t in types if t in TYPES):
            wrong.append(f"{path}: {type(x).__name__} {x!r:.60}, documented {' or '.join(sorted(types))}")
    # presence: each documented key in every object of its parent's path
    seen = {}
    for path, x in flatten(v):
        if isinstance(x, dict):
            seen.setdefault(path, []).append(x)
    for path, (types, optional) in doc.items():
        parent, _, key = path.rpartition(".")
        if "." not in path:
            parent, key = "", path
        if key.endswith("[]") or optional:
            continue
        for obj in seen.get(parent, []):
            if key not in obj:
                wrong.append(f"{path}: missing")
                break
    return wrong


# ---- 1. every documented route ------------------------------------------------

ROUTES = doc_routes()
for t in ROUTES:
    for k, (types, _) in ROUTES[t].items():
        unknown = types - set(TYPES)
        check(f"docs: {t} {k}: types are known words", not unknown, unknown)

M_RR = int(psql(f"SELECT min(m.id) FROM matches m JOIN match_seats s ON s.match_id = m.id "
                f"WHERE m.tournament_id = {RR} AND s.entrant = 0"))       # the loud bot's match
M_KO = int(psql(f"SELECT max(id) FROM matches WHERE tournament_id = {KO}"))
M_LA = int(psql(f"SELECT max(id) FROM matches WHERE tournament_id = {LA} AND state = 'done'"))
E_KO = int(psql(f"SELECT idx FROM entrants WHERE tournament_id = {KO} AND name LIKE '<script>%'"))
E_LA = int(psql(f"SELECT min(idx) FROM entrants WHERE tournament_id = {LA}"))
URLS = {
    "/api/tournaments": ["/api/tournaments"],
    "/api/t/ID": [f"/api/t/{RR}", f"/api/t/{KO}"],
    "/api/t/ID/standings": [f"/api/t/{RR}/standings", f"/api/t/{KO}/standings"],
    "/api/t/ID/e/N": [f"/api/t/{RR}/e/0", f"/api/t/{KO}/e/{E_KO}", f"/api/t/{LA}/e/{E_LA}"],
    "/api/l/ID": [f"/api/l/{LA}"],
    "/api/m/ID": [f"/api/m/{M_RR}", f"/api/m/{M_KO}", f"/api/m/{M_LA}"],
    "/api/pool": ["/api/pool"],
}
check("docs/web.md documents the JSON routes (a field table each)", set(URLS) <= set(ROUTES),
      set(URLS) - set(ROUTES))
check("every route docs/web.md documents is fetched here", set(ROUTES) <= set(URLS), set(ROUTES) - set(URLS))
# the table of routes names the same JSON routes
table = open(f"{SRC}/docs/web.md", encoding="utf-8").read()
listed = set(re.findall(r"\| `(/api/[^`]+)` \|", table))
check("the routes table lists every documented JSON route", set(URLS) <= listed, set(URLS) - listed)

got = {}
for route, urls in URLS.items():
    for u in urls:
        v = get_json(u)
        got[u] = v
        if v is not None and route in ROUTES:
            wrong = conforms(route, ROUTES[route], v)
            check(f"{u}: the fields docs/web.md documents for {route}, with their types", not wrong, wrong)

# ---- 2. against the CLI and the record ---------------------------------------

status = cli("status", "--format", "json")
api_t = got["/api/tournaments"] or []
check("/api/tournaments: the tournaments of arbiter status, in its order, with their counts",
      [(x["id"], x["name"], x["format"], x["state"], x["pending"], x["leased"], x["done"], x["void"], x["round"],
        x["created"]) for x in api_t]
      == [(x["id"], x["tournament"], x["format"], x["state"], x["pending"], x["leased"], x["done"], x["void"],
           x["round"], x["created"]) for x in status["tournaments"]], (api_t, status["tournaments"]))
check("/api/tournaments: the hostile tournament name exactly as the record holds it",
      any(x["name"] == record_text(f"SELECT name FROM tournaments WHERE id = {KO}") for x in api_t))
pool = got["/api/pool"] or []
check("/api/pool: the workers of arbiter status",
      [(x["worker"], x["slots"], x["state"], x["running"], x["done"], x["lost"], x["handed_back"], x["last_heard"])
       for x in pool]
      == [(x["worker"], x["slots"], x["state"], x["running"], x["done"], x["lost"], x["back"], x["last_heard"])
          for x in status["pool"]], (pool, status["pool"]))
check("/api/pool: every worker of the record, names exact",
      sorted(x["worker"] for x in pool)
      == sorted(record_text(f"SELECT name FROM workers ORDER BY name OFFSET {i} LIMIT 1")
                for i in range(int(psql("SELECT count(*) FROM workers")))), pool)

for tid in (RR, KO):
    cli_st = cli("standings", f"#{tid}", "--format", "json")
    check(f"/api/t/{tid}/standings equals arbiter standings --format json",
          got[f"/api/t/{tid}/standings"] == cli_st, (got[f"/api/t/{tid}/standings"], cli_st))
    t = got[f"/api/t/{tid}"] or {}
    check(f"/api/t/{tid}: its standings are /api/t/{tid}/standings'", t.get("standings") == cli_st)
    cli_m = cli("matches", f"#{tid}", "--format", "json")
    check(f"/api/t/{tid}: its matches are arbiter matches --format json's (ids, rounds, tables, states, seats)",
          [(m["id"], m["round"], m["table"], m["state"],
            [(s["slot"], s["name"], s["total"], s["points"], s["rank"]) for s in m["seats"]]) for m in t.get("matches", [])]
          == [(m["id"], m["round"], m["table"], m["state"],
               [(s["slot"], s["entrant"], s["total"], s["points"], s["rank"]) for s in m["seats"]]) for m in cli_m],
          (t.get("matches"), cli_m))
    check(f"/api/t/{tid}: each seat's entrant index is the record's",
          all(record_text(f"SELECT name FROM entrants WHERE tournament_id = {tid} AND idx = {s['entrant']}") == s["name"]
              for m in t.get("matches", []) for s in m["seats"]))
    cli_x = cli("crosstable", f"#{tid}", "--format", "json")
    check(f"/api/t/{tid}: its crosstable is arbiter crosstable --format json's",
          sorted(map(json.dumps, t.get("crosstable", []))) == sorted(map(json.dumps, cli_x)), (t.get("crosstable"), cli_x))
    row = psql(f"SELECT game, rules, format, state, rating_system, coalesce(commitment, ''), "
               f"coalesce(encode(secret, 'hex'), '') FROM tournaments WHERE id = {tid}").split("|")
    check(f"/api/t/{tid}: game, rules, format, state, rating system, commitment and secret are the record's",
          [t.get(k) for k in ("game", "rules", "format", "state", "rating_system", "commitment", "secret")] == row,
          (t, row))
    check(f"/api/t/{tid}: the name is the record's, exactly",
          t.get("name") == record_text(f"SELECT name FROM tournaments WHERE id = {tid}"))
    prog = t.get("progress", {})
    st = next(x for x in status["tournaments"] if x["id"] == tid)
    check(f"/api/t/{tid}: progress is arbiter status's counts",
          prog == {k: st[k] for k in ("state", "pending", "leased", "done", "void", "round")}, (prog, st))
check(f"/api/t/{KO}: a knockout's standings say the stage reached",
      all("reached" in s and "tiebreak" in s for s in got[f"/api/t/{KO}/standings"] or [{}]))
check(f"/api/t/{RR}: a round robin's standings have no stage",
      all("reached" not in s for s in got[f"/api/t/{RR}/standings"] or []))

hostile_entrant = record_text(f"SELECT name FROM entrants WHERE tournament_id = {KO} AND idx = {E_KO}")
check("the hostile entrant's name holds markup, quotes, a backslash and control characters",
      all(c in hostile_entrant for c in ('<script>', '"', "'", "\\", "\x01", "\x1b")), repr(hostile_entrant))
for tid, path in ((RR, f"/api/t/{RR}/standings"), (KO, f"/api/t/{KO}/standings")):
    check(f"{path}: the hostile name exactly as the record holds it",
          any(s["name"] == hostile_entrant for s in got[path] or []), got[path])

for tid, idx in ((RR, 0), (KO, E_KO), (LA, E_LA)):
    e = got[f"/api/t/{tid}/e/{idx}"] or {}
    check(f"/api/t/{tid}/e/{idx}: name and index are the record's",
          e.get("name") == record_text(f"SELECT name FROM entrants WHERE tournament_id = {tid} AND idx = {idx}")
          and e.get("entrant") == idx and e.get("tournament") == tid, e)
    mine = sorted(int(x) for x in psql(f"SELECT m.id FROM matches m JOIN match_seats s ON s.match_id = m.id "
                                         f"WHERE m.tournament_id = {tid} AND s.entrant = {idx}").split())
    check(f"/api/t/{tid}/e/{idx}: its matches are the record's", sorted(m["id"] for m in e.get("matches", [])) == mine,
          (e.get("matches"), mine))
    npen = int(psql(f"SELECT count(*) FROM penalties p JOIN matches m ON m.id = p.match_id JOIN match_seats s "
                    f"ON s.match_id = m.id AND s.slot = p.slot WHERE m.tournament_id = {tid} AND s.entrant = {idx}"))
    check(f"/api/t/{tid}/e/{idx}: its penalties are the record's", len(e.get("penalties", [])) == npen)
    hist = [(int(a), int(b)) for a, b in (r.split("|") for r in psql(
        f"SELECT h.entrant, h.match_id FROM rating_history h JOIN matches m ON m.id = h.match_id "
        f"WHERE m.tournament_id = {tid} AND h.entrant = {idx} ORDER BY h.seq").split("\n") if r)]
    check(f"/api/t/{tid}/e/{idx}: its rating history is the record's, in order",
          [h["match"] for h in e.get("history", [])] == [m for _, m in hist], (e.get("history"), hist))
la_e = got[f"/api/t/{LA}/e/{E_LA}"] or {}
check("a ladder entrant's rating is its last history entry",
      la_e.get("rating") and la_e["history"] and la_e["rating"]["mu"] == la_e["history"][-1]["mu"], la_e)

lad = got[f"/api/l/{LA}"] or {}
cli_l = cli("ladder", "list", "api ladder", "--format", "json")
check("/api/l/ID: the leaderboard's order is arbiter ladder list's",
      [x["name"] for x in lad.get("leaderboard", [])] == [x["name"] for x in cli_l["entries"]],
      (lad.get("leaderboard"), cli_l["entries"]))
check("/api/l/ID: mu, sigma, games and version are arbiter ladder list's",
      [(x["mu"], x["sigma"], x["games"], x["version"]) for x in lad.get("leaderboard", [])]
      == [(x["mu"], x["sigma"], x["games"], x["version"]) for x in cli_l["entries"]])
check("/api/l/ID: the score is the CLI's to 6 significant digits",
      all(abs(a["score"] - b["score"]) <= 1e-5 * max(1, abs(b["score"]))
          for a, b in zip(lad.get("leaderboard", []), cli_l["entries"])))
check("/api/l/ID: the rating system is the record's", lad.get("rating_system") == cli_l["system"])
check("/api/l/ID: history rows are the record's rating history (the leaders')",
      len(lad.get("history", [])) == int(psql(f"SELECT count(*) FROM rating_history h JOIN matches m ON "
                                                 f"m.id = h.match_id WHERE m.tournament_id = {LA}")))
check("/api/t/ID of a ladder is its /api/l/ID", got[f"/api/l/{LA}"] == get_json(f"/api/t/{LA}"))

for mid in (M_RR, M_KO, M_LA):
    a = got[f"/api/m/{mid}"] or {}
    c = cli("match-info", str(mid), "--format", "json")
    check(f"/api/m/{mid}: seats equal arbiter match-info's",
          [(s["slot"], s["name"], s["total"], s["points"], s["rank"], s["forfeited"], s["penalties"]) for s in a.get("seats", [])]
          == [(s["slot"], s["entrant"], s["total"], s["points"], s["rank"], s["forfeited"], s["penalties"]) for s in c["seats"]],
          (a.get("seats"), c["seats"]))
    check(f"/api/m/{mid}: deals and penalties equal arbiter match-info's",
          a.get("deals") == c["deals"] and a.get("penalties") == c["penalties"], (a.get("deals"), c["deals"]))
    check(f"/api/m/{mid}: round, table, state, digest, transcript, signer and signature equal arbiter match-info's",
          [a.get(k) for k in ("round", "table", "state", "digest", "transcript", "error", "signer_key", "signature")]
          == [c[k] for k in ("round", "table", "state", "digest", "transcript", "error", "signer_key", "signature")]
          and a.get("worker") == c["referee"] and a.get("tournament_name") == c["tournament"], (a, c))
    check(f"/api/m/{mid}: signature_status follows signer_key and signature",
          a.get("signature_status") == ("signed" if a.get("signer_key") and a.get("signature") else "unsigned"))
    # the transcript as the record keeps it (the worker's file is gone)
    replay = subprocess.run([ARB, "replay", "--match", str(mid), "--db", DB, "--json"], capture_output=True).stdout
    recs = [strict(x) for x in replay.splitlines() if x]
    ends = [(r["bot"], r["ended"], r["stderr"]) for r in recs if r["type"] == "botend"]
    check(f"/api/m/{mid}: bots are the transcript's botend records (arbiter replay --json), stderr exactly",
          [(b["bot"], b["ended"], b["stderr"]) for b in a.get("bots", [])] == ends, (a.get("bots"), ends))
    status_, headers, body = raw(f"/api/m/{mid}/transcript")
    check(f"/api/m/{mid}/transcript: 200, application/x-ndjson",
          status_ == 200 and headers.get("content-type") == "application/x-ndjson", (status_, headers))
    check(f"/api/m/{mid}/transcript: the records of arbiter replay --json but its closing summary, line for line",
          body.splitlines() == [x for x in replay.splitlines() if x and not x.startswith(b'{"type":"replay"')])

# the loud bot's stderr: markup, quotes, a backslash, control characters,
# a NUL and invalid UTF-8, exactly as the transcript holds them (each byte
# of invalid UTF-8 as the code point of its value, docs/web.md)
loud = (b'<script>alert(1)</script> "q" \\ back\x01\x1b[31m\x7f bad:\xff\xc0\xaf nul:\x00after & end\n')
want = loud.decode("latin-1")   # ASCII but the invalid bytes: each one its value
bots = (got[f"/api/m/{M_RR}"] or {}).get("bots", [])
check("the loud bot's stderr round-trips: markup, quotes, backslash, controls, NUL, invalid UTF-8 (as U+00XX)",
      any(b["stderr"] == want for b in bots), [b["stderr"] for b in bots])

# ---- 3. hostile requests ------------------------------------------------------

def status_of(path, method="GET", **kw):
    return raw(path, method, **kw)[0]


BIG = 2 ** 63
NOTFOUND = [
    "/api/nope", "/api", "/api/", "/api/t", f"/api/t/{RR}/", f"/api/t/{RR}/nope", f"/api/t/{RR}/standings/x",
    "/api/t/abc", "/api/t/-1", "/api/t/0", "/api/t/+1", "/api/t/1e3", "/api/t/0x1", "/api/t/ 1",
    f"/api/t/0{RR}", f"/api/t/00{RR}", f"/api/m/0{M_RR}", f"/api/t/{KO}/e/0{E_KO}", f"/t/00{RR}", f"/m/0{M_RR}",
    f"/api/t/{BIG}", f"/api/t/{BIG - 1}", f"/api/t/{BIG * 10}", "/api/t/99999999999999999999999999999",
    f"/api/t/{RR}/e/{2 ** 31}", f"/api/t/{RR}/e/-1", f"/api/t/{RR}/e/99", f"/api/m/{BIG}",
    "/api/m/999999999999999999", "/api/t/999999999999999999/standings",
    f"/api/t/{RR}%00", f"/api/t/{RR}%00.json", "/api/tournaments%00", f"/api/t/%31", "/%61pi/tournaments",
    "/assets/../../etc/passwd", "/assets/%2e%2e/%2e%2e/etc/passwd", "/assets/..%2f..%2fetc/passwd",
    "/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/../etc/passwd", "/%2e%2e/etc/passwd", "/assets/style.css/",
    "/assets//style.css", "/assets/./style.css", "/assets/STYLE.CSS", "/assets/", "/assets",
    "//api/tournaments", "/api//tournaments", f"/api/t//{RR}", "///", "/api/tournaments/",
    f"/api/m/{M_RR}/transcript/", f"/api/l/{RR}", f"/api/t/{LA}/standings/", "/api/t/1/events/x",
    "/api/t/0/events", f"/api/t/0{RR}/events", "/api/t/-1/events", f"/api/t/{BIG}/events",
]
for p in NOTFOUND:
    st, h, body = raw(p)
    check(f"GET {p} is 404", st == 404, (st, body[:100]))
for p in ("/api/tournaments?x=1", f"/api/t/{RR}?a=<script>&b=%00", "/api/pool?"):
    st, h, body = raw(p)
    check(f"GET {p}: a query string is ignored (200, the same JSON)",
          st == 200 and strict(body) == got[p.split("?")[0]], st)
for n in (257, 1000, 8000, 40000):
    p = "/api/t/" + "1" * 2 + "/" + "a" * (n - 10)
    st, h, body = raw(p)
    check(f"GET of a {len(p)}-byte URL (past ARB_WEB_MAX_URL, 256) is 414", st == 414, st)
check("a 256-byte URL is still read (404 for no route, not 414)", status_of("/api/t/" + "1" * 249) == 404)
for m in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "FOO"):
    st, h, body = raw("/api/tournaments", m, extra=b"Content-Length: 3\r\n\r\nabc" if m in ("POST", "PUT") else b"")
    check(f"{m} /api/tournaments is 405 with Allow: GET, HEAD", st == 405 and h.get("allow") == "GET, HEAD", (st, h))
st, h, body = raw(f"{HOST}:{PORT}", "CONNECT")
check("CONNECT host:port is refused (400 or 405), no tunnel", st in (400, 405), st)
st, h, body = raw("/api/tournaments", "HEAD")
check("HEAD /api/tournaments: 200, application/json, no body",
      st == 200 and h.get("content-type") == "application/json" and body == b"", (st, body[:80]))
for hdr in (b"X-Big: " + b"a" * 40000 + b"\r\n", b"".join(b"X-%d: %s\r\n" % (i, b"b" * 100) for i in range(400))):
    st, h, body = raw("/api/tournaments", extra=hdr)
    check(f"headers of {len(hdr)} bytes (past ARB_WEB_REQUEST_MEMORY) are refused with 431", st == 431, st)
check("the security headers are on a JSON answer too",
      raw("/api/tournaments")[1].get("x-content-type-options") == "nosniff")
for junk in (b"GARBAGE\r\n\r\n", b"GET /api/tournaments HTTP/9.9\r\n\r\n", b"\x00\xff\r\n\r\n",
             b"GET /api/tournaments\r\n\r\n", b"GET  /api/tournaments HTTP/1.1\r\n\r\n"):
    s = socket.create_connection((HOST, PORT), timeout=5)
    s.sendall(junk)
    try:
        s.recv(4096)
    except OSError:
        pass
    s.close()
check("the server still answers after the hostile requests", status_of("/api/tournaments") == 200)

# ---- 4. connections: per address, in all, silence ------------------------------

def hold(n, src):
    """n connections from src, opened and left silent."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind((src, 0))
        s.settimeout(5)
        s.connect((HOST, PORT))
        socks.append(s)
    return socks


def served_again(src, within=10.0):
    """Seconds until a request from src is answered 200 again (None: not within)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < within:
        if status_of("/api/pool", src=src, timeout=2) == 200:
            return time.monotonic() - t0
        time.sleep(0.1)
    return None


def answered(s):
    """True when the server answers a request on s with an HTTP status."""
    try:
        s.sendall(b"GET /api/pool HTTP/1.1\r\nHost: x\r\n\r\n")
        return s.recv(100).startswith(b"HTTP/1.1 ")
    except OSError:
        return False


silent = socket.create_connection((HOST, PORT), timeout=60)
silent_since = time.monotonic()
held = hold(16, "127.0.0.2")
time.sleep(0.3)
extra = hold(1, "127.0.0.2")[0]
check("a 17th connection from one address is answered (no silent per-address limit)", answered(extra))
extra.close()
check("with 16 held from one address another address is still served", status_of("/api/pool", src="127.0.0.3") == 200)
for s in held:
    s.close()
again = served_again("127.0.0.2")
check("once they close, that address is served again (within 10 s)", again is not None, again)

# a slowloris: 16 connections from one address sending a request a byte at a
# time; the rest of the world is still served meanwhile
stop = threading.Event()
slow = hold(16, "127.0.0.4")


def drip():
    req = b"GET /api/tournaments HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"z" * 1000
    for i in range(len(req)):
        if stop.is_set():
            return
        for s in slow:
            try:
                s.send(req[i:i + 1])
            except OSError:
                pass
        time.sleep(0.2)


dripper = threading.Thread(target=drip, daemon=True)
dripper.start()
t0 = time.monotonic()
check("during a slowloris from one address, another is served at once",
      status_of("/api/tournaments", src="127.0.0.5") == 200 and time.monotonic() - t0 < 3)

# more connections than the old limit of 64, from many addresses: answered
many = []
for k in range(6, 10):
    many += hold(12, f"127.0.0.{k}")
time.sleep(0.3)
over = hold(1, "127.0.0.20")[0]
check("past 64 connections in all a new one is answered", answered(over))
over.close()
stop.set()
dripper.join()
for s in many + slow:
    s.close()
again = served_again("127.0.0.21")
check("with them gone the server answers again (within 10 s)", again is not None, again)
print(f"-- served again {again} s after 64 connections closed")

# ---- 5. heavy routes, then the record unchanged --------------------------------
# (the caller compares the record's checksum before and after this script)
for u in [f"/api/t/{LA}", f"/api/l/{LA}", f"/api/t/{KO}", f"/api/t/{RR}/e/999999", f"/api/t/{KO}/e/1000001"] * 5:
    raw(u)

# the silent connection: answered 408 and closed after ARB_WEB_HEADER_DEADLINE_S (10 s)
try:
    left = silent.recv(100)
except OSError:
    left = b""
waited = time.monotonic() - silent_since
check("a silent connection is answered 408 and closed after the header deadline (10 s)",
      left.startswith(b"HTTP/1.1 408") and 9 < waited < 40, (waited, left[:40]))

print(f"web-api checks: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
