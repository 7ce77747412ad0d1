"""The rules oracle: check a ruling at the table, or in a test.

Source: docs/rules.md, standard (Auction: the weak hand; Play; Scoring); the ucla and russian
profiles
through the profile's switches. Every function validates its arguments (a bad one raises
a :class:`ValueError` that says what is wrong), compiles the profile and calls a Numba
kernel of :mod:`mighty_sim.kernels.rules.rules_nb`; the reference engine
(:mod:`mighty_sim.reference.rules`) gives the same answers, checked by the tests.

With two decks (docs/rules.md, russian profiles) the play rules see card kinds: a hand is given by
the kinds
it holds (``parse_cards``), ``played`` may name a card once per copy and, of two identical
cards, the first played wins; a weak-hand score takes the whole two-deck hand
(``parse_physical``).

>>> six = load_profile("russian-6p")
>>> trick_winner(six, ["KH", "AH", "AH", "2H", "3H", "4H"], trump="S", trick_no=3)
1

>>> from mighty_sim import load_profile, parse_cards, format_cards
>>> std = load_profile("standard")
>>> hand = parse_cards("AS KC 5C JK 9H")
>>> format_cards(legal_plays(std, hand, trump="D", trick_no=4, played=["QC"]))
'JK AS KC 5C'
>>> trick_winner(std, ["3C", "AS", "KC", "2C", "7D"], trump="D", trick_no=5,
...              joker_demanded=True)
1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..kernels.layout import OUTCOME_ALL_PASS, OUTCOME_PLAYED, OUTCOME_WEAK
from ..kernels.loop import games_nb
from ..kernels.params import FRIEND_KINDS, compile_profile
from ..kernels.rules import auction_nb, rules_nb
from ..kernels.rules.rules_nb import weak_score2_nb
from ..rules.cards import JOKER_BIT, N_CARD_KINDS, card_name, copies, parse_suit, to_mask
from ..rules.profile import TRUMPS, RuleProfile, load_profile


@dataclass(frozen=True)
class Settlement:
    """Payouts of one deal: to the declarer, to the friend (None in a solo) and to each
    defender."""

    declarer: float
    friend: float | None
    defender: float


@lru_cache(maxsize=64)
def _params(profile: RuleProfile) -> np.ndarray:
    params = compile_profile(profile)
    params.setflags(write=False)
    return params


def _profile(profile: RuleProfile | str) -> RuleProfile:
    if isinstance(profile, str):
        return load_profile(profile)
    if not isinstance(profile, RuleProfile):
        raise ValueError(f"profile must be a RuleProfile or a profile name, not {profile!r}")
    return profile


def _trump(trump: str) -> int:
    if not isinstance(trump, str) or trump.upper() not in TRUMPS:
        raise ValueError(f"trump must be one of S, H, D, C, NT; got {trump!r}")
    return TRUMPS.index(trump.upper())


def _trick_no(profile: RuleProfile, trick_no: int) -> int:
    if not isinstance(trick_no, int) or not 1 <= trick_no <= profile.tricks:
        raise ValueError(f"trick_no must be 1 to {profile.tricks}; got {trick_no!r}")
    return trick_no


def _hand(profile: RuleProfile, hand: int) -> int:
    if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0 or hand >> N_CARD_KINDS:
        raise ValueError(f"hand must be a card mask (see parse_cards); got {hand!r}")
    if hand & ~profile.deck_mask:
        raise ValueError(f"hand holds cards that are not in the {profile.name} deck")
    return hand


def _played(
    profile: RuleProfile, played: Sequence[str | int], *, trump: int, trick_no: int,
    joker_suit: str | None, joker_demanded: bool, complete_ok: bool,
) -> tuple[np.ndarray, int, int]:
    if isinstance(played, str | int):
        raise ValueError("played must be a sequence of cards, e.g. ['KC', 'JK']")
    masks = [to_mask(c) for c in played]
    bits = [m.bit_length() - 1 for m in masks]
    for b in set(bits):  # with two decks a card may be played once per copy
        if bits.count(b) > max(1, (profile.card_mask & copies(b)).bit_count()):
            raise ValueError(f"played holds {card_name(b)} twice or more often than the deck "
                             "does")
    for b in bits:
        if not profile.deck_mask >> b & 1:
            raise ValueError(f"{card_name(b)} is not in the {profile.name} deck")
    limit = profile.players if complete_ok else profile.players - 1
    if len(bits) > limit:
        raise ValueError(f"played holds {len(bits)} cards; a trick has {profile.players}")
    arr = np.full(profile.players, -1, dtype=np.int64)
    arr[: len(bits)] = bits
    params = _params(profile)
    powered_lead = bool(bits) and bits[0] == JOKER_BIT and rules_nb.joker_led_with_power_nb(
        params, trick_no
    )
    if powered_lead and joker_suit is None:
        raise ValueError(f"a joker led in trick {trick_no} names a suit: give joker_suit")
    if not powered_lead and joker_suit is not None:
        raise ValueError("joker_suit is given only when the joker was led with power")
    suit = parse_suit(joker_suit) if joker_suit is not None else -1
    if joker_demanded and not (
        bits and rules_nb.demand_allowed_nb(params, trump, trick_no, bits[0])
    ):
        raise ValueError(
            f"joker_demanded needs the hunter led in a trick where the demand works "
            f"(tricks {', '.join(map(str, sorted(profile.resolve_tricks(profile.hunter_tricks))))})"
        )
    return arr, len(bits), suit


def weak_hand_score(profile: RuleProfile | str, hand: int) -> float:
    """Weak-hand score of a hand (docs/rules.md, standard: Auction): A S 0, joker -1, other A K Q J
    +1,
    tens +1/2 in ``standard``; a hand qualifies for a redeal at 1/2 or less.

    >>> from mighty_sim import parse_cards
    >>> weak_hand_score("standard", parse_cards("AS JK KH 10C 10D 9S 8S 7S 6S 5S"))
    1.0
    """
    p = _profile(profile)
    if p.deck_copies == 2:  # a two-deck hand (parse_physical): every copy counts
        if not isinstance(hand, int) or hand < 0 or hand & ~p.card_mask:
            raise ValueError(f"hand must be a two-deck mask (parse_physical); got {hand!r}")
        q = weak_score2_nb(np.uint64(hand & (2**64 - 1)), np.uint64(hand >> 64), _params(p))
        return float(q) / 4.0
    return float(rules_nb.weak_score_q_nb(np.uint64(_hand(p, hand)), _params(p))) / 4.0


def legal_plays(
    profile: RuleProfile | str,
    hand: int,
    *,
    trump: str,
    trick_no: int,
    played: Sequence[str | int] = (),
    joker_suit: str | None = None,
    joker_demanded: bool = False,
) -> int:
    """Mask of the cards of ``hand`` that may be played next (docs/rules.md, standard: Play).

    ``played`` is the current trick so far, leader first; empty means ``hand`` leads.

    >>> from mighty_sim import parse_cards, format_cards
    >>> format_cards(legal_plays("standard", parse_cards("AH KH 2S"), trump="H", trick_no=1))
    '2S'
    """
    p = _profile(profile)
    t = _trump(trump)
    n = _trick_no(p, trick_no)
    h = _hand(p, hand)
    arr, count, suit = _played(p, played, trump=t, trick_no=n, joker_suit=joker_suit,
                               joker_demanded=joker_demanded, complete_ok=False)
    if h & sum(1 << int(b) for b in arr[:count]):
        raise ValueError("a card in played is also in hand")
    return int(rules_nb.legal_plays_nb(np.uint64(h), arr, count, t, n, suit,
                                       bool(joker_demanded), -1, _params(p)))


def trick_winner(
    profile: RuleProfile | str,
    played: Sequence[str | int],
    *,
    trump: str,
    trick_no: int,
    joker_suit: str | None = None,
    joker_demanded: bool = False,
) -> int:
    """Index into ``played`` of the card that wins the trick (so far).

    >>> trick_winner("standard", ["JK", "AH", "2H", "KH", "3S"], trump="D", trick_no=1)
    1
    """
    p = _profile(profile)
    t = _trump(trump)
    n = _trick_no(p, trick_no)
    arr, count, suit = _played(p, played, trump=t, trick_no=n, joker_suit=joker_suit,
                               joker_demanded=joker_demanded, complete_ok=True)
    if count == 0:
        raise ValueError("played is empty: no trick to win")
    return int(rules_nb.trick_winner_nb(arr, count, t, n, suit, bool(joker_demanded),
                                        _params(p)))


def settle(
    profile: RuleProfile | str, *, bid: int, trump: str, taken: int, friend: str
) -> Settlement:
    """Payouts of a finished deal (docs/rules.md, standard: Scoring; the ucla and russian profiles
    by profile).

    ``taken`` is the declarer side's points (tricks in trick-bid profiles), discards
    included; ``friend`` is ``"friend"``, ``"open-solo"`` or ``"secret-solo"``.

    >>> settle("standard", bid=14, trump="NT", taken=20, friend="open-solo")
    Settlement(declarer=256.0, friend=None, defender=-64.0)
    """
    p = _profile(profile)
    t = _trump(trump)
    if friend not in FRIEND_KINDS:
        raise ValueError(f"friend must be one of {', '.join(FRIEND_KINDS)}; got {friend!r}")
    if p.lone_declarer and friend == "friend":
        raise ValueError(f"profile {p.name}: the declarer always plays alone")
    if not isinstance(bid, int) or not p.min_bid <= bid <= p.max_bid:
        raise ValueError(f"bid must be {p.min_bid} to {p.max_bid}; got {bid!r}")
    most = p.total_points if p.bid_unit == "points" else p.tricks
    if not isinstance(taken, int) or not 0 <= taken <= most:
        raise ValueError(f"taken must be 0 to {most} {p.bid_unit}; got {taken!r}")
    kind = FRIEND_KINDS.index(friend)
    d, f, x = rules_nb.settle_nb(_params(p), bid, t, taken, kind, False)
    return Settlement(declarer=d, friend=f if friend == "friend" else None, defender=x)


def _contract(p: RuleProfile, bid: int, trump: str) -> int:
    t = _trump(trump)
    if not isinstance(bid, int) or not p.min_bid <= bid <= p.max_bid:
        raise ValueError(f"bid must be {p.min_bid} to {p.max_bid}; got {bid!r}")
    return t


def contracts_allowed(
    profile: RuleProfile | str, *, bid: int, trump: str, before_blind: bool = False
) -> list[tuple[int, str]]:
    """The contracts the declarer of ``bid`` ``trump`` may play instead, after the
    exchange (docs/rules.md, standard: Exchange, contract and friend), or with
    ``before_blind`` before seeing the blind (profiles with ``rank-gap`` raises).

    >>> contracts_allowed("standard", bid=18, trump="S")[:3]
    [(19, 'S'), (19, 'NT'), (20, 'S')]
    >>> contracts_allowed("ucla-5p", bid=8, trump="C")[:2]
    [(9, 'NT'), (10, 'S')]
    """
    p = _profile(profile)
    t = _contract(p, bid, trump)
    params = _params(p)
    count = auction_nb.other_contract_count_nb(params, bid, t, bool(before_blind))
    out = [auction_nb.kth_other_contract_nb(params, bid, t, k, bool(before_blind))
           for k in range(count)]
    return [(int(b), TRUMPS[int(x)]) for b, x in out]


def weak_redeal_allowed(profile: RuleProfile | str, hand: int, *, first_call: bool) -> bool:
    """Whether a player holding ``hand`` may show it as weak for a redeal at a call
    (``first_call``: the player's first of the auction) (docs/rules.md, standard: Auction).

    >>> from mighty_sim import parse_cards
    >>> weak = parse_cards("JK 9S 8S 7S 6S 5S 4S 3S 2S 9H")
    >>> weak_redeal_allowed("standard", weak, first_call=True)
    True
    >>> weak_redeal_allowed("russian-5p", weak, first_call=True)
    False
    """
    p = _profile(profile)
    if p.deck_copies == 2:
        q = int(weak_hand_score(p, hand) * 4)
    else:
        q = int(rules_nb.weak_score_q_nb(np.uint64(_hand(p, hand)), _params(p)))
    return bool(auction_nb.weak_allowed_nb(_params(p), q, bool(first_call)))


def lead_request_allowed(profile: RuleProfile | str, *, bid: int, trump: str) -> bool:
    """Whether the declarer of this contract may name a suit for the friend's first lead
    (docs/rules.md, standard: Exchange, contract and friend).

    >>> lead_request_allowed("standard", bid=20, trump="NT")
    True
    >>> lead_request_allowed("ucla-5p", bid=10, trump="NT")
    False
    """
    p = _profile(profile)
    t = _contract(p, bid, trump)
    return bool(auction_nb.lead_request_ok_nb(_params(p), bid, t))


_OUTCOMES = {"played": OUTCOME_PLAYED, "all-pass": OUTCOME_ALL_PASS,
             "weak-redeal": OUTCOME_WEAK}


def next_turn(
    profile: RuleProfile | str, *, outcome: str, dealer: int, first_bidder: int,
    redeal_by: int = -1, declarer: int = -1, friend: int = -1,
) -> tuple[int, int]:
    """Dealer and first bidder of the attempt after one that ended in ``outcome``
    (``played``, ``all-pass`` or ``weak-redeal``), as the batch kernel rotates them
    (docs/rules.md: the dealer of each profile). ``friend`` is -1 after a solo.

    >>> next_turn("standard", outcome="weak-redeal", dealer=0, first_bidder=0, redeal_by=3)
    (3, 3)
    >>> next_turn("ucla-5p", outcome="weak-redeal", dealer=0, first_bidder=1, redeal_by=3)
    (0, 1)
    """
    p = _profile(profile)
    if outcome not in _OUTCOMES:
        raise ValueError(f"outcome must be one of {', '.join(_OUTCOMES)}; got {outcome!r}")
    for name, seat in (("dealer", dealer), ("first_bidder", first_bidder)):
        if not 0 <= seat < p.players:
            raise ValueError(f"{name} must be a seat 0 to {p.players - 1}; got {seat!r}")
    d, f = games_nb.next_turn_nb(_params(p), _OUTCOMES[outcome], dealer, first_bidder,
                                 redeal_by, declarer, friend)
    return int(d), int(f)


__all__ = [
    "Settlement",
    "contracts_allowed",
    "lead_request_allowed",
    "legal_plays",
    "next_turn",
    "settle",
    "trick_winner",
    "weak_hand_score",
    "weak_redeal_allowed",
]
