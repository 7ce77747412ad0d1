"""Shared helpers: both rule engines behind one interface, and decks built to order."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from mighty_sim.engine import oracle
from mighty_sim.reference import rules
from mighty_sim.reference.deal import Deal
from mighty_sim.reference.game import next_turn
from mighty_sim.reference.records import DealRecord, DealResult
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

    def contracts(self, bid: int, trump: str, *, profile: RuleProfile,
                  before_blind: bool = False) -> list[tuple[int, str]]:
        """The contracts the declarer of ``bid`` ``trump`` may switch to."""
        if self.name == "kernel":
            return oracle.contracts_allowed(profile, bid=bid, trump=trump,
                                            before_blind=before_blind)
        deal = won_by_0(profile, bid, trump)
        if before_blind:
            return list(deal.legal_blind_raises()[1:])
        if deal.phase == "blind-raise":
            deal.blind_raise(bid, trump)
        deal.exchange(lowest(deal.hands[0], profile.blind_size))
        return list(deal.legal_contracts()[1:])

    def lead_request_ok(self, bid: int, trump: str, *, profile: RuleProfile) -> bool:
        """Whether the declarer may ask the friend for a first lead at this contract."""
        if self.name == "kernel":
            return oracle.lead_request_allowed(profile, bid=bid, trump=trump)
        deal = won_by_0(profile, bid, trump)
        if deal.phase == "blind-raise":
            deal.blind_raise(bid, trump)
        deal.exchange(lowest(deal.hands[0], profile.blind_size))
        deal.contract(bid, trump)
        return bool(deal.lead_requests())

    def weak_ok(self, hand: str, *, profile: RuleProfile) -> bool:
        """Whether seat 0 may show ``hand`` as weak at its first call."""
        if self.name == "kernel":
            return oracle.weak_redeal_allowed(profile, parse_cards(hand), first_call=True)
        return make_deal([hand], profile=profile).can_show_weak(0)

    def next_turn(self, *, outcome: str, dealer: int, first_bidder: int, redeal_by: int,
                  profile: RuleProfile) -> tuple[int, int]:
        """Dealer and first bidder after an attempt that did not reach the play."""
        if self.name == "kernel":
            return oracle.next_turn(profile, outcome=outcome, dealer=dealer,
                                    first_bidder=first_bidder, redeal_by=redeal_by)
        result = DealResult(outcome=outcome, dealer=dealer,  # type: ignore[arg-type]
                            redeal_by=redeal_by if outcome == "weak-redeal" else None)
        record = DealRecord(dealer, first_bidder, (), (0,) * profile.players, 0, (), (),
                            result)
        return next_turn(profile, record, 0)

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


def won_by_0(profile: RuleProfile, bid: int, trump: str) -> Deal:
    """A reference deal whose auction seat 0 won with ``bid`` ``trump``, every other
    seat passing."""
    deal = make_deal([], profile=profile)
    deal.make_bid(0, bid, trump)
    for seat in range(1, profile.players):
        deal.pass_(seat)
    assert deal.declarer == 0
    return deal


def lowest(hand: int, k: int) -> int:
    """The ``k`` lowest cards of a mask."""
    out = 0
    for _ in range(k):
        low = hand & -hand
        out |= low
        hand ^= low
    return out


def cpu_seconds(pid: int) -> float:
    """A process's processor time so far (user and system, from /proc), 0 once it is
    gone: what tests wait on to know a command is at its work."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def c(card: str) -> int:
    """Bit index of a card."""
    return parse_card(card).bit_length() - 1


__all__ = ["STANDARD", "SUITS", "Engine", "c", "cpu_seconds", "deck_for", "lowest", "make_deal",
           "won_by_0"]
