"""Auction and contract rules as kernels: which bids beat which, which contracts the
declarer may switch to after the exchange (docs/rules.md, standard: Auction and Exchange; ucla:
raises).

Bids are ``(number, trump)`` with trump 0..3 for S H D C and 4 for NT. Legal bids and
contracts are enumerated in the reference engine's order (number low to high, then trump
in S H D C NT order) so that a random choice by index matches it.
"""

from __future__ import annotations

import numpy as np

from ...rules.profile import NO_TRUMP
from .._jit import njit
from ..params import (
    P_COST_NT,
    P_COST_SUIT,
    P_MAX_BID,
    P_MIN_BID,
    P_NT_LEAD_REQUEST,
    P_RAISE_AFTER_EXCHANGE,
    P_RAISE_RULE,
    P_RAISE_UNIT,
    P_RANK_GAP_AFTER,
    P_RANK_GAP_BEFORE,
    P_STRAIN_ORDER,
    P_WEAK_STRICT,
    P_WEAK_THRESHOLD_Q,
    P_WEAK_WHEN,
    RAISE_RANK_GAP,
    RAISE_UNIT_LEVEL,
    STRAIN_BRIDGE,
    WEAK_FIRST_TURN,
    WEAK_NEVER,
)


@njit(cache=True)
def bridge_strain_nb(trump: int) -> int:
    """Bridge order index: C 0, D 1, H 2, S 3, NT 4."""
    if trump == NO_TRUMP:
        return 4
    return 3 - trump


@njit(cache=True)
def bid_key_nb(params: np.ndarray, number: int, trump: int) -> int:
    """Sort key of a bid: a larger key beats a smaller one; equal keys do not beat."""
    if params[P_STRAIN_ORDER] == STRAIN_BRIDGE:
        return number * 5 + bridge_strain_nb(trump)
    return number * 2 + (1 if trump == NO_TRUMP else 0)


@njit(cache=True)
def beats_nb(
    params: np.ndarray, number: int, trump: int, high_number: int, high_trump: int
) -> bool:
    """Whether a bid is legal over the standing bid (``high_number == 0``: none yet)."""
    if number < params[P_MIN_BID] or number > params[P_MAX_BID]:
        return False
    if high_number == 0:
        return True
    return bid_key_nb(params, number, trump) > bid_key_nb(params, high_number, high_trump)


@njit(cache=True)
def weak_allowed_nb(params: np.ndarray, q: int, first_call: bool) -> bool:
    """Whether a hand of weak-hand score ``q`` (quarter points) may be shown for a redeal
    now (s.2.2): the profile has the redeal, the score is under its threshold, and it is
    the seat's first call where the profile asks for that."""
    when = params[P_WEAK_WHEN]
    if when == WEAK_NEVER or (when == WEAK_FIRST_TURN and not first_call):
        return False
    if params[P_WEAK_STRICT]:
        return q < params[P_WEAK_THRESHOLD_Q]
    return q <= params[P_WEAK_THRESHOLD_Q]


@njit(cache=True)
def lead_request_ok_nb(params: np.ndarray, bid: int, trump: int) -> bool:
    """Whether the declarer of this contract may ask the friend for a first lead (s.2.3:
    at the maximum bid in NT, where the profile has the request)."""
    return params[P_NT_LEAD_REQUEST] == 1 and bid == params[P_MAX_BID] and trump == NO_TRUMP


@njit(cache=True)
def legal_bid_count_nb(params: np.ndarray, high_number: int, high_trump: int) -> int:
    """Number of legal bids over the standing bid: those of its number that rank above
    it, and every strain of each higher number (in either strain order a number's lowest
    bid ranks above every bid of the numbers below)."""
    lo, hi = params[P_MIN_BID], params[P_MAX_BID]
    if high_number == 0:
        return 5 * (hi - lo + 1)
    high_key = bid_key_nb(params, high_number, high_trump)
    count = 0
    if lo <= high_number <= hi:
        for trump in range(5):
            if bid_key_nb(params, high_number, trump) > high_key:
                count += 1
    return count + 5 * max(0, hi - max(lo, high_number + 1) + 1)


