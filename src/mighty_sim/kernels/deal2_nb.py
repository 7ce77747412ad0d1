"""Whole two-deck deals (docs/rules.md, russian profiles: ``russian-6p`` to ``russian-8p``): the
attempt of
:mod:`.deal_nb` with hands in two planes (see :mod:`.play2_nb` for the card layout).

The auction, the contract and the friend call are :mod:`.deal_nb`'s and the policies' own,
given each hand folded to its kinds; the deal, the exchange and the play keep the physical
cards. A row's plane-1 cards (the second deck's copies) go to ``ru`` columns ``N_U + c``
for each plane-0 column ``c``.
"""

from __future__ import annotations

import numpy as np

from ..rules.cards import PLANE_BITS
from ._jit import njit
from .deal_nb import record_declarer_nb, run_auction_nb, write_result_nb
from .layout import N_U, POLICY_RANDOM, U_BLIND, U_DISCARDS
from .params import (
    P_BLIND_SIZE,
    P_DECK_SIZE,
    P_MAX_BID,
    P_NT_LEAD_REQUEST,
    P_PACKET_0,
    P_PACKET_COUNT,
    P_PLAYERS,
    P_RAISE_RULE,
    P_WEAK_JOKER_Q,
    RAISE_RANK_GAP,
)
from .play2_nb import H2_PLANE1, copy_of_nb, fold_nb, play2_until_nb, start_play2_nb
from .policy_nb import blind_raise_decide_nb, contract_decide_nb, friend_decide_nb, least_wanted_nb
from .rng_nb import below_nb, shuffle_nb
from .rules_nb import JOKER_BIT, NO_TRUMP, bit_nb, kth_card_nb, popcount_nb, weak_score_q_nb

_JOKER2 = np.uint64(1 << (JOKER_BIT + 1))


@njit(cache=True)
def weak_score2_nb(p0: np.uint64, p1: np.uint64, params: np.ndarray) -> int:
    """Weak-hand score (quarter points) of a two-plane hand: every copy counts."""
    q = weak_score_q_nb(p0 & ~_JOKER2, params) + weak_score_q_nb(p1 & ~_JOKER2, params)
    if p0 & _JOKER2:
        q += params[P_WEAK_JOKER_Q]
    if p1 & _JOKER2:
        q += params[P_WEAK_JOKER_Q]
    return q


@njit(cache=True)
def weak_score2_batch_nb(p0: np.ndarray, p1: np.ndarray, params: np.ndarray,
                         out: np.ndarray) -> None:
    """``weak_score2_nb`` over rows of (N,) uint64 planes into (N,) int64 ``out``."""
    for i in range(p0.shape[0]):
        out[i] = weak_score2_nb(p0[i], p1[i], params)


@njit(cache=True)
def exchange2_nb(
    policy: int, st: np.ndarray, p0: np.uint64, p1: np.uint64, count: int, trump: int,
    params: np.ndarray,
) -> tuple[np.uint64, np.uint64]:
    """The declarer's discards, one mask per plane. ``random`` draws them one by one among
    the physical cards left (deck 0 low to high, then deck 1); ``heuristic`` discards the
    kind it least wants to keep (:func:`.policy_nb.least_wanted_nb`), its lowest copy."""
    d0, d1 = np.uint64(0), np.uint64(0)
    for _ in range(count):
        r0, r1 = p0 & ~d0, p1 & ~d1
        if policy == POLICY_RANDOM:
            a = popcount_nb(r0)
            i = below_nb(st, a + popcount_nb(r1))
            card = kth_card_nb(r0, i) if i < a else PLANE_BITS + kth_card_nb(r1, i - a)
        else:
            card = copy_of_nb(r0, r1, least_wanted_nb(fold_nb(r0, r1), trump, params))
        if card >= PLANE_BITS:
            d1 |= bit_nb(card - PLANE_BITS)
        else:
            d0 |= bit_nb(card)
    return d0, d1


