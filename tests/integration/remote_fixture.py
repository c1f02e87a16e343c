#!/usr/bin/env python3
"""remote_fixture.py — canned answers for the client's own error handling
(test_remote_client.sh): NOT the participant API, whose flows are tested
against the real server (test_remote.sh). The first path segment picks the
behaviour (the client's --server is http://127.0.0.1:PORT/MODE):

  ok        the API's shapes: me, entries, logs, retire, disputes, a join
            answered with the SHA-256 of the body it got, a transcript
  baddigest a join answered with another digest
  401 403 404 409 413 429 500   {"error": ...} with that status (429 with Retry-After: 7)
  garbage   200 with an HTML page
  big       200 with a Content-Length past the client's bound
  bigchunked 200 with 17 MiB sent chunked (no Content-Length)
  slow      200 after 5 seconds
  redirect  302 to another address

Every request is appended to LOG as one JSON line: method, path, the
Authorization header, Content-Type, the body's length and SHA-256.
Usage: remote_fixture.py PORTFILE LOG
"""
import hashlib
import http.server
import json
import sys
import os
import time

PORTFILE, LOG = sys.argv[1], sys.argv[2]


class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def answer(self, status, obj, headers=()):
        body = (json.dumps(obj) + "\n").encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self, method):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n) if n else b""
        with open(LOG, "a") as f:
            f.write(json.dumps({"method": method, "path": self.path,
                                "auth": self.headers.get("Authorization"),
                                "ctype": self.headers.get("Content-Type"),
                                "len": len(body), "sha": hashlib.sha256(body).hexdigest()}) + "\n")
        parts = self.path.split("?")[0].split("/")
        mode, route = parts[1], "/" + "/".join(parts[2:])
        if mode.isdigit():
            st = int(mode)
            self.answer(st, {"error": "canned %d: the field named here" % st},
                        [("Retry-After", "7")] if st == 429 else
                        [("WWW-Authenticate", "Bearer")] if st == 401 else [])
            return
        if mode == "garbage":
            body = b"<html><body>502 Bad Gateway</body></html>\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if mode == "big":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(64 << 20))
            self.end_headers()
            self.wfile.write(b"{" + b" " * 65536)
            return
        if mode == "bigchunked":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b" " * (1 << 20)
            try:
                for _ in range(17):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            self.close_connection = True
            return
        if mode == "slow":
            time.sleep(5)
            self.answer(200, {"account": "late"})
            return
        if mode == "redirect":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:9/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        # ok / baddigest: the API's shapes
        if route == "/api/v1/me":
            self.answer(200, {"account": "alice", "role": "participant",
                              "quota": {"uploads_today": 1, "uploads_per_day": 50, "bytes_today": 10,
                                        "bytes_per_day": 1000, "entries": 1, "entries_max": 3}})
        elif route == "/api/v1/entries":
            self.answer(200, {"entries": [{"ladder": "lad", "entry": "bot.v2", "base": "bot", "version": 2,
                                           "status": "active", "verdict": "passed \x1b[31mred",
                                           "validation_match": 3, "rating": {"mu": 27.5, "sigma": 6.1},
                                           "matches": 4, "joined_at": "2025-01-02T03:04:05Z",
                                           "retired_at": None}]})
        elif route.endswith("/logs"):
            self.answer(200, {"entry": "bot.v2", "matches": [
                {"match": 3, "role": "validation",
                 "bots": [{"seat": 0, "ended": "exited 0", "stderr": "line one\nline \x1b]0;two\n"}]}]})
        elif route.endswith("/retire"):
            self.answer(200, {"entry": parts[-2], "status": "retired"})
        elif route == "/api/v1/disputes":
            self.answer(201, {"dispute": 9, "state": "open"})
        elif route.endswith("/transcript"):
            body = b'{"type":"header"}\n{"type":"move"}\n'
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif "/entries" in route or "/registrations" in route:
            digest = hashlib.sha256(body).hexdigest()
            if mode == "baddigest":
                digest = "0" * 64
            self.answer(201, {"ladder": parts[4], "entry": "bot.v2", "version": 2, "digest": digest,
                              "status": "validating", "url": "/ladders/x/entries/bot.v2"})
        else:
            self.answer(404, {"error": "no route " + route})

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")


srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(srv.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
srv.serve_forever()
