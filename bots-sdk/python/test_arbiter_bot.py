"""Tests of the Python bot module: scripted referee conversations through
run_streams, the example bots as real processes on pipes, and (when the
referee is built: $ARBITER, set by meson) whole matches against the real
referee with a bot that checks its View against every request.

    cd bots-sdk/python && python3 -m unittest -v
"""
import contextlib
import io
import json
import os
import random
import subprocess
import sys
import shutil
import tempfile
import unittest
from collections import Counter as collections_counter

import arbiter_bot
from arbiter_bot import classify, parse_play, sort_cards

# The package and the example bots lie beside this file: Python finds them
# from here (`python3 -m unittest` in this directory, or this file run as a
# bot), as a bot finds an arbiter_bot shipped beside it.
HERE = os.path.dirname(os.path.abspath(__file__))

HEADER = [
    "arbiter 1 doudizhu",
    "match players 3 deals 1 rules standard seed 88",
    "option players=3",
    "option packs=1",
    "clock move 1000 deal -1 bank 30000",
    "ready",
    "deal 0 seat 1",
    "hand 33456789TTJJQKKA2",
    "first 0",
]
ASK_BID = "ask bid time 1000 -1 30000 legal pass 1 2 3"


def converse(choose, lines, name="tester", raw=None):
    """Run the module on a scripted conversation; return (replies, seen)."""
    out = io.BytesIO()
    seen = {"requests": [], "hands": []}

    def spy(view, request):
        seen["view"] = view
        seen["requests"].append(request)
        seen["hands"].append(view.hand)
        return choose(view, request)

    data = raw if raw is not None else ("\n".join(lines) + "\n").encode()
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        seen["rc"] = arbiter_bot.run_streams(spy, name, io.BytesIO(data), out)
    seen["stderr"] = err.getvalue()
    return out.getvalue().decode().splitlines(), seen


def with_hand(hand, lines=HEADER):
    return [("hand " + hand) if h.startswith("hand ") else h for h in lines]


class Handshake(unittest.TestCase):
    def test_handshake_asks_for_legal_lists(self):
        replies, _ = converse(lambda v, r: 0, ["arbiter 1 doudizhu"])
        self.assertEqual(replies, ["bot 1 tester legal"])

    def test_a_bad_name_is_made_valid(self):
        replies, _ = converse(lambda v, r: 0, ["arbiter 1 doudizhu"], name="my bot!" + "x" * 40)
        self.assertEqual(replies, ["bot 1 my-bot-" + "x" * 25 + " legal"])
        replies, _ = converse(lambda v, r: 0, ["arbiter 1 doudizhu"], name="")
        self.assertEqual(replies, ["bot 1 python legal"])

    def test_match_settings_reach_the_view(self):
        _, seen = converse(lambda v, r: 0, HEADER + ["option kicker_bomb=true", "option compare=douzero",
                                                     ASK_BID])
        v = seen["view"]
        self.assertEqual((v.game, v.players, v.deals, v.rules, v.seed), ("doudizhu", 3, 1, "standard", 88))
        self.assertEqual(v.clock, {"move": 1000, "deal": -1, "bank": 30000})
        self.assertEqual(v.options["kicker_bomb"], "true")
        self.assertIs(v.option("kicker_bomb"), True)
        self.assertEqual(v.option("packs"), 1)
        self.assertEqual(v.option("compare"), "douzero")
        self.assertEqual(v.option("missing", 7), 7)
        self.assertEqual((v.deal, v.seat, v.first), (0, 1, 0))


class Replies(unittest.TestCase):
    def test_every_reply_is_a_legal_item(self):
        lines = HEADER + [
            "bid 0 1",
            "ask bid time 1000 -1 30000 legal pass 2 3",
            "bid 1 3",
            "landlord 1 3",
            "kitty 4BR",
            "ask play time 900 5000 29000 legal 3 4 33 3456789TJQKA 333+4",
        ]
        replies, seen = converse(lambda v, r: len(r.legal) - 2, lines)
        # the documented order: by kind (solo, pair, trio_solo, chain), then rank
        self.assertEqual(replies, ["bot 1 tester legal", "2", "333+4"])
        first, second = seen["requests"]
        self.assertEqual((first.decision, first.legal, first.beat), ("bid", ["pass", "2", "3"], None))
        self.assertEqual(second.legal, ["3", "4", "33", "333+4", "3456789TJQKA"])
        self.assertEqual((second.move_ms, second.deal_ms, second.bank_ms), (900, 5000, 29000))
        self.assertTrue(second.leading)

    def test_replies_written_another_way_become_the_legal_item(self):
        ask = ["ask play beat 0 33 pair time 1000 -1 30000 legal 44 TT 333+4 pass"]
        # ordered: pass, 44, TT, 333+4
        cases = {"play TT": "TT", " 44 ": "44", "play 4333": "333+4", "3334": "333+4", "no": "pass",
                 -1: "333+4", 1: "44", 0: "pass", "PASS": "pass"}
        for choice, expect in cases.items():
            replies, _ = converse(lambda v, r: choice, HEADER + ask)
            self.assertEqual(replies[-1], expect, choice)
        replies, _ = converse(lambda v, r: "bid 2", HEADER + [ASK_BID])
        self.assertEqual(replies[-1], "2")
        replies, _ = converse(lambda v, r: "0", HEADER + [ASK_BID])
        self.assertEqual(replies[-1], "pass")

    def test_an_illegal_choice_passes_where_passing_is_legal(self):
        """Before: the first legal item (here the bomb 5555, first in the
        referee's list) replaced any illegal choice."""
        for choice in ("bid 9", 17, -5, None, True, 2.0, "KKKK"):
            replies, seen = converse(lambda v, r: choice,
                                     HEADER + ["ask play beat 0 4 solo time 1 -1 1 legal 5555 6 pass"])
            self.assertEqual(replies[-1], "pass", choice)
            self.assertIn("the bot chose %r, not a legal item; answering 'pass' (passing is legal)" % (choice,),
                          seen["stderr"])

    def test_an_illegal_lead_plays_the_smallest_item(self):
        """Leading (no pass): the first of the ordered list, the lowest solo."""
        replies, seen = converse(lambda v, r: "KKKK", HEADER + ["ask play time 1 -1 1 legal 3333 44 TT 5 4"])
        self.assertEqual(replies[-1], "4")
        self.assertIn("answering '4' (the smallest legal item, passing is not legal)", seen["stderr"])

    def test_a_raising_bot_passes_and_shows_the_traceback(self):
        def boom(v, r):
            raise RuntimeError("bug")
        replies, seen = converse(boom, HEADER + ["ask play beat 0 4 solo time 1 -1 1 legal 3333 5 pass",
                                                 "ask play time 1 -1 1 legal 9 3",
                                                 ASK_BID])
        self.assertEqual(replies[1:], ["pass", "3", "pass"])
        self.assertIn("the bot raised RuntimeError: bug; answering 'pass' (passing is legal)", seen["stderr"])
        self.assertIn("Traceback (most recent call last)", seen["stderr"])
        self.assertIn('raise RuntimeError("bug")', seen["stderr"])

    def test_strict_mode_sends_the_bots_own_answer(self):
        cases = {"KKKK": "KKKK", "play 3 4": "play 3 4", 17: "17", None: "None", "x\ny": "x"}
        for choice, sent in cases.items():
            out = io.BytesIO()
            err = io.StringIO()
            data = ("\n".join(HEADER + ["ask play beat 0 4 solo time 1 -1 1 legal 5 pass"]) + "\n").encode()
            with contextlib.redirect_stderr(err):
                arbiter_bot.run_streams(lambda v, r: choice, "t", io.BytesIO(data), out, strict=True)
            self.assertEqual(out.getvalue().decode().splitlines()[-1], sent, choice)
            self.assertIn("strict mode: sending %r" % sent, err.getvalue())
        # a legal choice is still the legal item; an exception answers `error`
        replies = []
        for choose in (lambda v, r: "5", lambda v, r: 1 / 0):
            out, err = io.BytesIO(), io.StringIO()
            data = ("\n".join(HEADER + ["ask play beat 0 4 solo time 1 -1 1 legal 5 pass"]) + "\n").encode()
            with contextlib.redirect_stderr(err):
                arbiter_bot.run_streams(choose, "t", io.BytesIO(data), out, strict=True)
            replies.append(out.getvalue().decode().splitlines()[-1])
        self.assertEqual(replies, ["5", "error"])
        self.assertIn("ZeroDivisionError", err.getvalue())
        # the environment turns it on when run() is not told
        os.environ["ARBITER_BOT_STRICT"] = "1"
        try:
            replies, _ = converse(lambda v, r: "KKKK", HEADER + ["ask play time 1 -1 1 legal 5 6"])
        finally:
            del os.environ["ARBITER_BOT_STRICT"]
        self.assertEqual(replies[-1], "KKKK")

    def test_a_request_that_lost_its_legal_list_is_still_answered(self):
        lines = HEADER + ["ask bid time 1000 -1 30000",
                          "ask play time x y z",
                          "ask play beat 0 5 solo time 1000 -1 30000",
                          "ask"]
        called = []
        replies, _ = converse(lambda v, r: called.append(r), lines)
        self.assertEqual(replies[1:], ["pass", "3", "pass", "pass"])   # lead the lowest card
        self.assertEqual(called, [])

    def test_a_failure_inside_the_module_still_answers(self):
        saved = arbiter_bot._Loop.resolve
        arbiter_bot._Loop.resolve = lambda self, choice, legal, decision: 1 / 0
        try:
            replies, seen = converse(lambda v, r: 1, HEADER + ["ask play time 1 -1 1 legal 55 pass", ASK_BID])
        finally:
            arbiter_bot._Loop.resolve = saved
        self.assertEqual(replies[1:], ["pass", "pass"])
        self.assertIn("ZeroDivisionError", seen["stderr"])

    def test_a_request_with_an_unreadable_clock_is_answered(self):
        replies, seen = converse(lambda v, r: "2", HEADER + ["ask bid time 1000 soon 30000 legal pass 2"])
        self.assertEqual(replies[-1], "2")
        self.assertEqual(seen["requests"][0].legal, ["pass", "2"])


