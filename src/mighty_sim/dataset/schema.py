"""Batch columns to Arrow tables: the dataset schema (version 2).

One row per dealt attempt in ``deals`` (a redeal is a row too); with ``--tricks`` one
row per trick in ``tricks``. Cards are masks in the layout of :func:`parse_cards`
(``hands``, ``blind``, ``discards``) or card text (``friend_card``, trick ``cards``).
Columns that do not apply to a redeal are null there; a redeal's payouts are zeros.
Columns of names (``outcome``, ``trump``, ``bid_history``, ``friend_card``...) are
dictionary arrays (:class:`Enum`): small indices into a fixed list of names, which
readers see as the names (Polars: categorical columns).
With two decks (docs/rules.md, russian profiles) ``hands``, ``blind`` and ``discards``
hold the first deck's cards and ``hands_deck2``, ``blind_deck2``, ``discards_deck2`` the
second deck's, in the same layout but for bit 53, each deck's second joker; trick
``cards`` name the kinds.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pyarrow as pa

from ..engine.batch import Batch
from ..kernels.layout import (
    F_STRENGTH,
    G_ATTEMPT,
    G_DEAL_IN_GAME,
    G_GAME,
    MAX_PLAYERS,
    N_U,
    OUTCOME_PLAYED,
    OUTCOMES,
    R_AUCTION_BID,
    R_AUCTION_TRUMP,
    R_BID,
    R_DEALER,
    R_DECLARER,
    R_FIRST_BIDDER,
    R_FRIEND_CARD,
    R_FRIEND_KIND,
    R_FRIEND_MODE,
    R_FRIEND_SEAT,
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
    T_WINNER,
    U_BLIND,
    U_DISCARDS,
)
from ..kernels.params import FRIEND_KINDS, FRIEND_MODES
from ..rules.cards import PLANE_BITS, SUITS, card_name
from ..rules.profile import TRUMPS

MAX_SEATS = MAX_PLAYERS
"""Seats a row has columns for (``hands_0`` …), whatever the profile's players."""

SCHEMA_VERSION = 2


class Enum:
    """A column's fixed set of names and the kernel codes that stand for them: an enum
    column is written as an Arrow dictionary array, ``int8`` or ``int16`` indices into
    ``names``. The dictionary must be the same in every batch of a file: the Parquet
    writer stores indices as they are only while the dictionary does not change.

    >>> e = Enum.of(["pass", "S", "NT"])
    >>> e.array(np.array([2, 0, -1, 1])).to_pylist()
    ['NT', 'pass', None, 'S']
    >>> len(CARD_NAMES.names), CARD_NAMES.array(np.array([0, 64])).to_pylist()
    (53, ['2S', '2S'])
    """

    def __init__(self, codes: list[int], names: list[str]) -> None:
        # each name once in the dictionary, where codes share a name (two decks' copies
        # of a card): a Parquet writer given a dictionary that repeats a value writes
        # the column without one (card names: twice the bytes, twice the time)
        unique = list(dict.fromkeys(names))
        self.names = pa.array(unique)
        index_type = np.int8 if len(unique) <= 127 else np.int16
        self.index = np.zeros(max(codes) + 1, index_type)  # code -> index into names
        self.index[codes] = [unique.index(name) for name in names]
        self.identity = codes == list(range(len(codes))) and unique == names

    @classmethod
    def of(cls, names: tuple[str, ...] | list[str]) -> Enum:
        """The enum whose code ``k`` is ``names[k]``."""
        return cls(list(range(len(names))), list(names))

    def array(self, codes: np.ndarray, nulls: _Nulls | None = None) -> pa.Array:
        """``names[codes]`` as a dictionary array: null where ``nulls`` says, or else
        where a code is negative."""
        if nulls is None:
            nulls = _Nulls(codes < 0)
        if self.identity:  # a null's index is masked: any value in range does
            idx = np.maximum(codes, 0).astype(self.index.dtype)
        else:
            idx = self.index[np.maximum(codes, 0)]
        return pa.DictionaryArray.from_arrays(
            nulls.array(idx, pa.from_numpy_dtype(idx.dtype)), self.names)


def _enum(codes: np.ndarray, names: tuple[str, ...] | Enum,
          nulls: _Nulls | None = None) -> pa.Array:
    return (names if isinstance(names, Enum) else _enum_of(names)).array(codes, nulls)


@cache
def _enum_of(names: tuple[str, ...]) -> Enum:
    return Enum.of(names)


CARD_NAMES = Enum([b for b in range(128) if b % 64 < 54],
                  [card_name(b) for b in range(128) if b % 64 < 54])
"""Card names by card id (one deck: bits 0..52; two decks: physical ids, see cards.py)."""


def bid_name(code: int) -> str:
    """The call that ``bid_history`` code ``code`` stands for: ``seat * 1000 + what``,
    ``what`` 0 for a pass, 1 for a weak hand shown, else ``number * 10 + strain`` with the
    strains S, H, D, C, NT numbered 0 to 4.

    >>> bid_name(2154), bid_name(3000), bid_name(1)
    ('2:15NT', '3:pass', '0:weak')
    """
    seat, what = divmod(int(code), 1000)
    if what == 0:
        return f"{seat}:pass"
    if what == 1:
        return f"{seat}:weak"
    return f"{seat}:{what // 10}{TRUMPS[what % 10]}"


