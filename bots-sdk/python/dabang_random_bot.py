#!/usr/bin/env python3
"""An example Da Bang bot: a uniformly random legal item for every decision,
drawn with the seed the referee gives this bot in the `match` line, so the
same match replays exactly."""
import random
import sys

import arbiter_bot.dabang as db

_rng = None


def choose(view, request):
    global _rng
    if _rng is None:              # the seed is known once `match` has been read
        _rng = random.Random(view.seed)
    return _rng.choice(request.legal)


if __name__ == "__main__":
    sys.exit(db.run(choose, name="py-db-random"))
