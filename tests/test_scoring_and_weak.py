"""Scoring (docs/rules.md, standard: Scoring) and the weak-hand scale (s.2.2), asked of both
engines; the
oracle's argument checks."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from conftest import STANDARD, Engine

from mighty_sim import legal_plays, parse_cards, settle, trick_winner, weak_hand_score
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.rules import rules_nb
from mighty_sim.reference.rules import weak_hand_qualifies
from mighty_sim.rules.weak import weak_hand_probability

# -- scoring ------------------------------------------------------------------------------


def test_worked_example_of_section_2_5(engine: Engine) -> None:
    # bid 15 D, P = 16, friend: S = 5; declarer +10, friend +5, defenders -5 each
    assert engine.settle(bid=15, trump="D", taken=16, friend="friend") == (10, 5, -5)


def test_thirteen_made_exactly_scores_zero(engine: Engine) -> None:
    assert engine.settle(bid=13, trump="S", taken=13, friend="friend") == (0, 0, 0)


def test_failure_reverses_signs(engine: Engine) -> None:
    # S = B - P = 3
    assert engine.settle(bid=16, trump="H", taken=13, friend="friend") == (-6, -3, 3)


def test_no_trump_doubles(engine: Engine) -> None:
    assert engine.settle(bid=15, trump="NT", taken=16, friend="friend") == (20, 10, -10)


def test_open_no_friend_doubles_and_pays_four(engine: Engine) -> None:
    # S = 5, doubled for the open solo: 10; declarer +40, each defender -10
    assert engine.settle(bid=15, trump="D", taken=16, friend="open-solo") == (40, None, -10)


def test_secret_solo_has_no_open_double(engine: Engine) -> None:
    assert engine.settle(bid=15, trump="D", taken=16, friend="secret-solo") == (20, None, -5)


def test_run_doubles(engine: Engine) -> None:
    # S = 2*(15-13) + 5 = 9, run: 18
    assert engine.settle(bid=15, trump="C", taken=20, friend="friend") == (36, 18, -18)


def test_back_run_doubles(engine: Engine) -> None:
    # fail 15 with 9: S = 6, back run: 12
    assert engine.settle(bid=15, trump="C", taken=9, friend="friend") == (-24, -12, 12)
    # 10 is not a back run: S = 5
    assert engine.settle(bid=15, trump="C", taken=10, friend="friend") == (-10, -5, 5)


def test_doubles_multiply(engine: Engine) -> None:
    # 20 NT open solo run: S = 14, x2 NT x2 no friend x2 run = 112; declarer 4S
    assert engine.settle(bid=20, trump="NT", taken=20, friend="open-solo") == (448, None, -112)
    # 14 NT open solo back run: S = 14 - 5 = 9, x8 = 72
    assert engine.settle(bid=14, trump="NT", taken=5, friend="open-solo") == (-288, None, 72)


def test_doubles_follow_the_profile(engine: Engine) -> None:
    quiet = STANDARD.replace(double_back_run=False, double_no_trump=False)
    assert engine.settle(bid=15, trump="NT", taken=9, friend="friend", profile=quiet) == (
        -12, -6, 6)
    lower = STANDARD.replace(back_run_threshold=10)
    assert engine.settle(bid=15, trump="C", taken=10, friend="friend", profile=lower) == (
        -20, -10, 10)


@pytest.mark.parametrize("friend", ["friend", "open-solo", "secret-solo"])
def test_settlement_is_zero_sum(engine: Engine, friend: str) -> None:
    for bid in range(13, 21):
        for taken in range(0, 21):
            for trump in ("S", "NT"):
                d, f, x = engine.settle(bid=bid, trump=trump, taken=taken, friend=friend)
                defenders = 3 if friend == "friend" else 4
                assert d + (f or 0) + defenders * x == 0


# -- weak hand ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "score"),
    [
        ("AS JK KH 10C 9S 8S 7S 6S 5S 4S", 0.5),  # A S 0, joker -1, K +1, 10 +1/2
        ("2S 3S 4S 5S 6S 7S 8S 9S 2H 3H", 0.0),
        ("AH KH QH JH 10H 10D 2C 3C 4C 5C", 5.0),
        ("JK 2S 3S 4S 5S 6S 7S 8S 9S 2H", -1.0),
        ("AS KS 2H 3H 4H 5H 6H 7H 8H 9H", 1.0),
    ],
)
def test_weak_hand_scores(engine: Engine, hand: str, score: float) -> None:
    assert engine.weak(hand) == score


def test_weak_hand_threshold_is_half() -> None:
    assert weak_hand_qualifies(STANDARD, parse_cards("AS JK KH 10C 9S 8S 7S 6S 5S 4S"))
    assert not weak_hand_qualifies(STANDARD, parse_cards("AS KS 2H 3H 4H 5H 6H 7H 8H 9H"))


def test_exact_weak_hand_probability_matches_rules_md() -> None:
    assert weak_hand_probability(STANDARD) == Fraction(18990476, 443161355)


def test_exact_weak_hand_probability_matches_brute_force_on_a_small_deck() -> None:
    # a 3-player 33-card deck (7..A + joker) with 4-card hands: enumerate every hand
    small = STANDARD.replace(
        players=3, hand_size=4, blind_size=21, deal_packets=(4,), min_bid=5, max_bid=20,
        hunter="", hunter_tricks=(2, 3, 4),
        deck_remove=tuple(f"{r}{s}" for r in "23456" for s in "SHDC"),
    )
    params = compile_profile(small)
    cards = [b for b in range(53) if small.deck_mask >> b & 1]
    hands = np.array([sum(1 << b for b in h) for h in combinations(cards, 4)], np.uint64)
    assert len(hands) == comb(33, 4)
    q = np.zeros(len(hands), np.int64)
    rules_nb.weak_score2_batch_nb(hands, np.zeros_like(hands), params, q)
    good = int(np.count_nonzero(q <= 2))  # 1/2 point = 2 quarters
    assert weak_hand_probability(small) == Fraction(good, comb(33, 4))


# -- oracle argument checks ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: legal_plays("standard", parse_cards("AS"), trump="X", trick_no=2), "trump"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="S", trick_no=11), "trick_no"),
        (lambda: legal_plays("standard", -1, trump="S", trick_no=2), "hand"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="S", trick_no=2,
                             played=["AS"]), "also in hand"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="S", trick_no=2,
                             played=["KH", "KH"]), "twice"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="S", trick_no=3,
                             played=["JK"]), "joker_suit"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="S", trick_no=1,
                             played=["JK"], joker_suit="H"), "joker_suit"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="S", trick_no=1,
                             played=["3C"], joker_demanded=True), "joker_demanded"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="C", trick_no=4,
                             played=["3C"], joker_demanded=True), "joker_demanded"),
        (lambda: legal_plays("standard", parse_cards("AS"), trump="S", trick_no=4,
                             played=["2C", "3C", "4C", "5C", "6C"]), "trick has 5"),
        (lambda: trick_winner("standard", [], trump="S", trick_no=2), "empty"),
        (lambda: trick_winner("standard", ["ZZ"], trump="S", trick_no=2), "not a card"),
        (lambda: settle("standard", bid=12, trump="S", taken=13, friend="friend"), "bid"),
        (lambda: settle("standard", bid=14, trump="S", taken=21, friend="friend"), "taken"),
        (lambda: settle("standard", bid=14, trump="S", taken=2, friend="pal"), "friend"),
        (lambda: weak_hand_score("nope", 1), "unknown profile"),
    ],
)
def test_oracle_rejects_bad_arguments(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
