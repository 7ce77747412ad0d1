"""Auction and contract rules as kernels: which bids beat which, which contracts the
declarer may switch to after the exchange (docs/rules.md, standard: Auction and Exchange; ucla:
raises).

Bids are ``(number, trump)`` with trump 0..3 for S H D C and 4 for NT. Legal bids and
contracts are enumerated in the reference engine's order (number low to high, then trump
in S H D C NT order) so that a random choice by index matches it.
"""

from __future__ import annotations

import numpy as np

from ..rules.profile import NO_TRUMP
from ._jit import njit
from .params import (
    P_COST_NT,
    P_COST_SUIT,
    P_MAX_BID,
    P_MIN_BID,
    P_RAISE_RULE,
    P_RANK_GAP,
    P_STRAIN_ORDER,
    RAISE_RANK_GAP,
    STRAIN_BRIDGE,
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
def can_contract_nb(
    params: np.ndarray, cur_bid: int, cur_trump: int, bid: int, trump: int
) -> bool:
    """Whether the declarer may play ``bid`` ``trump`` after the exchange (s.2.3)."""
    if bid > params[P_MAX_BID] or bid < cur_bid:
        return False
    if params[P_RAISE_RULE] == RAISE_RANK_GAP:  # s.3: any change ranks 6 up
        if bid == cur_bid and trump == cur_trump:
            return True
        gap = bid_key_nb(params, bid, trump) - bid_key_nb(params, cur_bid, cur_trump)
        return gap >= params[P_RANK_GAP]
    if trump == cur_trump:
        return True
    cost = params[P_COST_NT] if trump == NO_TRUMP else params[P_COST_SUIT]
    need = min(cur_bid + cost, params[P_MAX_BID])
    return bid >= need


@njit(cache=True)
def other_contract_count_nb(params: np.ndarray, cur_bid: int, cur_trump: int) -> int:
    """Number of allowed contracts other than the current one."""
    count = 0
    for bid in range(cur_bid, params[P_MAX_BID] + 1):
        for trump in range(5):
            if (bid != cur_bid or trump != cur_trump) and can_contract_nb(
                params, cur_bid, cur_trump, bid, trump
            ):
                count += 1
    return count


@njit(cache=True)
def kth_other_contract_nb(
    params: np.ndarray, cur_bid: int, cur_trump: int, k: int
) -> tuple[int, int]:
    """The k-th allowed contract other than the current one, in the reference order."""
    for bid in range(cur_bid, params[P_MAX_BID] + 1):
        for trump in range(5):
            if (bid != cur_bid or trump != cur_trump) and can_contract_nb(
                params, cur_bid, cur_trump, bid, trump
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
