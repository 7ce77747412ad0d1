"""Player policies as kernels: ``random`` and the auction, exchange, contract and friend
call of ``heuristic`` and ``baseline`` (their card play: :mod:`.play_policy_nb`).

``random`` draws exactly what :class:`mighty_sim.reference.players.RandomPlayer` draws, in
the same order, so kernel and reference play identical deals from the same stream.

``heuristic`` decides as a club player; ``baseline`` is the first heuristic, kept
unchanged as a yardstick for duels (it differs where marked below):

- **Bidding.** It estimates its hand's strength for each strain: Mighty 2.5, joker 2,
  each trump 1, trump A/K/Q 1/0.7/0.4 more, long trumps 0.5 per card past five, side aces
  1 (NT 1.3), side kings 0.4 (NT 0.5). NT is its strain only when the hand's NT edge
  (joker, kings and cards running from an ace for NT, the longest suit against it)
  reaches ``nt_margin``. It will bid up to ``bid_base + strength_scale *
  strength + aggressiveness`` points (in trick-bid profiles, that share of the tricks;
  with two decks, the whole hand's strength and the points in proportion) in its
  best strain, making the lowest bid that beats the standing one. Over another seat's
  contract it bids ``friend_margin`` points less while it holds that contract's Mighty,
  where the rules let the declarer call a friend: the declarer will call it.
  (baseline: no such margin.)
- **Weak hands.** It shows a weak hand (by the profile's scale) only when the hand's
  strength in its best strain is below ``weak_show``: Mighty and the joker alone make
  4.5, so such a hand is played. (baseline: whenever it may.)
- **Exchange.** It keeps Mighty, joker, trumps, aces and guarded kings, discards to void
  short side suits and buries doubtful side points (discards count for its side).
- **Contract.** It changes trump only when another strain is stronger by
  ``change_margin`` and the required bid stays within its estimate; otherwise it raises
  its bid, where the rules allow, to its ceiling with the hand it now holds less
  ``raise_margin``. (baseline: never raises.)
- **Friend.** It calls Mighty, else the joker, else the top trump it lacks, else the best
  card it lacks (aces, then kings...; baseline: a side ace, else the deck's lowest card);
  with a strength of at least ``solo_threshold`` (per ten cards) it goes openly without
  friend.

Policy parameters per seat: a row of ``pp`` (``PP_*`` slots of :mod:`.layout`): the
aggressiveness and the bidding parameters named above, tuned per profile
(:class:`mighty_sim.engine.players.HeuristicParams`).
"""

from __future__ import annotations

import numpy as np

from ...rules.cards import PLANE_BITS
from .._jit import njit
from ..layout import (
    POLICY_BASELINE,
    POLICY_RANDOM,
    PP_AGGRESSIVENESS,
    PP_BID_BASE,
    PP_BURY,
    PP_CHANGE_MARGIN,
    PP_FRIEND_MARGIN,
    PP_NT_MARGIN,
    PP_RAISE_MARGIN,
    PP_SOLO_THRESHOLD,
    PP_STRAIN_FIT,
    PP_STRENGTH_SCALE,
    PP_WEAK_SHOW,
)
from ..params import (
    BID_TRICKS,
    MODE_CALLED,
    MODE_FIRST_TRICK,
    MODE_NONE,
    P_BID_UNIT,
    P_FRIEND_MODE_0,
    P_FRIEND_MODE_COUNT,
    P_HAND_SIZE,
    P_MAX_BID,
    P_MIGHTY,
    P_TOTAL_POINTS,
)
from ..rng_nb import below_nb, chance_nb
from ..rules.auction_nb import (
    can_contract_nb,
    kth_legal_bid_nb,
    kth_other_contract_nb,
    legal_bid_count_nb,
    lowest_bid_in_nb,
    min_contract_bid_nb,
    other_contract_count_nb,
)
from ..rules.rules_nb import (
    JOKER_BIT,
    NO_TRUMP,
    bit_nb,
    copy_of_nb,
    fold_nb,
    has_nb,
    kth_card_nb,
    lowest_card_nb,
    mighty_of_nb,
    popcount_nb,
    suit_mask_nb,
)
from . import strain_fit

