"""Scripted scenarios for the reference engine: deal, auction (s.2.2), exchange, contract
and friend (s.2.3), play order (s.2.4), settlement and ledger (s.2.5, s.2.6)."""

from __future__ import annotations

import pytest
from conftest import STANDARD, c, deck_for, make_deal

from mighty_sim.reference import RandomPlayer, RuleError, play_deal, play_ledger, replay
from mighty_sim.reference.deal import Deal, deal_cards
from mighty_sim.reference.game import next_turn
from mighty_sim.reference.rng import DealStream
from mighty_sim.rules.cards import parse_cards

WEAK = "AS JK KH 10C 9S 8S 7S 6S 5S 4S"  # scores 1/2


def test_deal_in_packets_from_the_dealers_left() -> None:
    deck = list(range(53))
    hands, blind = deal_cards(STANDARD, deck, dealer=3)
    # packet of 1: seat 4 gets card 0, seat 0 card 1, ...; packet of 2: seat 4 gets 5, 6
    assert hands[4] >> 0 & 1 and hands[0] >> 1 & 1 and hands[3] >> 4 & 1
    assert hands[4] >> 5 & 1 and hands[4] >> 6 & 1
    assert blind == (1 << 50) | (1 << 51) | (1 << 52)
    assert all(h.bit_count() == 10 for h in hands)


def test_deck_must_be_the_profile_deck() -> None:
    with pytest.raises(ValueError, match="deck"):
        Deal(STANDARD, dealer=0, first_bidder=0, deck=list(range(52)))


# -- auction ----------------------------------------------------------------------------


def test_bids_must_beat_the_last_bid() -> None:
    deal = make_deal([])
    deal.make_bid(0, 14, "H")
    assert not deal.can_bid(1, 14, "S")  # suits have no order
    assert not deal.can_bid(1, 13, "NT")
    assert deal.can_bid(1, 14, "NT")  # NT beats the same number
    assert deal.can_bid(1, 15, "C")
    assert not deal.can_bid(1, 21, "C")
    with pytest.raises(RuleError, match="does not beat"):
        deal.verify_bid(1, 14, "D")
    with pytest.raises(RuleError, match="out of turn"):
        deal.verify_bid(3, 16, "D")


def test_passing_is_permanent_and_last_bidder_wins() -> None:
    deal = make_deal([])
    deal.make_bid(0, 13, "S")
    deal.pass_(1)
    deal.make_bid(2, 14, "D")
    deal.pass_(3)
    deal.pass_(4)
    assert deal.turn == 0  # seat 1 has passed for good, but seat 0 has not
    deal.make_bid(0, 15, "S")
    assert deal.turn == 2  # seats 1, 3, 4 are skipped
    deal.pass_(2)
    assert deal.phase == "exchange" and deal.declarer == 0 and (deal.bid, deal.trump) == (15, "S")
    assert deal.hands[0].bit_count() == 13  # the blind is taken


def test_auction_can_start_elsewhere() -> None:
    deal = make_deal([], first_bidder=3)
    assert deal.turn == 3
    deal.pass_(3)
    assert deal.turn == 4


def test_all_pass_redeals() -> None:
    deal = make_deal([])
    for seat in range(5):
        deal.pass_(seat)
    assert deal.phase == "done" and deal.result is not None
    assert deal.result.outcome == "all-pass" and deal.result.payouts == ()


def test_last_remaining_player_may_still_pass_or_bid() -> None:
    deal = make_deal([])
    for seat in range(4):
        deal.pass_(seat)
    assert deal.phase == "auction" and deal.turn == 4
    deal.make_bid(4, 13, "C")
    assert deal.phase == "exchange" and deal.declarer == 4


def test_weak_hand_shown_on_first_turn_redeals() -> None:
    deal = make_deal(["", WEAK])
    deal.make_bid(0, 13, "S")
    assert deal.can_show_weak(1)
    record = deal.show_weak(1)
    assert record.score == 0.5
    assert deal.result is not None and deal.result.outcome == "weak-redeal"
    assert deal.result.redeal_by == 1


def test_weak_hand_only_on_first_turn() -> None:
    deal = make_deal(["", WEAK])
    deal.make_bid(0, 13, "S")
    deal.make_bid(1, 14, "S")
    deal.pass_(2)
    deal.pass_(3)
    deal.pass_(4)
    deal.make_bid(0, 15, "S")
    with pytest.raises(RuleError, match="first bidding turn"):
        deal.verify_show_weak(1)


def test_strong_hand_may_not_be_shown_weak() -> None:
    deal = make_deal(["AH KH QH 2S 3S 4S 5S 6S 7S 8S"])
    with pytest.raises(RuleError, match="too strong"):
        deal.verify_show_weak(0)


