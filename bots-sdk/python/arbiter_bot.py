"""arbiter_bot — write an arbiter bot in Python with the standard library only.

A bot is a function that picks a move. This module speaks the bot protocol
(schemas/bot-protocol.md, version 1) on stdin/stdout, keeps what the seat
has seen in a View, and hands the function every request with the list of
legal replies. It always asks the referee for that list (`bot 1 NAME
legal`): the referee's rules engine is the judge, and this module does not
reimplement it.

    import arbiter_bot

    def choose(view, request):
        return request.legal[0]          # any legal item, or its index

    arbiter_bot.run(choose, name="first")

parse_play() and classify() read play items for strategies. They are
conveniences, not the rules: the referee's engine decides what is legal and
what beats what.
"""

import collections
import io
import sys

__all__ = [
    "RANKS", "MAX_REQUEST", "MAX_NAME", "View", "Request", "Play", "Beat", "Move",
    "Penalty", "run", "run_streams", "parse_play", "classify", "rank_of",
    "sort_cards", "card_counts",
]

RANKS = "3456789TJQKA2BR"     # low to high; B small joker, R big joker
MAX_REQUEST = 4 << 20         # ARB_MAX_REQUEST: the longest line the referee sends
MAX_NAME = 32                 # ARB_MAX_BOT_NAME
_NAME_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_RANK = {c: i for i, c in enumerate(RANKS)}
_B, _R, _TWO = _RANK["B"], _RANK["R"], _RANK["2"]

Beat = collections.namedtuple("Beat", "seat cards kind")
Beat.__doc__ = "The play to beat: who made it, its cards as the referee wrote them, its kind."
Move = collections.namedtuple("Move", "seat cards kind")
Move.__doc__ = "One turn of the play: cards is the play's text or 'pass' (kind None)."
Penalty = collections.namedtuple("Penalty", "seat reason action")


# ---- cards ---------------------------------------------------------------

def rank_of(card):
    """The rank index of a card letter: 0 for '3' ... 12 for '2', 13 'B', 14 'R'."""
    return _RANK[card.upper()]


def sort_cards(text):
    """A set of cards in the notation's order: 'r2b3TT' -> '3TT2BR'.

    '-' and 'pass' are the empty set; '10' is read as 'T'; other characters
    are dropped."""
    text = text.upper().replace("10", "T")
    if text in ("-", "PASS"):
        return ""
    return "".join(sorted((c for c in text if c in _RANK), key=_RANK.__getitem__))


def card_counts(text):
    """How many of each rank letter a set of cards holds (a Counter)."""
    return collections.Counter(sort_cards(text))


def _remove(hand, cards):
    """hand minus cards (multisets, both sorted strings); cards not held are ignored."""
    left = collections.Counter(hand)
    left.subtract(cards)
    return "".join(sorted(left.elements(), key=_RANK.__getitem__))


# ---- plays ---------------------------------------------------------------

def parse_play(item):
    """Read a play item: '333444+56', '3377=333+7', 'play 345678', 'pass'.

    Returns (cards, primary, kickers), each a sorted card string: the cards
    that leave the hand (wild cards as themselves), and the two parts of the
    reading. With wild cards ('3377=333+7': the wild 77 stands for 33) the
    reading is what they stand for: primary '333', kickers '7'. Without '+'
    the whole play is the primary part. 'pass' gives ('', '', '')."""
    item = item.strip()
    if item[:5].lower() == "play ":
        item = item[5:].strip()
    if item.lower() in ("pass", "-", ""):
        return "", "", ""
    actual, eq, represented = item.partition("=")
    reading = represented if eq else actual
    primary, _, kickers = reading.partition("+")
    return sort_cards(actual), sort_cards(primary), sort_cards(kickers)