class Tracking(unittest.TestCase):
    def test_view_tracks_kitty_own_plays_counts_and_to_beat(self):
        lines = HEADER + [
            "bid 0 1", "bid 1 3",
            "landlord 1 3",
            "kitty 4BR",
            "ask play time 1000 -1 30000 legal 3 3456789TJQKA",
            "play 1 3456789TJQKA chain",
            "counts 17 8 17",
            "play 2 456789TJQKA2 chain",
            "counts 17 8 5",
            "ask play beat 2 456789TJQKA2 chain time 1000 -1 29000 legal pass",
        ]
        _, seen = converse(lambda v, r: r.legal[-1], lines)
        v = seen["view"]
        self.assertEqual(seen["hands"][0], "334456789TTJJQKKA2BR")     # 17 dealt + kitty
        self.assertEqual(v.hand, "34TJK2BR")                           # ... - 12 played
        self.assertEqual(v.hand_text, "34TJK2BR")
        self.assertEqual(v.dealt, "33456789TTJJQKKA2")
        self.assertEqual((v.landlord, v.stake, v.kitty), (1, 3, "4BR"))
        self.assertTrue(v.is_landlord)
        self.assertEqual(v.auction, [("bid", 0, 1), ("bid", 1, 3)])
        self.assertEqual(v.counts, [17, 8, 5])
        self.assertEqual(v.to_beat, (2, "456789TJQKA2", "chain"))
        self.assertEqual(v.to_beat.seat, 2)
        self.assertEqual(seen["requests"][1].beat, (2, "456789TJQKA2", "chain"))
        self.assertEqual(v.history, [(1, "3456789TJQKA", "chain"), (2, "456789TJQKA2", "chain")])
        self.assertEqual(v.played, ["", "3456789TJQKA", "456789TJQKA2"])
        self.assertEqual(v.hand_counts()["T"], 1)
        self.assertFalse(v.partner(2))
        self.assertTrue(v.partner(1))
        self.assertEqual(v.opponents(), [0, 2])
        # 54 cards - 8 in hand - 12 played by seat 2 (own plays left the hand already)
        self.assertEqual(len(v.outstanding()), 54 - 8 - 12)
        self.assertEqual(v.outstanding().count("4"), 4 - 1 - 1)

    def test_partners_are_the_two_peasants(self):
        _, seen = converse(lambda v, r: 0, HEADER + ["landlord 0 1", "kitty 345", ASK_BID])
        v = seen["view"]
        self.assertTrue(v.partner(2))
        self.assertFalse(v.partner(0))
        self.assertEqual(v.opponents(), [0])
        self.assertEqual(v.counts, [20, 17, 17])

    def test_round_ends_after_every_other_seat_passes(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 3 solo", "pass 1", "pass 2",
                          "ask play time 1000 -1 30000 legal 3 4"]
        _, seen = converse(lambda v, r: 0, lines)
        self.assertIsNone(seen["view"].to_beat)
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 3 solo", "pass 1", "ask bid time 1 -1 1 legal pass"]
        _, seen = converse(lambda v, r: 0, lines)
        self.assertEqual(seen["view"].to_beat, (0, "3", "solo"))

    def test_four_players_need_three_passes(self):
        header = [h.replace("players 3", "players 4") for h in HEADER if not h.startswith("option")]
        header = with_hand("3333444455556666777788889", header) + ["option packs=2"]
        lines = header + ["landlord 0 1", "kitty 99TTJJQQ", "play 0 3 solo", "pass 1", "pass 2",
                          "ask bid time 1 -1 1 legal pass", "pass 3", "ask bid time 1 -1 1 legal pass"]
        _, seen = converse(lambda v, r: 0, lines)
        v = seen["view"]
        self.assertEqual(v.players, 4)
        self.assertEqual(v.packs, 2)
        self.assertEqual(v.counts, [32, 25, 25, 25])
        self.assertEqual(len(v.played), 4)
        self.assertEqual(v.opponents(), [0])
        self.assertIsNone(v.to_beat)
        self.assertEqual(v.classify("BR").kind, "pair")       # two packs: BR is a pair
        self.assertEqual(v.classify("BBRR").kind, "rocket")

    def test_own_wild_play_leaves_the_hand_as_played(self):
        lines = with_hand("33456777TTJJQKKA2") + [
            "landlord 1 1", "kitty 89B", "wild 7",
            "play 1 3377=333+7 trio_solo", "counts 17 16 17",
            "ask play beat 1 3377=333+7 trio_solo time 1 -1 1 legal pass"]
        _, seen = converse(lambda v, r: 0, lines)
        v = seen["view"]
        self.assertEqual(v.wild, "7")
        self.assertEqual(v.hand, "456789TTJJQKKA2B")
        self.assertEqual(v.counts[1], 16)
        self.assertEqual(v.history[-1], (1, "3377", "trio_solo"))      # the cards that left the hand
        self.assertEqual((v.history[-1].reading, v.history[-1].text), ("333+7", "3377=333+7"))
        self.assertEqual(seen["requests"][0].beat, (1, "3377", "trio_solo"))
        self.assertEqual(seen["requests"][0].beat.reading, "333+7")

    def test_a_shown_hand_is_followed(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "show 0 1", "shown 0 334455KKK", "play 0 KKK+3 trio_solo",
                          ASK_BID]
        _, seen = converse(lambda v, r: 0, lines)
        self.assertEqual(seen["view"].shown, {0: "34455"})
        self.assertIn(("show", 0, 1), seen["view"].auction)

    def test_redeal_and_new_deal_reset_the_deal(self):
        lines = HEADER + ["bid 0 0", "bid 1 0", "bid 2 0", "redeal 1", "hand 3456789TJQKA2BR222",
                          "first 2", ASK_BID]
        _, seen = converse(lambda v, r: 0, lines)
        v = seen["view"]
        self.assertEqual((v.hand, v.redeals, v.first, v.auction), ("3456789TJQKA2222BR", 1, 2, []))
        lines = HEADER + ["landlord 1 2", "kitty 444", "play 1 33 pair", "result -2 4 -2",
                          "deal 1 seat 2", "hand 3456789TJQKA2BR4", ASK_BID]
        _, seen = converse(lambda v, r: 0, lines)
        v = seen["view"]
        self.assertEqual((v.deal, v.seat, v.landlord, v.kitty, v.history, v.to_beat),
                         (1, 2, -1, "", [], None))
        self.assertEqual(v.scores, [[-2, 4, -2]])
        self.assertEqual(v.total, 4)

    def test_results_penalties_notes_and_end(self):
        lines = HEADER + ["penalty 0 timeout autoplay", "note your reply \"9\" is not a bid",
                          "result 4 -2 -2", "deal 1 seat 0", "hand 3", "result 2 -1 -1", "end 5"]
        replies, seen = converse(lambda v, r: 0, lines + [ASK_BID])
        self.assertEqual(replies, ["bot 1 tester legal"])          # nothing after `end`
        self.assertEqual(seen["rc"], 0)
        # the view is not handed out without a request; look inside another way
        out = io.BytesIO()
        loop = arbiter_bot._Loop(lambda v, r: 0, "t", io.BytesIO(("\n".join(lines) + "\n").encode()), out)
        with contextlib.redirect_stderr(io.StringIO()):
            loop.run()
        v = loop.view
        self.assertEqual(v.penalties, [(0, "timeout", "autoplay")])
        self.assertEqual(v.notes, ["your reply \"9\" is not a bid"])
        self.assertEqual(v.scores, [[4, -2, -2], [2, -1, -1]])
        self.assertEqual((v.total, v.end_total), (-2 + 2, 5))


