"""The rules, written to be read: the reference the Numba kernels are checked against.

Source: docs/rules.md (the ``standard`` profile) with the switches of its House rules;
sections 3 and 4 where a switch already covers them. This module is deliberately written
differently from :mod:`mighty_sim.kernels.rules.rules_nb` (lists of cards and sets, exact
fractions) so that the differential tests compare two independent readings of the text.

Cards are bit indices (see :mod:`mighty_sim.rules.cards`); hands are masks; ``trump`` is
``"S" "H" "D" "C"`` or ``"NT"``. The play rules see card kinds: with two decks the deal
folds a hand to its kinds and a trick to its cards' kinds (docs/rules.md, russian profiles), and
the order of
play settles which of two identical cards wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..rules.cards import (
    JOKER_BIT,
    N_RANKS,
    POINT_RANKS,
    SUITS,
    cards_of,
    kind_of,
    parse_card,
    rank_of,
    suit_of,
)
from ..rules.profile import RuleProfile

HONOR_RANK_NAMES = ("J", "Q", "K", "A")


def card_index(single_card_mask: int) -> int:
    """Bit index of a single-card mask."""
    return single_card_mask.bit_length() - 1


def mighty_card(profile: RuleProfile, trump: str) -> int:
    """Mighty's bit index: A S, or its alternative when trump is Mighty's suit (s.2.4)."""
    return card_index(profile.mighty_for(trump))


def hunter_card(profile: RuleProfile, trump: str) -> int | None:
    """The hunter's bit index (3 C, or its alternative when clubs are trump), if any."""
    h = profile.hunter_for(trump)
    return card_index(h) if h else None


def is_trump(card: int, trump: str) -> bool:
    """Whether a card is of the trump suit (the joker never is)."""
    return card != JOKER_BIT and trump != "NT" and SUITS[suit_of(card)] == trump


@dataclass(frozen=True)
class TrickState:
    """What the rules need to know about the trick being played."""

    trump: str
    trick_no: int
    played: tuple[int, ...] = ()
    joker_suit: str | None = None
    """Suit named by the leader of a powered joker."""
    joker_demanded: bool = False
    """The hunter was led with a demand for the joker."""
    lead_request: str | None = None
    """Suit the leader must lead if able (the friend's first lead at 20 NT)."""


def demand_is_valid(profile: RuleProfile, state: TrickState) -> bool:
    """A demand counts only for the hunter led in a trick where the demand works."""
    if not state.joker_demanded or not state.played or profile.hunter_rule != "lead-demand":
        return False
    return state.played[0] == hunter_card(profile, state.trump) and (
        state.trick_no in profile.resolve_tricks(profile.hunter_tricks)
    )


def suit_to_follow(profile: RuleProfile, state: TrickState) -> str | None:
    """The suit later players must follow, or None when any card may be played."""
    lead = state.played[0]
    mighty = mighty_card(profile, state.trump)
    if lead == JOKER_BIT:
        if state.trick_no not in profile.resolve_tricks(profile.joker_powerless_tricks):
            suit = state.joker_suit  # the leader named it
        elif len(state.played) >= 2:
            suit = SUITS[suit_of(state.played[1])] if state.played[1] != JOKER_BIT else None
        else:
            suit = None
    elif lead == mighty and not profile.mighty_lead_demands_suit:
        suit = None
    else:
        suit = SUITS[suit_of(lead)]
    start = profile.mighty_sets_suit_from_trick
    if start and state.trick_no >= start and mighty in state.played[1:]:
        suit = SUITS[suit_of(mighty)]
    return suit


def legal_plays(profile: RuleProfile, hand: int, state: TrickState) -> int:
    """Mask of the cards of ``hand`` that may be played next (docs/rules.md, standard: Play)."""
    cards = cards_of(hand)
    mighty = mighty_card(profile, state.trump)
    hunter = hunter_card(profile, state.trump)
    if not state.played:
        return _legal_leads(profile, cards, state, hunter)
    if JOKER_BIT in cards:
        if profile.hunter_rule == "next-player" and state.played[-1] == hunter:
            return 1 << JOKER_BIT
        if demand_is_valid(profile, state):
            answers = [JOKER_BIT]
            if profile.mighty_answers_demand and mighty in cards:
                answers.append(mighty)
            return _mask(answers)
    suit = suit_to_follow(profile, state)
    same_suit = [c for c in cards if c != JOKER_BIT and SUITS[suit_of(c)] == suit]
    if suit is None or not same_suit:
        return hand
    free = [c for c in cards if c in (mighty, JOKER_BIT)]  # always playable
    return _mask(same_suit + free)


