"""arbiter_bot.core — the protocol core, the same for every game.

It reads the referee's lines (bounded by MAX_REQUEST), answers the handshake
`arbiter 1 GAME` with `bot 1 NAME legal`, reads the lines every game shares
(`match`, `option`, `clock`, `deal N seat S`, `penalty`, `note`, `error`,
`result`, `end`) into a MatchView, and writes exactly one reply per request,
mapping what the bot's function returns onto a legal item.

A game plugs in as a subclass of MatchView: it tracks its own events
(on_event), reads the game's part of a request (on_request), names a reply
for a request that lost its legal list (fallback) and may recognise the same
reply written another way (same_item). arbiter_bot.doudizhu.View is Dou
Dizhu's; arbiter_bot.dabang.View is Da Bang's, over this same core.
"""

import collections
import io
import os
import sys
import traceback

MAX_REQUEST = 4 << 20         # ARB_MAX_REQUEST: the longest line the referee sends
MAX_NAME = 32                 # ARB_MAX_BOT_NAME
MAX_LINE = 4096               # ARB_MAX_LINE: the longest reply the referee reads
STRICT_ENV = "ARBITER_BOT_STRICT"   # set (and not "0"): strict mode, as run(..., strict=True)
_NAME_CHARS = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")

Penalty = collections.namedtuple("Penalty", "seat reason action")


def warn(msg):
    """A diagnostic for the bot's author on stderr ('arbiter_bot: ...')."""
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
        warn("not a number: %r in %r" % (text[:40], line[:200]))
        return -1


class MatchView:
    """What every game's view holds: the match, the clock, the seat, the
    results. A game's view extends it (and its _new_deal)."""

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
        """A deal starts (or the match, or a redeal): the game's view resets
        what it tracks per deal."""

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

    # -- the game's hooks (the defaults suit a game without them)
    def on_event(self, w):
        """A game event (any line the core does not read itself), split into
        words. Unknown events are ignored: version 1 may add events."""

    def on_request(self, decision, head, line):
        """The game's part of a request (`head`: the words before `legal`).
        Returns the Request's extra fields, e.g. {'beat': Beat(...)}."""
        return {}

    def fallback(self, decision, extra):
        """The reply to a request without legal items (a line that lost them)."""
        return "pass"

    def same_item(self, decision, text, legal):
        """The legal item that `text` names another way, or None."""
        return None

    def order_key(self, decision, item):
        """The legal list's sort key (docs/bot-authors.md "The order of the
        legal list"): pass first, then the game's order of the items."""
        if item == "pass":
            return (0,)
        return (1, int(item) if item.isdigit() else 0, item)

    def moves(self, decision, legal):
        """What each legal item is (the Request's moves), parallel to legal."""
        return list(legal)

    # -- the lines every game shares
    def _shared_event(self, w):
        """Reads a line every game shares; False for a game event."""
        e, n = w[0], len(w)
        if e == "match":
            kv = dict(zip(w[1::2], w[2::2]))
            self.players = int(kv.get("players", self.players))
            self.deals = int(kv.get("deals", self.deals))
            self.seed = int(kv.get("seed", self.seed))
            self.rules = kv.get("rules", self.rules)
            self._new_deal()
        elif e == "option" and n >= 2 and "=" in w[1]:
            key, _, value = w[1].partition("=")
            self.options[key] = value
            if key == "players" and value.isdigit() and int(value) != self.players:
                self.players = int(value)
                self._new_deal()
        elif e == "clock":
            self.clock = {k: int(x) for k, x in zip(w[1::2], w[2::2])}
        elif e == "ready":
            pass
        elif e == "deal" and n >= 4 and w[1].isdigit():    # not a game's `deal seat ...`
            deal, seat = int(w[1]), int(w[3])
            self.deal, self.seat = deal, seat
            self._new_deal()
        elif e == "penalty" and n >= 4:
            self.penalties.append(Penalty(int(w[1]), w[2], w[3]))
        elif e == "note":
            self.notes.append(" ".join(w[1:]))
            warn("the referee says: " + " ".join(w[1:]))
        elif e == "error":
            warn("the referee says: " + " ".join(w))
        elif e == "result" and n >= 2 and all(x.lstrip("-").isdigit() for x in w[1:]):
            scores = [int(x) for x in w[1:]]
            self.scores.append(scores)
            if 0 <= self.seat < len(scores):
                self.total += scores[self.seat]
        else:
            return False
        return True


