"""Hand odds: strong hands make, junk hands fail, every contract is reported."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from conftest import STANDARD

from mighty_sim.analysis.odds import hand_odds
from mighty_sim.cli.commands import main
from mighty_sim.kernels.layout import N_F, N_R, N_T, N_U, U_BLIND
from mighty_sim.kernels.loop.odds_nb import odds_strains_nb
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.search.dd_nb import search_work
from mighty_sim.kernels.search.par_nb import N_PAR, PAR_MATCH, PAR_VALUE, par_bits_nb, par_rows_nb
from mighty_sim.rules.cards import cards_of, parse_cards
from mighty_sim.rules.profile import RuleProfile, load_profile

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


def test_trick_bid_odds_count_tricks() -> None:
    """In a trick-bid profile a contract makes on the tricks taken, not the points: all
    ten tricks seldom, even with a strong hand, and never with junk, while ten of the
    twenty points come often to both."""
    ucla = load_profile("ucla-5p")
    strong = hand_odds(ucla, parse_cards("AS KS QS 10S 5S JK AH KD 2C 3C"), samples=400)
    junk = hand_odds(ucla, parse_cards(JUNK), samples=400)
    assert _get(strong, "S", 3)["p_success"] > 0.9
    assert _get(strong, "S", 10)["p_success"] < 0.5
    assert max(r["p_success"] for r in junk if r["bid"] == 10) < 0.05


SEVEN_STRONG = "JK JK AS AS KS QS JS 10S AH AH KH AD AC 3C"
SEVEN_WEAK = "3S 4S 5S 6H 7H 8H 3D 4D 5D 6D 7C 8C 9C 9C"


def test_two_deck_odds_deal_every_copy_once_and_a_strong_hand_makes_more() -> None:
    """With two decks the hand is physical cards: each sample deals the other copies,
    every card of the deck once (the hand at seat 0, its copies as given), and a strong
    hand makes every bid more often than a weak one."""
    from mighty_sim.engine.odds import play_strains
    from mighty_sim.engine.players import parse_players
    from mighty_sim.rules.cards import PLANE_BITS, parse_physical

    seven = load_profile("russian-7p")
    strong, weak = parse_physical(SEVEN_STRONG), parse_physical(SEVEN_WEAK)
    rows = play_strains(seven, strong, samples=60, seed=2,
                        players=parse_players("heuristic", seven.players))
    for t in range(5):
        for k in range(60):
            ru = rows.ru[t, k]
            planes = [int(ru[c]) | int(ru[N_U + c]) << PLANE_BITS
                      for c in (*range(seven.players), U_BLIND)]
            assert planes[0] == strong
            assert sum(p.bit_count() for p in planes) == seven.card_mask.bit_count()
            union = 0
            for p in planes:
                union |= p
            assert union == seven.card_mask
    table_s = hand_odds(seven, strong, samples=300, seed=1)
    table_w = hand_odds(seven, weak, samples=300, seed=1)
    assert _get(table_s, "S", 25)["p_success"] > 0.9
    assert max(r["p_success"] for r in table_w if r["bid"] == 25) < 0.3
    for bid in range(25, 41):  # in its best strain the strong hand makes every bid more
        best_s = max(r["p_success"] for r in table_s if r["bid"] == bid)
        best_w = max(r["p_success"] for r in table_w if r["bid"] == bid)
        assert best_s > best_w or best_s == best_w == 0, bid
    assert hand_odds(seven, strong, samples=300, seed=1) == table_s


def test_two_deck_odds_cli() -> None:
    """``odds --profile russian-7p``: a card named twice is both copies; penalty scoring
    gives no advice (a made contract pays the declarer 0); a card named three times, or
    double dummy with two decks, is a one-line error."""
    r = CliRunner().invoke(main, ["odds", "--profile", "russian-7p", "--hand", SEVEN_STRONG,
                                  "--samples", "200", "--format", "json"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["hand"].startswith("JK JK AS AS") and data["advice"] is None
    assert len(data["contracts"]) == 5 * 16  # bids 25..40
    r = CliRunner().invoke(main, ["odds", "--profile", "russian-7p", "--hand", SEVEN_STRONG,
                                  "--samples", "50"])
    assert r.exit_code == 0 and "no advice" in r.stdout.splitlines()[-1]
    for args, message in ((["--hand", "AS AS AS"], "more often than two decks"),
                          (["--hand", SEVEN_STRONG, "--play", "double-dummy"], "one-deck")):
        r = CliRunner().invoke(main, ["odds", "--profile", "russian-7p", *args])
        assert r.exit_code == 2 and message in r.stderr and len(r.stderr.splitlines()) == 1


def _odds_rows(profile: RuleProfile, hand: str, samples: int, seed: int,
               players: str = "heuristic", parts: int = 3) -> tuple[np.ndarray, ...]:
    """The rows ``hand_odds`` plays for the double-dummy search, tricks recorded, each
    strain's samples in ``parts`` runs."""
    from mighty_sim.engine.batch import policy_arrays
    from mighty_sim.engine.players import parse_players

    params = compile_profile(profile)
    policies, pp = policy_arrays(parse_players(players, profile.players), profile)
    ri = np.zeros((5, samples, N_R), np.int64)
    ru = np.zeros((5, samples, N_U), np.uint64)
    rf = np.zeros((5, samples, N_F), np.float64)
    ti = np.zeros((5, samples * profile.tricks, N_T), np.int8)
    known = np.array([parse_cards(hand), 0, 0, 0], np.uint64)
    odds_strains_nb(np.uint64(seed), known, 0, samples, params,
                    np.array(cards_of(profile.deck_mask), np.int64), (policies, pp),
                    (ri, ru, rf, ti), True, parts)
    return params, ri, ru, ti


