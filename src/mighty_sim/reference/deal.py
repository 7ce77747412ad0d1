"""One deal of Mighty as a readable state machine: deal, auction, exchange, contract,
friend call, ten tricks, settlement.

Source: docs/rules.md section 2 (``standard``); its sections 2.2-2.5 are cited at each
step.
With two decks (s.4) hands and tricks hold physical cards (:mod:`mighty_sim.rules.cards`); the
rules are asked about their kinds, and the friend is the first other player to play a copy
of the called card.
Every action comes in three (after pokerkit): ``verify_x`` raises :class:`RuleError` with
a reason, ``can_x`` answers, ``x`` acts and returns a frozen record.

>>> from mighty_sim.rules.profile import load_profile
>>> deal = Deal(load_profile("standard"), dealer=0, first_bidder=0, deck=tuple(range(53)))
>>> deal.phase, deal.turn, len(deal.hands)
('auction', 0, 5)
>>> deal.can_bid(0, 12, "S"), deal.can_bid(0, 13, "S")
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from ..rules.cards import JOKER_BIT, SUITS, card_name, cards_of, copies, fold, kind_of, unfold
from ..rules.profile import TRUMPS, RuleProfile
from . import rules
from .records import (
    Action,
    AuctionAction,
    Bid,
    BlindRaise,
    Contract,
    DealRecord,
    DealResult,
    Exchange,
    FriendCall,
    FriendKind,
    Pass,
    Play,
    RuleError,
    Trick,
    WeakHandShown,
)

Phase = Literal["auction", "blind-raise", "exchange", "contract", "friend", "play", "done"]
BRIDGE_STRAINS = ("C", "D", "H", "S", "NT")


def deal_cards(
    profile: RuleProfile, deck: Sequence[int], dealer: int
) -> tuple[tuple[int, ...], int]:
    """Hands by seat and the blind from a deck order (top card first), dealt clockwise
    from the dealer's left in the profile's packets (s.2.1); the rest is the blind."""
    n = profile.players
    hands = [0] * n
    pos = 0
    for packet in profile.deal_packets:
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            for card in deck[pos : pos + packet]:
                hands[seat] |= 1 << card
            pos += packet
    blind = 0
    for card in deck[pos:]:
        blind |= 1 << card
    return tuple(hands), blind


def bid_rank(profile: RuleProfile, number: int, trump: str) -> tuple[int, int]:
    """Sort key of a bid: bigger beats smaller. Suits tie under ``nt-over-suits``."""
    if profile.strain_order == "bridge":
        return (number * 5 + BRIDGE_STRAINS.index(trump), 0)
    return (number, 1 if trump == "NT" else 0)


def raise_climb(profile: RuleProfile, old: tuple[int, str], new: tuple[int, str]) -> int:
    """How far ``new`` climbs above ``old`` for ``rank-gap`` raises (s.3): in bridge
    ranks (level x 5 + strain), or in levels (the number, NT one level above the suits
    of its number)."""

    def height(number: int, trump: str) -> int:
        if profile.rank_gap_unit == "level":
            return number + (1 if trump == "NT" else 0)
        return number * 5 + BRIDGE_STRAINS.index(trump)

    return height(*new) - height(*old)


class Deal:
    """The state of one dealt attempt, from the deal to the settlement."""

    def __init__(
        self, profile: RuleProfile, *, dealer: int, first_bidder: int, deck: Sequence[int]
    ) -> None:
        if sorted(deck) != cards_of(profile.card_mask):
            raise ValueError("deck: must hold each card of the profile's deck once")
        self.profile = profile
        self.n = profile.players
        self.dealer = dealer
        self.first_bidder = first_bidder
        self.deck = tuple(deck)
        self.initial_hands, self.blind = deal_cards(profile, deck, dealer)
        self.hands = list(self.initial_hands)
        self.phase: Phase = "auction"
        self.actions: list[Action] = []
        self.result: DealResult | None = None
        # auction (s.2.2)
        self.turn = first_bidder
        self.passed: set[int] = set()
        self.had_turn: set[int] = set()
        self.high: Bid | None = None
        self.passes_in_row = 0
        # contract and friend (s.2.3)
        self.declarer = -1
        self.bid = 0
        self.trump = "NT"
        self.trump_changed = False
        self.discards = 0
        self.friend_call: FriendCall | None = None
        self.friend_seat: int | None = None
        self.friend_kind: FriendKind | None = None
        self.friend_revealed = False
        self.friend_has_led = False
        # play (s.2.4)
        self.trick_no = 1
        self.leader = -1
        self.trick: list[Play] = []
        self.tricks: list[Trick] = []
        self.captured = [0] * self.n
        self.tricks_won = [0] * self.n

    # -- auction ----------------------------------------------------------------------
    def _auction_turn(self, seat: int) -> None:
        if self.phase != "auction":
            raise RuleError(f"not in the auction (phase {self.phase})")
        if seat != self.turn:
            raise RuleError(f"seat {seat} bid out of turn (seat {self.turn} to bid)")

    def verify_bid(self, seat: int, number: int, trump: str) -> None:
        """Raise :class:`RuleError` unless ``seat`` may bid ``number`` ``trump`` now."""
        self._auction_turn(seat)
        p = self.profile
        if trump not in TRUMPS:
            raise RuleError(f"unknown trump {trump!r}")
        if not p.min_bid <= number <= p.max_bid:
            raise RuleError(f"a bid is {p.min_bid} to {p.max_bid}, not {number}")
        if self.high is not None and bid_rank(p, number, trump) <= bid_rank(
            p, self.high.number, self.high.trump
        ):
            raise RuleError(
                f"{number} {trump} does not beat {self.high.number} {self.high.trump}"
            )

    def can_bid(self, seat: int, number: int, trump: str) -> bool:
        """Whether ``seat`` may bid ``number`` ``trump`` now."""
        return _can(self.verify_bid, seat, number, trump)

    def legal_bids(self, seat: int) -> tuple[tuple[int, str], ...]:
        """Every bid ``seat`` may make now, low to high."""
        p = self.profile
        return tuple(
            (number, trump)
            for number in range(p.min_bid, p.max_bid + 1)
            for trump in TRUMPS
            if self.can_bid(seat, number, trump)
        )

    def make_bid(self, seat: int, number: int, trump: str) -> Bid:
        """Bid ``number`` in ``trump``."""
        self.verify_bid(seat, number, trump)
        record = Bid(seat, number, trump)
        self.high = record
        self.passes_in_row = 0
        self._after_auction_action(record)
        return record

    def verify_pass(self, seat: int) -> None:
        """Raise unless ``seat`` may pass now."""
        self._auction_turn(seat)

    def can_pass(self, seat: int) -> bool:
        """Whether ``seat`` may pass now."""
        return _can(self.verify_pass, seat)

    def pass_(self, seat: int) -> Pass:
        """Pass (for the rest of the auction when passes are permanent)."""
        self.verify_pass(seat)
        record = Pass(seat)
        if self.profile.passes_permanent:
            self.passed.add(seat)
        self.passes_in_row += 1
        self._after_auction_action(record)
        return record

    def verify_show_weak(self, seat: int) -> None:
        """Raise unless ``seat`` may show a weak hand now (s.2.2: first turn, score <= 1/2)."""
        self._auction_turn(seat)
        p = self.profile
        if p.weak_hand_when == "never":
            raise RuleError("this profile has no weak-hand redeal")
        if p.weak_hand_when == "first-turn" and seat in self.had_turn:
            raise RuleError("a weak hand may be shown only on the first bidding turn")
        if not rules.weak_hand_qualifies(p, self.hands[seat]):
            score = rules.weak_hand_score(p, self.hands[seat])
            raise RuleError(f"hand scores {score} on the weak-hand scale; too strong")

    def can_show_weak(self, seat: int) -> bool:
        """Whether ``seat`` may show a weak hand now."""
        return _can(self.verify_show_weak, seat)

    def show_weak(self, seat: int) -> WeakHandShown:
        """Show a weak hand: the deal ends and ``seat`` redeals."""
        self.verify_show_weak(seat)
        record = WeakHandShown(seat, rules.weak_hand_score(self.profile, self.hands[seat]))
        self.actions.append(record)
        self._finish(DealResult(outcome="weak-redeal", dealer=self.dealer, redeal_by=seat))
        return record

    def auction_action(self, action: AuctionAction) -> AuctionAction:
        """Apply a bid, pass or weak-hand show."""
        if isinstance(action, Bid):
            return self.make_bid(action.seat, action.number, action.trump)
        if isinstance(action, Pass):
            return self.pass_(action.seat)
        return self.show_weak(action.seat)

    def _after_auction_action(self, record: AuctionAction) -> None:
        self.actions.append(record)
        self.had_turn.add(record.seat)
        p = self.profile
        if p.passes_permanent:
            active = [s for s in range(self.n) if s not in self.passed]
            if not active:
                self._finish(DealResult(outcome="all-pass", dealer=self.dealer))
                return
            if self.high is not None and active == [self.high.seat]:
                self._end_auction()
                return
        else:
            if self.high is None and self.passes_in_row == self.n:
                self._finish(DealResult(outcome="all-pass", dealer=self.dealer))
                return
            if self.high is not None and self.passes_in_row == self.n - 1:
                self._end_auction()
                return
        seat = (self.turn + 1) % self.n
        while seat in self.passed:
            seat = (seat + 1) % self.n
        self.turn = seat

    def _end_auction(self) -> None:
        assert self.high is not None
        self.declarer = self.high.seat
        self.bid, self.trump = self.high.number, self.high.trump
        if self.profile.raise_rule == "rank-gap":
            self.phase = "blind-raise"  # s.3: any higher contract before the blind is seen
            return
        self._take_blind()

    def _take_blind(self) -> None:
        self.hands[self.declarer] |= self.blind
        self.phase = "exchange"

    # -- raise before the blind is seen (s.3, rank-gap profiles) ---------------------------
    def verify_blind_raise(self, bid: int, trump: str) -> None:
        """Raise unless the declarer may play ``bid`` ``trump`` before seeing the blind:
        the current contract, or one that climbs at least ``rank_gap_before_blind``."""
        if self.phase != "blind-raise":
            raise RuleError(f"not before the blind (phase {self.phase})")
        p = self.profile
        if trump not in TRUMPS or not p.min_bid <= bid <= p.max_bid:
            raise RuleError(f"no contract {bid} {trump}")
        climb = raise_climb(p, (self.bid, self.trump), (bid, trump))
        if (bid, trump) != (self.bid, self.trump) and climb < p.rank_gap_before_blind:
            raise RuleError(f"before the blind a new contract must climb "
                            f"{p.rank_gap_before_blind} {p.rank_gap_unit}(s)")

    def can_blind_raise(self, bid: int, trump: str) -> bool:
        """Whether the declarer may play ``bid`` ``trump`` before seeing the blind."""
        return _can(self.verify_blind_raise, bid, trump)

    def legal_blind_raises(self) -> tuple[tuple[int, str], ...]:
        """The current contract, then every one allowed (bid low to high, S H D C NT)."""
        p = self.profile
        others = [(b, t) for b in range(self.bid, p.max_bid + 1) for t in TRUMPS
                  if (b, t) != (self.bid, self.trump) and self.can_blind_raise(b, t)]
        return ((self.bid, self.trump), *others)

    def blind_raise(self, bid: int, trump: str) -> BlindRaise:
        """Fix the contract before the blind is seen, then take the blind."""
        self.verify_blind_raise(bid, trump)
        self.bid, self.trump = bid, trump
        record = BlindRaise(bid, trump)
        self.actions.append(record)
        self._take_blind()
        return record

    # -- exchange (s.2.3) -------------------------------------------------------------
    def verify_exchange(self, discards: int) -> None:
        """Raise unless the declarer may discard these cards."""
        if self.phase != "exchange":
            raise RuleError(f"not at the exchange (phase {self.phase})")
        if discards & ~self.hands[self.declarer]:
            raise RuleError("discards must come from the declarer's hand")
        if discards.bit_count() != self.profile.blind_size:
            raise RuleError(f"discard exactly {self.profile.blind_size} cards")

    def can_exchange(self, discards: int) -> bool:
        """Whether these discards are allowed."""
        return _can(self.verify_exchange, discards)

    def exchange(self, discards: int) -> Exchange:
        """Discard face down; buried points count for the declarer's side."""
        self.verify_exchange(discards)
        self.hands[self.declarer] &= ~discards
        self.discards = discards
        record = Exchange(self.declarer, discards)
        self.actions.append(record)
        self.phase = "contract"
        return record

    # -- contract: trump change and raise (s.2.3) -------------------------------------
    def verify_contract(self, bid: int, trump: str) -> None:
        """Raise unless the declarer may play ``bid`` ``trump`` (change costs of s.2.3)."""
        if self.phase != "contract":
            raise RuleError(f"not at the contract (phase {self.phase})")
        p = self.profile
        if trump not in TRUMPS:
            raise RuleError(f"unknown trump {trump!r}")
        if bid > p.max_bid:
            raise RuleError(f"the bid cannot exceed {p.max_bid}")
        if bid < self.bid:
            raise RuleError(f"the bid cannot go down from {self.bid}")
        if p.raise_rule == "rank-gap":  # s.3: any change, same strain or not, climbs
            climb = raise_climb(p, (self.bid, self.trump), (bid, trump))
            if (bid, trump) != (self.bid, self.trump) and climb < p.rank_gap_after_blind:
                raise RuleError(f"after the blind a new contract must climb "
                                f"{p.rank_gap_after_blind} {p.rank_gap_unit}(s)")
            return
        if bid != self.bid and not p.raise_after_exchange:
            raise RuleError(f"the bid stays at {self.bid}: this profile has no raise")
        if trump == self.trump:
            return
        cost = p.trump_change_cost_nt if trump == "NT" else p.trump_change_cost_suit
        need = min(self.bid + cost, p.max_bid)
        if bid < need:
            raise RuleError(f"changing {self.trump} to {trump} needs a bid of at least {need}")

    def can_contract(self, bid: int, trump: str) -> bool:
        """Whether the declarer may play ``bid`` ``trump``."""
        return _can(self.verify_contract, bid, trump)

    def legal_contracts(self) -> tuple[tuple[int, str], ...]:
        """Every contract allowed now, the current one first."""
        p = self.profile
        others = [
            (b, t)
            for b in range(self.bid, p.max_bid + 1)
            for t in TRUMPS
            if (b, t) != (self.bid, self.trump) and self.can_contract(b, t)
        ]
        return ((self.bid, self.trump), *others)

    def contract(self, bid: int, trump: str) -> Contract:
        """Fix the final contract."""
        self.verify_contract(bid, trump)
        self.trump_changed = trump != self.trump
        self.bid, self.trump = bid, trump
        record = Contract(bid, trump, self.trump_changed)
        self.actions.append(record)
        self.phase = "friend"
        return record

    # -- friend call (s.2.3) ----------------------------------------------------------
    def lead_requests(self) -> tuple[str, ...]:
        """Suits the declarer may ask the friend to lead (at the maximum bid in NT)."""
        p = self.profile
        if p.nt_lead_request and self.bid == p.max_bid and self.trump == "NT":
            return tuple(SUITS)
        return ()

    def verify_call_friend(
        self, mode: str, card: int | None = None, lead_request: str | None = None
    ) -> None:
        """Raise unless this friend call is allowed."""
        if self.phase != "friend":
            raise RuleError(f"not at the friend call (phase {self.phase})")
        if mode not in self.profile.friend_modes:
            raise RuleError(f"friend mode {mode!r} is not allowed here")
        if (mode == "called") != (card is not None):
            raise RuleError("a card is named exactly in 'called' mode")
        if card is not None and not (self.profile.deck_mask >> card & 1):
            raise RuleError(f"card {card} is not in the deck")
        if lead_request is not None:
            if mode == "none":
                raise RuleError("a lead request needs a friend")
            if lead_request not in self.lead_requests():
                raise RuleError(f"no lead request {lead_request!r} at {self.bid} {self.trump}")

    def can_call_friend(
        self, mode: str, card: int | None = None, lead_request: str | None = None
    ) -> bool:
        """Whether this friend call is allowed."""
        return _can(self.verify_call_friend, mode, card, lead_request)

    def call_friend(
        self, mode: str, card: int | None = None, lead_request: str | None = None
    ) -> FriendCall:
        """Call the friend; a called card in the declarer's hand or discards is a secret solo."""
        self.verify_call_friend(mode, card, lead_request)
        record = FriendCall(mode, card, lead_request)  # type: ignore[arg-type]
        self.friend_call = record
        if mode == "none":
            self.friend_kind = "open-solo"
        elif mode == "called":
            assert card is not None
            holder = [s for s in range(self.n)
                      if s != self.declarer and self.hands[s] & copies(card)]
            if holder:  # with two decks the friend is known only when a copy is played
                self.friend_kind = "friend"
                if self.profile.deck_copies == 1:
                    self.friend_seat = holder[0]
            else:
                self.friend_kind = "secret-solo"
        self.actions.append(record)
        self.phase = "play"
        self.leader = self.declarer
        return record

    # -- play (s.2.4) -----------------------------------------------------------------
    @property
    def to_play(self) -> int:
        """Seat to play next."""
        return (self.leader + len(self.trick)) % self.n

    def trick_state(self, seat: int) -> rules.TrickState:
        """The current trick as the rules see it, for the player at ``seat``."""
        lead = self.trick[0] if self.trick else None
        request = None
        call = self.friend_call
        if (
            not self.trick
            and call is not None
            and call.lead_request is not None
            and seat == self.friend_seat
            and not self.friend_has_led
        ):
            request = call.lead_request
        return rules.TrickState(
            trump=self.trump,
            trick_no=self.trick_no,
            played=tuple(kind_of(p.card) for p in self.trick),
            joker_suit=lead.joker_suit if lead else None,
            joker_demanded=lead.demand if lead else False,
            lead_request=request,
        )

    def legal_cards(self, seat: int) -> int:
        """Mask of the cards ``seat`` may play now."""
        hand = self.hands[seat]
        return hand & unfold(rules.legal_plays(self.profile, fold(hand), self.trick_state(seat)))

    def must_name_joker_suit(self) -> bool:
        """Leading the joker now requires naming the suit to follow (tricks 2-9)."""
        return self.trick_no not in self.profile.resolve_tricks(self.profile.joker_powerless_tricks)

    def can_demand_with(self, seat: int, card: int) -> bool:
        """Whether leading ``card`` now may demand the joker (the hunter, tricks 2-10,
        and not by the joker's own holder)."""
        p = self.profile
        return (
            not self.trick
            and p.hunter_rule == "lead-demand"
            and kind_of(card) == rules.hunter_card(p, self.trump)
            and self.trick_no in p.resolve_tricks(p.hunter_tricks)
            and not self.hands[seat] & copies(JOKER_BIT)
        )

    def verify_play(
        self, seat: int, card: int, joker_suit: str | None = None, demand: bool = False
    ) -> None:
        """Raise unless ``seat`` may play ``card`` now with these declarations."""
        if self.phase != "play":
            raise RuleError(f"not in the play (phase {self.phase})")
        if seat != self.to_play:
            raise RuleError(f"seat {seat} played out of turn (seat {self.to_play} to play)")
        if not self.hands[seat] >> card & 1:
            raise RuleError(f"seat {seat} does not hold {card_name(card)}")
        if not self.legal_cards(seat) >> card & 1:
            raise RuleError(f"{card_name(card)} may not be played here")
        naming = not self.trick and kind_of(card) == JOKER_BIT and self.must_name_joker_suit()
        if naming and (joker_suit is None or joker_suit not in SUITS):
            raise RuleError("leading the joker in this trick names a suit (S, H, D or C)")
        if not naming and joker_suit is not None:
            raise RuleError("a suit is named only when leading a joker that has power")
        if demand and not self.can_demand_with(seat, card):
            raise RuleError("only the hunter led in tricks 2-10 may demand the joker")

    def can_play(
        self, seat: int, card: int, joker_suit: str | None = None, demand: bool = False
    ) -> bool:
        """Whether this play is allowed."""
        return _can(self.verify_play, seat, card, joker_suit, demand)

    def play(
        self, seat: int, card: int, joker_suit: str | None = None, demand: bool = False
    ) -> Play:
        """Play a card; finishing a trick gives it to its winner."""
        self.verify_play(seat, card, joker_suit, demand)
        leading = not self.trick
        record = Play(seat, card, joker_suit, demand)
        self.hands[seat] &= ~(1 << card)
        self.trick.append(record)
        self.actions.append(record)
        call = self.friend_call
        if call is not None and call.card == kind_of(card) and seat != self.declarer:
            if self.friend_seat is None and self.friend_kind == "friend":
                self.friend_seat = seat  # two decks: the first other player to play a copy
            if seat == self.friend_seat:
                self.friend_revealed = True
        if leading and seat == self.friend_seat:
            self.friend_has_led = True
        if len(self.trick) == self.n:
            self._finish_trick()
        return record

    def _finish_trick(self) -> None:
        state = self.trick_state(self.leader)
        index = rules.trick_winner(self.profile, state)
        winner = self.trick[index].seat
        cards = tuple(p.card for p in self.trick)
        points = sum(rules.point_count(1 << c) for c in cards)
        lead = self.trick[0]
        self.tricks.append(
            Trick(self.trick_no, self.leader, cards, winner, points, lead.joker_suit, lead.demand)
        )
        self.captured[winner] += points
        self.tricks_won[winner] += 1
        if self.trick_no == 1 and self.friend_call and self.friend_call.mode == "first-trick":
            if winner == self.declarer:
                self.friend_kind = "secret-solo"
            else:
                self.friend_seat, self.friend_kind = winner, "friend"
            self.friend_revealed = True
        self.trick = []
        self.leader = winner
        if self.trick_no == self.profile.tricks:
            self._settle()
        else:
            self.trick_no += 1

    # -- settlement (s.2.5) -----------------------------------------------------------
    def _settle(self) -> None:
        p = self.profile
        side = {self.declarer} | ({self.friend_seat} if self.friend_seat is not None else set())
        defenders_points = sum(self.captured[s] for s in range(self.n) if s not in side)
        points = p.total_points - defenders_points  # the discards count for the declarer
        tricks = sum(self.tricks_won[s] for s in side)
        taken = points if p.bid_unit == "points" else tricks
        assert self.friend_kind is not None and self.friend_call is not None
        d, f, x = rules.settle(
            p, bid=self.bid, trump=self.trump, taken=taken, friend=self.friend_kind,
            changed=self.trump_changed,
        )
        payouts = tuple(
            d if s == self.declarer else (f if s == self.friend_seat and f is not None else x)
            for s in range(self.n)
        )
        self._finish(
            DealResult(
                outcome="played",
                dealer=self.dealer,
                declarer=self.declarer,
                bid=self.bid,
                trump=self.trump,
                trump_changed=self.trump_changed,
                friend_mode=self.friend_call.mode,
                friend_card=self.friend_call.card,
                friend_seat=self.friend_seat,
                friend_kind=self.friend_kind,
                discards=self.discards,
                declarer_points=points,
                declarer_tricks=tricks,
                success=taken >= self.bid,
                payouts=tuple(Fraction(v) for v in payouts),
            )
        )

    def _finish(self, result: DealResult) -> None:
        self.result = result
        self.phase = "done"

    def record(self) -> DealRecord:
        """The finished deal's record."""
        if self.result is None:
            raise RuleError("the deal is not finished")
        return DealRecord(
            dealer=self.dealer,
            first_bidder=self.first_bidder,
            deck=self.deck,
            hands=self.initial_hands,
            blind=self.blind,
            actions=tuple(self.actions),
            tricks=tuple(self.tricks),
            result=self.result,
        )


def _can(verify: object, *args: object) -> bool:
    try:
        verify(*args)  # type: ignore[operator]
    except RuleError:
        return False
    return True