# -- exchange, contract, friend -----------------------------------------------------------


def _won_by_0(hands: list[str], blind: str = "", bid: int = 14, trump: str = "S") -> Deal:
    deal = make_deal(hands, blind)
    deal.make_bid(0, bid, trump)
    for seat in range(1, 5):
        deal.pass_(seat)
    return deal


def test_exchange_discards_exactly_three_of_own_cards() -> None:
    deal = _won_by_0(["AS JK 2H"], blind="KD QD JD")
    assert deal.hands[0] & parse_cards("KD QD JD")
    with pytest.raises(RuleError, match="exactly 3"):
        deal.verify_exchange(parse_cards("KD QD"))
    with pytest.raises(RuleError, match="declarer's hand"):
        deal.verify_exchange(deal.hands[1] & -deal.hands[1] | parse_cards("KD QD"))
    deal.exchange(parse_cards("AS JK 2H"))  # Mighty and joker may be discarded
    assert deal.hands[0].bit_count() == 10 and deal.phase == "contract"


@pytest.mark.parametrize(
    ("old", "new", "allowed"),
    [
        ((14, "S"), (14, "S"), True),
        ((14, "S"), (17, "S"), True),  # raise without change
        ((14, "S"), (13, "S"), False),
        ((14, "S"), (15, "H"), False),  # suit to suit costs 2
        ((14, "S"), (16, "H"), True),
        ((14, "S"), (14, "NT"), False),  # suit to NT costs 1
        ((14, "S"), (15, "NT"), True),
        ((14, "NT"), (15, "S"), False),  # NT to suit costs 2
        ((14, "NT"), (16, "S"), True),
        ((19, "S"), (20, "H"), True),  # from 19 reaching 20 suffices
        ((20, "S"), (20, "H"), True),  # at 20 the change is free
        ((20, "S"), (20, "NT"), True),
        ((19, "NT"), (20, "S"), True),
    ],
)
def test_trump_change_costs(old: tuple[int, str], new: tuple[int, str], allowed: bool) -> None:
    deal = _won_by_0([], bid=old[0], trump=old[1])
    deal.exchange(_three(deal.hands[0]))
    assert deal.can_contract(*new) is allowed
    if allowed:
        record = deal.contract(*new)
        assert record.changed == (new[1] != old[1])


def _three(hand: int) -> int:
    out = 0
    for _ in range(3):
        low = hand & -hand
        out |= low
        hand ^= low
    return out


def _ready_to_call(hands: list[str], blind: str = "", bid: int = 14, trump: str = "S",
                   discards: str = "") -> Deal:
    deal = _won_by_0(hands, blind, bid, trump)
    keep = parse_cards(hands[0] if hands else "")
    deal.exchange(parse_cards(discards) if discards else _three(deal.hands[0] & ~keep))
    deal.contract(bid, trump)
    return deal


def test_called_card_holder_is_the_friend() -> None:
    deal = _ready_to_call(["KH", "", "AS"])
    deal.call_friend("called", c("AS"))
    assert deal.friend_seat == 2 and deal.friend_kind == "friend"


def test_calling_own_or_buried_card_is_a_secret_solo() -> None:
    deal = _ready_to_call(["KH QD"])
    deal.call_friend("called", c("KH"))
    assert deal.friend_seat is None and deal.friend_kind == "secret-solo"
    deal = _ready_to_call(["KH QD JD 10D"], discards="QD JD 10D")
    deal.call_friend("called", c("JD"))
    assert deal.friend_seat is None and deal.friend_kind == "secret-solo"


def test_no_friend_is_an_open_solo() -> None:
    deal = _ready_to_call([])
    deal.call_friend("none")
    assert deal.friend_kind == "open-solo"


def test_friend_call_checks() -> None:
    deal = _ready_to_call([])
    with pytest.raises(RuleError, match="'called' mode"):
        deal.verify_call_friend("called")
    with pytest.raises(RuleError, match="not allowed"):
        deal.verify_call_friend("partner")
    with pytest.raises(RuleError, match="lead request"):
        deal.verify_call_friend("called", c("AS"), "H")  # only at 20 NT


def _play_trick(deal: Deal, cards: list[str], **lead: object) -> None:
    for k, card in enumerate(cards):
        extra = lead if k == 0 else {}
        deal.play(deal.to_play, c(card), **extra)  # type: ignore[arg-type]


def test_first_trick_winner_becomes_friend() -> None:
    deal = _ready_to_call(["2H KC", "3H", "AH", "4H", "5H"], trump="S", discards="")
    deal.call_friend("first-trick")
    _play_trick(deal, ["2H", "3H", "AH", "4H", "5H"])
    assert deal.friend_seat == 2 and deal.friend_kind == "friend" and deal.leader == 2