WEAK = -2
PASS = -1
_RANK_0 = np.uint64(sum(1 << (13 * s) for s in range(4)))  # the 2 of every suit
_JOKER_MASK = np.uint64(1 << JOKER_BIT)
_RANKS = np.uint64(0x1FFF)  # the 13 ranks of one suit


def _suit_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per 13-bit suit pattern (rank r at bit r), in whole tenths of ``strength_nb``: the
    suit as trump, as a side suit, as a side suit in NT; and in quarters of
    ``nt_edge_nb``, its king, its ace and the cards running down from the ace."""
    bits = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1  # pattern x rank
    n = bits.sum(axis=1)
    ace, king, queen = bits[:, 12], bits[:, 11], bits[:, 10]
    guarded = king & ((ace == 1) | (n >= 3))
    trump = 10 * n + 10 * ace + 7 * king + 4 * queen + 5 * np.maximum(n - 5, 0)
    side = 10 * ace + 4 * guarded
    nt_side = 13 * ace + 5 * guarded + 5 * np.where(ace == 1, np.maximum(n - 4, 0), 0)
    run = np.cumprod(bits[:, ::-1], axis=1).sum(axis=1)  # the ranks held from the ace down
    edge = 15 * king + 4 * ace + 13 * run
    return (trump.astype(np.int16), side.astype(np.int16), nt_side.astype(np.int16),
            edge.astype(np.int16))


_TRUMP_T, _SIDE_T, _NT_SIDE_T, _EDGE_Q = _suit_tables()
# the strain score fitted to odds (strain_fit): per-pattern tables and the scalar weights
_FIT_TRUMP = strain_fit.milli(strain_fit.trump_table())
_FIT_SIDE = strain_fit.milli(strain_fit.side_table())
_FIT_NT = strain_fit.milli(strain_fit.nt_table())
_M_MIGHTY, _M_JOKER = (int(v) for v in strain_fit.milli(strain_fit.split(strain_fit.WEIGHTS)[0]))
_M_NT, _M_NT_MIGHTY, _M_NT_JOKER, _M_NT_L1, _M_NT_L2 = (
    int(v) for v in strain_fit.milli(strain_fit.split(strain_fit.WEIGHTS)[3]))


# -- hand strength ------------------------------------------------------------------------


@njit(cache=True, inline="always")
def strength_nb(hand: np.uint64, trump: int, params: np.ndarray) -> float:
    """Heuristic strength of a hand with ``trump`` (see the module docstring). The terms
    are added in one fixed order, a term that does not apply as 0.0 (the same sum, bit for
    bit, without a branch a term)."""
    mighty = mighty_of_nb(params, trump)
    nt = trump == NO_TRUMP
    side_ace = 1.3 if nt else 1.0
    side_king = 0.5 if nt else 0.4
    s = 0.0
    s += 2.5 if has_nb(hand, mighty) else 0.0
    s += 2.0 if has_nb(hand, JOKER_BIT) else 0.0
    for suit in range(4):
        cards = hand & suit_mask_nb(suit) & ~bit_nb(mighty)
        n = popcount_nb(cards)
        top = suit * 13 + 12
        ace = has_nb(cards, top)
        king = has_nb(cards, top - 1)
        if suit == trump:
            s += n
            s += 1.0 if ace else 0.0
            s += 0.7 if king else 0.0
            s += 0.4 if has_nb(cards, top - 2) else 0.0
            s += 0.5 * (n - 5) if n > 5 else 0.0
        else:
            s += side_ace if ace else 0.0
            s += side_king if king and (ace or n >= 3) else 0.0
            s += 0.5 * (n - 4) if nt and ace and n > 4 else 0.0
    return s


@njit(cache=True, inline="always")
def nt_edge_nb(hand: np.uint64, params: np.ndarray) -> float:
    """How much better a hand suits NT than its best suit: an estimate, in units of
    `standard`'s payout at the bid, of NT's expected payout minus the best suit's. Its
    weights are a least-squares fit to ``mighty-sim odds`` over 2,500 `standard` auction
    winners (docs/players.md): the joker (5.5) and kings (3.75), which win without
    trumps, aces but Mighty (1), Mighty (0.5) and each card running down from a suit's
    ace (3.25) count for NT; each card of the longest suit (2.5), which would make a good
    trump, counts against it, from a base of -10. Every term is a multiple of 1/4, so the
    edge is summed in whole quarters (a suit's terms read from one table) and is exact."""
    mighty = mighty_of_nb(params, NO_TRUMP)
    q = -40
    if has_nb(hand, JOKER_BIT):
        q += 22
    if has_nb(hand, mighty):
        q += 2
        if mighty % 13 == 12:
            q -= 4  # Mighty's ace is not an ace here
    longest = 0
    for suit in range(4):
        cards = (hand >> np.uint64(13 * suit)) & _RANKS
        longest = max(longest, popcount_nb(cards))
        q += _EDGE_Q[cards]
    return (q - 10 * longest) * 0.25


@njit(cache=True, inline="always")
def strength_tenths_nb(hand: np.uint64, trump: int, params: np.ndarray) -> int:
    """``strength_nb`` in exact tenths, in integers (a suit's terms read from one table):
    its every term is a whole number of tenths, so two strains whose tenths differ differ
    in ``strength_nb`` the same way (its rounding is far below a tenth); only equal tenths
    need the float sums."""
    mighty = mighty_of_nb(params, trump)
    t = 25 if has_nb(hand, mighty) else 0
    t += 20 if has_nb(hand, JOKER_BIT) else 0
    rest = hand & ~bit_nb(mighty)
    for suit in range(4):
        cards = (rest >> np.uint64(13 * suit)) & _RANKS
        if suit == trump:
            t += _TRUMP_T[cards]
        elif trump == NO_TRUMP:
            t += _NT_SIDE_T[cards]
        else:
            t += _SIDE_T[cards]
    return t


@njit(cache=True, inline="always")
def _suit_tenths_nb(hand: np.uint64, params: np.ndarray) -> tuple[int, int, int, int]:
    """``strength_tenths_nb`` of the four suits as trump: the side suits' sum shared, the
    strain whose Mighty is another card (its suit holds the usual Mighty) apart."""
    m0 = params[P_MIGHTY]
    base = (25 if has_nb(hand, m0) else 0) + (20 if has_nb(hand, JOKER_BIT) else 0)
    own = m0 // 13  # under this suit as trump, Mighty is the alternative card
    return _suits_as_trump_nb(hand & ~bit_nb(m0), base, _SIDE_T, _TRUMP_T, own,
                              strength_tenths_nb(hand, own, params))


@njit(cache=True, inline="always")
def _suits_as_trump_nb(rest: np.uint64, base: int, side_t: np.ndarray, trump_t: np.ndarray,
                       own: int, own_value: int) -> tuple[int, int, int, int]:
    """Each suit's value as trump from per-pattern tables: ``base`` plus the other
    suits' side values (their sum shared) plus its own trump value, ``rest`` the hand
    without the usual Mighty; suit ``own`` (under which Mighty is another card) is given
    ``own_value``, worked out apart."""
    c0, c1 = rest & _RANKS, (rest >> np.uint64(13)) & _RANKS
    c2, c3 = (rest >> np.uint64(26)) & _RANKS, (rest >> np.uint64(39)) & _RANKS
    s0, s1, s2, s3 = side_t[c0], side_t[c1], side_t[c2], side_t[c3]
    base += s0 + s1 + s2 + s3
    v0, v1 = base - s0 + trump_t[c0], base - s1 + trump_t[c1]
    v2, v3 = base - s2 + trump_t[c2], base - s3 + trump_t[c3]
    if own == 0:
        v0 = own_value
    elif own == 1:
        v1 = own_value
    elif own == 2:
        v2 = own_value
    elif own == 3:
        v3 = own_value
    return v0, v1, v2, v3


@njit(cache=True, inline="always")
def strain_score_nb(hand: np.uint64, trump: int, params: np.ndarray) -> int:
    """The payout the hand is expected to make in strain ``trump``, as fitted to ``odds``
    (:mod:`.strain_fit`; a score to compare strains by), in thousandths of a unit: a
    suit's pattern read from the trump or side table, Mighty out of its suit; in NT, from
    the NT table, Mighty in its suit, with the two longest suits' lengths."""
    mighty = mighty_of_nb(params, trump)
    joker = has_nb(hand, JOKER_BIT)
    if trump == NO_TRUMP:
        s = _M_NT + (_M_NT_MIGHTY if has_nb(hand, mighty) else 0)
        s += _M_NT_JOKER if joker else 0
        first, second = 0, 0
        for suit in range(4):
            cards = (hand >> np.uint64(13 * suit)) & _RANKS
            s += _FIT_NT[cards]
            n = popcount_nb(cards)
            if n > first:
                first, second = n, first
            elif n > second:
                second = n
        return s + _M_NT_L1 * first + _M_NT_L2 * second
    s = (_M_MIGHTY if has_nb(hand, mighty) else 0) + (_M_JOKER if joker else 0)
    rest = hand & ~bit_nb(mighty)
    for suit in range(4):
        cards = (rest >> np.uint64(13 * suit)) & _RANKS
        s += _FIT_TRUMP[cards] if suit == trump else _FIT_SIDE[cards]
    return s


@njit(cache=True, inline="always")
def _fitted_strain_nb(hand: np.uint64, params: np.ndarray, margin: float) -> int:
    """The strain of the highest fitted score (:func:`strain_score_nb`; the first suit
    on a tie), NT only when its score beats the best suit's by ``margin`` units. The
    suits whose Mighty is the usual one share their side suits' sum; the suit holding
    the usual Mighty (under which Mighty is another card) is scored apart."""
    m0 = params[P_MIGHTY]
    own = m0 // 13
    base = (_M_MIGHTY if has_nb(hand, m0) else 0) + (_M_JOKER if has_nb(hand, JOKER_BIT) else 0)
    v0, v1, v2, v3 = _suits_as_trump_nb(hand & ~bit_nb(m0), base, _FIT_SIDE, _FIT_TRUMP, own,
                                        strain_score_nb(hand, own, params))
    best, best_v = 0, v0
    if v1 > best_v:
        best, best_v = 1, v1
    if v2 > best_v:
        best, best_v = 2, v2
    if v3 > best_v:
        best, best_v = 3, v3
    if strain_score_nb(hand, NO_TRUMP, params) - best_v >= margin * 1000.0:
        return NO_TRUMP
    return best


@njit(cache=True, inline="always")
def best_strain_nb(hand: np.uint64, params: np.ndarray, pp: np.ndarray) -> tuple[int, float]:
    """The heuristic's strain for a hand and that strain's strength: NT when its NT edge
    (``nt_edge_nb``) reaches the player's NT margin, else the strongest suit (the first
    of the strongest by ``strength_nb``). The suits are ranked in exact tenths
    (``strength_tenths_nb``); the float strengths are summed only for the suits at the
    top, where they decide between equal tenths. A player with ``strain_fit`` chooses by
    the score fitted to odds instead (:func:`strain_score_nb`), with that strain's
    strength (NT's: as above)."""
    fit = pp[PP_STRAIN_FIT] > 0.5
    if fit:
        fitted = _fitted_strain_nb(hand, params, pp[PP_NT_MARGIN])
        if fitted != NO_TRUMP:
            return fitted, strength_nb(hand, fitted, params)
    t0, t1, t2, t3 = _suit_tenths_nb(hand, params)
    top = max(max(t0, t1), max(t2, t3))
    if (t0 == top) + (t1 == top) + (t2 == top) + (t3 == top) == 1:
        best = 0 if t0 == top else 1 if t1 == top else 2 if t2 == top else 3
        best_s = strength_nb(hand, best, params)
    else:  # equal tenths: the first of the highest float sums
        best, best_s = 0, -1.0
        for t in range(4):
            tenths = t0 if t == 0 else t1 if t == 1 else t2 if t == 2 else t3
            if tenths == top:
                s = strength_nb(hand, t, params)
                if s > best_s:
                    best, best_s = t, s
    if fit or nt_edge_nb(hand, params) >= pp[PP_NT_MARGIN]:
        return NO_TRUMP, max(best_s, strength_nb(hand, NO_TRUMP, params))
    return best, best_s


@njit(cache=True)
def bid_ceiling_nb(strength: float, pp: np.ndarray, params: np.ndarray,
                   margin: float = 0.0) -> int:
    """Highest number the heuristic player will bid: the points it expects its side to
    take (less ``margin``), or in trick-bid profiles the same share of the tricks. The
    estimate is made in points of a 20-point deck and scaled to the deck's (40 with two
    decks, where the strength is that of the whole hand: its scale is tuned for the hand
    size)."""
    points = pp[PP_BID_BASE] + pp[PP_STRENGTH_SCALE] * strength + pp[PP_AGGRESSIVENESS]
    points -= margin
    if params[P_BID_UNIT] == BID_TRICKS:
        points = points * params[P_HAND_SIZE] / params[P_TOTAL_POINTS]
    elif params[P_TOTAL_POINTS] != 20:  # two decks: the strength of the whole hand, the
        points = points * (params[P_TOTAL_POINTS] / 20.0)  # points in proportion
    return min(int(points), params[P_MAX_BID])


# -- auction --------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def auction_decide_nb(
    policy: int, pp: np.ndarray, st: np.ndarray, hand: np.uint64, can_weak: bool,
    high_number: int, high_trump: int, params: np.ndarray, trump: int, strength: float,
) -> tuple[int, int]:
    """(WEAK, 0), (PASS, 0) or (number, trump) for a bidder; ``trump`` and ``strength``
    are the heuristic's preferred strain and its strength (see ``best_strain_nb``)."""
    if policy == POLICY_RANDOM:
        count = legal_bid_count_nb(params, high_number, high_trump)
        if can_weak and chance_nb(st, 1, 2):
            return WEAK, 0
        if count == 0 or chance_nb(st, 1, 2):
            return PASS, 0
        return kth_legal_bid_nb(params, high_number, high_trump, below_nb(st, min(count, 10)))
    if can_weak and (policy == POLICY_BASELINE or strength < pp[PP_WEAK_SHOW]):
        return WEAK, 0
    ceiling = bid_ceiling_nb(strength, pp, params)
    if high_number > 0 and policy != POLICY_BASELINE and mode_allowed_nb(
            params, MODE_CALLED) and has_nb(hand, mighty_of_nb(params, high_trump)):
        # another seat's contract, whose declarer calls this hand's Mighty as friend:
        # bidding over it raises what the side must make
        ceiling -= int(pp[PP_FRIEND_MARGIN])
    number = lowest_bid_in_nb(params, high_number, high_trump, trump)
    if 0 < number <= ceiling:
        return number, trump
    return PASS, 0


