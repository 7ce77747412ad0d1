"""The batch kernel's row columns against the dataset's: each column the kernel writes
(:mod:`mighty_sim.kernels.layout`) is the source of one column of the ``deals`` table as
the files store it, and each stored column has one source, found by changing one value of
one kernel column and seeing which stored columns change. The exceptions are named: the
key ``deal_id`` is the game and the attempt together, and a row's outcome says which of
its columns apply (a redeal's contract columns are null)."""

from __future__ import annotations

import numpy as np
import pytest

from mighty_sim.dataset.schema import deals_table
from mighty_sim.engine.batch import Batch, play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels import layout
from mighty_sim.kernels.layout import (
    F_STRENGTH,
    G_ATTEMPT,
    G_GAME,
    N_G,
    N_R,
    OUTCOME_ALL_PASS,
    OUTCOME_PLAYED,
    R_AUCTION_TRUMP,
    R_FRIEND_SEAT,
    R_LEAD_REQUEST,
    R_OUTCOME,
    R_TRUMP,
    U_BLIND,
    U_DISCARDS,
)
from mighty_sim.rules.profile import TRUMPS, load_profile

NAMES = {getattr(layout, k): k for k in dir(layout) if k.startswith("R_")}


def _batch(name: str) -> tuple[Batch, int, int]:
    """A batch and one played row of it with a friend; the players."""
    profile = load_profile(name)
    batch = play_batch(profile, seed=2, game_start=0, games=200,
                       players=parse_players("heuristic", profile.players))
    rows = np.flatnonzero((batch.ri[:, R_OUTCOME] == OUTCOME_PLAYED)
                          & (batch.ri[:, R_FRIEND_SEAT] >= 0))
    return batch, int(rows[0]), profile.players


def _sources(players: int, two_decks: bool) -> list[tuple[str, int, str]]:
    """Every column the kernel writes for a table of ``players``: (array, column, name)."""
    out = [("rg", k, f"rg[{k}]") for k in range(N_G)]
    out += [("ri", k, NAMES[k]) for k in range(N_R)]
    planes = (0, layout.N_U) if two_decks else (0,)
    for plane in planes:
        out += [("ru", plane + s, f"ru[{plane + s}]")
                for s in (*range(players), U_BLIND, U_DISCARDS)]
    out += [("rf", k, f"rf[{k}]") for k in (*range(players), F_STRENGTH)]
    out += [("rw", s, f"rw[{s}]") for s in range(players)]
    return out


def _changed(value: int | float, array: str, column: int) -> int | float:
    """Another value a column may hold."""
    if array == "ri" and column in (R_TRUMP, R_AUCTION_TRUMP):
        return (int(value) + 1) % len(TRUMPS)
    if array == "ri" and column == R_LEAD_REQUEST:
        return 0 if value < 0 else -1
    if array == "ru":
        return int(value) ^ 1  # the 2 of spades in or out
    return value + 1 if value <= 0 else value - 1


def _columns_changed(batch: Batch, players: int, array: str, column: int, row: int,
                     value: int | float) -> set[str]:
    base = deals_table(batch, players, seat_columns=True)
    a = getattr(batch, array)
    old = a[row, column]
    a[row, column] = value
    try:
        changed = deals_table(batch, players, seat_columns=True)
    finally:
        a[row, column] = old
    return {n for n in base.column_names
            if not base.column(n).equals(changed.column(n))}


@pytest.mark.parametrize("name", ["standard", "russian-6p"])
def test_each_kernel_column_is_one_stored_column(name: str) -> None:
    batch, row, players = _batch(name)
    two = batch.ru.shape[1] > layout.N_U
    found: dict[str, set[str]] = {}
    for array, column, label in _sources(players, two):
        value = _changed(getattr(batch, array)[row, column], array, column)
        found[label] = _columns_changed(batch, players, array, column, row, value)
    # the named exceptions: the key of two sources, the outcome saying what applies
    assert found.pop(f"rg[{G_GAME}]") == {"game", "deal_id"}
    assert found.pop(f"rg[{G_ATTEMPT}]") == {"deal_id"}
    assert "outcome" in found.pop("R_OUTCOME")
    for label, columns in found.items():
        assert len(columns) == 1, (label, columns)
    targets = [next(iter(c)) for c in found.values()]
    assert len(targets) == len(set(targets)), "two kernel columns feed one stored column"
    stored = deals_table(batch, players, seat_columns=True).column_names
    assert set(stored) == {*targets, "game", "deal_id", "outcome"}


CONTRACT = ("declarer", "bid", "trump", "auction_bid", "auction_trump", "trump_changed",
            "friend_mode", "friend_kind", "discards", "declarer_points", "declarer_tricks",
            "success", "declarer_strength", "declarer_trump_length", "declarer_has_mighty",
            "declarer_has_joker", "declarer_hand_points")
"""The columns of a played deal's contract: null in a redeal's row, whatever the kernel
left in them."""


def test_a_redeal_row_nulls_the_contract_columns() -> None:
    batch, row, players = _batch("standard")
    assert _columns_changed(batch, players, "ri", R_OUTCOME, row, OUTCOME_ALL_PASS) \
        >= {"outcome", *CONTRACT}
    batch.ri[row, R_OUTCOME] = OUTCOME_ALL_PASS
    table = deals_table(batch, players, seat_columns=True)
    for name in CONTRACT:
        assert not table.column(name)[row].is_valid, name