def test_first_trick_won_by_declarer_is_a_solo_without_open_double() -> None:
    deal = _ready_to_call(["AH KC", "3H", "2H", "4H", "5H"], trump="S")
    deal.call_friend("first-trick")
    _play_trick(deal, ["AH", "3H", "2H", "4H", "5H"])
    assert deal.friend_seat is None and deal.friend_kind == "secret-solo"


def _finish_trick(deal: Deal) -> None:
    """Each remaining player of the current trick plays its lowest legal card, keeping
    Mighty and the joker back when it can."""
    while deal.trick:
        legal = deal.legal_cards(deal.to_play)
        plain = legal & ~parse_cards("AS AD JK")
        pick = plain or legal
        deal.play(deal.to_play, (pick & -pick).bit_length() - 1)


def test_twenty_no_trump_lead_request_binds_the_friends_first_lead() -> None:
    deal = _ready_to_call(["2C 3H", "AC AD 5D KS"], bid=20, trump="NT")
    assert deal.lead_requests() == ("S", "H", "D", "C")
    deal.call_friend("called", c("KS"), "D")
    deal.play(0, c("2C"))
    _finish_trick(deal)
    assert deal.leader == 1  # the friend won with A C and now leads
    assert deal.legal_cards(1) == parse_cards("AD 5D")  # the requested suit
    deal.play(1, c("AD"))
    _finish_trick(deal)  # nobody spends Mighty or the joker: A D wins
    assert deal.leader == 1 and deal.trick_no == 3
    assert deal.legal_cards(1) == deal.hands[1]  # a second lead is free again


def test_lead_request_only_at_twenty_no_trump() -> None:
    deal = _ready_to_call([], bid=20, trump="S")
    assert deal.lead_requests() == ()
    with pytest.raises(RuleError, match="no lead request"):
        deal.verify_call_friend("called", c("KS"), "D")


# -- play order and verification -------------------------------------------------------------


def test_play_checks() -> None:
    deal = _ready_to_call(["2H 3C JK", "AH"], trump="S")
    deal.call_friend("none")
    with pytest.raises(RuleError, match="out of turn"):
        deal.verify_play(1, c("AH"))
    with pytest.raises(RuleError, match="does not hold"):
        deal.verify_play(0, c("AH"))
    deal.play(0, c("2H"))
    assert deal.hands[1] >> c("9S") & 1  # seat 1 holds A H and 9 S: it must follow hearts
    with pytest.raises(RuleError, match="may not be played"):
        deal.verify_play(1, c("9S"))
    deal.play(1, c("AH"))


def test_hunter_demand_only_from_trick_two_and_not_on_own_joker() -> None:
    deal = _ready_to_call(["3C AH 2H", "KH", "3H", "4H", "JK 5H"], trump="D")
    deal.call_friend("none")
    assert not deal.can_demand_with(0, c("3C"))  # trick 1: no demand
    with pytest.raises(RuleError, match="demand"):
        deal.verify_play(0, c("3C"), demand=True)
    deal.play(0, c("AH"))
    _finish_trick(deal)
    assert deal.leader == 0 and deal.trick_no == 2
    assert deal.can_demand_with(0, c("3C"))
    assert not deal.can_demand_with(0, c("2H"))
    # the owner of the joker cannot hunt it
    own = _ready_to_call(["3C AH JK", "KH", "3H", "4H", "5H"], trump="D")
    own.call_friend("none")
    own.play(0, c("AH"))
    _finish_trick(own)
    assert own.leader == 0 and not own.can_demand_with(0, c("3C"))


def test_demanded_joker_is_forced_in_the_engine() -> None:
    deal = _ready_to_call(["3C AH 2H", "KH 5C", "3H 6C", "4H 7C", "JK 9C 5H"], trump="D")
    deal.call_friend("none")
    deal.play(0, c("AH"))
    _finish_trick(deal)
    deal.play(0, c("3C"), demand=True)
    _finish_trick(deal)
    trick = deal.tricks[-1]
    assert c("JK") in trick.cards and trick.demand
    assert trick.winner != 4  # the hunted joker is powerless


def test_joker_lead_names_a_suit_in_tricks_two_to_nine() -> None:
    deal = _ready_to_call(["AS JK 2H"], trump="D")
    deal.call_friend("none")
    with pytest.raises(RuleError, match="a suit is named only"):
        deal.verify_play(0, c("JK"), joker_suit="H")  # trick 1: powerless, no naming
    deal.play(0, c("AS"))  # Mighty wins trick 1: seat 0 leads trick 2
    _finish_trick(deal)
    assert deal.leader == 0 and deal.trick_no == 2
    with pytest.raises(RuleError, match="name"):
        deal.verify_play(0, c("JK"))  # trick 2: the joker's leader must name a suit
    deal.play(0, c("JK"), joker_suit="H")
    _finish_trick(deal)
    assert deal.tricks[-1].joker_suit == "H" and deal.tricks[-1].winner == 0