# -- exchange, contract, friend -------------------------------------------------------------


@njit(cache=True, inline="always")
def _side_keep_nb(rank: int, length: int, has_ace: bool, bury: int) -> int:
    """``keep_value_nb`` of a side card (not Mighty, not the joker) of ``rank`` in a suit of
    ``length`` cards, the suit's ace held or not: a whole number; ``bury`` (the seat's
    ``HeuristicParams.bury``) is taken off a point card without its ace."""
    if rank == 12:
        return rank + 20
    v = rank
    if rank == 11 and has_ace:
        v += 10
    if not has_ace:
        if length <= 2:
            v -= 8  # void a short side suit
        if rank >= 8:
            v -= bury  # bury a doubtful point: discarded, it is the declarer side's
    return v


@njit(cache=True, inline="always")
def keep_value_nb(hand: np.uint64, card: int, trump: int, params: np.ndarray,
                  bury: int) -> float:
    """How much the heuristic declarer wants to keep a card (a whole number; ``bury``:
    the seat's ``HeuristicParams.bury``)."""
    if card == JOKER_BIT or card == mighty_of_nb(params, trump):
        return 100.0
    suit, rank = card // 13, card % 13
    if suit == trump:
        return 30.0 + rank
    return float(_side_keep_nb(rank, popcount_nb(hand & suit_mask_nb(suit)),
                               has_nb(hand, suit * 13 + 12), bury))


