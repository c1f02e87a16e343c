#!/usr/bin/env python3
"""content_check.py — what the pages and their JSON say (issue 29, "pages
fit to publish"), from a running `arbiter serve`, against the record (psql)
and the CLI. Standard library only; no browser (tests/web/browser_pages.py
drives Chromium).

Usage: content_check.py BASE_URL CONNINFO DE GK LADDER STUB
  DE      a Da Bang double elimination of four teams of two
  GK      a groups→knockout with a bye in its knockout
  LADDER  a ladder of more than ARB_WEB_RANK_WINDOW (20) matches
  STUB    a round robin where one bot stays running after "end"
Prints FAIL lines and a summary; exits 0 when every check passed."""
import html.parser
import json
import re
import subprocess
import sys
import urllib.request

BASE, DB = sys.argv[1], sys.argv[2]
DE, GK, LA, STUB = (int(x) for x in sys.argv[3:7])
passed = failed = 0


def check(what, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}{': ' + str(detail)[:600] if detail else ''}", flush=True)
    return cond


def psql(query):
    return subprocess.run(["psql", DB, "-qAtF", "\t", "-c", query], capture_output=True, check=True,
                          text=True).stdout.rstrip("\n")


def rows(query):
    out = psql(query)
    return [line.split("\t") for line in out.split("\n")] if out else []


def get(path):
    with urllib.request.urlopen(BASE + path, timeout=30) as r:
        return r.read().decode("utf-8")


def api(path):
    return json.loads(get("/api" + path))


class Dom(html.parser.HTMLParser):
    """Every element: tag, attributes, its own text, and its ancestors' tags
    and ids/classes (enough to find "a text in a box of svg.bracket")."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elems, self.stack = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": "", "up": list(self.stack)}
        self.elems.append(e)
        if tag not in ("meta", "link", "br", "rect", "path", "circle", "polyline", "input", "img"):
            self.stack.append(e)

    def handle_startendtag(self, tag, attrs):
        self.elems.append({"tag": tag, "attrs": dict(attrs), "text": "", "up": list(self.stack)})

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        if self.stack:
            self.stack[-1]["text"] += data

    def within(self, e, tag, cls=None, id_=None):
        return any(u["tag"] == tag and (cls is None or cls in u["attrs"].get("class", "").split())
                   and (id_ is None or u["attrs"].get("id") == id_) for u in e["up"])

    def find(self, tag, **kw):
        return [e for e in self.elems if e["tag"] == tag
                and all(k == "up" or e["attrs"].get(k.rstrip("_")) == v for k, v in kw.items())]


def table_rows(dom, table_id):
    """The rows of a table as lists of cell texts (th and td)."""
    out = []
    for tr in [e for e in dom.elems if e["tag"] == "tr" and dom.within(e, "table", id_=table_id)
               and not dom.within(e, "thead")]:
        out.append([c["text"].strip() + "".join(x["text"] for x in dom.elems if x["up"] and x["up"][-1] is c)
                    for c in dom.elems if c["tag"] in ("th", "td") and c["up"] and c["up"][-1] is tr])
    return out


# ---- partnership: a double elimination of four teams -------------------------

def boxes(dom):
    """The bracket's boxes: (code, [row texts], rect) of each, drawn order."""
    out = []
    for e in dom.elems:
        if e["tag"] == "rect" and dom.within(e, "svg", cls="bracket"):
            parent = e["up"][-1]
            texts = [x for x in dom.elems if x["tag"] == "text" and x["up"] and x["up"][-1] is parent]
            code = [t["text"] for t in texts if t["attrs"].get("class") == "code"]
            drop = [t["text"] for t in texts if t["attrs"].get("class") == "drop"]
            names = [t for t in texts if t["attrs"].get("class") in (None, "won")]
            a = e["attrs"]
            out.append({"code": code[0] if code else "", "drop": drop[0] if drop else "",
                        "rows": [t["text"] for t in names], "won": [t["text"] for t in names if t["attrs"].get("class") == "won"],
                        "kind": a.get("class"), "x": int(a["x"]), "y": int(a["y"]), "w": int(a["width"]),
                        "h": int(a["height"]), "link": parent["tag"] == "a"})
    return out


