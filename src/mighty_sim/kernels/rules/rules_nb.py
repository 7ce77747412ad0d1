"""Rule kernels on bitmasks: legal plays, trick winner, weak-hand score, settlement, and
the card-set helpers every kernel uses (a card's bit, popcount, lowest, highest and k-th
card of a mask, the cards above a card, the point cards).

Source: docs/rules.md, standard (Auction: the weak hand; Play; Scoring), with the switches of
section 5 read from the compiled profile (:mod:`mighty_sim.kernels.params`); there is no
code path per profile name.

Conventions (card layout in :mod:`mighty_sim.rules.cards`):

- ``hand``: ``uint64`` mask; a card is a bit index ``0..52`` (``52`` = joker).
- ``played``: ``ndarray(int64, ndim=1)``, card bit indices of the current trick in play
  order, leader first; only the first ``n_played`` entries are read.
- ``trump``: 0..3 for S H D C, 4 for no trump.
- ``joker_suit``: suit named by the leader of a powered joker, else -1.
- ``lead_request``: suit the leader must lead if able (the 20-NT friend request), else -1.
- ``params``: ``ndarray(int64, ndim=1)`` from ``compile_profile``.

With two decks a hand is two such masks, one a deck (a physical card is ``plane * 64 +
bit``, each deck's jokers at bits 52 and 53); the rules and the policies see its card
*kinds*, the one-deck bits, every joker folded to 52 (``fold_nb``), and a kind chosen is
played as its lowest copy in the hand (``copy_of_nb``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import binding as _llvm
from llvmlite import ir as _ir
from numba.core import cgutils as _cgutils
from numba.core import types as _types
from numba.cpython.unsafe.numbers import leading_zeros as _lzcnt
from numba.cpython.unsafe.numbers import trailing_zeros as _tzcnt
from numba.extending import intrinsic as _intrinsic

from ...rules.cards import FIRST_POINT_RANK, JOKER_BIT, N_RANKS, PLANE_BITS
from ...rules.profile import NO_TRUMP
from .._jit import njit
from ..params import (
    FRIEND_KIND_FRIEND,
    FRIEND_KIND_OPEN_SOLO,
    HUNTER_NEXT_PLAYER,
    P_BACK_RUN_THRESHOLD,
    P_CHANGE_DOUBLES,
    P_DOUBLE_BACK_RUN,
    P_DOUBLE_MAX_LEVEL,
    P_DOUBLE_NO_FRIEND,
    P_DOUBLE_NT,
    P_DOUBLE_RUN,
    P_FIRST_NO_HUNTER,
    P_FIRST_NO_JOKER,
    P_FIRST_NO_TRUMP,
    P_FRIEND_SHARE_MILLE,
    P_HUNTED_POWERLESS,
    P_HUNTER,
    P_HUNTER_ALT,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_JOKER_NO_LEAD,
    P_JOKER_POWERLESS,
    P_LOSS_CAP,
    P_MAX_BID,
    P_MIGHTY,
    P_MIGHTY_ALT,
    P_MIGHTY_ANSWERS,
    P_MIGHTY_LEAD_DEMANDS,
    P_MIGHTY_SETS_FROM,
    P_MIN_BID,
    P_PENALTY_FAILURE,
    P_PLAYERS,
    P_SCORING,
    P_TOTAL_POINTS,
    P_WEAK_HONOR_Q,
    P_WEAK_JOKER_Q,
    P_WEAK_MIGHTY_Q,
    P_WEAK_TEN_Q,
    PENALTY_FAILURE_SHORTFALL,
    SCORING_PENALTY,
    SCORING_ZERO_SUM,
)

__all__ = ["JOKER_BIT", "NO_TRUMP"]  # the kernels take them from here
# Numba intrinsics (one LZCNT/TZCNT instruction), typed here as the plain functions they
# stand for: their declared Python signature is the intrinsic's, not the call's
leading_zeros: Callable[[np.uint64], int] = cast(Any, _lzcnt)
trailing_zeros: Callable[[np.uint64], int] = cast(Any, _tzcnt)
HAS_PEXT = bool(_llvm.get_host_cpu_features().get("bmi2", False))
"""Whether this CPU has BMI2's PEXT (the kernels are compiled for the CPU they run on)."""


