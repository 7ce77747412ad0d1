"""Scripted scenarios for rule switches of the ucla and russian profiles (docs/rules.md),
asked of both engines. Whole deals of every profile are compared in
tests/test_differential.py and tests/test_golden.py."""

from __future__ import annotations

import pytest
from conftest import Engine

from mighty_sim import legal_plays, parse_cards
from mighty_sim.rules.profile import load_profile

RUSSIAN = load_profile("russian-5p")
UCLA = load_profile("ucla-5p")


def test_russian_first_lead_bans_trump_joker_and_hunter(engine: Engine) -> None:
    assert engine.legal("JK 3C 2H 5D", trump="D", trick_no=1, profile=RUSSIAN) == "2H"
    # nothing else: the hunter ban gives way, the joker's own ban on leading trick 1 holds
    assert engine.legal("JK 3C", trump="D", trick_no=1, profile=RUSSIAN) == "3C"
    assert engine.legal("JK 4D", trump="D", trick_no=1, profile=RUSSIAN) == "4D"


def test_russian_joker_may_not_lead_the_last_trick_unless_alone(engine: Engine) -> None:
    assert engine.legal("JK 5D", trump="H", trick_no=10, profile=RUSSIAN) == "5D"
    assert engine.legal("JK 5D", trump="H", trick_no=9, profile=RUSSIAN) == "JK 5D"
    assert engine.legal("JK", trump="H", trick_no=10, profile=RUSSIAN) == "JK"


def test_russian_mighty_played_later_sets_the_suit(engine: Engine) -> None:
    # hearts led, Mighty A S played second in trick 3: later players follow spades
    assert engine.legal("KS 9H 2C", trump="D", trick_no=3, played=["5H", "AS"],
                        profile=RUSSIAN) == "KS"
    assert engine.legal("KS 9H 2C", trump="D", trick_no=3, played=["5H", "AS"]) == "9H"


def test_russian_hunter_forces_the_next_player_without_mighty_escape(engine: Engine) -> None:
    assert engine.legal("JK AS 5C", trump="D", trick_no=4, played=["2C", "3C"],
                        profile=RUSSIAN) == "JK"
    # the player after the next is free again
    assert engine.legal("JK AS 5C", trump="D", trick_no=4, played=["3C", "4C"],
                        profile=RUSSIAN) == "JK AS 5C"


def test_russian_joker_is_powerless_in_a_trick_with_the_hunter(engine: Engine) -> None:
    assert engine.winner(["2C", "3C", "JK", "KC", "4C"], trump="D", trick_no=4,
                         profile=RUSSIAN) == "KC"
    assert engine.winner(["2C", "5C", "JK", "KC", "4C"], trump="D", trick_no=4,
                         profile=RUSSIAN) == "JK"


def test_russian_penalty_scoring(engine: Engine) -> None:
    # base 12: made 15 -> each defender takes 3 penalty points; failed 15 with 14 ->
    # declarer and friend take 15 - 12 = 3 each
    assert engine.settle(bid=15, trump="S", taken=15, friend="friend", profile=RUSSIAN) == (
        0, 0, -3)
    assert engine.settle(bid=15, trump="S", taken=14, friend="friend", profile=RUSSIAN) == (
        -3, -3, 0)


def test_ucla_mighty_is_ac_when_spades_trump(engine: Engine) -> None:
    assert engine.winner(["KS", "AC", "AS", "2S", "3S"], trump="S", trick_no=3,
                         profile=UCLA) == "AC"


def test_ucla_hunter_demand_stops_after_trick_nine(engine: Engine) -> None:
    assert engine.legal("JK AS 5C", trump="D", trick_no=9, played=["3C"], demanded=True,
                        profile=UCLA) == "JK AS"
    assert engine.legal("JK 5C", trump="D", trick_no=9, played=["3C"], demanded=True,
                        profile=UCLA) == "JK"
    # trick 10 (as trick 1): no demand, the holder may follow clubs
    for trick in (1, 10):
        assert engine.legal("JK 5C", trump="D", trick_no=trick, played=["3C"],
                            profile=UCLA) == "JK 5C"


def test_ucla_hunter_cannot_demand_in_trick_ten() -> None:
    """The oracle refuses a demand where the profile's hunter has none: trick 10 in ucla
    (standard's demand works there)."""
    hand = parse_cards("JK 5C")
    with pytest.raises(ValueError, match=r"tricks 2, 3, 4, 5, 6, 7, 8, 9\)"):
        legal_plays(UCLA, hand, trump="D", trick_no=10, played=["3C"], joker_demanded=True)
    standard = legal_plays(load_profile("standard"), hand, trump="D", trick_no=10,
                           played=["3C"], joker_demanded=True)
    assert standard == parse_cards("JK")


def test_ucla_trick_scoring(engine: Engine) -> None:
    # 8 hearts made with 9: 10*8 + 5 = 85; friend half; defenders nothing
    assert engine.settle(bid=8, trump="H", taken=9, friend="friend", profile=UCLA) == (
        85, 42.5, 0)
    # 8 hearts failed with 6: -80 - 5*(8-6-1) = -85
    assert engine.settle(bid=8, trump="H", taken=6, friend="friend", profile=UCLA) == (
        -85, -42.5, 0)
    # 10 NT without friend failed with 0: -100 - 45 = -145, doubled three times: capped
    assert engine.settle(bid=10, trump="NT", taken=0, friend="open-solo", profile=UCLA) == (
        -800, None, 0)
