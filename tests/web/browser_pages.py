#!/usr/bin/env python3
"""browser_pages.py — issue 16's pages in headless Chromium, from a real
`arbiter serve` and a report on disk (run by test_browser.sh, which
records the tournaments and writes the facts file).

Usage: browser_pages.py BASE_URL FACTS_JSON LIVE_TID REPORT_DIR

Checks, in the DOM: the bracket of a single elimination, a double
elimination and a groups knockout (a box per match, a column per round,
the champion in bold, every box's link answering 200), the standings
rows in `arbiter standings --format json`'s order; a ladder's
leaderboard, rating chart and entrants; the entrant, match, pool and
tournaments pages; a running tournament's page changing without a
reload; the report opened from file:// (relative links to files that
exist, the viewer stepping); a phone's viewport without horizontal
overflow; the static parts without JavaScript; a round robin's, a
swiss's and a gauntlet's pages; the replay viewer served; pages in the
dark colour scheme. On every page: no console error, no request leaving
the origin, no dialog, no accessibility violation of impact serious or
critical by axe-core (its axe.min.js at $ARB_AXE_JS); a screenshot in
$ARB_ARTIFACTS named for what it shows (front-page.png,
double-elim-bracket.png, ladder-chart.png...). Exit 0 when every check
passes, 1 when one fails, 77 without chromium."""
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

check = browser.Checks()
ARTIFACTS = None
AXE = None         # axe-core's source (axe.min.js)
AXE_PAGES = []     # the pages axe-core went over
AXE_BAD = []       # ... and those with a serious or critical violation
AXE_LESSER = {}    # rule id -> pages, for violations of impact moderate or minor
# the screenshots' names for the knockout tournaments of the facts file
KNOCKOUT = {"ko9": "single-elim", "gk9": "groups-knockout", "de4": "double-elim"}


def accessible(p, name):
    """axe-core over the page: no violation of impact serious or critical,
    each one printed with its rule, the elements (CSS selectors) and the
    rule's help page; the lesser ones are kept for the summary line."""
    try:
        found = p.axe(AXE)
    except RuntimeError as e:
        check("%s: axe-core runs on the page (%s)" % (name, e), False)
        return
    AXE_PAGES.append(name)
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    if bad:
        AXE_BAD.append(name)
    for v in bad:
        print("  axe %s: %s (%s) %s\n    on %s\n    %s" % (name, v["id"], v["impact"], v["help"],
                                                       ", ".join(v["targets"][:8]), v["helpUrl"]))
    for v in found:
        if v not in bad:
            AXE_LESSER.setdefault("%s (%s)" % (v["id"], v["impact"]), []).append(name)
    check("%s: no serious or critical accessibility violation %s" % (name, [v["id"] for v in bad]), not bad)


# JS: mark the element holding the page's first Chinese text (data-cjk); that text
CJK_TEXT = """(function () { var w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), t;
  while ((t = w.nextNode())) if (/[\\u3400-\\u9fff]/.test(t.nodeValue)) {
    t.parentElement.setAttribute('data-cjk', ''); return t.nodeValue; }
  return null; })()"""


def cjk_fonts():
    """The font families fontconfig says cover Chinese (fc-list :lang=zh)."""
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout
    except OSError:
        return set()
    return {name.strip() for line in out.splitlines() for name in line.split(",")}


def chinese(p, name):
    """The games' and roles' Chinese names are drawn by a font that has
    them: without one (CI before issue 29) they were boxes in the
    screenshots."""
    text = p.eval(CJK_TEXT)
    check("%s: shows a Chinese name (%r)" % (name, text), text is not None)
    if text is None:
        return
    used = p.fonts("[data-cjk]")
    zh = cjk_fonts()
    check("%s: %r drawn in a font that has Chinese (fonts used %s; with Chinese: %s; "
          "apt-get install fonts-wqy-microhei)" % (name, text, used, sorted(zh)[:4] or "none installed"),
          any(family in zh and n > 0 for family, n in used))