# -- whole deals, ledger, replay -------------------------------------------------------------


def test_random_deals_replay_identically() -> None:
    players = [RandomPlayer()] * 5
    for i in range(30):
        record = play_deal(STANDARD, players, dealer=i % 5, first_bidder=i % 5,
                           stream=DealStream(11, i))
        assert replay(STANDARD, record) == record


def test_same_stream_same_deal() -> None:
    players = [RandomPlayer()] * 5
    a = play_deal(STANDARD, players, dealer=0, first_bidder=0, stream=DealStream(5, 9))
    b = play_deal(STANDARD, players, dealer=0, first_bidder=0, stream=DealStream(5, 9))
    other = play_deal(STANDARD, players, dealer=0, first_bidder=0, stream=DealStream(5, 10))
    assert a == b and a.deck != other.deck


def test_ledger_rotation_and_totals() -> None:
    ledger = play_ledger(STANDARD, [RandomPlayer()] * 5, seed=4, deals=10)
    assert len(ledger.deals) == 10
    attempts = ledger.attempts
    first = attempts[0]
    assert first.first_bidder == first.dealer  # the first auction starts with the dealer
    for prev, nxt in zip(attempts, attempts[1:], strict=False):
        r = prev.result
        if r.outcome == "all-pass":
            assert (nxt.dealer, nxt.first_bidder) == (prev.dealer, prev.first_bidder)
        elif r.outcome == "weak-redeal":
            assert nxt.dealer == nxt.first_bidder == r.redeal_by
        else:
            expected_dealer = r.friend_seat if r.friend_seat is not None else r.declarer
            assert (nxt.dealer, nxt.first_bidder) == (expected_dealer, r.declarer)
        assert (nxt.dealer, nxt.first_bidder) == next_turn(STANDARD, prev, 0)
    totals = [sum(d.result.payouts[s] for d in ledger.deals) for s in range(5)]
    assert list(ledger.totals) == totals and sum(totals) == 0


def test_deck_for_helper_deals_what_was_asked() -> None:
    deck = deck_for(STANDARD, ["AS KS", "JK"], blind="2C", dealer=2)
    hands, blind = deal_cards(STANDARD, deck, 2)
    assert hands[0] & parse_cards("AS KS") == parse_cards("AS KS")
    assert hands[1] & parse_cards("JK") == parse_cards("JK")
    assert blind & parse_cards("2C") == parse_cards("2C")
    assert all(h.bit_count() == 10 for h in hands) and blind.bit_count() == 3


# -- rank-gap raises and the ucla rotation (docs/rules.md, ucla) ---------------------------------


def test_raise_before_and_after_the_blind_in_ucla() -> None:
    from mighty_sim.rules.profile import load_profile

    ucla = load_profile("ucla-5p")
    deal = make_deal([], profile=ucla)
    deal.make_bid(0, 7, "H")
    for seat in range(1, 5):
        deal.pass_(seat)
    assert deal.phase == "blind-raise" and deal.hands[0].bit_count() == 10
    # before the blind: one level up (a number, or NT over the suits of its number)
    assert deal.can_blind_raise(7, "NT") and deal.can_blind_raise(7, "H")  # or keep it
    assert not deal.can_blind_raise(7, "S") and deal.can_blind_raise(8, "C")
    deal.blind_raise(7, "NT")
    assert deal.phase == "exchange" and deal.hands[0].bit_count() == 13
    deal.exchange(_three(deal.hands[0]))
    # after the blind: two levels up; from 7 NT (level 8): 9 NT and 10 of a suit
    assert deal.can_contract(9, "NT") and deal.can_contract(10, "C")
    assert not deal.can_contract(8, "NT") and not deal.can_contract(9, "S")
    assert deal.can_contract(7, "NT")


def test_ucla_dealing_starts_with_the_friend() -> None:
    from mighty_sim.reference.records import DealRecord, DealResult
    from mighty_sim.rules.profile import load_profile

    ucla = load_profile("ucla-5p")
    result = DealResult(outcome="played", dealer=0, declarer=2, friend_seat=4)
    record = DealRecord(0, 1, tuple(range(53)), (0,) * 5, 0, (), (), result)
    assert next_turn(ucla, record, 1) == (3, 4)  # seat 3 deals, so seat 4 is dealt first
    solo = DealResult(outcome="played", dealer=0, declarer=2, friend_seat=None)
    record = DealRecord(0, 1, tuple(range(53)), (0,) * 5, 0, (), (), solo)
    assert next_turn(ucla, record, 1) == (1, 2)