@njit(cache=True)
def exchange_decide_nb(
    policy: int, pp: np.ndarray, st: np.ndarray, p0: np.uint64, p1: np.uint64,
    discard_count: int, trump: int, params: np.ndarray,
) -> tuple[np.uint64, np.uint64]:
    """The cards the declarer discards from its hand ``p0`` (with two decks, ``p1`` the
    second deck's cards; else 0), a mask a deck. ``random`` draws them one by one among
    the cards left (the first deck's low to high, then the second's); ``heuristic``
    discards the kind it least wants to keep (``least_wanted_nb``, burying doubtful
    points by the seat's ``pp[PP_BURY]``), its lowest copy."""
    d0, d1 = np.uint64(0), np.uint64(0)
    bury = int(pp[PP_BURY])
    for _ in range(discard_count):
        r0, r1 = p0 & ~d0, p1 & ~d1
        if policy == POLICY_RANDOM:
            a = popcount_nb(r0)
            i = below_nb(st, a + popcount_nb(r1))
            card = kth_card_nb(r0, i) if i < a else PLANE_BITS + kth_card_nb(r1, i - a)
        else:
            card = copy_of_nb(r0, r1, least_wanted_nb(fold_nb(r0, r1), trump, params, bury))
        if card >= PLANE_BITS:
            d1 |= bit_nb(card - PLANE_BITS)
        else:
            d0 |= bit_nb(card)
    return d0, d1


