#!/usr/bin/env python3
"""dabang_privacy.py LOG0 LOG1 LOG2 LOG3 — what each Da Bang seat was told
(every line the referee sent one bot, bot i in LOGi; tests/bots/
log_received.sh keeps them), checked against schemas/bot-protocol.md:
a partner's hand is as hidden as an opponent's.

Per deal and bot:
- it is told exactly its own 39 draws (after the last redeal), and the
  four bots' draws together never hold a card more than the three packs
  do: no bot is told a card another hand holds;
- every card it plays came to it: drawn, taken from the kitty, or given
  to it (tribute to the 打家, a card returned to a tribute giver);
- the private events carry a card only to those who see it: `tribute` and
  `return` to the giver and the 打家, `take CARDS` to the 打家, `bury SEAT
  CARD` to the burier.
Prints one line per violation; exit 1 when there is one."""
import re
import sys
from collections import Counter

CARD = re.compile(r"[3-9TJQKA2][SHCD]|BJ|RJ")


def cards(text):
    return CARD.findall(text.upper())


def deals_of(path):
    """[(deal, seat, lines)] for every deal in a log."""
    out = []
    for line in open(path, encoding="utf-8", errors="replace"):
        w = line.split()
        if len(w) == 4 and w[0] == "deal" and w[2] == "seat" and w[1].isdigit():
            out.append((int(w[1]), int(w[3]), []))
        elif out:
            out[-1][2].append(w)
    return out


def check_deal(name, deal, seat, lines, bad):
    dajia = -1
    draws = Counter()
    came = Counter()            # cards given to this seat besides its draws
    gave_tribute = False
    for w in lines:
        if not w:
            continue
        v = w[0]
        if v == "deal" and "dajia" in w:
            dajia = int(w[w.index("dajia") + 1])
        elif v == "trump" and "dajia" in w:
            dajia = int(w[w.index("dajia") + 1])
        elif v == "redeal":
            draws.clear()
        elif v == "draw":
            draws.update(cards(w[1]))
        elif v == "tribute" and len(w) > 2:
            giver = int(w[1])
            if seat not in (giver, dajia):
                bad.append(f"{name} deal {deal}: seat {seat} told the tribute card of seat {giver}: {' '.join(w)}")
            if seat == giver:
                gave_tribute = True
            else:
                came.update(cards(w[2]))
        elif v == "return" and len(w) > 2:
            if seat != dajia and not gave_tribute:
                bad.append(f"{name} deal {deal}: seat {seat} told a returned card: {' '.join(w)}")
            if seat != dajia:
                came.update(cards(w[2]))
        elif v == "take" and len(w) > 1 and not w[1].isdigit():
            if seat != dajia:
                bad.append(f"{name} deal {deal}: seat {seat} told the kitty the 打家 {dajia} took: {' '.join(w)}")
            came.update(cards(w[1]))
        elif v == "takeback" and len(w) > 2 and int(w[1]) == seat:
            came.update(cards(w[2]))
        elif v == "bury" and len(w) > 2 and int(w[1]) != seat:
            bad.append(f"{name} deal {deal}: seat {seat} told the card seat {w[1]} buried: {' '.join(w)}")
    played = Counter()
    for w in lines:
        if len(w) == 3 and w[0] == "play" and int(w[1]) == seat:
            played.update(cards(w[2]))
    n = sum(draws.values())
    if n != 39:
        bad.append(f"{name} deal {deal}: seat {seat} was told {n} draws, not its own 39")
    extra = played - (draws + came)
    if extra:
        bad.append(f"{name} deal {deal}: seat {seat} played cards it was never given: {dict(extra)}")
    return draws


def main(paths):
    bad = []
    logs = [deals_of(p) for p in paths]
    ndeals = min(len(x) for x in logs)
    if ndeals == 0 or any(len(x) != ndeals for x in logs):
        bad.append(f"deals per log: {[len(x) for x in logs]}")
    for k in range(ndeals):
        total = Counter()
        seats = set()
        for b, log in enumerate(logs):
            deal, seat, lines = log[k]
            seats.add(seat)
            total += check_deal(f"bot {b}", deal, seat, lines, bad)
        if seats != {0, 1, 2, 3}:
            bad.append(f"deal {k}: seats {sorted(seats)}")
        over = {c: n for c, n in total.items() if n > 3}
        if over or sum(total.values()) != 156:
            bad.append(f"deal {k}: the four seats were told {sum(total.values())} draws; beyond three packs: {over}")
    for line in bad:
        print(line)
    print(f"{ndeals} deals, {len(bad)} violations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:5]))
