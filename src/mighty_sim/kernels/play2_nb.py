"""The play of a two-deck deal (docs/rules.md, russian profiles): the state machine of
:mod:`.play_nb` with
hands in two planes.

A physical card is ``plane * 64 + bit`` (:mod:`mighty_sim.rules.cards`; each deck's jokers at
bits 52 and 53). The rules and the policies see card *kinds* (the one-deck bit, 52 for
every joker): a hand is folded to its kinds, the trick's cards are kept as kinds beside
the physical ones, and a policy's chosen kind is played as its lowest copy in the hand.
So every copy of Mighty, the joker and the hunter is special, and of two identical cards
the first played wins (the trick winner's strict comparisons). The friend is the first
player other than the declarer to play a copy of the called card.

State, all preallocated by the caller:

- ``s`` int64 (``N_S``): as in :mod:`.play_nb`; ``s[S_FRIEND]`` stays -1 until the
  friend plays a copy of the called card;
- ``h`` uint64 (``N_H2``): seat ``p``'s deck-0 cards at ``p``, deck-1 cards at
  ``H2_PLANE1 + p``, then ``H2_SEEN`` (kinds of the finished tricks);
- ``tr`` and ``tk`` int64 (``MAX_PLAYERS``): the current trick's physical cards and
  their kinds, in play order, -1 beyond.
"""

from __future__ import annotations

import numpy as np

from ..rules.cards import PLANE_BITS
from ._jit import njit
from .layout import MAX_PLAYERS
from .params import (
    FRIEND_KIND_FRIEND,
    FRIEND_KIND_OPEN_SOLO,
    FRIEND_KIND_SECRET_SOLO,
    HUNTER_LEAD_DEMAND,
    MODE_CALLED,
    MODE_FIRST_TRICK,
    P_HAND_SIZE,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_PLAYERS,
)
from .play_nb import (
    S_CALLED,
    S_DECLARER,
    S_DEMANDED,
    S_FRIEND,
    S_FRIEND_HAS_LED,
    S_HUNTER,
    S_JOKER_SUIT,
    S_K,
    S_KIND,
    S_LEADER,
    S_MODE,
    S_N,
    S_REVEALED,
    S_TRICK_NO,
    S_TRUMP,
    end_trick_nb,
    lead_request_nb,
    open_play_nb,
    partners_of_nb,
)
from .policy_nb import play_decide_nb
from .rules_nb import JOKER_BIT, bit_nb, has_nb, in_tricks_nb, legal_plays_nb, lowest_card_nb

H2_PLANE1 = MAX_PLAYERS
H2_SEEN = 2 * MAX_PLAYERS
N_H2 = H2_SEEN + 1
JOKER_PAIR = np.uint64(3 << JOKER_BIT)  # a deck's two jokers
_JOKER = np.uint64(1 << JOKER_BIT)


@njit(cache=True)
def fold_nb(p0: np.uint64, p1: np.uint64) -> np.uint64:
    """Kinds held in a two-plane hand (any joker folds to bit 52)."""
    f = p0 | p1
    if f & JOKER_PAIR:
        f = (f & ~JOKER_PAIR) | _JOKER
    return f


@njit(cache=True)
def kind_nb(card: int) -> int:
    """Kind of a physical card id."""
    b = card & (PLANE_BITS - 1)
    return JOKER_BIT if b >= JOKER_BIT else b


@njit(cache=True)
def kind_bits_nb(kind: int) -> np.uint64:
    """The bits of a kind within one plane (both jokers for the joker)."""
    return JOKER_PAIR if kind == JOKER_BIT else bit_nb(kind)


@njit(cache=True)
def copy_of_nb(p0: np.uint64, p1: np.uint64, kind: int) -> int:
    """The lowest physical copy of ``kind`` in a two-plane hand that holds one."""
    m = kind_bits_nb(kind)
    if p0 & m:
        return lowest_card_nb(p0 & m)
    return PLANE_BITS + lowest_card_nb(p1 & m)


