#!/usr/bin/env python3
# highcard_bot.py — a bot for the test game "high card" (tests/games/highcard/
# highcard.c), no SDK: the protocol by hand. "high" plays its highest
# legal card, "low" its lowest. It checks what it is told: a request must
# list only cards of its own hand, or it exits with an error (the test
# would see a crash).
import sys

ORDER = "23456789TJQK"

def main():
    style = sys.argv[1] if len(sys.argv) > 1 else "high"
    out = sys.stdout
    hand = set()
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        if words[0] == "arbiter":
            out.write("bot 1 %s\n" % style)
        elif words[0] == "hand":
            hand = set(words[1])
            continue
        elif words[0] == "ask":
            items = words[words.index("legal") + 1:]
            if not items or not set(items) <= hand:
                sys.stderr.write("legal %s, hand %s\n" % (items, sorted(hand)))
                sys.exit(3)
            items.sort(key=ORDER.index)
            card = items[-1] if style == "high" else items[0]
            hand.discard(card)
            out.write("play %s\n" % card)
        elif words[0] == "end":
            return
        else:
            continue
        out.flush()

main()
