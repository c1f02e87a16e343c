"""browser.py — drive headless Chromium over the DevTools protocol, with the
standard library only (no pip): open a URL, run JS, press keys,
collect console errors, list network requests, take screenshots, run
axe-core (from npm, tests/web/package.json) over a page.

    with Browser() as b:
        page = b.new_page()
        page.open("file:///tmp/x/viewer.html")
        page.eval("document.title")
        page.key("ArrowRight")
        page.console_errors()   # console.error, uncaught exceptions, failed loads
        page.requests()         # every URL the page asked for
        page.screenshot("/tmp/shot.png")
        page.axe(open("axe.min.js").read())   # accessibility violations

Why by hand: the DevTools protocol is JSON over one WebSocket; a client
needs the handshake, masked frames out and (possibly fragmented) frames in
— about sixty lines — and CI then needs nothing but Debian's chromium.
One browser-level socket, pages attached with flatten=True (sessionId on
every message), so a test can hold several pages at once.
"""
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import tempfile
import time

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")


def find_chromium():
    """The browser's path, from $ARB_CHROMIUM or PATH; None if absent."""
    env = os.environ.get("ARB_CHROMIUM")
    if env:
        return env if os.path.exists(env) else shutil.which(env)
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Checks:
    """A test script's counted checks: check(what, ok) prints "FAIL: what"
    when ok is false and returns ok; count and failures for the summary."""

    def __init__(self):
        self.count = 0
        self.failures = []

    def __call__(self, what, ok):
        self.count += 1
        if not ok:
            self.failures.append(what)
            print("FAIL: " + what)
        return ok