def test_odds_rows_do_not_depend_on_the_runs_or_chunks(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """A strain's samples split in runs on threads give the same rows, tricks and all,
    as one run; the tally played in chunks counts the same deals as one call."""
    import mighty_sim.engine.odds as engine_odds
    from mighty_sim.engine.players import parse_players

    one = _odds_rows(STANDARD, STRONG, 23, 4, parts=1)
    for got, want in zip(_odds_rows(STANDARD, STRONG, 23, 4, parts=4)[1:], one[1:],
                         strict=True):
        np.testing.assert_array_equal(got, want)
    players = parse_players("heuristic", 5)
    rows = engine_odds.play_strains(STANDARD, parse_cards(JUNK), samples=23, seed=4,
                                    players=players)
    monkeypatch.setattr(engine_odds, "TALLY_CHUNK", 5)
    done: list[int] = []
    tally = engine_odds.tally_strains(STANDARD, parse_cards(JUNK), samples=23, seed=4,
                                      players=players, progress=done.append)
    np.testing.assert_array_equal(tally.counts, engine_odds.StrainTally.of_rows(rows).counts)
    assert done == [25, 25, 25, 25, 15] and tally.samples == 23


@pytest.mark.parametrize(("name", "players"), [
    ("standard", "heuristic"), ("ucla-5p", "heuristic"), ("russian-4p", "heuristic"),
    ("standard", "pimc:worlds=4,heuristic,heuristic,heuristic,heuristic")])
def test_odds_rows_replay_and_a_par_in_the_bids_range_tells_every_bid(name: str,
                                                                      players: str) -> None:
    """The odds rows give the search every deal as played (each replays to its result),
    and a par searched only within the bids' range is the par there, ``min_bid - 1``
    below it and at least ``max_bid`` above it: each bid makes on it exactly when it
    makes on the par (from trick 7: endings quick to solve)."""
    profile = load_profile(name)
    params, ri, ru, ti = _odds_rows(profile, "AS KS QS 10S 5S JK AH KD 2C 3C", 40, 7,
                                    players)
    lo, hi = profile.min_bid - 1, profile.max_bid
    inside = 0
    for t in range(5):
        full = np.zeros((40, N_PAR), np.int64)
        part = np.zeros((40, N_PAR), np.int64)
        par_rows_nb((ri[t], ru[t], ti[t]), params, 7, 0, 40, -1, 1 << 30, full, 0,
                    search_work(par_bits_nb(params, 7)), 0)
        par_rows_nb((ri[t], ru[t], ti[t]), params, 7, 0, 40, lo, hi, part, 0,
                    search_work(par_bits_nb(params, 7)), 0)
        assert (full[:, PAR_MATCH] == 1).all() and (part[:, PAR_MATCH] == 1).all()
        v, w = full[:, PAR_VALUE], part[:, PAR_VALUE]
        assert (w[v <= lo] == lo).all() and (w[v >= hi] >= hi).all()
        between = (v > lo) & (v < hi)
        assert (w[between] == v[between]).all()
        inside += int(between.sum())
    assert inside >= 20


def test_double_dummy_odds_need_one_deck() -> None:
    r = CliRunner().invoke(main, ["odds", "--hand", STRONG, "--profile", "russian-6p",
                                  "--play", "double-dummy"])
    assert r.exit_code == 2 and "one-deck" in r.stderr


@pytest.mark.slow
def test_double_dummy_odds_of_a_hand_are_its_deals_pars() -> None:
    """``odds --play double-dummy`` on two deals: every contract makes double dummy
    exactly when the par of its strain's deal (searched in full, separately) reaches the
    bid."""
    r = CliRunner().invoke(main, ["odds", "--hand", STRONG, "--play", "double-dummy",
                                  "--samples", "2", "--seed", "5", "--format", "json"])
    assert r.exit_code == 0, r.stderr
    table = {(c["trump"], c["bid"]): c for c in json.loads(r.stdout)["contracts"]}
    params, ri, ru, ti = _odds_rows(STANDARD, STRONG, 2, 5)
    for t, trump in enumerate(("S", "H", "D", "C", "NT")):
        out = np.zeros((2, N_PAR), np.int64)
        par_rows_nb((ri[t], ru[t], ti[t]), params, 1, 0, 2, -1, 1 << 30, out, 0,
                    search_work(par_bits_nb(params, 1)), 0)
        for bid in range(13, 21):
            made = int((out[:, PAR_VALUE] >= bid).sum())
            assert table[trump, bid]["dd_p_success"] == made / 2, (trump, bid)


# -- duplicate duels ----------------------------------------------------------------------


def test_duel_pairs_each_deal_with_itself() -> None:
    """A duplicate duel: in each seat A's and B's lineups play the same deals. Its figures
    are those of the seat payouts on the same deals (as declarer: the deals where the seat
    declared in both lineups), and such pairs spread far less than the same lineups on
    other deals. (Over the seats, B's all-heuristic lineups sum to zero on any deals, so
    only the seat-by-seat figures show the pairing.)"""
    from mighty_sim.analysis.duel import duel, seat_payouts
    from mighty_sim.engine.players import parse_player

    a, b, field = (parse_player(x) for x in ("heuristic:2", "heuristic", "heuristic"))
    r = duel(STANDARD, a, b, deals=600, seed=2)
    diffs, unpaired, declared = [], [], []
    for seat in range(5):
        line_a = tuple(a if s == seat else field for s in range(5))
        line_b = tuple(b if s == seat else field for s in range(5))
        pay_a, decl_a = seat_payouts(STANDARD, line_a, seat, 600, 2)
        pay_b, decl_b = seat_payouts(STANDARD, line_b, seat, 600, 2)
        diffs.append(pay_a - pay_b)
        declared.append((pay_a - pay_b)[decl_a & decl_b])
        unpaired.append(pay_a - seat_payouts(STANDARD, line_b, seat, 600, 3)[0])
    assert r["mean_difference"] == pytest.approx(np.mean(diffs))
    as_declarer = np.concatenate(declared)
    assert r["declarer"]["n"] == len(as_declarer) > 100  # type: ignore[index]
    assert r["declarer"]["mean_difference"] == pytest.approx(  # type: ignore[index]
        as_declarer.mean())
    assert np.mean(np.std(diffs, axis=1)) < 0.75 * np.mean(np.std(unpaired, axis=1))


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