class Play:
    """A rough reading of a play item (see classify()).

    kind     'pass', 'solo', 'pair', 'trio', 'trio_solo', 'trio_pair', 'chain',
             'pair_chain', 'airplane', 'airplane_solo', 'airplane_pair',
             'four_two_solo', 'four_two_pair', 'shuttle', 'shuttle_solo',
             'shuttle_pair', 'bomb', 'rocket', or 'unknown'
    rank     the lowest rank of the primary part (a rank_of() index; -1: pass)
    top      the highest rank of the primary part
    length   how many ranks the primary part spans (a chain's length, an
             airplane's trios); 1 for a solo, pair, trio, four or bomb
    ncards   cards that leave the hand
    power    compares plays of one kind and length, and bombs among
             themselves: higher beats lower
    cards, primary, kickers   as parse_play() gives them
    """

    __slots__ = ("item", "kind", "rank", "top", "length", "ncards", "power",
                 "cards", "primary", "kickers")

    def __init__(self, item, kind, rank, top, length, ncards, power, cards, primary, kickers):
        self.item, self.kind, self.rank, self.top = item, kind, rank, top
        self.length, self.ncards, self.power = length, ncards, power
        self.cards, self.primary, self.kickers = cards, primary, kickers

    @property
    def is_bomb(self):
        """A bomb or the rocket: beats any other kind."""
        return self.kind in ("bomb", "rocket")

    def beats(self, other):
        """A light comparison (DDZ-12, DDZ-30): a rocket beats all else, a bomb
        beats every non-bomb and weaker bombs, otherwise the same kind and
        length with more power. The referee's engine is the judge."""
        if isinstance(other, str):
            other = classify(other)
        if self.kind == "pass" or other.kind == "pass":
            return self.kind != "pass"
        if self.kind == "rocket":
            return other.kind != "rocket" or self.power > other.power
        if other.kind == "rocket":
            return False
        if self.kind == "bomb":
            return other.kind != "bomb" or self.power > other.power
        if other.kind == "bomb":
            return False
        return (self.kind == other.kind and self.length == other.length
                and self.ncards == other.ncards and self.power > other.power)

    def __getitem__(self, key):          # play["kind"] works too
        return getattr(self, key)

    def __repr__(self):
        return "Play(%r, kind=%r, rank=%d, length=%d, ncards=%d, power=%d)" % (
            self.item, self.kind, self.rank, self.length, self.ncards, self.power)


def _consecutive(ranks):
    return ranks[-1] - ranks[0] == len(ranks) - 1


def _default_reading(cards):
    """The reading of a set of cards written without '+' whose shape is not
    a single block: DDZ-15's choice, the most cards in the primary part (a
    four, a trio or a run of them), then the highest rank, with kickers of a
    count the kind allows. Returns (primary, kickers); (cards, '') if none."""
    counts = collections.Counter(_RANK[c] for c in cards)
    best = None
    for size in (4, 3):
        held = [r for r in range(_B) if counts[r] >= size]
        for start in held:
            for end in range(start, _TWO if start < _TWO else start + 1):
                if counts[end] < size:
                    break
                length = end - start + 1
                rest = counts.copy()
                for r in range(start, end + 1):
                    rest[r] -= size
                nk = sum(rest.values())
                pairs = all(n % 2 == 0 for n in rest.values())
                solo, pair = (length, 2 * length) if size == 3 else (2 * length, 4 * length)
                if nk == solo or (nk == pair and pairs):
                    key = (size * length, end)
                    if best is None or key > best[0]:
                        best = (key, start, end, size)
    if best is None:
        return cards, ""
    _, start, end, size = best
    primary = "".join(RANKS[r] * size for r in range(start, end + 1))
    return primary, _remove(cards, primary)


def classify(item, packs=1, wild=""):
    """The kind and comparison rank of a play item as the referee writes it.

    Legal items and play events name their reading ('333444+56'; no '+' when
    the whole play is the primary part), so the kind follows from the shape
    of the primary part and the number of kickers. `packs` (1 or 2) tells the
    rocket BR from a joker pair; `wild` (the wild ranks, e.g. '7') tells a
    pure wild bomb from a natural one. View.classify() fills both in.

    A convenience for strategies, not the rules: it does not check option
    switches or chain lengths, and compare=douzero airplanes may compare
    otherwise. The referee's engine is the judge."""
    text = item.strip()
    if text[:5].lower() == "play ":
        text = text[5:].strip()
    cards, primary, kickers = parse_play(text)
    if not cards:
        return Play(text, "pass", -1, -1, 0, 0, -1, "", "", "")
    play = _shape(text, cards, primary or cards, kickers, packs, wild)
    if play.kind == "unknown" and not kickers:
        # written without its reading ('33344456'): read it as a lead would be
        primary, kickers = _default_reading(primary or cards)
        if kickers:
            play = _shape(text, cards, primary, kickers, packs, wild)
    return play


