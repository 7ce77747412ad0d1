"""One hand played out many times: the door to :mod:`mighty_sim.kernels.loop.odds_nb`
for :mod:`mighty_sim.analysis.odds`.

:func:`play_strains` deals the unseen cards ``samples`` times and plays each deal out
with the hand's owner as declarer in every trump and NT (each strain's samples in as
many runs as there are threads, the runs on parallel threads); :func:`tally_strains`
does the same a chunk of samples at a time and keeps only how many samples ended with
each count taken, so that its memory does not grow with ``samples``;
:func:`settle_many` pays a column of results at one bid.

>>> from mighty_sim.engine.players import parse_players
>>> from mighty_sim.rules.cards import parse_cards
>>> from mighty_sim.rules.profile import load_profile
>>> std = load_profile("standard")
>>> rows = play_strains(std, parse_cards("AS KS QS 10S 5S JK AH KD 2C 3C"), samples=50,
...                     seed=1, players=parse_players("heuristic", 5))
>>> rows.taken(0).shape, int(rows.taken(0).max()) <= 20
((50,), True)
>>> tally = tally_strains(std, parse_cards("AS KS QS 10S 5S JK AH KD 2C 3C"), samples=50,
...                       seed=1, players=parse_players("heuristic", 5))
>>> tally.samples, tally.made(0, 13) == int((rows.taken(0) >= 13).sum())
(50, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numba
import numpy as np

from ..kernels.layout import N_F, N_R, N_T, N_U, R_FRIEND_KIND, R_POINTS, R_TRICKS
from ..kernels.loop.odds_nb import odds_strains_nb
from ..kernels.params import FRIEND_KINDS, compile_profile
from ..kernels.rules.rules_nb import settle_batch_nb
from ..rules.cards import planes
from ..rules.profile import TRUMPS, RuleProfile
from .batch import deck_array, policy_arrays
from .players import PlayerSpec

__all__ = ["StrainRows", "StrainTally", "play_strains", "settle_many", "tally_strains"]


class StrainRows(NamedTuple):
    """The sampled deals of every strain (index t of :data:`~mighty_sim.rules.profile.
    TRUMPS`): row arrays of the batch layout, one set a strain (``ti`` holds the tricks
    only when they were recorded)."""

    profile: RuleProfile
    ri: np.ndarray
    ru: np.ndarray
    rf: np.ndarray
    ti: np.ndarray

    def taken(self, strain: int) -> np.ndarray:
        """What the declarer's side took in each sample of ``strain``: points, or tricks
        in trick-bid profiles."""
        col = R_TRICKS if self.profile.bid_unit == "tricks" else R_POINTS
        return self.ri[strain, :, col]

    def friend_kinds(self, strain: int) -> np.ndarray:
        """Each sample's friend kind code (:data:`~mighty_sim.kernels.params.FRIEND_KINDS`)."""
        return self.ri[strain, :, R_FRIEND_KIND]

    def expected_payout(self, strain: int, bid: int) -> float:
        """The declarer's mean payout over the samples of ``strain`` with the contract at
        ``bid`` (:meth:`StrainTally.expected_payout` of these rows)."""
        return StrainTally.of_rows(self).expected_payout(strain, bid)


class StrainTally(NamedTuple):
    """How many samples of each strain ended with each count the declarer's side took
    (points, or tricks in trick-bid profiles) and each friend kind: ``counts[t, taken,
    kind]``, t the index of :data:`~mighty_sim.rules.profile.TRUMPS` and kind that of
    :data:`~mighty_sim.kernels.params.FRIEND_KINDS`."""

    profile: RuleProfile
    counts: np.ndarray

    @classmethod
    def of_rows(cls, rows: StrainRows) -> StrainTally:
        """The tally of ``rows``."""
        tally = cls(rows.profile, np.zeros(_tally_shape(rows.profile), np.int64))
        tally.add(rows)
        return tally

    def add(self, rows: StrainRows) -> None:
        """Count ``rows``' samples in too."""
        for t in range(self.counts.shape[0]):
            np.add.at(self.counts[t], (rows.taken(t), rows.friend_kinds(t)), 1)

    @property
    def samples(self) -> int:
        """The samples of each strain."""
        return int(self.counts[0].sum())

    def made(self, strain: int, bid: int) -> int:
        """The samples of ``strain`` in which a contract at ``bid`` makes."""
        return int(self.counts[strain, bid:].sum())

    def expected_payout(self, strain: int, bid: int) -> float:
        """The declarer's mean payout over the samples of ``strain`` with the contract at
        ``bid`` (:func:`settle_many`)."""
        taken, kinds = np.nonzero(self.counts[strain])
        pay = settle_many(self.profile, bid=bid, strain=strain, taken=taken,
                          friend_kinds=kinds)
        return float((pay[:, 0] * self.counts[strain, taken, kinds]).sum() / self.samples)


