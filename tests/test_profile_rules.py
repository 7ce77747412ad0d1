"""Scripted scenarios for rule switches of the ucla and russian profiles (docs/rules.md),
asked of both engines. Whole deals of every profile are compared in
tests/test_differential.py and tests/test_golden.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Engine, c, lowest, won_by_0

from mighty_sim import legal_plays, parse_cards
from mighty_sim.engine.batch import R_OUTCOME, play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import OUTCOME_PLAYED, R_FRIEND_MODE
from mighty_sim.kernels.params import FRIEND_MODES
from mighty_sim.rules.profile import RuleProfile, load_profile

PROFILES = Path(__file__).resolve().parents[1] / "data" / "profiles"

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


# -- the rules each profile plays from its own text (docs/rules.md: "what each profile
# takes from standard"); every scenario is asked of the profile as built in and of the
# profile with the rule set back to standard's, and the two must differ ---------------------

RUSSIANS = [load_profile(f"russian-{n}p") for n in (3, 4, 5)]


@pytest.mark.parametrize("profile", RUSSIANS, ids=lambda p: p.name)
@pytest.mark.parametrize("trick_no", [1, 10])
def test_russian_joker_that_follows_keeps_its_power_in_first_and_last_trick(
        engine: Engine, profile: RuleProfile, trick_no: int) -> None:
    """The text bars the joker's lead in the first and last trick, not its power."""
    trick = ["KH", "JK", "AH"] + ["QH", "JH", "10H"][: profile.players - 3]
    assert engine.winner(trick, trump="D", trick_no=trick_no, profile=profile) == "JK"
    standard_joker = profile.replace(joker_powerless_tricks=(1, -1))
    assert engine.winner(trick, trump="D", trick_no=trick_no, profile=standard_joker) == "AH"


WEAK_HAND = "9S 8S 7S 9H 8H 7H 9D 8D 7D JK"  # -1 on standard's scale


@pytest.mark.parametrize("profile", [load_profile("russian-4p"), load_profile("russian-5p")],
                         ids=lambda p: p.name)
def test_russian_has_no_weak_hand_redeal(engine: Engine, profile: RuleProfile) -> None:
    assert not engine.weak_ok(WEAK_HAND, profile=profile)
    assert engine.weak_ok(WEAK_HAND, profile=profile.replace(weak_hand_when="first-turn"))


def _friend_modes_played(profile: RuleProfile) -> set[str]:
    batch = play_batch(profile, seed=7, game_start=0, games=300,
                       players=parse_players("random", profile.players))
    played = batch.ri[:, R_OUTCOME] == OUTCOME_PLAYED
    return {FRIEND_MODES[m] for m in set(batch.ri[played, R_FRIEND_MODE].tolist())}


def test_russian_friend_is_a_called_card_or_none() -> None:
    """A partner by a named card, or none; the text has no first-trick friend."""
    russian = load_profile("russian-5p")
    deal = won_by_0(russian, 14, "S")
    deal.exchange(lowest(deal.hands[0], 3))
    deal.contract(14, "S")
    assert deal.can_call_friend("called", c("AH")) and deal.can_call_friend("none")
    assert not deal.can_call_friend("first-trick")
    assert _friend_modes_played(russian) == {"called", "none"}
    with_first = russian.replace(friend_modes=("called", "first-trick", "none"))
    assert _friend_modes_played(with_first) == {"called", "first-trick", "none"}


@pytest.mark.parametrize("name", ["russian-4p", "russian-5p"])
def test_russian_declarer_names_a_new_trump_at_the_bid_and_never_raises(
        engine: Engine, name: str) -> None:
    profile = load_profile(name)
    low = profile.min_bid + 1
    allowed = engine.contracts(low, "S", profile=profile)
    assert allowed == [(low, t) for t in ("H", "D", "C", "NT")]
    raising = engine.contracts(low, "S", profile=profile.replace(raise_after_exchange=True))
    assert (low + 1, "S") in raising and (profile.max_bid, "NT") in raising


