#!/usr/bin/env python3
"""blackhole_relay.py — a loopback TCP relay that can become a black hole,
for the fault-injection test (tests/integration/test_chaos.sh): a silent
network cut, where the link stays up but nothing crosses it.

    blackhole_relay.py TARGET_HOST:TARGET_PORT CONTROL_FILE

It listens on a free port of 127.0.0.1 (printed on stdout, one line, once
it listens) and forwards every connection to TARGET both ways. CONTROL_FILE
says what it does, read every 50 ms (absent or empty: pass):

    pass   forward both ways
    cut    forward nothing and accept nothing, but close nothing either:
           bytes wait in the kernel's buffers, neither side hears a FIN or
           a RST (a black hole; only a heartbeat can tell)
    close  close every connection it holds (both sides see the link drop),
           then forward new ones as in pass

At most BUF_MAX bytes wait in the relay toward one side; past that it stops
reading the other side (TCP's flow control does the rest). SIGTERM ends it.
"""
import os
import select
import signal
import socket
import sys

BUF_MAX = 1 << 20  # bytes held toward one side: bounded memory, whatever the peers send
POLL_S = 0.05      # how often the control file is read


def read_mode(path):
    try:
        with open(path, encoding="ascii") as f:
            word = f.read(16).strip()
    except OSError:
        return "pass"
    return word if word in ("pass", "cut", "close") else "pass"


class Pipe:
    """One relayed connection: the client's socket, the target's, and what
    waits to be written to each."""

    def __init__(self, client, target):
        self.socks = (client, target)
        self.out = {client: bytearray(), target: bytearray()}

    def other(self, s):
        return self.socks[1] if s is self.socks[0] else self.socks[0]

    def close(self):
        for s in self.socks:
            s.close()


def main():
    if len(sys.argv) != 3 or ":" not in sys.argv[1]:
        sys.stderr.write("usage: blackhole_relay.py TARGET_HOST:TARGET_PORT CONTROL_FILE\n")
        return 2
    host, port = sys.argv[1].rsplit(":", 1)
    target = (host, int(port))
    control = sys.argv[2]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)
    ls.setblocking(False)
    print(ls.getsockname()[1], flush=True)
    pipes = []
    last = None
    while True:
        mode = read_mode(control)
        if mode != last:
            sys.stderr.write("relay: %s (%d connections)\n" % (mode, len(pipes)))
            sys.stderr.flush()
            if mode == "close":
                for p in pipes:
                    p.close()
                pipes = []
            last = mode
        if mode == "cut":
            select.select([], [], [], POLL_S)
            continue
        rd, wr = [ls], []
        owner = {}
        for p in pipes:
            for s in p.socks:
                owner[s] = p
                if len(p.out[p.other(s)]) < BUF_MAX:
                    rd.append(s)
                if p.out[s]:
                    wr.append(s)
        r, w, _ = select.select(rd, wr, [], POLL_S)
        dead = set()
        for s in w:
            p = owner[s]
            try:
                n = s.send(p.out[s])
                del p.out[s][:n]
            except OSError:
                dead.add(p)
        for s in r:
            if s is ls:
                try:
                    c, _ = ls.accept()
                except OSError:
                    continue
                t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                try:
                    t.connect(target)
                except OSError:
                    c.close()
                    t.close()
                    continue
                c.setblocking(False)
                t.setblocking(False)
                pipes.append(Pipe(c, t))
                continue
            p = owner[s]
            try:
                data = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if not data:
                dead.add(p)   # one side left: the other is told by a close
            else:
                p.out[p.other(s)] += data
        for p in dead:
            p.close()
            pipes.remove(p)


if __name__ == "__main__":
    sys.exit(main())
