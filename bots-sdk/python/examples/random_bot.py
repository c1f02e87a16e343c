#!/usr/bin/env python3
"""An example bot: a uniformly random legal item, drawn from the seed the
referee gives this bot, so the same match replays exactly."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arbiter_bot  # noqa: E402

rng = None


def choose(view, request):
    global rng
    if rng is None:
        rng = random.Random(view.seed)
    return rng.choice(request.legal)


if __name__ == "__main__":
    arbiter_bot.run(choose, name="py-random")