@njit(cache=True)
def play_attempt2_nb(
    st: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, dealer: int,
    first_bidder: int, policies: np.ndarray, pp: np.ndarray, row: int,
    ri: np.ndarray, ru: np.ndarray, rf: np.ndarray, rw: np.ndarray, rh: np.ndarray,
    record_tricks: bool, ti: np.ndarray, t_used: int, scratch_i: np.ndarray,
    scratch_u: np.ndarray, scratch_b: np.ndarray, scratch_f: np.ndarray,
) -> int:
    """:func:`.deal_nb.play_attempt_nb` for two decks. ``deck_cards`` holds the deck's
    physical cards (``P_DECK_SIZE`` of them) followed by the kinds that may be called;
    ``scratch_u`` has three rows of at least ``2 * MAX_PLAYERS + 1``."""
    n = params[P_PLAYERS]
    deck_size = params[P_DECK_SIZE]
    deck = scratch_i[0]
    deck[:deck_size] = deck_cards[:deck_size]
    shuffle_nb(st, deck, deck_size)
    hands = scratch_u[0]  # deck 0 at seat, deck 1 at H2_PLANE1 + seat
    hands[:] = 0
    pos = 0
    for p in range(params[P_PACKET_COUNT]):  # clockwise from the dealer's left
        size = params[P_PACKET_0 + p]
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            for _ in range(size):
                c = deck[pos]
                if c >= PLANE_BITS:
                    hands[H2_PLANE1 + seat] |= bit_nb(c - PLANE_BITS)
                else:
                    hands[seat] |= bit_nb(c)
                pos += 1
    b0, b1 = np.uint64(0), np.uint64(0)
    while pos < deck_size:
        c = deck[pos]
        if c >= PLANE_BITS:
            b1 |= bit_nb(c - PLANE_BITS)
        else:
            b0 |= bit_nb(c)
        pos += 1
    kinds = scratch_u[2]
    for s in range(n):
        ru[row, s] = hands[s]
        ru[row, N_U + s] = hands[H2_PLANE1 + s]
        rw[row, s] = weak_score2_nb(hands[s], hands[H2_PLANE1 + s], params)
        kinds[s] = fold_nb(hands[s], hands[H2_PLANE1 + s])
    ru[row, U_BLIND] = b0
    ru[row, N_U + U_BLIND] = b1
    declarer, bid, trump = run_auction_nb(st, params, kinds, dealer, first_bidder, policies,
                                          pp, row, ri, rw, rh, scratch_b, scratch_f)
    if declarer < 0:
        return t_used
    record_declarer_nb(ri, rf, row, params, kinds[declarer], hands[declarer],
                       hands[H2_PLANE1 + declarer], bid, trump)
    if params[P_RAISE_RULE] == RAISE_RANK_GAP:
        bid, trump = blind_raise_decide_nb(policies[declarer], st, bid, trump, params)
    return play_contract2_nb(st, params, deck_cards[deck_size:], hands, b0, b1, declarer, bid,
                             trump, policies, pp, row, ri, ru, rf, record_tricks, ti, t_used,
                             scratch_i, scratch_u)


@njit(cache=True)
def play_contract2_nb(
    st: np.ndarray, params: np.ndarray, kind_cards: np.ndarray, hands: np.ndarray,
    b0: np.uint64, b1: np.uint64, declarer: int, bid: int, trump: int, policies: np.ndarray,
    pp: np.ndarray, row: int, ri: np.ndarray, ru: np.ndarray, rf: np.ndarray,
    record_tricks: bool, ti: np.ndarray, t_used: int, scratch_i: np.ndarray,
    scratch_u: np.ndarray,
) -> int:
    """:func:`.deal_nb.play_contract_nb` for two decks: ``hands`` in two planes, the blind
    ``b0``, ``b1``; ``kind_cards`` are the kinds that may be called."""
    d = declarer
    hands[d] |= b0
    hands[H2_PLANE1 + d] |= b1
    x0, x1 = exchange2_nb(policies[d], st, hands[d], hands[H2_PLANE1 + d],
                          params[P_BLIND_SIZE], trump, params)
    hands[d] &= ~x0
    hands[H2_PLANE1 + d] &= ~x1
    kinds = fold_nb(hands[d], hands[H2_PLANE1 + d])
    new_bid, new_trump = contract_decide_nb(policies[d], pp[d], st, kinds, bid, trump, params)
    changed = new_trump != trump
    bid, trump = new_bid, new_trump
    request_ok = params[P_NT_LEAD_REQUEST] == 1 and bid == params[P_MAX_BID] and trump == NO_TRUMP
    mode, called, request = friend_decide_nb(policies[d], pp[d], st, kinds, fold_nb(x0, x1),
                                             bid, trump, kind_cards, request_ok, params)
    s = scratch_i[1]
    tr = scratch_i[2]
    tk = scratch_i[3]
    h = scratch_u[1]
    start_play2_nb(s, h, tr, tk, params, hands, d, bid, trump, changed, mode, called, request)
    t_used = play2_until_nb(st, s, h, tr, tk, policies, params, record_tricks, ti, t_used, row)
    write_result_nb(s, params, row, ri, rf, bid, trump, changed, mode, called, request)
    ru[row, U_DISCARDS] = x0
    ru[row, N_U + U_DISCARDS] = x1
    return t_used
