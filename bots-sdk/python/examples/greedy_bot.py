#!/usr/bin/env python3
"""An example bot: bids by hand strength, leads by shedding the most cards at
the lowest rank, follows with the smallest play that wins, never beats its
partner, and keeps bombs for when an opponent is close to going out."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arbiter_bot  # noqa: E402
from arbiter_bot import RANKS, classify  # noqa: E402


def strength(hand):
    s = 2 * hand.count(RANKS.index("R")) + 2 * hand.count(RANKS.index("B")) + hand.count(RANKS.index("2"))
    s += 3 * sum(1 for r in set(hand) if hand.count(r) >= 4 and r <= RANKS.index("2"))
    return s


def choose_value(view, request):
    st = strength(view.hand)
    if request.decision == "bid":
        want = 3 if st >= 7 else 2 if st >= 5 else 1 if st >= 3 else 0
        best = "pass"
        for item in request.legal:
            if item != "pass" and int(item) <= want:
                best = item
        return best
    if request.decision == "double" and st >= 8:
        return request.legal[-1]
    if request.decision in ("call", "rob") and st >= 5:
        return request.legal[-1]
    return "pass" if "pass" in request.legal else request.legal[0]


def choose(view, request):
    if request.decision != "play":
        return choose_value(view, request)
    plays = [(item, classify(item)) for item in request.legal if item != "pass"]
    bombs_ok = min((c for s, c in enumerate(view.counts) if not view.partner(s)), default=99) <= 4
    if request.beat is None:
        safe = [p for p in plays if p[1]["kind"] not in ("bomb", "rocket")] or plays
        return max(safe, key=lambda p: (p[1]["ncards"], -p[1]["rank"]))[0]
    if view.partner(request.beat[0]):
        return "pass"
    candidates = [p for p in plays if bombs_ok or p[1]["kind"] not in ("bomb", "rocket")]
    if not candidates:
        return "pass"
    return min(candidates, key=lambda p: (p[1]["kind"] in ("bomb", "rocket"), p[1]["rank"]))[0]


if __name__ == "__main__":
    arbiter_bot.run(choose, name="py-greedy")
