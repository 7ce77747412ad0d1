"""Hand odds as a kernel: one known hand as declarer, the unseen cards dealt at random.

Sample ``k`` draws from stream ``k`` of the seed: the cards not in the known hand (nor in
a known blind) are shuffled and dealt to the blind and the other seats; the known hand
is seat 0 and declares the given trump; exchange, friend call, tricks and settlement
follow as in a simulated deal (:func:`deal_nb.play_contract_nb`), the contract kept.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .deal_nb import play_contract_nb
from .params import P_BLIND_SIZE, P_HAND_SIZE, P_MIN_BID, P_PLAYERS
from .play_nb import N_H, N_S, N_T
from .rng_nb import below_nb, seed_stream_nb
from .rules_nb import bit_nb


@njit(cache=True)
def odds_nb(
    seed: np.uint64, hand: np.uint64, blind_known: np.uint64, samples: int, trump: int,
    params: np.ndarray, deck_cards: np.ndarray, policies: np.ndarray, pp: np.ndarray,
    ri: np.ndarray, ru: np.ndarray, rf: np.ndarray,
) -> None:
    """Play ``samples`` deals of the known hand declaring ``trump`` into rows 0..samples-1.

    ``blind_known`` is 0 when the blind is unseen. Row layout as in ``deal_nb``.
    """
    n = params[P_PLAYERS]
    hand_size = params[P_HAND_SIZE]
    blind_size = params[P_BLIND_SIZE]
    known = hand | blind_known
    rest = np.empty(deck_cards.shape[0], np.int64)
    m = 0
    for c in deck_cards:
        if not (known >> np.uint64(c)) & np.uint64(1):
            rest[m] = c
            m += 1
    deck = np.empty(m, np.int64)
    scratch_u = np.zeros((2, N_H), np.uint64)
    hands = scratch_u[0]
    st = np.zeros(1, np.uint64)
    scratch_i = np.zeros((4, max(deck_cards.shape[0], N_S)), np.int64)
    ti = np.zeros((1, N_T), np.int64)
    for k in range(samples):
        seed_stream_nb(st, seed, np.uint64(k))
        deck[:] = rest[:m]
        for i in range(m - 1, 0, -1):
            j = below_nb(st, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        hands[:] = 0
        hands[0] = hand
        pos = 0
        blind = blind_known
        if blind_known == 0:
            for _ in range(blind_size):
                blind |= bit_nb(deck[pos])
                pos += 1
        for s in range(1, n):
            for _ in range(hand_size):
                hands[s] |= bit_nb(deck[pos])
                pos += 1
        for s in range(n):
            ru[k, s] = hands[s]
        play_contract_nb(st, params, deck_cards, hands, blind, 0, params[P_MIN_BID], trump,
                         True, policies, pp, k, ri, ru, rf, False, ti, 0, scratch_i,
                         scratch_u)
