"""A rule profile compiled into one ``int64`` array that every kernel reads.

The kernels never look at a profile's name: everything they need is a slot of this
array, named by the ``P_*`` constants below (plain ints, which Numba folds into
constants). Trick sets are bitmasks over trick numbers (bit t = trick t, from 1).
Weak-hand weights are stored in quarter units, the friend share in thousandths.

>>> from mighty_sim.rules.profile import load_profile
>>> params = compile_profile(load_profile("standard"))
>>> int(params[P_PLAYERS]), int(params[P_MIGHTY]), int(params[P_HUNTER])
(5, 12, 40)
"""

from __future__ import annotations

from typing import Any, get_args

import numpy as np

from ..rules.cards import parse_card
from ..rules.profile import (
    BidUnit,
    DealerRule,
    FirstBidder,
    FriendMode,
    HunterRule,
    PenaltyFailure,
    RaiseRule,
    RaiseUnit,
    RuleProfile,
    Scoring,
    StrainOrder,
    WeakHandWhen,
    WeakRedealer,
)

(
    P_PLAYERS,
    P_HAND_SIZE,
    P_BLIND_SIZE,
    P_DECK_COPIES,
    P_TOTAL_POINTS,
    P_BID_UNIT,
    P_MIN_BID,
    P_MAX_BID,
    P_STRAIN_ORDER,
    P_PASSES_PERMANENT,
    P_WEAK_WHEN,
    P_WEAK_MIGHTY_Q,
    P_WEAK_JOKER_Q,
    P_WEAK_HONOR_Q,
    P_WEAK_TEN_Q,
    P_WEAK_THRESHOLD_Q,
    P_WEAK_STRICT,
    P_RAISE_RULE,
    P_COST_SUIT,
    P_COST_NT,
    P_CHANGE_DOUBLES,
    P_MIGHTY,
    P_MIGHTY_ALT,
    P_HUNTER,
    P_HUNTER_ALT,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_MIGHTY_ANSWERS,
    P_HUNTED_POWERLESS,
    P_JOKER_POWERLESS,
    P_JOKER_NO_LEAD,
    P_FIRST_NO_TRUMP,
    P_FIRST_NO_JOKER,
    P_FIRST_NO_HUNTER,
    P_MIGHTY_LEAD_DEMANDS,
    P_MIGHTY_SETS_FROM,
    P_SCORING,
    P_DOUBLE_NT,
    P_DOUBLE_NO_FRIEND,
    P_DOUBLE_RUN,
    P_DOUBLE_BACK_RUN,
    P_BACK_RUN_THRESHOLD,
    P_DOUBLE_MAX_LEVEL,
    P_LOSS_CAP,
    P_FRIEND_SHARE_MILLE,
    P_NT_LEAD_REQUEST,
    P_FRIEND_MODE_COUNT,
    P_FRIEND_MODE_0,
    P_FRIEND_MODE_1,
    P_FRIEND_MODE_2,
    P_RANK_GAP_AFTER,
    P_RANK_GAP_BEFORE,
    P_RAISE_UNIT,
    P_RAISE_AFTER_EXCHANGE,
    P_WEAK_REDEALER,
    P_PENALTY_FAILURE,
    P_DEALER_RULE,
    P_FIRST_BIDDER_RULE,
    P_DECK_SIZE,
    P_DECK_MASK,
    P_JOKERS,
    P_PACKET_COUNT,
    P_PACKET_0,
) = range(63)
MAX_PACKETS = 12
N_PARAMS = P_PACKET_0 + MAX_PACKETS



def code(option: str, literal: Any) -> int:
    """A profile option's code for the kernels: its place among the ``Literal``'s options
    (stated once, in :mod:`mighty_sim.rules.profile`).

    >>> code("tricks", BidUnit), code("bridge", StrainOrder)
    (1, 1)
    """
    return get_args(literal).index(option)


def _codes(literal: Any) -> range:
    return range(len(get_args(literal)))


# enum codes, derived from the profile's Literal options (unpacking checks their number)
BID_POINTS, BID_TRICKS = _codes(BidUnit)
STRAIN_NT_OVER_SUITS, STRAIN_BRIDGE = _codes(StrainOrder)
WEAK_FIRST_TURN, WEAK_BEFORE_END, WEAK_NEVER = _codes(WeakHandWhen)
RAISE_CHANGE_COST, RAISE_RANK_GAP = _codes(RaiseRule)
RAISE_UNIT_RANK, RAISE_UNIT_LEVEL = _codes(RaiseUnit)
REDEALER_REQUESTER, REDEALER_DEALER = _codes(WeakRedealer)
PENALTY_FAILURE_BID, PENALTY_FAILURE_SHORTFALL = _codes(PenaltyFailure)
HUNTER_LEAD_DEMAND, HUNTER_NEXT_PLAYER = _codes(HunterRule)
SCORING_ZERO_SUM, SCORING_TRICKS, SCORING_PENALTY = _codes(Scoring)
MODE_CALLED, MODE_FIRST_TRICK, MODE_NONE = _codes(FriendMode)
DEALER_FRIEND, DEALER_CLOCKWISE, DEALER_FRIEND_FIRST_DEALT = _codes(DealerRule)
FIRST_BIDDER_DEALER_THEN_DECLARER, FIRST_BIDDER_LEFT_OF_DEALER, FIRST_BIDDER_FIRST_DEALT = (
    _codes(FirstBidder))
FRIEND_MODES: tuple[str, ...] = get_args(FriendMode)
FRIEND_KINDS = ("friend", "open-solo", "secret-solo")
"""Settlement kinds (the dataset's ``friend_kind``) by their FRIEND_KIND_* code."""
FRIEND_KIND_FRIEND, FRIEND_KIND_OPEN_SOLO, FRIEND_KIND_SECRET_SOLO = range(len(FRIEND_KINDS))