def clean(p, name, origin, shot=None):
    """The checks every page passes: no console error, nothing requested
    outside `origin` (data: URLs aside), no dialog, no serious
    accessibility violation; then its screenshot, SHOT.png (NAME.png)."""
    errs = p.console_errors()
    check("%s: no console error %s" % (name, errs), not errs)
    away = [u for u in p.requests() if not (u.startswith(origin) or u.startswith("data:"))]
    check("%s: no request leaves %s %s" % (name, origin, away), not away)
    check("%s: no dialog %s" % (name, p.dialogs()), not p.dialogs())
    p.screenshot(os.path.join(ARTIFACTS, re.sub(r"[^A-Za-z0-9_.-]", "_", shot or name) + ".png"))
    accessible(p, name)


# JS: the body rows of the table under the <h2> whose text starts with `h`
ROWS_AFTER = """(function (h) {
  var hs = Array.prototype.filter.call(document.querySelectorAll('h2'), function (e) {
    return e.textContent.indexOf(h) === 0; });
  if (!hs.length) return -1;
  var t = hs[0].nextElementSibling && hs[0].nextElementSibling.querySelector('table');
  return t ? t.querySelectorAll('tbody tr').length : -1; })(%s)"""
# JS: the statuses of GETs of every link the selector finds
STATUSES = """Promise.all(Array.prototype.map.call(document.querySelectorAll(%s), function (a) {
  return fetch(a.getAttribute('href')).then(function (r) { return r.status; }, function () { return 0; }); }))"""
NAMES = "Array.prototype.map.call(document.querySelectorAll('#%s tbody tr td:first-of-type'), " \
        "function (td) { return td.textContent.replace(/ \\(forfeited\\)$/, ''); })"
OVERFLOW = "[document.documentElement.scrollWidth, window.innerWidth]"


def open_page(b, url, name, origin, **kw):
    p = b.new_page(**kw)
    p.open(url)
    return p