def _legal_leads(
    profile: RuleProfile, cards: list[int], state: TrickState, hunter: int | None
) -> int:
    choice = cards
    if state.lead_request is not None:
        requested = [c for c in cards if c != JOKER_BIT and SUITS[suit_of(c)] == state.lead_request]
        choice = requested or cards
    if state.trick_no in profile.resolve_tricks(profile.joker_no_lead_tricks):
        choice = [c for c in choice if c != JOKER_BIT] or choice
    if state.trick_no == 1:
        allowed = [
            c
            for c in choice
            if not (profile.first_lead_no_trump and is_trump(c, state.trump))
            and not (profile.first_lead_no_joker and c == JOKER_BIT)
            and not (profile.first_lead_no_hunter and c == hunter)
        ]
        choice = allowed or choice
    return _mask(choice)


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def joker_has_power(profile: RuleProfile, state: TrickState) -> bool:
    """Whether a joker played in this trick can win it."""
    if state.trick_no in profile.resolve_tricks(profile.joker_powerless_tricks):
        return False
    if not profile.hunted_joker_powerless:
        return True
    if profile.hunter_rule == "next-player":
        return hunter_card(profile, state.trump) not in state.played
    return not demand_is_valid(profile, state)


def trick_winner(profile: RuleProfile, state: TrickState) -> int:
    """Index into ``state.played`` of the winning card.

    Priority (s.2.4): Mighty; a powered joker; the highest trump; the highest card of the
    suit to follow. Of two identical cards (two decks) the one played first wins.
    """
    played = state.played
    mighty = mighty_card(profile, state.trump)
    if mighty in played:
        return played.index(mighty)
    if JOKER_BIT in played and joker_has_power(profile, state):
        return played.index(JOKER_BIT)
    trumps = [i for i, c in enumerate(played) if is_trump(c, state.trump)]
    if trumps:
        return max(trumps, key=lambda i: (rank_of(played[i]), -i))
    suit = suit_to_follow(profile, state)
    followers = [
        i for i, c in enumerate(played) if c != JOKER_BIT and SUITS[suit_of(c)] == suit
    ]
    if not followers:
        return 0
    return max(followers, key=lambda i: (rank_of(played[i]), -i))


def weak_hand_score(profile: RuleProfile, hand: int) -> Fraction:
    """Weak-hand score (s.2.2): Mighty card, joker, other A K Q J, tens, by the profile's
    weights. Exact, as a fraction."""
    mighty = card_index(parse_card(profile.mighty))
    score = Fraction(0)
    for c in map(kind_of, cards_of(hand)):  # every copy of a two-deck hand counts
        if c == JOKER_BIT:
            score += Fraction(profile.weak_joker)
        elif c == mighty:
            score += Fraction(profile.weak_mighty)
        elif rank_of(c) >= N_RANKS - 4:
            score += Fraction(profile.weak_honor)
        elif rank_of(c) == POINT_RANKS[0]:
            score += Fraction(profile.weak_ten)
    return score


def weak_hand_qualifies(profile: RuleProfile, hand: int) -> bool:
    """Whether a hand's weak-hand score is under the profile's threshold."""
    score, limit = weak_hand_score(profile, hand), Fraction(profile.weak_threshold)
    return score < limit if profile.weak_strict else score <= limit


def point_count(mask: int) -> int:
    """Point cards (A K Q J 10) in a mask."""
    kinds = map(kind_of, cards_of(mask))
    return sum(1 for c in kinds if c != JOKER_BIT and rank_of(c) in POINT_RANKS)


def settle(
    profile: RuleProfile, *, bid: int, trump: str, taken: int, friend: str, changed: bool = False
) -> tuple[Fraction, Fraction | None, Fraction]:
    """Payouts (declarer, friend or None in a solo, each defender) (s.2.5, s.3, s.4).

    ``friend`` is ``"friend"``, ``"open-solo"`` or ``"secret-solo"``; ``changed`` says
    the trump was changed after the exchange (it doubles under ``trump_change_doubles``).
    """
    made = taken >= bid
    doubles = 1 if (profile.trump_change_doubles and changed) else 0
    has_friend = friend == "friend"
    if profile.scoring == "zero-sum":
        base = 2 * (bid - profile.min_bid) + (taken - bid) if made else bid - taken
        doubles += profile.double_no_trump and trump == "NT"
        doubles += profile.double_no_friend and friend == "open-solo"
        doubles += profile.double_run and taken == profile.total_points
        doubles += profile.double_back_run and taken <= profile.back_run_threshold
        s = Fraction(base * 2**doubles) * (1 if made else -1)
        defenders = profile.players - (2 if has_friend else 1)
        if has_friend:
            return s * (defenders - 1), s, -s  # defenders pay s each; the friend gets s
        return s * defenders, None, -s
    if profile.scoring == "penalty":
        base_points = profile.min_bid - 1
        factor = 2**doubles
        if made:
            return Fraction(0), (Fraction(0) if has_friend else None), Fraction(
                -(taken - base_points) * factor
            )
        owed = bid - taken if profile.penalty_failure == "shortfall" else bid - base_points
        penalty = Fraction(-owed * factor)
        return penalty, (penalty if has_friend else None), Fraction(0)
    # trick scoring (s.3): the defenders score nothing
    score = 10 * bid + 5 * (taken - bid) if made else -10 * bid - 5 * (bid - taken - 1)
    doubles += profile.double_no_trump and trump == "NT"
    doubles += profile.double_no_friend and friend == "open-solo"
    doubles += profile.double_max_level and bid == profile.max_bid
    total = Fraction(score * 2**doubles)
    if profile.loss_cap and total < profile.loss_cap:
        total = Fraction(profile.loss_cap)
    share = total * Fraction(profile.friend_share).limit_denominator(1000)
    return total, (share if has_friend else None), Fraction(0)