def _xor(data, mask):
    """data XOR the 4-byte mask repeated (RFC 6455 masking), as one big
    integer: a byte at a time in Python takes a second for axe-core's
    half a megabyte."""
    n = len(data)
    key = (mask * (n // 4 + 1))[:n]
    return (int.from_bytes(data, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")


class WebSocket:
    """A minimal RFC 6455 client: text frames out (masked), frames in."""

    def __init__(self, url, timeout=30):
        m = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        if not m:
            raise ValueError("bad websocket url: " + url)
        host, port, path = m.group(1), int(m.group(2)), m.group(3)
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ("GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n") % (path, host, port, key)
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("websocket handshake: connection closed")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError("websocket handshake refused: " + head.decode(errors="replace"))

    def send(self, text):
        data = text.encode()
        n = len(data)
        header = bytes([0x81])
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + _xor(data, mask))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """The next whole message (text), fragments joined; None on close."""
        parts = []
        while True:
            b0, b1 = self._read(2)
            opcode, fin = b0 & 0x0F, b0 & 0x80
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = _xor(payload, mask)
            if opcode == 0x8:
                return None
            if opcode == 0x9:  # ping: answer pong
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                parts.append(payload)
                if fin:
                    return b"".join(parts).decode()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Browser:
    """A headless Chromium process and its DevTools connection."""

    def __init__(self, path=None, timeout=30, extra_args=()):
        self.path = path or find_chromium()
        if not self.path:
            raise FileNotFoundError("chromium not found")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="arb-chromium-")
        args = [self.path, "--headless=new", "--remote-debugging-port=0",
                "--user-data-dir=" + self.profile, "--no-first-run",
                "--no-default-browser-check", "--disable-gpu", "--disable-extensions",
                "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--metrics-recording-only",
                "--password-store=basic", "--use-mock-keychain",
                "--window-size=1280,900", "--allow-file-access-from-files"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        args += list(extra_args)
        args.append("about:blank")
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        url = None
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.proc.stderr.readline().decode(errors="replace")
            if not line and self.proc.poll() is not None:
                break
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                url = m.group(1)
                break
        if not url:
            self.close()
            raise RuntimeError("chromium did not start its DevTools endpoint")
        # Drain stderr from now on so the browser never blocks on a full pipe.
        import threading
        threading.Thread(target=self._drain, daemon=True).start()
        self.ws = WebSocket(url, timeout=timeout)
        self.next_id = 0
        self.pending = []   # messages read while waiting for another reply

    def _drain(self):
        try:
            while self.proc.stderr.read(65536):
                pass
        except (OSError, ValueError):
            pass

    def call(self, method, params=None, session=None, timeout=None):
        """Send one command and return its result; events seen meanwhile are queued."""
        self.next_id += 1
        mid = self.next_id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        self.ws.sock.settimeout(timeout or self.timeout)
        while True:
            raw = self.ws.recv()
            if raw is None:
                raise ConnectionError("devtools connection closed")
            m = json.loads(raw)
            if m.get("id") == mid:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.pending.append(m)

    def pump(self, seconds=0.0):
        """Read events for up to `seconds` (0: only those already queued in the socket)."""
        self.ws.sock.settimeout(max(seconds, 0.001))
        end = time.time() + seconds
        try:
            while True:
                raw = self.ws.recv()
                if raw is None:
                    break
                self.pending.append(json.loads(raw))
                if time.time() > end:
                    break
        except (socket.timeout, BlockingIOError):
            pass
        finally:
            self.ws.sock.settimeout(self.timeout)

    def new_page(self, width=1280, height=900, mobile=False):
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, target, session, width, height, mobile)

    def close(self):
        try:
            if getattr(self, "ws", None):
                try:
                    self.call("Browser.close", timeout=5)
                except Exception:
                    pass
                self.ws.close()
        finally:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


KEYS = {  # key → (code, windowsVirtualKeyCode)
    "ArrowRight": ("ArrowRight", 39), "ArrowLeft": ("ArrowLeft", 37),
    "ArrowUp": ("ArrowUp", 38), "ArrowDown": ("ArrowDown", 40),
    "Home": ("Home", 36), "End": ("End", 35), "PageUp": ("PageUp", 33),
    "PageDown": ("PageDown", 34), "Enter": ("Enter", 13), "Tab": ("Tab", 9),
    "Escape": ("Escape", 27), "[": ("BracketLeft", 219), "]": ("BracketRight", 221),
    "?": ("Slash", 191),
}


# axe.run's violations, boiled down to what a report names
AXE_RUN = """axe.run(document, {resultTypes: ['violations']}).then(function (r) {
  return r.violations.map(function (v) { return {id: v.id, impact: v.impact, help: v.help,
    helpUrl: v.helpUrl, targets: v.nodes.map(function (n) { return n.target.join(' '); })}; }); })"""


class Page:
    """One tab: its events (console, exceptions, network) kept per page."""

    def __init__(self, browser, target, session, width, height, mobile):
        self.b, self.target, self.session = browser, target, session
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(domain + ".enable")
        self.viewport(width, height, mobile)
        self.events = []

    def call(self, method, params=None, timeout=None):
        return self.b.call(method, params, self.session, timeout)

    def _collect(self, seconds=0.0):
        self.b.pump(seconds)
        mine = [m for m in self.b.pending if m.get("sessionId") == self.session]
        self.b.pending = [m for m in self.b.pending if m.get("sessionId") != self.session]
        self.events.extend(mine)
        return mine

    def open(self, url, timeout=30):
        """Navigate and wait for the load event (a fresh document: going to
        another #fragment of the same page would not load it again)."""
        if url != "about:blank":
            self.open("about:blank", timeout)
        self._collect()
        self.call("Page.navigate", {"url": url})
        deadline = time.time() + timeout
        while time.time() < deadline:
            for m in self._collect(0.1):
                if m.get("method") == "Page.loadEventFired":
                    return
        raise TimeoutError("page did not load: " + url)

    def eval(self, expr, await_promise=True):
        """The value of a JS expression (returned by value); raises on a JS exception."""
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True,
                                           "awaitPromise": await_promise})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise RuntimeError("JS error: %s" % (d.get("exception", {}).get("description") or d.get("text")))
        return r.get("result", {}).get("value")

    def wait_for(self, expr, timeout=10):
        """Poll until the expression is truthy; return its value."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            v = self.eval(expr)
            if v:
                return v
            self._collect(0.05)
        raise TimeoutError("never true: " + expr)

    def key(self, key, times=1):
        """Press a key as a user would (trusted keydown/keyup events)."""
        code, vk = KEYS.get(key, ("Key" + key.upper() if key.isalpha() else "Digit" + key, ord(key.upper()[0])))
        for _ in range(times):
            text = key if len(key) == 1 else ""
            self.call("Input.dispatchKeyEvent", {"type": "keyDown" if text else "rawKeyDown", "key": key,
                                                 "code": code, "windowsVirtualKeyCode": vk, "text": text})
            self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                                 "windowsVirtualKeyCode": vk})

    def viewport(self, width, height, mobile=False, scale=1):
        """Emulate a screen: 390x844 mobile=True is a phone (touch, its viewport meta honoured)."""
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
        self.call("Emulation.setTouchEmulationEnabled", {"enabled": mobile})

    def color_scheme(self, scheme):
        """Emulate the user's colour scheme, "dark" or "light" (CSS prefers-color-scheme)."""
        self.call("Emulation.setEmulatedMedia",
                  {"features": [{"name": "prefers-color-scheme", "value": scheme}]})

    def scripts(self, enabled):
        """Turn the page's JavaScript on or off (for the pages to come; eval still works)."""
        self.call("Emulation.setScriptExecutionDisabled", {"value": not enabled})

    def console_errors(self):
        """Console errors, uncaught exceptions and failed loads, as strings."""
        self._collect(0.05)
        out = []
        for m in self.events:
            meth, p = m.get("method"), m.get("params", {})
            if meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
            elif meth == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: " + str(d.get("exception", {}).get("description") or d.get("text")))
            elif meth == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                e = p["entry"]
                out.append("log: %s %s" % (e.get("text"), e.get("url", "")))
            elif meth == "Network.loadingFailed" and not p.get("canceled"):
                out.append("network: %s" % p.get("errorText"))
        return out

    def requests(self):
        """Every URL the page requested (Network.requestWillBeSent)."""
        self._collect(0.05)
        return [m["params"]["request"]["url"] for m in self.events
                if m.get("method") == "Network.requestWillBeSent"]

    def dialogs(self):
        """JS dialogs opened (alert, confirm...): a sign of script injection."""
        self._collect(0.05)
        return [m["params"].get("message") for m in self.events
                if m.get("method") == "Page.javascriptDialogOpening"]

    def axe(self, source):
        """axe-core's violations on this page, the way a person meets it
        now: axe's source (axe.min.js) run through Runtime.evaluate, which
        the page's Content-Security-Policy does not govern and which works
        with the page's own scripts off, then axe.run over the document.
        Each violation: {id, impact, help, helpUrl, targets} (a target: the
        CSS selector of one offending element)."""
        if self.eval("typeof window.axe") != "object":
            self.eval(source, await_promise=False)
        return self.eval(AXE_RUN)

    def fonts(self, selector):
        """The fonts that draw the text of the first element the CSS
        selector finds, as Chromium chose them: [(family, glyphs drawn)].
        A character no font has is drawn as a box by the first font."""
        self.call("DOM.enable")
        self.call("CSS.enable")
        root = self.call("DOM.getDocument")["root"]["nodeId"]
        node = self.call("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        return [(f["familyName"], f["glyphCount"])
                for f in self.call("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        return path

    def close(self):
        try:
            self.b.call("Target.closeTarget", {"targetId": self.target})
        except Exception:
            pass
