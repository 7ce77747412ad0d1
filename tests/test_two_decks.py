"""Two-deck profiles (docs/rules.md, russian profiles: 6p, 7p, 8p): the decks, scripted scenarios
for the two-deck rules asked of both engines, the kernel against the reference engine
deal by deal, and the invariants of many kernel deals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest

from mighty_sim.dataset.schema import deals_table, tricks_table
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import MAX_PLAYERS, N_T
from mighty_sim.kernels.loop.play_nb import (
    H_PLANE1,
    N_H,
    N_S,
    S_FRIEND,
    S_KIND,
    S_LEADER,
    S_REVEALED,
    apply_play_nb,
    kinds_held_nb,
    start_play_nb,
)
from mighty_sim.kernels.params import MODE_CALLED, MODE_NONE, compile_profile
from mighty_sim.kernels.rules import rules_nb
from mighty_sim.reference import RandomPlayer, play_ledger
from mighty_sim.reference import rules as ref_rules
from mighty_sim.reference.deal import Deal
from mighty_sim.rules.cards import (
    JOKER_BIT,
    JOKER_IDS,
    PLANE_BITS,
    card_name,
    cards_of,
    copies,
    fold,
    format_cards,
    kind_of,
    parse_card,
    parse_physical,
    points_in,
)
from mighty_sim.rules.profile import TRUMPS, RuleProfile, load_profile

TWO_DECKS = ["russian-6p", "russian-7p", "russian-8p"]
P6 = load_profile("russian-6p")


# -- the decks --------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "size", "hand"), [("russian-6p", 108, 17),
                                                   ("russian-7p", 104, 14),
                                                   ("russian-8p", 102, 12)])
def test_two_deck_composition(name: str, size: int, hand: int) -> None:
    p = load_profile(name)
    cards = p.card_mask
    assert cards.bit_count() == p.deck_size == size and p.hand_size == hand
    assert (cards & copies(JOKER_BIT)).bit_count() == 4 and p.blind_size == 6
    assert points_in(cards) + points_in(cards >> PLANE_BITS) == p.total_points == 40
    counts = Counter(format_cards(cards).split())
    assert counts["JK"] == 4 and counts["AS"] == 2
    removed = {"russian-6p": {}, "russian-7p": {"2C": 0, "2H": 0},
               "russian-8p": {"2C": 0, "2H": 0, "2D": 1, "2S": 1}}[name]
    for card, left in removed.items():
        assert counts.get(card, 0) == left
    assert sum(counts.values()) == size


def test_physical_cards_fold_to_their_kinds() -> None:
    hand = parse_physical("AS AS JK JK JK 10H")
    assert format_cards(hand) == "JK JK JK AS AS 10H"
    assert fold(hand) == parse_card("AS") | parse_card("JK") | parse_card("10H")
    assert {kind_of(c) for c in JOKER_IDS} == {JOKER_BIT}
    assert [card_name(c) for c in (12, 76, 116)] == ["AS", "AS", "JK"]
    with pytest.raises(ValueError, match="more often"):
        parse_physical("AS AS AS")


def test_weak_score_counts_every_copy() -> None:
    # russian keeps standard's scale: A S 0, joker -1, other A K Q J +1, tens +1/2
    hand = parse_physical("AS AS JK JK KH KH 10C")
    assert ref_rules.weak_hand_score(P6, hand) == Fraction(-2 + 2 + Fraction(1, 2))
    from mighty_sim.kernels.rules.rules_nb import weak_score2_nb

    params = compile_profile(P6)
    p0, p1 = np.uint64(hand & (2**64 - 1)), np.uint64(hand >> 64)
    assert weak_score2_nb(p0, p1, params) == 2  # quarter points


# -- scripted scenarios, in the reference engine and the kernels -------------------------


def physical_hands(profile: RuleProfile, texts: Sequence[str]) -> list[int]:
    """Two-deck masks of the named cards by seat; ``'`` after a card asks for the second
    deck's copy; the rest of each hand is filled from unnamed cards, low first."""
    used = 0
    hands = []
    for text in texts:
        m = 0
        for token in text.split():
            second = token.endswith("'")
            kind = parse_card(token.rstrip("'")).bit_length() - 1
            ids = JOKER_IDS if kind == JOKER_BIT else (kind, PLANE_BITS + kind)
            free = [c for c in ids if not (used | m) >> c & 1 and (c >= PLANE_BITS) == second]
            assert free, f"no copy of {token} left"
            m |= 1 << free[0]
        used |= m
        hands.append(m)
    free_cards = cards_of(profile.card_mask & ~used)
    while len(hands) < profile.players:
        hands.append(0)
    for s in range(profile.players):
        while hands[s].bit_count() < profile.hand_size:
            hands[s] |= 1 << free_cards.pop(0)
    blind = sum(1 << c for c in free_cards)
    assert blind.bit_count() == profile.blind_size
    return hands + [blind]


