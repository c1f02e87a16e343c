#!/usr/bin/env python3
"""crowd_check.py PORT LONG_MATCH FINISHED_TOURNAMENT SERVER_PID ARBITER DB RAW_SIZE SHORT_MATCH — `arbiter serve` under
a crowd (issue 29; docs/web.md, "Serving a crowd"), over real sockets, each
client bound to an address of its own among 127/8 (all loopback on Linux).
The server was started with --trusted-proxy 127.0.0.9. Prints a line per
failed check ("FAIL ...") and the measured figures; exits 1 on a failure."""
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time

HOST = "127.0.0.1"
PORT, LONG, RR, PID = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ARB, DB, RAW, SHORT = sys.argv[5], sys.argv[6], int(sys.argv[7]), int(sys.argv[8])
TRANSCRIPT = f"/api/m/{LONG}/transcript"
passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what} {detail}")


def connect(src, timeout=10, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((src, 0))
    s.settimeout(timeout)
    s.connect((HOST, PORT))
    return s


def request(path, headers=()):
    h = "".join(f"{k}: {v}\r\n" for k, v in headers)
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n{h}Connection: close\r\n\r\n".encode()


def head_of(s):
    """The status and headers of the answer on s (None: closed with no answer)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return None, {}, data
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    hdrs = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return int(lines[0].split()[1]), hdrs, rest


def get(path, src="127.0.0.1", headers=(), timeout=20):
    """(status or None, headers, body, seconds)."""
    t0 = time.monotonic()
    try:
        s = connect(src, timeout)
        s.sendall(request(path, headers))
        status, hdrs, body = head_of(s)
        while status is not None:
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            body += chunk
        s.close()
    except OSError:
        status, hdrs, body = None, {}, b""
    return status, hdrs, body, time.monotonic() - t0


# ---- (h) the long transcript streamed (first: nothing of it in memory yet) ----
def rss():
    with open(f"/proc/{PID}/status") as f:
        return next(int(x.split()[1]) * 1024 for x in f if x.startswith("VmRSS:"))


def dechunk(body):
    """The data of a chunked body, and whether its last chunk came."""
    out, pos = b"", 0
    while True:
        eol = body.find(b"\r\n", pos)
        if eol < 0:
            return out, False
        n = int(body[pos:eol].split(b";")[0], 16)
        if n == 0:
            return out, True
        out += body[eol + 2:eol + 2 + n]
        pos = eol + 2 + n + 2


def stream(src, pace=0.0, rcvbuf=None, headers=()):
    """GET the transcript on a kept-alive HTTP/1.1 connection, reading 64 KiB
    at a time (sleeping pace seconds between): status, headers, raw body,
    seconds to the first byte of the answer, seconds in all."""
    h = "".join(f"{k}: {v}\r\n" for k, v in headers)
    s = connect(src, timeout=60, rcvbuf=rcvbuf)
    t0 = time.monotonic()
    s.sendall(f"GET {TRANSCRIPT} HTTP/1.1\r\nHost: x\r\n{h}\r\n".encode())
    status, hdrs, body = head_of(s)
    ttfb = time.monotonic() - t0
    while status == 200 and not body.endswith(b"\r\n0\r\n\r\n"):
        chunk = s.recv(65536)
        if not chunk:
            break
        body += chunk
        time.sleep(pace)
    s.close()
    return status, hdrs, body, ttfb, time.monotonic() - t0


base = rss()
status, hdrs, body, ttfb, took = stream("127.0.0.6")
lines, whole = dechunk(body)
peak_one = rss()
print(f"-- {TRANSCRIPT}: {len(lines)} bytes of JSON lines, first byte after {ttfb * 1000:.1f} ms, "
      f"all after {took * 1000:.0f} ms; server RSS {base >> 20} MiB before, {peak_one >> 20} MiB after")
check("(h) the long transcript is 200 with Transfer-Encoding: chunked and no Content-Length",
      status == 200 and hdrs.get("transfer-encoding") == "chunked" and "content-length" not in hdrs, (status, hdrs))
check("(h) its chunks end with the last chunk", whole, body[-40:])
check("(h) the server's RSS grew by less than half the JSON's size for it (the JSON is never held whole)",
      peak_one - base < len(lines) // 2, f"+{peak_one - base} bytes")
replay = subprocess.run([ARB, "replay", "--match", str(LONG), "--db", DB, "--json"], capture_output=True).stdout
want = b"".join(x + b"\n" for x in replay.splitlines() if x and not x.startswith(b'{"type":"replay"'))
check("(h) its lines are arbiter replay --json's but the closing summary, byte for byte",
      len(want) > 4 << 20 and lines == want, (len(lines), len(want)))
warm = rss()
results, peak, steady = {}, [warm], [warm]


def slow_reader(src):
    results[src] = stream(src, pace=0.01, rcvbuf=16384)


readers = [threading.Thread(target=slow_reader, args=(a,)) for a in ("127.0.0.7", "127.0.0.8")]
t0 = time.monotonic()
for t in readers:
    t.start()
while any(t.is_alive() for t in readers):
    # from a second on, both streams are under way (their loads done)
    (steady if time.monotonic() - t0 > 1.0 else peak).append(rss())
    time.sleep(0.02)
for t in readers:
    t.join()
grew, held = max(peak + steady) - warm, max(steady) - warm
print(f"-- two clients reading it slowly at once: server RSS {warm >> 20} MiB before, peak +{grew / (1 << 20):.1f} MiB "
      f"(reading the transcripts from the record), +{held / (1 << 20):.1f} MiB while streaming "
      f"(the JSON is {len(want) / (1 << 20):.1f} MiB, the raw transcript {RAW / (1 << 20):.1f} MiB), "
      f"{sorted(round(r[4], 1) for r in results.values())} s each")
check("(h) both slow readers get the same lines", all(dechunk(r[2]) == (want, True) for r in results.values()),
      [len(r[2]) for r in results.values()])
check("(h) two clients streaming it at once: the server's RSS grows by less than the JSON per stream",
      grew < 2 * len(want), f"+{grew} bytes")
# (+4 MiB: the two database sessions' receive buffers, grown once to the
# compressed transcript and kept, and the threads' allocator arenas)
check("(h) and while they stream, by no more than the raw transcript and a chunk each (+4 MiB)",
      held < 2 * (RAW + (64 << 10)) + (4 << 20), f"+{held} bytes")
etag = hdrs.get("etag", "")
status, hdrs2, body, _, _ = stream("127.0.0.6", headers=[("If-None-Match", etag)])
check("(h) If-None-Match with its ETag is 304 with no body", etag and status == 304 and body == b"", (etag, status))
s = connect("127.0.0.6")
s.sendall(f"HEAD {TRANSCRIPT} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
status, hdrs2, rest = head_of(s)
s.settimeout(5)
while True:
    chunk = s.recv(65536)
    if not chunk:
        break
    rest += chunk
s.close()
check("(h) HEAD answers its headers only", status == 200 and hdrs2.get("etag") == etag and rest == b"",
      (status, hdrs2, rest[:40]))

# a short transcript: streamed the first time, then kept (sent whole)
status, hdrs, body = get(f"/api/m/{SHORT}/transcript")[:3]
status2, hdrs2, body2 = get(f"/api/m/{SHORT}/transcript")[:3]
first = dechunk(body)[0] if hdrs.get("transfer-encoding") == "chunked" else body
check("(h) a short transcript is streamed the first time (no Content-Length)",
      status == 200 and "content-length" not in hdrs and first.startswith(b'{"type":"header"'), (status, hdrs))
check("(h) then sent from the cache whole: Content-Length, the same lines, the same ETag",
      status2 == 200 and hdrs2.get("content-length") == str(len(first)) and body2 == first
      and hdrs2.get("etag") == hdrs.get("etag") and hdrs.get("etag", "").startswith('"t'), (status2, hdrs2))

# ---- (d) a client sending its header a byte a second, in the background ----
DEADLINE = 10
slow_result = {}


def slowloris():
    s = connect("127.0.0.5", timeout=40)
    t0 = time.monotonic()
    req = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"z" * 100
    answer = b""
    try:
        for i in range(len(req)):
            s.send(req[i:i + 1])
            s.settimeout(1.0)
            try:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
            except socket.timeout:
                continue
    except OSError:
        pass
    slow_result["after"] = time.monotonic() - t0
    slow_result["answer"] = answer
    s.close()


slow = threading.Thread(target=slowloris, daemon=True)
slow.start()

# ---- (a), (b): one address hammers the long transcript, another reads the front page
get(TRANSCRIPT)   # rendered once (the old server renders it every time)
stop = threading.Event()
hammer = {"codes": {}, "silent": 0, "retry_after": 0}
lock = threading.Lock()


def hammerer():
    while not stop.is_set():
        status, hdrs, _, _ = get(TRANSCRIPT, src="127.0.0.2", timeout=30)
        with lock:
            hammer["codes"][status] = hammer["codes"].get(status, 0) + 1
            if status is None:
                hammer["silent"] += 1
            if status in (429, 503):
                hammer["retry_after"] += "retry-after" in hdrs


threads = [threading.Thread(target=hammerer, daemon=True) for _ in range(16)]
for t in threads:
    t.start()
time.sleep(0.5)
front = []
t_end = time.monotonic() + 6
while time.monotonic() < t_end:
    status, _, body, took = get("/", src="127.0.0.3", timeout=25)
    front.append((status, took))
    time.sleep(0.05)
stop.set()
for t in threads:
    t.join(timeout=40)
lat = sorted(t for _, t in front)
print(f"-- front page from 127.0.0.3 while 127.0.0.2 hammers {TRANSCRIPT} on 16 connections: "
      f"{len(front)} fetches, p50 {statistics.median(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
print(f"-- the hammering address's answers: {hammer['codes']}")
check("(a) every front-page answer is 200 while another address hammers transcripts",
      all(s == 200 for s, _ in front), [s for s, _ in front if s != 200][:5])
check("(a) every front-page answer under 500 ms while hammered", lat[-1] < 0.5, f"max {lat[-1]:.3f} s")
check("(b) the hammering address is answered 429", hammer["codes"].get(429, 0) > 0, hammer["codes"])
check("(b) every 429/503 carries Retry-After",
      hammer["retry_after"] == hammer["codes"].get(429, 0) + hammer["codes"].get(503, 0), hammer)
check("(b) no hammering connection closed without an HTTP answer", hammer["silent"] == 0, hammer["codes"])

# ---- (c) the stream of a finished tournament ends with `event: end` ----------
status, _, body, took = get(f"/api/t/{RR}/events", timeout=8)
check("(c) a finished tournament's stream is 200", status == 200, status)
check("(c) it ends with event: end (with the final progress)",
      b"event: end\ndata: {\"state\":\"done\"" in body, body[-200:])
check("(c) and closes at once, not after keepalives", took < 5, f"{took:.1f} s")


# ---- (e) X-Forwarded-For: ignored from an untrusted peer, believed from the proxy
def hold_heavy(src, xff):
    """A transcript request left unread (it stays in flight): the socket and its status."""
    s = connect(src, timeout=10, rcvbuf=4096)
    s.sendall(request(TRANSCRIPT, [("X-Forwarded-For", xff)]))
    status, _, _ = head_of(s)
    return s, status


held = [hold_heavy("127.0.0.4", "198.51.100.1"), hold_heavy("127.0.0.4", "198.51.100.1"),
        hold_heavy("127.0.0.4", "198.51.100.2")]
check("(e) from an untrusted peer X-Forwarded-For is ignored: its third heavy request is 429",
      [st for _, st in held] == [200, 200, 429], [st for _, st in held])
for s, _ in held:
    s.close()
time.sleep(0.5)
held = [hold_heavy("127.0.0.9", "203.0.113.7, 198.51.100.1"), hold_heavy("127.0.0.9", "198.51.100.1"),
        hold_heavy("127.0.0.9", "198.51.100.2, 10.1.2.3")]
check("(e) through the trusted proxy two clients are not limited together", [st for _, st in held] == [200, 200, 200],
      [st for _, st in held])
third, st3 = hold_heavy("127.0.0.9", "127.0.0.4, 198.51.100.1")
check("(e) the right-most untrusted entry is the client: 198.51.100.1's third is 429", st3 == 429, st3)
for s, _ in held + [(third, st3)]:
    s.close()
time.sleep(0.5)
# four slow readers of the long transcript from two addresses (two each,
# their limit) hold no share of the server's bound on renders: another
# address still gets a transcript, and a tournament page rendered anew
# (before, the four held all ARB_WEB_HEAVY_MAX slots: 503 for everyone)
held = [hold_heavy(src, "-") for src in ("127.0.0.21", "127.0.0.21", "127.0.0.22", "127.0.0.22")]
check("(e) four slow readers from two addresses are each let in", [st for _, st in held] == [200] * 4,
      [st for _, st in held])
status, _, _, _ = get(TRANSCRIPT, src="127.0.0.23")
check("(e) meanwhile a third address still gets a transcript", status == 200, status)
status, _, _, _ = get(f"/t/{RR}?fresh", src="127.0.0.23")
check("(e) and a tournament page", status == 200, status)
for s, _ in held:
    s.close()
time.sleep(0.5)

# ---- (f) ETag and 304; the immutable transcript ----------------------------------
status, hdrs, _, _ = get("/")
etag = hdrs.get("etag", "")
check("(f) a page has a strong ETag", status == 200 and etag.startswith('"'), hdrs)
status2, hdrs2, body2, _ = get("/", headers=[("If-None-Match", etag)])
check("(f) If-None-Match with it is 304 with no body", status2 == 304 and body2 == b"", (status2, body2[:80]))
status, hdrs, _, _ = get(TRANSCRIPT)
check("(f) a finished match's transcript on its plain route is revalidated (a dispute may void or rerun it)",
      status == 200 and "no-cache" in hdrs.get("cache-control", "") and hdrs.get("etag", "").startswith('"t'), hdrs)
pinned = hdrs.get("etag", '"t"')[2:-1]
_, _, page, _ = get(TRANSCRIPT[len("/api"):].replace("/transcript", "/replay"))
check("(f) the replay page links the transcript by its digest",
      ("transcript?d=" + pinned).encode() in page, page[-600:])
status, hdrs, _, _ = get(TRANSCRIPT + "?d=" + pinned)
check("(f) under the digest's link it is immutable",
      status == 200 and "immutable" in hdrs.get("cache-control", "")
      and "max-age=31536000" in hdrs.get("cache-control", ""), hdrs)
status, hdrs, _, _ = get(TRANSCRIPT + "?d=" + "0" * 16)
check("(f) under another digest it is not", status == 200 and "immutable" not in hdrs.get("cache-control", ""), hdrs)
for hostile in (pinned + "00", pinned[:8], "%00" * 6, "<x>" * 200):
    status, hdrs, _, _ = get(TRANSCRIPT + "?d=" + hostile)
    check(f"(f) nor under a malformed one ({hostile[:20]!r})",
          status in (200, 414) and "immutable" not in hdrs.get("cache-control", ""), (status, hdrs))
status, hdrs, _, _ = get("/assets/style.css")
status2, _, _, _ = get("/assets/style.css", headers=[("If-None-Match", hdrs.get("etag", "x"))])
check("(f) an asset has an ETag and answers 304 to it", status == 200 and status2 == 304, (status, status2, hdrs))

# ---- (d) the slow client, cut within the deadline ------------------------------
slow.join(timeout=40)
after = slow_result.get("after", 99)
print(f"-- a client sending a byte a second was cut after {after:.1f} s: {slow_result.get('answer', b'')[:40]!r}")
check("(d) a byte-a-second client is cut within the header deadline (+3 s)", after < DEADLINE + 3, f"{after:.1f} s")
check("(d) and told so: 408", slow_result.get("answer", b"").startswith(b"HTTP/1.1 408"), slow_result)

# ---- (g) more connections than the busy threshold: each gets a status ------------
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
N = 1700
socks = []
try:
    for i in range(N):
        socks.append(connect(f"127.0.{1 + i // 25}.{10 + i % 25}", timeout=30))
except OSError as e:
    print(f"-- opened {len(socks)} connections ({e})")
time.sleep(1.0)
for s in socks:
    try:
        s.sendall(request("/api/pool"))
    except OSError:
        pass
codes = {}
for s in socks:
    try:
        st, _, _ = head_of(s)
    except OSError:
        st = None
    codes[st] = codes.get(st, 0) + 1
    s.close()
print(f"-- {len(socks)} connections at once: {codes}")
check(f"(g) {N} connections at once (busy threshold 1536) are all answered with a status",
      len(socks) == N and None not in codes and codes.get(503, 0) > 0, codes)
status, _, _, _ = get("/api/pool")
check("(g) served again once they are gone", status == 200, status)

print(f"web-crowd checks: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
