"""arbiter_bot.dabang — the Da Bang (打棒) view of the Python SDK.

View tracks what a Da Bang seat has seen from the events (schemas/
bot-protocol.md "Da Bang"): the hand as it is drawn, the declarations, the
trump suit and level, the 打家, the tribute, the kitty when this seat sees
it, every play and trick, the points per team. Trump() knows a deal's order
of the cards (docs/rules/dabang.md DB-10..DB-12); leads() and follows() list
the legal plays (DB-20..DB-24) as the engine does, and beats() and
trick_winner() judge a trick (DB-25..DB-27). They are for strategies: the
referee's engine is the judge, and it sends the legal list with every
request (the package always asks for it).

Cards are written as in docs/rules/notation.md "Da Bang": rank then suit
('5H', 'TS', 'BJ', 'RJ'); a play or hand is its cards concatenated, in card
id order (rank * 4 + suit, ranks 3..2, suits S H C D, BJ 52, RJ 53).

    import arbiter_bot.dabang as db

    def choose(view, request):
        return request.legal[0]

    db.run(choose, name="first")
"""

import collections
import functools
import itertools

from . import core
from .core import MatchView

__all__ = [
    "RANKS", "SUITS", "LEVELS", "BJ", "RJ", "TRUMP", "View", "Trump", "card_id", "card_text",
    "parse_cards", "format_cards", "points", "leads", "follows", "legal_plays", "beats",
    "trick_winner", "shape", "run", "run_streams", "Choice", "ROLES", "order_key",
]

RANKS = "3456789TJQKA2"       # rank index 0..12
SUITS = "SHCD"                # suit index 0..3
LEVELS = "3456789T"           # a deal's level: rank index 0..7
BJ, RJ = 52, 53               # the small and the big joker
TRUMP = "T"                   # the follow suit of every trump (DB-12)
_TWO = RANKS.index("2")


# ---- cards ---------------------------------------------------------------

def card_id(text):
    """'5H' -> 9; 'BJ' -> 52, 'RJ' -> 53 (upper or lower case)."""
    t = text.upper()
    if t == "BJ":
        return BJ
    if t == "RJ":
        return RJ
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError("not a Da Bang card: %r" % text)
    return RANKS.index(t[0]) * 4 + SUITS.index(t[1])


