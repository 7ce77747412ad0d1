"""Scripted scenarios for every play rule of docs/rules.md, standard: Play, asked of both engines
(the Numba kernels through the oracle, and the reference rules)."""

from __future__ import annotations

import pytest
from conftest import STANDARD, Engine

# -- trick 1 lead ---------------------------------------------------------------------------


def test_trick_one_lead_may_not_be_trump(engine: Engine) -> None:
    assert engine.legal("AH KH 2S", trump="H", trick_no=1) == "2S"


def test_trick_one_lead_all_trumps_may_lead_trump(engine: Engine) -> None:
    assert engine.legal("AH KH 2H", trump="H", trick_no=1) == "AH KH 2H"


def test_trick_one_joker_is_not_a_trump(engine: Engine) -> None:
    # trumps and the joker: the holder does not hold only trumps, so must lead the joker
    assert engine.legal("JK AH KH", trump="H", trick_no=1) == "JK"


def test_trick_one_mighty_counts_as_its_suit(engine: Engine) -> None:
    # spades are not trump under hearts: Mighty A S is a spade and may lead
    assert engine.legal("AS AH KH", trump="H", trick_no=1) == "AS"


def test_trick_one_no_trump_any_lead(engine: Engine) -> None:
    assert engine.legal("AH KH 2S", trump="NT", trick_no=1) == "AH KH 2S"


def test_later_tricks_lead_anything(engine: Engine) -> None:
    assert engine.legal("AH KH 2S", trump="H", trick_no=2) == "AH KH 2S"


# -- following suit -------------------------------------------------------------------------


def test_follow_suit_when_possible(engine: Engine) -> None:
    assert engine.legal("KC 5C 9H 2D", trump="D", trick_no=3, played=["QC"]) == "KC 5C"


def test_void_plays_anything_trumping_not_compulsory(engine: Engine) -> None:
    assert engine.legal("9H 2D 3D", trump="D", trick_no=3, played=["QC"]) == "9H 2D 3D"


def test_mighty_may_ignore_follow_suit(engine: Engine) -> None:
    assert engine.legal("AS 5C 9H", trump="D", trick_no=3, played=["QC"]) == "AS 5C"


def test_mighty_is_ad_when_spades_trump(engine: Engine) -> None:
    assert engine.legal("AD 5C 9H", trump="S", trick_no=3, played=["QC"]) == "AD 5C"
    # A S is then an ordinary spade: it must follow clubs like any other card
    assert engine.legal("AS 5C 9H", trump="S", trick_no=3, played=["QC"]) == "5C"


def test_mighty_must_be_played_when_only_card_of_led_suit(engine: Engine) -> None:
    assert engine.legal("AS 9H 2D", trump="H", trick_no=4, played=["KS"]) == "AS"
    assert engine.legal("AD 9H 2C", trump="S", trick_no=4, played=["KD"]) == "AD"


def test_mighty_only_card_of_suit_joker_still_free(engine: Engine) -> None:
    assert engine.legal("JK AS 9H", trump="H", trick_no=4, played=["KS"]) == "JK AS"


def test_leading_mighty_demands_its_suit(engine: Engine) -> None:
    assert engine.legal("KS 9H 2D", trump="H", trick_no=4, played=["AS"]) == "KS"
    assert engine.legal("KD 9H 2S", trump="S", trick_no=4, played=["AD"]) == "KD"


def test_joker_may_always_be_played(engine: Engine) -> None:
    assert engine.legal("JK 5C 9H", trump="D", trick_no=3, played=["QC"]) == "JK 5C"


# -- the joker --------------------------------------------------------------------------


def test_joker_led_with_power_names_suit_to_follow(engine: Engine) -> None:
    assert engine.legal("KD 5C 9H", trump="S", trick_no=5, played=["JK"], joker_suit="D") == "KD"
    assert engine.legal("KD 5C 9H", trump="S", trick_no=5, played=["JK"], joker_suit="S") == (
        "KD 5C 9H"
    )


def test_joker_led_may_name_trump(engine: Engine) -> None:
    assert engine.legal("KS 5C", trump="S", trick_no=5, played=["JK"], joker_suit="S") == "KS"


@pytest.mark.parametrize("trick_no", [1, 10])
def test_joker_led_powerless_second_card_sets_suit(engine: Engine, trick_no: int) -> None:
    assert engine.legal("KC 9H", trump="D", trick_no=trick_no, played=["JK"]) == "KC 9H"
    assert engine.legal("KC 9H", trump="D", trick_no=trick_no, played=["JK", "5C"]) == "KC"


@pytest.mark.parametrize("trick_no", [1, 10])
def test_joker_powerless_in_first_and_last_trick(engine: Engine, trick_no: int) -> None:
    assert engine.winner(["JK", "2H", "3H", "9H", "5H"], trump="C", trick_no=trick_no) == "9H"
    assert engine.winner(["2H", "JK", "3H", "9H", "5H"], trump="C", trick_no=trick_no) == "9H"