def box_at(bs, x, y, right):
    for b in bs:
        if (b["x"] + b["w"] if right else b["x"]) == x and b["y"] <= y <= b["y"] + b["h"]:
            return b
    return None


def double_elimination():
    t = api(f"/t/{DE}")
    page = get(f"/t/{DE}")
    dom = Dom(page)
    teams = [r["name"] for r in t["standings"]["teams"]]
    members = [r["name"] for r in t["standings"]["entrants"]]
    check("de4: four teams of two", len(teams) == 4 and len(members) == 8, (teams, members))
    bs = [b for b in boxes(dom) if b["link"]]
    names = [re.sub(r" \(.*$", "", r) for b in bs for r in b["rows"]]
    check("de4: the bracket's boxes name teams, two a box (%s)" % names,
          bs and all(len(b["rows"]) == 2 for b in bs) and set(names) <= set(teams) and not set(names) & set(members))
    check("de4: a box per match", len(bs) == len(t["matches"]), (len(bs), len(t["matches"])))
    champion = [r["name"] for r in t["standings"]["teams"] if r["reached"] == "champion"]
    last = [re.sub(r" \(.*$", "", w) for w in bs[-1]["won"]] if bs else []
    check("de4: the champion team in bold in the last box (%s, want %s)" % (last, champion), last == champion)
    # the team crosstable, as the record's team_crosstable view has it
    want = {}
    for a, b, m, won, pts in rows(f"SELECT ta.name, tb.name, x.matches, x.won, x.points FROM team_crosstable x "
                                  f"JOIN teams ta ON ta.tournament_id = x.tournament_id AND ta.idx = x.team "
                                  f"JOIN teams tb ON tb.tournament_id = x.tournament_id AND tb.idx = x.opponent "
                                  f"WHERE x.tournament_id = {DE}"):
        lost = int(m) - int(won) - round((float(pts) - int(won)) * 2)
        want[(a, b)] = (int(m), int(won), lost)
    got = {(x["entrant"], x["opponent"]): (x["matches"], x["won"], x["lost"]) for x in t.get("crosstable", [])}
    check("de4: JSON crosstable_of is teams", t.get("crosstable_of") == "teams", t.get("crosstable_of"))
    check("de4: the JSON crosstable is the record's team crosstable (teams × teams)", got == want and want, (got, want))
    check("de4: no partners scored against each other in the JSON",
          all(a in teams and b in teams and a != b for a, b in got), list(got))
    grid = table_rows(dom, "team-crosstable")
    check("de4: the page has the teams × teams crosstable (%d rows)" % len(grid), len(grid) == 4)
    ok = True
    for i, r in enumerate(grid):
        for j, cell in enumerate(r[1:]):
            w = want.get((teams[i], teams[j]))
            ok = ok and cell == ("×" if i == j else "%d-%d" % w[1:] if w else "·")
    check("de4: each cell of it is the row team's wins-losses against the column's", ok, grid)
    check("de4: no member crosstable (partners are not opponents)", not table_rows(dom, "crosstable"))
    tm = t.get("team_matches", [])
    check("de4: JSON team_matches, a match each with its two teams",
          len(tm) == len(t["matches"]) and all(len(m["seats"]) == 2 and {s["name"] for s in m["seats"]} <= set(teams)
                                              for m in tm), tm[:2])
    # placement names: a double elimination has no semi- or quarter-final
    reached = [r["reached"] for r in t["standings"]["teams"]]
    check("de4: stages reached are double elimination's (%s)" % reached,
          reached[0] == "champion" and reached[1] == "final" and reached[2] == "losers' final"
          and all(not re.search("semi|quarter", x) for x in reached))
    check("de4: the page names no quarter-final", "quarter-final" not in page)
    # sections and drops
    texts = [e["text"] for e in dom.elems if e["tag"] == "text" and dom.within(e, "svg", cls="bracket")]
    for label in ("Winners' bracket", "Losers' bracket", "Grand final"):
        check(f"de4: the bracket says {label!r}", label in texts, texts)
    codes = [b["code"] for b in bs]
    check("de4: each match box has its code (W1.., L1.., Grand final) %s" % codes,
          all(re.fullmatch(r"[WL]\d+|Grand final|Grand final reset", c) for c in codes)
          and any(c.startswith("W") for c in codes) and any(c.startswith("L") for c in codes))
    wl = [b for b in bs if b["code"].startswith("W")]
    check("de4: each winners' box says where its loser drops (%s)" % [b["drop"] for b in wl],
          wl and all(re.fullmatch(r"loser → L\d+", b["drop"]) for b in wl))
    check("de4: the drops name losers' boxes that exist",
          all(b["drop"][len("loser → "):] in codes for b in wl))
    # connectors: orthogonal, from a box's right edge to the next box's left; a winners'
    # box leads only to a winners' box or the grand final (a drop is a label, not a line)
    bad = []
    for p in [e for e in dom.elems if e["tag"] == "path" and dom.within(e, "svg", cls="bracket")]:
        m = re.fullmatch(r"M(\d+) (\d+)H(\d+)V(\d+)H(\d+)", p["attrs"].get("d", ""))
        if not m or p["attrs"].get("fill") != "none":
            bad.append(p["attrs"])
            continue
        x1, y1, _, y2, x2 = map(int, m.groups())
        a, b = box_at(bs, x1, y1, True), box_at(bs, x2, y2, False)
        if not a or not b or (a["code"].startswith("W") and b["code"].startswith("L")):
            bad.append((p["attrs"]["d"], a and a["code"], b and b["code"]))
    check("de4: every line an unfilled orthogonal elbow from a box to the next, none across to the losers'", not bad, bad)