class Table:
    """One scripted two-deck deal, played in the reference engine and in the kernel's
    two-deck play state at once: seat 0 declares ``bid trump`` and discards the blind."""

    def __init__(self, hands: Sequence[str], trump: str, call: str | None,
                 profile: RuleProfile = P6, bid: int = 25) -> None:
        *dealt, blind = physical_hands(profile, hands)
        n = profile.players
        deck: list[int] = []
        queues = [cards_of(h) for h in dealt]
        for packet in profile.deal_packets:  # dealer n-1: seat 0 is dealt first
            for seat in range(n):
                deck.extend(queues[seat][:packet])
                del queues[seat][:packet]
        deck.extend(cards_of(blind))
        self.ref = Deal(profile, dealer=n - 1, first_bidder=0, deck=deck)
        assert list(self.ref.hands) == dealt
        self.ref.make_bid(0, bid, trump)
        for s in range(1, n):
            self.ref.pass_(s)
        self.ref.exchange(blind)
        self.ref.contract(bid, trump)
        self.ref.call_friend("called" if call else "none",
                             parse_card(call).bit_length() - 1 if call else None)
        self.params = compile_profile(profile)
        self.s = np.zeros(N_S, np.int64)
        self.h = np.zeros(N_H, np.uint64)
        self.tr = np.zeros(2 * MAX_PLAYERS, np.int64)  # kinds, then the physical cards
        self.ti = np.zeros((1, N_T), np.int8)
        planes = np.zeros(N_H, np.uint64)
        for s, hand in enumerate(dealt):
            planes[s] = hand & (2**64 - 1)
            planes[H_PLANE1 + s] = hand >> 64
        called = parse_card(call).bit_length() - 1 if call else -1
        start_play_nb(self.s, self.h, self.tr, self.params, planes, np.uint64(0),
                      (0, bid, TRUMPS.index(trump), False),
                      (MODE_CALLED if call else MODE_NONE, called, -1), False)

    def legal(self, seat: int) -> str:
        """The seat's legal cards; the kernel's legal kinds must be their kinds."""
        ref = self.ref.legal_cards(seat)
        trick = self.ref.trick_state(seat)
        kernel = rules_nb.legal_plays_nb(
            kinds_held_nb(self.s, self.h, seat), self.tr, len(trick.played),
            TRUMPS.index(trick.trump), trick.trick_no,
            -1 if trick.joker_suit is None else "SHDC".index(trick.joker_suit),
            trick.joker_demanded, -1, self.params)
        assert int(kernel) == fold(ref)
        return format_cards(ref)

    def low(self, seat: int) -> str:
        """The seat's last legal card in canonical order (a low card, never a trump-led
        Mighty or joker when it can follow)."""
        return self.legal(seat).split()[-1]

    def play(self, seat: int, token: str, joker_suit: str | None = None) -> None:
        """``seat`` plays the named card in both engines: ``X'`` its second deck's copy,
        ``X`` its lowest copy."""
        second = token.endswith("'")
        kind = parse_card(token.rstrip("'")).bit_length() - 1
        held = [c for c in cards_of(self.ref.hands[seat])
                if kind_of(c) == kind and (c >= PLANE_BITS or not second)]
        assert held, f"seat {seat} holds no {token}"
        assert kind_of(held[0]) in {kind_of(c) for c in cards_of(
            self.ref.legal_cards(seat))}, f"{token} is not legal for seat {seat}"
        self.legal(seat)
        self.ref.play(seat, held[0], joker_suit)
        suit = -1 if joker_suit is None else "SHDC".index(joker_suit)
        apply_play_nb(self.s, self.h, self.tr, seat, held[0], suit, False, self.params, False,
                      self.ti, 0)

    def trick(self, leader: int, cards: str, joker_suit: str | None = None) -> int:
        """Play a whole trick from ``leader``; returns its winner, the same in both."""
        n = self.ref.n
        for k, token in enumerate(cards.split()):
            self.play((leader + k) % n, token, joker_suit if k == 0 else None)
        winner = self.ref.tricks[-1].winner
        assert int(self.s[S_LEADER]) == winner
        return winner

    def friend(self) -> tuple[int | None, str | None]:
        """(friend seat or None, friend kind), the same in both engines."""
        kernel_seat = int(self.s[S_FRIEND])
        assert (None if kernel_seat < 0 else kernel_seat) == self.ref.friend_seat
        kinds = ("friend", "open-solo", "secret-solo")
        assert kinds[int(self.s[S_KIND])] == self.ref.friend_kind
        assert bool(self.s[S_REVEALED]) == self.ref.friend_revealed
        return self.ref.friend_seat, self.ref.friend_kind


