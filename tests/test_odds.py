"""Hand odds: strong hands make, junk hands fail, every contract is reported."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import STANDARD

from mighty_sim.analysis.odds import hand_odds
from mighty_sim.cli.commands import main
from mighty_sim.rules.cards import parse_cards

STRONG = "AS JK AH KH QH JH 10H AD AC 2S"
JUNK = "2S 3S 4H 5H 6D 7D 8C 9C 2C 3C"


def _get(table: list[dict], trump: str, bid: int) -> dict:  # type: ignore[type-arg]
    return next(r for r in table if r["trump"] == trump and r["bid"] == bid)


def test_strong_hand_is_near_certain_and_junk_unlikely() -> None:
    strong = hand_odds(STANDARD, parse_cards(STRONG), samples=2000, seed=1)
    junk = hand_odds(STANDARD, parse_cards(JUNK), samples=2000, seed=1)
    assert _get(strong, "H", 13)["p_success"] > 0.97
    assert _get(strong, "H", 13)["expected_score"] > 0
    assert max(r["p_success"] for r in junk if r["bid"] == 13) < 0.35
    assert all(r["expected_score"] < 0 for r in junk)


def test_every_contract_with_monotone_odds() -> None:
    table = hand_odds(STANDARD, parse_cards("AS KS QS 10S 5S JK AH KD 2C 3C"), samples=1000)
    assert len(table) == 5 * 8  # S H D C NT x bids 13..20
    for trump in ("S", "H", "D", "C", "NT"):
        rates = [_get(table, trump, b)["p_success"] for b in range(13, 21)]
        assert rates == sorted(rates, reverse=True)  # a higher bid never makes more often
        for b in range(13, 21):
            r = _get(table, trump, b)
            assert r["ci_low"] <= r["p_success"] <= r["ci_high"]


def test_same_seed_same_odds_and_known_blind_changes_them() -> None:
    hand = parse_cards("AS KS QS 10S 5S JK AH KD 2C 3C")
    a = hand_odds(STANDARD, hand, samples=500, seed=3)
    b = hand_odds(STANDARD, hand, samples=500, seed=3)
    assert a == b
    with_blind = hand_odds(STANDARD, hand, samples=500, seed=3, blind=parse_cards("JS 9S AD"))
    assert _get(with_blind, "S", 16)["p_success"] > _get(a, "S", 16)["p_success"]


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--hand", "AS KS"], "exactly 10"), (["--hand", STRONG, "--blind", "AS 2D 3D"], "blind"),
     (["--hand", STRONG, "--players", "pimc:worlds=-1"], "worlds"),
     (["--hand", "ZZ"], "not a card")],
)
def test_odds_cli_rejects_bad_input(args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, ["odds", *args])
    assert r.exit_code == 2 and message in r.stderr


def test_odds_cli_json() -> None:
    r = CliRunner().invoke(main, ["odds", "--hand", STRONG, "--samples", "300", "--format",
                                  "json"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    keys = {"trump", "bid", "p_success", "ci_low", "ci_high", "expected_score"}
    assert len(data["contracts"]) == 40 and all(keys <= set(c) for c in data["contracts"])
    assert data["best"]["expected_score"] == max(c["expected_score"] for c in data["contracts"])


def test_odds_with_a_pimc_declarer() -> None:
    """PIMC plays the hand: the strong hand still makes, the junk hand still fails."""
    pimc = "pimc:worlds=4,heuristic,heuristic,heuristic,heuristic"
    r = CliRunner().invoke(main, ["odds", "--hand", STRONG, "--samples", "150", "--players",
                                  "pimc:worlds=4", "--format", "json"])
    assert r.exit_code == 0, r.stderr
    strong = {(c["trump"], c["bid"]): c for c in json.loads(r.stdout)["contracts"]}
    assert strong["H", 13]["p_success"] > 0.9
    from mighty_sim.engine.players import parse_players

    junk = hand_odds(STANDARD, parse_cards(JUNK), samples=150, players=parse_players(pimc, 5))
    assert max(r["p_success"] for r in junk if r["bid"] == 13) < 0.4


# -- duplicate duels ----------------------------------------------------------------------


def test_duel_against_itself_is_exactly_even() -> None:
    from mighty_sim.analysis.duel import duel

    r = duel(STANDARD, "heuristic", "heuristic", deals=300, seed=2)
    assert r["mean_difference"] == 0 and r["ci_low"] == 0 and r["ci_high"] == 0


def test_duel_is_antisymmetric_and_detects_the_stronger_player() -> None:
    from mighty_sim.analysis.duel import duel

    ab = duel(STANDARD, "heuristic", "random", deals=500, seed=4)
    ba = duel(STANDARD, "random", "heuristic", deals=500, seed=4)
    assert ab["mean_difference"] == pytest.approx(-ba["mean_difference"])
    assert ab["ci_low"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--players", "heuristic"], "exactly two"),
     (["--players", "heuristic", "--players", "genius"], "unknown policy"),
     (["--players", "heuristic:x", "--players", "random"], "aggressiveness")],
)
def test_duel_cli_rejects_bad_input(args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, ["duel", *args, "--deals", "50"])
    assert r.exit_code == 2 and message in r.stderr


def test_duel_reports_progress_after_every_batch() -> None:
    from mighty_sim.analysis.duel import duel

    seen: list[int] = []
    duel(STANDARD, "heuristic", "random", deals=40, seed=1, progress=seen.append)
    assert seen == [40] * (2 * STANDARD.players)
