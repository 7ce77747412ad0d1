"""Shared helpers: both rule engines behind one interface, and decks built to order."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from mighty_sim.engine import oracle
from mighty_sim.reference import rules
from mighty_sim.reference.deal import Deal
from mighty_sim.rules.cards import SUITS, format_cards, parse_card, parse_cards
from mighty_sim.rules.profile import RuleProfile, load_profile

STANDARD = load_profile("standard")


def bits(cards: Sequence[str]) -> tuple[int, ...]:
    return tuple(parse_card(c).bit_length() - 1 for c in cards)


class CardText(str):
    """Card text that compares equal to any text of the same cards, in any order."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and parse_cards(self) == parse_cards(other)

    __hash__ = str.__hash__


class Engine:
    """The oracle (Numba kernels) or the reference rules, asked the same questions."""

    def __init__(self, name: str) -> None:
        self.name = name

    def legal(
        self, hand: str, *, trump: str, trick_no: int, played: Sequence[str] = (),
        joker_suit: str | None = None, demanded: bool = False,
        profile: RuleProfile = STANDARD,
    ) -> CardText:
        mask = parse_cards(hand)
        if self.name == "kernel":
            out = oracle.legal_plays(profile, mask, trump=trump, trick_no=trick_no,
                                     played=list(played), joker_suit=joker_suit,
                                     joker_demanded=demanded)
        else:
            state = rules.TrickState(trump, trick_no, bits(played), joker_suit, demanded)
            out = rules.legal_plays(profile, mask, state)
        return CardText(format_cards(out))

    def winner(
        self, played: Sequence[str], *, trump: str, trick_no: int,
        joker_suit: str | None = None, demanded: bool = False,
        profile: RuleProfile = STANDARD,
    ) -> str:
        if self.name == "kernel":
            i = oracle.trick_winner(profile, list(played), trump=trump, trick_no=trick_no,
                                    joker_suit=joker_suit, joker_demanded=demanded)
        else:
            state = rules.TrickState(trump, trick_no, bits(played), joker_suit, demanded)
            i = rules.trick_winner(profile, state)
        return played[i]

    def settle(self, *, bid: int, trump: str, taken: int, friend: str,
               profile: RuleProfile = STANDARD) -> tuple[float, float | None, float]:
        if self.name == "kernel":
            s = oracle.settle(profile, bid=bid, trump=trump, taken=taken, friend=friend)
            return s.declarer, s.friend, s.defender
        d, f, x = rules.settle(profile, bid=bid, trump=trump, taken=taken, friend=friend)
        return float(d), (None if f is None else float(f)), float(x)

    def weak(self, hand: str, profile: RuleProfile = STANDARD) -> float:
        if self.name == "kernel":
            return oracle.weak_hand_score(profile, parse_cards(hand))
        return float(rules.weak_hand_score(profile, parse_cards(hand)))


@pytest.fixture(params=["kernel", "reference"])
def engine(request: pytest.FixtureRequest) -> Engine:
    return Engine(request.param)


def deck_for(
    profile: RuleProfile, hands: Sequence[str], blind: str = "", dealer: int = 0
) -> list[int]:
    """A deck order that deals ``hands`` (partial hands are filled from the unnamed cards,
    low cards first) and ``blind`` when dealt by ``dealer`` in the profile's packets."""
    n = profile.players
    want = [parse_cards(h) for h in list(hands) + [""] * (n - len(hands))]
    want_blind = parse_cards(blind)
    named = want_blind
    for w in want:
        assert not named & w, "a card is named twice"
        named |= w
    free = rules.cards_of(profile.deck_mask & ~named)
    for s in range(n):
        while want[s].bit_count() < profile.hand_size:
            want[s] |= 1 << free.pop(0)
    while want_blind.bit_count() < profile.blind_size:
        want_blind |= 1 << free.pop(0)
    queues = [rules.cards_of(w) for w in want]
    deck: list[int] = []
    for packet in profile.deal_packets:
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            deck.extend(queues[seat][:packet])
            del queues[seat][:packet]
    deck.extend(rules.cards_of(want_blind))
    return deck


def make_deal(
    hands: Sequence[str], blind: str = "", *, dealer: int = 0, first_bidder: int = 0,
    profile: RuleProfile = STANDARD,
) -> Deal:
    deal = Deal(profile, dealer=dealer, first_bidder=first_bidder,
                deck=deck_for(profile, hands, blind, dealer))
    for s, h in enumerate(hands):
        assert deal.hands[s] & parse_cards(h) == parse_cards(h)
    return deal


def c(card: str) -> int:
    """Bit index of a card."""
    return parse_card(card).bit_length() - 1


__all__ = ["STANDARD", "SUITS", "Engine", "c", "deck_for", "make_deal"]