def bracket(b, base, label, f):
    tid = f["id"]
    p = open_page(b, "%s/t/%d" % (base, tid), "bracket-" + label, base)
    boxes = p.eval("document.querySelectorAll('svg.bracket a rect.box').length")
    check("%s: the bracket has a box per knockout match (%s, want %d)" % (label, boxes, f["knockout_matches"]),
          boxes == f["knockout_matches"] and boxes > 0)
    # from the format alone (schemas/tournament.md): nine at tables of three, one on: 3 + 1
    # matches in 2 rounds; three groups of three, their winners in one final (the group
    # round robins not in the bracket); four teams twice out: 2n - 2 matches, or 2n - 1
    want_boxes, want_rounds = {"ko9": ((4,), 2), "gk9": ((1,), 1), "de4": ((6, 7), None)}[label]
    check("%s: %s boxes for the entrant count (want %s)" % (label, boxes, want_boxes), boxes in want_boxes)
    cols = p.eval("Array.prototype.filter.call(document.querySelectorAll('svg.bracket > text'),"
                  " function (t) { return /^round \\d+$/.test(t.textContent); }).length")
    check("%s: a column per round (%s, want %d)" % (label, cols, f["rounds"]),
          cols == f["rounds"] and cols == (want_rounds or cols))
    rows = f["standings"]["entrants"] if isinstance(f["standings"], dict) else f["standings"]
    n = len(rows)
    # a knockout of tables of k with one advancing: every entrant but the champion loses once
    # (twice in a double elimination); the boxes must hold every entrant's seat
    seats = p.eval("document.querySelectorAll('svg.bracket a text').length")
    check("%s: the boxes seat every entrant of the knockout (%s seats)" % (label, seats), seats >= 2 * boxes)
    # the champion: the entrant placed first (the team, in a team tournament: its boxes name teams)
    units = f["standings"]["teams"] if isinstance(f["standings"], dict) else rows
    champs = [r["name"] for r in units if r.get("reached") == "champion"]
    check("%s: the CLI names a champion %s" % (label, champs), champs and champs[0] == units[0]["name"])
    won = p.eval("Array.prototype.map.call(document.querySelectorAll('svg.bracket text.won'), function (t) {"
                 " return t.textContent; })")
    check("%s: the champion %s is named in bold in the bracket" % (label, champs),
          champs and all(any(w == c or w.startswith(c + " (") for w in won) for c in champs))
    last = p.eval("(function () { var a = document.querySelectorAll('svg.bracket a');"
                  " return Array.prototype.map.call(a[a.length - 1].querySelectorAll('text.won'),"
                  " function (t) { return t.textContent.replace(/ \\(.*$/, ''); }); })()")
    check("%s: the last box's winners are the champion (%s, want %s)" % (label, last, champs),
          sorted(last or []) == sorted(champs))
    st = p.eval(STATUSES % json.dumps("svg.bracket a"))
    check("%s: every box links to a page answering 200 %s" % (label, st), st and all(s == 200 for s in st))
    got = p.eval(NAMES % "standings")
    want = [r["name"] for r in rows]
    check("%s: standings rows in the CLI's order (%s vs %s)" % (label, got, want), got == want and n > 0)
    if isinstance(f["standings"], dict):
        got = p.eval(NAMES % "team-standings")
        want = [r["name"] for r in f["standings"]["teams"]]
        check("%s: team standings in the CLI's order (%s vs %s)" % (label, got, want), got == want)
    clean(p, "bracket-" + label, base, KNOCKOUT[label] + "-bracket")
    href = p.eval("document.querySelector('svg.bracket a').getAttribute('href')")
    p.close()
    # a click on the first box opens its match page
    p = open_page(b, "%s/t/%d" % (base, tid), "click-" + label, base)
    p.eval("document.querySelector('svg.bracket a').dispatchEvent(new MouseEvent('click', {bubbles: true,"
           " cancelable: true, view: window}))")
    try:
        p.wait_for("location.pathname === %s && document.readyState === 'complete' && !!document.querySelector('h1')"
                   % json.dumps(href), timeout=10)
        ok = True
    except TimeoutError:
        ok = False
    check("%s: a click on a bracket box opens %s" % (label, href), ok and p.eval("document.title").startswith("Match"))
    p.close()


def live(b, base, tid):
    p = open_page(b, "%s/t/%s" % (base, tid), "live", base)
    check("live: the running tournament's page subscribes", p.eval("!!document.querySelector('[data-live]')"))
    p.eval("window.__marker = 1")
    done0 = p.eval("document.querySelector('[data-count=done]').textContent")
    played0 = p.eval("Array.prototype.reduce.call(document.querySelectorAll('#standings tbody tr'), function (s, tr)"
                     " { return s + Number(tr.children[2].textContent); }, 0)")
    try:
        p.wait_for("document.querySelector('[data-count=done]').textContent !== %s" % json.dumps(done0), timeout=60)
        moved = True
    except TimeoutError:
        moved = False
    check("live: the matches-done count changes without a reload (from %s)" % done0, moved)
    try:
        p.wait_for("Array.prototype.reduce.call(document.querySelectorAll('#standings tbody tr'), function (s, tr)"
                   " { return s + Number(tr.children[2].textContent); }, 0) > %d" % played0, timeout=30)
        landed = True
    except TimeoutError:
        landed = False
    check("live: a result lands in the standings table (played was %d)" % played0, landed)
    check("live: the status line says it is live (%r)" % p.eval("document.getElementById('live-status').textContent"),
          p.eval("document.getElementById('live-status').textContent").startswith("live:"))
    check("live: the standings names still link to the entrants after a redraw",
          p.eval("document.querySelectorAll('#standings tbody tr td:first-of-type a[href*=\"/e/\"]').length")
          == p.eval("document.querySelectorAll('#standings tbody tr').length"))
    check("live: no reload happened (window.__marker kept)", p.eval("window.__marker") == 1)
    clean(p, "live", base, "round-robin-live")
    p.close()