def _bmi2(op: str) -> Any:
    """A Numba intrinsic for one BMI2 instruction on two uint64 (``op`` "pext" or
    "pdep"; only called when :data:`HAS_PEXT`: BMI2 has both)."""

    def typer(typingctx: Any, x: Any, m: Any) -> Any:
        sig = _types.uint64(_types.uint64, _types.uint64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64 = _ir.IntType(64)
            fn = _cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
                builder.module, _ir.FunctionType(i64, [i64, i64]), f"llvm.x86.bmi.{op}.64")
            return builder.call(fn, args)

        return sig, codegen

    typer.__name__ = typer.__qualname__ = f"_{op}"
    return _intrinsic(typer)


_pext: Callable[[np.uint64, np.uint64], np.uint64] = cast(Any, _bmi2("pext"))
_pdep: Callable[[np.uint64, np.uint64], np.uint64] = cast(Any, _bmi2("pdep"))


@njit(cache=True, inline="always")
def pext_loop_nb(x: np.uint64, m: np.uint64) -> np.uint64:
    """:func:`pext_nb` by a loop over ``m``'s bits (CPUs without BMI2)."""
    out, bit = np.uint64(0), np.uint64(1)
    while m:
        low = m & (~m + np.uint64(1))
        if x & low:
            out |= bit
        bit <<= np.uint64(1)
        m ^= low
    return out


@njit(cache=True, inline="always")
def pext_nb(x: np.uint64, m: np.uint64) -> np.uint64:
    """The bits of ``x`` at the set bits of ``m``, packed from bit 0 up: one PEXT
    instruction, or :func:`pext_loop_nb` on a CPU without it.

    >>> int(pext_nb(np.uint64(0b101100), np.uint64(0b111000)))
    5
    """
    if HAS_PEXT:
        return _pext(x, m)
    return pext_loop_nb(x, m)


_ONE = np.uint64(1)
_SUIT_BITS = np.uint64(0x1FFF)
_HONORS = np.uint64(sum(0xF << (13 * s + 9) for s in range(4)))  # J Q K A of each suit
_TENS = np.uint64(sum(1 << (13 * s + 8) for s in range(4)))
_JOKER2 = np.uint64(1 << (JOKER_BIT + 1))  # a deck's second joker
JOKER_PAIR = np.uint64(3 << JOKER_BIT)  # a deck's two jokers
POINT_MASK = np.uint64(sum(0x1F << (13 * s + 8) for s in range(4)))
"""The point cards (10 J Q K A of every suit)."""


@njit(cache=True, inline="always")
def is_point_nb(card: int) -> bool:
    """Whether a card (0..52; the joker is not) is a point card: 10, J, Q, K or A."""
    return card % N_RANKS >= FIRST_POINT_RANK