def deal_id(game: np.ndarray, attempt: np.ndarray) -> np.ndarray:
    """Row key: ``game << 16 | attempt`` as uint64 (the attempt's stream index; the
    attempt, dealt attempt ``a`` of the game, is not a column of its own:
    ``deal_id & 0xFFFF``)."""
    return (game.astype(np.uint64) << np.uint64(16)) | attempt.astype(np.uint64)


def _list_type(type_: pa.DataType) -> pa.DataType:
    return pa.list_(pa.field("item", type_, nullable=False))


def _fixed_lists(values: np.ndarray, width: int, type_: pa.DataType) -> pa.Array:
    rows = values.shape[0]
    offsets = pa.array(np.arange(0, rows * width + 1, width, dtype=np.int32))
    flat = pa.array(np.ascontiguousarray(values[:, :width]).reshape(-1), type=type_)
    return pa.ListArray.from_arrays(offsets, flat, type=_list_type(type_))


def _history(calls: np.ndarray, lengths: np.ndarray) -> pa.Array:
    """The rows' auctions, ``lengths[r]`` calls each one after another in ``calls``, as
    a list column."""
    offsets = np.zeros(len(lengths) + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(calls[:offsets[-1]].copy()),
                                    type=_list_type(pa.int16()))


class _Nulls:
    """A validity bitmap shared by the columns null in the same rows (packing a mask
    again for each costs as much as the column itself)."""

    def __init__(self, null: np.ndarray) -> None:
        self.count = int(np.count_nonzero(null))
        self.bitmap = pa.array(~null).buffers()[1] if self.count else None

    def array(self, values: np.ndarray, type_: pa.DataType) -> pa.Array:
        """``values`` (contiguous, of ``type_``'s width; not copied) with these nulls."""
        if type_ == pa.bool_():
            data = pa.array(values).buffers()[1]
        else:
            data = pa.py_buffer(values)
        return pa.Array.from_buffers(type_, len(values), [self.bitmap, data],
                                     null_count=self.count)


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


def deals_table(batch: Batch, players: int, *, seat_columns: bool = False) -> pa.Table:
    """The ``deals`` rows of a batch as an Arrow table; with ``seat_columns`` as the files
    store them, each list of :data:`SEAT_LISTS` as one column a seat."""
    rg, ri, ru, rf, rw, rh = batch.rg, batch.ri, batch.ru, batch.rf, batch.rw, batch.rh
    # the batch's arrays are column-major: a column is a contiguous view. Arrow shares a
    # NumPy column's memory, so each is copied (a copy of its rows only), or a kept table
    # would keep the whole batch alive
    col = [ri[:, k] for k in range(ri.shape[1])]
    unplayed = _Nulls(col[R_OUTCOME] != 0)  # the columns of a played deal's contract
    whole = _Nulls(np.zeros(len(ri), bool))

    def small(k: int, nulls: _Nulls = whole) -> pa.Array:
        return nulls.array(col[k].copy(), pa.int8())

    def flag(k: int) -> pa.Array:
        return unplayed.array(col[k] == 1, pa.bool_())

    def played(k: int, names: tuple[str, ...] | Enum) -> pa.Array:
        return _enum(col[k], names, unplayed)

    def seat_list(name: str, values: np.ndarray, type_: pa.DataType) -> dict[str, pa.Array]:
        """The list ``name`` of ``values[:, :players]``, or its seat columns."""
        if not seat_columns:
            return {name: _fixed_lists(values, players, type_)}
        return {f"{name}_{p}": pa.array(values[:, p].copy(), type=type_)
                for p in range(players)}

    hist = _history(rh, col[R_HIST_LEN].astype(np.int32))
    columns = {
        "deal_id": pa.array(deal_id(rg[:, G_GAME], rg[:, G_ATTEMPT])),
        "game": pa.array(rg[:, G_GAME].copy()),
        "deal_in_game": pa.array(rg[:, G_DEAL_IN_GAME].astype(np.int16)),
        "dealer": small(R_DEALER),
        "first_bidder": small(R_FIRST_BIDDER),
        **seat_list("hands", ru, pa.uint64()),
        "blind": pa.array(ru[:, U_BLIND].copy()),
        **seat_list("weak_scores", rw[:, :players].astype(np.float32) / 4.0, pa.float32()),
        "outcome": _enum(col[R_OUTCOME], OUTCOMES),
        "redeal_by": small(R_REDEAL_BY, _Nulls(col[R_REDEAL_BY] < 0)),
        "bid_history": hist,
        "declarer": small(R_DECLARER, unplayed),
        "bid": small(R_BID, unplayed),
        "trump": played(R_TRUMP, TRUMPS),
        "auction_bid": small(R_AUCTION_BID, unplayed),
        "auction_trump": played(R_AUCTION_TRUMP, TRUMPS),
        "trump_changed": flag(R_TRUMP_CHANGED),
        "friend_mode": played(R_FRIEND_MODE, FRIEND_MODES),
        "friend_card": _enum(col[R_FRIEND_CARD], CARD_NAMES),
        "friend_seat": small(R_FRIEND_SEAT, _Nulls(col[R_FRIEND_SEAT] < 0)),
        "friend_kind": played(R_FRIEND_KIND, FRIEND_KINDS),
        "lead_request": _enum(col[R_LEAD_REQUEST], tuple(SUITS)),
        "discards": unplayed.array(ru[:, U_DISCARDS].copy(), pa.uint64()),
        "declarer_points": small(R_POINTS, unplayed),
        "declarer_tricks": small(R_TRICKS, unplayed),
        "success": flag(R_SUCCESS),
        **seat_list("payouts", rf, pa.float64()),
        "declarer_strength": unplayed.array(rf[:, F_STRENGTH].astype(np.float32), pa.float32()),
        "declarer_trump_length": small(R_TRUMP_LENGTH, unplayed),
        "declarer_has_mighty": flag(R_HAS_MIGHTY),
        "declarer_has_joker": flag(R_HAS_JOKER),
        "declarer_hand_points": small(R_HAND_POINTS, unplayed),
    }
    if ru.shape[1] > N_U:  # two decks: each plane-0 column's second-deck copies
        columns.update(seat_list("hands_deck2", ru[:, N_U:], pa.uint64()))
        columns["blind_deck2"] = pa.array(ru[:, N_U + U_BLIND].copy())
        columns["discards_deck2"] = unplayed.array(ru[:, N_U + U_DISCARDS].copy(),
                                                   pa.uint64())
    return _table(columns)