def _tally_shape(profile: RuleProfile) -> tuple[int, int, int]:
    return len(TRUMPS), max(profile.total_points, profile.tricks) + 1, len(FRIEND_KINDS)


TALLY_CHUNK = 1 << 15
"""Samples :func:`tally_strains` plays in one compiled call (their rows take about 70 MB
in a one-deck profile)."""


def tally_strains(profile: RuleProfile, hand: int, *, samples: int, seed: int,
                  players: tuple[PlayerSpec, ...], blind: int = 0,
                  progress: Callable[[int], None] | None = None) -> StrainTally:
    """The tally of :func:`play_strains`' deals (the same deals, sample for sample),
    played :data:`TALLY_CHUNK` samples at a time into the same row arrays; ``progress``
    is called with the deals played (samples times strains) after each chunk."""
    inputs = _kernel_inputs(profile, hand, blind, players)
    tally = StrainTally(profile, np.zeros(_tally_shape(profile), np.int64))
    rows = _empty_rows(profile, min(TALLY_CHUNK, samples), False)
    for first in range(0, samples, TALLY_CHUNK):
        n = min(TALLY_CHUNK, samples - first)
        if n < rows.ri.shape[1]:  # the last, shorter chunk
            rows = _empty_rows(profile, n, False)
        # every sample overwrites the columns tallied: the rows need no clearing
        _play_into(rows, inputs, seed, first, False)
        tally.add(rows)
        if progress is not None:
            progress(n * len(TRUMPS))
    return tally


def play_strains(profile: RuleProfile, hand: int, *, samples: int, seed: int,
                 players: tuple[PlayerSpec, ...], blind: int = 0,
                 record_tricks: bool = False, first: int = 0) -> StrainRows:
    """``samples`` deals of the cards not in ``hand`` (nor in ``blind``, when known; with
    two decks both are masks of physical cards, ``rules.cards.parse_physical``),
    each played out by ``players`` with the hand's owner declaring in every strain; with
    ``record_tricks`` the tricks too (for the par of each sample). Sample ``k`` of the
    seed is played into row ``k - first``: a call with ``first`` set plays on where
    another stopped. The arguments are checked by
    :func:`mighty_sim.analysis.odds.check_hand_odds`."""
    rows = _empty_rows(profile, samples, record_tricks)
    _play_into(rows, _kernel_inputs(profile, hand, blind, players), seed, first,
               record_tricks)
    return rows


_Inputs = tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray], np.ndarray]


def _kernel_inputs(profile: RuleProfile, hand: int, blind: int,
                   players: tuple[PlayerSpec, ...]) -> _Inputs:
    """The odds kernel's inputs other than the rows: the compiled profile, the deck, the
    seats' policies and the known cards."""
    return (compile_profile(profile), deck_array(profile), policy_arrays(players, profile),
            np.array([*planes(hand), *planes(blind)], np.uint64))


def _empty_rows(profile: RuleProfile, samples: int, record_tricks: bool) -> StrainRows:
    """Row arrays for ``samples`` deals of every strain."""
    strains = len(TRUMPS)
    return StrainRows(
        profile, np.zeros((strains, samples, N_R), np.int64),
        np.zeros((strains, samples, N_U * profile.deck_copies), np.uint64),
        np.zeros((strains, samples, N_F), np.float64),
        np.zeros((strains, samples * profile.tricks if record_tricks else 1, N_T), np.int8))


def _play_into(rows: StrainRows, inputs: _Inputs, seed: int, first: int,
               record_tricks: bool) -> None:
    """Play samples ``first`` on of the seed into every row of ``rows``, the runs of each
    strain's samples on as many threads as Numba has."""
    params, deck, players, known = inputs
    odds_strains_nb(np.uint64(seed), known, first, rows.ri.shape[1], params, deck, players,
                    (rows.ri, rows.ru, rows.rf, rows.ti), record_tricks,
                    numba.get_num_threads())


def settle_many(profile: RuleProfile, *, bid: int, strain: int, taken: np.ndarray,
                friend_kinds: np.ndarray) -> np.ndarray:
    """The payouts (declarer, friend, each defender) of deals at ``bid`` in ``strain``
    with what the declarer's side ``taken`` and their friend kinds: (N, 3) float64."""
    n = len(taken)
    out = np.zeros((n, 3), np.float64)
    settle_batch_nb(compile_profile(profile), np.full(n, bid, np.int64),
                    np.full(n, strain, np.int64), np.asarray(taken, np.int64),
                    np.asarray(friend_kinds, np.int64), np.zeros(n, np.int64), out)
    return out