@njit(cache=True)
def start_play2_nb(
    s: np.ndarray, h: np.ndarray, tr: np.ndarray, tk: np.ndarray, params: np.ndarray,
    hands: np.ndarray, declarer: int, bid: int, trump: int, changed: bool, mode: int,
    called: int, request: int,
) -> None:
    """Set up the play of a contract from the two-plane ``hands`` after the exchange
    (deck-0 planes at ``0..``, deck-1 at ``H2_PLANE1..``)."""
    n = params[P_PLAYERS]
    for p in range(MAX_PLAYERS):
        h[p] = hands[p] if p < n else np.uint64(0)
        h[H2_PLANE1 + p] = hands[H2_PLANE1 + p] if p < n else np.uint64(0)
        tr[p] = -1
        tk[p] = -1
    h[H2_SEEN] = 0
    kind = FRIEND_KIND_OPEN_SOLO
    if mode == MODE_CALLED:
        kind = FRIEND_KIND_SECRET_SOLO  # unless another seat holds a copy
        m = kind_bits_nb(called)
        for p in range(n):
            if p != declarer and (hands[p] | hands[H2_PLANE1 + p]) & m:
                kind = FRIEND_KIND_FRIEND
    elif mode == MODE_FIRST_TRICK:
        kind = FRIEND_KIND_SECRET_SOLO
    # the friend's seat stays -1 until a copy of the called card is played
    open_play_nb(s, params, declarer, bid, trump, changed, mode, called, request, -1, kind)


@njit(cache=True)
def play2_until_nb(
    st: np.ndarray, s: np.ndarray, h: np.ndarray, tr: np.ndarray, tk: np.ndarray,
    policies: np.ndarray, params: np.ndarray, record: bool, ti: np.ndarray, t_used: int,
    row: int,
) -> int:
    """Play the deal to its end with the ``random`` and ``heuristic`` seats; returns the
    trick rows used."""
    n = s[S_N]
    hand_size = params[P_HAND_SIZE]
    hunter_rule = params[P_HUNTER_RULE] == HUNTER_LEAD_DEMAND and s[S_HUNTER] >= 0
    while s[S_TRICK_NO] <= hand_size:
        k = s[S_K]
        seat = s[S_LEADER] + k
        if seat >= n:
            seat -= n
        trick_no = s[S_TRICK_NO]
        p0, p1 = h[seat], h[H2_PLANE1 + seat]
        kinds = fold_nb(p0, p1)
        legal = legal_plays_nb(kinds, tk, k, s[S_TRUMP], trick_no, s[S_JOKER_SUIT],
                               s[S_DEMANDED] == 1, lead_request_nb(s, seat), params)
        demand_card = -1
        if (k == 0 and hunter_rule and in_tricks_nb(params[P_HUNTER_TRICKS], trick_no)
                and not has_nb(kinds, JOKER_BIT)):
            demand_card = s[S_HUNTER]
        declarer, friend = s[S_DECLARER], s[S_FRIEND]
        partners = partners_of_nb(seat, n, declarer, friend, s[S_REVEALED] == 1, s[S_KIND])
        kind, suit, demand = play_decide_nb(
            policies[seat], st, seat, kinds, legal, tk, k, s[S_LEADER], s[S_TRUMP], trick_no,
            s[S_JOKER_SUIT], s[S_DEMANDED] == 1, demand_card, partners,
            seat == declarer or seat == friend, h[H2_SEEN], n, params, -1)
        card = copy_of_nb(p0, p1, kind)
        t_used = apply_play2_nb(s, h, tr, tk, seat, card, suit, demand, params, record, ti,
                                t_used, row)
    return t_used


@njit(cache=True)
def apply_play2_nb(
    s: np.ndarray, h: np.ndarray, tr: np.ndarray, tk: np.ndarray, seat: int, card: int,
    suit: int, demand: bool, params: np.ndarray, record: bool, ti: np.ndarray, t_used: int,
    row: int,
) -> int:
    """Play physical ``card`` for ``seat`` (see :func:`.play_nb.apply_play_nb`)."""
    n = s[S_N]
    k = s[S_K]
    if k == 0:
        s[S_JOKER_SUIT] = suit
        s[S_DEMANDED] = 1 if demand else 0
    if card >= PLANE_BITS:
        h[H2_PLANE1 + seat] &= ~bit_nb(card - PLANE_BITS)
    else:
        h[seat] &= ~bit_nb(card)
    kind = kind_nb(card)
    tr[k] = card
    tk[k] = kind
    if s[S_MODE] == MODE_CALLED and kind == s[S_CALLED] and seat != s[S_DECLARER]:
        if s[S_FRIEND] < 0 and s[S_KIND] == FRIEND_KIND_FRIEND:
            s[S_FRIEND] = seat  # the first other player to play a copy
        if seat == s[S_FRIEND]:
            s[S_REVEALED] = 1
    if k == 0 and seat == s[S_FRIEND]:
        s[S_FRIEND_HAS_LED] = 1
    if k + 1 < n:
        s[S_K] = k + 1
        return t_used
    t_used, seen = end_trick_nb(s, tr, tk, params, record, ti, t_used, row)
    h[H2_SEEN] |= seen
    return t_used
