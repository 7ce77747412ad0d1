"""The player interface of the reference engine, and the uniformly random player.

A player sees a view (what it may know) and returns a decision; the engine checks it.
New players (heuristic, Monte Carlo) implement :class:`Player` without touching the engine.
"""

from __future__ import annotations

from typing import Protocol

from ..rules.cards import JOKER_BIT, SUITS, cards_of, kind_of
from .records import (
    AuctionAction,
    AuctionView,
    Bid,
    ContractView,
    ExchangeView,
    FriendCall,
    FriendView,
    Pass,
    Play,
    PlayView,
    WeakHandShown,
)
from .rng import DealStream


class Player(Protocol):
    """A seat's decision maker. ``rng`` is the deal's random stream, shared by the deal."""

    def auction(self, view: AuctionView, rng: DealStream) -> AuctionAction:
        """A bid, a pass or a weak-hand show."""
        ...

    def exchange(self, view: ExchangeView, rng: DealStream) -> int:
        """The mask of cards to discard."""
        ...

    def contract(self, view: ContractView, rng: DealStream) -> tuple[int, str]:
        """A bid and trump among ``view.legal_contracts`` (the current one first): asked
        after the exchange, and in rank-gap profiles also before the blind is seen."""
        ...

    def call_friend(self, view: FriendView, rng: DealStream) -> FriendCall:
        """The friend mode, called card and lead request."""
        ...

    def play(self, view: PlayView, rng: DealStream) -> Play:
        """The card to play, with a joker suit or demand where they apply."""
        ...


class RandomPlayer:
    """Random legal decisions in every phase, drawn in a fixed order from the deal stream.

    - Auction: a weak hand that may be shown is shown with probability 1/2; otherwise pass
      with probability 1/2 (always when no bid is legal), else one of the ten lowest legal
      bids, uniformly.
    - Exchange: the discards one by one, uniformly among the cards left (low bit first).
    - Contract: keep with probability 1/2, else a uniformly random other legal contract.
    - Friend: a uniform mode; a uniform called card; a lead request with probability 1/2.
    - Play: a uniform legal card (of two identical cards, one choice: the lowest copy); a
      uniform joker suit; a demand with probability 1/2.
    """

    def auction(self, view: AuctionView, rng: DealStream) -> AuctionAction:
        if view.can_show_weak and rng.chance(1, 2):
            return WeakHandShown(view.seat)
        if not view.legal_bids or rng.chance(1, 2):
            return Pass(view.seat)
        number, trump = view.legal_bids[rng.below(min(len(view.legal_bids), 10))]
        return Bid(view.seat, number, trump)

    def exchange(self, view: ExchangeView, rng: DealStream) -> int:
        cards = cards_of(view.hand)
        discards = 0
        for _ in range(view.discard_count):
            card = cards.pop(rng.below(len(cards)))
            discards |= 1 << card
        return discards

    def contract(self, view: ContractView, rng: DealStream) -> tuple[int, str]:
        others = view.legal_contracts[1:]
        if not others or rng.chance(1, 2):
            return view.legal_contracts[0]
        return others[rng.below(len(others))]

    def call_friend(self, view: FriendView, rng: DealStream) -> FriendCall:
        mode = view.modes[rng.below(len(view.modes))]
        card = None
        if mode == "called":
            callable_cards = cards_of(view.callable_cards)
            card = callable_cards[rng.below(len(callable_cards))]
        request = None
        if mode != "none" and view.lead_requests and rng.chance(1, 2):
            request = view.lead_requests[rng.below(len(view.lead_requests))]
        return FriendCall(mode, card, request)  # type: ignore[arg-type]

    def play(self, view: PlayView, rng: DealStream) -> Play:
        legal = cards_of(view.legal)
        kinds = sorted({kind_of(c) for c in legal})  # two copies of a card: one choice
        kind = kinds[rng.below(len(kinds))]
        card = next(c for c in legal if kind_of(c) == kind)  # its lowest copy
        joker_suit = None
        if not view.played and kind == JOKER_BIT and view.must_name_joker_suit:
            joker_suit = SUITS[rng.below(4)]
        demand = kind == view.demand_card and rng.chance(1, 2)
        return Play(view.seat, card, joker_suit, demand)


__all__ = ["Player", "RandomPlayer"]