@njit(cache=True)
def least_wanted_nb(hand: np.uint64, trump: int, params: np.ndarray, bury: int) -> int:
    """The card of a non-empty hand the heuristic declarer least wants to keep
    (``keep_value_nb``; the lowest such card on a tie).

    Not every card needs its value: within a suit a card's value depends on its rank and
    on the suit's length and ace, and rises with the rank but where a side suit without
    its ace makes a 10 or higher worth ``bury`` less (``keep_value_nb``). So each suit offers at
    most two candidates, its lowest card and, without the ace, its lowest point card;
    Mighty and the joker (100) only when nothing else is left. Every value is a whole
    number, so the values are compared as integers, with the card below them in one key
    (the lowest card on a tie)."""
    special = bit_nb(mighty_of_nb(params, trump)) | _JOKER_MASK
    plain = hand & ~special
    best_key = 1 << 30
    for suit in range(4):
        shift = np.uint64(13 * suit)
        cards = (plain >> shift) & _RANKS
        if not cards:
            continue
        r = lowest_card_nb(cards)
        if suit == trump:
            key = (30 + r) * 64 + 13 * suit + r
        else:
            whole = (hand >> shift) & _RANKS
            length = popcount_nb(whole)
            has_ace = whole >> np.uint64(12) != 0
            key = _side_keep_nb(r, length, has_ace, bury) * 64 + 13 * suit + r
            if not has_ace:
                points = cards >> np.uint64(8)
                if points:
                    r1 = lowest_card_nb(points) + 8
                    key = min(key,
                              _side_keep_nb(r1, length, has_ace, bury) * 64 + 13 * suit + r1)
        best_key = min(best_key, key)
    if best_key == 1 << 30:
        return lowest_card_nb(hand & special)
    return best_key & 63


