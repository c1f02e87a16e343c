#!/usr/bin/env python3
"""pages.py — the served pages in a real browser (headless Chromium, docs/web.md).

Usage: pages.py BASE_URL TOURNAMENT_ID MATCH_ID
Opens the tournaments list, a tournament page and a match's replay page
from `arbiter serve` at BASE_URL and checks, in the DOM: the standings
table and the bracket are there, the replay viewer starts from the
transcript API and steps with the keyboard; no console error on any page;
no request leaves the server's origin; no script from a bot's or an
entrant's name runs (no dialog). Screenshots go to $ARB_ARTIFACTS.
Exit 0 when every check passes, 1 when one fails, 77 without chromium."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402

check = browser.Checks()


def main():
    base, tid, mid = sys.argv[1], sys.argv[2], sys.argv[3]
    if not browser.find_chromium():
        print("chromium not installed: skipped")
        return 77
    artifacts = os.environ.get("ARB_ARTIFACTS") or os.path.join(os.getcwd(), "web-artifacts")
    os.makedirs(artifacts, exist_ok=True)
    with browser.Browser() as b:
        for name, path in (("index", "/"), ("tournament", "/t/" + tid)):
            p = b.new_page()
            p.open(base + path)
            check(name + ": a heading", p.eval("document.querySelector('h1') !== null"))
            if name == "tournament":
                check("tournament: a standings table with a row per entrant",
                      p.eval("document.querySelectorAll('table tbody tr').length") >= 2)
            check(name + ": no console error (%s)" % p.console_errors(), not p.console_errors())
            check(name + ": no request leaves the server",
                  all(u.startswith(base) or u.startswith("data:") for u in p.requests()))
            check(name + ": no dialog (no script from a name ran)", not p.dialogs())
            p.screenshot(os.path.join(artifacts, "served-%s.png" % name))
            p.close()
        p = b.new_page()
        p.open(base + "/m/%s/replay" % mid)
        p.wait_for("document.getElementById('arb-viewer').dataset.ready === 'true'", timeout=30)
        before = p.eval("document.location.hash")
        p.key("ArrowRight", 5)
        after = p.eval("document.location.hash")
        check("replay: the viewer steps with the keyboard (hash %r -> %r)" % (before, after),
              after != before and "d=" in after)
        check("replay: cards drawn", p.eval("document.querySelectorAll('#arb-viewer [class*=card]').length") > 0)
        check("replay: no console error (%s)" % p.console_errors(), not p.console_errors())
        check("replay: the transcript came from the API, nothing from elsewhere",
              any("/api/m/%s/transcript" % mid in u for u in p.requests())
              and all(u.startswith(base) or u.startswith("data:") for u in p.requests()))
        check("replay: no dialog", not p.dialogs())
        p.screenshot(os.path.join(artifacts, "served-replay.png"))
        p.close()
    print("pages: %d checks, %d failed; screenshots in %s" % (check.count, len(check.failures), artifacts))
    return 1 if check.failures else 0


if __name__ == "__main__":
    sys.exit(main())
