"""arbiter_bot.doudizhu — the Dou Dizhu view of the Python SDK.

View tracks what a Dou Dizhu seat has seen from the events (the hand, the
auction, the plays to beat); parse_play() and classify() read play items
for strategies. They are conveniences, not the rules: the referee's engine
decides what is legal and what beats what, and sends the legal list with
every request. The protocol loop is arbiter_bot.core.
"""

import collections
import copy
import functools

from .core import MatchView, _int

__all__ = [
    "RANKS", "KINDS", "ROLES", "View", "Play", "Beat", "Move", "parse_play", "classify", "rank_of",
    "sort_cards", "card_counts", "reading_of", "order_key",
]

RANKS = "3456789TJQKA2BR"     # low to high; B small joker, R big joker
_RANK = {c: i for i, c in enumerate(RANKS)}
_B, _R, _TWO = _RANK["B"], _RANK["R"], _RANK["2"]

# The kinds in the order of the legal list (the engine's ddz_kind order).
KINDS = ("solo", "pair", "trio", "trio_solo", "trio_pair", "chain", "pair_chain", "airplane",
         "airplane_solo", "airplane_pair", "four_two_solo", "four_two_pair", "shuttle",
         "shuttle_solo", "shuttle_pair", "bomb", "rocket")
# A seat's role relative to the landlord, by its distance from the landlord
# in turn order: 1 plays right after the landlord (下家), the last right
# before (上家); 'landlord_across' only at a table of four.
ROLES = ("landlord", "landlord_down", "landlord_across", "landlord_up")


def reading_of(text):
    """The reading of a play as the referee writes it: '333444+56' of
    '333444+56', '333+7' of '3377=333+7' (what the wild cards stand for);
    'pass' for a pass."""
    text = text.strip()
    if text[:5].lower() == "play ":
        text = text[5:].strip()
    if text.lower() in ("pass", "-", ""):
        return "pass"
    actual, eq, represented = text.partition("=")
    return represented if eq else actual


class Beat(collections.namedtuple("Beat", "seat cards kind")):
    """The play to beat: who made it (seat), the cards that left the hand
    (cards: '33344456', wild cards as themselves), its kind ('airplane_solo');
    .reading is how they count ('333444+56', '333+7'), .text the referee's
    whole text ('333444+56', '3377=333+7'). As a tuple: (seat, cards, kind)."""

    def __new__(cls, seat, text, kind):
        self = super().__new__(cls, seat, parse_play(text)[0], kind)
        self.text = text
        self.reading = reading_of(text)
        return self