@njit(cache=True)
def kth_legal_bid_nb(
    params: np.ndarray, high_number: int, high_trump: int, k: int
) -> tuple[int, int]:
    """The k-th legal bid (0-based) in the reference order: number low to high, then
    trump S H D C NT (the standing bid's number first, then five a number)."""
    lo, hi = params[P_MIN_BID], params[P_MAX_BID]
    start = lo
    if high_number:
        high_key = bid_key_nb(params, high_number, high_trump)
        if lo <= high_number <= hi:
            for trump in range(5):
                if bid_key_nb(params, high_number, trump) > high_key:
                    if k == 0:
                        return high_number, trump
                    k -= 1
        start = max(lo, high_number + 1)
    number = start + k // 5
    if k < 0 or number > hi:
        return -1, -1
    return number, k % 5


@njit(cache=True)
def lowest_bid_in_nb(params: np.ndarray, high_number: int, high_trump: int, trump: int) -> int:
    """The lowest legal number in ``trump`` over the standing bid; -1 if none."""
    lo, hi = params[P_MIN_BID], params[P_MAX_BID]
    high_key = bid_key_nb(params, high_number, high_trump) if high_number else -1
    for number in range(max(lo, high_number), hi + 1):
        if bid_key_nb(params, number, trump) > high_key:
            return number
    return -1


@njit(cache=True)
def raise_key_nb(params: np.ndarray, number: int, trump: int) -> int:
    """A contract's height for ``rank-gap`` raises: its bridge rank (level x 5 + strain),
    or its level (the number, NT one level above the suits of its number)."""
    if params[P_RAISE_UNIT] == RAISE_UNIT_LEVEL:
        return number + (1 if trump == NO_TRUMP else 0)
    return number * 5 + bridge_strain_nb(trump)


@njit(cache=True)
def can_contract_nb(
    params: np.ndarray, cur_bid: int, cur_trump: int, bid: int, trump: int,
    before_blind: bool = False,
) -> bool:
    """Whether the declarer may play ``bid`` ``trump`` after the exchange (s.2.3), or,
    with ``before_blind``, before the blind is seen (``rank-gap`` profiles, s.3)."""
    if bid > params[P_MAX_BID] or bid < cur_bid:
        return False
    if bid == cur_bid and trump == cur_trump:
        return True
    if params[P_RAISE_RULE] == RAISE_RANK_GAP:  # s.3: a climb of at least the gap
        gap = params[P_RANK_GAP_BEFORE] if before_blind else params[P_RANK_GAP_AFTER]
        climb = raise_key_nb(params, bid, trump) - raise_key_nb(params, cur_bid, cur_trump)
        return climb >= gap
    if bid != cur_bid and not params[P_RAISE_AFTER_EXCHANGE]:
        return False
    if trump == cur_trump:
        return True
    cost = params[P_COST_NT] if trump == NO_TRUMP else params[P_COST_SUIT]
    need = min(cur_bid + cost, params[P_MAX_BID])
    return bid >= need


@njit(cache=True)
def other_contract_count_nb(
    params: np.ndarray, cur_bid: int, cur_trump: int, before_blind: bool = False
) -> int:
    """Number of allowed contracts other than the current one."""
    count = 0
    for bid in range(cur_bid, params[P_MAX_BID] + 1):
        for trump in range(5):
            if (bid != cur_bid or trump != cur_trump) and can_contract_nb(
                params, cur_bid, cur_trump, bid, trump, before_blind
            ):
                count += 1
    return count


@njit(cache=True)
def kth_other_contract_nb(
    params: np.ndarray, cur_bid: int, cur_trump: int, k: int, before_blind: bool = False
) -> tuple[int, int]:
    """The k-th allowed contract other than the current one, in the reference order."""
    for bid in range(cur_bid, params[P_MAX_BID] + 1):
        for trump in range(5):
            if (bid != cur_bid or trump != cur_trump) and can_contract_nb(
                params, cur_bid, cur_trump, bid, trump, before_blind
            ):
                if k == 0:
                    return bid, trump
                k -= 1
    return cur_bid, cur_trump


@njit(cache=True)
def min_contract_bid_nb(params: np.ndarray, cur_bid: int, cur_trump: int, trump: int) -> int:
    """Smallest bid at which the declarer may switch to ``trump``; -1 if none."""
    for bid in range(cur_bid, params[P_MAX_BID] + 1):
        if can_contract_nb(params, cur_bid, cur_trump, bid, trump):
            return bid
    return -1