SEAT_LISTS = ("hands", "weak_scores", "payouts", "hands_deck2")
"""The ``deals`` lists of one entry a seat. Files store each as one column a seat,
``<name>_<seat>`` (:func:`deals_table` with ``seat_columns``): a Parquet list costs about
twice the writing time of the same values as plain columns. ``analysis.seat_lists``
gives readers the lists."""


REQUIRED = ("deal_id", "game", "deal_in_game", "dealer", "first_bidder", "blind",
            "outcome", "bid_history", "blind_deck2", "trick", "leader", "cards", "winner",
            "points", "demand", *SEAT_LISTS,
            *(f"{name}_{p}" for name in SEAT_LISTS for p in range(MAX_PLAYERS)))
"""Columns never null: declared so, Parquet writes no definition levels for them."""


def _table(columns: dict[str, pa.Array]) -> pa.Table:
    schema = pa.schema([pa.field(k, v.type, nullable=k not in REQUIRED)
                        for k, v in columns.items()])
    return pa.Table.from_arrays(list(columns.values()), schema=schema)


_BLOCK_ROWS = 16_384
"""Rows of the trick rows transposed at a time (:func:`_columns`)."""


def _columns(a: np.ndarray, count: int) -> list[np.ndarray]:
    """The first ``count`` columns of a row-major array, each contiguous and in memory of
    its own (a column Arrow takes without a copy keeps no other alive): gathered a block
    of rows at a time, so that each block stays in the processor's cache.

    >>> _columns(np.arange(6).reshape(3, 2), 2)
    [array([0, 2, 4]), array([1, 3, 5])]
    """
    out = [np.empty(len(a), a.dtype) for _ in range(count)]
    for i in range(0, len(a), _BLOCK_ROWS):
        block = a[i:i + _BLOCK_ROWS]
        for c in range(count):
            out[c][i:i + _BLOCK_ROWS] = block[:, c]
    return out


def tricks_table(batch: Batch, players: int) -> pa.Table:
    """The ``tricks`` rows of a batch (recorded with ``record_tricks``): each played row's
    tricks, in row order (:mod:`mighty_sim.kernels.layout`)."""
    ti, rg = batch.ti, batch.rg
    played = np.flatnonzero(batch.ri[:, R_OUTCOME] == OUTCOME_PLAYED)
    tricks = len(ti) // max(len(played), 1)
    if len(ti) != tricks * len(played):
        raise ValueError(f"{len(ti)} trick rows for {len(played)} played deals")
    rows = np.repeat(played, tricks)
    tic = _columns(ti, T_CARDS)  # each column but the cards contiguous
    cards = ti[:, T_CARDS : T_CARDS + players]
    names = CARD_NAMES.array(cards.reshape(-1))
    return _table({
        "deal_id": pa.array(deal_id(rg[rows, G_GAME], rg[rows, G_ATTEMPT])),
        "trick": pa.array(tic[T_NO]),
        "leader": pa.array(tic[T_LEADER]),
        "cards": pa.ListArray.from_arrays(
            pa.array(np.arange(0, len(ti) * players + 1, players, dtype=np.int32)),
            names, type=_list_type(names.type),
        ),
        "winner": pa.array(tic[T_WINNER]),
        "points": pa.array(tic[T_POINTS]),
        "joker_suit": _enum(tic[T_JOKER_SUIT], tuple(SUITS)),
        "demand": pa.array(tic[T_DEMAND] == 1),
    })
