"""arbiter_bot — write an arbiter bot in Python with the standard library only.

A bot is a function that picks a move. This package speaks the bot protocol
(schemas/bot-protocol.md, version 1) on stdin/stdout, keeps what the seat
has seen in a View, and hands the function every request with the list of
legal replies. It always asks the referee for that list (`bot 1 NAME
legal`): the referee's rules engine is the judge, and this package does not
reimplement it.

    import arbiter_bot

    def choose(view, request):
        return request.legal[0]          # any legal item, or its index

    arbiter_bot.run(choose, name="first")

parse_play() and classify() read play items for strategies. They are
conveniences, not the rules: the referee's engine decides what is legal and
what beats what.

The package is a protocol core (arbiter_bot.core: lines, handshake, the
request/reply loop, the match's shared lines) plus a view per game
(arbiter_bot.doudizhu). run() and run_streams() play the game the handshake
names (`arbiter 1 doudizhu` or `arbiter 1 dabang`) with that game's view:
arbiter_bot.doudizhu.View or arbiter_bot.dabang.View (Da Bang's cards,
trumps and legal plays: arbiter_bot.dabang, which has run functions of its
own too).
"""

from . import core, doudizhu

try:        # a Dou Dizhu bot may ship the package without dabang.py
    from . import dabang
except ImportError:
    dabang = None
from .core import MAX_NAME, MAX_REQUEST, MatchView, Penalty, Request
from .doudizhu import (KINDS, RANKS, ROLES, Beat, Move, Play, View, card_counts, classify, order_key,
                       parse_play, rank_of, reading_of, sort_cards)

__all__ = [
    "RANKS", "MAX_REQUEST", "MAX_NAME", "View", "Request", "Play", "Beat", "Move",
    "Penalty", "run", "run_streams", "parse_play", "classify", "rank_of",
    "sort_cards", "card_counts", "MatchView", "KINDS", "ROLES", "order_key", "reading_of",
]


class _Loop(core.Loop):
    """The protocol loop: a Dou Dizhu view (loop.view) unless the handshake
    names another game."""
    view_class = View
    view_classes = {"doudizhu": View}
    if dabang is not None:
        view_classes["dabang"] = dabang.View


def run_streams(choose, name, infile, outfile, strict=None):
    """Play a match (Dou Dizhu, or the game the handshake names) on the given binary streams (or text streams
    with a .buffer). Returns 0 when the referee says `end` or closes the
    input."""
    return core.run_streams(_Loop, choose, name, infile, outfile, strict=strict)


def run(choose, name="python", strict=None):
    """Play a whole match (Dou Dizhu or Da Bang) on stdin/stdout; return 0.

    choose(view, request) returns one of request.legal, its index, or its
    entry of request.moves. name: 1..32 of [A-Za-z0-9_.-], shown in logs.
    While the match runs, print() and sys.stdout go to stderr, so stray
    output cannot corrupt a reply (stderr is kept in the transcript for you).

    A choice that names no legal item, or an exception, answers 'pass' where
    passing is legal, else the smallest legal item (the first of the ordered
    list), and says so on stderr with the traceback. strict=True (or
    $ARBITER_BOT_STRICT=1; None follows it) sends the bot's own answer
    instead — the word 'error' for an exception — for the referee to judge
    and penalise as the tournament's policy says."""
    return core.run(_Loop, choose, name, strict=strict)
