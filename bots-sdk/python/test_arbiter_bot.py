"""Tests of the Python bot module: scripted referee conversations through
run_streams, and the example bots as real processes on pipes."""
import io
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import arbiter_bot  # noqa: E402
from arbiter_bot import cards_of, classify, parse_play  # noqa: E402

HEADER = [
    "arbiter 1 doudizhu",
    "match players 3 deals 1 rules standard seed 88",
    "option players=3",
    "clock move 1000 deal -1 bank 30000",
    "ready",
    "deal 0 seat 1",
    "hand 33456789TTJJQKKA2",
    "first 0",
]


def converse(choose, lines):
    """Run the module on a scripted conversation; return (replies, view)."""
    out = io.BytesIO()
    seen = {}

    def spy(view, request):
        seen["view"] = view
        seen.setdefault("requests", []).append(request)
        return choose(view, request)

    arbiter_bot.run_streams(spy, "tester", io.BytesIO(("\n".join(lines) + "\n").encode()), out)
    return out.getvalue().decode().splitlines(), seen


class Protocol(unittest.TestCase):
    def test_handshake_asks_for_legal_lists(self):
        replies, _ = converse(lambda v, r: 0, ["arbiter 1 doudizhu"])
        self.assertEqual(replies, ["bot 1 tester legal"])

    def test_every_reply_is_a_legal_item(self):
        lines = HEADER + [
            "bid 0 1",
            "ask bid time 1000 -1 30000 legal pass 2 3",
            "bid 1 3",
            "bid 2 0",
            "landlord 1 3",
            "kitty 4BR",
            "ask play time 1000 -1 30000 legal 3 4 33 3456789TJQKA pass",
        ]
        replies, seen = converse(lambda v, r: len(r.legal) - 2, lines)
        self.assertEqual(replies[1:], ["2", "3456789TJQKA"])
        self.assertEqual(seen["requests"][0].legal, ["pass", "2", "3"])
        self.assertEqual(seen["requests"][1].move_ms, 1000)
        self.assertEqual(seen["requests"][1].bank_ms, 30000)

    def test_view_tracks_kitty_own_plays_and_to_beat(self):
        lines = HEADER + [
            "landlord 1 3",
            "kitty 4BR",
            "counts 17 20 17",
            "play 1 3456789TJQKA chain",
            "counts 17 8 17",
            "play 2 456789TJQKA2 chain",
            "ask play beat 2 456789TJQKA2 chain time 1000 -1 29000 legal pass",
        ]
        _, seen = converse(lambda v, r: "pass", lines)
        v = seen["view"]
        self.assertEqual(v.landlord, 1)
        self.assertEqual(v.stake, 3)
        # 17 dealt + 3 kitty - 12 played
        self.assertEqual(v.hand_text, "34TJK2BR")
        self.assertEqual(v.counts, [17, 8, 17])
        self.assertEqual(v.to_beat, (2, "456789TJQKA2", "chain"))
        self.assertEqual(seen["requests"][0].beat, (2, "456789TJQKA2", "chain"))
        self.assertFalse(v.partner(2))
        self.assertTrue(v.partner(1))

    def test_round_ends_after_two_passes(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 3 solo", "pass 1", "pass 2",
                          "ask play time 1000 -1 30000 legal 3 4 pass"]
        _, seen = converse(lambda v, r: 0, lines)
        self.assertIsNone(seen["view"].to_beat)

    def test_unknown_events_and_malformed_lines_are_survived(self):
        lines = HEADER + [
            "sunspots 17 high",
            "counts x y z",
            "deal nope",
            "",
            "ask bid time 1000 -1 30000 legal pass 1",
        ]
        replies, _ = converse(lambda v, r: "1", lines)
        self.assertEqual(replies[-1], "1")

    def test_an_illegal_choice_becomes_the_first_legal_item(self):
        lines = HEADER + ["ask bid time 1000 -1 30000 legal pass 1 2 3"]
        replies, _ = converse(lambda v, r: "bid 9", lines)
        self.assertEqual(replies[-1], "pass")
        replies, _ = converse(lambda v, r: 17, lines)
        self.assertEqual(replies[-1], "pass")

    def test_a_raising_bot_still_answers(self):
        def boom(v, r):
            raise RuntimeError("bug")
        replies, _ = converse(boom, HEADER + ["ask play time 1 -1 1 legal 3 pass"])
        self.assertEqual(replies[-1], "3")

    def test_end_stops_the_loop(self):
        replies, _ = converse(lambda v, r: 0, HEADER + ["end 5", "ask bid time 1 -1 1 legal pass"])
        self.assertEqual(replies, ["bot 1 tester legal"])


class Helpers(unittest.TestCase):
    def test_parse_play(self):
        self.assertEqual(parse_play("pass"), ([], [], []))
        cards, primary, kickers = parse_play("333444+56")
        self.assertEqual(len(cards), 8)
        self.assertEqual(primary, cards_of("333444"))
        self.assertEqual(kickers, cards_of("56"))
        cards, primary, kickers = parse_play("3377=333+7")
        self.assertEqual(cards, cards_of("3377"))
        self.assertEqual(primary, cards_of("333"))

    def test_classify(self):
        self.assertEqual(classify("BR")["kind"], "rocket")
        self.assertEqual(classify("7777")["kind"], "bomb")
        self.assertEqual(classify("7777+34")["kind"], "other")
        self.assertEqual(classify("345678")["rank"], 0)
        self.assertEqual(classify("pass")["kind"], "pass")


def start(script):
    return subprocess.Popen([sys.executable, os.path.join(HERE, "examples", script)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def talk(script, lines):
    p = start(script)
    out, _ = p.communicate("\n".join(lines) + "\n", timeout=30)
    return out.splitlines()


class ExampleBots(unittest.TestCase):
    def test_random_bot_is_seeded(self):
        ask = ["ask play time 1000 -1 30000 legal " + " ".join("3456789TJQKA2"[i:] for i in range(12))] * 5
        a = talk("random_bot.py", HEADER + ask)
        b = talk("random_bot.py", HEADER + ask)
        c = talk("random_bot.py", [h.replace("seed 88", "seed 89") for h in HEADER] + ask)
        self.assertEqual(a, b)
        self.assertNotEqual(a[1:], c[1:])

    def test_greedy_bot_passes_rather_than_beat_its_partner(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 2 5 solo",
                          "ask play beat 2 5 solo time 1000 -1 30000 legal 6 7 K pass"]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "pass")

    def test_greedy_bot_beats_an_opponent_with_the_smallest_winning_play(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 5 solo",
                          "ask play beat 0 5 solo time 1000 -1 30000 legal K 6 2222 7 pass"]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "6")

    def test_greedy_bot_bids_by_strength(self):
        strong = [h if not h.startswith("hand") else "hand 3456789TJQ22BRR" for h in HEADER]
        weak = [h if not h.startswith("hand") else "hand 3345678899TTJQK" for h in HEADER]
        ask = ["ask bid time 1000 -1 30000 legal pass 1 2 3"]
        self.assertEqual(talk("greedy_bot.py", strong + ask)[-1], "3")
        self.assertEqual(talk("greedy_bot.py", weak + ask)[-1], "pass")


if __name__ == "__main__":
    unittest.main()