def test_powerless_joker_led_trumps_still_win(engine: Engine) -> None:
    assert engine.winner(["JK", "5C", "2D", "KC", "AC"], trump="D", trick_no=1) == "2D"


@pytest.mark.parametrize("trick_no", [2, 5, 9])
def test_joker_wins_tricks_two_to_nine(engine: Engine, trick_no: int) -> None:
    assert engine.winner(["JK", "AH", "KS", "QS", "2S"], trump="S", trick_no=trick_no,
                         joker_suit="H") == "JK"
    assert engine.winner(["AH", "KH", "JK", "QS", "2H"], trump="S", trick_no=trick_no) == "JK"


# -- the hunter -----------------------------------------------------------------------------


def test_hunter_demand_forces_the_joker(engine: Engine) -> None:
    assert engine.legal("JK 5C 9H", trump="D", trick_no=4, played=["3C"], demanded=True) == "JK"


def test_hunter_without_demand_is_an_ordinary_club(engine: Engine) -> None:
    assert engine.legal("JK 5C 9H", trump="D", trick_no=4, played=["3C"]) == "JK 5C"


def test_mighty_may_answer_the_demand(engine: Engine) -> None:
    # guide section 08: B holds joker and A S and plays A S instead
    assert engine.legal("JK AS 9H 8H 4D", trump="D", trick_no=5, played=["3C"],
                        demanded=True) == "JK AS"


def test_demand_does_not_bind_players_without_the_joker(engine: Engine) -> None:
    assert engine.legal("KC 2C 7D", trump="D", trick_no=5, played=["3C", "AS"],
                        demanded=True) == "KC 2C"


def test_guide_section_08_trick(engine: Engine) -> None:
    # A leads 3C demanding, B answers A S, C K C, D 2 C, E (void) trumps 7 D: B wins
    assert engine.winner(["3C", "AS", "KC", "2C", "7D"], trump="D", trick_no=5,
                         demanded=True) == "AS"


def test_hunted_joker_is_powerless(engine: Engine) -> None:
    assert engine.winner(["3C", "JK", "5C", "KC", "2C"], trump="D", trick_no=4,
                         demanded=True) == "KC"
    assert engine.winner(["3C", "JK", "5C", "KC", "2D"], trump="D", trick_no=4,
                         demanded=True) == "2D"
    assert engine.winner(["3C", "JK", "5C", "KC", "2C"], trump="D", trick_no=4) == "JK"


def test_hunter_is_3s_when_clubs_trump(engine: Engine) -> None:
    assert engine.legal("JK 2S 4H", trump="C", trick_no=3, played=["3S"], demanded=True) == "JK"


def test_hunter_has_no_extra_strength(engine: Engine) -> None:
    assert engine.winner(["3C", "5C", "4C", "2C", "9H"], trump="H", trick_no=3) == "9H"
    assert engine.winner(["3C", "5C", "4C", "2C", "9S"], trump="H", trick_no=3) == "5C"


def test_demand_works_in_trick_ten(engine: Engine) -> None:
    """Tricks 9 and 10 are hunter tricks: the demand leaves the joker (or the Mighty
    escape), where without it the holder could follow clubs."""
    assert engine.legal("JK 5C 9H", trump="D", trick_no=10, played=["3C"],
                        demanded=True) == "JK"
    assert engine.legal("JK AS 5C", trump="D", trick_no=9, played=["3C"],
                        demanded=True) == "JK AS"
    # where no demand is made (or can be: a profile without tricks 9-10), clubs follow
    early = STANDARD.replace(hunter_tricks=tuple(range(2, 9)))
    for profile in (STANDARD, early):
        assert engine.legal("JK 5C 9H", trump="D", trick_no=10, played=["3C"],
                            profile=profile) == "JK 5C"
        assert engine.legal("JK AS 5C", trump="D", trick_no=9, played=["3C"],
                            profile=profile) == "JK AS 5C"


# -- trick winner priority --------------------------------------------------------------


def test_mighty_beats_a_powered_joker(engine: Engine) -> None:
    assert engine.winner(["JK", "2H", "AS", "KH", "3H"], trump="H", trick_no=5,
                         joker_suit="H") == "AS"


def test_mighty_wins_even_in_trick_one(engine: Engine) -> None:
    assert engine.winner(["KH", "AS", "AH", "2D", "3D"], trump="D", trick_no=1) == "AS"


def test_highest_trump_then_highest_of_led_suit(engine: Engine) -> None:
    assert engine.winner(["KH", "2D", "AH", "5D", "AC"], trump="D", trick_no=3) == "5D"
    assert engine.winner(["KH", "2S", "AH", "5S", "AC"], trump="D", trick_no=3) == "AH"
    assert engine.winner(["KH", "2S", "AH", "5S", "AC"], trump="NT", trick_no=3) == "AH"


def test_spades_trump_as_is_an_ordinary_trump(engine: Engine) -> None:
    assert engine.winner(["KS", "AS", "AD", "2S", "3S"], trump="S", trick_no=3) == "AD"
    assert engine.winner(["KS", "AS", "QS", "2S", "3S"], trump="S", trick_no=3) == "AS"