# ---- groups then knockout: the groups and a bye -----------------------------

def groups_knockout():
    t = api(f"/t/{GK}")
    dom = Dom(get(f"/t/{GK}"))
    bs = boxes(dom)
    ko = [m for m in t["matches"] if m["stage"] != "group"]
    group_m = [m for m in t["matches"] if m["stage"] == "group"]
    groups = [b for b in bs if b["kind"] == "group"]
    texts = [e["text"] for e in dom.elems if e["tag"] == "text" and dom.within(e, "svg", cls="bracket")]
    check("gk: the bracket has its groups column", "Groups" in texts, texts[:5])
    # the groups from the record: entrants who shared a group table
    parent = {}

    def root(u):
        while parent.setdefault(u, u) != u:
            u = parent[u]
        return u
    for m in group_m:
        first = m["seats"][0]["entrant"]
        for s in m["seats"]:
            parent[root(s["entrant"])] = root(first)
    name = {s["entrant"]: s["name"] for m in t["matches"] for s in m["seats"]}
    want = sorted(sorted(name[u] for u in parent if root(u) == r) for r in {root(u) for u in parent})
    got = sorted(sorted(re.sub(r" \(.*$", "", r) for r in b["rows"]) for b in groups)
    check("gk: a box per group with its members (%s)" % got, got == want and len(want) >= 2, want)
    qualified = sorted({s["name"] for m in ko for s in m["seats"]})
    marked = sorted(re.sub(r" \(.*$", "", w) for b in groups for w in b["won"])
    check("gk: the qualifiers marked in their groups (%s)" % marked, marked == qualified)
    check("gk: each qualifier says so", all("✓ qualified" in w for b in groups for w in b["won"]))
    first_ko = min(m["round"] for m in ko)
    byes = sorted({s["name"] for m in ko for s in m["seats"]
                   if min(x["round"] for x in ko if any(y["name"] == s["name"] for y in x["seats"])) > first_ko})
    shown = sorted(r for b in bs if b["kind"] == "bye" for r in b["rows"])
    check("gk: the knockout has a bye (%s)" % byes, byes)
    check("gk: each bye is a box of the bracket (%s, want %s)" % (shown, byes), shown == byes)
    check("gk: a box per knockout match", sum(1 for b in bs if b["link"]) == len(ko))