def ladder(b, base, f):
    p = open_page(b, "%s/l/%d" % (base, f["id"]), "ladder", base)
    n = p.eval("document.querySelectorAll('#leaderboard tbody tr').length")
    check("ladder: a leaderboard row per entry (%s)" % n, n == 3)
    lines = p.eval("document.querySelectorAll('svg.chart polyline, svg.chart path').length")
    check("ladder: the rating-history chart has lines (%s)" % lines, lines >= 1)
    links = p.eval("Array.prototype.map.call(document.querySelectorAll('#leaderboard tbody a'), function (a) {"
                   " return a.href; })")
    check("ladder: each entry links to its page (%s)" % links, len(links) == 3)
    clean(p, "ladder", base, "ladder-chart")
    p.close()
    for i, url in enumerate(links):
        p = open_page(b, url, "ladder-entrant", base)
        check("ladder entrant %s: a heading and its matches (%s rows)" % (url, p.eval(ROWS_AFTER % '"Matches"')),
              p.eval("!!document.querySelector('h1')") and p.eval(ROWS_AFTER % '"Matches"') >= 1)
        clean(p, "ladder-entrant-%d" % i, base)
        p.close()


def pages(b, base, facts):
    ko, mid = facts["ko9"], facts["match"]
    p = open_page(b, base + "/", "index", base)
    hrefs = p.eval("Array.prototype.map.call(document.querySelectorAll('main a'), function (a) {"
                   " return a.getAttribute('href'); })")
    for k in ("ko9", "gk9", "de4"):
        check("index: links to %s" % k, "/t/%d" % facts[k]["id"] in hrefs)
    check("index: links to the ladder as /l/", "/l/%d" % facts["lad"]["id"] in hrefs)
    clean(p, "index", base, "front-page")
    p.close()
    p = open_page(b, "%s/m/%d" % (base, mid), "match", base)
    deals = p.eval(ROWS_AFTER % '"Deals"')
    check("match: a per-deal scores table (%s rows)" % deals, deals == 1)
    check("match: a seat per entrant", p.eval(ROWS_AFTER % '"Seats"') == 3)
    text = p.eval("document.body.innerText")
    check("match: the digest", re.search(r"Digest \(SHA-256\): [0-9a-f]{64}", text) is not None)
    check("match: the signature status", re.search(r"Signature: (signed|unsigned)", text) is not None)
    check("match: links to the replay", p.eval("!!document.querySelector('a[href=\"/m/%d/replay\"]')" % mid))
    clean(p, "match", base)
    p.close()
    e = p = open_page(b, "%s/t/%d" % (base, ko["id"]), "tmp", base)
    ents = p.eval("Array.prototype.map.call(document.querySelectorAll('#standings tbody a'), function (a) {"
                  " return a.href; })")
    e.close()
    for i, url in enumerate(ents[:3] + ents[-1:]):
        p = open_page(b, url, "entrant", base)
        n = p.eval(ROWS_AFTER % '"Matches"')
        check("entrant %s: its matches listed (%s)" % (url, n), n >= 1)
        st = p.eval(STATUSES % json.dumps("main table a[href^='/m/']"))
        check("entrant %s: its match links answer 200 %s" % (url, st), st and all(s == 200 for s in st))
        clean(p, "entrant-%d" % i, base)
        p.close()
    p = open_page(b, base + "/pool", "pool", base)
    check("pool: a heading", p.eval("!!document.querySelector('h1')"))
    clean(p, "pool", base)
    p.close()
    p = open_page(b, "%s/m/%d/replay" % (base, mid), "replay", base)
    try:
        p.wait_for("document.getElementById('arb-viewer').dataset.ready === 'true'", timeout=30)
        ready = True
    except TimeoutError:
        ready = False
    check("replay: the viewer is ready", ready)
    p.key("ArrowRight", 5)
    clean(p, "replay", base, "replay-viewer")
    chinese(p, "replay")
    p.close()


