#!/usr/bin/env python3
"""crowd_check.py PORT LONG_MATCH FINISHED_TOURNAMENT — `arbiter serve` under
a crowd (issue 29; docs/web.md, "Serving a crowd"), over real sockets, each
client bound to an address of its own among 127/8 (all loopback on Linux).
The server was started with --trusted-proxy 127.0.0.9. Prints a line per
failed check ("FAIL ...") and the measured figures; exits 1 on a failure."""
import resource
import socket
import statistics
import sys
import threading
import time

HOST = "127.0.0.1"
PORT, LONG, RR = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
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

# ---- (f) ETag and 304; the immutable transcript ----------------------------------
status, hdrs, _, _ = get("/")
etag = hdrs.get("etag", "")
check("(f) a page has a strong ETag", status == 200 and etag.startswith('"'), hdrs)
status2, hdrs2, body2, _ = get("/", headers=[("If-None-Match", etag)])
check("(f) If-None-Match with it is 304 with no body", status2 == 304 and body2 == b"", (status2, body2[:80]))
status, hdrs, _, _ = get(TRANSCRIPT)
check("(f) a finished match's transcript is immutable",
      "immutable" in hdrs.get("cache-control", "") and "max-age=31536000" in hdrs.get("cache-control", ""), hdrs)
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
