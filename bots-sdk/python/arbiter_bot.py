"""arbiter_bot — write an arbiter bot in Python with the standard library only.

A bot is a function that picks a move. This module runs the bot protocol
(schemas/bot-protocol.md) on stdin/stdout, keeps track of what the seat has
seen in a View, and hands the bot each request with the list of legal
choices, which it asks the referee for (the referee's engine is the judge,
so the module does not reimplement the rules):

    import arbiter_bot

    def choose(view, request):
        return request.legal[0]          # any legal item, or its index

    arbiter_bot.run(choose, name="first")

The helpers parse_play() and classify() read plays for strategies; they are
conveniences, not the rules.
"""

import sys

RANKS = "3456789TJQKA2BR"
MAX_REQUEST = 4 << 20   # ARB_MAX_REQUEST: the longest line the referee sends

__all__ = ["View", "Request", "run", "run_streams", "parse_play", "classify", "cards_of", "RANKS"]


def cards_of(text):
    """A card string ("33445B") as a list of rank indices; "-" is empty."""
    if text in ("-", "", "pass"):
        return []
    return sorted(RANKS.index(c) for c in text.upper() if c in RANKS)


def cards_text(ranks):
    return "".join(RANKS[r] for r in sorted(ranks)) or "-"


def parse_play(item):
    """Read a play item: "333444+56", "3377=333+7", "pass".

    Returns (cards, primary, kickers): lists of rank indices. `cards` are the
    cards played (with wild cards as written before "="); `primary` and
    `kickers` are read from the part that names the reading.
    """
    if item == "pass":
        return [], [], []
    actual, _, represented = item.partition("=")
    reading = represented or actual
    primary, _, kickers = reading.partition("+")
    return cards_of(actual.replace("+", "")), cards_of(primary), cards_of(kickers)


def classify(item):
    """A rough reading of a play item, enough for simple strategies.

    Returns a dict: kind ("pass", "rocket", "bomb", or "other"), rank (the
    lowest rank of the primary part, -1 for pass), ncards. The referee's
    rules engine is the judge; this only helps choose.
    """
    cards, primary, _ = parse_play(item)
    if not cards:
        return {"kind": "pass", "rank": -1, "ncards": 0}
    counts = {}
    for r in primary:
        counts[r] = counts.get(r, 0) + 1
    jokers = RANKS.index("B"), RANKS.index("R")
    if set(primary) <= set(jokers) and jokers[1] in primary and jokers[0] in primary \
            and counts.get(jokers[0]) == counts.get(jokers[1]):
        kind = "rocket"
    elif len(counts) == 1 and len(primary) >= 4 and len(primary) == len(cards):
        kind = "bomb"
    else:
        kind = "other"
    return {"kind": kind, "rank": min(primary) if primary else min(cards), "ncards": len(cards)}


class View:
    """What this seat has seen — never more than a player at the table."""

    def __init__(self):
        self.seat = -1
        self.players = 3
        self.deal = -1
        self.deals = 0
        self.seed = 0
        self.rules = "standard"
        self.options = {}
        self.clock = {}
        self.hand = []           # rank indices, sorted
        self.landlord = -1
        self.stake = 0
        self.kitty = []
        self.wild = ""
        self.first = -1
        self.counts = []
        self.to_beat = None      # (seat, item, kind) or None when leading
        self.history = []        # (seat, item or "pass", kind or None) this deal
        self.scores = []         # per deal: scores per seat
        self.penalties = []      # (seat, reason, action)
        self.total = 0

    @property
    def hand_text(self):
        return cards_text(self.hand)

    def partner(self, seat):
        """Same side as this bot: itself, or both not the landlord."""
        if seat == self.seat:
            return True
        return self.landlord >= 0 and seat != self.landlord and self.seat != self.landlord


class Request:
    """One decision: its name, the legal items, what to beat, the clock."""

    def __init__(self, decision, legal, beat, move_ms, deal_ms, bank_ms):
        self.decision = decision   # "bid", "call", "rob", "double", "show", "claim", "play"
        self.legal = legal         # the legal items, each a complete reply
        self.beat = beat           # (seat, item, kind) or None
        self.move_ms = move_ms
        self.deal_ms = deal_ms
        self.bank_ms = bank_ms


def _warn(msg):
    sys.stderr.write("arbiter_bot: %s\n" % msg)
    sys.stderr.flush()