def other_formats(b, base, facts):
    """A round robin's, a swiss's and a gauntlet's pages: a standings row
    per entrant, a row per match in the rounds' tables."""
    for label, shot, entrants in (("rr4", "round-robin", 4), ("sw6", "swiss", 6), ("gt4", "gauntlet", 4)):
        f = facts[label]
        p = open_page(b, "%s/t/%d" % (base, f["id"]), label, base)
        n = p.eval("document.querySelectorAll('#standings tbody tr').length")
        check("%s: a standings row per entrant (%s, want %d)" % (label, n, entrants), n == entrants)
        n = p.eval("document.querySelectorAll('main a[href^=\"/m/\"]').length")
        check("%s: a link per match (%s, want %d)" % (label, n, f["matches"]), n == f["matches"] > 0)
        clean(p, label, base, shot)
        p.close()


def dark(b, base, facts):
    """The dark colour scheme (style.css's prefers-color-scheme: dark) of
    the pages with the most colours: a bracket, the ladder's chart, a
    match, the replay viewer."""
    for shot, path in (("dark-double-elim-bracket", "/t/%d" % facts["de4"]["id"]),
                       ("dark-ladder-chart", "/l/%d" % facts["lad"]["id"]),
                       ("dark-match", "/m/%d" % facts["match"]),
                       ("dark-replay-viewer", "/m/%d/replay" % facts["match"])):
        p = b.new_page()
        p.color_scheme("dark")
        p.open(base + path)
        if "replay" in path:
            p.wait_for("document.getElementById('arb-viewer').dataset.ready === 'true'", timeout=30)
        check("%s: the dark scheme applies" % shot,
              p.eval("matchMedia('(prefers-color-scheme: dark)').matches"))
        clean(p, shot, base)
        p.close()


def phone_and_nojs(b, base, facts):
    mid = facts["match"]
    for name, path in (("single-elim", "/t/%d" % facts["ko9"]["id"]), ("double-elim", "/t/%d" % facts["de4"]["id"]),
                       ("groups-knockout", "/t/%d" % facts["gk9"]["id"]), ("ladder", "/l/%d" % facts["lad"]["id"]),
                       ("match", "/m/%d" % mid), ("index", "/"), ("pool", "/pool"),
                       ("replay", "/m/%d/replay" % mid)):
        p = b.new_page()
        p.viewport(390, 844, mobile=True)
        p.open(base + path)
        if name == "replay":
            p.wait_for("document.getElementById('arb-viewer').dataset.ready === 'true'", timeout=30)
        sw, iw = p.eval(OVERFLOW)
        # against the phone's width too: a mobile viewport zooms out to fit
        # content wider than itself, and innerWidth grows with it
        check("phone %s: no horizontal overflow (scrollWidth %s, innerWidth %s, phone 390)" % (name, sw, iw),
              sw <= iw + 1 and sw <= 391 and iw <= 391)
        clean(p, "phone-" + name, base)
        p.close()
    p = b.new_page()
    p.scripts(False)
    p.open("%s/t/%d" % (base, facts["ko9"]["id"]))
    n = p.eval("document.querySelectorAll('#standings tbody tr').length")
    check("no JS: the standings are in the page (%s rows)" % n, n == len(facts["ko9"]["standings"]))
    check("no JS: the bracket is in the page",
          p.eval("document.querySelectorAll('svg.bracket a rect.box').length") == facts["ko9"]["knockout_matches"])
    # axe-core runs on timers, which need scripts on; the page's own
    # scripts did not run at its load and do not now
    p.scripts(True)
    clean(p, "nojs-tournament", base)
    p.close()
    # the proof that scripts were off: the viewer, which needs them, never starts
    p = b.new_page()
    p.scripts(False)
    p.open("%s/m/%d/replay" % (base, mid))
    time.sleep(1)
    check("no JS: scripts really are off (the viewer did not start)",
          p.eval("document.getElementById('arb-viewer').dataset.ready") != "true")
    p.close()


