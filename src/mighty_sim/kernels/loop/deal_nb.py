"""One dealt attempt in the kernels: shuffle, deal, auction, exchange, contract, friend,
tricks, settlement (docs/rules.md, standard; other profiles through the compiled parameters).
The batch loop over games is :mod:`.games_nb`. With two decks a hand is a mask a deck
(:mod:`.play_nb`); the auction, the contract and the friend call see its card kinds, and
a row's second-deck cards go to ``ru`` columns ``N_U + c`` for each first-deck column
``c``.

Output is written row by row into preallocated arrays (one row per dealt attempt, a
redeal being a row too); the column layout is given by the ``R_*``, ``U_*``, ``F_*`` and
``T_*`` constants of :mod:`.layout` and turned into an Arrow table by
:mod:`mighty_sim.dataset`.
"""

from __future__ import annotations

import numpy as np

from ...rules.cards import PLANE_BITS
from .._jit import njit, var
from ..borrow_nb import copy_nb
from ..layout import (
    F_STRENGTH,
    HISTORY,
    MAX_PLAYERS,
    N_U,
    OUTCOME_ALL_PASS,
    OUTCOME_PLAYED,
    OUTCOME_WEAK,
    POLICY_BASELINE,
    POLICY_HEURISTIC,
    POLICY_PIMC,
    POLICY_RANDOM,
    PP_FROM_TRICK,
    PP_SEARCH_ON,
    PP_SEARCH_SIDE,
    PP_TO_TRICK,
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
    U_BLIND,
    U_DISCARDS,
)
from ..params import (
    P_BLIND_SIZE,
    P_DECK_COPIES,
    P_DECK_SIZE,
    P_HAND_SIZE,
    P_PACKET_0,
    P_PACKET_COUNT,
    P_PASSES_PERMANENT,
    P_PLAYERS,
    P_RAISE_RULE,
    RAISE_RANK_GAP,
)
from ..players.pimc_nb import pimc_decide_nb
from ..players.policy_nb import (
    PASS,
    WEAK,
    auction_decide_nb,
    best_strain_nb,
    blind_raise_decide_nb,
    contract_decide_nb,
    exchange_decide_nb,
    friend_decide_nb,
    strength_nb,
)
from ..rng_nb import below_at_nb
from ..rules.auction_nb import beats_nb, lead_request_ok_nb, weak_allowed_nb
from ..rules.rules_nb import (
    JOKER_BIT,
    NO_TRUMP,
    bit_nb,
    copy_of_nb,
    fold_nb,
    has_nb,
    mighty_of_nb,
    points_nb,
    popcount_nb,
    suit_mask_nb,
    weak_score2_nb,
)
from .play_nb import (
    H_DISCARDS_P0,
    H_DISCARDS_P1,
    H_PLANE1,
    S_DECLARER,
    S_FRIEND,
    S_K,
    S_KIND,
    S_TRICK_NO,
    apply_play_nb,
    legal_now_nb,
    play_until_nb,
    result_nb,
    start_play_nb,
    to_play_nb,
)
from .tricks_nb import play_tricks_nb


@njit(cache=True, inline="always")
def _record_bid(rh: np.ndarray, ri: np.ndarray, row: int, code: int) -> None:
    """Append a call to the row's history: ``rh`` is the history buffer from the row's
    first call on."""
    k = ri[row, R_HIST_LEN]
    if k < HISTORY:
        rh[k] = code
        ri[row, R_HIST_LEN] = k + 1


