"""Tuned players: the shipped values load and are used, `tune` is deterministic for a
seed, and a mis-tuned field is found out and corrected."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mighty_sim.analysis.tune import tune
from mighty_sim.cli import main
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.heuristic import TUNED_DIR, HeuristicParams, read_tuned, tuned_for
from mighty_sim.engine.players import parse_player, parse_players
from mighty_sim.kernels.layout import (
    N_POLICY_PARAMS,
    OUTCOME_PLAYED,
    R_FRIEND_MODE,
    R_OUTCOME,
    R_TRUMP,
)
from mighty_sim.kernels.params import MODE_NONE, compile_profile
from mighty_sim.kernels.players.policy_nb import best_strain_nb, nt_edge_nb
from mighty_sim.rules.cards import parse_cards
from mighty_sim.rules.profile import BUILTIN_PROFILES, TRUMPS, load_profile

STANDARD = load_profile("standard")


@pytest.mark.parametrize("name", list(BUILTIN_PROFILES))
def test_every_builtin_profile_ships_tuned_values(name: str) -> None:
    params, meta = read_tuned(TUNED_DIR / f"{name}.toml")
    profile = load_profile(name)
    assert meta["profile"] == name and meta["fingerprint"] == profile.fingerprint()
    assert tuned_for(profile) == params
    assert "mighty-sim tune" in (TUNED_DIR / f"{name}.toml").read_text()


def _rows(players: str, profile: str = "ucla-4p") -> np.ndarray:
    p = load_profile(profile)
    batch = play_batch(p, seed=4, game_start=0, games=400,
                       players=parse_players(players, p.players))
    return batch.ri


def test_heuristic_plays_the_values_tuned_for_the_profile(tmp_path: Path) -> None:
    shipped = TUNED_DIR / "ucla-4p.toml"
    assert np.array_equal(_rows("heuristic"), _rows(f"heuristic@{shipped}"))
    other = tmp_path / "other.toml"
    bolder = read_tuned(shipped)[0].replace(bid_base=read_tuned(shipped)[0].bid_base + 4)
    other.write_text(bolder.to_toml(profile=load_profile("ucla-4p"), comments=["test"]))
    assert not np.array_equal(_rows("heuristic"), _rows(f"heuristic@{other}"))


def test_a_house_rule_without_values_takes_the_nearest_builtins() -> None:
    house = STANDARD.replace(name="my-table", double_back_run=False)
    assert tuned_for(house) == tuned_for(STANDARD)
    ucla_like = load_profile("ucla-5p").replace(name="x", loss_cap=-600)
    assert tuned_for(ucla_like) == tuned_for(load_profile("ucla-5p"))


def test_bad_tuned_files_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[heuristic]\nbid_base = 'x'\n")
    with pytest.raises(ValueError, match="bad.toml: bid_base"):
        parse_player(f"heuristic@{bad}")
    with pytest.raises(ValueError, match="cannot read tuned player file"):
        parse_player(f"heuristic@{tmp_path / 'none.toml'}")
    with pytest.raises(ValueError, match="no tuned values"):
        parse_player(f"random@{bad}")


def test_tune_is_deterministic_for_a_seed() -> None:
    a = tune(STANDARD, deals=300, seed=5, rounds=2)
    b = tune(STANDARD, deals=300, seed=5, rounds=2)
    assert a.steps == b.steps and a.params == b.params
    c = tune(STANDARD, deals=300, seed=6, rounds=1)
    assert [s.gain for s in c.steps] != [s.gain for s in a.steps[: len(c.steps)]]


def test_a_mistuned_field_is_found_out_and_corrected() -> None:
    """A field that bids four points too timidly: a seat that bids one step bolder gains
    (its interval above zero), tune adopts the step, and the values end bolder."""
    timid = tuned_for(STANDARD).replace(bid_base=tuned_for(STANDARD).bid_base - 4)
    result = tune(STANDARD, deals=3000, seed=2, rounds=2, start=timid)
    first = result.steps[0]
    assert first.parameter == "bid_base" and first.new > first.old
    assert first.adopted and first.ci_low > 0
    assert result.params.bid_base >= timid.bid_base + 2
    # a step is adopted only when fresh deals confirm it; confirmation is asked only of
    # steps that passed the first test
    for step in result.steps:
        assert step.adopted == (step.ci_low > 0 and step.confirm_low > 0)
        assert (step.confirm_low == step.confirm_low) == (step.ci_low > 0)


def test_tune_command_writes_a_file_the_players_accept(tmp_path: Path) -> None:
    out = tmp_path / "t.toml"
    r = CliRunner().invoke(main, ["tune", "--profile", "russian-4p", "--deals", "300",
                                  "--rounds", "1", "--out", str(out)])
    assert r.exit_code == 0, r.stderr
    params, meta = read_tuned(out)
    assert meta["profile"] == "russian-4p" and isinstance(params, HeuristicParams)
    r = CliRunner().invoke(main, ["duel", "--profile", "russian-4p", "--deals", "200",
                                  "--players", f"heuristic@{out}", "--players", "heuristic"])
    assert r.exit_code == 0, r.stderr


def _strain(hand: str, params: HeuristicParams) -> str:
    pp = np.zeros(N_POLICY_PARAMS)
    params.fill(pp)
    trump, _ = best_strain_nb(np.uint64(parse_cards(hand)), compile_profile(STANDARD), pp)
    return TRUMPS[trump]


def test_the_heuristic_chooses_nt_for_top_cards_and_a_suit_for_length() -> None:
    """Kings, the joker and cards running from aces in every suit make an NT hand; the
    same top cards with a seven-card suit make that suit trump; a higher NT margin
    keeps the first hand in a suit."""
    tuned = tuned_for(STANDARD)
    balanced = "JK AH KH QH AD KD KC 9C KS 5S"
    long_hearts = "JK AH KH QH JH 9H 7H 5H KD 2C"
    assert nt_edge_nb(np.uint64(parse_cards(balanced)), compile_profile(STANDARD)) > 10
    assert _strain(balanced, tuned) == "NT"
    assert _strain(long_hearts, tuned) == "H"
    assert _strain(balanced, tuned.replace(nt_margin=25)) != "NT"


def test_standard_players_declare_every_contract_type() -> None:
    """NT and openly friendless contracts occur among tuned standard players."""
    ri = play_batch(STANDARD, seed=8, game_start=0, games=5000,
                    players=parse_players("heuristic", STANDARD.players)).ri
    played = ri[ri[:, R_OUTCOME] == OUTCOME_PLAYED]
    assert (played[:, R_TRUMP] == TRUMPS.index("NT")).mean() > 0.03
    assert (played[:, R_FRIEND_MODE] == MODE_NONE).sum() > 0
