#!/usr/bin/env python3
"""An example Da Bang bot, greedy and simple, using only what its seat has
seen (arbiter_bot.dabang's View):

- declares (or overturns) with a simple hand count, as the C greedy bot
  does: for each declaration offered, the cards that would be trumps in
  the suit it names (the big joker of the first deal, which names none
  yet: its best suit) plus the cards it shows (a pair or a triple is
  harder to overturn); the best count declares once it is at least a
  third of the hand plus one — early in the draw a few trumps suffice;
- gives the tribute and the takeback it must (the legal list has them);
- buries the lowest cards that carry no points, side cards before trumps;
- passes a joker burial unless the hand is strong in trumps;
- leads: its highest side-suit pair or triple when it has one, else a low
  side card, keeping trumps and points for later;
- follows: when its partner is winning, adds points; when an opponent is
  winning a trick with points, wins it as cheaply as it can (trumping when
  void); else follows as cheaply as it can, giving no points away.
"""
import sys

import arbiter_bot.dabang as db

JOKER_STRONG = 26      # trumps in hand to bury a joker (DB-58) rather than keep it


def suit_of_declaration(item):
    """The trump suit a declaration names: '5H5H' -> 'H', 'BJBJBJ:S' -> 'S';
    None for the first deal's big joker ('RJ'), which names none yet."""
    if ":" in item:
        return item.split(":")[1].strip().upper()
    if item.upper() == "RJ":
        return None
    return item[1].upper()


def trumps_if(view, suit):
    """Cards in hand that would be trumps at the deal's level in suit."""
    if view.level is None or suit is None:
        return 0
    t = db.Trump(view.level, suit)
    return sum(1 for c in view.hand if t.is_trump(c))


def declaration_count(view, item):
    """The hand count a declaration is worth: the trumps it would make (the
    best suit for a declaration that names none) plus the cards shown."""
    suit = suit_of_declaration(item)
    suits = [suit] if suit else list(db.SUITS)
    shown = len(db.parse_cards(item.split(":")[0]))
    return max(trumps_if(view, u) for u in suits) + shown


def declare(view, request):
    """The declaration with the best count, once the count is at least a
    third of the hand plus one (3 * count >= cards + 3); else pass."""
    items = [i for i in request.legal if i != "pass"]
    if not items:
        return "pass"
    best = max(items, key=lambda i: declaration_count(view, i))
    if 3 * declaration_count(view, best) < len(view.hand) + 3 and "pass" in request.legal:
        return "pass"
    return best


def cost(view, play):
    """What giving these cards away costs: points first, then trumps, then power."""
    t = view.trump
    cards = db.parse_cards(play)
    return (db.points(cards), sum(t.is_trump(c) for c in cards), sum(t.power(c) for c in cards))


def lead(view, legal):
    t = view.trump
    def key(play):
        cards = db.parse_cards(play)
        side = not t.is_trump(cards[0])
        high_group = len(cards) > 1 and side
        # side pairs and triples (they can only be taken by the same shape), highest first;
        # then low side singles without points; trumps last
        return (not high_group, not side, db.points(cards) if not high_group else 0,
                -t.power(cards[0]) if high_group else t.power(cards[0]))
    return min(legal, key=key)


def follow(view, request):
    t = view.trump
    legal = request.legal
    trick_points = sum(db.points(p) for _, p in view.trick)
    if view.partner(request.winner):
        # the partner is winning: add points unless a later opponent can easily take them
        return max(legal, key=lambda p: (db.points(p), -sum(t.is_trump(c) for c in db.parse_cards(p)),
                                         -sum(t.power(c) for c in db.parse_cards(p))))
    winners = [p for p in legal if db.beats(t, p, request.winning)]
    if winners and (trick_points > 0 or any(db.points(p) for p in winners)):
        # win it as cheaply as possible: the lowest winning power, fewest points spent
        return min(winners, key=lambda p: (t.power(db.parse_cards(p)[0]), -db.points(p)))
    return min(legal, key=lambda p: cost(view, p))


def choose(view, request):
    d = request.decision
    if d == "declare":
        return declare(view, request)
    if d == "joker":
        if "pass" in request.legal and len(view.trumps()) < JOKER_STRONG:
            return "pass"
        return request.legal[-1]
    if d == "bury" and view.trump is not None:
        return min(request.legal, key=lambda c: (db.points(c), view.trump.key(db.card_id(c))))
    if d == "play" and view.trump is not None:
        if request.led is None:
            return lead(view, request.legal)
        return follow(view, request)
    return 0      # tribute, return, takeback: the first legal item


if __name__ == "__main__":
    sys.exit(db.run(choose, name="py-db-greedy"))