@njit(cache=True)
def run_auction_nb(
    st: np.ndarray, params: np.ndarray, hands: np.ndarray, dealer: int, first_bidder: int,
    policies: np.ndarray, pp: np.ndarray, row: int, ri: np.ndarray, rw: np.ndarray,
    rh: np.ndarray, scratch_f: np.ndarray,
) -> tuple[int, int, int]:
    """Start row ``row`` (its dealer, first bidder, contract columns empty) and hold its
    auction (s.2.2): (declarer, bid, trump), or declarer -1 when the attempt ends in a
    redeal (its outcome written). ``hands`` are what the policies see (kinds, with two
    decks); a weak hand is read from the row's weak scores ``rw``; the calls go to
    ``rh``, the history buffer from the row's first call on (``ri[row, R_HIST_LEN]``
    of them)."""
    n = params[P_PLAYERS]
    ri[row, R_DEALER] = dealer
    ri[row, R_FIRST_BIDDER] = first_bidder
    ri[row, R_HIST_LEN] = 0
    for col in (R_REDEAL_BY, R_DECLARER, R_BID, R_TRUMP, R_AUCTION_BID, R_AUCTION_TRUMP,
                R_FRIEND_MODE, R_FRIEND_CARD, R_FRIEND_SEAT, R_FRIEND_KIND, R_SUCCESS,
                R_LEAD_REQUEST):
        ri[row, col] = -1
    passed = 0  # seats that passed for good (bit s), with permanent passes
    had_turn = 0  # seats that have called (bit s)
    pref_trump = scratch_f[0]  # a strain (as a float)
    pref_strength = scratch_f[1]
    high_n, high_t, high_seat = var(0), var(0), -1
    passes_in_row = 0
    turn = first_bidder
    permanent = params[P_PASSES_PERMANENT] == 1
    while True:
        seat = turn
        first_call = (had_turn >> seat) & 1 == 0
        weak_ok = weak_allowed_nb(params, rw[row, seat], first_call)
        if first_call and policies[seat] != POLICY_RANDOM and (
                not weak_ok or policies[seat] != POLICY_BASELINE):
            # the heuristic's strain, at its first call (the baseline's, when it does not
            # show its weak hand: an attempt redealt for a weak hand never needs most)
            pref_trump[seat], pref_strength[seat] = best_strain_nb(hands[seat], params, pp[seat])
        number, trump = auction_decide_nb(policies[seat], pp[seat], st, hands[seat], weak_ok,
                                          high_n, high_t, params, int(pref_trump[seat]),
                                          pref_strength[seat])
        if number == WEAK:
            _record_bid(rh, ri, row, seat * 1000 + 1)
            ri[row, R_OUTCOME] = OUTCOME_WEAK
            ri[row, R_REDEAL_BY] = seat
            return -1, 0, 0
        had_turn |= 1 << seat
        if number == PASS or not beats_nb(params, number, trump, high_n, high_t):
            _record_bid(rh, ri, row, seat * 1000)
            if permanent:
                passed |= 1 << seat
            passes_in_row += 1
        else:
            _record_bid(rh, ri, row, seat * 1000 + number * 10 + trump)
            high_n, high_t, high_seat = number, trump, seat
            passes_in_row = 0
        done = False
        if permanent:
            active = n - popcount_nb(np.uint64(passed))
            if active == 0:
                ri[row, R_OUTCOME] = OUTCOME_ALL_PASS
                return -1, 0, 0
            if high_seat >= 0 and active == 1 and (passed >> high_seat) & 1 == 0:
                done = True
        else:
            if high_seat < 0 and passes_in_row == n:
                ri[row, R_OUTCOME] = OUTCOME_ALL_PASS
                return -1, 0, 0
            if high_seat >= 0 and passes_in_row == n - 1:
                done = True
        if done:
            break
        turn = (turn + 1) % n
        while (passed >> turn) & 1:
            turn = (turn + 1) % n
    return high_seat, high_n, high_t


@njit(cache=True, inline="always")
def record_declarer_nb(
    ri: np.ndarray, rf: np.ndarray, row: int, params: np.ndarray, kinds: np.uint64,
    p0: np.uint64, p1: np.uint64, bid: int, trump: int,
) -> None:
    """Write the auction's contract and the declarer's hand at that time into row ``row``:
    ``kinds`` its card kinds, ``p0`` and ``p1`` its cards of each deck (``p1`` = 0 with one
    deck)."""
    ri[row, R_AUCTION_BID] = bid
    ri[row, R_AUCTION_TRUMP] = trump
    rf[row, F_STRENGTH] = strength_nb(kinds, trump, params)
    length = 0
    if trump != NO_TRUMP:
        length = popcount_nb(p0 & suit_mask_nb(trump)) + popcount_nb(p1 & suit_mask_nb(trump))
    ri[row, R_TRUMP_LENGTH] = length
    ri[row, R_HAS_MIGHTY] = 1 if has_nb(kinds, mighty_of_nb(params, trump)) else 0
    ri[row, R_HAS_JOKER] = 1 if has_nb(kinds, JOKER_BIT) else 0
    ri[row, R_HAND_POINTS] = points_nb(p0) + points_nb(p1)


