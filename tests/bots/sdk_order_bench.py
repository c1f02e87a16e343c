#!/usr/bin/env python3
# Usage: ABOT_ORDER_DUMP=build/bots-sdk/c/sdk_order_dump python3 tests/bots/sdk_order_bench.py [N]
# Per-decision cost of the Python SDK on a typical lead: the whole turn
# (read the request, order the legal list, build the Request, reply), median.
import io, os, subprocess, sys, time, statistics, contextlib
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bots-sdk", "python"))
import arbiter_bot
hand = "3334445566789TJQKA2BR"
moves = subprocess.run([os.environ["ABOT_ORDER_DUMP"], "doudizhu"], input=(
    "arbiter 1 doudizhu\nmatch players 3 deals 1 rules standard seed 1\noption players=3\n"
    "deal 0 seat 0\nhand %s\nlandlord 0 3\nask play time 1000 -1 30000\nend 0\n" % hand),
    capture_output=True, text=True).stdout.split()[1:]
import random
random.seed(1)
random.shuffle(moves)   # the referee's order is not the documented one
N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
head = ("arbiter 1 doudizhu\nmatch players 3 deals 1 rules standard seed 1\noption players=3\n"
        "deal 0 seat 0\nhand %s\nlandlord 0 3\n" % hand)
ask = "ask play time 1000 -1 30000 legal %s\n" % " ".join(moves)
stamps = []
def choose(v, r):
    stamps.append(time.perf_counter())
    return 0
src = io.BytesIO((head + ask * N + "end 0\n").encode())
with contextlib.redirect_stderr(io.StringIO()):
    arbiter_bot.run_streams(choose, "bench", src, io.BytesIO())
d = [b - a for a, b in zip(stamps, stamps[1:])]
print("python lead of %d items: median %.0f us per decision (%d decisions)" % (len(moves), statistics.median(d) * 1e6, len(d)))
