"""Driving deals with players: one deal, a ledger of deals with the dealer rotation, replay.

Source: docs/rules.md, standard (Cards and the deal: the dealer; Auction: first bidder, redeals;
Games: the ledger).

>>> from mighty_sim.rules.profile import load_profile
>>> from mighty_sim.reference.players import RandomPlayer
>>> profile = load_profile("standard")
>>> record = play_deal(profile, [RandomPlayer()] * 5, dealer=0, first_bidder=0,
...                    stream=DealStream(seed=1, index=0))
>>> replay(profile, record) == record
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..rules.cards import cards_of
from ..rules.profile import RuleProfile
from . import rules
from .deal import Deal
from .players import Player
from .records import (
    Action,
    AuctionView,
    Bid,
    BlindRaise,
    Contract,
    ContractView,
    DealRecord,
    Exchange,
    ExchangeView,
    FriendCall,
    FriendView,
    Pass,
    Play,
    PlayView,
    WeakHandShown,
)
from .rng import DealStream, attempt_index, dealer_index


def deck_order(profile: RuleProfile, stream: DealStream) -> list[int]:
    """A shuffled deck (card bit indices, top first) drawn from the deal's stream."""
    return stream.shuffled(cards_of(profile.card_mask))


def auction_view(deal: Deal, seat: int) -> AuctionView:
    """What ``seat`` sees when it is its turn to bid."""
    history = tuple(a for a in deal.actions if isinstance(a, Bid | Pass | WeakHandShown))
    return AuctionView(
        seat=seat,
        hand=deal.hands[seat],
        history=history,
        legal_bids=deal.legal_bids(seat),
        can_pass=True,
        can_show_weak=deal.can_show_weak(seat),
    )


def play_view(deal: Deal, seat: int) -> PlayView:
    """What ``seat`` sees when it is its turn to play."""
    state = deal.trick_state(seat)
    assert deal.friend_call is not None
    known = deal.friend_seat if (deal.friend_revealed or seat == deal.friend_seat) else None
    hunter = rules.hunter_card(deal.profile, deal.trump)
    demand_card = hunter if hunter is not None and deal.can_demand_with(seat, hunter) else None
    return PlayView(
        seat=seat,
        hand=deal.hands[seat],
        trick_no=deal.trick_no,
        trump=deal.trump,
        bid=deal.bid,
        declarer=deal.declarer,
        friend_call=deal.friend_call,
        known_friend=known,
        played=state.played,
        joker_suit=state.joker_suit,
        demanded=state.joker_demanded,
        legal=deal.legal_cards(seat),
        must_name_joker_suit=deal.must_name_joker_suit(),
        demand_card=demand_card,
        lead_request=state.lead_request,
        tricks=tuple(deal.tricks),
    )


def run_deal(deal: Deal, players: Sequence[Player], stream: DealStream) -> DealRecord:
    """Ask the players for decisions until the deal is finished."""
    if len(players) != deal.n:
        raise ValueError(f"need {deal.n} players, got {len(players)}")
    while deal.phase != "done":
        if deal.phase == "auction":
            seat = deal.turn
            deal.auction_action(players[seat].auction(auction_view(deal, seat), stream))
        elif deal.phase == "blind-raise":
            d = deal.declarer
            rview = ContractView(d, deal.hands[d], deal.bid, deal.trump,
                                 deal.legal_blind_raises())
            deal.blind_raise(*players[d].contract(rview, stream))
        elif deal.phase == "exchange":
            d = deal.declarer
            view = ExchangeView(d, deal.hands[d], deal.blind, deal.profile.blind_size,
                                deal.bid, deal.trump)
            deal.exchange(players[d].exchange(view, stream))
        elif deal.phase == "contract":
            d = deal.declarer
            cview = ContractView(d, deal.hands[d], deal.bid, deal.trump, deal.legal_contracts())
            deal.contract(*players[d].contract(cview, stream))
        elif deal.phase == "friend":
            d = deal.declarer
            fview = FriendView(d, deal.hands[d], deal.bid, deal.trump, deal.profile.friend_modes,
                               deal.profile.deck_mask, deal.lead_requests())
            call = players[d].call_friend(fview, stream)
            deal.call_friend(call.mode, call.card, call.lead_request)
        else:
            seat = deal.to_play
            p = players[seat].play(play_view(deal, seat), stream)
            deal.play(seat, p.card, p.joker_suit, p.demand)
    return deal.record()