class _Loop:
    def __init__(self, choose, name, infile, outfile):
        self.choose = choose
        self.name = name
        self.inp = infile
        self.out = outfile
        self.view = View()
        self.passes = 0

    def say(self, text):
        data = (text + "\n").encode("ascii", "replace")
        if hasattr(self.out, "buffer"):
            self.out.buffer.write(data)
        else:
            self.out.write(data)
        self.out.flush()

    def lines(self):
        src = self.inp.buffer if hasattr(self.inp, "buffer") else self.inp
        while True:
            raw = src.readline(MAX_REQUEST + 2)
            if not raw:
                return
            if len(raw) > MAX_REQUEST and not raw.endswith(b"\n"):
                _warn("a referee line longer than %d bytes; skipped" % MAX_REQUEST)
                while raw and not raw.endswith(b"\n"):
                    raw = src.readline(MAX_REQUEST + 2)
                continue
            yield raw.decode("ascii", "replace").rstrip("\r\n")

    def event(self, w):
        v = self.view
        e = w[0]
        if e == "deal" and len(w) >= 4:
            v.deal, v.seat = int(w[1]), int(w[3])
            v.hand, v.landlord, v.stake, v.kitty, v.wild = [], -1, 0, [], ""
            v.to_beat, v.history, v.first = None, [], -1
            v.counts = [0] * v.players
            self.passes = 0
        elif e == "hand" and len(w) >= 2:
            v.hand = cards_of(w[1])
            v.counts = [len(v.hand)] * v.players
        elif e == "wild" and len(w) >= 2:
            v.wild = w[1]
        elif e == "first" and len(w) >= 2:
            v.first = int(w[1])
        elif e == "landlord" and len(w) >= 3:
            v.landlord, v.stake = int(w[1]), int(w[2])
        elif e == "kitty" and len(w) >= 2:
            v.kitty = cards_of(w[1])
            if 0 <= v.landlord < len(v.counts):
                v.counts[v.landlord] += len(v.kitty)
                if v.landlord == v.seat:
                    v.hand = sorted(v.hand + v.kitty)
        elif e == "play" and len(w) >= 4:
            seat, item, kind = int(w[1]), w[2], w[3]
            if seat == v.seat:
                for r in parse_play(item)[0]:
                    if r in v.hand:
                        v.hand.remove(r)
            v.to_beat = (seat, item, kind)
            v.history.append((seat, item, kind))
            self.passes = 0
        elif e == "pass" and len(w) >= 2:
            v.history.append((int(w[1]), "pass", None))
            self.passes += 1
            if self.passes >= v.players - 1:
                v.to_beat = None
        elif e == "counts":
            v.counts = [int(x) for x in w[1:]]
        elif e == "result":
            scores = [int(x) for x in w[1:]]
            v.scores.append(scores)
            if 0 <= v.seat < len(scores):
                v.total += scores[v.seat]
        elif e == "penalty" and len(w) >= 4:
            v.penalties.append((int(w[1]), w[2], w[3]))
        elif e in ("note", "error"):
            _warn("referee says: " + " ".join(w))
        # anything else (bid, call, rob, double, show, shown, claim, redeal,
        # and events added later) needs no tracking: ignored, as required

    def ask(self, w):
        decision = w[1] if len(w) > 1 else ""
        beat, times, legal = None, [-1, -1, -1], []
        i = 2
        while i < len(w):
            if w[i] == "beat" and i + 3 < len(w):
                beat = (int(w[i + 1]), w[i + 2], w[i + 3])
                i += 4
            elif w[i] == "time" and i + 3 < len(w):
                times = [int(x) for x in w[i + 1:i + 4]]
                i += 4
            elif w[i] == "legal":
                legal = w[i + 1:]
                break
            else:
                i += 1
        if decision == "play":
            self.view.to_beat = beat
        if not legal:
            _warn("request without legal items: %s; passing" % " ".join(w[:3]))
            self.say("pass")
            return
        req = Request(decision, legal, beat, *times)
        try:
            choice = self.choose(self.view, req)
        except Exception as exc:  # the bot's bug must not cost it the match
            _warn("the bot raised %r; playing the first legal item" % (exc,))
            choice = 0
        if isinstance(choice, int) and not isinstance(choice, bool) and 0 <= choice < len(legal):
            choice = legal[choice]
        if choice not in legal:
            _warn("the bot chose %r, not a legal item; playing %s" % (choice, legal[0]))
            choice = legal[0]
        self.say(choice)

    def run(self):
        v = self.view
        for line in self.lines():
            w = line.split()
            if not w:
                continue
            try:
                if w[0] == "ask":
                    self.ask(w)
                elif w[0] == "arbiter":
                    self.say("bot 1 %s legal" % self.name)
                elif w[0] == "match":
                    kv = dict(zip(w[1::2], w[2::2]))
                    v.players = int(kv.get("players", 3))
                    v.deals = int(kv.get("deals", 0))
                    v.seed = int(kv.get("seed", 0))
                    v.rules = kv.get("rules", "standard")
                elif w[0] == "option" and len(w) >= 2 and "=" in w[1]:
                    key, _, value = w[1].partition("=")
                    v.options[key] = value
                elif w[0] == "clock":
                    v.clock = dict(zip(w[1::2], (int(x) for x in w[2::2])))
                elif w[0] == "end":
                    return 0
                else:
                    self.event(w)
            except (ValueError, IndexError) as exc:
                _warn("cannot read %r: %s" % (line[:200], exc))
        return 0


def run_streams(choose, name, infile, outfile):
    """Play a match on the given streams (for tests). Returns 0."""
    return _Loop(choose, name, infile, outfile).run()


def run(choose, name="python"):
    """Play a whole match on stdin/stdout. `name`: 1..32 of [A-Za-z0-9_.-]."""
    return run_streams(choose, name, sys.stdin, sys.stdout)