class Request:
    """One decision to make.

    decision  'bid', 'call', 'rob', 'double', 'show', 'claim' or 'play'
    legal     the legal items as the referee wrote them, each a complete
              reply, in the SDK's documented order (pass first when legal;
              docs/bot-authors.md "The order of the legal list"):
              ['pass', '2', '3'], ['pass', '3', '33', '333444+56']
    moves     what each item of legal is, in the same order (Dou Dizhu: a
              Play with .cards '33344456' and .reading '333444+56'; Da Bang:
              a Choice with .cards and .suit)
    beat      Beat(seat, cards, kind) of the play to beat, or None (a lead);
              beat.cards the cards played, beat.reading how they count
    move_ms, deal_ms, bank_ms   the clock: free time for this decision, what
              is left of the deal's limit (-1: none), what is left in the bank
    line      the request line as received
    """

    def __init__(self, decision, legal, beat=None, move_ms=-1, deal_ms=-1, bank_ms=-1, line="", moves=None,
                 **game):
        self.__dict__.update(game)   # a game's own fields (Da Bang: led, leader, winner, winning)
        self.decision = decision
        self.legal = legal
        self.moves = moves if moves is not None else list(legal)
        self.beat = beat
        self.move_ms = move_ms
        self.deal_ms = deal_ms
        self.bank_ms = bank_ms
        self.line = line

    @property
    def leading(self):
        return self.decision == "play" and self.beat is None and getattr(self, "led", None) is None

    def __repr__(self):
        return "Request(%r, %d legal, beat=%r)" % (self.decision, len(self.legal), self.beat)


class _Stop(Exception):
    pass


