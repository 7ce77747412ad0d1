"""Rule profiles as validated, frozen data.

Source: ``docs/rules.md``, which cites the rule texts. Every rule switch is a named,
defaulted field of :class:`RuleProfile`; each **[interpretation]** marked there is a
field too, so a table that plays differently changes data, never code. A profile is
loaded from a built-in name or from a TOML file that ``extends`` a built-in one::

    # my-table.toml
    extends = "standard"
    name = "hunter-3h"
    hunter = "3H"
    hunter_alternative = "3S"

Every output records the resolved profile (:meth:`RuleProfile.to_dict`) and its
:meth:`RuleProfile.fingerprint`.

>>> p = load_profile("standard")
>>> p.players, p.hand_size, p.blind_size, p.min_bid, p.max_bid
(5, 10, 3, 13, 20)
>>> p.replace(back_run_threshold=8).fingerprint() != p.fingerprint()
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, get_args

from ..files import read_settings
from .cards import (
    JOKER,
    JOKER_BIT,
    JOKER_IDS,
    N_RANKS,
    PLANE_BITS,
    POINT_CARDS,
    SUITS,
    card_name,
    fold,
    parse_card,
)

BidUnit = Literal["points", "tricks"]
StrainOrder = Literal["nt-over-suits", "bridge"]
WeakHandWhen = Literal["first-turn", "before-auction-end", "never"]
HunterRule = Literal["lead-demand", "next-player"]
FriendMode = Literal["called", "first-trick", "none"]
Scoring = Literal["zero-sum", "tricks", "penalty"]
RaiseRule = Literal["change-cost", "rank-gap"]
RaiseUnit = Literal["rank", "level"]
WeakRedealer = Literal["requester", "dealer"]
PenaltyFailure = Literal["bid", "shortfall"]
DealerRule = Literal["friend", "clockwise", "friend-first-dealt"]
FirstBidder = Literal["dealer-then-declarer", "left-of-dealer", "first-dealt"]

TRUMPS: tuple[str, ...] = ("S", "H", "D", "C", "NT")
"""Trump codes; the index is the trump number the kernels use (NT = 4)."""
NO_TRUMP = TRUMPS.index("NT")


@dataclass(frozen=True)
class RuleProfile:
    """One table's complete rules. Defaults are the ``standard`` profile (docs/rules.md).

    Trick numbers count from 1; a negative trick number counts from the last trick
    (-1 is the last), so a profile stays valid for any hand size.

    >>> RuleProfile(players=2)
    Traceback (most recent call last):
    ...
    ValueError: players: must be 3 to 8, got 2
    """

    name: str = "standard"
    description: str = "Five players, point bids 13-20, zero-sum scoring (docs/rules.md)."

    # -- deck and deal (s.2.1) ------------------------------------------------------------
    players: int = 5
    deck_copies: int = 1
    """Copies of the 52 ordinary cards (2 for the six- to eight-player profiles)."""
    jokers: int = 1
    """Jokers in the whole deck (4 with two decks)."""
    deck_remove: tuple[str, ...] = ()
    """Ordinary cards taken out of the deck; a card listed twice loses both copies."""
    hand_size: int = 10
    blind_size: int = 3
    deal_packets: tuple[int, ...] = (1, 2, 3, 4)
    """Cards per player in each round of the deal; they add up to ``hand_size``."""

    # -- auction (s.2.2) ------------------------------------------------------------------
    bid_unit: BidUnit = "points"
    min_bid: int = 13
    max_bid: int = 20
    strain_order: StrainOrder = "nt-over-suits"
    """``nt-over-suits``: suits unordered, NT beats the same number; ``bridge``: C<D<H<S<NT."""
    passes_permanent: bool = True
    weak_hand_when: WeakHandWhen = "first-turn"
    """When a weak hand may be shown for a redeal."""
    weak_mighty: float = 0.0
    """Weight of the Mighty card (A S) on the weak-hand scale."""
    weak_joker: float = -1.0
    weak_honor: float = 1.0
    """Weight of every other A K Q J."""
    weak_ten: float = 0.5
    weak_threshold: float = 0.5
    weak_strict: bool = False
    """False: score <= threshold qualifies; True: score < threshold qualifies."""
    weak_redealer: WeakRedealer = "requester"
    """Who deals after a weak-hand redeal: ``requester`` (who then opens the auction) or
    the same ``dealer`` and first bidder again, as after an all-pass."""

    # -- exchange, contract, friend (s.2.3) -------------------------------------------
    raise_rule: RaiseRule = "change-cost"
    trump_change_cost_suit: int = 2
    """Bid increase to change to another suit, or from NT to a suit."""
    trump_change_cost_nt: int = 1
    """Bid increase to change from a suit to NT."""
    trump_change_doubles: bool = False
    """A trump change doubles the deal's settlement instead of costing bid (Russian)."""
    raise_after_exchange: bool = True
    """``change-cost``: the declarer may raise the bid after the exchange; False: the bid
    stays as the auction left it (a trump change, where allowed, keeps it)."""
    rank_gap_unit: RaiseUnit = "rank"
    """``rank-gap`` raises: how the climb is counted; ``rank``: bridge order (level x 5 +
    strain); ``level``: the number, NT one level above the suits of its number."""
    rank_gap_before_blind: int = 1
    """``rank-gap`` raises: the least climb before the blind is seen (1: any higher)."""
    rank_gap_after_blind: int = 6
    """``rank-gap`` raises: the least climb after the blind is seen."""
    friend_modes: tuple[FriendMode, ...] = ("called", "first-trick", "none")
    nt_lead_request: bool = True
    """At the maximum bid in NT the declarer may name a suit the friend must lead first."""

    # -- special cards (s.2.4) --------------------------------------------------------
    mighty: str = "AS"
    mighty_alternative: str = "AD"
    """Mighty when trump is the Mighty card's suit."""
    hunter: str = "3C"
    """The joker hunter; "" for a deck without one (its alternative is then unused)."""
    hunter_alternative: str = "3S"
    """Hunter when trump is the hunter card's suit."""
    hunter_rule: HunterRule = "lead-demand"
    """``lead-demand``: the leader of the hunter may demand the joker; ``next-player``:
    whoever plays the hunter, the next player must play the joker if held."""
    hunter_tricks: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, 10)
    """Tricks in which the hunter's demand works."""
    mighty_answers_demand: bool = True
    """A player holding joker and Mighty may answer the demand with Mighty."""
    hunted_joker_powerless: bool = True
    """A joker played on a demand (or in a trick with the hunter, ``next-player``) loses."""
    joker_powerless_tricks: tuple[int, ...] = (1, -1)
    joker_no_lead_tricks: tuple[int, ...] = ()
    first_lead_no_trump: bool = True
    """Trick 1 may not be led with a trump unless the leader holds only trumps."""
    first_lead_no_joker: bool = False
    first_lead_no_hunter: bool = False
    mighty_lead_demands_suit: bool = True
    mighty_sets_suit_from_trick: int = 0
    """From this trick on, a Mighty played (not led) makes later players follow its suit;
    0 = never (Russian literal reading: 2)."""

    # -- scoring (s.2.5) --------------------------------------------------------------
    scoring: Scoring = "zero-sum"
    double_no_trump: bool = True
    double_no_friend: bool = True
    """Open 'no friend' doubles (never a secret or first-trick solo)."""
    double_run: bool = True
    double_back_run: bool = True
    back_run_threshold: int = 9
    """Back run: declarer side points at most this."""
    double_max_level: bool = False
    """Trick scoring: a contract at the maximum level doubles."""
    loss_cap: int = 0
    """Trick scoring: lowest declarer score (e.g. -800); 0 = no cap."""
    friend_share: float = 0.5
    """Trick scoring: the friend's share of the declarer's score."""
    penalty_failure: PenaltyFailure = "bid"
    """Penalty scoring: what a failed contract costs the declarer and the friend each:
    ``bid``: B - base; ``shortfall``: B - P, the points missing."""
    lone_declarer: bool = False
    """The declarer always plays alone (three players)."""

    # -- dealer rotation and ledger (s.2.6) ------------------------------------------------
    dealer_rule: DealerRule = "friend"
    """``friend``: the friend (or a solo declarer) deals next; ``friend-first-dealt``: the
    dealing starts with them (the seat before deals); ``clockwise``: the next seat."""
    first_bidder: FirstBidder = "dealer-then-declarer"
    ledger_deals: int = 10
    ledger_target: int = 0
    """Trick scoring: a game ends when a player reaches this total (0 = fixed deals)."""

    def __post_init__(self) -> None:
        _validate(self)

    # -- derived facts ----------------------------------------------------------------
    @property
    def tricks(self) -> int:
        """Tricks per deal (one card per player per trick)."""
        return self.hand_size

    @property
    def deck_size(self) -> int:
        """Number of cards in the deck."""
        return self.deck_copies * 52 - len(self.deck_remove) + self.jokers

    @property
    def total_points(self) -> int:
        """Point cards (A K Q J 10) in the deck."""
        removed = sum(1 for c in self.deck_remove if parse_card(c) & POINT_CARDS)
        return self.deck_copies * 20 - removed

    @property
    def deck_mask(self) -> int:
        """Mask of the card kinds in the deck (with two decks, the kinds with a copy left).

        >>> load_profile("standard").deck_mask.bit_count()
        53
        >>> load_profile("russian-7p").deck_mask.bit_count()
        51
        """
        return fold(self.card_mask)

    @property
    def card_mask(self) -> int:
        """Mask of the physical cards (:mod:`mighty_sim.rules.cards`): the deck mask with one
        deck; with two, a card removed once loses its deck-1 copy.

        >>> from mighty_sim.rules.cards import format_cards
        >>> format_cards(load_profile("russian-8p").card_mask).count("2D")
        1
        """
        mask = 0
        for plane in range(self.deck_copies):
            mask |= ((1 << 52) - 1) << (plane * PLANE_BITS)
        for c in self.deck_remove:
            b = parse_card(c).bit_length() - 1
            top = b + PLANE_BITS * (self.deck_copies - 1)
            mask &= ~(1 << (top if mask >> top & 1 else b))
        ids = JOKER_IDS if self.deck_copies == 2 else (JOKER_BIT,)
        for j in ids[: self.jokers]:
            mask |= 1 << j
        return mask

    def resolve_tricks(self, tricks: tuple[int, ...]) -> frozenset[int]:
        """Trick numbers 1..n of a tuple that may count from the end.

        >>> sorted(load_profile("standard").resolve_tricks((1, -1)))
        [1, 10]
        """
        return _resolve_tricks(tricks, self.tricks)

    def mighty_for(self, trump: str) -> int:
        """Single-card mask of Mighty under ``trump``.

        >>> from mighty_sim.rules.cards import format_cards
        >>> format_cards(load_profile("standard").mighty_for("S"))
        'AD'
        """
        m = parse_card(self.mighty)
        return parse_card(self.mighty_alternative) if trump == _suit_letter(m) else m

    def hunter_for(self, trump: str) -> int:
        """Single-card mask of the hunter under ``trump`` (0 when the deck has none)."""
        if not self.hunter:
            return 0
        h = parse_card(self.hunter)
        return parse_card(self.hunter_alternative) if trump == _suit_letter(h) else h

    # -- records ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The resolved profile as plain JSON-able data (tuples become lists)."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def fingerprint(self) -> str:
        """Stable hash of the rules (name and description excluded), 16 hex digits.

        >>> len(load_profile("standard").fingerprint())
        16
        """
        rules = {k: v for k, v in self.to_dict().items() if k not in ("name", "description")
                 and not (k in _HASHED_WHEN_SET and v == _plain(_FIELDS[k].default))}
        blob = json.dumps(rules, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def replace(self, **changes: Any) -> RuleProfile:
        """A copy with some fields changed, validated again."""
        return dataclasses.replace(self, **_coerce(changes))

    def to_toml(self) -> str:
        """The resolved profile as TOML text (loadable with ``extends`` removed)."""
        lines = []
        for k, v in self.to_dict().items():
            lines.append(f"{k} = {_toml_value(v)}")
        return "\n".join(lines) + "\n"


@lru_cache(maxsize=256)
def _resolve_tricks(tricks: tuple[int, ...], n: int) -> frozenset[int]:
    return frozenset(t if t > 0 else n + 1 + t for t in tricks)


def _suit_letter(single: int) -> str:
    return SUITS[(single.bit_length() - 1) // N_RANKS] if single != JOKER else ""


def _plain(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return repr(v)


_FIELDS = {f.name: f for f in fields(RuleProfile)}
_HASHED_WHEN_SET = frozenset({
    "weak_redealer", "raise_after_exchange", "rank_gap_unit", "rank_gap_before_blind",
    "penalty_failure",
})
"""Fields added after datasets were first named by fingerprint: hashed only when they
differ from their default, so rules that do not use them keep their fingerprint."""
_TUPLE_FIELDS = {
    "deck_remove",
    "deal_packets",
    "friend_modes",
    "hunter_tricks",
    "joker_powerless_tricks",
    "joker_no_lead_tricks",
}
_FLOAT_FIELDS = {
    "weak_mighty",
    "weak_joker",
    "weak_honor",
    "weak_ten",
    "weak_threshold",
    "friend_share",
}


def _coerce(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Turn TOML/JSON values into field types; unknown fields are errors."""
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if key not in _FIELDS:
            raise ValueError(f"{key}: unknown rule profile field")
        if key == "deck_remove" and isinstance(value, str):
            value = tuple(value.replace(",", " ").split())
        if key in _TUPLE_FIELDS:
            if not isinstance(value, list | tuple):
                raise ValueError(f"{key}: must be a list, got {value!r}")
            value = tuple(value)
        if key in _FLOAT_FIELDS and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        out[key] = value
    return out


def _check_type(p: RuleProfile, name: str) -> None:
    value = getattr(p, name)
    hint = _FIELDS[name].type
    if name in _TUPLE_FIELDS:
        item = str if name in ("deck_remove", "friend_modes") else int
        if not isinstance(value, tuple) or not all(
            isinstance(x, item) and not isinstance(x, bool) for x in value
        ):
            raise ValueError(f"{name}: must be a list of {item.__name__}, got {value!r}")
        return
    if name in _FLOAT_FIELDS:
        ok = isinstance(value, float)
    elif hint in ("int",):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif hint in ("bool",):
        ok = isinstance(value, bool)
    else:
        ok = isinstance(value, str)
    if not ok:
        raise ValueError(f"{name}: wrong type {type(value).__name__} ({value!r})")
    literal = globals().get(str(hint))
    if literal is not None and get_args(literal) and value not in get_args(literal):
        raise ValueError(f"{name}: must be one of {', '.join(get_args(literal))}, got {value!r}")


def _validate(p: RuleProfile) -> None:  # noqa: C901 - one flat list of checks reads best
    for name in _FIELDS:
        _check_type(p, name)
    for fm in p.friend_modes:
        if fm not in get_args(FriendMode):
            raise ValueError(f"friend_modes: unknown mode {fm!r}")
    if not p.friend_modes:
        raise ValueError("friend_modes: at least one friend mode is needed")
    if len(set(p.friend_modes)) != len(p.friend_modes):
        raise ValueError("friend_modes: a mode is listed twice")
    if not 3 <= p.players <= 8:
        raise ValueError(f"players: must be 3 to 8, got {p.players}")
    if p.deck_copies not in (1, 2):
        raise ValueError(f"deck_copies: must be 1 or 2, got {p.deck_copies}")
    if not 0 <= p.jokers <= (4 if p.deck_copies == 2 else 1):
        raise ValueError(f"jokers: must be 0 to {4 if p.deck_copies == 2 else 1}, got {p.jokers}")
    specials: tuple[str, ...] = ("mighty", "mighty_alternative", "hunter", "hunter_alternative")
    specials = specials if p.hunter else specials[:2]
    for name in specials:
        try:
            m = parse_card(getattr(p, name))
        except ValueError as e:
            raise ValueError(f"{name}: {e}") from None
        if m == JOKER:
            raise ValueError(f"{name}: the joker cannot be {name.replace('_', ' ')}")
        object.__setattr__(p, name, card_name(m.bit_length() - 1))
    if _suit_letter(parse_card(p.mighty_alternative)) == _suit_letter(parse_card(p.mighty)):
        raise ValueError("mighty_alternative: must be of another suit than mighty")
    if p.hunter and _suit_letter(parse_card(p.hunter_alternative)) == _suit_letter(
        parse_card(p.hunter)
    ):
        raise ValueError("hunter_alternative: must be of another suit than hunter")
    if p.hunter:
        for m_name in ("mighty", "mighty_alternative"):
            for h_name in ("hunter", "hunter_alternative"):
                if getattr(p, m_name) == getattr(p, h_name):
                    raise ValueError(f"{m_name}: {getattr(p, m_name)} is also the "
                                     f"{h_name.replace('_', ' ')}; one card cannot be both")
    removed: list[str] = []
    for c in p.deck_remove:
        try:
            m = parse_card(c)
        except ValueError as e:
            raise ValueError(f"deck_remove: {e}") from None
        if m == JOKER:
            raise ValueError("deck_remove: remove jokers with the 'jokers' field")
        removed.append(card_name(m.bit_length() - 1))
    for c in set(removed):
        if removed.count(c) > p.deck_copies:
            raise ValueError(f"deck_remove: {c} removed more often than it is in the deck")
    object.__setattr__(p, "deck_remove", tuple(sorted(removed, key=lambda c: -parse_card(c))))
    for special in specials:
        if removed.count(getattr(p, special)) == p.deck_copies:
            raise ValueError(f"{special}: {getattr(p, special)} is removed from the deck")
    if p.hand_size < 1 or p.blind_size < 0:
        raise ValueError("hand_size: must be at least 1 (blind_size at least 0)")
    dealt = p.players * p.hand_size + p.blind_size
    if dealt != p.deck_size:
        raise ValueError(
            f"hand_size: {p.players} players x {p.hand_size} + blind {p.blind_size} = {dealt}"
            f" cards, but the deck has {p.deck_size}"
        )
    if len(p.deal_packets) > 12:
        raise ValueError("deal_packets: at most 12 packets")
    if sum(p.deal_packets) != p.hand_size or any(k < 1 for k in p.deal_packets):
        raise ValueError(f"deal_packets: must be positive and add up to {p.hand_size}")
    if p.bid_unit == "points":
        hi = p.total_points
    else:
        hi = p.tricks
    if not 0 < p.min_bid <= p.max_bid <= hi:
        raise ValueError(f"min_bid: need 0 < min_bid <= max_bid <= {hi}")
    for name in ("hunter_tricks", "joker_powerless_tricks", "joker_no_lead_tricks"):
        for t in getattr(p, name):
            if t == 0 or abs(t) > p.tricks:
                raise ValueError(f"{name}: trick {t} is not in 1..{p.tricks} or -1..-{p.tricks}")
    if not 0 <= p.mighty_sets_suit_from_trick <= p.tricks:
        raise ValueError(f"mighty_sets_suit_from_trick: must be 0 to {p.tricks}")
    for name in ("weak_mighty", "weak_joker", "weak_honor", "weak_ten", "weak_threshold"):
        v = getattr(p, name)
        if not math.isfinite(v) or v * 4 != int(v * 4) or abs(v) > 100:
            raise ValueError(f"{name}: must be a multiple of 0.25 between -100 and 100")
    if p.trump_change_cost_suit < 0 or p.trump_change_cost_nt < 0:
        raise ValueError("trump_change_cost_suit: costs cannot be negative")
    if not 0 <= p.back_run_threshold <= p.total_points:
        raise ValueError(f"back_run_threshold: must be 0 to {p.total_points}")
    if p.loss_cap > 0:
        raise ValueError("loss_cap: must be 0 (no cap) or negative")
    if not 0.0 <= p.friend_share <= 1.0:
        raise ValueError(f"friend_share: must be between 0 and 1, got {p.friend_share}")
    if p.ledger_deals < 1:
        raise ValueError(f"ledger_deals: must be at least 1, got {p.ledger_deals}")
    if p.ledger_target < 0:
        raise ValueError(f"ledger_target: must be 0 (no target) or more, got {p.ledger_target}")
    for name in ("rank_gap_before_blind", "rank_gap_after_blind"):
        if getattr(p, name) < 1:
            raise ValueError(f"{name}: must be 1 or more, got {getattr(p, name)}")
    if p.scoring == "penalty" and (p.double_no_trump or p.double_no_friend or p.double_run
                                   or p.double_back_run):
        raise ValueError("double_no_trump: penalty scoring has no doubles but the trump "
                         "change's (set double_no_trump, double_no_friend, double_run and "
                         "double_back_run to false)")
    if p.lone_declarer and p.friend_modes != ("none",):
        raise ValueError("friend_modes: a lone declarer profile allows only 'none'")
    if (p.bid_unit == "tricks") != (p.scoring == "tricks"):
        raise ValueError("scoring: 'tricks' scoring goes with bid_unit 'tricks' and only then")
    if p.raise_rule == "rank-gap" and p.strain_order != "bridge":
        raise ValueError("raise_rule: 'rank-gap' needs strain_order 'bridge'")


# -- built-in profiles (docs/rules.md) --------------------------------------------------------

_REMOVE_4P = tuple(f"{r}{s}" for r in ("2", "4") for s in SUITS) + ("3H", "3D")
_REMOVE_3P = tuple(f"{r}{s}" for r in ("2", "3", "4", "5", "6") for s in SUITS)
_RUSSIAN = dict(
    description="Russian description for 3 to 8 players, penalty-point scoring.",
    dealer_rule="clockwise",
    first_bidder="left-of-dealer",
    weak_hand_when="never",  # all-pass is the text's only redeal
    raise_rule="change-cost",
    raise_after_exchange=False,  # the text lets the declarer name a new trump, not raise
    trump_change_cost_suit=0,
    trump_change_cost_nt=0,
    trump_change_doubles=True,
    friend_modes=("called", "none"),
    first_lead_no_joker=True,
    first_lead_no_hunter=True,
    joker_no_lead_tricks=(1, -1),
    joker_powerless_tricks=(),  # the text bars the joker's lead there, not its power
    mighty_sets_suit_from_trick=2,
    hunter_rule="next-player",
    hunter_tricks=tuple(range(1, 11)),
    mighty_answers_demand=False,
    scoring="penalty",
    double_no_trump=False,  # penalty points know no doubles but the trump change's
    double_no_friend=False,
    double_run=False,
    double_back_run=False,
)
_TWO_DECKS = dict(deck_copies=2, jokers=4, blind_size=6, min_bid=25, max_bid=40)


def _russian(players: int, **extra: Any) -> RuleProfile:
    data: dict[str, Any] = {**_RUSSIAN, "name": f"russian-{players}p", "players": players}
    data.update(extra)
    n = data.get("hand_size", 10)
    data["hunter_tricks"] = tuple(range(1, n + 1))
    return RuleProfile(**data)


def _packets(n: int) -> tuple[int, ...]:
    out: list[int] = []
    k = 1
    while sum(out) + k <= n:
        out.append(k)
        k += 1
    if sum(out) < n:
        out[-1] += n - sum(out)
    return tuple(out)


_UCLA = dict(
    description="North-American house rules: trick bids 3-10, trick scoring.",
    bid_unit="tricks",
    min_bid=3,
    max_bid=10,
    strain_order="bridge",
    passes_permanent=False,
    weak_hand_when="before-auction-end",
    weak_mighty=1.0,
    weak_joker=1.0,
    weak_honor=1.0,
    weak_ten=0.5,
    weak_threshold=1.0,
    weak_strict=True,
    weak_redealer="dealer",  # a re-shuffle: the same dealer deals again
    raise_rule="rank-gap",
    rank_gap_unit="level",  # a level is a number, NT one above the suits of its number
    rank_gap_before_blind=1,
    rank_gap_after_blind=2,
    friend_modes=("called", "none"),
    nt_lead_request=False,  # the text has no lead request
    mighty_alternative="AC",
    hunter_tricks=tuple(range(2, 10)),
    scoring="tricks",
    double_run=False,
    double_back_run=False,
    double_max_level=True,
    loss_cap=-800,
    friend_share=0.5,
    first_bidder="first-dealt",
    dealer_rule="friend-first-dealt",
    ledger_target=1000,
)

BUILTIN_PROFILES: dict[str, RuleProfile] = {
    "standard": RuleProfile(),
    "ucla-5p": RuleProfile(name="ucla-5p", **_UCLA),  # type: ignore[arg-type]
    "ucla-4p": RuleProfile(name="ucla-4p", players=4, deck_remove=_REMOVE_4P, **_UCLA),  # type: ignore[arg-type]
    "russian-3p": _russian(
        3,
        deck_remove=_REMOVE_3P,
        min_bid=11,
        lone_declarer=True,
        friend_modes=("none",),
        hunter="",  # the 3s are out of the 33-card deck: no hunter
    ),
    "russian-4p": _russian(4, deck_remove=_REMOVE_4P, min_bid=12),
    "russian-5p": _russian(5),
    "russian-6p": _russian(6, hand_size=17, deal_packets=_packets(17), **_TWO_DECKS),
    "russian-7p": _russian(
        7,
        hand_size=14,
        deal_packets=_packets(14),
        deck_remove=("2C", "2C", "2H", "2H"),
        **_TWO_DECKS,
    ),
    "russian-8p": _russian(
        8,
        hand_size=12,
        deal_packets=_packets(12),
        deck_remove=("2C", "2C", "2H", "2H", "2D", "2S"),
        **_TWO_DECKS,
    ),
}


def list_profiles() -> list[str]:
    """Names of the built-in profiles.

    >>> list_profiles()[:2]
    ['standard', 'ucla-5p']
    """
    return list(BUILTIN_PROFILES)


def load_profile(name_or_path: str | Path) -> RuleProfile:
    """A built-in profile by name, or a TOML file that ``extends`` one with overrides.

    Raises :class:`ValueError` for an unknown name, an unreadable or malformed file, an
    unknown field or an invalid value (the message names the field).

    >>> load_profile("standard").name
    'standard'
    >>> load_profile("poker")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown profile 'poker' (built-in: standard, ucla-5p, ...; or a .toml file)
    """
    key = str(name_or_path)
    if key in BUILTIN_PROFILES:
        return BUILTIN_PROFILES[key]
    path = Path(key)
    if path.suffix.lower() != ".toml" and not path.exists():
        raise ValueError(
            f"unknown profile {key!r} (built-in: {', '.join(BUILTIN_PROFILES)}; or a .toml file)"
        )
    return _from_data(read_settings(path, "profile file"), default_name=path.stem)


def profile_from_toml(text: str, *, default_name: str = "custom") -> RuleProfile:
    """A profile from TOML text with ``extends = "<built-in>"`` and field overrides.

    >>> profile_from_toml('extends = "standard"\\nback_run_threshold = 8').back_run_threshold
    8
    >>> profile_from_toml('extends = "standard"\\nhunter = "XX"')
    Traceback (most recent call last):
    ...
    ValueError: hunter: not a card: 'XX' (expected e.g. AS, 10H, TD, JK)
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"profile file is not valid TOML: {e}") from None
    except RecursionError:
        raise ValueError("profile file: tables nested too deeply") from None
    return _from_data(data, default_name=default_name)


def _from_data(data: dict[str, Any], *, default_name: str) -> RuleProfile:
    """A profile from a profile file's table (``extends`` and field overrides)."""
    base_name = data.pop("extends", None)
    if not isinstance(base_name, str):
        raise ValueError("extends: a profile file must say which built-in profile it extends")
    if base_name not in BUILTIN_PROFILES:
        raise ValueError(f"extends: unknown built-in profile {base_name!r}")
    data.setdefault("name", default_name)
    if "description" not in data:
        data["description"] = f"{BUILTIN_PROFILES[base_name].description} Extended by a file."
    try:
        return BUILTIN_PROFILES[base_name].replace(**data)
    except TypeError as e:  # a field given a value of a type dataclasses cannot take
        raise ValueError(f"profile file: {e}") from None


__all__ = [
    "BUILTIN_PROFILES",
    "NO_TRUMP",
    "TRUMPS",
    "RuleProfile",
    "list_profiles",
    "load_profile",
    "profile_from_toml",
]