def test_the_first_played_of_two_identical_cards_wins() -> None:
    t = Table(["KH 5C", "AH' 6C", "AH 7C", "2H", "3H", "4H"], trump="S", call=None)
    assert t.trick(0, "KH AH' AH 2H 3H 4H") == 1
    t2 = Table(["KH 5C", "AH 6C", "AH' 7C", "2H", "3H", "4H"], trump="S", call=None)
    assert t2.trick(0, "KH AH AH' 2H 3H 4H") == 1  # the deck it came from does not matter


def test_every_copy_of_mighty_is_mighty_and_the_first_wins() -> None:
    # hearts trump: Mighty is A S; the second copy beats trumps too, and the first played wins
    t = Table(["KC AH", "5H 2C", "AS' 3C", "AS", "4C", "6C"], trump="H", call=None)
    assert t.trick(0, "KC 2C AS' AS 4C 6C") == 2


def test_every_joker_is_a_joker_and_the_first_played_wins() -> None:
    t = Table(["AH KC", "2H JK' 7C", "3H JK 4C", "4H AC", "5H", "6H"], trump="S", call=None)
    assert t.trick(0, "AH 2H 3H 4H 5H 6H") == 0
    t.play(0, "KC")
    assert t.legal(1) != "JK"  # no hunter led: a joker is never forced
    t.play(1, "JK'")
    t.play(2, "JK")
    for seat in (3, 4, 5):
        t.play(seat, t.low(seat))
    assert t.ref.tricks[-1].winner == 1  # trick 2: jokers have power, the first one wins


def test_the_hunter_calls_out_a_joker_of_either_deck() -> None:
    # russian: when the hunter 3 C is played, the next player must play a joker if held
    t = Table(["AH 3C", "2H JK' 5C", "3H", "4H", "5H", "6H"], trump="S", call=None)
    assert t.trick(0, "AH 2H 3H 4H 5H 6H") == 0
    t.play(0, "3C")
    assert t.legal(1) == "JK"
    t.play(1, "JK'")
    for seat in (2, 3, 4, 5):
        t.play(seat, t.low(seat))
    assert t.ref.tricks[-1].winner != 1  # a hunted joker has no power


def test_the_friend_is_the_first_other_player_to_play_the_called_card() -> None:
    t = Table(["AC 6H", "2C", "KD 8C", "4C", "KD'", "5C"], trump="S", call="KD")
    assert t.friend() == (None, "friend")  # two seats hold a K D: nobody knows yet
    t.play(0, "AC")
    t.play(1, "2C")
    t.play(2, "8C")
    t.play(3, "4C")
    t.play(4, "KD'")  # void in clubs: the first other player to play a K D
    assert t.friend() == (4, "friend")
    t.play(5, "5C")
    assert t.ref.tricks[-1].winner == 0
    t.play(0, "6H")  # a heart lead; seat 2's K D later does not change the friend
    for seat in range(1, 6):
        t.play(seat, "KD" if seat == 2 and "KD" in t.legal(2) else t.low(seat))
    assert t.friend()[0] == 4


def test_a_declarer_with_every_copy_plays_a_secret_solo() -> None:
    t = Table(["KD KD'"], trump="S", call="KD")
    assert t.friend() == (None, "secret-solo")