class Loop:
    """One match: the referee's lines in, the bot's replies out, the view
    (a MatchView of the game) kept up to date in between. A game's loop
    sets view_class."""

    view_class = MatchView
    view_classes = {}        # game name -> view class: the handshake picks the view

    def __init__(self, choose, name, infile, outfile, strict=None):
        self.choose = choose
        self.strict = strict_from_env() if strict is None else bool(strict)
        self.name = _valid_name(name)
        if self.name != name:
            warn("bot name %r is not 1..%d of [A-Za-z0-9_.-]; using %r" % (name, MAX_NAME, self.name))
        self.src = getattr(infile, "buffer", infile)
        self.out = getattr(outfile, "buffer", outfile)
        self.view = self.view_class()
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
                    warn("a referee line longer than %d bytes, cut there: %s..." % (MAX_REQUEST, line[:60]))
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
                    warn("cannot read %r: %s: %s" % (line[:200], type(exc).__name__, exc))
                    if self.owed is not None:      # one request, one reply, whatever happened
                        reply, self.owed = self.owed, None
                        self.say(reply)
        except _Stop:
            pass
        return 0

    # -- events
    def event(self, w):
        v = self.view
        if w[0] == "arbiter":
            game = w[2] if len(w) > 2 else ""
            cls = self.view_classes.get(game)
            if cls is not None and type(v) is not cls:
                v = self.view = cls()
            v.game = game
            self.say("bot 1 %s legal" % self.name)
        elif not v._shared_event(w):
            v.on_event(w)
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
        times, legal = [-1, -1, -1], []
        head = w
        if "legal" in w:
            at = w.index("legal")
            head, legal = w[:at], w[at + 1:]
        i = 2
        while i < len(head):
            if head[i] == "time" and i + 3 < len(head):
                times = [_int(x, line) for x in head[i + 1:i + 4]]
                i += 4
            else:
                i += 1
        extra = self.view.on_request(decision, head, line)
        if not legal:
            reply = self.view.fallback(decision, extra)
            warn("a request without legal items (%s); replying %r" % (line[:80], reply))
            self.say(reply)
            return
        self.owed = fallback_item(legal)
        try:
            legal = sorted(legal, key=lambda item: self.view.order_key(decision, item))
        except Exception as exc:   # an item this module cannot read: the referee's order stays
            warn("cannot order the legal items of %r: %s: %s" % (line[:80], type(exc).__name__, exc))
        self.owed = fallback_item(legal)
        req = Request(decision, legal, move_ms=times[0], deal_ms=times[1], bank_ms=times[2], line=line,
                      moves=self.view.moves(decision, legal), **extra)
        try:
            choice = self.choose(self.view, req)
        except Exception as exc:   # the bot's bug
            trace = traceback.format_exc()
            if self.strict:
                warn("the bot raised %s: %s; strict mode: answering 'error' for the referee to judge\n%s"
                     % (type(exc).__name__, exc, trace.rstrip()))
                self.say("error")
                return
            reply = fallback_item(legal)
            warn("the bot raised %s: %s; answering %r (%s)\n%s"
                 % (type(exc).__name__, exc, reply, fallback_why(legal), trace.rstrip()))
            self.say(reply)
            return
        item = self.resolve(choice, legal, decision)
        if item is None:
            if self.strict:
                own = own_answer(choice)
                warn("the bot chose %s, not a legal item; strict mode: sending %r for the referee to judge"
                     % (_short(choice), own))
                item = own
            else:
                item = fallback_item(legal)
                warn("the bot chose %s, not a legal item; answering %r (%s)"
                     % (_short(choice), item, fallback_why(legal)))
        self.say(item)

    def resolve(self, choice, legal, decision):
        """The legal item the bot means: the item itself, its index, a move
        of request.moves, or the same reply written another way ('play 345',
        'bid 2', 'no'); None when it names none."""
        if isinstance(choice, int) and not isinstance(choice, bool):
            if -len(legal) <= choice < len(legal):
                return legal[choice]
            return None
        item = getattr(choice, "item", None)      # a Play or Choice of request.moves
        if isinstance(item, str) and item in legal:
            return item
        if isinstance(choice, str):
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
            return self.view.same_item(decision, text, legal)
        return None


def strict_from_env():
    """ARBITER_BOT_STRICT set and not '0' (or empty): strict mode."""
    value = os.environ.get(STRICT_ENV, "")
    return value not in ("", "0")


def fallback_item(legal):
    """What a non-strict bot answers for a choice that names no legal item:
    'pass' where passing is legal, else the smallest legal item (the first
    of the ordered list that is not a pass)."""
    if "pass" in legal:
        return "pass"
    return legal[0]


def fallback_why(legal):
    return "passing is legal" if "pass" in legal else "the smallest legal item, passing is not legal"


def _short(choice):
    text = repr(choice)
    return text if len(text) <= 80 else text[:77] + "..."


def own_answer(choice):
    """The bot's own answer as one reply line (strict mode): a string's first
    line, anything else as str() writes it; bounded, printable ASCII."""
    item = getattr(choice, "item", None)
    text = item if isinstance(item, str) else choice if isinstance(choice, str) else str(choice)
    text = text.strip().splitlines()[0] if text.strip() else ""
    text = "".join(c if " " <= c < "\x7f" else "?" for c in text)[:MAX_LINE]
    return text or "error"


def run_streams(loop_class, choose, name, infile, outfile, strict=None):
    """Play a match with loop_class (a Loop of the game) on the given binary
    streams (or text streams with a .buffer); 0 at `end` or end of input.
    strict: None follows $ARBITER_BOT_STRICT."""
    return loop_class(choose, name, infile, outfile, strict=strict).run()


def run(loop_class, choose, name="python", strict=None):
    """Play a whole match on stdin/stdout; print() goes to stderr meanwhile."""
    real_stdout = sys.stdout
    sys.stdout = sys.stderr
    try:
        return run_streams(loop_class, choose, name, sys.stdin, real_stdout, strict=strict)
    finally:
        sys.stdout = real_stdout