def test_russian_failure_penalty_readings(engine: Engine) -> None:
    """Built in: B - base each (contract 15, base 12: 3); the shortfall house rule:
    B - P (15 failed with 11: 4)."""
    russian = load_profile("russian-5p")
    assert engine.settle(bid=15, trump="S", taken=11, friend="friend", profile=russian) == (
        -3, -3, 0)
    shortfall = russian.replace(penalty_failure="shortfall")
    assert engine.settle(bid=15, trump="S", taken=11, friend="friend", profile=shortfall) == (
        -4, -4, 0)
    # a made contract costs the defenders the same under both readings
    assert engine.settle(bid=15, trump="S", taken=16, friend="friend", profile=shortfall) == (
        0, 0, -4)


UCLA_4P = load_profile("ucla-4p")


@pytest.mark.parametrize("profile", [UCLA, UCLA_4P], ids=lambda p: p.name)
def test_ucla_raise_by_levels(engine: Engine, profile: RuleProfile) -> None:
    """A level is one number, NT one level above the suits of its number: before the
    blind one level (7H -> 8H, 8C -> 8NT), after it two (7H -> 9C, 8C -> 9NT; not
    8C -> 9D)."""
    before = engine.contracts(7, "H", profile=profile, before_blind=True)
    assert (8, "H") in before and (7, "NT") in before and (7, "S") not in before
    assert (8, "NT") in engine.contracts(8, "C", profile=profile, before_blind=True)
    assert (8, "S") not in engine.contracts(8, "C", profile=profile, before_blind=True)
    assert (9, "C") in engine.contracts(7, "H", profile=profile)
    after = engine.contracts(8, "C", profile=profile)
    assert (9, "NT") in after and (9, "D") not in after and (9, "S") not in after
    old_ranks = profile.replace(rank_gap_unit="rank", rank_gap_after_blind=6)
    assert (9, "D") in engine.contracts(8, "C", profile=old_ranks)
    assert (7, "S") in engine.contracts(7, "H", profile=old_ranks, before_blind=True)


def test_ucla_raise_by_rank_distance_house_rule(engine: Engine) -> None:
    """The other reading that fits the four examples: four ranks before the blind,
    eight after (data/profiles/ucla-rank-gap.toml)."""
    ranks = load_profile(str(PROFILES / "ucla-rank-gap.toml"))
    assert (8, "H") in engine.contracts(7, "H", profile=ranks, before_blind=True)
    assert (8, "NT") in engine.contracts(8, "C", profile=ranks, before_blind=True)
    assert (7, "NT") not in engine.contracts(7, "H", profile=ranks, before_blind=True)
    assert (8, "NT") not in engine.contracts(7, "S", profile=ranks)
    assert (8, "NT") in engine.contracts(7, "S", profile=UCLA)
    assert (9, "C") in engine.contracts(7, "H", profile=ranks)
    after = engine.contracts(8, "C", profile=ranks)
    assert (9, "NT") in after and (9, "D") not in after
    assert (9, "S") in after  # eight ranks up, but one level


def test_ucla_has_no_lead_request(engine: Engine) -> None:
    assert not engine.lead_request_ok(10, "NT", profile=UCLA)
    assert engine.lead_request_ok(10, "NT", profile=UCLA.replace(nt_lead_request=True))


def test_ucla_reshuffle_is_dealt_by_the_same_dealer(engine: Engine) -> None:
    """A re-shuffle is a new deal by the same dealer, its auction opened by the player
    dealt first, as after all passed; the Guide's requester deals in standard."""
    assert engine.next_turn(outcome="weak-redeal", dealer=2, first_bidder=3, redeal_by=0,
                            profile=UCLA) == (2, 3)
    requester = UCLA.replace(weak_redealer="requester")
    assert engine.next_turn(outcome="weak-redeal", dealer=2, first_bidder=3, redeal_by=0,
                            profile=requester) == (0, 0)
