"""The batch kernel: whole games of deals in one call (docs/rules.md, standard: dealer rotation,
s.2.6 ledgers), each attempt played by :mod:`.deal_nb`.

Randomness: attempt ``a`` of game ``g`` draws from stream ``attempt_index(g, a)`` of the
run's seed, its first dealer from ``dealer_index(g)``; rows therefore depend only on the
seed and the game number, never on batch or worker.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit, var
from ..layout import (
    G_ATTEMPT,
    G_DEAL_IN_GAME,
    G_GAME,
    MAX_PLAYERS,
    OUTCOME_PLAYED,
    OUTCOME_WEAK,
    R_DECLARER,
    R_FRIEND_SEAT,
    R_HIST_LEN,
    R_OUTCOME,
    R_REDEAL_BY,
)
from ..params import (
    DEALER_CLOCKWISE,
    DEALER_FRIEND_FIRST_DEALT,
    FIRST_BIDDER_DEALER_THEN_DECLARER,
    P_DEALER_RULE,
    P_DECK_SIZE,
    P_FIRST_BIDDER_RULE,
    P_HAND_SIZE,
    P_PLAYERS,
    P_WEAK_REDEALER,
    REDEALER_REQUESTER,
)
from ..rng_nb import attempt_index_nb, below_nb, dealer_index_nb, seed_stream_nb
from .deal_nb import owners_nb, play_attempt_nb
from .play_nb import N_H, N_S

Rows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""A batch's row arrays, in this order: ``rg``, ``ri``, ``ru``, ``rf``, ``rw``, ``rh``, ``ti``."""


@njit(cache=True)
def next_turn_nb(params: np.ndarray, outcome: int, dealer: int, first: int, redeal_by: int,
                 declarer: int, friend: int) -> tuple[int, int]:
    """Dealer and first bidder of the attempt after one that ended in ``outcome``
    (s.2.1, s.2.2; the ucla and russian rotations by profile)."""
    n = params[P_PLAYERS]
    if outcome == OUTCOME_WEAK and params[P_WEAK_REDEALER] == REDEALER_REQUESTER:
        return redeal_by, redeal_by  # the requester deals and opens the auction
    if outcome != OUTCOME_PLAYED:  # all passed, or a re-shuffle by the same dealer
        return dealer, first
    if params[P_DEALER_RULE] != DEALER_CLOCKWISE:
        dealer = friend if friend >= 0 else declarer
        if params[P_DEALER_RULE] == DEALER_FRIEND_FIRST_DEALT:
            dealer = (dealer - 1 + n) % n
    else:
        dealer = (dealer + 1) % n
    if params[P_FIRST_BIDDER_RULE] == FIRST_BIDDER_DEALER_THEN_DECLARER:
        return dealer, declarer
    return dealer, (dealer + 1) % n


@njit(cache=True, nrt=True)
def play_games_nb(
    seed: np.uint64, game_start: int, n_games: int, ledger: int, target: float,
    policies: np.ndarray,
    pp: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, record_tricks: bool,
    rows: Rows,
) -> tuple[int, int, int]:
    """Play games ``game_start .. game_start+n_games-1`` of ``ledger`` counted deals each,
    or, when ``target`` > 0, until a player's total reaches ``target`` (at most ``ledger``
    deals).

    Writes one row per attempt; a game that does not fit in the buffers is left out whole,
    and the call returns there. Returns (games played, rows written, trick rows written).
    ``rows`` holds the row arrays of :mod:`.layout` (:data:`Rows`): ``rg`` int64, ``ri``
    int8, ``ru`` uint64, ``rf`` float64, ``rw`` int16, each column-major; ``rh`` int16,
    ``ti`` int8 row-major.
    ``deck_cards``: the deck's cards, low to high; with two decks, its physical cards then
    the kinds that may be called. ``ru`` has ``2 * N_U`` columns with two decks.
    """
    st = np.zeros(1, np.uint64)
    scratch_i = np.zeros((5, max(params[P_DECK_SIZE], N_S)), np.int64)
    owners_nb(params, scratch_i[3])
    scratch_u = np.zeros((4, N_H), np.uint64)
    scratch_f = np.zeros((3, MAX_PLAYERS), np.float64)
    # the arrays stay alive in this frame while the callee, without Numba's runtime, uses them
    return _play_games_nb(seed, game_start, n_games, ledger, target, policies, pp, params,
                          deck_cards, record_tricks, rows, (st, scratch_i, scratch_u, scratch_f))


@njit(cache=True, nrt=False)
def _play_games_nb(
    seed: np.uint64, game_start: int, n_games: int, ledger: int, target: float,
    policies: np.ndarray,
    pp: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, record_tricks: bool,
    rows: Rows, scratch: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[int, int, int]:
    # without Numba's runtime (see _jit), here and in every kernel called below that does
    # not allocate: no array passed in a call is reference-counted
    rg, ri, ru, rf, rw, rh, ti = rows
    st, scratch_i, scratch_u, scratch_f = scratch
    n = params[P_PLAYERS]
    cap = ri.shape[0]
    tcap = ti.shape[0]
    row = var(0)
    t_used = var(0)
    # rh holds the rows' auctions one after another, ri[row, R_HIST_LEN] calls a row: with
    # at most HISTORY calls a row and HISTORY entries a row of capacity, it never fills
    # before the rows do
    h_used = 0
    totals = scratch_f[2]  # a game's payouts so far
    for g in range(n_games):
        game = game_start + g
        game_row, game_t = row, t_used  # a game that does not fit is dropped whole
        seed_stream_nb(st, seed, dealer_index_nb(game))
        dealer = below_nb(st, n)
        if params[P_FIRST_BIDDER_RULE] == FIRST_BIDDER_DEALER_THEN_DECLARER:
            first = dealer
        else:
            first = (dealer + 1) % n
        played = 0
        attempt = var(0)
        totals[:] = 0.0
        reached = False
        while played < ledger and not reached:
            if row >= cap or (record_tricks and t_used + params[P_HAND_SIZE] > tcap):
                return g, game_row, game_t
            if attempt >= 60_000:  # pragma: no cover - a pathological run of redeals
                return g, game_row, game_t
            seed_stream_nb(st, seed, attempt_index_nb(game, attempt))
            rg[row, G_GAME] = game
            rg[row, G_ATTEMPT] = attempt
            rg[row, G_DEAL_IN_GAME] = played
            t_used = play_attempt_nb(st, params, deck_cards, dealer, first, policies, pp, row,
                                     (ri, ru, rf, rw, rh[h_used:], ti), record_tricks,
                                     t_used, (scratch_i, scratch_u, scratch_f))
            h_used += ri[row, R_HIST_LEN]
            outcome = ri[row, R_OUTCOME]
            if outcome == OUTCOME_PLAYED:
                played += 1
                for s in range(n):
                    totals[s] += rf[row, s]
                    if target > 0.0 and totals[s] >= target:
                        reached = True  # a player reached the target: the game ends
            dealer, first = next_turn_nb(params, outcome, dealer, first, ri[row, R_REDEAL_BY],
                                         ri[row, R_DECLARER], ri[row, R_FRIEND_SEAT])
            row += 1
            attempt += 1
    return n_games, row, t_used