def report(b, rep, facts):
    mid = facts["match"]
    origin = "file://"
    idx = "file://" + os.path.join(rep, "index.html")
    p = open_page(b, idx, "report-index", origin)
    got = p.eval(NAMES % "standings")
    want = [r["name"] for r in facts["ko9"]["standings"]]
    check("report: standings from disk in the CLI's order (%s)" % got, got == want)
    hrefs = p.eval("Array.prototype.map.call(document.querySelectorAll('a[href], link[href], script[src]'),"
                   " function (a) { return a.getAttribute('href') || a.getAttribute('src'); })")
    rel = [h for h in hrefs if not h.startswith("data:")]
    check("report: every link relative %s" % [h for h in rel if re.match(r"^(/|[a-z]+:)", h)],
          rel and not any(re.match(r"^(/|[a-z]+:)", h) for h in rel))
    missing = [h for h in rel if h != "#" and not os.path.exists(
        os.path.join(rep, urllib.parse.unquote(h.split("#")[0])))]
    check("report: every link resolves to a file %s" % missing, not missing)
    check("report: the bracket is there",
          p.eval("document.querySelectorAll('svg.bracket a rect.box').length") == facts["ko9"]["knockout_matches"])
    clean(p, "report-index", origin)
    p.close()
    p = open_page(b, "file://" + os.path.join(rep, "m", "%d.html" % mid), "report-match", origin)
    hrefs = p.eval("Array.prototype.map.call(document.querySelectorAll('a[href]'), function (a) {"
                   " return a.getAttribute('href'); })")
    missing = [h for h in hrefs if h != "#" and not os.path.exists(
        os.path.normpath(os.path.join(rep, "m", h.split("#")[0])))]
    check("report match: every link resolves to a file %s" % missing, hrefs and not missing)
    clean(p, "report-match", origin)
    p.close()
    p = open_page(b, "file://" + os.path.join(rep, "m", str(mid), "replay.html"), "report-replay", origin)
    try:
        p.wait_for("document.getElementById('arb-viewer').dataset.ready === 'true'", timeout=30)
        ready = True
    except TimeoutError:
        ready = False
    check("report replay: the viewer is ready from file:// (%s)" % p.console_errors(), ready)
    check("report replay: the transcript is one NDJSON string",
          p.eval("typeof window.ARB_TRANSCRIPT") == "string")
    before = p.eval("location.hash")
    p.key("ArrowRight", 5)
    after = p.eval("location.hash")
    check("report replay: steps with ArrowRight (%r -> %r)" % (before, after), after != before and "d=" in after)
    clean(p, "report-replay", origin)
    p.close()


def main():
    global ARTIFACTS, AXE
    base, facts_path, live_tid, rep = sys.argv[1:5]
    if not browser.find_chromium():
        print("chromium not installed: skipped")
        return 77
    if not os.environ.get("ARB_AXE_JS"):
        print("ARB_AXE_JS unset: the path of axe-core's axe.min.js (tests/web/axe_install.sh prints it)")
        return 1
    with open(os.environ["ARB_AXE_JS"]) as f:
        AXE = f.read()
    with open(facts_path) as f:
        facts = json.load(f)
    ARTIFACTS = os.environ.get("ARB_ARTIFACTS") or os.path.join(os.getcwd(), "web-artifacts")
    os.makedirs(ARTIFACTS, exist_ok=True)
    t0 = time.time()
    with browser.Browser() as b:
        live(b, base, live_tid)   # first: the tournament is running now
        for label in ("ko9", "gk9", "de4"):
            bracket(b, base, label, facts[label])
        ladder(b, base, facts["lad"])
        pages(b, base, facts)
        other_formats(b, base, facts)
        dark(b, base, facts)
        phone_and_nojs(b, base, facts)
        report(b, os.path.abspath(rep), facts)
    print("axe-core: %d pages, %d with a serious or critical violation; lesser ones: %s"
          % (len(AXE_PAGES), len(AXE_BAD),
             "; ".join("%s on %d pages" % (k, len(v)) for k, v in sorted(AXE_LESSER.items())) or "none"))
    print("browser pages: %d checks, %d failed, %.0f s; screenshots in %s"
          % (check.count, len(check.failures), time.time() - t0, ARTIFACTS))
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