def test_a_copy_outside_the_declarers_hand_makes_a_friend() -> None:
    t = Table(["KD AC", "2C", "7C", "KD' 4C", "5C", "6C"], trump="S", call="KD")
    assert t.friend() == (None, "friend")
    assert t.trick(0, "AC 2C 7C 4C 5C 6C") == 0
    t.play(0, "KD")  # the declarer's own copy does not name a friend
    assert t.friend() == (None, "friend")
    for seat in range(1, 6):
        t.play(seat, "KD'" if seat == 3 else t.low(seat))
    assert t.friend() == (3, "friend")


def test_penalty_settlement_on_forty_points() -> None:
    """Base = minimum bid - 1 = 24: a made 25 with 30 points costs each defender 6; a
    failed 30 costs the declarer and the friend 6 each; a changed trump doubles."""
    params = compile_profile(P6)
    for bid, taken, changed in ((25, 30, False), (30, 22, False), (30, 35, True)):
        ref = ref_rules.settle(P6, bid=bid, trump="S", taken=taken, friend="friend",
                               changed=changed)
        kernel = rules_nb.settle_nb(params, bid, 0, taken, 0, changed)
        assert tuple(Fraction(v) for v in kernel) == ref
    assert ref_rules.settle(P6, bid=25, trump="S", taken=30, friend="friend")[2] == -6
    assert ref_rules.settle(P6, bid=30, trump="S", taken=22, friend="friend")[:2] == (-6, -6)


# -- the whole kernel against the reference engine ---------------------------------------


@pytest.mark.parametrize("name", TWO_DECKS)
def test_random_policy_plays_the_reference_two_deck_deals(name: str) -> None:
    """Identical deals (both decks), auctions, exchanges, friends, every trick and every
    settlement in the kernel and the reference engine, 300 games of 2 deals."""
    profile = load_profile(name)
    n = profile.players
    games = 300
    batch = play_batch(profile, seed=8, game_start=0, games=games,
                       players=parse_players("random", n), ledger=2, record_tricks=True)
    rows = deals_table(batch, n).to_pylist()
    by_deal: dict[int, list[dict[str, object]]] = {}
    for t in tricks_table(batch, n).to_pylist():
        by_deal.setdefault(int(t["deal_id"]), []).append(t)  # type: ignore[call-overload]
    k = compared = friends = 0
    for game in range(games):
        for rec in play_ledger(profile, [RandomPlayer()] * n, seed=8, game=game,
                               deals=2).attempts:
            row = rows[k]
            k += 1
            hands = tuple(a | b << PLANE_BITS for a, b in zip(row["hands"], row["hands_deck2"],
                                                               strict=True))
            assert hands == rec.hands
            assert row["blind"] | row["blind_deck2"] << PLANE_BITS == rec.blind
            r = rec.result
            assert row["outcome"] == r.outcome
            if r.outcome != "played":
                continue
            compared += 1
            friends += r.friend_seat is not None
            assert (row["declarer"], row["bid"], row["trump"]) == (r.declarer, r.bid, r.trump)
            assert row["discards"] | row["discards_deck2"] << PLANE_BITS == r.discards
            assert (row["friend_seat"], row["friend_kind"]) == (r.friend_seat, r.friend_kind)
            assert row["declarer_points"] == r.declarer_points and row["success"] == r.success
            assert [Fraction(v) for v in row["payouts"]] == list(r.payouts)
            kernel_tricks = by_deal[row["deal_id"]]
            assert len(kernel_tricks) == len(rec.tricks) == profile.tricks
            for kt, rt in zip(kernel_tricks, rec.tricks, strict=True):
                assert kt["cards"] == [card_name(c) for c in rt.cards]
                assert (kt["winner"], kt["points"]) == (rt.winner, rt.points)
    assert k == len(rows) and compared >= 500 and friends >= 100


# -- invariants over many kernel deals ----------------------------------------------------