# ---- a ladder: the chart and the leaderboard --------------------------------

NUM = re.compile(r"-?\d+\.\d{3,}")


def ladder():
    page = get(f"/l/{LA}")
    dom = Dom(page)
    svg = [e for e in dom.elems if dom.within(e, "svg", cls="chart")]
    check("ladder: a chart", svg)
    unfilled = [e["attrs"] for e in svg if e["tag"] in ("path", "polyline") and e["attrs"].get("fill") != "none"]
    check("ladder: every path and line of the chart unfilled (no black triangle)", not unfilled, unfilled)
    shown = [e["text"] for e in svg if e["tag"] == "text"]
    check("ladder: no number with more than two decimals drawn (%s)" % [t for t in shown if NUM.search(t)],
          not any(NUM.search(t) for t in shown))
    check("ladder: no negative zero drawn", not any(re.search(r"(^|[^\d])-0(\.0*)?($|[^\d.])", t) for t in shown), shown)
    ticks = [float(e["text"]) for e in svg if e["tag"] == "text" and e["attrs"].get("class") == "tick"
             and e["attrs"].get("text-anchor") == "end"]
    steps = {round(b - a, 9) for a, b in zip(ticks, ticks[1:])}
    check("ladder: y ticks at round values, evenly spaced (%s)" % ticks,
          len(ticks) >= 3 and len(steps) == 1 and any(abs(s / m - round(s / m)) < 1e-9 and round(s / m) in (1, 2, 5)
                                                         for s in steps for m in (0.01, 0.1, 1, 10, 100) if s / m >= 1))
    labels = [e["text"] for e in svg if e["tag"] == "text" and e["attrs"].get("class") == "label"]
    check("ladder: both axes named (%s)" % labels, len(labels) == 2 and any("μ" in x for x in labels))
    j = api(f"/l/{LA}")
    lb = j["leaderboard"]
    legend = [re.sub(r" \(.*$", "", e["text"]) for e in svg if e["tag"] == "text" and e["attrs"].get("class") == "legend"]
    check("ladder: a legend naming each line, the leaders (%s)" % legend, legend == [x["name"] for x in lb[:10]])
    tips = [e["text"] for e in svg if e["tag"] == "title"]
    check("ladder: full values in the chart's tooltips",
          any(str(x["mu"]) in t for x in lb for t in tips), tips[:3])
    grid = table_rows(dom, "leaderboard")
    check("ladder: μ and σ on the page to two decimals",
          grid and all(re.fullmatch(r"-?\d+\.\d\d", r[5]) and re.fullmatch(r"\d+\.\d\d", r[6]) for r in grid), grid[:2])
    check("ladder: each with its full value in the JSON", all(isinstance(x["mu"], float) for x in lb))
    # rank changes over the last 20 matches, recomputed here from the record
    window = j.get("rank_window")
    check("ladder: rank_window is 20", window == 20, window)
    last = [r[0] for r in rows(f"SELECT id FROM matches WHERE tournament_id = {LA} AND state = 'done' "
                               f"ORDER BY finished_at DESC, id DESC LIMIT 20")]
    hist = rows(f"SELECT entrant, mu_before, sigma_before FROM rating_history WHERE match_id IN ({','.join(last)}) "
                f"ORDER BY seq")
    before, count = {}, {}
    for e, mu, sg in hist:
        before.setdefault(int(e), float(mu) - 3 * float(sg))
        count[int(e)] = count.get(int(e), 0) + 1
    old = []
    for x in lb:
        g = x["games"] - count.get(x["entrant"], 0)
        if g > 0:
            score = before.get(x["entrant"], x["mu"] - 3 * x["sigma"])
            old.append((0 if g >= 2 else 1, -score, x["entrant"]))
    prev = {e: i + 1 for i, (_, _, e) in enumerate(sorted(old))}
    got = {x["entrant"]: (x["previous_rank"], x["rank_change"]) for x in lb}
    want = {x["entrant"]: (prev.get(x["entrant"]), prev[x["entrant"]] - x["rank"] if x["entrant"] in prev else None)
            for x in lb}
    check("ladder: previous_rank and rank_change as the record says (%s)" % got, got == want, want)
    check("ladder: someone has a rank from before the window", any(v[0] for v in got.values()))
    moves = {r[2]: r[1] for r in grid}
    ok = all(moves.get(x["name"]) == ("new" if x["rank_change"] is None else "–" if x["rank_change"] == 0 else
                                     ("▲" if x["rank_change"] > 0 else "▼") + str(abs(x["rank_change"]))) for x in lb)
    check("ladder: the page's Move column says the same (%s)" % moves, ok)
    # form: the last five results, W first at the table, L last, D neither
    seats = rows(f"SELECT s.entrant, s.rank, min(s.rank) OVER w, max(s.rank) OVER w FROM match_seats s "
                 f"JOIN matches m ON m.id = s.match_id WHERE m.tournament_id = {LA} AND m.state = 'done' "
                 f"WINDOW w AS (PARTITION BY s.match_id) ORDER BY m.finished_at, m.id")
    res = {}
    for e, rk, lo, hi in seats:
        res.setdefault(int(e), []).append("D" if lo == hi else "W" if rk == lo else "L" if rk == hi else "D")
    got = {x["entrant"]: x["form"] for x in lb}
    want = {x["entrant"]: res.get(x["entrant"], [])[-5:] for x in lb}
    check("ladder: form is each entry's last five results, oldest first (%s)" % got, got == want, want)
    check("ladder: the page's Form column says the same",
          {r[2]: r[8] for r in grid} == {x["name"]: "".join(x["form"]) for x in lb}, grid)


