"""The Numba kernels against the reference engine, decision by decision, over random
legal deals; and the invariants every deal keeps."""

from __future__ import annotations

import os

import pytest
from conftest import STANDARD

from mighty_sim.kernels.params import compile_profile
from mighty_sim.reference import RandomPlayer, play_ledger
from mighty_sim.rules.profile import list_profiles, load_profile
from mighty_sim.verify.differential import check_deals, check_invariants
from mighty_sim.verify.parallel import run_differential
from mighty_sim.verify.parity import compare_auction_choices, compare_games

DEALS = 10_000


@pytest.mark.parametrize("part", range(4))
def test_kernels_match_reference_on_ten_thousand_deals(part: int) -> None:
    count = DEALS // 4
    report = check_deals(STANDARD, seed=20261130, start=part * count, count=count)
    assert report.mismatches == 0, report.examples
    assert report.deals == count
    # the random players reach every phase: the comparison is not vacuous
    assert report.played > count * 0.7
    assert report.decisions == report.played * 50
    assert report.tricks == report.played * 10
    assert report.hands == count * 5


def test_differential_catches_a_wrong_rule() -> None:
    """Kernels fed a different rule must disagree with the reference somewhere."""
    import mighty_sim.verify.differential as d

    real = d.compile_profile
    try:
        d.compile_profile = lambda p: compile_profile(p.replace(hunted_joker_powerless=False,
                                                                double_back_run=False))
        report = check_deals(STANDARD, seed=3, start=0, count=300)
    finally:
        d.compile_profile = real
    assert report.mismatches > 0


def test_invariants_over_ledgers() -> None:
    for seed in range(20):
        ledger = play_ledger(STANDARD, [RandomPlayer()] * 5, seed=seed)
        for record in ledger.attempts:
            assert check_invariants(STANDARD, record) == []
        assert sum(ledger.totals) == 0


def test_result_does_not_depend_on_chunking() -> None:
    a = run_differential(STANDARD, deals=60, seed=9, chunk=60)
    b = run_differential(STANDARD, deals=60, seed=9, chunk=7)
    assert a == b  # every counter, the mismatches and their examples
    assert a.mismatches == 0 and a.decisions > 1000 and a.attempts >= 60


@pytest.mark.slow
def test_kernels_match_reference_on_a_million_deals() -> None:
    deals = int(os.environ.get("MIGHTY_DIFF_DEALS", "1000000"))
    report = run_differential(STANDARD, deals=deals, seed=1_000_000, workers=os.cpu_count() or 1)
    assert report.deals == deals
    assert report.mismatches == 0, report.examples


@pytest.mark.parametrize("name", ["ucla-5p", "ucla-4p", "russian-3p", "russian-4p",
                                  "russian-5p"])
def test_kernels_match_reference_on_other_one_deck_profiles(name: str) -> None:
    """The two engines read the same profile switches alike (trick bids, bridge order,
    passes that are not permanent, rank-gap raises, trick and penalty scoring, first-lead
    bans, the next-player hunter, the Mighty-suit rule, reduced decks)."""
    report = check_deals(name, seed=77, start=0, count=600)
    assert report.mismatches == 0, report.examples
    assert report.played > 400


@pytest.mark.parametrize("chunk", range(4))
def test_batch_engine_plays_the_reference_games_decision_by_decision(chunk: int) -> None:
    """2,400 standard games of 2 deals played by random players in the batch kernel and
    the reference engine: every auction action, contract, discard, friend call and
    resolution, every card of every trick, every settlement the same."""
    report = compare_games(STANDARD, seed=99, start=chunk * 600, count=600, ledger=2)
    assert report.mismatches == 0, report.examples
    assert report.attempts > 1200
    assert report.attempt_decisions > 1200 * 50


@pytest.mark.parametrize("name", [n for n in list_profiles() if n != "standard"])
def test_every_profile_plays_the_reference_games_decision_by_decision(name: str) -> None:
    report = compare_games(name, seed=41, start=0, count=150, ledger=2)
    assert report.mismatches == 0, report.examples
    assert report.attempts >= 300


@pytest.mark.parametrize("name", list_profiles())
def test_auction_and_contract_choices_match(name: str) -> None:
    """The legal bids at every auction turn and the allowed contracts after the auction
    (before the blind too, in rank-gap profiles), as lists in order."""
    report = compare_auction_choices(name, seed=17, start=0, count=300)
    assert report.mismatches == 0, report.examples
    assert report.choices > 600


@pytest.mark.parametrize(("name", "change"), [
    ("standard", {"trump_change_cost_suit": 1}),
    ("standard", {"first_lead_no_trump": False}),
    ("standard", {"dealer_rule": "clockwise"}),
    ("standard", {"nt_lead_request": False}),
    ("ucla-5p", {"rank_gap_after_blind": 3}),
    ("ucla-5p", {"rank_gap_unit": "rank", "rank_gap_before_blind": 4,
                 "rank_gap_after_blind": 8}),
    ("russian-6p", {"mighty_sets_suit_from_trick": 3}),
])
def test_whole_game_comparison_notices_a_different_rule(name: str,
                                                        change: dict[str, object]) -> None:
    """The kernel given one rule changed disagrees with the reference somewhere: in the
    auction choices or in the games."""
    profile = load_profile(name)
    kernel = profile.replace(**change)
    games = compare_games(profile, seed=3, start=0, count=100, kernel_profile=kernel)
    choices = compare_auction_choices(profile, seed=3, start=0, count=100,
                                      kernel_profile=kernel)
    assert games.mismatches + choices.mismatches > 0
