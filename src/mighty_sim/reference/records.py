"""Frozen records of a deal's actions and results, and the views players decide from.

Every action of :class:`mighty_sim.reference.deal.Deal` returns one of these records; a
deal's history is the tuple of its records, enough to replay it
(:func:`mighty_sim.reference.game.replay`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from ..rules.cards import format_cards

Outcome = Literal["played", "all-pass", "weak-redeal"]
FriendKind = Literal["friend", "open-solo", "secret-solo"]


class RuleError(ValueError):
    """An action the rules do not allow; the message says why."""


# -- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bid:
    """A bid of ``number`` in ``trump`` ("S" "H" "D" "C" or "NT")."""

    seat: int
    number: int
    trump: str


@dataclass(frozen=True)
class Pass:
    """A pass (permanent in the ``standard`` auction)."""

    seat: int


@dataclass(frozen=True)
class WeakHandShown:
    """A weak hand shown for a redeal, with its score on the weak-hand scale."""

    seat: int
    score: Fraction | None = None
    """Filled in by the engine."""


AuctionAction = Bid | Pass | WeakHandShown


@dataclass(frozen=True)
class BlindRaise:
    """The contract fixed before the blind is seen (rank-gap profiles, docs/rules.md, ucla)."""

    bid: int
    trump: str


@dataclass(frozen=True)
class Exchange:
    """The declarer's discards after taking the blind."""

    declarer: int
    discards: int

    def __str__(self) -> str:
        return f"seat {self.declarer} discards {format_cards(self.discards)}"


@dataclass(frozen=True)
class Contract:
    """The final contract after the exchange; ``changed`` when the trump changed."""

    bid: int
    trump: str
    changed: bool


@dataclass(frozen=True)
class FriendCall:
    """The friend mode, the called card (for ``called``) and the 20-NT lead request."""

    mode: Literal["called", "first-trick", "none"]
    card: int | None = None
    lead_request: str | None = None


@dataclass(frozen=True)
class Play:
    """A card played; ``joker_suit`` when leading a powered joker, ``demand`` when
    leading the hunter with a demand for the joker."""

    seat: int
    card: int
    joker_suit: str | None = None
    demand: bool = False


@dataclass(frozen=True)
class Trick:
    """A finished trick: its leader, the cards in play order, the winner seat."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int
    joker_suit: str | None
    demand: bool


Action = Bid | Pass | WeakHandShown | BlindRaise | Exchange | Contract | FriendCall | Play


@dataclass(frozen=True)
class DealResult:
    """How a dealt attempt ended, and its settlement (payouts by seat)."""

    outcome: Outcome
    dealer: int
    redeal_by: int | None = None
    declarer: int | None = None
    bid: int | None = None
    trump: str | None = None
    trump_changed: bool = False
    friend_mode: str | None = None
    friend_card: int | None = None
    friend_seat: int | None = None
    friend_kind: FriendKind | None = None
    discards: int = 0
    declarer_points: int = 0
    declarer_tricks: int = 0
    success: bool | None = None
    payouts: tuple[Fraction, ...] = ()


@dataclass(frozen=True)
class DealRecord:
    """Everything about one dealt attempt: the deck order, who dealt and bid first, the
    actions in order, the tricks and the result."""

    dealer: int
    first_bidder: int
    deck: tuple[int, ...]
    hands: tuple[int, ...]
    blind: int
    actions: tuple[Action, ...]
    tricks: tuple[Trick, ...]
    result: DealResult


# -- what a player sees ------------------------------------------------------------------


@dataclass(frozen=True)
class AuctionView:
    """A bidder's view: own hand, the auction so far and the legal choices."""

    seat: int
    hand: int
    history: tuple[AuctionAction, ...]
    legal_bids: tuple[tuple[int, str], ...]
    can_pass: bool
    can_show_weak: bool


@dataclass(frozen=True)
class ExchangeView:
    """The declarer's 13 cards (hand plus blind) and how many to discard."""

    seat: int
    hand: int
    blind: int
    discard_count: int
    bid: int
    trump: str


@dataclass(frozen=True)
class ContractView:
    """The declarer after the exchange: the contracts now allowed (current one included)."""

    seat: int
    hand: int
    bid: int
    trump: str
    legal_contracts: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class FriendView:
    """The declarer choosing a friend mode: allowed modes, callable cards, lead requests."""

    seat: int
    hand: int
    bid: int
    trump: str
    modes: tuple[str, ...]
    callable_cards: int
    lead_requests: tuple[str, ...]
    """Suits that may be requested (empty when no request is allowed)."""


@dataclass(frozen=True)
class PlayView:
    """A player about to play: own hand, the trick so far and the legal cards."""

    seat: int
    hand: int
    trick_no: int
    trump: str
    bid: int
    declarer: int
    friend_call: FriendCall
    known_friend: int | None
    """The friend's seat once revealed (or, to the friend, their own seat)."""
    played: tuple[int, ...]
    joker_suit: str | None
    demanded: bool
    legal: int
    must_name_joker_suit: bool
    """Leading the joker here requires naming a suit."""
    demand_card: int | None
    """The card that, led now, may demand the joker (None when no demand is possible)."""
    lead_request: str | None
    tricks: tuple[Trick, ...]