@njit(cache=True)
def contract_decide_nb(
    policy: int, pp: np.ndarray, st: np.ndarray, hand: np.uint64, bid: int, trump: int,
    params: np.ndarray,
) -> tuple[int, int]:
    """Final (bid, trump) after the exchange."""
    if policy == POLICY_RANDOM:
        others = other_contract_count_nb(params, bid, trump)
        if others == 0 or chance_nb(st, 1, 2):
            return bid, trump
        return kth_other_contract_nb(params, bid, trump, below_nb(st, others))
    best, best_s = best_strain_nb(hand, params, pp)
    if best != trump and best_s >= strength_nb(hand, trump, params) + pp[PP_CHANGE_MARGIN]:
        need = min_contract_bid_nb(params, bid, trump, best)
        if need > 0 and need <= bid_ceiling_nb(best_s, pp, params):
            return need, best
    if policy != POLICY_BASELINE:  # raise to what the hand now promises
        target = bid_ceiling_nb(strength_nb(hand, trump, params), pp, params,
                                pp[PP_RAISE_MARGIN])
        for b in range(target, bid, -1):
            if can_contract_nb(params, bid, trump, b, trump):
                return b, trump
    return bid, trump


@njit(cache=True)
def blind_raise_decide_nb(
    policy: int, st: np.ndarray, bid: int, trump: int, params: np.ndarray
) -> tuple[int, int]:
    """The contract before the blind is seen (rank-gap profiles); the heuristic keeps it."""
    if policy == POLICY_RANDOM:
        higher = other_contract_count_nb(params, bid, trump, True)
        if higher == 0 or chance_nb(st, 1, 2):
            return bid, trump
        return kth_other_contract_nb(params, bid, trump, below_nb(st, higher), True)
    return bid, trump