def _shape(text, cards, primary, kickers, packs, wild):
    ranks = [_RANK[c] for c in primary]
    counts = collections.Counter(ranks)
    distinct = sorted(counts)
    low, high, nk = distinct[0], distinct[-1], len(kickers)
    sizes = set(counts.values())

    def play(kind, length, power):
        return Play(text, kind, low, high, length, len(cards), power, cards, primary, kickers)

    if not kickers:
        if counts.get(_B, 0) == counts.get(_R, 0) == len(ranks) // 2 and len(ranks) in (2, 4) \
                and distinct == [_B, _R] and (len(ranks) == 4 or packs < 2):
            return play("rocket", 1, 10 ** 6 + len(ranks))
        if len(ranks) == 2 and low >= _B:                # BB, BR (two packs), RR
            return play("pair", 1, sum(ranks))
        if len(ranks) == 4 and counts.get(_TWO) == 3 and high >= _B:
            return play("bomb", 1, 0)                    # the small-three bomb 222+joker
    if len(sizes) != 1 or not _consecutive(distinct):
        return play("unknown", len(distinct), sum(ranks))
    size, length = sizes.pop(), len(distinct)
    power = sum(ranks)
    if not kickers:
        if size >= 4 and length == 1:
            soft = "=" in text                      # a wild card stands for another rank
            pure = not soft and wild and RANKS[low] in wild.upper()
            tier = 0 if soft else 2 if pure else 1     # DDZ-83: soft < hard < pure wild
            return play("bomb", 1, 1 + tier * 1000 + (size - 4) * 13 + low)
        kind = {1: ("solo", "chain"), 2: ("pair", "pair_chain"), 3: ("trio", "airplane")}.get(size)
        if kind:
            return play(kind[0] if length == 1 else kind[1], length, power)
        return play("shuttle" if size == 4 else "unknown", length, power)
    if size == 3:
        base = "trio" if length == 1 else "airplane"
        if nk == length:
            return play(base + "_solo", length, power)
        if nk == 2 * length:
            return play(base + "_pair", length, power)
    if size == 4:
        base = "four_two" if length == 1 else "shuttle"
        if nk == 2 * length:
            return play(base + "_solo", length, power)
        if nk == 4 * length:
            return play(base + "_pair", length, power)
    return play("unknown", length, power)


# ---- what the seat sees --------------------------------------------------

class View:
    """What this seat has seen, from the referee's events — never more than a
    player at the table would know. Cards are sorted strings ('33456TT2B')."""

    def __init__(self):
        # the match
        self.game = ""
        self.players = 3
        self.deals = 0           # deals this bot plays in the match
        self.rules = ""
        self.seed = 0            # this bot's own seed: use it for randomness
        self.options = {}        # 'KEY' -> 'VALUE' (strings), every rule option
        self.clock = {}          # {'move': ms, 'deal': ms or -1, 'bank': ms}
        self.scores = []         # per finished deal: the scores, one per seat
        self.total = 0           # this bot's score so far (sum of its deal scores)
        self.end_total = None    # the total the referee announced with `end`
        self.penalties = []      # Penalty(seat, reason, action), whole match
        self.notes = []          # `note` texts: why a reply of this bot was refused
        # the deal
        self.deal = -1
        self.seat = -1
        self._new_deal()

    def _new_deal(self):
        self.hand = ""           # this seat's cards now
        self.dealt = ""          # as dealt (before the kitty)
        self.wild = ""           # wild ranks in force, e.g. '7' or '7J'
        self.first = -1          # who speaks first in the auction
        self.redeals = 0
        self.auction = []        # (word, seat, value): ('bid', 0, 2), ('double', 1, 0), ...
        self.landlord = -1
        self.stake = 0
        self.kitty = ""
        self.shown = {}          # seat -> that seat's cards, when the landlord showed them
        self.counts = [0] * self.players   # cards left per seat
        self.to_beat = None      # Beat(seat, cards, kind), or None when the seat to play leads
        self.history = []        # Move(seat, cards or 'pass', kind) this deal, in order
        self.played = [""] * self.players  # cards each seat has played this deal
        self._passes = 0

    # conveniences
    @property
    def hand_text(self):
        """The hand, '-' when empty (the notation's empty set)."""
        return self.hand or "-"

    def hand_counts(self):
        """How many of each rank the hand holds (a Counter over rank letters)."""
        return collections.Counter(self.hand)

    @property
    def packs(self):
        return self.option("packs", 2 if self.players == 4 else 1)

    @property
    def is_landlord(self):
        return self.seat >= 0 and self.seat == self.landlord

    def partner(self, seat):
        """True for this seat itself and, once the landlord is known, for the
        other non-landlords when this seat is not the landlord."""
        if seat == self.seat:
            return True
        return self.landlord >= 0 and seat != self.landlord and self.seat != self.landlord

    def opponents(self):
        """The seats playing against this one (empty before the landlord is known)."""
        if self.landlord < 0:
            return []
        return [s for s in range(self.players) if not self.partner(s)]

    def outstanding(self):
        """Cards this seat has not seen: the packs minus its hand and every
        card the other seats played (what the others may still hold)."""
        packs = self.packs if isinstance(self.packs, int) else 1
        left = collections.Counter({c: (packs if c in "BR" else 4 * packs) for c in RANKS})
        left.subtract(self.hand)
        for s, cards in enumerate(self.played):
            if s != self.seat:
                left.subtract(cards)
        return "".join(c * max(0, left[c]) for c in RANKS)

    def option(self, key, default=None):
        """A rule option: 'true'/'false' as bool, digits as int, else the string."""
        value = self.options.get(key)
        if value is None:
            return default
        if value in ("true", "false"):
            return value == "true"
        try:
            return int(value)
        except ValueError:
            return value

    def classify(self, item):
        """classify(item) with this match's packs and wild ranks."""
        packs = self.packs if isinstance(self.packs, int) else 1
        return classify(item, packs=packs, wild=self.wild)


