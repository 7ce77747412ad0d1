"""Hand odds as a kernel: one known hand as declarer, the unseen cards dealt at random.

Sample ``k`` draws from stream ``k`` of the seed: the cards not in the known hand (nor in
a known blind) are shuffled and dealt to the blind and the other seats; the known hand
is seat 0 and declares the given trump (with two decks the cards are physical copies:
the hand's and the blind's are given a deck at a time, the rest dealt as in a simulated
deal); exchange, friend call, tricks and settlement
follow as in a simulated deal (:func:`deal_nb.play_contract_nb`), the contract kept. The
rows hold what :func:`.par_nb.recorded_position_nb` needs to take a sample up again for
a double-dummy par: the hands, the blind, the discards and, when asked, the tricks.
"""

from __future__ import annotations

import numpy as np

from ...rules.cards import PLANE_BITS
from .._jit import njit, prange, var
from ..borrow_nb import copy_nb
from ..layout import N_U, U_BLIND
from ..params import P_BLIND_SIZE, P_DECK_COPIES, P_DECK_SIZE, P_HAND_SIZE, P_MIN_BID, P_PLAYERS
from ..rng_nb import seed_stream_nb, shuffle_nb
from .deal_nb import packet_nb, play_contract_nb
from .play_nb import H_PLANE1, N_H, N_S


@njit(cache=True, nrt=True)
def odds_nb(
    deal: tuple[np.uint64, np.ndarray, int, int], trump: int, params: np.ndarray,
    deck_cards: np.ndarray, players: tuple[np.ndarray, np.ndarray], ri: np.ndarray,
    ru: np.ndarray, rf: np.ndarray, ti: np.ndarray, record_tricks: bool,
) -> None:
    """Play samples ``first`` to ``first + samples - 1`` of the known hand declaring
    ``trump`` into rows 0..samples-1 (``deal``: the streams' seed, ``known``, ``first``
    and ``samples``).

    ``known`` holds the hand and the blind a deck at a time: (hand's first-deck cards,
    its second deck's, blind's first deck, blind's second; 0 for a second deck a
    one-deck profile does not have); the blind is unseen when both of its are 0.
    ``deck_cards`` is the batch kernel's (``engine.batch.deck_array``: with two decks the
    physical cards, then the kinds that may be called). The columns of :mod:`.layout`,
    here in row-major arrays and ``ri`` as int64: each strain's slice of the caller's
    arrays (``ru`` with the second deck's columns from ``N_U`` on); with
    ``record_tricks``, the tricks in ``ti`` (``samples`` times the hand size rows).
    """
    known = deal[1]
    deck_size = params[P_DECK_SIZE]
    rest = np.empty(deck_size, np.int64)
    m = 0
    for i in range(deck_size):
        c = deck_cards[i]
        plane = 1 if c >= PLANE_BITS else 0
        b = np.uint64(c - PLANE_BITS * plane)
        if not ((known[plane] | known[2 + plane]) >> b) & np.uint64(1):
            rest[m] = c
            m += 1
    deck = np.empty(m, np.int64)
    scratch_u = np.zeros((2, N_H), np.uint64)
    st = np.zeros(1, np.uint64)
    scratch_i = np.zeros((4, max(deck_cards.shape[0], N_S)), np.int64)
    # the arrays stay alive in this frame while the callee, without Numba's runtime, uses them
    _odds_samples_nb(deal, trump, params, deck_cards, players, (ri, ru, rf, ti), rest, deck,
                     scratch_u, st, scratch_i, record_tricks)


@njit(cache=True, nrt=False)
def _odds_samples_nb(
    deal: tuple[np.uint64, np.ndarray, int, int], trump: int, params: np.ndarray,
    deck_cards: np.ndarray, players: tuple[np.ndarray, np.ndarray],
    rows: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], rest: np.ndarray,
    deck: np.ndarray, scratch_u: np.ndarray, st: np.ndarray, scratch_i: np.ndarray,
    record_tricks: bool,
) -> None:
    seed, known, first, samples = deal
    ri, ru, rf, ti = rows
    n = params[P_PLAYERS]
    hand_size = params[P_HAND_SIZE]
    blind_size = params[P_BLIND_SIZE]
    two = params[P_DECK_COPIES] == 2
    kind_cards = deck_cards[params[P_DECK_SIZE]:] if two else deck_cards
    blind_known = known[2] | known[3] != np.uint64(0)
    m = deck.shape[0]
    hands = scratch_u[0]  # the first deck's cards at seat, the second's at H_PLANE1 + seat
    t_used = var(0)
    for k in range(samples):
        seed_stream_nb(st, seed, np.uint64(first + k))
        copy_nb(deck, rest, m)
        shuffle_nb(st, deck, m)
        hands[:] = 0
        hands[0] = known[0]
        hands[H_PLANE1] = known[1]
        pos = 0
        b0, b1 = known[2], known[3]
        if not blind_known:
            b0, b1 = packet_nb(deck, pos, blind_size)
            pos += blind_size
        for s in range(1, n):
            hands[s], hands[H_PLANE1 + s] = packet_nb(deck, pos, hand_size)
            pos += hand_size
        for s in range(n):
            ru[k, s] = hands[s]
            if two:
                ru[k, N_U + s] = hands[H_PLANE1 + s]
        ru[k, U_BLIND] = b0
        if two:
            ru[k, N_U + U_BLIND] = b1
        t_used = play_contract_nb(st, params, kind_cards, hands,
                                  (b0, b1, var(0), params[P_MIN_BID], trump, var(True)),
                                  players, (k, record_tricks, t_used), ri, ru, rf, ti,
                                  (scratch_i, scratch_u))


@njit(cache=True, parallel=True)
def odds_strains_nb(
    seed: np.uint64, known: np.ndarray, first: int, samples: int, params: np.ndarray,
    deck_cards: np.ndarray, players: tuple[np.ndarray, np.ndarray],
    rows: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], record_tricks: bool,
    parts: int,
) -> None:
    """:func:`odds_nb` for every strain t (0..4) into ``ri[t]``, ``ru[t]``, ``rf[t]``
    (and ``ti[t]``), ``rows`` being (``ri``, ``ru``, ``rf``, ``ti``): samples ``first`` to
    ``first + samples - 1``, each strain's in ``parts`` runs of samples, the runs on
    parallel threads (a run's rows depend only on the seed and its samples: ``parts``
    the threads, five strains in as many parts each are shared out evenly)."""
    ri, ru, rf, ti = rows
    strains = ri.shape[0]
    tricks = params[P_HAND_SIZE]
    for job in prange(strains * parts):
        # the index as an int64: Numba types it int64, then uint64 once the loop runs in
        # parallel, and passed as it is each type compiled the whole play again
        t = int(np.int64(job)) // parts
        part = int(np.int64(job)) % parts
        lo = samples * part // parts
        hi = samples * (part + 1) // parts
        t0, t1 = (lo * tricks, hi * tricks) if record_tricks else (0, ti.shape[1])
        odds_nb((seed, known, first + lo, hi - lo), t, params, deck_cards, players,
                ri[t, lo:hi], ru[t, lo:hi], rf[t, lo:hi], ti[t, t0:t1], record_tricks)