@njit(cache=True, inline="always")
def mode_allowed_nb(params: np.ndarray, mode: int) -> bool:
    """Whether the profile lets the declarer choose friend ``mode``."""
    for k in range(params[P_FRIEND_MODE_COUNT]):
        if params[P_FRIEND_MODE_0 + k] == mode:
            return True
    return False


@njit(cache=True)
def friend_decide_nb(
    policy: int, pp: np.ndarray, st: np.ndarray, hand: np.uint64, discards: np.uint64,
    bid: int, trump: int, deck_cards: np.ndarray, lead_request_ok: bool, params: np.ndarray,
) -> tuple[int, int, int]:
    """(mode, called card or -1, lead request suit or -1); ``deck_cards`` are the card
    kinds that may be called, low to high."""
    n_modes = params[P_FRIEND_MODE_COUNT]
    if policy == POLICY_RANDOM:
        mode = params[P_FRIEND_MODE_0 + below_nb(st, n_modes)]
        card = -1
        if mode == MODE_CALLED:
            card = deck_cards[below_nb(st, deck_cards.shape[0])]
        request = -1
        if mode != MODE_NONE and lead_request_ok and chance_nb(st, 1, 2):
            request = below_nb(st, 4)
        return mode, card, request
    allowed_called = mode_allowed_nb(params, MODE_CALLED)
    allowed_first = mode_allowed_nb(params, MODE_FIRST_TRICK)
    allowed_none = mode_allowed_nb(params, MODE_NONE)
    monster = pp[PP_SOLO_THRESHOLD] * params[P_HAND_SIZE] / 10.0  # per ten cards
    if allowed_none and (strength_nb(hand, trump, params) >= monster or not (
            allowed_called or allowed_first)):
        return MODE_NONE, -1, -1
    if not allowed_called:
        return MODE_FIRST_TRICK, -1, -1
    mine = hand | discards
    mighty = mighty_of_nb(params, trump)
    if not has_nb(mine, mighty):
        return MODE_CALLED, mighty, -1
    if not has_nb(mine, JOKER_BIT) and deck_cards[-1] == JOKER_BIT:
        return MODE_CALLED, JOKER_BIT, -1
    if trump != NO_TRUMP:
        for rank in range(12, -1, -1):
            c = trump * 13 + rank
            if not has_nb(mine, c):
                return MODE_CALLED, c, -1
    if policy == POLICY_BASELINE:
        for suit in range(4):
            c = suit * 13 + 12
            if c != mighty and not has_nb(mine, c):
                return MODE_CALLED, c, -1
        return MODE_CALLED, deck_cards[0], -1
    for rank in range(12, -1, -1):  # the best card not held: aces, then kings...
        for suit in range(4):
            c = suit * 13 + rank
            if c != mighty and not has_nb(mine, c):
                return MODE_CALLED, c, -1
    if allowed_none:
        return MODE_NONE, -1, -1
    return MODE_CALLED, deck_cards[0], -1
