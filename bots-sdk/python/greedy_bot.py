#!/usr/bin/env python3
"""An example bot: bids by hand strength (jokers, 2s, bombs; halved with two
packs), leads by shedding the most cards at the lowest rank, follows with the
smallest play that wins, never beats its partner, and keeps bombs and the
rocket for when an opponent is close to going out. Uses only what its seat
has seen."""
import sys

import arbiter_bot

BOMBS_WHEN = 4        # bomb only when an opponent holds this many cards or fewer


def strength(hand):
    """Jokers count 2, a 2 counts 1, each four of a kind (3..2) counts 3."""
    counts = arbiter_bot.card_counts(hand)
    s = 2 * (counts["B"] + counts["R"]) + counts["2"]
    s += 3 * sum(1 for rank, n in counts.items() if n >= 4 and rank not in "BR")
    return s


def choose_value(view, request):
    # two packs hold twice the jokers and 2s: the same hand is worth half
    st = strength(view.hand) // max(1, view.packs if isinstance(view.packs, int) else 1)
    want = {
        "bid": 3 if st >= 7 else 2 if st >= 5 else 1 if st >= 3 else 0,
        "double": int(st >= 8),
        "show": 0,            # showing only raises what a loss costs
        "claim": 1,           # four jokers win the deal outright
    }.get(request.decision, int(st >= 5))      # call, rob
    # the highest legal value not above what the hand is worth
    best, best_value = 0, -1
    for i, item in enumerate(request.legal):
        value = 0 if item == "pass" else int(item) if item.isdigit() else 1
        if best_value < value <= want:
            best, best_value = i, value
    return best


def fewest_opponent_cards(view):
    return min((view.counts[s] for s in view.opponents() if s < len(view.counts)), default=99)


def choose(view, request):
    if request.decision != "play":
        return choose_value(view, request)
    plays = [view.classify(item) for item in request.legal if item != "pass"]
    if not plays:
        return "pass"
    # a play that empties the hand wins the deal: always take it
    for p in plays:
        if p.ncards == len(view.hand):
            return p.item
    bombs_ok = fewest_opponent_cards(view) <= BOMBS_WHEN
    if request.beat is None:
        # lead: the most cards, then the lowest rank; bombs only when nothing else
        plain = [p for p in plays if not p.is_bomb] or plays
        return min(plain, key=lambda p: (-p.ncards, p.rank, p.power)).item
    if view.partner(request.beat.seat):
        return "pass"                                  # never beat the partner
    candidates = [p for p in plays if bombs_ok or not p.is_bomb]
    if not candidates:
        return "pass"
    # the smallest play that wins: a plain play before any bomb, then the lowest
    return min(candidates, key=lambda p: (p.is_bomb, p.kind == "rocket", p.power, p.ncards)).item


if __name__ == "__main__":
    sys.exit(arbiter_bot.run(choose, name="py-greedy"))
