#!/usr/bin/env python3
"""test_viewer.py — the replay viewer in a real browser (headless Chromium).

    test_viewer.py ARBITER SOURCE_ROOT BOTS_DIR

Opens web/assets/viewer/viewer.html from file:// with each fixture of
tests/web/fixtures/ as transcript.js (window.ARB_TRANSCRIPT) and checks the
DOM after keyboard steps against what the transcript itself says: the card
counts the referee broadcast (`counts` lines, Dou Dizhu), the cards of each
verdict in the trick, the announced action, a deep link, the one-seat view,
a bot name and a stderr carrying HTML shown as text, no console error and
no request leaving the page's origin. Then plays a 1,000-deal match with
ARBITER, serves it as NDJSON over HTTP (data-src) and as transcript.js, and
requires the viewer to open it in < 1 s. Screenshots go to $ARB_ARTIFACTS.
Exit 77 (skip) without chromium.
"""
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import browser  # noqa: E402

HOSTILE_NAME = "<img src=x onerror=alert(1)>"
HOSTILE_STDERR = "<script>alert(2)</script><b>bold</b>\n"
failures = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def viewer_file(viewer_dir, name):
    """A file of the viewer: viewer.js as the build assembles it (its core
    followed by each game's renderer, $ARB_VIEWER_JS), the rest from the
    sources."""
    if name == "viewer.js" and os.environ.get("ARB_VIEWER_JS"):
        return os.environ["ARB_VIEWER_JS"]
    return os.path.join(viewer_dir, name)


def page_dir(root, name, records, viewer_dir, html_extra=None):
    """A directory with the viewer's assets and transcript.js for records."""
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    for f in ("viewer.html", "viewer.css", "viewer.js"):
        shutil.copy(viewer_file(viewer_dir, f), d)
    with open(os.path.join(d, "transcript.js"), "w") as f:
        f.write("window.ARB_TRANSCRIPT = ")
        json.dump(records, f, separators=(",", ":"))
        f.write(";\n")
    return d


def expected_steps(records):
    """Per game, per decision: (seat, action, counts after it or None)."""
    games, cur, bot_at = [], None, []
    for r in records:
        t = r["type"]
        if t == "deal":
            cur = {"decisions": []}
            games.append(cur)
            bot_at = r["bot_at"]
        elif cur is None:
            continue
        elif t == "verdict":
            cur["decisions"].append({"decision": r["decision"], "seat": r["seat"],
                                     "action": r["action"], "counts": None,
                                     "by_referee": r["by_referee"]})
        elif t == "send" and r["line"].startswith("counts ") and cur["decisions"]:
            cur["decisions"][-1]["counts"] = [int(x) for x in r["line"].split()[1:]]
    return games


JS_STATE = """(() => {
  const seats = [...document.querySelectorAll('#table .seat')].map(s => ({
    shown: s.querySelectorAll(':scope > ul.cards > li.card:not(.back)').length,
    backs: s.querySelectorAll(':scope > ul.cards > li.card.back').length,
    name: s.querySelector('.name').textContent}));
  const last = document.querySelector('#trick > ol > li:last-child');
  return {seats, announce: document.getElementById('announce').textContent,
          position: document.getElementById('position').textContent,
          hash: location.hash,
          trick: last ? [...last.querySelectorAll('.card .rank')].map(e => e.textContent + (e.nextElementSibling ? e.nextElementSibling.textContent : '')) : [],
          trickText: last ? last.textContent : ''};
})()"""

SUIT = {"S": "\u2660", "H": "\u2665", "C": "\u2663", "D": "\u2666"}


def shown_cards(game, text):
    """How the viewer writes the cards of a play (rank, then the suit symbol)."""
    text = text.split(" ", 1)[1] if " " in text else text
    out = []
    if game == "dabang":
        for i in range(0, len(text), 2):
            c = text[i:i + 2].upper()
            out.append("JKR" + ("\u2605" if c == "RJ" else "\u2606") if c in ("BJ", "RJ")
                       else ("10" if c[0] == "T" else c[0]) + SUIT[c[1]])
    else:
        for c in text:
            if c == "+":
                continue
            out.append("JKR" + ("\u2605" if c == "R" else "\u2606") if c in "BR" else ("10" if c == "T" else c))
    return out