def _bit(card: str) -> int:
    return parse_card(card).bit_length() - 1 if card else -1


def _tricks_mask(profile: RuleProfile, tricks: tuple[int, ...]) -> int:
    return sum(1 << t for t in profile.resolve_tricks(tricks))


def compile_profile(profile: RuleProfile) -> np.ndarray:
    """The ``int64`` parameter array of a profile (shape ``(N_PARAMS,)``)."""
    p = profile
    v = [0] * N_PARAMS
    v[P_PLAYERS] = p.players
    v[P_HAND_SIZE] = p.hand_size
    v[P_BLIND_SIZE] = p.blind_size
    v[P_DECK_COPIES] = p.deck_copies
    v[P_TOTAL_POINTS] = p.total_points
    v[P_BID_UNIT] = code(p.bid_unit, BidUnit)
    v[P_MIN_BID] = p.min_bid
    v[P_MAX_BID] = p.max_bid
    v[P_STRAIN_ORDER] = code(p.strain_order, StrainOrder)
    v[P_PASSES_PERMANENT] = int(p.passes_permanent)
    v[P_WEAK_WHEN] = code(p.weak_hand_when, WeakHandWhen)
    v[P_WEAK_MIGHTY_Q] = int(p.weak_mighty * 4)
    v[P_WEAK_JOKER_Q] = int(p.weak_joker * 4)
    v[P_WEAK_HONOR_Q] = int(p.weak_honor * 4)
    v[P_WEAK_TEN_Q] = int(p.weak_ten * 4)
    v[P_WEAK_THRESHOLD_Q] = int(p.weak_threshold * 4)
    v[P_WEAK_STRICT] = int(p.weak_strict)
    v[P_RAISE_RULE] = code(p.raise_rule, RaiseRule)
    v[P_COST_SUIT] = p.trump_change_cost_suit
    v[P_COST_NT] = p.trump_change_cost_nt
    v[P_CHANGE_DOUBLES] = int(p.trump_change_doubles)
    v[P_MIGHTY] = _bit(p.mighty)
    v[P_MIGHTY_ALT] = _bit(p.mighty_alternative)
    v[P_HUNTER] = _bit(p.hunter)
    v[P_HUNTER_ALT] = _bit(p.hunter_alternative) if p.hunter else -1
    v[P_HUNTER_RULE] = code(p.hunter_rule, HunterRule)
    v[P_HUNTER_TRICKS] = _tricks_mask(p, p.hunter_tricks)
    v[P_MIGHTY_ANSWERS] = int(p.mighty_answers_demand)
    v[P_HUNTED_POWERLESS] = int(p.hunted_joker_powerless)
    v[P_JOKER_POWERLESS] = _tricks_mask(p, p.joker_powerless_tricks)
    v[P_JOKER_NO_LEAD] = _tricks_mask(p, p.joker_no_lead_tricks)
    v[P_FIRST_NO_TRUMP] = int(p.first_lead_no_trump)
    v[P_FIRST_NO_JOKER] = int(p.first_lead_no_joker)
    v[P_FIRST_NO_HUNTER] = int(p.first_lead_no_hunter)
    v[P_MIGHTY_LEAD_DEMANDS] = int(p.mighty_lead_demands_suit)
    v[P_MIGHTY_SETS_FROM] = p.mighty_sets_suit_from_trick
    v[P_SCORING] = code(p.scoring, Scoring)
    v[P_DOUBLE_NT] = int(p.double_no_trump)
    v[P_DOUBLE_NO_FRIEND] = int(p.double_no_friend)
    v[P_DOUBLE_RUN] = int(p.double_run)
    v[P_DOUBLE_BACK_RUN] = int(p.double_back_run)
    v[P_BACK_RUN_THRESHOLD] = p.back_run_threshold
    v[P_DOUBLE_MAX_LEVEL] = int(p.double_max_level)
    v[P_LOSS_CAP] = p.loss_cap
    v[P_FRIEND_SHARE_MILLE] = round(p.friend_share * 1000)
    v[P_NT_LEAD_REQUEST] = int(p.nt_lead_request)
    v[P_FRIEND_MODE_COUNT] = len(p.friend_modes)
    for k, mode in enumerate(p.friend_modes):
        v[P_FRIEND_MODE_0 + k] = code(mode, FriendMode)
    v[P_RANK_GAP_AFTER] = p.rank_gap_after_blind
    v[P_RANK_GAP_BEFORE] = p.rank_gap_before_blind
    v[P_RAISE_UNIT] = code(p.rank_gap_unit, RaiseUnit)
    v[P_RAISE_AFTER_EXCHANGE] = int(p.raise_after_exchange)
    v[P_WEAK_REDEALER] = code(p.weak_redealer, WeakRedealer)
    v[P_PENALTY_FAILURE] = code(p.penalty_failure, PenaltyFailure)
    v[P_DEALER_RULE] = code(p.dealer_rule, DealerRule)
    v[P_FIRST_BIDDER_RULE] = code(p.first_bidder, FirstBidder)
    v[P_DECK_SIZE] = p.deck_size
    v[P_DECK_MASK] = p.deck_mask  # one deck's cards as a bit mask (53 bits)
    v[P_JOKERS] = p.jokers
    if len(p.deal_packets) > MAX_PACKETS:
        raise ValueError(f"deal_packets: at most {MAX_PACKETS} packets")
    v[P_PACKET_COUNT] = len(p.deal_packets)
    for k, size in enumerate(p.deal_packets):
        v[P_PACKET_0 + k] = size
    return np.asarray(v, dtype=np.int64)