class Robustness(unittest.TestCase):
    def test_unknown_events_and_malformed_lines_are_survived(self):
        lines = HEADER + [
            "sunspots 17 high",
            "counts x y z",
            "deal nope",
            "deal 1 seat",
            "hand",
            "play 1",
            "play x 33 pair",
            "landlord",
            "kitty",
            "result 1 two 3",
            "   ",
            "\r",
            "match players many",
            "option",
            "clock move",
            "ask bid time 1000 -1 30000 legal pass 1",
        ]
        replies, seen = converse(lambda v, r: "1", lines)
        self.assertEqual(replies[-1], "1")
        self.assertEqual(seen["view"].hand, "33456789TTJJQKKA2")
        self.assertIn("cannot read 'counts x y z'", seen["stderr"])
        self.assertNotIn("sunspots", seen["stderr"])          # unknown events: silently ignored

    def test_garbage_bytes_and_crlf_are_survived(self):
        raw = ("\n".join(HEADER) + "\n").encode() + b"\xff\xfe\x00garbage\r\n\x80\n" + \
            b"ask bid time 1000 -1 30000 legal pass 3\r\n"
        replies, _ = converse(lambda v, r: r.legal[-1], None, raw=raw)
        self.assertEqual(replies[-1], "3")

    def test_eof_without_end_returns(self):
        replies, seen = converse(lambda v, r: 0, HEADER[:3])
        self.assertEqual((replies, seen["rc"]), (["bot 1 tester legal"], 0))
        raw = ("\n".join(HEADER) + "\n" + "ask bid time 1 -1 1 legal pass 2").encode()   # no final newline
        replies, _ = converse(lambda v, r: 1, None, raw=raw)
        self.assertEqual(replies[-1], "2")

    def test_overlong_lines_are_bounded(self):
        big = arbiter_bot.MAX_REQUEST + 1000
        event = b"sunspots " + b"x" * big + b"\n"
        items = " ".join(["3"] * ((arbiter_bot.MAX_REQUEST + 100) // 2)).encode()
        ask = b"ask play time 1 -1 1 legal 4 " + items + b"\n"
        raw = ("\n".join(HEADER) + "\n").encode() + event + ask + (ASK_BID + "\n").encode()
        got = []
        replies, seen = converse(lambda v, r: got.append(len(r.legal)) or 0, None, raw=raw)
        self.assertEqual(replies[1:], ["3", "pass"])        # ordered: the 3s before the 4
        self.assertEqual(seen["stderr"].count("longer than"), 2)
        self.assertLess(got[0], (arbiter_bot.MAX_REQUEST + 100) // 2)   # cut at the bound
        self.assertGreater(got[0], arbiter_bot.MAX_REQUEST // 2 - 100)

    def test_a_closed_output_ends_the_match_quietly(self):
        out = io.BytesIO()
        out.close()
        called = []
        with contextlib.redirect_stderr(io.StringIO()):
            rc = arbiter_bot.run_streams(lambda v, r: called.append(1) or 0, "t",
                                         io.BytesIO((ASK_BID + "\n" + ASK_BID + "\n").encode()), out)
        self.assertEqual((rc, len(called)), (0, 1))      # stopped at the first reply it could not write

    def test_text_streams_work_too(self):
        out = io.StringIO()
        arbiter_bot.run_streams(lambda v, r: 1, "t", io.StringIO("\n".join(HEADER + [ASK_BID]) + "\n"), out)
        self.assertEqual(out.getvalue().splitlines(), ["bot 1 t legal", "1"])

    def test_print_in_the_bot_goes_to_stderr(self):
        code = ("import arbiter_bot\n"
                "def choose(v, r):\n    print('thinking hard'); return 0\n"
                "arbiter_bot.run(choose, name='printer')\n")
        p = subprocess.run([sys.executable, "-c", code], input="\n".join(HEADER + [ASK_BID]) + "\n",
                           env=dict(os.environ, PYTHONPATH=HERE), capture_output=True, text=True, timeout=30)
        self.assertEqual(p.stdout.splitlines(), ["bot 1 printer legal", "pass"])
        self.assertIn("thinking hard", p.stderr)
        self.assertEqual(p.returncode, 0)


class Helpers(unittest.TestCase):
    def test_sort_cards(self):
        self.assertEqual(sort_cards("r2b3TT"), "3TT2BR")
        self.assertEqual(sort_cards("10JQKA"), "TJQKA")
        self.assertEqual(sort_cards("-"), "")

    def test_parse_play(self):
        self.assertEqual(parse_play("pass"), ("", "", ""))
        self.assertEqual(parse_play("333444+56"), ("33344456", "333444", "56"))
        self.assertEqual(parse_play("3377=333+7"), ("3377", "333", "7"))
        self.assertEqual(parse_play("7777=3333"), ("7777", "3333", ""))
        self.assertEqual(parse_play("play 3456789"), ("3456789", "3456789", ""))
        self.assertEqual(parse_play("BR"), ("BR", "BR", ""))

    def test_classify_kinds(self):
        table = {
            "3": ("solo", 0, 1), "R": ("solo", 14, 1), "33": ("pair", 0, 1), "222": ("trio", 12, 1),
            "333+4": ("trio_solo", 0, 1), "333+44": ("trio_pair", 0, 1), "34567": ("chain", 0, 5),
            "TJQKA": ("chain", 7, 5), "334455": ("pair_chain", 0, 3), "333444": ("airplane", 0, 2),
            "333444+56": ("airplane_solo", 0, 2), "333444+55": ("airplane_solo", 0, 2),
            "333444+5566": ("airplane_pair", 0, 2), "444555666+333": ("airplane_solo", 1, 3),
            "3333+45": ("four_two_solo", 0, 1), "JJJJ+77": ("four_two_solo", 8, 1),
            "3333+4455": ("four_two_pair", 0, 1), "33334444": ("shuttle", 0, 2),
            "44445555+37JQ": ("shuttle_solo", 1, 2), "7777": ("bomb", 4, 1), "BR": ("rocket", 13, 1),
            "222B": ("bomb", 12, 1), "222+B": ("trio_solo", 12, 1), "3377=333+7": ("trio_solo", 0, 1),
            "7777=3333": ("bomb", 0, 1), "pass": ("pass", -1, 0), "play 33": ("pair", 0, 1),
            # written without the reading: read as a lead (DDZ-15)
            "33344456": ("airplane_solo", 0, 2), "333444555888": ("airplane_solo", 0, 3),
            "333344": ("four_two_solo", 0, 1), "3334": ("trio_solo", 0, 1), "KKK99": ("trio_pair", 10, 1),
        }
        for item, (kind, rank, length) in table.items():
            p = classify(item)
            self.assertEqual((p.kind, p.rank, p.length), (kind, rank, length), item)
            self.assertEqual(p["kind"], kind)
        self.assertEqual(classify("333444+56").ncards, 8)
        self.assertTrue(classify("BR").is_bomb and classify("2222").is_bomb)
        self.assertFalse(classify("2222+34").is_bomb)
        self.assertEqual(classify("BR", packs=2).kind, "pair")
        self.assertEqual(classify("BBRR", packs=2).kind, "rocket")
        self.assertEqual(classify("88888", packs=2).kind, "bomb")

    def test_classify_compares(self):
        def beats(a, b, **kw):
            return classify(a, **kw).beats(classify(b, **kw))
        self.assertTrue(beats("4", "3"))
        self.assertFalse(beats("3", "4"))
        self.assertFalse(beats("44", "3"))
        self.assertTrue(beats("45678", "34567"))
        self.assertFalse(beats("456789", "34567"))
        self.assertTrue(beats("444+3", "333+K"))
        self.assertTrue(beats("3333", "AAA+2"))
        self.assertTrue(beats("4444", "3333"))
        self.assertTrue(beats("BR", "2222"))
        self.assertFalse(beats("2222", "BR"))
        self.assertTrue(beats("3333", "222B"))               # the small-three bomb is the lowest
        self.assertTrue(beats("RR", "BR", packs=2))
        self.assertTrue(beats("33333", "2222", packs=2))     # more cards, bigger bomb
        self.assertTrue(beats("3333", "7777=AAAA", wild="7"))  # hard beats soft
        self.assertTrue(beats("7777", "2222", wild="7"))     # pure wild beats hard
        self.assertTrue(classify("5").beats("4"))
        self.assertFalse(classify("pass").beats("3"))


def talk(script, lines):
    """Run an example bot as a process on pipes; return its stdout lines."""
    p = subprocess.Popen([sys.executable, os.path.join(HERE, script)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate("\n".join(lines) + "\n", timeout=30)
    if p.returncode != 0:
        raise AssertionError("%s exited %d: %s" % (script, p.returncode, err))
    return out.splitlines()


class ExampleBots(unittest.TestCase):
    ASK12 = ["ask play time 1000 -1 30000 legal " + " ".join("3456789TJQKA2"[i:] for i in range(12))] * 6

    def test_examples_are_executable_scripts(self):
        for script in ("random_bot.py", "greedy_bot.py"):
            path = os.path.join(HERE, script)
            self.assertTrue(os.access(path, os.X_OK), script)
            with open(path) as f:
                self.assertEqual(f.readline(), "#!/usr/bin/env python3\n")

    def test_random_bot_is_seeded(self):
        a = talk("random_bot.py", HEADER + self.ASK12)
        b = talk("random_bot.py", HEADER + self.ASK12)
        c = talk("random_bot.py", [h.replace("seed 88", "seed 89") for h in HEADER] + self.ASK12)
        legal = self.ASK12[0].split(" legal ")[1].split()
        self.assertEqual(a[0], "bot 1 py-random legal")
        self.assertEqual(len(a), 1 + len(self.ASK12))
        self.assertTrue(all(x in legal for x in a[1:]))
        self.assertEqual(a, b)
        self.assertNotEqual(a[1:], c[1:])

    def test_greedy_bot_passes_rather_than_beat_its_partner(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 2 5 solo", "counts 20 17 16",
                          "ask play beat 2 5 solo time 1000 -1 30000 legal 6 7 K 2 pass"]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "pass")

    def test_greedy_bot_beats_an_opponent_with_the_smallest_winning_play(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 5 solo", "counts 19 17 17",
                          "ask play beat 0 5 solo time 1000 -1 30000 legal K 7 2222 6 BR pass"]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "6")
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 666+3 trio_solo", "counts 16 17 17",
                          "ask play beat 0 666+3 trio_solo time 1000 -1 30000 legal KKK+3 999+3 TTT+4 2222 pass"]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "999+3")

    def test_greedy_bot_bombs_only_when_an_opponent_is_nearly_out(self):
        ask = "ask play beat 0 2 solo time 1000 -1 30000 legal 3333 BR pass"
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 2 solo", "counts 10 17 17", ask]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "pass")
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 2 solo", "counts 4 17 17", ask]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "3333")

    def test_greedy_bot_leads_the_most_cards_at_the_lowest_rank(self):
        lines = HEADER + ["landlord 1 1", "kitty 345",
                          "ask play time 1000 -1 30000 legal 3 4 33 44 34567 45678 3333 BR"]
        self.assertEqual(talk("greedy_bot.py", lines)[-1], "34567")

    def test_greedy_bot_bids_by_strength(self):
        ask = [ASK_BID]
        self.assertEqual(talk("greedy_bot.py", with_hand("3456789T222BRKKKK") + ask)[-1], "3")
        self.assertEqual(talk("greedy_bot.py", with_hand("3345678899TTJQKA2") + ask)[-1], "pass")
        self.assertEqual(talk("greedy_bot.py", with_hand("3345678899TTJQK2B") + ask)[-1], "1")
        # two packs: the same jokers and 2s are worth half as much
        four = [h.replace("players 3", "players 4").replace("packs=1", "packs=2") for h in HEADER]
        self.assertEqual(talk("greedy_bot.py", with_hand("33445566778899TTJJQK22BR", HEADER) + ask)[-1], "2")
        self.assertEqual(talk("greedy_bot.py", with_hand("33445566778899TTJJQQK22BR", four) + ask)[-1], "1")
        call = ["ask call time 1000 -1 30000 legal pass call"]
        self.assertEqual(talk("greedy_bot.py", with_hand("3456789TJQ22BRKKK") + call)[-1], "call")


def python_blocks(path):
    """The ```python blocks of a Markdown file."""
    with open(path) as f:
        text = f.read()
    return [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]


class DocumentedExamples(unittest.TestCase):
    """The bots printed in the documentation run as printed."""

    def run_doc_bot(self, code, lines):
        env = dict(os.environ, PYTHONPATH=HERE)
        p = subprocess.run([sys.executable, "-c", code], input="\n".join(lines) + "\n", env=env,
                           capture_output=True, text=True, timeout=30)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("arbiter_bot:", p.stderr)          # no fallback, no unreadable line
        return p.stdout.splitlines()

    def check(self, code):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 5 solo", "counts 19 17 17",
                          "ask play beat 0 5 solo time 1000 -1 30000 legal 8 6 2222 pass",
                          "play 1 6 solo", "counts 19 16 17", "play 2 7 solo",
                          "ask play beat 2 7 solo time 1000 -1 30000 legal 8 2222 pass", "end 0"]
        replies = self.run_doc_bot(code, lines)
        self.assertEqual(replies[0].split()[:2], ["bot", "1"])
        self.assertEqual(replies[0].split()[3], "legal")
        self.assertEqual(replies[2], "pass")                 # the partner's 7 stands
        self.assertIn(replies[1], ("8", "6", "2222", "pass"))
        return replies

    def test_the_readme_bot(self):
        code = python_blocks(os.path.join(HERE, "README.md"))[0]
        self.assertEqual(self.check(code)[1], "6")

    def test_the_bot_authors_guide_bot(self):
        path = os.path.join(HERE, "..", "..", "docs", "bot-authors.md")
        if not os.path.exists(path) or not python_blocks(path):
            self.skipTest("docs/bot-authors.md has no Python example")
        self.check(python_blocks(path)[0])

    def test_every_dou_dizhu_bot_of_the_guide_runs(self):
        path = os.path.join(HERE, "..", "..", "docs", "bot-authors.md")
        blocks = [b for b in python_blocks(path) if ".run(" in b and "dabang" not in b]
        self.assertGreaterEqual(len(blocks), 3)
        for code in blocks:
            self.check(code)

    def test_the_bot_authors_guide_dabang_bot(self):
        path = os.path.join(HERE, "..", "..", "docs", "bot-authors.md")
        blocks = [b for b in python_blocks(path) if "arbiter_bot.dabang" in b] if os.path.exists(path) else []
        if not blocks:
            self.skipTest("docs/bot-authors.md has no Da Bang example")
        lines = DAB_HEADER + ["draw 3D", "draw KD", "draw 7D", "trump S level 5 dajia 0 by flip",
                             "play 0 AD", "play 1 4D",
                             "ask play follow 0 AD winner 0 AD time 1000 -1 30000 legal 3D 7D KD",
                             "play 2 KD", "play 3 9D", "trick 0 10 points 10 0",
                             "ask play time 1000 -1 30000 legal 3D 7D", "end 0"]
        replies = self.run_doc_bot(blocks[0], lines)
        self.assertEqual(replies, ["bot 1 my-dabang legal", "KD", "3D"])



# ---- Da Bang ------------------------------------------------------------------

import arbiter_bot.dabang as db   # noqa: E402  (beside the Dou Dizhu tests it extends)

DAB_HEADER = [
    "arbiter 1 dabang",
    "match players 4 deals 1 rules standard seed 9",
    "option tribute=true",
    "clock move 1000 deal -1 bank 30000",
    "ready",
    "deal 0 seat 2",
    "deal seat 2 first drawer 0 level 5",
]


def dab_converse(choose, lines):
    out = io.BytesIO()
    seen = {"requests": []}

    def spy(view, request):
        seen["view"] = view
        seen["requests"].append(request)
        return choose(view, request)

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        arbiter_bot.run_streams(spy, "tester", io.BytesIO(("\n".join(lines) + "\n").encode()), out)
    seen["stderr"] = err.getvalue()
    return out.getvalue().decode().splitlines(), seen


class DaBangCards(unittest.TestCase):
    T = db.Trump("5", "H")

    def test_cards_read_and_print_in_id_order(self):
        self.assertEqual(db.card_id("3S"), 0)
        self.assertEqual(db.card_id("5h"), 9)
        self.assertEqual((db.card_id("BJ"), db.card_id("rj")), (52, 53))
        self.assertEqual(db.format_cards(db.parse_cards("KS4s4S")), "4S4SKS")
        self.assertEqual(db.format_cards(db.parse_cards("RJBJ")), "BJRJ")
        self.assertRaises(ValueError, db.parse_cards, "1S")
        self.assertEqual(db.points("5HTSKD3C"), 25)

    def test_power_follows_db_11(self):
        order = ["RJ", "BJ", "5H", "5S", "2H", "2D", "AH", "3H", "AS"]
        powers = [self.T.power(db.card_id(c)) for c in order]
        self.assertEqual(powers, sorted(powers, reverse=True))
        self.assertEqual(self.T.power(db.card_id("5S")), self.T.power(db.card_id("5C")))   # equal level cards
        self.assertTrue(self.T.is_trump(db.card_id("2D")))
        self.assertFalse(self.T.is_trump(db.card_id("AS")))
        self.assertEqual(self.T.fsuit(db.card_id("5S")), db.TRUMP)    # DB-12
        self.assertEqual(self.T.fsuit(db.card_id("9S")), "S")

    def test_follows_match_the_rules_table(self):
        # docs/rules/dabang.md "Following: worked examples", level 5, trump hearts
        table = [
            ("9S", "3SKS5S7D", "3S KS"), ("9S", "5S2S7D", "5S 7D 2S"), ("3H", "2D9CKS", "2D"),
            ("9S9S", "4S4SJS7D", "4S4S"), ("9S9S", "4S4S8S8SJS", "4S4S 8S8S"),
            ("9S9S", "4S4S4SJS7D", "4S4S 4SJS"), ("9S9S", "4S4S4S8S8S", "4S4S 8S8S"),
            ("9S9S", "JS3S7D7D", "3SJS"), ("9S9S", "JS7D7DQC", "7DJS JSQC"),
            ("9S9S", "7D7DQC2C2C", "7D7D 7DQC 7D2C QC2C 2C2C"), ("3H3H", "5S5C2D7D", "5S5C 5S2D 5C2D"),
            ("8S8S8S", "KSKSKS4S4S4S9S", "4S4S4S KSKSKS"), ("8S8S8S", "KSKS4S7D", "4SKSKS"),
            ("8S8S8S", "KSKS4S4S9S", "4S4S9S 4S4SKS 4SKSKS 9SKSKS"),
            ("8S8S8S", "KSKS7DQC", "7DKSKS QCKSKS"), ("8S8S8S", "KS4S9SJS", "4S9SJS 4S9SKS 4SJSKS 9SJSKS"),
            ("8S8S8S", "KS4S7D7DQC", "4S7DKS 4SQCKS"),
        ]
        for led, hand, want in table:
            self.assertEqual(sorted(db.follows(hand, led, self.T)), sorted(want.split()), (led, hand))
        self.assertEqual(db.leads("4S4S4SJS7D"), "4S 7D JS 4S4S 4S4S4S".split())

    def test_tricks_match_the_rules_table(self):
        table = [("9S9S BJRJ 3H3H KSTS", 2), ("9S9S 3H3H 4H4H 2C2C", 3), ("5S 5C 5D 3H", 0),
                 ("5S 5C 5H 2H", 2), ("2S 2C 2H AH", 2), ("KS KS 3H 2D", 3), ("TS 9C KS 7S", 2),
                 ("4D4D4D KDADAD 3S3S3S 6D6D6D", 3)]
        for plays, winner in table:
            self.assertEqual(db.trick_winner(self.T, plays.split()), winner, plays)


class DaBangView(unittest.TestCase):
    def test_a_deal_is_tracked_from_the_events(self):
        lines = DAB_HEADER + ["draw 5H", "draw KS", "draw 3D", "draw 3D", "draw AS", "draw RJ",
                             "declare 0 5S", "trump S level 5 dajia 0 by declared",
                             "tribute 1", "return 0", "kitty 3S4S6S7S8S9S", "take 0", "bury 0", "joker 0 BJ",
                             "buried 3S4S6S7S9SBJ", "takeback 0 8S",
                             "play 0 KD", "play 1 AD",
                             "ask play follow 0 KD winner 1 AD time 1000 -1 30000 legal 3D",
                             "play 2 3D", "play 3 TD", "trick 1 20 points 0 20", "end 4"]
        replies, seen = dab_converse(lambda v, r: 0, lines)
        v, r = seen["view"], seen["requests"][0]
        self.assertEqual(replies, ["bot 1 tester legal", "3D"])
        self.assertEqual((v.seat, v.team, v.partner_seat, v.first_drawer), (2, 0, 0, 0))
        self.assertEqual((v.level, v.trump_suit, v.dajia, v.trump_by), ("5", "S", 0, "declared"))
        self.assertEqual(v.declarations, [(0, "5S")])
        self.assertEqual(v.hand_text(), "3D5HKSASRJ")
        self.assertEqual(db.format_cards(v.kitty), "3S4S6S7S9SBJ")
        self.assertEqual(v.jokers, [(0, "BJ")])
        self.assertEqual((r.led, r.leader, r.winner, r.winning, r.leading), ("KD", 0, 1, "AD", False))
        self.assertEqual(v.points, [0, 20])
        self.assertEqual(v.tricks[0], db.Trick(0, [(0, "KD"), (1, "AD"), (2, "3D"), (3, "TD")], 1, 20))
        self.assertEqual(v.played[db.card_id("3D")], 1)
        self.assertTrue(v.partner(0) and not v.partner(1) and not v.partner(2))
        self.assertEqual(v.end_total, 4)
        self.assertNotIn("cannot read", seen["stderr"])

    def test_the_dajia_sees_the_kitty_tribute_and_burials(self):
        lines = ["arbiter 1 dabang", "deal 1 seat 0", "deal seat 0 dajia 0 level 4 levels 4 3 blood 1",
                 "draw 2S", "draw 7C", "draw 7C", "trump C level 4 dajia 0 by flip",
                 "tribute 3 AH", "ask return time 1000 -1 30000 legal 7C", "return 0 7C",
                 "take 3S3S4D6D8DQD", "ask bury time 1000 -1 30000 legal 3S 4D", "bury 0 3S",
                 "ask play time 1000 -1 30000 legal 2S", "result points 40 kitty 3S dug 0 case 2 rise 0 1 "
                 "levels 5 3 next 2 blood 0 winner -1", "result 1 -1 1 -1", "end 5"]
        replies, seen = dab_converse(lambda v, r: 0, lines)
        v = seen["view"]
        self.assertEqual(replies[1:], ["7C", "3S", "2S"])
        self.assertEqual((v.levels, v.blood, v.dajia, v.attacking()), (["4", "3"], 1, 0, True))
        self.assertEqual(v.tribute, [(3, "AH")])
        self.assertEqual(v.hand_text(), "3S4D6D7C8DQDAH2S")
        self.assertEqual(v.outcome["levels"], ["5", "3"])
        self.assertEqual(v.outcome["rise"], ["0", "1"])
        self.assertEqual(v.scores, [[1, -1, 1, -1]])
        self.assertEqual(v.total, 1)
        self.assertEqual(seen["requests"][2].leading, True)

    def test_another_seat_sees_a_pass_and_no_cards(self):
        lines = DAB_HEADER + ["draw 5H", "ask declare time 1000 -1 30000 legal pass 5H",
                             "declare 2 pass", "tribute 1", "bury 0", "redeal 1", "draw 4C", "end 0"]
        replies, seen = dab_converse(lambda v, r: "pass", lines)
        v = seen["view"]
        self.assertEqual(replies[1], "pass")
        self.assertEqual((v.declarations, v.tribute, v.buried, v.hand_text()), ([], [(1, None)], [(0, None)], "4C"))

    def test_replies_written_another_way(self):
        lines = DAB_HEADER + ["ask declare time 1000 -1 30000 legal pass 5H5H BJBJBJ:S", "end 0"]
        replies, _ = dab_converse(lambda v, r: "bjBJbj:s", lines)
        self.assertEqual(replies[1], "BJBJBJ:S")
        replies, _ = dab_converse(lambda v, r: "5h5H", lines)
        self.assertEqual(replies[1], "5H5H")


class ForAgents(unittest.TestCase):
    """What a ported agent needs: cards and reading apart, the documented
    order, positions relative to the landlord and to the 打家."""

    def test_moves_carry_cards_and_reading_apart(self):
        lines = HEADER + ["landlord 0 1", "kitty 345", "play 0 333444+56 airplane_solo",
                          "ask play beat 0 333444+56 airplane_solo time 1 -1 1 legal 555666+78 pass"]
        _, seen = converse(lambda v, r: 0, lines)
        r, v = seen["requests"][0], seen["view"]
        self.assertEqual((r.beat.seat, r.beat.cards, r.beat.kind, r.beat.reading), (0, "33344456", "airplane_solo",
                                                                                  "333444+56"))
        self.assertEqual((v.to_beat.cards, v.to_beat.reading), ("33344456", "333444+56"))
        self.assertEqual((v.history[0].cards, v.history[0].reading), ("33344456", "333444+56"))
        self.assertEqual(r.legal, ["pass", "555666+78"])
        self.assertEqual([(m.item, m.cards, m.reading, m.kind) for m in r.moves],
                         [("pass", "", "pass", "pass"), ("555666+78", "55566678", "555666+78", "airplane_solo")])
        # a move of request.moves is a valid answer too
        replies, _ = converse(lambda v, r: r.moves[1], lines)
        self.assertEqual(replies[-1], "555666+78")
        self.assertEqual(arbiter_bot.classify(v.to_beat).kind, "airplane_solo")

    def test_the_legal_list_order(self):
        ask = ("ask play time 1 -1 1 legal 3333 BR 5 34567 3 44 333+5 333+4 333+44 2222 45678 TTT 8888 "
               "333444+56 333444+57 333444+66")
        _, seen = converse(lambda v, r: 0, HEADER + [ask])
        self.assertEqual(seen["requests"][0].legal,
                         ["3", "5", "44", "TTT", "333+4", "333+5", "333+44", "34567", "45678",
                          "333444+56", "333444+57", "333444+66", "3333", "8888", "2222", "BR"])
        # the auction: pass first, then ascending
        _, seen = converse(lambda v, r: 0, HEADER + ["ask bid time 1 -1 1 legal 3 2 pass"])
        self.assertEqual(seen["requests"][0].legal, ["pass", "2", "3"])

    def test_the_order_of_wild_bombs_soft_natural_pure(self):
        _, seen = converse(lambda v, r: 0, HEADER + ["wild 7", "ask play time 1 -1 1 legal 7777 4444 3377=3333 9"])
        self.assertEqual(seen["requests"][0].legal, ["9", "3377=3333", "4444", "7777"])

    def test_roles_relative_to_the_landlord(self):
        _, seen = converse(lambda v, r: 0, HEADER + [ASK_BID])
        self.assertIsNone(seen["view"].role())
        self.assertEqual(seen["view"].seat_of("landlord_up"), -1)
        _, seen = converse(lambda v, r: 0, HEADER + ["landlord 2 1", "kitty 345", ASK_BID])
        v = seen["view"]
        self.assertEqual([v.role(s) for s in range(3)], ["landlord_down", "landlord_up", "landlord"])
        self.assertEqual(v.role(), "landlord_up")            # seat 1 plays right before the landlord
        self.assertEqual([v.seat_of(r) for r in arbiter_bot.ROLES], [2, 0, -1, 1])
        four = [h.replace("players 3", "players 4") if h.startswith("match") else
                "option players=4" if h == "option players=3" else h for h in HEADER]
        _, seen = converse(lambda v, r: 0, four + ["landlord 3 1", "kitty 345", ASK_BID])
        v = seen["view"]
        self.assertEqual([v.role(s) for s in range(4)], ["landlord_down", "landlord_across", "landlord_up",
                                                          "landlord"])
        self.assertEqual(v.seat_of("landlord_across"), 1)

    def test_roles_relative_to_the_dajia(self):
        lines = DAB_HEADER + ["draw 5H", "trump S level 5 dajia 3 by declared",
                             "ask play time 1000 -1 30000 legal 5H"]
        _, seen = dab_converse(lambda v, r: 0, lines)
        v = seen["view"]                                     # seat 2
        self.assertEqual([v.role(s) for s in range(4)], ["declarer_down", "declarer_partner", "declarer_up",
                                                          "declarer"])
        self.assertEqual(v.role(), "declarer_up")
        self.assertEqual([v.seat_of(r) for r in db.ROLES], [3, 0, 1, 2])

    def test_dabang_order_choices_and_fallbacks(self):
        lines = DAB_HEADER + ["draw 5H", "draw 5H", "trump S level 5 dajia 0 by declared",
                             "ask bury time 1000 -1 30000 legal 5H AS 3D 3S 2C 2S KD",
                             "ask joker time 1000 -1 30000 legal RJ BJ pass"]
        _, seen = dab_converse(lambda v, r: 0, lines)
        bury, joker = seen["requests"]
        # side cards (3D, KD) before trumps (3S AS, then the 2s, then the level 5H)
        self.assertEqual(bury.legal, ["3D", "KD", "3S", "AS", "2C", "2S", "5H"])
        self.assertEqual(bury.moves[0], db.Choice("3D", "3D", [db.card_id("3D")], None))
        self.assertEqual(joker.legal, ["pass", "BJ", "RJ"])
        # an invalid choice: the smallest (no pass in bury), pass for the joker
        replies, seen = dab_converse(lambda v, r: "QQ", lines)
        self.assertEqual(replies[1:], ["3D", "pass"])
        self.assertIn("answering '3D' (the smallest legal item, passing is not legal)", seen["stderr"])


class DaBangBots(unittest.TestCase):
    def test_examples_are_executable_scripts(self):
        for name in ("dabang_random_bot.py", "dabang_greedy_bot.py"):
            self.assertTrue(os.access(os.path.join(HERE, name), os.X_OK), name)

    def greedy(self, lines):
        import dabang_greedy_bot
        return dab_converse(dabang_greedy_bot.choose, lines)[0][1:]

    def test_greedy_adds_points_to_its_partners_trick(self):
        lines = DAB_HEADER + ["draw 3D", "draw KD", "draw 7D", "trump S level 5 dajia 0 by flip",
                             "play 0 AD", "play 1 4D",
                             "ask play follow 0 AD winner 0 AD time 1000 -1 30000 legal 3D 7D KD", "end 0"]
        self.assertEqual(self.greedy(lines), ["KD"])

    def test_greedy_trumps_a_trick_with_points_when_void(self):
        lines = DAB_HEADER + ["draw 3S", "draw 4C", "draw 2C", "trump S level 5 dajia 1 by flip",
                             "play 1 KD",
                             "ask play follow 1 KD winner 1 KD time 1000 -1 30000 legal 3S 4C 2C", "end 0"]
        self.assertEqual(self.greedy(lines), ["3S"])            # the cheapest trump wins it

    def test_greedy_follows_cheaply_without_points(self):
        lines = DAB_HEADER + ["draw 3D", "draw KD", "draw 9D", "trump S level 5 dajia 1 by flip",
                             "play 1 AD",
                             "ask play follow 1 AD winner 1 AD time 1000 -1 30000 legal 3D 9D KD", "end 0"]
        self.assertEqual(self.greedy(lines), ["3D"])

    def test_greedy_declaring_counts_trumps_and_cards_shown(self):
        # an overturn with a pair when the count favours it: hearts make 6 trumps + 2 shown
        hand = ["draw %s" % c for c in "5H 5H AH KH 2S 3C 4C 6D 7D 8S".split()]
        lines = DAB_HEADER + hand + ["declare 1 5S", "ask declare time 1000 -1 30000 legal pass 5H5H", "end 0"]
        self.assertEqual(self.greedy(lines), ["5H5H"])
        # the suit with more trumps wins among the items; three jokers count with the suit they name
        hand = ["draw %s" % c for c in "5H 5C BJ BJ BJ AC KC QC JC 3S".split()]
        lines = DAB_HEADER + hand + ["ask declare time 1000 -1 30000 legal pass 5H 5C BJBJBJ:C", "end 0"]
        self.assertEqual(self.greedy(lines), ["BJBJBJ:C"])
        # the first deal's big joker names no suit yet: its best suit counts
        hand = ["draw %s" % c for c in "RJ 2D AD KD QD JD 3S 4C".split()]
        lines = DAB_HEADER + hand + ["ask declare time 1000 -1 30000 legal pass RJ", "end 0"]
        self.assertEqual(self.greedy(lines), ["RJ"])

    def test_greedy_declares_with_many_trumps_and_buries_low(self):
        draws = ["draw %s" % c for c in "5H 2H 2S RJ BJ AH KH QH JH 9H 8H 7H 6H 4C".split()]
        lines = DAB_HEADER + draws + ["ask declare time 1000 -1 30000 legal pass 5H", "end 0"]
        self.assertEqual(self.greedy(lines), ["5H"])
        # one trump in twelve cards: the count (1 trump + 1 shown) is under a third of the hand plus one
        few = ["draw %s" % c for c in "5H 3C 4C 6C 7C 8C 9C 3D 4D 6D 7D 8D".split()]
        lines = DAB_HEADER + few + ["ask declare time 1000 -1 30000 legal pass 5H", "end 0"]
        self.assertEqual(self.greedy(lines), ["pass"])
        # early in the draw a few trumps suffice (3 trumps + 1 shown >= 3/3 + 1), as the C greedy bot
        lines = DAB_HEADER + draws[:3] + ["ask declare time 1000 -1 30000 legal pass 5H", "end 0"]
        self.assertEqual(self.greedy(lines), ["5H"])
        lines = DAB_HEADER + ["draw 3C", "draw KC", "draw 4D", "draw 3H", "trump H level 5 dajia 2 by flip",
                             "ask bury time 1000 -1 30000 legal 3C 3H 4D KC", "end 0"]
        self.assertEqual(self.greedy(lines), ["3C"])


# ---- against the real referee ---------------------------------------------

def check_bot(strategy):
    """A bot that checks its View against every request of a real match and
    exits (a penalty the test sees) when anything disagrees."""
    import greedy_bot
    import random_bot

    def fail(what):
        sys.stderr.write("VIEW MISMATCH: %s\n" % what)
        sys.stderr.flush()
        os._exit(3)

    def choose(view, request):
        if view.counts and 0 <= view.seat < len(view.counts) and len(view.hand) != view.counts[view.seat]:
            fail("hand %s but counts %r (seat %d)" % (view.hand, view.counts, view.seat))
        for m in view.history:
            c = view.classify(m)                 # its reading (m.text), not its bare cards
            if m.kind is not None and c.kind != m.kind:
                fail("classify(%r) = %s, the referee says %s" % (m.text, c.kind, m.kind))
            if m.kind is not None and (m.cards != c.cards or m.reading != c.reading):
                fail("history %r: cards %r reading %r, the text says %r %r" % (m.text, m.cards, m.reading,
                                                                               c.cards, c.reading))
        if request.decision == "play":
            # the play to beat, as the view tracked it from the events
            trail = 0
            for m in reversed(view.history):
                if m.kind is not None:
                    break
                trail += 1
            plays = [m for m in view.history if m.kind is not None]
            tracked = None
            if plays and trail < view.players - 1:
                tracked = (plays[-1].seat, plays[-1].cards, plays[-1].kind)
            if tracked != (tuple(view.to_beat) if view.to_beat else None):
                fail("tracked to-beat %r, view %r" % (tracked, view.to_beat))
            # the request names the same play (its text may read the wild cards otherwise)
            asked = request.beat and (request.beat.seat, parse_play(request.beat.cards)[0], request.beat.kind)
            if asked != (tracked and (tracked[0], parse_play(tracked[1])[0], tracked[2])):
                fail("tracked to-beat %r, request %r" % (tracked, request.beat))
            have = view.hand_counts()
            for item in request.legal:
                need = arbiter_bot.card_counts(parse_play(item)[0])
                if any(have[c] < n for c, n in need.items()):
                    fail("legal item %s not in hand %s" % (item, view.hand))
                if request.beat and item != "pass" and view.option("compare") == "standard" \
                        and not view.classify(item).beats(view.classify(view.to_beat)):
                    fail("classify says %s does not beat %s" % (item, view.to_beat.text))
            for item, move in zip(request.legal, request.moves):
                if move.item != item or move.cards != parse_play(item)[0]:
                    fail("request.moves %r does not match %r" % (move, item))
        return (greedy_bot if strategy == "greedy" else random_bot).choose(view, request)

    arbiter_bot.run(choose, name="check-" + strategy)


def check_dabang_bot(strategy):
    """A Da Bang bot that checks its View against every request of a real
    match — the legal plays it computes are the referee's, its hand holds
    every card it is asked to play, the trick it tracked is the one the
    request names — and exits (a penalty the test sees) when not."""
    import arbiter_bot.dabang as db
    import dabang_greedy_bot
    import dabang_random_bot

    def fail(what):
        sys.stderr.write("VIEW MISMATCH: %s\n" % what)
        sys.stderr.flush()
        os._exit(3)

    def choose(view, request):
        if request.decision == "play":
            if view.trump is None:
                fail("a play request before the trump suit")
            tricks = len(view.tricks)
            if any(len(t.plays) != 4 for t in view.tricks):
                fail("a trick without four plays: %r" % (view.tricks[-1],))
            if sum(t.points for t in view.tricks) != sum(view.points):
                fail("trick points %d, the teams' %r" % (sum(t.points for t in view.tricks), view.points))
            led = view.trick[0] if view.trick else None
            if (led and (led[0], led[1])) != (request.led and (request.leader, request.led)):
                fail("tracked trick %r, request led %r by %d" % (view.trick, request.led, request.leader))
            if view.trick:
                w = db.trick_winner(view.trump, [p for _, p in view.trick])
                if (view.trick[w][0], view.trick[w][1]) != (request.winner, request.winning):
                    fail("winner %r, the request says %d %s" % (view.trick[w], request.winner, request.winning))
            mine = sorted(view.legal_plays())
            if mine != sorted(request.legal):
                fail("trick %d hand %s led %s: computed %s, the referee %s"
                     % (tricks, view.hand_text(), request.led, mine, sorted(request.legal)))
        elif request.decision in ("bury", "tribute", "return"):
            for item in request.legal:
                if db.card_id(item) not in view.hand:
                    fail("%s item %s not in hand %s" % (request.decision, item, view.hand_text()))
        if len(view.hand) + len(view.played) > 162:
            fail("more cards than the packs hold")
        return (dabang_greedy_bot if strategy == "greedy" else dabang_random_bot).choose(view, request)

    db.run(choose, name="check-db-" + strategy)


# The referee runs bots as another user: name the interpreter the way a bot
# author would (looked up in PATH), not by this process's own path, which
# may lie where that user cannot reach.
PYTHON = os.environ.get("ARBITER_PYTHON", "python3")


def find_arbiter():
    path = os.environ.get("ARBITER", "")
    return path if path and os.access(path, os.X_OK) else None


@unittest.skipUnless(find_arbiter(), "the referee is not built ($ARBITER names build/cli/arbiter)")
class AgainstTheReferee(unittest.TestCase):
    # The deals follow from the seed and a secret (docs/rng.md): a secret of
    # our own, so that every run plays the same deals.
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.secret = os.path.join(cls.tmp.name, "secret")
        fd = os.open(cls.secret, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, b"5eed" * 16 + b"\n")
        os.close(fd)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def match(self, *args, bots=("random", "greedy", "random"), deals=6, seed=11):
        # not --quiet: a failure shows the penalties and their reasons
        cmd = [find_arbiter(), "match", "--game", "doudizhu", "--deals", str(deals), "--seed", str(seed),
               "--secret-file", self.secret, "--sandbox", "none", "--json", "--move-ms", "5000"] + list(args)
        for i, strategy in enumerate(bots):
            cmd += ["--bot", "%s%d=%s %s --check-bot %s" % (strategy, i, PYTHON,
                                                            os.path.abspath(__file__), strategy)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        result = json.loads(p.stdout)
        for bot in result["bots"]:
            self.assertEqual((bot["penalties"], bot["strikes"], bot["forfeited"]), (0, 0, False),
                             "%s: %s" % (bot["name"], p.stderr))
        return result

    def dabang_match(self, bots, deals=4, seed=11):
        cmd = [find_arbiter(), "match", "--game", "dabang", "--deals", str(deals), "--seed", str(seed),
               "--secret-file", self.secret, "--sandbox", "none", "--json", "--move-ms", "5000"]
        for i, strategy in enumerate(bots):
            cmd += ["--bot", "%s%d=%s %s --check-dabang-bot %s" % (strategy, i, PYTHON,
                                                                   os.path.abspath(__file__), strategy)]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr)
        result = json.loads(p.stdout)
        for bot in result["bots"]:
            self.assertEqual((bot["penalties"], bot["strikes"], bot["forfeited"]), (0, 0, False),
                             "%s: %s" % (bot["name"], p.stderr))
        return result

    def test_dabang_views_agree_with_the_referee(self):
        """Every play request of whole Da Bang matches: the view's legal
        plays are the referee's list, its trick and winner the request's."""
        self.dabang_match(("greedy", "random", "greedy", "random"), deals=6, seed=11)
        self.dabang_match(("random", "greedy", "random", "greedy"), deals=6, seed=12)

    def test_dabang_follows_agree_with_the_engine(self):
        """follows() and leads() against `arbiter moves --game dabang` on
        random hands, led plays and deals."""
        rng = random.Random(13)
        ids = [c for c in range(54) for _ in range(3)]
        n = 0
        for level in db.LEVELS:
            for suit in db.SUITS:
                t = db.Trump(level, suit)
                lines, want = [], []
                for _ in range(25):
                    hand = rng.sample(ids, rng.choice((3, 6, 10, 20, 39)))
                    led_card = rng.choice(ids)
                    led = [led_card] * rng.choice((1, 1, 2, 3))
                    if collections_counter(hand + led)[led_card] > 3 or len(led) > len(hand):
                        led = [led_card]
                        if collections_counter(hand + led)[led_card] > 3:
                            continue
                    lines += [db.format_cards(hand), db.format_cards(hand) + " " + db.format_cards(led)]
                    want += [db.leads(hand), db.follows(hand, led, t)]
                p = subprocess.run([find_arbiter(), "moves", "--game", "dabang", "--set",
                                    "level=%s,trump=%s" % (level, suit)],
                                   input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr)
                got = p.stdout.splitlines()
                self.assertEqual(len(got), len(lines))
                for line, g, w in zip(lines, got, want):
                    self.assertEqual(g.split(), w, "level %s trump %s: %s" % (level, suit, line))
                    n += 1
        self.assertGreater(n, 1500)


    def test_standard(self):
        self.match(deals=10)
        self.match("--set", "bidding=call-rob,doubling=true,show_mult=2,small_three_bomb=true,shuttle=true",
                   bots=("greedy", "random", "random"), deals=10, seed=5)

    def test_rlcard_and_douzero(self):
        self.match("--rules", "rlcard", seed=3)
        self.match("--rules", "douzero", seed=4)

    def test_four_players(self):
        self.match("--rules", "four-player", "--set", "four_jokers_claim=true",
                   bots=("random", "greedy", "random", "greedy"), seed=8)

    def test_classify_agrees_with_the_engine(self):
        """classify() gives every reading `arbiter moves --readings` lists its kind."""
        for preset, packs in (("standard", 1), ("four-player", 2), ("douzero", 1)):
            deck = [c for c in arbiter_bot.RANKS[:13] for _ in range(4 * packs)] + ["B", "R"] * packs
            rng = random.Random(7)
            hands = [sort_cards("".join(rng.sample(deck, rng.choice((10, 17, 20))))) for _ in range(60)]
            p = subprocess.run([find_arbiter(), "moves", "--rules", preset, "--readings", "--set",
                                "shuttle=true,shuttle_solo=true,shuttle_pair=true"],
                               input="\n".join(hands) + "\n", capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, p.stderr)
            n = 0
            for line in p.stdout.splitlines():
                for token in line.split():
                    item, _, kind = token.rpartition("/")
                    self.assertEqual(classify(item, packs=packs).kind, kind, (preset, item))
                    n += 1
            self.assertGreater(n, 1000)

    def test_wild_cards(self):
        self.match("--set", "wild=2", bots=("random", "random", "greedy"), deals=10, seed=21)


class _Tee:
    """Referee lines in, and copied to a file (the transcript keeps only the
    number of legal items of a request, not the items)."""

    def __init__(self, src, path):
        self.src, self.copy = src, open(path, "wb")

    def readline(self, limit=-1):
        line = self.src.readline(limit)
        self.copy.write(line)
        self.copy.flush()
        return line


def record_bot(path):
    """A random bot (both games) that records every line it reads to path."""
    rng = random.Random(int.from_bytes(os.urandom(4), "little"))
    arbiter_bot.run_streams(lambda v, r: rng.randrange(len(r.legal)), "recorder",
                            _Tee(sys.stdin.buffer, path), sys.stdout.buffer)


def python_lists(lines):
    """The Python SDK's legal lists for these referee lines, as the C dump
    prints them."""
    got = []

    def choose(view, request):
        got.append(" ".join([request.decision] + request.legal))
        return 0

    with contextlib.redirect_stderr(io.StringIO()):
        arbiter_bot.run_streams(choose, "dump", io.BytesIO(("\n".join(lines) + "\n").encode()), io.BytesIO())
    return got


def strip_play_lists(lines):
    """The same lines as a bot that did not ask for legal plays reads them."""
    out = []
    for line in lines:
        if line.startswith("ask play ") and " legal " in line:
            line = line[:line.index(" legal ")]
        out.append(line.replace(" legal", "") if line.startswith("bot 1 ") else line)
    return out


@unittest.skipUnless(find_arbiter() and os.access(os.environ.get("ABOT_ORDER_DUMP", ""), os.X_OK),
                     "the referee and sdk_order_dump are not built ($ARBITER, $ABOT_ORDER_DUMP)")
class CrossSdk(unittest.TestCase):
    """The same requests through both SDKs give the same legal list in the
    same order: whole matches of random bots are recorded, and each seat's
    referee lines are fed to the Python SDK and to the C library (with the
    referee's lists, and without: the engine's moves)."""

    def agree(self, game, args, nbots, deals, seed):
        # bots have a /tmp of their own: the records go under the build directory
        # A checkout under a bot's private roots (/tmp, /var/tmp, /dev/shm,
        # /run: referee/seat.c gives each bot its own) is not where the bots
        # write: then a directory at / (root's CI), else the test cannot run.
        base = os.path.dirname(os.path.dirname(find_arbiter()))
        if any(base == r or base.startswith(r + "/") for r in ("/tmp", "/var/tmp", "/dev/shm", "/run")):
            if not os.access("/", os.W_OK):
                self.skipTest("the build is under a bot's private /tmp and / is not writable")
            base = "/"
        with tempfile.TemporaryDirectory(dir=base, prefix="arbiter-sdk-") as tmp:
            os.chmod(tmp, 0o777)           # the bots (their own uids as root) write their records here
            cmd = [find_arbiter(), "match", "--game", game, "--deals", str(deals), "--seed", str(seed),
                   "--sandbox", "none", "--quiet", "--move-ms", "5000"] + args
            for i in range(nbots):
                cmd += ["--bot", "r%d=%s %s --record-bot %s" % (i, PYTHON, os.path.abspath(__file__),
                                                                os.path.join(tmp, "seat%d" % i))]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            streams = {}
            for i in range(nbots):
                with open(os.path.join(tmp, "seat%d" % i), "rb") as f:
                    streams[i] = f.read().decode("ascii", "replace").splitlines()
        dump = os.environ["ABOT_ORDER_DUMP"]
        n = 0
        for b, lines in sorted(streams.items()):
            want = python_lists(lines)
            text = "\n".join(lines) + "\n"
            for label, data in (("listed", text), ("engine", "\n".join(strip_play_lists(lines)) + "\n")):
                p = subprocess.run([dump, game], input=data, capture_output=True, text=True, timeout=120)
                self.assertEqual(p.returncode, 0, p.stderr)
                got = p.stdout.splitlines()
                self.assertEqual(len(got), len(want), (game, args, b, label))
                for i, (g, w) in enumerate(zip(got, want)):
                    self.assertEqual(g, w, "%s %s bot %d request %d (%s)" % (game, args, b, i, label))
            n += sum(len(w.split()) - 1 for w in want)
        return n

    def test_doudizhu(self):
        n = self.agree("doudizhu", [], 3, 6, 31)
        n += self.agree("doudizhu", ["--set", "bidding=call-rob,doubling=true,small_three_bomb=true,shuttle=true"],
                        3, 4, 32)
        n += self.agree("doudizhu", ["--rules", "four-player"], 4, 3, 33)
        n += self.agree("doudizhu", ["--set", "wild=2"], 3, 4, 34)
        self.assertGreater(n, 3000)

    def test_dabang(self):
        self.assertGreater(self.agree("dabang", [], 4, 2, 35), 1000)


@unittest.skipUnless(find_arbiter(), "the referee is not built ($ARBITER names build/cli/arbiter)")
class StrictMode(unittest.TestCase):
    """A bot in strict mode that answers illegally: its own answer reaches
    the referee, which penalises it (the transcript shows the penalty); the
    same bot without strict mode passes instead and keeps a clean record."""

    BOT = ("import arbiter_bot  # a copy beside it: a bot sees its own directory, not the checkout's\n"
           "def choose(view, request):\n"
           "    if request.decision == 'play' and request.beat is not None:\n"
           "        return 'KKKK'\n"
           "    return 0\n"
           "arbiter_bot.run(choose, name='liar', strict=%s)\n")

    def run_match(self, strict):
        with tempfile.TemporaryDirectory() as tmp:
            os.chmod(tmp, 0o755)           # the bot runs under a uid of its own as root
            bot = os.path.join(tmp, "liar.py")
            with open(bot, "w") as f:
                f.write(self.BOT % strict)
            shutil.copytree(os.path.join(HERE, "arbiter_bot"), os.path.join(tmp, "arbiter_bot"))
            for d, _, files in os.walk(tmp):
                os.chmod(d, 0o755)
                for n in files:
                    os.chmod(os.path.join(d, n), 0o644)
            os.chmod(bot, 0o644)
            t = os.path.join(tmp, "t.arbt")
            other = os.path.join(HERE, "random_bot.py")
            cmd = [find_arbiter(), "match", "--deals", "1", "--seed", "7", "--sandbox", "none", "--json",
                   "--move-ms", "5000", "--policy", "autoplay", "--strikes", "1000", "--transcript", t,
                   "--bot", "liar=%s %s" % (PYTHON, bot),
                   "--bot", "a=%s %s" % (PYTHON, other), "--bot", "b=%s %s" % (PYTHON, other)]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            result = json.loads(p.stdout.splitlines()[0])
            show = subprocess.run([find_arbiter(), "replay", t, "--dump"], capture_output=True, text=True,
                                  timeout=60)
            errs = subprocess.run([find_arbiter(), "replay", t, "--stderr", "liar"], capture_output=True,
                                  text=True, timeout=60)
            return result, show.stdout, errs.stdout

    def test_strict_mode_reaches_the_referee_and_is_penalised(self):
        result, dump, errs = self.run_match(True)
        liar = [b for b in result["bots"] if b["name"] == "liar"][0]
        self.assertGreater(liar["penalties"], 0, dump[-2000:])
        self.assertIn("KKKK", dump)
        self.assertIn("strict mode: sending 'KKKK' for the referee to judge", errs)

    def test_without_strict_mode_the_bot_passes(self):
        result, dump, errs = self.run_match(False)
        liar = [b for b in result["bots"] if b["name"] == "liar"][0]
        self.assertEqual(liar["penalties"], 0)
        self.assertIn("the bot chose 'KKKK', not a legal item; answering 'pass' (passing is legal)", errs)


def _venv_python():
    for py in ("/usr/bin/python3", sys.executable):
        if os.access(py, os.X_OK) and subprocess.run([py, "-c", "import venv, ensurepip"],
                                                       capture_output=True).returncode == 0:
            return py
    return None


@unittest.skipUnless(_venv_python(), "no python3 with venv and ensurepip (Debian: python3-venv)")
class Install(unittest.TestCase):
    def test_offline_install_in_a_fresh_venv(self):
        """`pip install --no-index` into a fresh venv, which has no wheel
        package (before: setuptools' backend failed there for want of it)."""
        with tempfile.TemporaryDirectory() as tmp:
            venv = os.path.join(tmp, "v")
            subprocess.run([_venv_python(), "-m", "venv", venv], check=True, capture_output=True, timeout=120)
            pip = os.path.join(venv, "bin", "pip")
            for extra in ([], ["--no-build-isolation"]):
                env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
                p = subprocess.run([pip, "install", "--no-index"] + extra + [HERE], capture_output=True,
                                   text=True, timeout=120, env=env)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                p = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                                    "import arbiter_bot, arbiter_bot.dabang; print(arbiter_bot.__file__)"],
                                   capture_output=True, text=True, timeout=60, cwd=tmp)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertTrue(p.stdout.startswith(venv), p.stdout)
                p = subprocess.run([pip, "uninstall", "-y", "arbiter-bot"], capture_output=True, text=True,
                                   timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check-bot"]:
        check_bot(sys.argv[2] if len(sys.argv) > 2 else "random")
    elif sys.argv[1:2] == ["--record-bot"]:
        record_bot(sys.argv[2])
    elif sys.argv[1:2] == ["--check-dabang-bot"]:
        check_dabang_bot(sys.argv[2] if len(sys.argv) > 2 else "random")
    else:
        unittest.main()