@pytest.mark.parametrize("name", TWO_DECKS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_every_two_deck_row_keeps_the_invariants(name: str, policy: str) -> None:
    profile = load_profile(name)
    n = profile.players
    batch = play_batch(profile, seed=3, game_start=0, games=1500,
                       players=parse_players(policy, n), record_tricks=True)
    deals = deals_table(batch, n).to_pylist()
    tricks: dict[int, list[dict]] = {}  # type: ignore[type-arg]
    for t in tricks_table(batch, n).to_pylist():
        tricks.setdefault(t["deal_id"], []).append(t)
    deck = profile.card_mask
    base = profile.min_bid - 1
    played_rows = 0
    for d in deals:
        hands = [a | b << PLANE_BITS for a, b in zip(d["hands"], d["hands_deck2"], strict=True)]
        union = d["blind"] | d["blind_deck2"] << PLANE_BITS
        for h in hands:
            assert h & union == 0 and h.bit_count() == profile.hand_size
            union |= h
        assert union == deck
        if d["outcome"] != "played":
            continue
        played_rows += 1
        discards = d["discards"] | d["discards_deck2"] << PLANE_BITS
        declarer = d["declarer"]
        assert discards.bit_count() == 6
        assert discards & ~(hands[declarer] | d["blind"] | d["blind_deck2"] << PLANE_BITS) == 0
        ts = tricks[d["deal_id"]]
        assert len(ts) == profile.tricks
        names = Counter(c for t in ts for c in t["cards"]) + Counter(format_cards(discards).split())
        assert names == Counter(format_cards(deck).split())
        discard_points = points_in(discards) + points_in(discards >> PLANE_BITS)
        assert sum(t["points"] for t in ts) + discard_points == 40
        side = {declarer, d["friend_seat"]}
        defenders = sum(t["points"] for t in ts if t["winner"] not in side)
        assert d["declarer_points"] == 40 - defenders
        assert d["success"] == (d["declarer_points"] >= d["bid"])
        mult = 2 if d["trump_changed"] else 1
        for seat, paid in enumerate(d["payouts"]):
            if d["success"]:
                want = 0 if seat in side else -(d["declarer_points"] - base) * mult
            else:
                want = -(d["bid"] - base) * mult if seat in side else 0
            assert paid == want
    assert played_rows > 1000


def test_the_heuristic_outplays_random_play_with_two_decks() -> None:
    """Declarers take more points with heuristic play at every seat than with random."""
    def mean_points(policy: str) -> float:
        batch = play_batch(P6, seed=11, game_start=0, games=2000,
                           players=parse_players(policy, 6))
        rows = [d for d in deals_table(batch, 6).to_pylist() if d["outcome"] == "played"]
        return sum(d["declarer_points"] for d in rows) / len(rows)

    assert mean_points("heuristic") > mean_points("random") + 2


def test_two_deck_rows_do_not_depend_on_batching() -> None:
    players = parse_players("heuristic", 7)
    profile = load_profile("russian-7p")
    whole = play_batch(profile, seed=4, game_start=0, games=300, players=players)
    a = play_batch(profile, seed=4, game_start=0, games=120, players=players)
    b = play_batch(profile, seed=4, game_start=120, games=180, players=players)
    for name in ("rg", "ri", "ru", "rf", "rw", "rh"):
        assert np.array_equal(getattr(whole, name),
                              np.concatenate([getattr(a, name), getattr(b, name)])), name


@pytest.mark.parametrize("name", TWO_DECKS)
def test_rule_kernels_match_the_reference_decision_by_decision(name: str) -> None:
    """Every legal set, trick winner, settlement and weak-hand score of 250 random
    two-deck deals of the reference engine, recomputed by the kernels on card kinds."""
    from mighty_sim.verify.differential import check_deals

    profile = load_profile(name)
    report = check_deals(profile, seed=21, start=0, count=250)
    assert report.mismatches == 0, report.examples
    assert report.played > 200
    assert report.decisions == report.played * profile.players * profile.tricks
    assert report.hands == 250 * profile.players


def test_the_oracle_answers_for_two_decks() -> None:
    from mighty_sim.engine import oracle
    from mighty_sim.rules.cards import parse_cards

    assert oracle.trick_winner(P6, ["KC", "JK", "JK", "AS", "AS", "2C"], trump="H",
                               trick_no=4) == 3  # Mighty A S, the first copy
    assert format_cards(oracle.legal_plays(P6, parse_cards("KC 2H 3H"), trump="S",
                                           trick_no=5, played=["AH", "AH"])) == "3H 2H"
    with pytest.raises(ValueError, match="more often"):
        oracle.trick_winner(P6, ["AH", "AH", "AH"], trump="S", trick_no=4)
    assert oracle.weak_hand_score(P6, parse_physical("JK JK KH KH 10C")) == 0.5