@njit(cache=True)
def popcount_nb(x: np.uint64) -> int:
    """Number of set bits of a ``uint64`` (SWAR; compiles to POPCNT)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def bit_nb(card: int) -> np.uint64:
    """Single-card mask of a card bit index."""
    return _ONE << np.uint64(card)


@njit(cache=True)
def suit_mask_nb(suit: int) -> np.uint64:
    """Mask of the 13 cards of a suit (0..3)."""
    return _SUIT_BITS << np.uint64(13 * suit)


@njit(cache=True, inline="always")
def kth_card_loop_nb(mask: np.uint64, k: int) -> int:
    """:func:`kth_card_nb` by clearing the k lowest cards (CPUs without BMI2)."""
    for _ in range(k):
        mask &= mask - np.uint64(1)
    return np.int64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def kth_card_nb(mask: np.uint64, k: int) -> int:
    """Bit index of the k-th lowest card of a mask (0 <= k < 64; 64 past its last
    card): bit k deposited at the mask's set bits (one PDEP, no branch on k), or
    :func:`kth_card_loop_nb` on a CPU without it.

    >>> kth_card_nb(np.uint64(0b101100), 1), kth_card_nb(np.uint64(0b101100), 3)
    (3, 64)
    """
    if HAS_PEXT:
        return np.int64(trailing_zeros(_pdep(np.uint64(1) << np.uint64(k), mask)))
    return kth_card_loop_nb(mask, k)


@njit(cache=True, inline="always")
def lowest_card_nb(mask: np.uint64) -> int:
    """Bit index of the lowest card of a non-empty mask (one TZCNT)."""
    return np.int64(trailing_zeros(mask))


@njit(cache=True, inline="always")
def highest_card_nb(mask: np.uint64) -> int:
    """Bit index of the highest card of a non-empty mask (one LZCNT)."""
    return 63 - np.int64(leading_zeros(mask))


@njit(cache=True, inline="always")
def has_nb(mask: np.uint64, card: int) -> bool:
    """Whether a mask holds a card (card >= 0)."""
    return card >= 0 and (mask >> np.uint64(card)) & np.uint64(1) == np.uint64(1)


@njit(cache=True, inline="always")
def above_nb(card: int) -> np.uint64:
    """Mask of the cards above ``card`` in bit order."""
    return ~((np.uint64(2) << np.uint64(card)) - np.uint64(1))


@njit(cache=True, inline="always")
def masters_nb(mine: np.uint64, unseen: np.uint64) -> np.uint64:
    """The cards of ``mine`` that no card of ``unseen`` outranks (both masks of one
    suit): the suit's masters, every card of ``mine`` when nothing of it is unseen. With
    two decks an unseen copy of a card's own kind counts against it (the copy led
    first takes the trick, so the card is no sure trick).

    >>> u = np.uint64
    >>> int(masters_nb(u(0b1100), u(0b0110))), int(masters_nb(u(5), u(0)))
    (8, 5)
    """
    if not unseen:
        return mine
    return mine & above_nb(highest_card_nb(unseen))


@njit(cache=True)
def card_suit_nb(card: int) -> int:
    """Suit 0..3 of a card bit index; -1 for the joker."""
    if card == JOKER_BIT:
        return -1
    return card // 13


@njit(cache=True)
def in_tricks_nb(trick_set: int, trick_no: int) -> bool:
    """Whether trick ``trick_no`` is in a compiled trick set (bit t = trick t)."""
    return (trick_set >> trick_no) & 1 == 1


@njit(cache=True)
def mighty_of_nb(params: np.ndarray, trump: int) -> int:
    """Card bit of Mighty under ``trump``."""
    m = params[P_MIGHTY]
    if trump == m // 13:
        return params[P_MIGHTY_ALT]
    return m


@njit(cache=True)
def hunter_of_nb(params: np.ndarray, trump: int) -> int:
    """Card bit of the hunter under ``trump``; -1 when the deck has none."""
    h = params[P_HUNTER]
    if h < 0:
        return -1
    if trump == h // 13:
        return params[P_HUNTER_ALT]
    return h


@njit(cache=True)
def points_nb(mask: np.uint64) -> int:
    """Point cards (A K Q J 10) in a mask."""
    return popcount_nb(mask & POINT_MASK)


@njit(cache=True)
def weak_score_q_nb(hand: np.uint64, params: np.ndarray) -> int:
    """Weak-hand score of a hand in quarter points (docs/rules.md, standard: Auction)."""
    mighty = bit_nb(params[P_MIGHTY])
    score = 0
    if hand & mighty:
        score += params[P_WEAK_MIGHTY_Q]
    if hand & bit_nb(JOKER_BIT):
        score += params[P_WEAK_JOKER_Q]
    score += params[P_WEAK_HONOR_Q] * popcount_nb(hand & _HONORS & ~mighty)
    score += params[P_WEAK_TEN_Q] * popcount_nb(hand & _TENS & ~mighty)
    return score


@njit(cache=True)
def weak_score2_nb(p0: np.uint64, p1: np.uint64, params: np.ndarray) -> int:
    """Weak-hand score (quarter points) of a two-plane hand: every copy counts (``p1`` = 0
    with one deck)."""
    q = weak_score_q_nb(p0 & ~_JOKER2, params) + weak_score_q_nb(p1 & ~_JOKER2, params)
    if p0 & _JOKER2:
        q += params[P_WEAK_JOKER_Q]
    if p1 & _JOKER2:
        q += params[P_WEAK_JOKER_Q]
    return q


@njit(cache=True)
def weak_score2_batch_nb(p0: np.ndarray, p1: np.ndarray, params: np.ndarray,
                         out: np.ndarray) -> None:
    """``weak_score2_nb`` over rows of (N,) uint64 planes into (N,) int64 ``out`` (``p1``
    all 0 with one deck): the weak-hand scores the batch kernel gives its hands."""
    for i in range(p0.shape[0]):
        out[i] = weak_score2_nb(p0[i], p1[i], params)


@njit(cache=True)
def joker_led_with_power_nb(params: np.ndarray, trick_no: int) -> bool:
    """Whether a joker led in this trick has power (and so names the suit to follow)."""
    return not in_tricks_nb(params[P_JOKER_POWERLESS], trick_no)


@njit(cache=True)
def demand_allowed_nb(params: np.ndarray, trump: int, trick_no: int, lead: int) -> bool:
    """Whether leading ``lead`` in this trick may demand the joker (lead-demand rule)."""
    if params[P_HUNTER_RULE] == HUNTER_NEXT_PLAYER:
        return False
    h = hunter_of_nb(params, trump)
    return h >= 0 and lead == h and in_tricks_nb(params[P_HUNTER_TRICKS], trick_no)


@njit(cache=True)
def suit_to_follow_nb(
    played: np.ndarray, n_played: int, trump: int, trick_no: int, joker_suit: int,
    params: np.ndarray,
) -> int:
    """Suit the next player must follow, or -1 when any card may be played."""
    lead = played[0]
    mighty = mighty_of_nb(params, trump)
    if lead == JOKER_BIT:
        if joker_led_with_power_nb(params, trick_no):
            suit = joker_suit
        elif n_played >= 2:
            suit = card_suit_nb(played[1])  # a powerless joker: the second card sets it
        else:
            suit = -1
    elif lead == mighty and not params[P_MIGHTY_LEAD_DEMANDS]:
        suit = -1
    else:
        suit = lead // 13
    start = params[P_MIGHTY_SETS_FROM]
    if start > 0 and trick_no >= start:
        for i in range(1, n_played):
            if played[i] == mighty:
                suit = mighty // 13
    return suit


@njit(cache=True)
def legal_plays_nb(
    hand: np.uint64, played: np.ndarray, n_played: int, trump: int, trick_no: int,
    joker_suit: int, demanded: bool, lead_request: int, params: np.ndarray,
) -> np.uint64:
    """Mask of the cards of ``hand`` that may be played next (docs/rules.md, standard: Play)."""
    joker = bit_nb(JOKER_BIT)
    if n_played == 0:
        allowed = hand
        if lead_request >= 0 and hand & suit_mask_nb(lead_request):
            allowed = hand & suit_mask_nb(lead_request)
        if in_tricks_nb(params[P_JOKER_NO_LEAD], trick_no) and allowed & ~joker:
            allowed &= ~joker
        if trick_no == 1:
            restricted = allowed
            if params[P_FIRST_NO_TRUMP] and trump != NO_TRUMP:
                restricted &= ~suit_mask_nb(trump)
            if params[P_FIRST_NO_JOKER]:
                restricted &= ~joker
            hunter = hunter_of_nb(params, trump)
            if params[P_FIRST_NO_HUNTER] and hunter >= 0:
                restricted &= ~bit_nb(hunter)
            if restricted:
                allowed = restricted
        return allowed
    if hand & joker:
        if params[P_HUNTER_RULE] == HUNTER_NEXT_PLAYER:
            if played[n_played - 1] == hunter_of_nb(params, trump):
                return joker
        elif demanded and demand_allowed_nb(params, trump, trick_no, played[0]):
            answer = joker
            mighty = bit_nb(mighty_of_nb(params, trump))
            if params[P_MIGHTY_ANSWERS] and hand & mighty:
                answer |= mighty
            return answer
    suit = suit_to_follow_nb(played, n_played, trump, trick_no, joker_suit, params)
    if suit < 0:
        return hand
    follow = hand & suit_mask_nb(suit)
    if follow == 0:
        return hand
    return follow | (hand & bit_nb(mighty_of_nb(params, trump))) | (hand & joker)


@njit(cache=True)
def joker_has_power_nb(
    played: np.ndarray, n_played: int, trump: int, trick_no: int, demanded: bool,
    params: np.ndarray,
) -> bool:
    """Whether a joker in this trick can win it."""
    if in_tricks_nb(params[P_JOKER_POWERLESS], trick_no):
        return False
    if not params[P_HUNTED_POWERLESS]:
        return True
    if params[P_HUNTER_RULE] == HUNTER_NEXT_PLAYER:
        hunter = hunter_of_nb(params, trump)
        for i in range(n_played):
            if played[i] == hunter:
                return False
        return True
    return not (demanded and demand_allowed_nb(params, trump, trick_no, played[0]))


@njit(cache=True)
def trick_winner_nb(
    played: np.ndarray, n_played: int, trump: int, trick_no: int, joker_suit: int,
    demanded: bool, params: np.ndarray,
) -> int:
    """Index into ``played`` of the winning card: Mighty, a powered joker, the highest
    trump, the highest card of the suit to follow; of equal cards the first played."""
    mighty = mighty_of_nb(params, trump)
    joker_at = -1
    best = -1  # the highest trump so far
    for i in range(n_played):  # one pass: most tricks hold neither Mighty nor the joker
        c = played[i]
        if c == mighty:
            return i
        if c == JOKER_BIT:
            if joker_at < 0:
                joker_at = i
        elif trump != NO_TRUMP and c // 13 == trump and (best < 0 or c > played[best]):
            best = i
    if joker_at >= 0 and joker_has_power_nb(played, n_played, trump, trick_no, demanded,
                                            params):
        return joker_at
    if best >= 0:
        return best
    suit = suit_to_follow_nb(played, n_played, trump, trick_no, joker_suit, params)
    for i in range(n_played):
        c = played[i]
        if c != JOKER_BIT and c // 13 == suit and (best < 0 or c > played[best]):
            best = i
    return best if best >= 0 else 0


@njit(cache=True)
def settle_nb(
    params: np.ndarray, bid: int, trump: int, taken: int, friend_kind: int, changed: bool
) -> tuple[float, float, float]:
    """Payouts (declarer, friend, each defender) of a finished deal (docs/rules.md: standard, ucla
    and russian scoring).

    ``taken`` is the declarer side's points (tricks in trick-bid profiles);
    ``friend_kind`` is 0 friend, 1 open solo, 2 secret solo; ``changed`` says the trump
    was changed after the exchange. The friend's payout is 0.0 in a solo.
    """
    scoring = params[P_SCORING]
    success = taken >= bid
    mult = 1
    if params[P_CHANGE_DOUBLES] and changed:
        mult *= 2
    if scoring == SCORING_ZERO_SUM:
        if success:
            s = 2 * (bid - params[P_MIN_BID]) + (taken - bid)
        else:
            s = bid - taken
        if params[P_DOUBLE_NT] and trump == NO_TRUMP:
            mult *= 2
        if params[P_DOUBLE_NO_FRIEND] and friend_kind == FRIEND_KIND_OPEN_SOLO:
            mult *= 2
        if params[P_DOUBLE_RUN] and taken == params[P_TOTAL_POINTS]:
            mult *= 2
        if params[P_DOUBLE_BACK_RUN] and taken <= params[P_BACK_RUN_THRESHOLD]:
            mult *= 2
        s *= mult
        if not success:
            s = -s
        n = params[P_PLAYERS]
        if friend_kind == FRIEND_KIND_FRIEND:
            return float((n - 3) * s), float(s), float(-s)
        return float((n - 1) * s), 0.0, float(-s)
    if scoring == SCORING_PENALTY:
        base = params[P_MIN_BID] - 1
        if success:
            return 0.0, 0.0, float(-(taken - base) * mult)
        short = params[P_PENALTY_FAILURE] == PENALTY_FAILURE_SHORTFALL
        pen = float(-((bid - taken) if short else (bid - base)) * mult)
        return pen, pen if friend_kind == FRIEND_KIND_FRIEND else 0.0, 0.0
    # trick scoring (not zero-sum): defenders score 0
    if success:
        sc = 10 * bid + 5 * (taken - bid)
    else:
        sc = -10 * bid - 5 * (bid - taken - 1)
    if params[P_DOUBLE_NT] and trump == NO_TRUMP:
        mult *= 2
    if params[P_DOUBLE_NO_FRIEND] and friend_kind == FRIEND_KIND_OPEN_SOLO:
        mult *= 2
    if params[P_DOUBLE_MAX_LEVEL] and bid == params[P_MAX_BID]:
        mult *= 2
    sc *= mult
    if params[P_LOSS_CAP] < 0 and sc < params[P_LOSS_CAP]:
        sc = params[P_LOSS_CAP]
    friend = 0.0
    if friend_kind == FRIEND_KIND_FRIEND:
        friend = sc * params[P_FRIEND_SHARE_MILLE] / 1000.0
    return float(sc), friend, 0.0


# -- batch entry points: one call per batch -------------------------------------------------


@njit(cache=True)
def legal_plays_batch_nb(
    hands: np.ndarray, played: np.ndarray, n_played: np.ndarray, trump: np.ndarray,
    trick_no: np.ndarray, joker_suit: np.ndarray, demanded: np.ndarray,
    lead_request: np.ndarray, params: np.ndarray, out: np.ndarray,
) -> None:
    """``legal_plays_nb`` over rows: ``hands`` (N,) uint64, ``played`` (N, P) int64, the
    other inputs (N,) int64; writes (N,) uint64 into ``out``."""
    for i in range(hands.shape[0]):
        out[i] = legal_plays_nb(
            hands[i], played[i], n_played[i], trump[i], trick_no[i], joker_suit[i],
            demanded[i] != 0, lead_request[i], params,
        )


@njit(cache=True)
def trick_winner_batch_nb(
    played: np.ndarray, n_played: np.ndarray, trump: np.ndarray, trick_no: np.ndarray,
    joker_suit: np.ndarray, demanded: np.ndarray, params: np.ndarray, out: np.ndarray,
) -> None:
    """``trick_winner_nb`` over rows; writes (N,) int64 indices into ``out``."""
    for i in range(played.shape[0]):
        out[i] = trick_winner_nb(
            played[i], n_played[i], trump[i], trick_no[i], joker_suit[i], demanded[i] != 0,
            params,
        )


@njit(cache=True)
def settle_batch_nb(
    params: np.ndarray, bid: np.ndarray, trump: np.ndarray, taken: np.ndarray,
    friend_kind: np.ndarray, changed: np.ndarray, out: np.ndarray,
) -> None:
    """``settle_nb`` over rows; writes (N, 3) float64 into ``out``."""
    for i in range(bid.shape[0]):
        d, f, x = settle_nb(params, bid[i], trump[i], taken[i], friend_kind[i], changed[i] != 0)
        out[i, 0] = d
        out[i, 1] = f
        out[i, 2] = x


# -- two decks: physical cards and their kinds ------------------------------------------


@njit(cache=True, inline="always")
def fold_nb(p0: np.uint64, p1: np.uint64) -> np.uint64:
    """Kinds held in a two-plane hand (any joker folds to bit 52)."""
    f = p0 | p1
    if f & JOKER_PAIR:
        f = (f & ~JOKER_PAIR) | (_ONE << np.uint64(JOKER_BIT))
    return f


@njit(cache=True)
def kind_nb(card: int) -> int:
    """Kind of a physical card id."""
    b = card & (PLANE_BITS - 1)
    return JOKER_BIT if b >= JOKER_BIT else b


@njit(cache=True, inline="always")
def copy_of_nb(p0: np.uint64, p1: np.uint64, kind: int) -> int:
    """The lowest physical copy of ``kind`` in a two-plane hand that holds one."""
    m = JOKER_PAIR if kind == JOKER_BIT else bit_nb(kind)
    if p0 & m:
        return lowest_card_nb(p0 & m)
    return PLANE_BITS + lowest_card_nb(p1 & m)