@njit(cache=True, inline="always")
def packet_nb(deck: np.ndarray, start: int, size: int) -> tuple[np.uint64, np.uint64]:
    """The ``size`` cards of ``deck`` from ``start`` as one mask a deck (the second deck's
    cards are ``PLANE_BITS`` up), gathered in registers: a packet dealt to a hand, or the
    blind."""
    m0, m1 = np.uint64(0), np.uint64(0)
    for pos in range(start, start + size):
        c = deck[pos]
        if c >= PLANE_BITS:
            m1 |= bit_nb(c - PLANE_BITS)
        else:
            m0 |= bit_nb(c)
    return m0, m1


_ONE = np.uint64(1)
SEATS_STRIDE = MAX_PLAYERS + 1
"""The second deck's cards in :func:`shuffle_deal_nb`'s ``dealt``: that far after the
first's (a seat's relative to the dealer, then the blind)."""


@njit(cache=True)
def owners_nb(params: np.ndarray, owner: np.ndarray) -> None:
    """Who gets each position of the shuffled deck (``owner[pos]``): the seat ``r``
    places after the dealer's left, dealt in packets (s.2.1), or ``players`` for the
    blind (the positions after the last packet). A profile's: worked out once a batch."""
    n = params[P_PLAYERS]
    pos = 0
    for p in range(params[P_PACKET_COUNT]):
        size = params[P_PACKET_0 + p]
        for r in range(n):
            for _ in range(size):
                owner[pos] = r
                pos += 1
    for q in range(pos, params[P_DECK_SIZE]):
        owner[q] = n


@njit(cache=True, inline="always")
def shuffle_deal_nb(st: np.ndarray, deck: np.ndarray, m: int, owner: np.ndarray,
                    draws: np.ndarray, dealt: np.ndarray, n: int) -> None:
    """Shuffle ``deck[:m]`` (the draws and the order of ``rng_nb.shuffle_nb``, Fisher-Yates
    from the top) and deal it by ``owner`` (:func:`owners_nb`) into ``dealt``: the cards of
    the seat ``r`` places after the dealer's left at ``r``, the blind's at ``n``, a second
    deck's :data:`SEATS_STRIDE` further on. The draws are made first, all of them (each
    depends on the stream alone), then the swaps: a position is final once swapped, so
    its card goes to its owner there (``deck`` itself is left part shuffled: read the
    hands from ``dealt``).
    Measured alone: 135-140 ns a `standard` deal against 210-270 for the shuffle and the
    packets apart."""
    state = st[0]
    for i in range(m - 1, 0, -1):
        state, j = below_at_nb(state, i + 1)
        draws[i] = j
    st[0] = state
    for r in range(n + 1):
        dealt[r] = 0
        dealt[SEATS_STRIDE + r] = 0
    for i in range(m - 1, 0, -1):
        j = draws[i]
        c = deck[j]
        deck[j] = deck[i]
        dealt[owner[i] + SEATS_STRIDE * (c >> 6)] |= _ONE << np.uint64(c & 63)
    c = deck[0]
    dealt[owner[0] + SEATS_STRIDE * (c >> 6)] |= _ONE << np.uint64(c & 63)