class Move(collections.namedtuple("Move", "seat cards kind")):
    """One turn of the play: who (seat), the cards that left the hand
    (cards: '33344456'; 'pass' for a pass, kind None), the kind; .reading
    ('333444+56', 'pass') and .text as for Beat. As a tuple: (seat, cards, kind)."""

    def __new__(cls, seat, text, kind):
        cards = "pass" if text == "pass" else parse_play(text)[0]
        self = super().__new__(cls, seat, cards, kind)
        self.text = text
        self.reading = reading_of(text)
        return self

    @property
    def is_pass(self):
        return self.kind is None


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

    item     the item as the referee wrote it, a complete reply ('3377=333+7')
    cards    the cards that leave the hand ('3377', wild cards as themselves;
             '' for a pass)
    reading  how they count ('333+7': primary part '+' kickers; 'pass')
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
    primary, kickers   the two parts of the reading (parse_play())
    """

    __slots__ = ("item", "kind", "rank", "top", "length", "ncards", "power",
                 "cards", "primary", "kickers")

    def __init__(self, item, kind, rank, top, length, ncards, power, cards, primary, kickers):
        self.item, self.kind, self.rank, self.top = item, kind, rank, top
        self.length, self.ncards, self.power = length, ncards, power
        self.cards, self.primary, self.kickers = cards, primary, kickers

    @property
    def reading(self):
        return reading_of(self.item)

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
    if isinstance(item, (Beat, Move)):
        item = item.text
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


def _ranks(cards):
    return tuple(_RANK[c] for c in sort_cards(cards))


def order_key(item, packs=1, wild="", decision="play"):
    """The sort key of a legal item (docs/bot-authors.md "The order of the
    legal list"; the C library sorts by the same key): pass first; then by
    kind (KINDS order: solo ... bomb, rocket); then fewer cards; for bombs,
    soft (a wild card stands in) before natural before pure wild; then the
    primary part of the reading, the kickers and the cards played, each as
    its ranks from the lowest, compared rank by rank (a prefix first); the
    text last. Values of the auction: pass first, then ascending."""
    text = item.strip()
    if text[:5].lower() == "play ":
        text = text[5:].strip()
    if text.lower() == "pass":
        return (0,)
    if decision != "play":
        return (1, int(text) if text.isdigit() else 0, text)
    play = classify(text, packs=packs, wild=wild)
    if not play.cards:
        return (2, len(KINDS) + 1, 0, 0, (), (), (), text)
    kind = KINDS.index(play.kind) if play.kind in KINDS else len(KINDS)
    tier = 0
    if play.kind == "bomb":
        tier = 0 if "=" in text else 2 if wild and all(c in wild.upper() for c in play.cards) else 1
    primary, _, kickers = reading_of(text).partition("+")
    return (2, kind, len(play.cards), tier, _ranks(primary), _ranks(kickers), _ranks(play.cards), text)


# order_key of each distinct item, kept: the same texts recur at every
# decision of a match, and reading one costs tens of microseconds (keys are
# tuples: nothing a bot could change). Bounded by ORDER_KEY_CACHE.
ORDER_KEY_CACHE = 1 << 16
_order_key_cached = functools.lru_cache(maxsize=ORDER_KEY_CACHE)(order_key)
_classify_cached = functools.lru_cache(maxsize=ORDER_KEY_CACHE)(classify)


# ---- what the seat sees --------------------------------------------------

class View(MatchView):
    """What this seat has seen, from the referee's events — never more than a
    player at the table would know. Cards are sorted strings ('33456TT2B').
    The match, the clock, the seat and the results come from MatchView."""

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

    def role(self, seat=None):
        """A seat's role relative to the landlord (this seat's by default):
        'landlord', 'landlord_down' (下家: plays right after the landlord),
        'landlord_up' (上家: plays right before it), 'landlord_across' (at a
        table of four, the seat opposite); None before the landlord is known."""
        seat = self.seat if seat is None else seat
        if self.landlord < 0 or not 0 <= seat < self.players:
            return None
        d = (seat - self.landlord) % self.players
        return ROLES[3 if d == self.players - 1 and d else d]

    def seat_of(self, role):
        """The seat with a role of ROLES, or -1 (the landlord unknown, or no
        such seat at this table: 'landlord_across' with three players)."""
        if self.landlord < 0 or role not in ROLES:
            return -1
        for s in range(self.players):
            if self.role(s) == role:
                return s
        return -1

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

    def classify(self, item):
        """classify(item) with this match's packs and wild ranks."""
        packs = self.packs if isinstance(self.packs, int) else 1
        return classify(item, packs=packs, wild=self.wild)

    # -- the game's events (arbiter_bot.core calls these)
    def on_event(self, w):
        e, n = w[0], len(w)
        if e == "redeal":
            redeals = int(w[1]) if n >= 2 else self.redeals + 1
            self._new_deal()
            self.redeals = redeals
        elif e == "hand" and n >= 2:
            self.hand = self.dealt = sort_cards(w[1])
            self.counts = [len(self.hand)] * self.players
        elif e == "wild" and n >= 2:
            self.wild = sort_cards(w[1])
        elif e == "first" and n >= 2:
            self.first = int(w[1])
        elif e in ("bid", "call", "rob", "double", "show", "claim") and n >= 3:
            self.auction.append((e, int(w[1]), int(w[2])))
        elif e == "shown" and n >= 3:
            self.shown[int(w[1])] = sort_cards(w[2])
        elif e == "landlord" and n >= 3:
            self.landlord, self.stake = int(w[1]), int(w[2])
        elif e == "kitty" and n >= 2:
            self.kitty = sort_cards(w[1])
            if 0 <= self.landlord < len(self.counts):
                self.counts[self.landlord] += len(self.kitty)
                if self.landlord == self.seat:
                    self.hand = sort_cards(self.hand + self.kitty)
        elif e == "play" and n >= 3:
            seat, item = int(w[1]), w[2]
            kind = w[3] if n >= 4 else self.classify(item).kind
            cards = parse_play(item)[0]
            if seat == self.seat:
                self.hand = _remove(self.hand, cards)
            if seat in self.shown:
                self.shown[seat] = _remove(self.shown[seat], cards)
            if 0 <= seat < len(self.played):
                self.played[seat] = sort_cards(self.played[seat] + cards)
            if 0 <= seat < len(self.counts):    # `counts` follows and is the authority
                self.counts[seat] = max(0, self.counts[seat] - len(cards))
            self.to_beat = Beat(seat, item, kind)
            self.history.append(Move(seat, item, kind))
            self._passes = 0
        elif e == "pass" and n >= 2:
            self.history.append(Move(int(w[1]), "pass", None))
            self._passes += 1
            if self._passes >= self.players - 1:   # everyone else passed: a new round
                self.to_beat = None
        elif e == "counts" and n >= 2:
            self.counts = [int(x) for x in w[1:]]

    def order_key(self, decision, item):
        """order_key() with this match's packs and wild ranks."""
        packs = self.packs if isinstance(self.packs, int) else 1
        return _order_key_cached(item, packs, self.wild, decision)

    def moves(self, decision, legal):
        """The legal plays as Play objects (request.moves); the auction's
        values stay the items."""
        if decision != "play":
            return list(legal)
        # each distinct text read once (a Play of the kept reading is
        # copied: the bot may change its own)
        packs = self.packs if isinstance(self.packs, int) else 1
        return [copy.copy(_classify_cached(item, packs, self.wild)) for item in legal]

    def on_request(self, decision, head, line):
        """`beat SEAT CARDS KIND` of a request: the Request's beat."""
        beat = None
        for i in range(2, len(head) - 3):
            if head[i] == "beat":
                beat = Beat(_int(head[i + 1], line), head[i + 2], head[i + 3])
                break
        if decision == "play":
            # The request is the authority on whether and what to beat; the
            # play event wrote the same play with the reading that counts,
            # kept when the two name the same cards from the same seat.
            if beat is None or self.to_beat is None or self.to_beat.seat != beat.seat \
                    or self.to_beat.cards != beat.cards:
                self.to_beat = beat
        return {"beat": beat}

    def fallback(self, decision, extra):
        """A reply without a legal list (the referee always sends one to this
        module; this is for a line that lost it): lead the lowest card,
        otherwise pass."""
        if decision == "play" and extra.get("beat") is None and self.hand:
            return self.hand[0]
        return "pass"

    def same_item(self, decision, text, legal):
        """The same cards in another order: the referee's reading of them."""
        if decision == "play" and text != "pass":
            cards = parse_play(text)[0]
            for item in legal if cards else ():
                if parse_play(item)[0] == cards:
                    return item
        return None
