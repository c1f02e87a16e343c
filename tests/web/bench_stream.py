#!/usr/bin/env python3
"""bench_stream.py PORT SERVER_PID ROUTE — what one long answer (a match's
transcript, /api/m/ID/transcript) costs `arbiter serve`: for a first request,
a second, and four clients at once (each from an address of its own
among 127/8: per client two heavy requests at most), the time to the answer's first byte, to
its end, and the server's peak RSS over what it was before (VmRSS sampled
every 10 ms). Prints a line each; asserts nothing (docs/web.md, "Streamed
transcripts")."""
import socket
import sys
import threading
import time

PORT, PID, ROUTE = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


def rss():
    with open(f"/proc/{PID}/status") as f:
        return next(int(x.split()[1]) * 1024 for x in f if x.startswith("VmRSS:"))


def fetch(out, src):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=60, source_address=(src, 0))
    t0 = time.monotonic()
    s.sendall(f"GET {ROUTE} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    first, n = None, 0
    while True:
        chunk = s.recv(1 << 16)
        if not chunk:
            break
        first = first or time.monotonic() - t0
        n += len(chunk)
    s.close()
    out.append((first, time.monotonic() - t0, n))


def run(what, clients):
    base, peak, out = rss(), 0, []
    ts = [threading.Thread(target=fetch, args=(out, f"127.0.0.{20 + i}")) for i in range(clients)]
    for t in ts:
        t.start()
    while any(t.is_alive() for t in ts):
        peak = max(peak, rss())
        time.sleep(0.01)
    ttfb = max(o[0] for o in out)
    total = max(o[1] for o in out)
    print(f"{what:28} first byte {ttfb * 1000:7.1f} ms, all {total * 1000:7.0f} ms, "
          f"{out[0][2] / 1e6:.1f} MB each; RSS {base / 2**20:.1f} MiB before, peak +{(peak - base) / 2**20:.1f} MiB")


run("first request", 1)
run("second request", 1)
run("four clients at once", 4)