class Request:
    """One decision to make.

    decision  'bid', 'call', 'rob', 'double', 'show', 'claim' or 'play'
    legal     the legal items exactly as the referee sent them, each a
              complete reply: ['pass', '2', '3'], ['3', '33', '333444+56', 'pass']
    beat      Beat(seat, cards, kind) of the play to beat, or None (a lead)
    move_ms, deal_ms, bank_ms   the clock: free time for this decision, what
              is left of the deal's limit (-1: none), what is left in the bank
    line      the request line as received
    """

    def __init__(self, decision, legal, beat=None, move_ms=-1, deal_ms=-1, bank_ms=-1, line=""):
        self.decision = decision
        self.legal = legal
        self.beat = beat
        self.move_ms = move_ms
        self.deal_ms = deal_ms
        self.bank_ms = bank_ms
        self.line = line

    @property
    def leading(self):
        return self.decision == "play" and self.beat is None

    def __repr__(self):
        return "Request(%r, %d legal, beat=%r)" % (self.decision, len(self.legal), self.beat)


# ---- the protocol loop ---------------------------------------------------

def _warn(msg):
    try:
        sys.stderr.write("arbiter_bot: %s\n" % msg)
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _valid_name(name):
    name = "".join(c if c in _NAME_CHARS else "-" for c in str(name))[:MAX_NAME]
    return name or "python"


def _int(text, line):
    try:
        return int(text)
    except ValueError:
        _warn("not a number: %r in %r" % (text[:40], line[:200]))
        return -1


class _Stop(Exception):
    pass