def test_fixture(b, root, viewer_dir, name, records, game, artifacts):
    d = page_dir(root, name, records, viewer_dir)
    url = "file://" + d + "/viewer.html"
    p = b.new_page()
    p.open(url)
    p.wait_for("document.getElementById('viewer').dataset.ready === 'true'")
    games = expected_steps(records)
    g0 = games[0]["decisions"]
    nseats = len(p.eval(JS_STATE)["seats"])
    # Step through game 0 with the keyboard, checking every decision.
    steps_ok = True
    for i, dec in enumerate(g0):
        p.key("ArrowRight")
        st = p.eval(JS_STATE)
        if dec["action"] not in st["announce"] or ("decision %d" % dec["decision"]) not in st["announce"].lower():
            steps_ok = False
            check(False, "%s: decision %d announced as %r" % (name, dec["decision"], st["announce"]))
            break
        if dec["counts"] is not None:
            got = [s["shown"] for s in st["seats"]]
            if got != dec["counts"]:
                steps_ok = False
                check(False, "%s: decision %d: hands %s, the referee's counts %s" % (name, dec["decision"], got, dec["counts"]))
                break
        if dec["action"].startswith("play "):
            want = shown_cards(game, dec["action"])
            if st["trick"] != want:
                steps_ok = False
                check(False, "%s: decision %d: trick shows %s, expected %s" % (name, dec["decision"], st["trick"], want))
                break
        if i == len(g0) // 3:
            p.screenshot(os.path.join(artifacts, "viewer-%s-step.png" % name))
    check(steps_ok, "%s: every decision of game 0 stepped with → (%d decisions)" % (name, len(g0)))
    p.key("End")
    st = p.eval(JS_STATE)
    if game == "dabang":
        check(all(s["shown"] == 0 for s in st["seats"]), "%s: every hand empty at the deal's end: %s" % (name, st["seats"]))
    else:
        check(min(s["shown"] for s in st["seats"]) == 0, "%s: a hand empty at the deal's end" % name)
    check(st["hash"] == "#g=0&d=%d" % g0[-1]["decision"], "%s: hash follows the steps: %s" % (name, st["hash"]))
    # End/Home/PageDown/[ keys
    p.key("Home")
    check(p.eval(JS_STATE)["hash"] == "#g=0&d=0", name + ": Home goes to the deal's start")
    p.key("End")
    check(p.eval(JS_STATE)["hash"] == "#g=0&d=%d" % g0[-1]["decision"], name + ": End goes to the deal's end")
    p.key("PageDown")
    check(p.eval(JS_STATE)["hash"] == "#g=1&d=0", name + ": PageDown goes to the next deal")
    p.key("[")
    check(p.eval(JS_STATE)["hash"] == "#g=0&d=0", name + ": [ goes to the previous deal")
    p.key("?")
    check(p.eval("document.getElementById('help').open") is True, name + ": ? opens the key help")
    # The buttons are buttons.
    check(p.eval("[...document.querySelectorAll('nav.controls button')].length") == 6, name + ": six step buttons")
    p.eval("document.getElementById('b-next').click()")
    check(p.eval("location.hash") == "#g=0&d=1", name + ": the next button steps")
    # A deep link to game 1, a middle decision, one seat's view.
    g1 = games[1]["decisions"]
    mid = g1[len(g1) // 2]
    seat = (mid["seat"] + 1) % nseats
    p.open(url + "#g=1&d=%d&seat=%d" % (mid["decision"], seat))
    p.wait_for("document.getElementById('viewer').dataset.ready === 'true'")
    st = p.eval(JS_STATE)
    check(mid["action"] in st["announce"] and ("decision %d" % mid["decision"]) in st["announce"].lower(),
          "%s: the deep link restores decision %d of game 1: %r" % (name, mid["decision"], st["announce"]))
    check("Deal 2" in st["position"], name + ": the deep link restores the deal: " + st["position"])
    others = [s for i, s in enumerate(st["seats"]) if i != seat]
    check(all(s["shown"] == 0 and s["backs"] > 0 for s in others) and st["seats"][seat]["shown"] > 0,
          "%s: seat %d's view hides the other hands: %s" % (name, seat, st["seats"]))
    check(p.eval("document.getElementById('seat-view').value") == str(seat), name + ": the seat select follows the link")
    p.key("a")
    st = p.eval(JS_STATE)
    check(all(s["backs"] == 0 for s in st["seats"]), name + ": 'a' shows every hand again")
    p.screenshot(os.path.join(artifacts, "viewer-%s-deeplink.png" % name))
    errors = p.console_errors()
    check(not errors, "%s: no console errors: %s" % (name, errors))
    bad = [u for u in p.requests() if not u.startswith("file://" + d + "/")]
    check(not bad, "%s: no request leaves the page's directory: %s" % (name, bad))
    check(not p.dialogs(), name + ": no dialog opened")
    p.close()


def test_hostile(b, root, viewer_dir, records, artifacts):
    recs = json.loads(json.dumps(records))
    recs[0]["config"]["bots"][1]["name"] = HOSTILE_NAME
    for r in recs:
        if r["type"] == "botend" and r["bot"] == 1:
            r["stderr"] = HOSTILE_STDERR
        if r["type"] == "penalty":
            r["detail"] = HOSTILE_NAME + " " + r["detail"]
    d = page_dir(root, "hostile", recs, viewer_dir)
    p = b.new_page()
    p.open("file://" + d + "/viewer.html")
    p.wait_for("document.getElementById('viewer').dataset.ready === 'true'")
    names = p.eval("[...document.querySelectorAll('.name, .bot-name')].map(e => e.textContent)")
    check(HOSTILE_NAME in names, "hostile: the name is shown as text: %s" % names)
    p.eval("document.getElementById('bots').open = true; document.querySelectorAll('#bots details').forEach(d => d.open = true)")
    check(HOSTILE_STDERR in p.eval("[...document.querySelectorAll('pre.stderr')].map(e => e.textContent).join('')"),
          "hostile: stderr shown as text")
    pen = [r for r in recs if r["type"] == "penalty"][0]
    p.open("file://" + d + "/viewer.html#g=%d&d=%d" % (pen["game"], pen["decision"]))
    p.wait_for("document.getElementById('viewer').dataset.ready === 'true'")
    check(HOSTILE_NAME in p.eval("document.getElementById('penalties').textContent"), "hostile: penalty detail as text")
    check(p.eval("document.querySelectorAll('img, script:not([src]), b').length") == 0,
          "hostile: no element created from bot text")
    check(not p.dialogs(), "hostile: no alert ran")
    errors = p.console_errors()
    check(not errors, "hostile: no console errors: %s" % errors)
    p.screenshot(os.path.join(artifacts, "viewer-hostile.png"))
    p.close()


def test_penalty(b, root, viewer_dir, records, artifacts):
    d = page_dir(root, "penalty", records, viewer_dir)
    p = b.new_page(width=390, height=844, mobile=True)  # a phone
    timeout = [r for r in records if r["type"] == "penalty" and r["reason"] == "timeout"][0]
    p.open("file://" + d + "/viewer.html#g=%d&d=%d" % (timeout["game"], timeout["decision"]))
    p.wait_for("document.getElementById('viewer').dataset.ready === 'true'")
    ann = p.eval("document.getElementById('announce').textContent")
    check("penalty: timeout, autoplay" in ann and "played by the referee" in ann, "penalty: announced: %r" % ann)
    cur = p.eval("[...document.querySelectorAll('#penalties li.current')].map(e => e.textContent)")
    check(len(cur) == 1 and timeout["detail"] in cur[0], "penalty: the current penalty listed with its detail: %s" % cur)
    check(p.eval("document.querySelector('#penalties').textContent.includes('illegal')"), "penalty: earlier illegal reply listed")
    check(p.eval("document.querySelector('#clocks tr.actor').textContent.includes('timeout')"), "penalty: the clock row says timeout")
    wide = p.eval("document.documentElement.scrollWidth <= window.innerWidth + 1")
    check(wide, "penalty: no horizontal scroll on a 390 px phone")
    p.eval("document.getElementById('bots').open = true")
    check("killed by SIGKILL" in p.eval("document.getElementById('bots').textContent"), "penalty: bot exit status decoded")
    p.screenshot(os.path.join(artifacts, "viewer-penalty-phone.png"))
    errors = p.console_errors()
    check(not errors, "penalty: no console errors: %s" % errors)
    p.close()


def test_big(b, root, viewer_dir, arbiter, bots, artifacts):
    arbt = os.path.join(root, "big.arbt")
    bot = os.path.join(bots, "random_bot")
    subprocess.run([arbiter, "match", "--deals", "1000", "--seed", "3", "--quiet",
                    "--bot", "a=" + bot, "--bot", "b=" + bot, "--bot", "c=" + bot,
                    "--transcript", arbt], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    d = os.path.join(root, "big")
    os.makedirs(d)
    with open(os.path.join(d, "big.jsonl"), "w") as f:
        subprocess.run([arbiter, "replay", arbt, "--json"], check=True, stdout=f)
    for fn in ("viewer.css", "viewer.js"):
        shutil.copy(viewer_file(viewer_dir, fn), d)
    html = open(os.path.join(viewer_dir, "viewer.html")).read()
    html = html.replace('data-src="transcript.jsonl"', 'data-src="big.jsonl"').replace(
        '<script src="transcript.js"></script>\n', "")
    open(os.path.join(d, "served.html"), "w").write(html)
    size = os.path.getsize(os.path.join(d, "big.jsonl"))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass
    handler = functools.partial(Quiet, directory=d)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    origin = "http://127.0.0.1:%d/" % httpd.server_address[1]
    figures = {}
    try:
        p = b.new_page()
        p.open(origin + "served.html")
        p.wait_for("document.getElementById('viewer').dataset.ready === 'true'", timeout=30)
        figures["ndjson_open_ms"] = p.eval("window.ARB_VIEWER_OPEN_MS")
        for k, v in p.eval("window.ARB_VIEWER_TIMINGS").items():
            figures["ndjson_" + k] = v
        figures["ndjson_since_navigation_ms"] = p.eval("performance.now()")
        check(p.eval("document.getElementById('position').textContent").startswith("Deal 1 of 1000"), "big: 1000 deals indexed")
        t = time.time()
        p.key("End")
        p.key("PageDown")
        p.key("End")
        figures["two_deals_ms"] = round((time.time() - t) * 1000, 1)
        p.open(origin + "served.html#g=999&d=5")
        p.wait_for("document.getElementById('viewer').dataset.ready === 'true'", timeout=30)
        check("Deal 1000 of 1000" in p.eval("document.getElementById('position').textContent"), "big: deep link to the last deal")
        figures["ndjson_deeplink_last_deal_ms"] = p.eval("window.ARB_VIEWER_OPEN_MS")
        bad = [u for u in p.requests() if not u.startswith(origin)]
        check(not bad, "big: no request leaves the origin: %s" % bad)
        errors = p.console_errors()
        check(not errors, "big: no console errors: %s" % errors)
        p.screenshot(os.path.join(artifacts, "viewer-big.png"))
        p.close()
    finally:
        httpd.shutdown()
    # The same transcript as transcript.js (a static report, file://).
    recs = load(os.path.join(d, "big.jsonl"))
    dj = page_dir(root, "bigjs", recs, viewer_dir)
    p = b.new_page()
    p.open("file://" + dj + "/viewer.html")
    p.wait_for("document.getElementById('viewer').dataset.ready === 'true'", timeout=60)
    figures["js_open_ms"] = p.eval("window.ARB_VIEWER_OPEN_MS")
    figures["js_since_navigation_ms"] = p.eval("performance.now()")
    p.close()
    # ... and as one NDJSON string (what a static report should write).
    with open(os.path.join(dj, "transcript.js"), "w") as f:
        f.write("window.ARB_TRANSCRIPT = ")
        with open(os.path.join(d, "big.jsonl")) as src:
            json.dump(src.read(), f)
        f.write(";\n")
    p = b.new_page()
    p.open("file://" + dj + "/viewer.html#g=500&d=3")
    p.wait_for("document.getElementById('viewer').dataset.ready === 'true'", timeout=60)
    figures["jsstring_open_ms"] = p.eval("window.ARB_VIEWER_OPEN_MS")
    figures["jsstring_since_navigation_ms"] = p.eval("performance.now()")
    check("Deal 501 of 1000" in p.eval("document.getElementById('position').textContent"), "big: string transcript.js deep link")
    check(not p.console_errors(), "big: string transcript.js: no console errors")
    p.close()
    for k in figures:
        figures[k] = round(figures[k], 1)
    print("1,000-deal transcript (%d records, %.1f MB): %s" % (len(recs), size / 1e6, json.dumps(figures)))
    check(figures["ndjson_open_ms"] < 1000, "big: opened from NDJSON in < 1 s (%s ms)" % figures["ndjson_open_ms"])
    check(figures["js_open_ms"] < 1000, "big: opened from transcript.js in < 1 s (%s ms)" % figures["js_open_ms"])
    check(figures["jsstring_open_ms"] < 1000, "big: opened from an NDJSON string in < 1 s (%s ms)" % figures["jsstring_open_ms"])
    with open(os.path.join(artifacts, "viewer-big-timings.json"), "w") as f:
        json.dump(figures, f)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    arbiter, src_root, bots = sys.argv[1:4]
    if not browser.find_chromium():
        print("chromium not installed: skipped")
        return 77
    viewer_dir = os.path.join(src_root, "web/assets/viewer")
    fixtures = os.path.join(src_root, "tests/web/fixtures")
    artifacts = (os.environ.get("ARB_ARTIFACTS") or os.environ.get("ARB_ARTIFACTS_DEFAULT")
                 or os.path.join(os.getcwd(), "web-artifacts"))
    os.makedirs(artifacts, exist_ok=True)
    root = tempfile.mkdtemp(prefix="arb-viewer-")
    try:
        with browser.Browser() as b:
            for name, game in (("ddz3", "doudizhu"), ("ddz4", "doudizhu"), ("dabang", "dabang")):
                test_fixture(b, root, viewer_dir, name, load(os.path.join(fixtures, name + ".jsonl")), game, artifacts)
            test_hostile(b, root, viewer_dir, load(os.path.join(fixtures, "penalty.jsonl")), artifacts)
            test_penalty(b, root, viewer_dir, load(os.path.join(fixtures, "penalty.jsonl")), artifacts)
            if os.environ.get("ARB_VIEWER_SKIP_BIG") != "1":
                test_big(b, root, viewer_dir, arbiter, bots, artifacts)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("viewer: %d checks, %d failed; screenshots in %s" % (checks, len(failures), artifacts))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