def card_text(c):
    """9 -> '5H'; 52 -> 'BJ', 53 -> 'RJ'."""
    if c == BJ:
        return "BJ"
    if c == RJ:
        return "RJ"
    return RANKS[c // 4] + SUITS[c % 4]


def parse_cards(text):
    """'4S4SKS' -> [4, 4, 44] (card ids, ascending); '', '-' and 'pass' are none."""
    t = text.strip()
    if t.lower() in ("", "-", "pass"):
        return []
    if len(t) % 2:
        raise ValueError("not Da Bang cards: %r" % text)
    return sorted(card_id(t[i:i + 2]) for i in range(0, len(t), 2))


def format_cards(cards):
    """Card ids (or texts) in the notation's order: [44, 4, 4] -> '4S4SKS'."""
    ids = [c if isinstance(c, int) else card_id(c) for c in cards]
    return "".join(card_text(c) for c in sorted(ids))


def rank_of(c):
    """0 ('3') .. 12 ('2'); 13 for BJ, 14 for RJ."""
    return 13 + (c - BJ) if c >= BJ else c // 4


def points(cards):
    """DB-4: a 5 counts 5, a ten and a king 10. cards: ids, or a play's text."""
    if isinstance(cards, str):
        cards = parse_cards(cards)
    total = 0
    for c in cards:
        if c < BJ:
            total += {"5": 5, "T": 10, "K": 10}.get(RANKS[c // 4], 0)
    return total


class Trump:
    """What a deal's level and trump suit make of the cards (DB-10..DB-12).

    level: a letter of LEVELS ('5') or its index; suit: a letter of SUITS
    ('H') or its index. power(c) is DB-11's order as numbers (as the engine
    numbers it): side cards 0..11 by rank, the trump suit's plain cards
    20 + rank, the 2s 40 (side suits) and 41 (trump suit), level cards 42
    and 43, BJ 44, RJ 45 — equal numbers are equal cards, but side cards of
    different suits never compare. fsuit(c) is the suit for following
    (DB-12): TRUMP ('T') for every trump, else the printed suit letter."""

    def __init__(self, level, suit):
        self.level = LEVELS.index(level.upper()) if isinstance(level, str) else level
        self.suit = SUITS.index(suit.upper()) if isinstance(suit, str) else suit

    def power(self, c):
        if c == RJ:
            return 45
        if c == BJ:
            return 44
        r, u = c // 4, c % 4
        if r == self.level:
            return 43 if u == self.suit else 42
        if r == _TWO:
            return 41 if u == self.suit else 40
        if u == self.suit:
            return 20 + r
        return r

    def is_trump(self, c):
        return self.power(c) >= 20

    def fsuit(self, c):
        return TRUMP if self.is_trump(c) else SUITS[c % 4]

    def key(self, c):
        """A total order for sorting a hand low to high: side cards before
        trumps, then power, then the card id."""
        return (self.is_trump(c), self.power(c), c)

    def __repr__(self):
        return "Trump(level=%r, suit=%r)" % (LEVELS[self.level], SUITS[self.suit])


def _ids(cards):
    if isinstance(cards, str):
        return parse_cards(cards)
    return sorted(c if isinstance(c, int) else card_id(c) for c in cards)


# ---- plays (DB-20..DB-27) --------------------------------------------------

def shape(play):
    """'single', 'pair', 'triple' (identical cards) or 'mixed' (DB-27)."""
    ids = _ids(play)
    if len(set(ids)) != 1:
        return "mixed"
    return {1: "single", 2: "pair", 3: "triple"}.get(len(ids), "mixed")


def leads(hand):
    """Every distinct legal lead (DB-20): each single, pair and triple of
    identical cards, as play texts in the notation's order (fewer cards
    first, then by card ids)."""
    counts = collections.Counter(_ids(hand))
    plays = [[c] * n for c in counts for n in range(1, min(3, counts[c]) + 1)]
    return [format_cards(p) for p in sorted(plays, key=lambda p: (len(p), p))]


def _multisets(counts, need):
    """Every multiset of `need` cards out of counts (id -> how many)."""
    pool = [c for c in sorted(counts) for _ in range(min(counts[c], need))]
    return {tuple(m) for m in itertools.combinations(pool, need)}


def follows(hand, led, trump):
    """Every distinct legal follow from hand to the led play (DB-21..DB-24),
    as play texts in the notation's order. trump: a Trump."""
    hand, led = _ids(hand), _ids(led)
    need = len(led)
    f = trump.fsuit(led[0])
    counts = collections.Counter(hand)
    suit = {c: n for c, n in counts.items() if trump.fsuit(c) == f}
    held = sum(suit.values())
    has_pair = any(n == 2 for n in suit.values())
    has_triple = any(n == 3 for n in suit.values())
    out = set()
    if need == 2 and has_pair:
        out = {(c, c) for c, n in suit.items() if n >= 2}           # DB-23, out of a triple too
    elif need == 3 and has_triple:
        out = {(c, c, c) for c, n in suit.items() if n == 3}        # DB-24
    elif need == 3 and has_pair:
        for c, n in suit.items():
            if n != 2:
                continue
            rest = collections.Counter(counts)
            rest[c] -= 2
            pool = {d: m for d, m in rest.items() if m > 0 and (held == 2 or trump.fsuit(d) == f)}
            out |= {tuple(sorted((c, c, d))) for d in pool}
    elif held >= need:
        out = _multisets(suit, need)
    else:
        fixed = [c for c, n in suit.items() for _ in range(n)]
        others = {c: n for c, n in counts.items() if trump.fsuit(c) != f}
        out = {tuple(sorted(fixed + list(m))) for m in _multisets(others, need - held)}
    return [format_cards(p) for p in sorted(out, key=lambda p: (len(p), sorted(p)))]


def legal_plays(hand, trump, led=None):
    """The legal plays: leads(hand) when led is None, else follows()."""
    return leads(hand) if led is None else follows(hand, led, trump)


def beats(trump, play, winner):
    """Whether play beats the trick's current winner (DB-25..DB-27)."""
    p, w = _ids(play), _ids(winner)
    sp = shape(p)
    if sp == "mixed" or sp != shape(w) or len(p) != len(w):
        return False
    fp, fw = trump.fsuit(p[0]), trump.fsuit(w[0])
    if fp == fw:
        return trump.power(p[0]) > trump.power(w[0])
    return fw != TRUMP and fp == TRUMP


def trick_winner(trump, plays):
    """The index of the winning play among the trick's plays in order."""
    w = 0
    for i in range(1, len(plays)):
        if beats(trump, plays[i], plays[w]):
            w = i
    return w


# ---- the legal list ---------------------------------------------------------

# A seat's role relative to the 打家 (declarer), by its distance from him in
# turn order: his 下家 plays right after him, his partner sits opposite, his
# 上家 plays right before him; the 下家 and the 上家 are the attackers.
ROLES = ("declarer", "declarer_down", "declarer_partner", "declarer_up")

Choice = collections.namedtuple("Choice", "item cards ids suit")
Choice.__doc__ = """One legal item of a Da Bang request (request.moves): item as the
referee wrote it (a complete reply), cards its cards in id order ('' for
pass), ids their card ids, suit the suit three jokers name ('S'; None)."""


def _choice(item):
    if item == "pass":
        return Choice(item, "", [], None)
    cards, _, suit = item.partition(":")
    ids = parse_cards(cards)
    return Choice(item, format_cards(ids), ids, suit.upper() or None)


def _card_key(trump, c):
    if trump is None:
        return (0, rank_of(c), c)
    return (1 if trump.is_trump(c) else 0, trump.power(c), c)


def order_key(item, trump=None):
    """The sort key of a legal item (docs/bot-authors.md "The order of the
    legal list"; the C library sorts by the same key): pass first; then
    fewer cards; then the cards from the lowest, each by (side card before
    trump, power, card id) once the trump is known, by (rank, card id)
    before; then the suit three jokers name (S H C D); the text last."""
    if item == "pass":
        return (0,)
    ch = _choice(item)
    cards = tuple(sorted(_card_key(trump, c) for c in ch.ids))
    return (1, len(ch.ids), cards, SUITS.index(ch.suit) if ch.suit in tuple(SUITS) else -1, item)


# order_key of each distinct item under one trump (a Trump compares by
# identity), kept: the same texts recur at every decision of a match (keys
# are tuples: nothing a bot could change). Bounded by ORDER_KEY_CACHE.
ORDER_KEY_CACHE = 1 << 16
_order_key_cached = functools.lru_cache(maxsize=ORDER_KEY_CACHE)(order_key)


# ---- the view ----------------------------------------------------------------

Trick = collections.namedtuple("Trick", "leader plays winner points")
Trick.__doc__ = "A finished trick: its leader, [(seat, play)] in order, who won it, its points."


def _after(w, key, default, count=1):
    """The word (count 1) or words after `key` in an event, or default."""
    if key not in w:
        return default
    i = w.index(key)
    if i + count >= len(w):
        return default
    return w[i + 1] if count == 1 else w[i + 1:i + 1 + count]


class View(MatchView):
    """What a Da Bang seat has seen. The hand is a list of card ids
    (ascending; hand_text() for the text). Seats 0..3 play counter-clockwise;
    seats 0 and 2 are team 0, seats 1 and 3 team 1 (partners opposite)."""

    def _new_deal(self):
        self.players = 4
        self.hand = []              # card ids, ascending
        self.first_drawer = -1
        self.level = None           # the deal's level letter ('3'..'T')
        self.levels = [None, None]  # per team, as the deal began (None: the first deal, all at 3)
        self.blood = 0              # the tribute owed this deal (DB-52)
        self.dajia = -1             # the 打家, once known
        self.trump_suit = None      # 'S' 'H' 'C' 'D' once known
        self.trump_by = None        # 'declared', 'flip' or 'kitty'
        self.trump = None           # a Trump once the suit is known
        self.declarations = []      # (seat, item) shown, in order
        self.flip = []              # the kitty's cards flipped (DB-49), when it was
        self.tribute = []           # (seat, card text or None): tribute given
        self.returned = []          # (seat, card text or None): tribute given back
        self.kitty = None           # the kitty's card ids when this seat saw them (take, kitty, buried)
        self.kitty_shown = None     # the original kitty as shown to all, if it was (DB-55)
        self.buried = []            # (seat, card text or None): burials seen
        self.jokers = []            # (seat, joker) buried jokers (DB-58)
        self.dry = False            # the kitty went dry (DB-56)
        self.points = [0, 0]        # per team, from tricks
        self.tricks = []            # Trick per finished trick
        self.trick = []             # the current trick: [(seat, play text)]
        self.played = collections.Counter()   # card id -> copies seen played
        self.outcome = None         # the `result points ...` words as a dict
        self.redeals = 0

    # -- who is who
    @property
    def team(self):
        return self.seat % 2

    @property
    def partner_seat(self):
        return (self.seat + 2) % 4

    def partner(self, seat):
        """Whether seat is this bot's partner (not itself)."""
        return seat != self.seat and seat % 2 == self.seat % 2

    def opponents(self):
        return [(self.seat + 1) % 4, (self.seat + 3) % 4]

    def role(self, seat=None):
        """A seat's role relative to the 打家 (this seat's by default):
        'declarer' (the 打家), 'declarer_down' (his 下家, an attacker, plays
        right after him), 'declarer_partner' (opposite him), 'declarer_up'
        (his 上家, the other attacker); None before the 打家 is known."""
        seat = self.seat if seat is None else seat
        if self.dajia < 0 or not 0 <= seat < 4:
            return None
        return ROLES[(seat - self.dajia) % 4]

    def seat_of(self, role):
        """The seat with a role of ROLES, or -1 before the 打家 is known."""
        if self.dajia < 0 or role not in ROLES:
            return -1
        return (self.dajia + ROLES.index(role)) % 4

    def attacking(self):
        """Whether this seat's team is the 打家's (None before the 打家 is known)."""
        return None if self.dajia < 0 else self.dajia % 2 == self.team

    def hand_text(self):
        return format_cards(self.hand)

    def trumps(self):
        """The trumps in hand (ids), or [] before the trump suit is known."""
        return [c for c in self.hand if self.trump and self.trump.is_trump(c)]

    def legal_plays(self):
        """This seat's legal plays now (a lead, or a follow to the trick)."""
        led = self.trick[0][1] if self.trick else None
        return legal_plays(self.hand, self.trump, led)

    def unseen(self):
        """Copies of each card id not in this hand and not yet seen played
        (three packs, DB-3)."""
        left = collections.Counter({c: 3 for c in range(54)})
        left.subtract(collections.Counter(self.hand))
        left.subtract(self.played)
        return +left

    # -- events
    def _take(self, text):
        for c in parse_cards(text):
            if c in self.hand:
                self.hand.remove(c)

    def on_event(self, w):
        e, n = w[0], len(w)
        if e == "deal" and n >= 3 and w[1] == "seat":
            self.seat = int(w[2])
            self.first_drawer = int(_after(w, "drawer", self.first_drawer))
            self.level = _after(w, "level", self.level)
            self.dajia = int(_after(w, "dajia", self.dajia))
            self.levels = _after(w, "levels", self.levels, 2)
            self.blood = int(_after(w, "blood", self.blood))
        elif e == "draw" and n >= 2:
            self.hand.append(card_id(w[1]))
            self.hand.sort()
        elif e == "redeal":
            self.hand, self.declarations, self.flip = [], [], []
            self.redeals = int(w[1]) if n >= 2 else self.redeals + 1
        elif e == "declare" and n >= 3 and w[2] != "pass":
            self.declarations.append((int(w[1]), w[2]))
        elif e == "flip":
            self.flip = [card_id(x) for x in w[1:]]
        elif e == "trump" and n >= 2:
            self.trump_suit = w[1]
            self.level = _after(w, "level", self.level)
            self.dajia = int(_after(w, "dajia", self.dajia))
            self.trump_by = _after(w, "by", None)
            self.trump = Trump(self.level, self.trump_suit)
        elif e in ("tribute", "return") and n >= 2:
            card = w[2] if n >= 3 else None
            (self.tribute if e == "tribute" else self.returned).append((int(w[1]), card))
            if card is not None:
                if int(w[1]) == self.seat:
                    self._take(card)
                elif (e == "tribute" and self.seat == self.dajia) or (e == "return" and self.seat != self.dajia):
                    self.hand.append(card_id(card))        # given to this seat
                    self.hand.sort()
        elif e == "kitty" and n >= 2:
            self.kitty_shown = parse_cards(w[1])
            if self.kitty is None:
                self.kitty = list(self.kitty_shown)
        elif e == "dry":
            self.dry = True
        elif e == "take" and n >= 2:
            if not w[1].isdigit():                          # this seat is the 打家: the kitty is his
                self.kitty = parse_cards(w[1])
                self.hand = sorted(self.hand + self.kitty)
        elif e == "bury" and n >= 2:
            card = w[2] if n >= 3 else None
            self.buried.append((int(w[1]), card))
            if card is not None and int(w[1]) == self.seat:
                self._take(card)
        elif e == "buried" and n >= 2:
            self.kitty = parse_cards(w[1])
        elif e == "joker" and n >= 3:
            self.jokers.append((int(w[1]), w[2]))
            if int(w[1]) == self.seat:
                self._take(w[2])
        elif e == "takeback" and n >= 3:
            c = card_id(w[2])
            if self.kitty is not None and c in self.kitty:
                self.kitty.remove(c)
            if int(w[1]) == self.seat:
                self.hand.append(c)
                self.hand.sort()
        elif e == "play" and n >= 3:
            seat = int(w[1])
            self.trick.append((seat, w[2]))
            self.played.update(parse_cards(w[2]))
            if seat == self.seat:
                self._take(w[2])
        elif e == "trick" and n >= 3:
            leader = self.trick[0][0] if self.trick else -1
            self.tricks.append(Trick(leader, list(self.trick), int(w[1]), int(w[2])))
            self.trick = []
            if "points" in w:
                i = w.index("points")
                self.points = [int(w[i + 1]), int(w[i + 2])]
        elif e == "result" and n >= 2 and w[1] == "points":
            self.outcome = {k: _after(w, k, None) for k in ("points", "kitty", "dug", "case", "next", "blood",
                                                            "winner")}
            self.outcome["rise"] = _after(w, "rise", None, 2)
            self.outcome["levels"] = _after(w, "levels", None, 2)

    def order_key(self, decision, item):
        return _order_key_cached(item, self.trump)

    def moves(self, decision, legal):
        """Each legal item as a Choice (request.moves)."""
        return [_choice(item) for item in legal]

    def on_request(self, decision, head, line):
        """A follow names the trick's leader and led play and who is
        winning with what: request.led, .leader, .winner, .winning (None
        and -1 for a lead)."""
        extra = {"led": None, "leader": -1, "winner": -1, "winning": None}
        if decision == "play" and len(head) >= 5 and head[2] == "follow":
            extra["leader"], extra["led"] = int(head[3]), head[4]
            if len(head) >= 8 and head[5] == "winner":
                extra["winner"], extra["winning"] = int(head[6]), head[7]
        return extra

    def fallback(self, decision, extra):
        """Without a legal list: pass where one may, else the first play we
        compute (the referee corrects a wrong one with its own fallback)."""
        if decision == "play" and self.trump is not None and self.hand:
            plays = legal_plays(self.hand, self.trump, extra.get("led"))
            if plays:
                return plays[0]
        return "pass"

    def same_item(self, decision, text, legal):
        """A set of cards written in another order or case: '5h5H' is '5H5H'."""
        try:
            cards = format_cards(parse_cards(text.split(":")[0]))
        except ValueError:
            return None
        suffix = text.split(":")[1].upper() if ":" in text else ""
        for item in legal:
            if item.upper() == (cards + (":" + suffix if suffix else "")):
                return item
        return None


class _Loop(core.Loop):
    """The protocol loop with a Da Bang view (loop.view)."""
    view_class = View


def run_streams(choose, name, infile, outfile, strict=None):
    """Play a Da Bang match on the given binary streams (or text streams
    with a .buffer). Returns 0 when the referee says `end` or closes the
    input."""
    return core.run_streams(_Loop, choose, name, infile, outfile, strict=strict)


def run(choose, name="python", strict=None):
    """Play a whole Da Bang match on stdin/stdout and return 0.

    choose(view, request) returns one of request.legal, its index or its
    request.moves entry; print() goes to stderr while the match runs.
    strict: see arbiter_bot.run."""
    return core.run(_Loop, choose, name, strict=strict)