@njit(cache=True)
def play_attempt_nb(
    st: np.ndarray, params: np.ndarray, deck_cards: np.ndarray, dealer: int,
    first_bidder: int, policies: np.ndarray, pp: np.ndarray, row: int,
    out: tuple[np.ndarray, ...], record_tricks: bool, t_used: int,
    scratch: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> int:
    """Play one dealt attempt from stream ``st`` into row ``row``; returns the number of
    trick rows used after it. ``deck_cards``: the deck's cards, low to high (with two
    decks, its physical cards, then the kinds that may be called). ``scratch_*`` are work
    arrays reused across attempts: int64 (5, >= max(deck size, N_S)), its row 3 the
    deck's owners (:func:`owners_nb`) and row 4 the shuffle's draws, uint64 (4, N_H),
    float64 (2, MAX_PLAYERS)."""
    ri, ru, rf, rw, rh, ti = out
    scratch_i, scratch_u, scratch_f = scratch
    n = params[P_PLAYERS]
    deck_size = params[P_DECK_SIZE]
    two = params[P_DECK_COPIES] == 2
    # -- shuffle (Fisher-Yates, as DealStream.shuffled) and deal in packets (s.2.1) --------
    deck = scratch_i[0]
    copy_nb(deck, deck_cards, deck_size)
    dealt = scratch_u[3]  # by seat from the dealer's left
    shuffle_deal_nb(st, deck, deck_size, scratch_i[3], scratch_i[4], dealt, n)
    hands = scratch_u[0]  # the first deck's cards at seat, the second's at H_PLANE1 + seat
    hands[:] = 0
    seat = dealer
    for r in range(n):  # clockwise from the dealer's left
        seat = seat + 1 if seat + 1 < n else 0
        hands[seat] = dealt[r]
        hands[H_PLANE1 + seat] = dealt[SEATS_STRIDE + r]
    b0, b1 = dealt[n], dealt[SEATS_STRIDE + n]
    kinds = scratch_u[2]  # what the policies see
    for s in range(n):
        ru[row, s] = hands[s]
        rw[row, s] = weak_score2_nb(hands[s], hands[H_PLANE1 + s], params)
        kinds[s] = fold_nb(hands[s], hands[H_PLANE1 + s])
        if two:
            ru[row, N_U + s] = hands[H_PLANE1 + s]
    ru[row, U_BLIND] = b0
    if two:
        ru[row, N_U + U_BLIND] = b1
    declarer, bid, trump = run_auction_nb(st, params, kinds, dealer, first_bidder, policies, pp,
                                          row, ri, rw, rh, scratch_f)
    if declarer < 0:
        return t_used
    record_declarer_nb(ri, rf, row, params, kinds[declarer], hands[declarer],
                       hands[H_PLANE1 + declarer], bid, trump)
    if params[P_RAISE_RULE] == RAISE_RANK_GAP:  # a raise before the blind is seen (s.3)
        bid, trump = blind_raise_decide_nb(policies[declarer], st, bid, trump, params)
    return play_contract_nb(st, params, deck_cards[deck_size if two else 0:], hands,
                            (b0, b1, declarer, bid, trump, var(False)), (policies, pp),
                            (row, record_tricks, t_used), ri, ru, rf, ti,
                            (scratch_i, scratch_u))


@njit(cache=True)
def play_contract_nb(
    st: np.ndarray, params: np.ndarray, kind_cards: np.ndarray, hands: np.ndarray,
    contract: tuple[np.uint64, np.uint64, int, int, int, bool],
    players: tuple[np.ndarray, np.ndarray], at: tuple[int, bool, int], ri: np.ndarray,
    ru: np.ndarray, rf: np.ndarray, ti: np.ndarray, scratch: tuple[np.ndarray, np.ndarray],
) -> int:
    """From the auction's end to the settlement: exchange, contract (kept as it is when
    ``fixed``), friend call, tricks, payouts, written into row ``row`` of ``ri``, ``ru``,
    ``rf`` (and the tricks into ``ti`` after its first ``t_used`` rows, with
    ``record_tricks``). ``contract`` is the blind ``b0`` (with two decks ``b1``, the second
    deck's, whose cards are at ``H_PLANE1 + seat`` in ``hands``; else 0), the declarer,
    bid, trump and ``fixed``; ``hands`` are the hands before the declarer takes the blind;
    ``players`` the seats' policies and parameters; ``at`` is ``row``, ``record_tricks``
    and ``t_used``; ``kind_cards`` the card kinds that may be called. Returns the trick
    rows used after it. (The row arrays travel as arguments of their own: bundled in a
    tuple here, the writes of the inlined ``write_result_nb`` were lost with Numba 0.68.)"""
    b0, b1, declarer, bid, trump, fixed = contract
    policies, pp = players
    row, record_tricks, t_used = at
    scratch_i, scratch_u = scratch
    n = params[P_PLAYERS]
    hand_size = params[P_HAND_SIZE]
    two = params[P_DECK_COPIES] == 2
    d = declarer
    # -- exchange, contract, friend (s.2.3) ----------------------------------------------
    hands[d] |= b0
    hands[H_PLANE1 + d] |= b1
    x0, x1 = exchange_decide_nb(policies[d], pp[d], st, hands[d], hands[H_PLANE1 + d],
                                params[P_BLIND_SIZE], trump, params)
    hands[d] &= ~x0
    hands[H_PLANE1 + d] &= ~x1
    kinds = fold_nb(hands[d], hands[H_PLANE1 + d])
    discards = fold_nb(x0, x1)
    new_bid, new_trump = bid, trump
    if not fixed:
        new_bid, new_trump = contract_decide_nb(policies[d], pp[d], st, kinds, bid, trump,
                                                params)
    changed = new_trump != trump
    bid, trump = new_bid, new_trump
    request_ok = lead_request_ok_nb(params, bid, trump)
    mode, called, request = friend_decide_nb(policies[d], pp[d], st, kinds, discards, bid,
                                             trump, kind_cards, request_ok, params)
    # -- play (s.2.4) and settlement (s.2.5) -----------------------------------------------
    s = scratch_i[1]
    tr = scratch_i[2]
    h = scratch_u[1]
    track = var(False)
    early = scratch_i[0]  # free once dealt: the policies before a PIMC seat's searched tricks
    for p in range(n):
        early[p] = policies[p]
        if policies[p] == POLICY_PIMC:
            track = True
            early[p] = POLICY_HEURISTIC
    start_play_nb(s, h, tr, params, hands, discards, (d, bid, trump, changed),
                  (mode, called, request), track)
    if two:
        h[H_DISCARDS_P0] = x0
        h[H_DISCARDS_P1] = x1
    if not track:  # random and heuristic seats only: the one-loop play
        t_used = play_tricks_nb(st, s, h, tr, policies, params, 0.0, record_tricks, ti,
                                t_used)
    while s[S_TRICK_NO] <= hand_size:
        t_used = play_until_nb(st, s, h, tr, policies, params, 0.0, record_tricks, ti,
                               t_used)
        if s[S_TRICK_NO] > hand_size:
            break
        seat = to_play_nb(s)  # a PIMC seat
        if not searches_nb(pp[seat], s, seat):  # the heuristic's card where it does not search
            t_used = play_until_nb(st, s, h, tr, early, params, 0.0, record_tricks, ti, t_used,
                                   1)
            continue
        legal = legal_now_nb(s, h, tr, seat, params)
        card, suit, demand = pimc_decide_nb(pp[seat], st, s, h, tr, seat, legal, params)
        if two:
            card = copy_of_nb(h[seat], h[H_PLANE1 + seat], card)
        t_used = apply_play_nb(s, h, tr, seat, card, suit, demand, params, record_tricks, ti,
                               t_used)
    write_result_nb(s, params, row, ri, rf, bid, trump, changed, mode, called, request)
    ru[row, U_DISCARDS] = x0
    if two:
        ru[row, N_U + U_DISCARDS] = x1
    return t_used


@njit(cache=True, inline="always")
def searches_nb(pp: np.ndarray, s: np.ndarray, seat: int) -> bool:
    """Whether a PIMC ``seat`` with parameters ``pp`` searches its next card: its trick
    from ``PP_FROM_TRICK`` to ``PP_TO_TRICK``, its place in the trick and its side
    (``layout.SEARCH_ON``, ``SEARCH_SIDE``) among those it searches."""
    trick = s[S_TRICK_NO]
    if trick < pp[PP_FROM_TRICK] or trick > pp[PP_TO_TRICK]:
        return False
    on = pp[PP_SEARCH_ON]
    if on != 0 and (s[S_K] == 0) != (on == 1):
        return False
    side = pp[PP_SEARCH_SIDE]
    if side != 0:
        declarers = seat == s[S_DECLARER] or seat == s[S_FRIEND]
        if declarers != (side == 1):
            return False
    return True


@njit(cache=True, inline="always")
def write_result_nb(
    s: np.ndarray, params: np.ndarray, row: int, ri: np.ndarray, rf: np.ndarray, bid: int,
    trump: int, changed: bool, mode: int, called: int, request: int,
) -> None:
    """Write a finished play's contract, friend and settlement into row ``row``."""
    n = params[P_PLAYERS]
    declarer = s[S_DECLARER]
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