def play_deal(
    profile: RuleProfile,
    players: Sequence[Player],
    *,
    dealer: int,
    first_bidder: int,
    stream: DealStream,
) -> DealRecord:
    """Shuffle from ``stream``, deal, and play one attempt to its end (or its redeal)."""
    deal = Deal(profile, dealer=dealer, first_bidder=first_bidder,
                deck=deck_order(profile, stream))
    return run_deal(deal, players, stream)


def apply_action(deal: Deal, action: Action) -> None:
    """Apply one recorded action to a deal."""
    if isinstance(action, Bid | Pass | WeakHandShown):
        deal.auction_action(action)
    elif isinstance(action, BlindRaise):
        deal.blind_raise(action.bid, action.trump)
    elif isinstance(action, Exchange):
        deal.exchange(action.discards)
    elif isinstance(action, Contract):
        deal.contract(action.bid, action.trump)
    elif isinstance(action, FriendCall):
        deal.call_friend(action.mode, action.card, action.lead_request)
    elif isinstance(action, Play):
        deal.play(action.seat, action.card, action.joker_suit, action.demand)
    else:  # pragma: no cover - the Action union is closed
        raise TypeError(f"not an action: {action!r}")


def replay(profile: RuleProfile, record: DealRecord) -> DealRecord:
    """Play a recorded deal again from its deck and actions; every action is re-checked."""
    deal = Deal(profile, dealer=record.dealer, first_bidder=record.first_bidder, deck=record.deck)
    for action in record.actions:
        apply_action(deal, action)
    return deal.record()


@dataclass(frozen=True)
class Ledger:
    """A game: every dealt attempt (redeals included) and the net totals by seat."""

    attempts: tuple[DealRecord, ...]
    totals: tuple[Fraction, ...]

    @property
    def deals(self) -> tuple[DealRecord, ...]:
        """The attempts that were played out (redeals do not count, s.2.2)."""
        return tuple(r for r in self.attempts if r.result.outcome == "played")


def next_turn(
    profile: RuleProfile, record: DealRecord, deals_played: int
) -> tuple[int, int]:
    """Dealer and first bidder of the attempt after ``record`` (s.2.1, s.2.2)."""
    n = profile.players
    result = record.result
    if result.outcome == "all-pass" or (
            result.outcome == "weak-redeal" and profile.weak_redealer == "dealer"):
        return record.dealer, record.first_bidder
    if result.outcome == "weak-redeal":
        assert result.redeal_by is not None
        return result.redeal_by, result.redeal_by
    assert result.declarer is not None
    if profile.dealer_rule in ("friend", "friend-first-dealt"):
        dealer = result.friend_seat if result.friend_seat is not None else result.declarer
        if profile.dealer_rule == "friend-first-dealt":  # they are dealt first
            dealer = (dealer - 1) % n
    else:
        dealer = (record.dealer + 1) % n
    if profile.first_bidder == "dealer-then-declarer":
        first = result.declarer
    else:
        first = (dealer + 1) % n
    return dealer, first


def play_ledger(
    profile: RuleProfile,
    players: Sequence[Player],
    *,
    seed: int,
    game: int = 0,
    deals: int | None = None,
    max_attempts: int = 10_000,
    to_target: bool = False,
) -> Ledger:
    """Play game number ``game`` of ``deals`` counted deals (the profile's ledger length
    by default); with ``to_target``, the game ends as soon as a player's total reaches the
    profile's ``ledger_target`` (s.3: ucla plays to 1000), after at most ``deals`` deals.

    Attempt k uses ``DealStream(seed, attempt_index(game, k))``; the first dealer is drawn
    from ``DealStream(seed, dealer_index(game))``. The first auction starts with the
    dealer (or left of the dealer, by profile).
    """
    target = profile.ledger_deals if deals is None else deals
    if to_target and profile.ledger_target <= 0:
        raise ValueError(f"profile {profile.name}: no ledger_target to play to")
    n = profile.players
    dealer = DealStream(seed, dealer_index(game)).below(n)
    first = dealer if profile.first_bidder == "dealer-then-declarer" else (dealer + 1) % n
    attempts: list[DealRecord] = []
    totals = [Fraction(0)] * n
    played = 0
    while played < target and not (
            to_target and max(totals) >= profile.ledger_target):
        if len(attempts) >= max_attempts:
            raise RuntimeError(f"no {target} deals in {max_attempts} attempts")
        record = play_deal(profile, players, dealer=dealer, first_bidder=first,
                           stream=DealStream(seed, attempt_index(game, len(attempts))))
        attempts.append(record)
        if record.result.outcome == "played":
            played += 1
            totals = [t + v for t, v in zip(totals, record.result.payouts, strict=True)]
        dealer, first = next_turn(profile, record, played)
    return Ledger(tuple(attempts), tuple(totals))
