"""Whole deals in one kernel call: shuffle, deal, auction, exchange, contract, friend,
tricks, settlement, for a batch of games (RULES.md section 2; other profiles through the
compiled parameters).

Output is written row by row into preallocated arrays (one row per dealt attempt, a
redeal being a row too); the column layout is given by the ``R_*``, ``U_*``, ``F_*`` and
``T_*`` constants and turned into an Arrow table by :mod:`mighty_sim.dataset`.

Randomness: attempt ``a`` of game ``g`` draws from stream ``attempt_index(g, a)`` of the
run's seed, its first dealer from ``dealer_index(g)``; rows therefore depend only on the
seed and the game number, never on batch or worker.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .auction_nb import beats_nb
from .borrow_nb import borrow
from .params import (
    DEALER_CLOCKWISE,
    DEALER_FRIEND_FIRST_DEALT,
    FIRST_BIDDER_DEALER_THEN_DECLARER,
    P_BLIND_SIZE,
    P_DEALER_RULE,
    P_DECK_SIZE,
    P_FIRST_BIDDER_RULE,
    P_HAND_SIZE,
    P_MAX_BID,
    P_NT_LEAD_REQUEST,
    P_PACKET_0,
    P_PACKET_COUNT,
    P_PASSES_PERMANENT,
    P_PLAYERS,
    P_RAISE_RULE,
    P_WEAK_WHEN,
    RAISE_RANK_GAP,
    WEAK_FIRST_TURN,
    WEAK_NEVER,
)
from .pimc_nb import pimc_decide_nb
from .play_nb import (
    N_H,
    N_S,
    S_FRIEND,
    S_KIND,
    S_TRICK_NO,
    apply_play_nb,
    legal_now_nb,
    play_until_nb,
    result_nb,
    start_play_nb,
    to_play_nb,
)
from .policy_nb import (
    PASS,
    POLICY_PIMC,
    POLICY_RANDOM,
    WEAK,
    auction_decide_nb,
    best_strain_nb,
    blind_raise_decide_nb,
    contract_decide_nb,
    exchange_decide_nb,
    friend_decide_nb,
    has_nb,
    strength_nb,
)
from .rng_nb import attempt_index_nb, below_nb, dealer_index_nb, seed_stream_nb
from .rules_nb import (
    JOKER_BIT,
    NO_TRUMP,
    bit_nb,
    mighty_of_nb,
    points_nb,
    popcount_nb,
    suit_mask_nb,
    weak_qualifies_nb,
    weak_score_q_nb,
)

MAX_PLAYERS = 8
HISTORY = 64
OUTCOME_PLAYED, OUTCOME_ALL_PASS, OUTCOME_WEAK = 0, 1, 2

(
    R_GAME, R_ATTEMPT, R_DEAL_IN_GAME, R_DEALER, R_FIRST_BIDDER, R_OUTCOME, R_REDEAL_BY,
    R_DECLARER, R_BID, R_TRUMP, R_AUCTION_BID, R_AUCTION_TRUMP, R_TRUMP_CHANGED,
    R_FRIEND_MODE, R_FRIEND_CARD, R_FRIEND_SEAT, R_FRIEND_KIND, R_POINTS, R_TRICKS,
    R_SUCCESS, R_LEAD_REQUEST, R_HIST_LEN, R_TRUMP_LENGTH, R_HAS_MIGHTY, R_HAS_JOKER,
    R_HAND_POINTS, N_R,
) = range(27)
U_BLIND, U_DISCARDS, N_U = MAX_PLAYERS, MAX_PLAYERS + 1, MAX_PLAYERS + 2
F_STRENGTH, N_F = MAX_PLAYERS, MAX_PLAYERS + 1


@njit(cache=True)
def _record_bid(rh: np.ndarray, ri: np.ndarray, row: int, code: int) -> None:
    k = ri[row, R_HIST_LEN]
    if k < HISTORY:
        rh[row, k] = code
        ri[row, R_HIST_LEN] = k + 1


@njit(cache=True)
def play_attempt_nb(
    st: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, dealer: int,
    first_bidder: int, policies: np.ndarray, pp: np.ndarray, row: int,
    ri: np.ndarray, ru: np.ndarray, rf: np.ndarray, rw: np.ndarray, rh: np.ndarray,
    record_tricks: bool, ti: np.ndarray, t_used: int, scratch_i: np.ndarray,
    scratch_u: np.ndarray, scratch_b: np.ndarray,
) -> int:
    """Play one dealt attempt from stream ``st`` into row ``row``; returns the number of
    trick rows used after it. ``scratch_*`` are work arrays reused across attempts:
    int64 (4, >= max(deck size, N_S)), uint64 (2, N_H), bool (2, MAX_PLAYERS)."""
    n = params[P_PLAYERS]
    deck_size = params[P_DECK_SIZE]
    # -- shuffle (Fisher-Yates, as DealStream.shuffled) and deal in packets (s.2.1) --------
    deck = scratch_i[0]
    deck[:deck_size] = deck_cards
    for i in range(deck_size - 1, 0, -1):
        j = below_nb(st, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = scratch_u[0]
    hands[:] = 0
    pos = 0
    for p in range(params[P_PACKET_COUNT]):  # clockwise from the dealer's left
        size = params[P_PACKET_0 + p]
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            for _ in range(size):
                hands[seat] |= bit_nb(deck[pos])
                pos += 1
    blind = np.uint64(0)
    while pos < deck_size:
        blind |= bit_nb(deck[pos])
        pos += 1
    for s in range(n):
        ru[row, s] = hands[s]
        rw[row, s] = weak_score_q_nb(hands[s], params)
    ru[row, U_BLIND] = blind
    ri[row, R_DEALER] = dealer
    ri[row, R_FIRST_BIDDER] = first_bidder
    ri[row, R_HIST_LEN] = 0
    for col in (R_REDEAL_BY, R_DECLARER, R_BID, R_TRUMP, R_AUCTION_BID, R_AUCTION_TRUMP,
                R_FRIEND_MODE, R_FRIEND_CARD, R_FRIEND_SEAT, R_FRIEND_KIND, R_SUCCESS,
                R_LEAD_REQUEST):
        ri[row, col] = -1
    # -- auction (s.2.2) ---------------------------------------------------------------
    passed = scratch_b[0]
    had_turn = scratch_b[1]
    pref_trump = np.zeros(MAX_PLAYERS, np.int64)
    pref_strength = np.zeros(MAX_PLAYERS, np.float64)
    for s in range(n):
        passed[s] = False
        had_turn[s] = False
        if policies[s] != POLICY_RANDOM:
            pref_trump[s], pref_strength[s] = best_strain_nb(hands[s], params)
    high_n, high_t, high_seat = 0, 0, -1
    passes_in_row = 0
    turn = first_bidder
    permanent = params[P_PASSES_PERMANENT] == 1
    while True:
        seat = turn
        weak_ok = params[P_WEAK_WHEN] != WEAK_NEVER and weak_qualifies_nb(hands[seat], params)
        if params[P_WEAK_WHEN] == WEAK_FIRST_TURN and had_turn[seat]:
            weak_ok = False
        number, trump = auction_decide_nb(policies[seat], pp[seat], st, hands[seat], weak_ok,
                                          high_n, high_t, params, pref_trump[seat],
                                          pref_strength[seat])
        if number == WEAK:
            _record_bid(rh, ri, row, seat * 1000 + 1)
            ri[row, R_OUTCOME] = OUTCOME_WEAK
            ri[row, R_REDEAL_BY] = seat
            return t_used
        had_turn[seat] = True
        if number == PASS or not beats_nb(params, number, trump, high_n, high_t):
            _record_bid(rh, ri, row, seat * 1000)
            if permanent:
                passed[seat] = True
            passes_in_row += 1
        else:
            _record_bid(rh, ri, row, seat * 1000 + number * 10 + trump)
            high_n, high_t, high_seat = number, trump, seat
            passes_in_row = 0
        done = False
        if permanent:
            active = 0
            for s in range(n):
                if not passed[s]:
                    active += 1
            if active == 0:
                ri[row, R_OUTCOME] = OUTCOME_ALL_PASS
                return t_used
            if high_seat >= 0 and active == 1 and not passed[high_seat]:
                done = True
        else:
            if high_seat < 0 and passes_in_row == n:
                ri[row, R_OUTCOME] = OUTCOME_ALL_PASS
                return t_used
            if high_seat >= 0 and passes_in_row == n - 1:
                done = True
        if done:
            break
        turn = (turn + 1) % n
        while passed[turn]:
            turn = (turn + 1) % n
    declarer = high_seat
    bid, trump = high_n, high_t
    dh = hands[declarer]
    ri[row, R_AUCTION_BID] = bid
    ri[row, R_AUCTION_TRUMP] = trump
    rf[row, F_STRENGTH] = strength_nb(dh, trump, params)
    ri[row, R_TRUMP_LENGTH] = popcount_nb(dh & suit_mask_nb(trump)) if trump != NO_TRUMP else 0
    ri[row, R_HAS_MIGHTY] = 1 if has_nb(dh, mighty_of_nb(params, trump)) else 0
    ri[row, R_HAS_JOKER] = 1 if has_nb(dh, JOKER_BIT) else 0
    ri[row, R_HAND_POINTS] = points_nb(dh)
    if params[P_RAISE_RULE] == RAISE_RANK_GAP:  # a raise before the blind is seen (s.3)
        bid, trump = blind_raise_decide_nb(policies[declarer], st, bid, trump, params)
    return play_contract_nb(st, params, deck_cards, hands, blind, declarer, bid, trump, False,
                            policies, pp, row, ri, ru, rf, record_tricks, ti, t_used, scratch_i,
                            scratch_u)


@njit(cache=True)
def play_contract_nb(
    st: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, hands: np.ndarray,
    blind: np.uint64, declarer: int, bid: int, trump: int, fixed: bool, policies: np.ndarray,
    pp: np.ndarray, row: int, ri: np.ndarray, ru: np.ndarray, rf: np.ndarray,
    record_tricks: bool, ti: np.ndarray, t_used: int, scratch_i: np.ndarray,
    scratch_u: np.ndarray,
) -> int:
    """From the auction's end to the settlement: exchange, contract (kept as it is when
    ``fixed``), friend call, tricks, payouts, written into row ``row``. ``hands`` are the
    hands before the declarer takes ``blind``. Returns the trick rows used after it."""
    n = params[P_PLAYERS]
    hand_size = params[P_HAND_SIZE]
    # -- exchange, contract, friend (s.2.3) ----------------------------------------------
    hands[declarer] |= blind
    discards = exchange_decide_nb(policies[declarer], st, hands[declarer],
                                  params[P_BLIND_SIZE], trump, params)
    hands[declarer] &= ~discards
    new_bid, new_trump = bid, trump
    if not fixed:
        new_bid, new_trump = contract_decide_nb(policies[declarer], pp[declarer], st,
                                                hands[declarer], bid, trump, params)
    changed = new_trump != trump
    bid, trump = new_bid, new_trump
    request_ok = params[P_NT_LEAD_REQUEST] == 1 and bid == params[P_MAX_BID] and trump == NO_TRUMP
    mode, called, request = friend_decide_nb(policies[declarer], st, hands[declarer], discards,
                                             bid, trump, deck_cards, request_ok, params)
    # -- play (s.2.4) and settlement (s.2.5) -----------------------------------------------
    s = scratch_i[1]
    tr = scratch_i[2]
    h = scratch_u[1]
    track = False
    for p in range(n):
        if policies[p] == POLICY_PIMC:
            track = True
    start_play_nb(s, h, tr, params, hands, discards, declarer, bid, trump, changed, mode,
                  called, request, track)
    while True:
        t_used = play_until_nb(st, s, h, tr, policies, params, 0.0, record_tricks, ti, t_used,
                               row)
        if s[S_TRICK_NO] > hand_size:
            break
        seat = to_play_nb(s)  # a PIMC seat
        legal = legal_now_nb(s, h, tr, seat, params)
        card, suit, demand = pimc_decide_nb(pp[seat], st, s, h, tr, seat, legal, params)
        t_used = apply_play_nb(s, h, tr, seat, card, suit, demand, params, record_tricks, ti,
                               t_used, row)
    d, f, x, points, tricks, success = result_nb(s, params)
    friend, kind = s[S_FRIEND], s[S_KIND]
    for p in range(n):
        if p == declarer:
            rf[row, p] = d
        elif p == friend:
            rf[row, p] = f
        else:
            rf[row, p] = x
    ri[row, R_OUTCOME] = OUTCOME_PLAYED
    ri[row, R_DECLARER] = declarer
    ri[row, R_BID] = bid
    ri[row, R_TRUMP] = trump
    ri[row, R_TRUMP_CHANGED] = 1 if changed else 0
    ri[row, R_FRIEND_MODE] = mode
    ri[row, R_FRIEND_CARD] = called
    ri[row, R_FRIEND_SEAT] = friend
    ri[row, R_FRIEND_KIND] = kind
    ri[row, R_POINTS] = points
    ri[row, R_TRICKS] = tricks
    ri[row, R_SUCCESS] = 1 if success else 0
    ri[row, R_LEAD_REQUEST] = request
    ru[row, U_DISCARDS] = discards
    return t_used


@njit(cache=True)
def play_games_nb(
    seed: np.uint64, game_start: int, n_games: int, ledger: int, target: float,
    policies: np.ndarray,
    pp: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, record_tricks: bool,
    ri: np.ndarray, ru: np.ndarray, rf: np.ndarray, rw: np.ndarray, rh: np.ndarray,
    ti: np.ndarray,
) -> tuple[int, int, int]:
    """Play games ``game_start .. game_start+n_games-1`` of ``ledger`` counted deals each,
    or, when ``target`` > 0, until a player's total reaches ``target`` (at most ``ledger``
    deals).

    Writes one row per attempt; a game that does not fit in the buffers is left out whole,
    and the call returns there. Returns (games played, rows written, trick rows written).
    """
    st = np.zeros(1, np.uint64)
    scratch_i = np.zeros((4, max(params[P_DECK_SIZE], N_S)), np.int64)
    scratch_u = np.zeros((2, N_H), np.uint64)
    scratch_b = np.zeros((2, MAX_PLAYERS), np.bool_)
    # the arrays stay alive in this frame while the callee uses borrowed views of them
    return _play_games_nb(seed, game_start, n_games, ledger, target, policies, pp, params,
                          deck_cards,
                          record_tricks, ri, ru, rf, rw, rh, ti, st, scratch_i, scratch_u,
                          scratch_b)


@njit(cache=True)
def _play_games_nb(
    seed: np.uint64, game_start: int, n_games: int, ledger: int, target: float,
    policies: np.ndarray,
    pp: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, record_tricks: bool,
    ri: np.ndarray, ru: np.ndarray, rf: np.ndarray, rw: np.ndarray, rh: np.ndarray,
    ti: np.ndarray, st: np.ndarray, scratch_i: np.ndarray, scratch_u: np.ndarray,
    scratch_b: np.ndarray,
) -> tuple[int, int, int]:
    # borrowed views: no reference counting in the calls below (see borrow_nb); every
    # array here is an argument, owned by the caller for the whole call
    st, scratch_i, scratch_u, scratch_b = borrow(st), borrow(scratch_i), borrow(scratch_u), \
        borrow(scratch_b)
    policies, pp, params, deck_cards = borrow(policies), borrow(pp), borrow(params), \
        borrow(deck_cards)
    ri, ru, rf, rw, rh, ti = borrow(ri), borrow(ru), borrow(rf), borrow(rw), borrow(rh), \
        borrow(ti)
    n = params[P_PLAYERS]
    cap = ri.shape[0]
    tcap = ti.shape[0]
    row = 0
    t_used = 0
    totals = np.zeros(MAX_PLAYERS, np.float64)
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
        attempt = 0
        totals[:] = 0.0
        reached = False
        while played < ledger and not reached:
            if row >= cap or (record_tricks and t_used + params[P_HAND_SIZE] > tcap):
                return g, game_row, game_t
            if attempt >= 60_000:
                return g, game_row, game_t  # pragma: no cover - a pathological run of redeals
            seed_stream_nb(st, seed, attempt_index_nb(game, attempt))
            ri[row, R_GAME] = game
            ri[row, R_ATTEMPT] = attempt
            ri[row, R_DEAL_IN_GAME] = played
            t_used = play_attempt_nb(st, params, deck_cards, dealer, first, policies, pp, row,
                                     ri, ru, rf, rw, rh, record_tricks, ti, t_used,
                                     scratch_i, scratch_u, scratch_b)
            outcome = ri[row, R_OUTCOME]
            if outcome == OUTCOME_WEAK:
                dealer = ri[row, R_REDEAL_BY]
                first = dealer
            elif outcome == OUTCOME_PLAYED:
                played += 1
                declarer = ri[row, R_DECLARER]
                for s in range(n):
                    totals[s] += rf[row, s]
                    if target > 0.0 and totals[s] >= target:
                        reached = True  # a player reached the target: the game ends
                if params[P_DEALER_RULE] != DEALER_CLOCKWISE:
                    f = ri[row, R_FRIEND_SEAT]
                    dealer = f if f >= 0 else declarer
                    if params[P_DEALER_RULE] == DEALER_FRIEND_FIRST_DEALT:
                        dealer = (dealer - 1 + n) % n
                else:
                    dealer = (dealer + 1) % n
                if params[P_FIRST_BIDDER_RULE] == FIRST_BIDDER_DEALER_THEN_DECLARER:
                    first = declarer
                else:
                    first = (dealer + 1) % n
            row += 1
            attempt += 1
    return n_games, row, t_used
