"""The double-dummy search for the commands and analyses: the one door to
:mod:`mighty_sim.kernels.search`.

A :class:`Position` is a play state the search starts from: a deal's first trick
(:func:`deal_position`) or a recorded deal replayed to the start of a trick
(:func:`recorded_positions`). :func:`solve_position` finds its par, or whether it
reaches a target; :class:`ParSolver` finds the par of a batch's recorded deals, in search
arrays the calling thread keeps from batch to batch (:func:`drop_kept` frees them).

>>> from mighty_sim.rules.cards import parse_cards
>>> from mighty_sim.rules.profile import load_profile
>>> hands = ["JK AS KS QS JS 10S AH KH AD AC", "9S 8S 7S 6S QH JH 10H 9H KD QD",
...          "5S 4S 3S 2S 8H 7H 6H JD 10D 9D", "5H 4H 3H 2H 8D 7D 6D 5D KC QC",
...          "4D 3D 2D JC 10C 9C 8C 7C 6C 5C"]
>>> pos = deal_position(load_profile("standard"), [parse_cards(h) for h in hands],
...                     discards=parse_cards("4C 3C 2C"), bid=18, trump="S",
...                     called=parse_cards("KD").bit_length() - 1)
>>> solve_position(pos, guess=TOP).value  # the par: every point
20
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np

from ..kernels.layout import MAX_PLAYERS
from ..kernels.loop.play_nb import N_H, N_S, S_TRICK_NO, start_play_nb
from ..kernels.params import MODE_CALLED, MODE_NONE, compile_profile
from ..kernels.search.dd_nb import (
    EXACT_SINCE,
    GAVE_UP,
    SEARCH_VERSION,
    TOP,
    Work,
    dd_target_work_nb,
    drop_kept,
    kept_work,
    search_work,
    side_of_nb,
    table_bits_nb,
)
from ..kernels.search.par_nb import (
    N_PAR,
    PAR_FROM,
    PAR_MATCH,
    PAR_NODES,
    PAR_VALUE,
    card_costs_nb,
    first_tricks_nb,
    par_bits_nb,
    par_rows_nb,
    recorded_position_nb,
)
from ..rules.profile import TRUMPS, RuleProfile
from .batch import Batch

__all__ = [
    "EXACT_SINCE",
    "GAVE_UP",
    "SEARCH_VERSION",
    "TOP",
    "CardCosts",
    "ParSolver",
    "Position",
    "Solved",
    "card_costs",
    "deal_position",
    "drop_kept",
    "recorded_positions",
    "search_arrays",
    "solve_position",
    "trick_arrays",
    "warm_search",
]


class Position(NamedTuple):
    """A play state the search starts from: the kernels' state, hands and trick arrays
    (:mod:`mighty_sim.kernels.loop.play_nb`) and the compiled rules it is played by."""

    state: np.ndarray
    hands: np.ndarray
    trick: np.ndarray
    params: np.ndarray

    @property
    def trick_no(self) -> int:
        """The trick the position is in."""
        return int(self.state[S_TRICK_NO])

    @property
    def side(self) -> int:
        """Whether the declarer's side is known to the search: -1 while a friend is still
        hidden in a way the search cannot settle (it then cannot start here)."""
        return int(side_of_nb(self.state))


class Solved(NamedTuple):
    """A search's answer and the positions it visited."""

    value: int
    positions: int


def _empty(params: np.ndarray) -> Position:
    return Position(np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64),
                    np.zeros(MAX_PLAYERS, np.int64), params)


def deal_position(profile: RuleProfile, hands: Sequence[int], *, discards: int, bid: int,
                  trump: str | int, called: int = -1, request: int = -1,
                  declarer: int = 0) -> Position:
    """The first trick of a deal after the exchange: ``hands`` by seat (card masks of one
    deck), the declarer's ``discards``, the contract, the called card's bit (-1: no
    friend) and a lead request's suit (-1: none)."""
    params = compile_profile(profile)
    t = TRUMPS.index(trump) if isinstance(trump, str) else trump
    pos = _empty(params)
    h0 = np.zeros(MAX_PLAYERS, np.uint64)
    h0[:len(hands)] = np.array(hands, np.uint64)
    start_play_nb(pos.state, pos.hands, pos.trick, params, h0, np.uint64(discards),
                  (declarer, bid, t, False),
                  (MODE_CALLED if called >= 0 else MODE_NONE, called, request), False)
    return pos


def search_arrays(position: Position) -> Work:
    """Search arrays sized for ``position`` (a table of the size it asks for)."""
    return search_work(table_bits_nb(position.state, position.hands))


def trick_arrays(profile: RuleProfile, from_trick: int) -> Work:
    """Search arrays sized for positions from the start of ``from_trick`` on."""
    return search_work(par_bits_nb(compile_profile(profile), from_trick))


def warm_search(position: Position) -> None:
    """Load (or compile) the search by asking it a question it answers without searching:
    a caller timing searches calls this first."""
    dd_target_work_nb(position.state, position.hands, position.trick, position.params,
                      np.zeros(1, np.int64), 0, 0, 0, search_work(0), 0, 0)