# ---- a match: seeds, and how the bots ended ---------------------------------

def match():
    mid = int(psql(f"SELECT min(id) FROM matches WHERE tournament_id = {STUB}"))
    lines = [json.loads(x) for x in get(f"/api/m/{mid}/transcript").splitlines() if x]
    deals = [r for r in lines if r["type"] == "deal"]
    check("match: seeds are strings of digits in the transcript's JSON lines",
          deals and all(isinstance(r["seed"], str) and r["seed"].isdigit() for r in deals)
          and isinstance(lines[0]["config"]["seed"], str), deals[:1])
    want = [int(x) % 2 ** 64 for x in psql(f"SELECT seed FROM deals WHERE match_id = {mid} ORDER BY game").split()]
    check("match: each seed exactly the record's (%s)" % [r["seed"] for r in deals],
          [int(r["seed"]) for r in deals] == want, want)
    big = [r["seed"] for r in deals if int(r["seed"]) > 2 ** 53]
    check("match: a seed past 2^53 kept to the last digit", not big or all(str(int(s)) == s for s in big))
    ends = [r for r in lines if r["type"] == "botend"]
    stub = int(psql(f"SELECT s.slot FROM match_seats s JOIN entrants e ON e.tournament_id = {STUB} "
                    f"AND e.idx = s.entrant WHERE s.match_id = {mid} AND e.name = 'stubborn'"))
    j = api(f"/m/{mid}")
    ended = {b["bot"]: b["ended"] for b in j["bots"]}
    check("match: the bots that exited say so (%s)" % ended,
          all(v == 'exited with status 0 after "end"' for b, v in ended.items() if b != stub) and len(ended) == 3)
    check("match: the bot still running after \"end\" says the referee killed it, and why (%s)" % ended.get(stub),
          ended.get(stub, "").startswith("killed by the referee (SIGKILL): still running"))
    check("match: the transcript lines carry the same words",
          {r["bot"]: r.get("ended") for r in ends} == ended, ends)
    page = get(f"/m/{mid}")
    check("match: no bot reads a bare \"killed by SIGKILL\" on the page", "<p>killed by SIGKILL</p>" not in page)
    check("match: the page says how each ended",
          page.count("exited with status 0 after &quot;end&quot;") == 2 and "still running" in page)


def main():
    for part in (double_elimination, groups_knockout, ladder, match):
        try:
            part()
        except Exception as e:   # a part that cannot run is a failure, the others still run
            check(f"{part.__name__} ran", False, repr(e))
    print(f"content: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
