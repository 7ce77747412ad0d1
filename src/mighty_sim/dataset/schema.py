"""Batch columns to Arrow tables: the dataset schema (version 1).

One row per dealt attempt in ``deals`` (a redeal is a row too); with ``--tricks`` one
row per trick in ``tricks``. Cards are masks in the layout of :func:`parse_cards`
(``hands``, ``blind``, ``discards``) or card text (``friend_card``, trick ``cards``).
Columns that do not apply to a redeal are null there; a redeal's payouts are zeros.
With two decks (docs/rules.md, russian profiles) ``hands``, ``blind`` and ``discards`` hold the
first deck's
cards and ``hands_deck2``, ``blind_deck2``, ``discards_deck2`` the second deck's, in the
same layout but for bit 53, each deck's second joker; trick ``cards`` name the kinds.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

try:  # the kernel caller that pyarrow.compute re-exports, without its 0.1 s import
    from pyarrow._compute import call_function
except ImportError:  # pragma: no cover (a pyarrow that moved it)
    from pyarrow.compute import call_function

from ..engine.batch import Batch
from ..kernels.layout import (
    F_STRENGTH,
    N_U,
    OUTCOMES,
    R_ATTEMPT,
    R_AUCTION_BID,
    R_AUCTION_TRUMP,
    R_BID,
    R_DEAL_IN_GAME,
    R_DEALER,
    R_DECLARER,
    R_FIRST_BIDDER,
    R_FRIEND_CARD,
    R_FRIEND_KIND,
    R_FRIEND_MODE,
    R_FRIEND_SEAT,
    R_GAME,
    R_HAND_POINTS,
    R_HAS_JOKER,
    R_HAS_MIGHTY,
    R_HIST_LEN,
    R_LEAD_REQUEST,
    R_OUTCOME,
    R_POINTS,
    R_REDEAL_BY,
    R_SUCCESS,
    R_TRICKS,
    R_TRUMP,
    R_TRUMP_CHANGED,
    R_TRUMP_LENGTH,
    T_CARDS,
    T_DEMAND,
    T_JOKER_SUIT,
    T_LEADER,
    T_NO,
    T_POINTS,
    T_ROW,
    T_WINNER,
    U_BLIND,
    U_DISCARDS,
)
from ..kernels.params import FRIEND_KINDS, FRIEND_MODES
from ..rules.cards import PLANE_BITS, SUITS, card_name
from ..rules.profile import TRUMPS

SCHEMA_VERSION = 1


def _take(names: pa.Array, codes: np.ndarray) -> pa.Array:
    """``names[codes]`` as an Arrow array, a negative code giving a null.

    Arrow's ``take`` kernel called directly: ``pa.Array.take`` would first import
    ``pyarrow.compute``, whose 286 function wrappers cost a process 0.06-0.17 s (a tenth
    of a small run); the kernel itself is in ``pyarrow._compute`` (0.01 s).

    >>> _take(pa.array(["pass", "S", "NT"]), np.array([2, 0, -1, 1])).to_pylist()
    ['NT', 'pass', None, 'S']
    """
    null = codes < 0
    idx = pa.array(np.where(null, 0, codes).astype(np.int32), mask=null if null.any() else None)
    return call_function("take", [names, idx])


CARD_NAMES = pa.array([card_name(b) if b % 64 < 54 else "" for b in range(128)])
"""Card names by card id (one deck: bits 0..52; two decks: physical ids, see cards.py)."""


def _history_names() -> pa.Array:
    names = []
    for code in range(8000):
        seat, what = divmod(code, 1000)
        if what == 0:
            names.append(f"{seat}:pass")
        elif what == 1:
            names.append(f"{seat}:weak")
        elif what // 10 >= 1 and what % 10 < 5:
            names.append(f"{seat}:{what // 10}{TRUMPS[what % 10]}")
        else:
            names.append("")
    return pa.array(names)


HISTORY_NAMES = _history_names()


def deal_id(game: np.ndarray, attempt: np.ndarray) -> np.ndarray:
    """Row key: ``game << 16 | attempt`` as uint64 (the attempt's stream index)."""
    return (game.astype(np.uint64) << np.uint64(16)) | attempt.astype(np.uint64)


def _nullable(values: np.ndarray, null: np.ndarray, type_: pa.DataType) -> pa.Array:
    return pa.array(values, type=type_, mask=null)


def _lookup(codes: np.ndarray, names: tuple[str, ...] | pa.Array) -> pa.Array:
    return _take(names if isinstance(names, pa.Array) else _names(names), codes)


@cache
def _names(names: tuple[str, ...]) -> pa.Array:
    return pa.array(list(names))


def _fixed_lists(values: np.ndarray, width: int, type_: pa.DataType) -> pa.Array:
    rows = values.shape[0]
    offsets = pa.array(np.arange(0, rows * width + 1, width, dtype=np.int32))
    flat = pa.array(np.ascontiguousarray(values[:, :width]).reshape(-1), type=type_)
    return pa.ListArray.from_arrays(offsets, flat)


def row_cards(row: dict[str, Any], column: str, seat: int | None = None) -> int:
    """The card mask of a ``deals`` row's ``column`` (``seat``'s entry of a list column),
    with a two-deck profile's ``<column>_deck2`` joined in as physical cards.

    >>> row_cards({"blind": 1, "blind_deck2": 2}, "blind") == 1 | 2 << 64
    True
    """
    def pick(col: str) -> int:
        v = row[col]
        return int(v[seat] if seat is not None else v)

    mask = pick(column)
    if f"{column}_deck2" in row:
        mask |= pick(f"{column}_deck2") << PLANE_BITS
    return mask


def deals_table(batch: Batch, players: int) -> pa.Table:
    """The ``deals`` rows of a batch as an Arrow table."""
    ri, ru, rf, rw, rh = batch.ri, batch.ru, batch.rf, batch.rw, batch.rh
    # each column contiguous: one pass instead of 27; Arrow shares a numpy column's
    # memory, so a column passed as it is is copied, or a kept table would keep all of them
    ric = np.ascontiguousarray(ri.T)
    not_played = ric[R_OUTCOME] != 0
    redeal_null = ric[R_REDEAL_BY] < 0
    lengths = ric[R_HIST_LEN].astype(np.int32)
    valid = np.arange(rh.shape[1])[None, :] < lengths[:, None]
    hist_codes = rh[valid].astype(np.int32)
    hist = pa.ListArray.from_arrays(
        pa.array(np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)),
        _take(HISTORY_NAMES, hist_codes),
    )
    columns = {
        "deal_id": pa.array(deal_id(ric[R_GAME], ric[R_ATTEMPT])),
        "game": pa.array(ric[R_GAME].copy()),
        "attempt": pa.array(ric[R_ATTEMPT].astype(np.int16)),
        "deal_in_game": pa.array(ric[R_DEAL_IN_GAME].astype(np.int16)),
        "dealer": pa.array(ric[R_DEALER].astype(np.int8)),
        "first_bidder": pa.array(ric[R_FIRST_BIDDER].astype(np.int8)),
        "hands": _fixed_lists(ru, players, pa.uint64()),
        "blind": pa.array(ru[:, U_BLIND]),
        "weak_scores": _fixed_lists(rw.astype(np.float32) / 4.0, players, pa.float32()),
        "outcome": _lookup(ric[R_OUTCOME], OUTCOMES),
        "redeal_by": _nullable(ric[R_REDEAL_BY].astype(np.int8), redeal_null, pa.int8()),
        "bid_history": hist,
        "declarer": _nullable(ric[R_DECLARER].astype(np.int8), not_played, pa.int8()),
        "bid": _nullable(ric[R_BID].astype(np.int8), not_played, pa.int8()),
        "trump": _lookup(np.where(not_played, -1, ric[R_TRUMP]), TRUMPS),
        "auction_bid": _nullable(ric[R_AUCTION_BID].astype(np.int8), not_played, pa.int8()),
        "auction_trump": _lookup(np.where(not_played, -1, ric[R_AUCTION_TRUMP]), TRUMPS),
        "trump_changed": _nullable(ric[R_TRUMP_CHANGED].astype(bool), not_played, pa.bool_()),
        "friend_mode": _lookup(np.where(not_played, -1, ric[R_FRIEND_MODE]), FRIEND_MODES),
        "friend_card": _lookup(ric[R_FRIEND_CARD], CARD_NAMES),
        "friend_seat": _nullable(ric[R_FRIEND_SEAT].astype(np.int8), ric[R_FRIEND_SEAT] < 0,
                                 pa.int8()),
        "friend_kind": _lookup(np.where(not_played, -1, ric[R_FRIEND_KIND]), FRIEND_KINDS),
        "lead_request": _lookup(ric[R_LEAD_REQUEST], tuple(SUITS)),
        "discards": _nullable(ru[:, U_DISCARDS], not_played, pa.uint64()),
        "declarer_points": _nullable(ric[R_POINTS].astype(np.int8), not_played, pa.int8()),
        "declarer_tricks": _nullable(ric[R_TRICKS].astype(np.int8), not_played, pa.int8()),
        "success": _nullable(ric[R_SUCCESS] == 1, not_played, pa.bool_()),
        "payouts": _fixed_lists(rf, players, pa.float64()),
        "declarer_strength": _nullable(rf[:, F_STRENGTH].astype(np.float32), not_played,
                                       pa.float32()),
        "declarer_trump_length": _nullable(ric[R_TRUMP_LENGTH].astype(np.int8), not_played,
                                           pa.int8()),
        "declarer_has_mighty": _nullable(ric[R_HAS_MIGHTY] == 1, not_played, pa.bool_()),
        "declarer_has_joker": _nullable(ric[R_HAS_JOKER] == 1, not_played, pa.bool_()),
        "declarer_hand_points": _nullable(ric[R_HAND_POINTS].astype(np.int8), not_played,
                                          pa.int8()),
    }
    if ru.shape[1] > N_U:  # two decks: each plane-0 column's second-deck copies
        columns["hands_deck2"] = _fixed_lists(ru[:, N_U:], players, pa.uint64())
        columns["blind_deck2"] = pa.array(ru[:, N_U + U_BLIND])
        columns["discards_deck2"] = _nullable(ru[:, N_U + U_DISCARDS], not_played, pa.uint64())
    return pa.table(columns)


def tricks_table(batch: Batch, players: int) -> pa.Table:
    """The ``tricks`` rows of a batch (recorded with ``record_tricks``)."""
    ti, ri = batch.ti, batch.ri
    tic = np.ascontiguousarray(ti.T)  # each column contiguous
    rows = tic[T_ROW]
    cards = ti[:, T_CARDS : T_CARDS + players]
    return pa.table({
        "deal_id": pa.array(deal_id(ri[rows, R_GAME], ri[rows, R_ATTEMPT])),
        "trick": pa.array(tic[T_NO].astype(np.int8)),
        "leader": pa.array(tic[T_LEADER].astype(np.int8)),
        "cards": pa.ListArray.from_arrays(
            pa.array(np.arange(0, len(ti) * players + 1, players, dtype=np.int32)),
            _take(CARD_NAMES, cards.reshape(-1)),
        ),
        "winner": pa.array(tic[T_WINNER].astype(np.int8)),
        "points": pa.array(tic[T_POINTS].astype(np.int8)),
        "joker_suit": _lookup(tic[T_JOKER_SUIT], tuple(SUITS)),
        "demand": pa.array(tic[T_DEMAND] == 1),
    })