def solve_position(position: Position, *, guess: int, lo: int = -1, hi: int = TOP,
                   work: Work | None = None, solve: int = 0, limit: int = 0) -> Solved:
    """The position's value for the declarer's side, found only as far as ``lo`` and
    ``hi`` tell it apart (at most ``lo``, at least ``hi``, else exact), searched from
    ``guess`` (:data:`TOP`: from the top); in ``work`` (kept by the caller, each search
    numbered by its own ``solve``) or fresh arrays; with ``limit`` > 0, :data:`GAVE_UP`
    once the search passes ``limit`` positions."""
    nodes = np.zeros(1, np.int64)
    arrays = work if work is not None else search_arrays(position)
    value = dd_target_work_nb(position.state, position.hands, position.trick,
                              position.params, nodes, guess, lo, hi, arrays, solve, limit)
    return Solved(int(value), int(nodes[0]))


def recorded_positions(batch: Batch, row: int, profile: RuleProfile, from_trick: int
                       ) -> Iterator[Position]:
    """Row ``row`` of ``batch`` (played, recorded with its tricks) replayed to the start of
    each trick from ``from_trick`` on (a first-trick friend's deal from trick 2); one
    position, overwritten trick by trick (copy it to keep it)."""
    params = compile_profile(profile)
    first = first_tricks_nb(batch.ri, profile.hand_size)
    pos = _empty(params)
    for trick in range(from_trick, profile.hand_size + 1):
        if recorded_position_nb(batch.ri, batch.ru, batch.ti, row, first[row], params, trick,
                                pos.state, pos.hands, pos.trick) < 0:
            raise ValueError("the recorded play does not replay")  # not this deal's record
        if pos.trick_no == trick:
            yield pos


class ParSolver:
    """The par of the recorded deals of a batch's rows (``ri``, ``ru``, ``ti``: the row
    arrays of :class:`~mighty_sim.engine.batch.Batch`, or of :mod:`.odds`' samples), from
    the start of ``from_trick``, in search arrays this thread keeps for its next batch
    (one table a thread; :func:`drop_kept` frees them). Rows not played, and rows not
    solved yet, hold -1."""

    def __init__(self, profile: RuleProfile, ri: np.ndarray, ru: np.ndarray, ti: np.ndarray,
                 from_trick: int) -> None:
        self.params = compile_profile(profile)
        self.rows = (ri, ru, ti)
        self.from_trick = from_trick
        self._out = np.full((ri.shape[0], N_PAR), -1, np.int64)
        self._work, self._solve0 = kept_work(par_bits_nb(self.params, from_trick),
                                             ri.shape[0])

    def solve(self, start: int, stop: int, *, lo: int = -1, hi: int = TOP,
              limit: int = 0) -> None:
        """Solve rows ``start .. stop-1``, each par found only as far as ``lo`` and ``hi``
        tell it apart (:func:`solve_position`); with ``limit`` > 0 a deal whose search
        passes ``limit`` positions is left unanswered (:data:`GAVE_UP`)."""
        ri, ru, ti = self.rows
        par_rows_nb((ri, ru, ti), self.params, self.from_trick, start, stop, lo, hi, self._out,
                    limit, self._work, self._solve0)

    @property
    def value(self) -> np.ndarray:
        """Each row's par (:data:`GAVE_UP` where unanswered)."""
        return self._out[:, PAR_VALUE]

    @property
    def replayed(self) -> np.ndarray:
        """Whether each solved row's recorded play replayed to its recorded result."""
        return np.asarray(self._out[:, PAR_MATCH] == 1)

    @property
    def positions(self) -> np.ndarray:
        """The positions each row's search visited."""
        return self._out[:, PAR_NODES]

    @property
    def started(self) -> np.ndarray:
        """The trick each row's search started from."""
        return self._out[:, PAR_FROM]


class CardCosts(NamedTuple):
    """The card-by-card yardstick of a batch's rows (:func:`card_costs`)."""

    costs: np.ndarray
    """(rows, tricks, seats in play order) int8: what each card gave away, -1 where not
    measured."""
    pars: np.ndarray
    """Each row's par at the start of the first trick measured, -1 where not measured."""
    given: np.ndarray
    """(rows, tricks, 2) int16: each trick's costs summed for the declarer's side and
    for the defence, -1 where not measured."""


def card_costs(batch: Batch, profile: RuleProfile, from_trick: int,
               rows: range | None = None) -> CardCosts:
    """Each card of the recorded deals of ``batch`` (its ``rows``, every one by
    default) from the start of ``from_trick`` on, measured against double-dummy par:
    the par before the card less the par after it for a card of the declarer's side,
    the other way round for a defender's (points, or tricks in trick-bid profiles).
    A card that keeps its side's par gives nothing away; the sum over a deal's cards of
    one side is what that side's play cost against best play with every hand seen.
    """
    params = compile_profile(profile)
    n = batch.ri.shape[0]
    rows = range(n) if rows is None else rows
    costs = np.full((n, profile.hand_size, MAX_PLAYERS), -1, np.int8)
    pars = np.full(n, -1, np.int64)
    given = np.full((n, profile.hand_size, 2), -1, np.int16)
    work = search_work(par_bits_nb(params, from_trick))
    card_costs_nb((batch.ri, batch.ru, batch.ti), params, from_trick, rows.start, rows.stop,
                  (costs, pars, given), work)
    return CardCosts(costs, pars, given)