class _Loop:
    def __init__(self, choose, name, infile, outfile):
        self.choose = choose
        self.name = _valid_name(name)
        if self.name != name:
            _warn("bot name %r is not 1..%d of [A-Za-z0-9_.-]; using %r" % (name, MAX_NAME, self.name))
        self.src = getattr(infile, "buffer", infile)
        self.out = getattr(outfile, "buffer", outfile)
        self.view = View()
        self.owed = None         # the reply a request gets if answering it fails

    # -- lines
    def say(self, text):
        self.owed = None
        try:
            if isinstance(self.out, io.TextIOBase):
                self.out.write(text + "\n")
            else:
                self.out.write(text.encode("ascii", "replace") + b"\n")
            self.out.flush()
        except (OSError, ValueError):      # the referee went away
            raise _Stop()

    def lines(self):
        """Lines from the referee, each bounded by MAX_REQUEST. An overlong
        line is cut there (and the rest skipped), marked by a True flag."""
        limit = MAX_REQUEST + 2              # the line, '\r' and '\n'
        while True:
            raw = self.src.readline(limit)
            if not raw:
                return
            if isinstance(raw, str):
                raw = raw.encode("ascii", "replace")
            cut = len(raw) == limit and not raw.endswith(b"\n")
            if cut:
                rest = raw
                while rest and rest[-1:] not in (b"\n", "\n"):
                    rest = self.src.readline(limit)
            yield raw.decode("ascii", "replace").rstrip("\r\n"), cut

    def run(self):
        try:
            for line, cut in self.lines():
                words = line.split()
                if not words:
                    continue
                if cut:
                    _warn("a referee line longer than %d bytes, cut there: %s..." % (MAX_REQUEST, line[:60]))
                    words.pop()                   # the last word may be cut in half
                    if not words or words[0] != "ask":
                        continue
                try:
                    if words[0] == "ask":
                        self.ask(words, line)
                    elif words[0] == "end":
                        self.end(words)
                        return 0
                    else:
                        self.event(words)
                except _Stop:
                    raise
                except Exception as exc:   # a line we cannot read must not end the match
                    _warn("cannot read %r: %s: %s" % (line[:200], type(exc).__name__, exc))
                    if self.owed is not None:      # one request, one reply, whatever happened
                        reply, self.owed = self.owed, None
                        self.say(reply)
        except _Stop:
            pass
        return 0

    # -- events
    def event(self, w):
        v, e, n = self.view, w[0], len(w)
        if e == "arbiter":
            v.game = w[2] if n > 2 else ""
            self.say("bot 1 %s legal" % self.name)
        elif e == "match":
            kv = dict(zip(w[1::2], w[2::2]))
            v.players = int(kv.get("players", v.players))
            v.deals = int(kv.get("deals", v.deals))
            v.seed = int(kv.get("seed", v.seed))
            v.rules = kv.get("rules", v.rules)
            v._new_deal()
        elif e == "option" and n >= 2 and "=" in w[1]:
            key, _, value = w[1].partition("=")
            v.options[key] = value
            if key == "players" and value.isdigit() and int(value) != v.players:
                v.players = int(value)
                v._new_deal()
        elif e == "clock":
            v.clock = {k: int(x) for k, x in zip(w[1::2], w[2::2])}
        elif e == "ready":
            pass
        elif e == "deal" and n >= 4:
            deal, seat = int(w[1]), int(w[3])
            v.deal, v.seat = deal, seat
            v._new_deal()
        elif e == "redeal":
            redeals = int(w[1]) if n >= 2 else v.redeals + 1
            v._new_deal()
            v.redeals = redeals
        elif e == "hand" and n >= 2:
            v.hand = v.dealt = sort_cards(w[1])
            v.counts = [len(v.hand)] * v.players
        elif e == "wild" and n >= 2:
            v.wild = sort_cards(w[1])
        elif e == "first" and n >= 2:
            v.first = int(w[1])
        elif e in ("bid", "call", "rob", "double", "show", "claim") and n >= 3:
            v.auction.append((e, int(w[1]), int(w[2])))
        elif e == "shown" and n >= 3:
            v.shown[int(w[1])] = sort_cards(w[2])
        elif e == "landlord" and n >= 3:
            v.landlord, v.stake = int(w[1]), int(w[2])
        elif e == "kitty" and n >= 2:
            v.kitty = sort_cards(w[1])
            if 0 <= v.landlord < len(v.counts):
                v.counts[v.landlord] += len(v.kitty)
                if v.landlord == v.seat:
                    v.hand = sort_cards(v.hand + v.kitty)
        elif e == "play" and n >= 3:
            seat, item = int(w[1]), w[2]
            kind = w[3] if n >= 4 else v.classify(item).kind
            cards = parse_play(item)[0]
            if seat == v.seat:
                v.hand = _remove(v.hand, cards)
            if seat in v.shown:
                v.shown[seat] = _remove(v.shown[seat], cards)
            if 0 <= seat < len(v.played):
                v.played[seat] = sort_cards(v.played[seat] + cards)
            if 0 <= seat < len(v.counts):    # `counts` follows and is the authority
                v.counts[seat] = max(0, v.counts[seat] - len(cards))
            v.to_beat = Beat(seat, item, kind)
            v.history.append(Move(seat, item, kind))
            v._passes = 0
        elif e == "pass" and n >= 2:
            v.history.append(Move(int(w[1]), "pass", None))
            v._passes += 1
            if v._passes >= v.players - 1:   # everyone else passed: a new round
                v.to_beat = None
        elif e == "counts" and n >= 2:
            v.counts = [int(x) for x in w[1:]]
        elif e == "penalty" and n >= 4:
            v.penalties.append(Penalty(int(w[1]), w[2], w[3]))
        elif e == "note":
            v.notes.append(" ".join(w[1:]))
            _warn("the referee says: " + " ".join(w[1:]))
        elif e == "error":
            _warn("the referee says: " + " ".join(w))
        elif e == "result" and n >= 2:
            scores = [int(x) for x in w[1:]]
            v.scores.append(scores)
            if 0 <= v.seat < len(scores):
                v.total += scores[v.seat]
        # any other line is an event this module does not know: ignored, as
        # the protocol requires (new events may be added within version 1)

    def end(self, w):
        try:
            self.view.end_total = int(w[1])
        except (IndexError, ValueError):
            pass

    # -- requests
    def ask(self, w, line):
        """One request, one reply: whatever happens, a line is written."""
        self.owed = "pass"
        decision = w[1] if len(w) > 1 else ""
        beat, times, legal = None, [-1, -1, -1], []
        head = w
        if "legal" in w:
            at = w.index("legal")
            head, legal = w[:at], w[at + 1:]
        i = 2
        while i < len(head):
            if head[i] == "beat" and i + 3 < len(head):
                seat = _int(head[i + 1], line)
                beat = Beat(seat, head[i + 2], head[i + 3])
                i += 4
            elif head[i] == "time" and i + 3 < len(head):
                times = [_int(x, line) for x in head[i + 1:i + 4]]
                i += 4
            else:
                i += 1
        if decision == "play":
            # The request is the authority on whether and what to beat; the
            # play event wrote the same play with the reading that counts,
            # kept when the two name the same cards from the same seat.
            v = self.view
            if beat is None or v.to_beat is None or v.to_beat.seat != beat.seat \
                    or parse_play(v.to_beat.cards)[0] != parse_play(beat.cards)[0]:
                v.to_beat = beat
        if not legal:
            reply = self.fallback(decision, beat)
            _warn("a request without legal items (%s); replying %r" % (line[:80], reply))
            self.say(reply)
            return
        self.owed = legal[0]
        req = Request(decision, legal, beat, times[0], times[1], times[2], line)
        try:
            choice = self.choose(self.view, req)
        except Exception as exc:   # the bot's bug must not cost it its seat
            _warn("the bot raised %s: %s; playing the first legal item %r" % (type(exc).__name__, exc, legal[0]))
            choice = 0
        self.say(self.resolve(choice, legal, decision))

    def resolve(self, choice, legal, decision):
        """The legal item the bot means: the item itself, its index, or the
        same reply written another way ('play 345', 'bid 2', 'no')."""
        if isinstance(choice, int) and not isinstance(choice, bool):
            if -len(legal) <= choice < len(legal):
                return legal[choice]
        elif isinstance(choice, str):
            if choice in legal:
                return choice
            text = choice.strip()
            low = text.lower()
            for prefix in ("play ", "bid "):
                if low.startswith(prefix):
                    text, low = text[len(prefix):].strip(), low[len(prefix):].strip()
            if low in ("pass", "no", "-") or (decision == "bid" and low == "0"):
                text = "pass"
            for item in legal:
                if item.lower() == text.lower():
                    return item
            if decision == "play" and text != "pass":
                cards = parse_play(text)[0]
                for item in legal:
                    if parse_play(item)[0] == cards:
                        return item    # the same cards; the referee's reading of them
        _warn("the bot chose %r, not a legal item; playing the first legal item %r" % (choice, legal[0]))
        return legal[0]

    def fallback(self, decision, beat):
        """A reply without a legal list (the referee always sends one to this
        module; this is for a line that lost it): lead the lowest card,
        otherwise pass."""
        if decision == "play" and beat is None and self.view.hand:
            return self.view.hand[0]
        return "pass"


def run_streams(choose, name, infile, outfile):
    """Play a match on the given binary streams (or text streams with a
    .buffer). Returns 0 when the referee says `end` or closes the input."""
    return _Loop(choose, name, infile, outfile).run()


def run(choose, name="python"):
    """Play a whole match on stdin/stdout and return 0.

    choose(view, request) returns one of request.legal or its index.
    name: 1..32 of [A-Za-z0-9_.-], shown in logs. While the match runs,
    print() and sys.stdout go to stderr, so stray output cannot corrupt a
    reply (stderr is kept in the transcript for you)."""
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    try:
        return run_streams(choose, name, sys.stdin, real_stdout)
    finally:
        sys.stdout = real_stdout
