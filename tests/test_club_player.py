"""Scripted scenarios of the blunders the heuristic no longer makes: each is asked of the
heuristic and of the baseline (the first heuristic, kept as a yardstick) in the same
position, and the baseline makes the blunder, so that each scenario can fail. Then the
same blunders counted over many deals."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import STANDARD

from mighty_sim.engine.batch import OUTCOMES, play_batch
from mighty_sim.engine.heuristic import tuned_for
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import (
    MAX_PLAYERS,
    N_POLICY_PARAMS,
    POLICY_BASELINE,
    POLICY_HEURISTIC,
    PP_FRIEND_MARGIN,
    PP_SOLO_THRESHOLD,
    T_CARDS,
    T_LEADER,
    T_WINNER,
)
from mighty_sim.kernels.params import MODE_CALLED, compile_profile
from mighty_sim.kernels.players.lead_fit import WEIGHTS as LEAD_WEIGHTS
from mighty_sim.kernels.players.lead_fit import card_features as lead_features
from mighty_sim.kernels.players.lead_fit import fitted_lead_nb
from mighty_sim.kernels.players.play_policy_nb import (
    NO_LEAD_FIT,
    gone_kinds_nb,
    lead_fit_at_nb,
    lead_nb,
    play_decide_nb,
    side_points_nb,
    standing_nb,
    winners_nb,
)
from mighty_sim.kernels.players.policy_nb import (
    WEAK,
    auction_decide_nb,
    best_strain_nb,
    bid_ceiling_nb,
    contract_decide_nb,
    exchange_decide_nb,
    friend_decide_nb,
)
from mighty_sim.kernels.players.shed_fit import (
    MONOTONE,
    WEIGHTS,
    card_features,
    fitted_shed_nb,
)
from mighty_sim.kernels.rules.rules_nb import mighty_of_nb
from mighty_sim.rules.cards import cards_of, format_cards, parse_cards
from mighty_sim.rules.profile import TRUMPS, load_profile

POLICIES = {"heuristic": POLICY_HEURISTIC, "baseline": POLICY_BASELINE}


def _pp(profile_name: str = "standard") -> np.ndarray:
    pp = np.zeros(N_POLICY_PARAMS)
    tuned_for(load_profile(profile_name)).fill(pp)
    return pp


def _card(text: str) -> int:
    return parse_cards(text).bit_length() - 1


def _st() -> np.ndarray:
    return np.array([1], np.uint64)


def _follow(policy: str, profile_name: str, hand: str, legal: str, played: str,
            seat_at: tuple[int, int, int, int], partners: int, behind: tuple[int, float],
            declarer_side: bool | None = None, named: int = -1) -> int:
    """The card ``policy`` follows with: ``played`` the trick's cards so far, ``seat_at``
    (the seat, the leader, the trump, the trick's number); ``behind`` (the seats still to
    play, how many of them it counts as opponents); ``declarer_side`` whether it is on
    the declarer's side (by default when it knows partners); ``named`` the suit a joker
    led named. The cards it has not seen
    are all but its hand and the trick's (no trick finished before counted: a test's
    choice); the leader is the declarer."""
    if declarer_side is None:
        declarer_side = partners != 0
    params = compile_profile(load_profile(profile_name))
    seat, leader, trump, trick_no = seat_at
    cards = [_card(c) for c in played.split()]
    trick = np.full(MAX_PLAYERS, -1, np.int64)
    trick[:len(cards)] = cards
    at = (trick, len(cards), leader, trump, trick_no, named, False, -1)
    gone = np.uint64(parse_cards(hand) | parse_cards(played))
    card, _, _ = play_decide_nb(POLICIES[policy], _st(), seat, np.uint64(parse_cards(hand)),
                                np.uint64(parse_cards(legal)), at, partners, declarer_side,
                                (np.uint64(0), gone, behind[0], behind[1], leader, NO_LEAD_FIT), 5,
                                params, -1)
    return int(card)


def _lead(club: bool, hand: str, when: tuple[str, int], declarer_side: bool,
          seen: str) -> int:
    """The card a leader plays in a one-deck point game: ``when`` the trump (not
    spades: Mighty is the spade ace) and the trick's number, ``seen`` the cards of the
    finished tricks; the joker keeps its power in this trick and the next."""
    mask, seen_mask = np.uint64(parse_cards(hand)), np.uint64(parse_cards(seen))
    trump, trick_no = when
    card, _, _ = lead_nb(mask, mask, TRUMPS.index(trump), trick_no, -1,
                         (declarer_side, True, NO_LEAD_FIT), seen_mask, _card("AS"),
                         (True, False), 0, club, mask | seen_mask)
    return int(card)


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_a_weak_hand_with_mighty_and_the_joker_is_played(policy: str) -> None:
    """The scale counts the joker -1 and Mighty 0: this hand may be shown as weak. No
    table throws it in; the baseline does."""
    params = compile_profile(STANDARD)
    hand = np.uint64(parse_cards("JK AS 2H 3H 4D 5D 6C 7C 3S 4S"))
    pp = _pp()
    trump, strength = best_strain_nb(hand, params, pp)
    number, _ = auction_decide_nb(POLICIES[policy], pp, _st(), hand, True, 0, 0, params,
                                  trump, strength)
    assert (number == WEAK) == (policy == "baseline")


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_holder_of_mighty_lets_another_seat_declare(policy: str) -> None:
    """Under penalty scoring a made contract pays its side nothing and a failed one costs
    the declarer and the friend alike; the holder of Mighty is the friend of whoever
    declares (Mighty is called first), so bidding over another seat only raises what
    its own side must make. The heuristic passes there and bids the same hand when no
    one has bid, or without Mighty; the baseline bids over the contract."""
    profile = load_profile("russian-4p")
    params = compile_profile(profile)
    pp = _pp("russian-4p")
    assert pp[PP_FRIEND_MARGIN] >= 1
    hand = np.uint64(parse_cards("AS AH KH QH JH 10H 9H 8H 5C 6D"))
    trump, strength = best_strain_nb(hand, params, pp)
    assert trump != TRUMPS.index("S")  # the spade ace is Mighty
    ceiling = bid_ceiling_nb(strength, pp, params)
    standing = ceiling - 1  # another seat's contract the hand could still beat
    number, _ = auction_decide_nb(POLICIES[policy], pp, _st(), hand, False, standing,
                                  trump, params, trump, strength)
    assert (number > 0) == (policy == "baseline")
    # the same hand opens, and without Mighty (the spade ace traded for the club ace)
    # bids over a contract it can beat
    opening, _ = auction_decide_nb(POLICIES[policy], pp, _st(), hand, False, 0, 0, params,
                                   trump, strength)
    assert opening > 0
    other = np.uint64(parse_cards("AC AH KH QH JH 10H 9H 8H 5C 6D"))
    t2, s2 = best_strain_nb(other, params, pp)
    over, _ = auction_decide_nb(POLICIES[policy], pp, _st(), other, False,
                                bid_ceiling_nb(s2, pp, params) - 1, t2, params, t2, s2)
    assert over > 0
    # where no friend is called (russian-3p) the holder of Mighty is nobody's friend: the
    # margin is not played, whatever its value
    params3 = compile_profile(load_profile("russian-3p"))
    pp3 = _pp("russian-3p")
    pp3[PP_FRIEND_MARGIN] = pp[PP_FRIEND_MARGIN]
    hand3 = np.uint64(parse_cards("AS AH KH QH JH 10H 9H 8H 7C 7D"))  # its 7-to-ace deck
    t3, s3 = best_strain_nb(hand3, params3, pp3)
    assert t3 != TRUMPS.index("S")
    alone, _ = auction_decide_nb(POLICIES[policy], pp3, _st(), hand3, False,
                                 bid_ceiling_nb(s3, pp3, params3) - 1, t3, params3, t3, s3)
    assert alone > 0


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_follower_does_not_feed_a_trick_the_seats_behind_take(policy: str) -> None:
    """Trick 1, hearts trump: 9D led by the declarer, an opponent's 10D winning, two
    opponents still to play and KD, AD unseen. The friend's QD would only feed the
    trick to the king behind it (the joker is powerless in trick 1); it gives the trick
    up with its lowest diamond. The baseline wins with the cheapest card that beats
    the trick so far."""
    card = _follow(policy, "standard", "JK QD 4D 3D 5S 6S 7C 8C 9H 10H", "QD 4D 3D", "9D 10D",
                   (2, 0, TRUMPS.index("H"), 1), 1 << 0, (0b11000, 2.0))
    assert card == (_card("QD") if policy == "baseline" else _card("3D"))


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_a_partners_beaten_card_is_taken_over_with_one_that_stands(policy: str) -> None:
    """Trick 3, hearts trump: the declarer (a known partner) leads 9D, three opponents
    behind, KD and QD unseen. The friend's AD stands against every diamond out and the
    opponents behind follow suit rather than ruff (ten diamonds out): it takes the trick
    over. The baseline, seeing its partner winning, played its cheapest card."""
    card = _follow(policy, "standard", "AD 3D 5S 6S 7C 8C 9H 10H", "AD 3D", "9D",
                   (1, 0, TRUMPS.index("H"), 3), 1 << 0, (0b11100, 3.0))
    assert card == (_card("AD") if policy == "heuristic" else _card("3D"))


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_last_seat_keeps_its_trump_off_a_trick_without_points(policy: str) -> None:
    """Trick 4, hearts trump: 2D led, an opponent's 5D winning, no point in the trick and
    nobody behind. Void in diamonds, the last seat could ruff with 7H; the heuristic keeps
    the trump for a trick with points and throws 3C, the baseline ruffs (the last to play
    may always win). With the 9D it holds, a card of the suit led, it still wins."""
    hand = "7H 3C 4C 8S 9S"
    card = _follow(policy, "standard", hand, hand, "2D 5D 3D 4D",
                   (4, 0, TRUMPS.index("H"), 4), 0, (0, 0.0))
    assert card == (_card("7H") if policy == "baseline" else _card("3C"))
    card = _follow(policy, "standard", "9D 7H 3C 4C 8S", "9D", "2D 5D 3D 4D",
                   (4, 0, TRUMPS.index("H"), 4), 0, (0, 0.0))
    assert card == _card("9D")


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_friend_call_never_falls_through_to_the_lowest_card(policy: str) -> None:
    """NT, the declarer holding Mighty, the joker and every side ace: the heuristic calls
    the best card it lacks (a king); the baseline called the deck's lowest card."""
    params = compile_profile(STANDARD)
    hand = parse_cards("AS JK AH AD AC QS QH QD 10C 9C")
    pp = _pp()  # tuned values; the solo threshold is far above this hand
    deck = np.array(cards_of(STANDARD.deck_mask), np.int64)
    mode, called, _ = friend_decide_nb(POLICIES[policy], pp, _st(), np.uint64(hand),
                                       np.uint64(0), 14, TRUMPS.index("NT"), deck, False,
                                       params)
    assert mode == MODE_CALLED
    if policy == "baseline":
        assert called == int(deck[0])
    else:
        assert called % 13 == 11 and not hand >> called & 1  # a king it lacks


def test_holding_every_ace_and_king_the_heuristic_calls_a_queen() -> None:
    """A hand holding every ace and king calls the best card it lacks, a queen, not the
    deck's lowest card (the solo threshold put out of reach: the call itself decides)."""
    params = compile_profile(STANDARD)
    pp = _pp()
    pp[PP_SOLO_THRESHOLD] = 60.0
    hand = parse_cards("AS JK AH AD AC KS KH KD KC QS")
    deck = np.array(cards_of(STANDARD.deck_mask), np.int64)
    mode, called, _ = friend_decide_nb(POLICY_HEURISTIC, pp, _st(), np.uint64(hand),
                                       np.uint64(0), 14, TRUMPS.index("NT"), deck, False,
                                       params)
    assert mode == MODE_CALLED and called % 13 == 10 and not hand >> called & 1


@pytest.mark.parametrize("profile_name", ["standard", "ucla-5p"])
@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_declarer_buries_the_points_it_cannot_guard(policy: str, profile_name: str) -> None:
    """Spades trump, the blind taken: K and Q of diamonds without the ace would likely
    fall to the defenders' ace; discarded, their points are the declarer side's. The
    heuristic buries them; the baseline keeps them and throws three eights. Where tricks
    are scored (`ucla-5p`) a buried point counts for nothing: the heuristic's tuned
    ``bury`` keeps them too."""
    profile = load_profile(profile_name)
    params = compile_profile(profile)
    pp = np.zeros(N_POLICY_PARAMS)
    tuned_for(profile, baseline=policy == "baseline").fill(pp)
    hand = parse_cards("AS KS QS AH 9H 8H KD QD 9D 8D AC 9C 8C")
    d0, d1 = exchange_decide_nb(POLICIES[policy], pp, _st(), np.uint64(hand), np.uint64(0),
                                3, TRUMPS.index("S"), params)
    assert d1 == 0 and bin(int(d0)).count("1") == 3 and int(d0) & ~hand == 0
    buried = int(d0) & parse_cards("KD QD")
    points_scored = profile.bid_unit != "tricks"
    expected = parse_cards("KD QD") if policy == "heuristic" and points_scored else 0
    assert buried == expected, format_cards(int(d0))


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_a_good_blind_raises_the_contract(policy: str) -> None:
    """13 spades won with a modest hand; the blind brought the joker, Mighty (A♦ with
    spades trump) and spades: the hand now promises far more than 13."""
    params = compile_profile(STANDARD)
    hand = np.uint64(parse_cards("JK AD KS QS JS 10S 9S 8S 7S 2C"))
    bid, trump = contract_decide_nb(POLICIES[policy], _pp(), _st(), hand, 13,
                                    TRUMPS.index("S"), params)
    assert trump == TRUMPS.index("S")
    assert (bid > 13) == (policy == "heuristic")


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_trick_scored_profiles_win_tricks_without_points(policy: str) -> None:
    """ucla-5p scores tricks: an opponent's 5C leads a trick without points, the follower
    is void in clubs with the 2 of trumps. A trick is a trick: the heuristic ruffs; the
    baseline, counting card points, threw a card."""
    hand = "2H 3D 4D 5D 6S 7S 8S 9D 10D JD"
    card = _follow(policy, "ucla-5p", hand, hand, "5C", (4, 3, TRUMPS.index("H"), 3), 0,
                   (0b00111, 3.0))
    assert (card == _card("2H")) == (policy == "heuristic")


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_joker_is_led_before_it_loses_its_power(policy: str) -> None:
    """Two cards left, the joker one of them: in the last trick it has no power. The
    heuristic leads it now; the baseline kept it and lost it."""
    hand = np.uint64(parse_cards("JK 5C"))
    seen = np.uint64(((1 << 53) - 1) & ~parse_cards(
        "JK 5C KC QC JC 10C 9C 8C 7C 6C 2D 3D"))
    card, _, _ = lead_nb(hand, hand, TRUMPS.index("S"), 9, -1, (True, True, NO_LEAD_FIT), seen,
                         _card("AD"), (True, True), 0, policy == "heuristic", hand | seen)
    assert (card == 52) == (policy == "heuristic")


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_trumps_are_drawn_low_while_a_higher_trump_is_out(policy: str) -> None:
    """The declarer draws trumps (hearts) holding K 7 3 with the ace out: the king led
    falls to the ace. The heuristic leads the 3 and keeps the king over the ace; with the
    ace gone it leads the king, now the top trump. The baseline led the king either way."""
    club = policy == "heuristic"
    for seen, want in (("2S 3S 4S 5S 6S", "3H" if club else "KH"),
                       ("AH 2H 2S 3S 4S", "KH")):
        assert _lead(club, "KH 7H 3H 5C 9D", ("H", 3), True, seen) == _card(want), seen


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_a_defender_keeps_its_ace_from_mighty_and_the_joker(policy: str) -> None:
    """Diamonds trump, a defender to lead trick 4 with the top heart. While Mighty and
    the joker are out their holders take the ace and the points with it: the heuristic
    leads a low spade instead, Mighty's suit, which may draw Mighty out (a Mighty
    attack); once both are gone it cashes the ace. The baseline cashes it at once."""
    club = policy == "heuristic"
    for seen, want in (("2H 3H 2C 3C 4C", "4S" if club else "AH"),
                       ("AS JK 2C 3C 4C", "AH")):
        assert _lead(club, "AH 7H 4S 5S 6S 9C", ("D", 4), False, seen) == _card(want), seen


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_a_point_is_fed_to_the_partners_behind(policy: str) -> None:
    """Trick 5, spades trump, the sides known: the declarer's KH led, 3H followed; the
    defender void in hearts cannot take the trick, its two partners are the seats still
    to play and the ace of hearts is out. The heuristic gives them QC; the baseline
    throws its cheapest card."""
    card = _follow(policy, "standard", "QC 5C 9D 4D", "QC 5C 9D 4D", "KH 3H",
                   (2, 0, TRUMPS.index("S"), 5), 0b11000, (0b11000, 0.0), False)
    assert card == (_card("QC") if policy == "heuristic" else _card("4D"))


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_friend_feeds_a_point_but_keeps_its_suits_master(policy: str) -> None:
    """Trick 2, hearts trump: the declarer's AD wins the trick, three opponents followed
    and the friend plays last. Holding QD with KD unseen, the queen would fall to the
    king later: the heuristic gives it to its partner's trick. Holding KD, which the ace
    leaves the highest diamond out, it keeps the king, a trick of its own to come, and
    plays 4D. The baseline gives its point card both times (and so did the heuristic
    before it kept its masters)."""
    for hand, want in (("QD 4D 9S 8C 7C 6H", "QD"), ("KD 4D 9S 8C 7C 6H", "4D")):
        card = _follow(policy, "standard", hand, " ".join(hand.split()[:2]), "AD 5D 6D 7D",
                       (4, 0, TRUMPS.index("H"), 2), 1 << 0, (0, 0.0))
        assert card == _card(want if policy == "heuristic" else hand.split()[0]), hand


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_a_defender_feeds_a_king_and_keeps_an_ace(policy: str) -> None:
    """Trick 6, spades trump, the sides known: the declarer leads 5H, the defender second
    to play is void in hearts and cannot take the trick; its two partners and the friend
    are still to play. The heuristic's fitted choice gives its partners' likely trick
    the king of clubs, which the unseen ace would take later; holding the ace of clubs
    instead, a card that stands, it keeps it and throws 3C. The baseline throws its
    cheapest card both times (so did the heuristic before the fitted choice)."""
    for hand, want in (("KC 3C 4D 9D", "KC"), ("AC 3C 4D 9D", "3C")):
        card = _follow(policy, "standard", hand, hand, "5H", (1, 0, TRUMPS.index("S"), 6),
                       0b01100, (0b11100, 1.0), False)
        assert card == _card(want if policy == "heuristic" else "3C"), hand


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_a_hidden_friends_defender_feeds_a_trick_it_cannot_place(policy: str) -> None:
    """Trick 6, spades trump, the friend still hidden: a defender last to play, void in
    hearts. Won by the KH of a seat that is not the declarer (its partner two times in
    three), the trick gets QC from the heuristic; won by the declarer's KH, a low card.
    The baseline throws 4D both times (and so did the fitted choice without the terms
    for a winner whose side it cannot tell)."""
    for played, want in (("5H 9H KH 3H", "QC"), ("KH 9H 5H 3H", "4D")):
        card = _follow(policy, "standard", "QC 5C 9D 4D", "QC 5C 9D 4D", played,
                       (4, 0, TRUMPS.index("S"), 6), 0, (0, 0.0), False)
        assert card == _card(want if policy == "heuristic" else "4D"), played


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_the_second_seat_knows_a_joker_led_with_power_wins(policy: str) -> None:
    """Trick 3, diamonds trump: the declarer leads the joker, with its power, naming
    clubs; only Mighty, the spade ace, beats it. The friend second to play, holding
    Mighty, gives its partner's trick JC, which AC, KC and QC out would take later; a
    defender second to play, void in clubs, throws 3H and keeps JH from the declarer's
    trick. Before the heuristic's second seat weighed the joker's power, it counted
    every unseen club as beating the joker: the friend kept JC back (9C), and the
    defender fed JH to a partner behind who could not take the trick. The baseline does
    both right: it gives its partner's joker trick a point card, and as a defender
    sheds its cheapest card."""
    trick = ((1, 0, TRUMPS.index("D"), 3), "JK")
    clubs = TRUMPS.index("C")
    friend = _follow(policy, "standard", "AS JC 9C 5H 6H", "AS JC 9C", trick[1], trick[0],
                     1 << 0, (0b11100, 3.0), named=clubs)
    assert friend == _card("JC")
    defender = _follow(policy, "standard", "JH 3H 5S 6S", "JH 3H 5S 6S", trick[1], trick[0],
                       0, (0b11100, 1 + 2 / 3), False, named=clubs)
    assert defender == _card("3H")


def _random_position(rng: np.random.Generator, params: np.ndarray
                     ) -> tuple[int, int, np.ndarray, int, int]:
    """A random strain (NT included), its Mighty, a hand of 1 to 8 random cards (as a
    list and a mask) and up to 29 other cards unseen (a mask)."""
    trump = int(rng.integers(0, 5))
    mighty = int(mighty_of_nb(params, trump))
    cards = rng.permutation(53)
    k = int(rng.integers(1, 9))
    hand = sum(1 << int(c) for c in cards[:k])
    outside = sum(1 << int(c) for c in cards[k:k + int(rng.integers(0, 30))])
    return trump, mighty, cards[:k], hand, outside


def test_the_fitted_shed_plays_the_card_its_features_score_lowest() -> None:
    """The kernel's fitted choice (its own, faster arithmetic) against the features the
    weights were fitted on (shed_fit.card_features), over random positions: the card it
    plays scores lowest, up to rounding; Mighty and the joker only when alone. The kernel
    scores the lowest card of each kind in a suit only, which holds for weights that keep
    MONOTONE."""
    assert MONOTONE, "the fitted weights no longer let the kernel score a suit's lowest cards"
    params = compile_profile(STANDARD)
    rng = np.random.default_rng(7)
    weights = np.array(WEIGHTS)
    for _ in range(3000):
        trump, mighty, _, legal, outside = _random_position(rng, params)
        pw = int(rng.integers(0, 2))
        at = dict(pw=pw, unknown=int(not pw and rng.integers(0, 2)),
                  mates=int(rng.integers(0, 3)), opps=int(rng.integers(0, 3)),
                  left=int(rng.integers(1, 10)), after=int(rng.integers(0, 9)),
                  beat=int(rng.integers(0, bin(outside).count("1") + 1)))
        beat = at["beat"] if side_points_nb(np.uint64(legal), trump, mighty) else -1
        card = int(fitted_shed_nb(np.uint64(legal), np.uint64(outside), beat, trump, mighty,
                                  (bool(pw), at["mates"], at["opps"], at["left"],
                                   at["after"], bool(at["unknown"]))))
        score = {c: float(np.dot(card_features(c, legal, outside, trump, mighty, at),
                                 weights)) for c in range(53) if legal >> c & 1}
        assert card in score
        assert score[card] <= min(score.values()) + 1e-9, (legal, outside, trump, at)


def test_the_fitted_lead_plays_the_card_its_features_score_lowest() -> None:
    """The kernel's fitted lead against the features its weights were fitted on
    (lead_fit.card_features), over random positions: the card it leads scores lowest, up
    to rounding."""
    params = compile_profile(STANDARD)
    rng = np.random.default_rng(11)
    weights = np.array(LEAD_WEIGHTS)
    for _ in range(3000):
        trump, mighty, cards, hand, outside = _random_position(rng, params)
        k = len(cards)
        legal = hand if rng.integers(0, 3) else sum(1 << int(c) for c in cards[:max(1, k // 2)])
        at = dict(pal_pos=int(rng.integers(0, 5)), n=5, called_suit=int(rng.integers(-1, 4)),
                  mate_next=int(rng.integers(0, 2)), opp_void=int(rng.integers(0, 16)),
                  pal_void=int(rng.integers(0, 16)))
        card = int(fitted_lead_nb(np.uint64(hand), np.uint64(legal), np.uint64(outside), trump,
                                  mighty, (at["pal_pos"], 5, at["called_suit"],
                                           bool(at["mate_next"]), at["opp_void"],
                                           at["pal_void"])))
        score = {c: float(np.dot(lead_features(c, hand, outside, trump, mighty, at), weights))
                 for c in range(53) if legal >> c & 1}
        assert card in score
        assert score[card] <= min(score.values()) + 1e-9, (legal, outside, trump, at)


def test_the_fitted_lead_plays_in_trick_2_of_five_player_games_only() -> None:
    """lead_fit_at_nb: the score chooses where the caller allows it, in trick 2, with five
    players; it reads the partner's place and splits the voids shown between the
    partners' and the opponents'."""
    seat, partner = 1, 4  # the partner plays three seats after the leader
    voids = (1 << (4 * partner + 2)) | (1 << (4 * 0 + 1)) | (1 << (4 * seat + 3))
    on, at = lead_fit_at_nb(True, (seat, 5, 2), 3, 1 << partner, voids)
    assert on and at == (3, 5, 3, False, 1 << 1, 1 << 2)
    assert lead_fit_at_nb(True, (seat, 5, 0 + 2), -1, 1 << 2, 0)[1][3]  # partner next
    for use, n, trick_no in ((False, 5, 2), (True, 5, 3), (True, 4, 2), (True, 6, 2)):
        assert not lead_fit_at_nb(use, (seat, n, trick_no), -1, 1 << partner, voids)[0]


def test_the_declarer_does_not_draw_trumps_with_its_ace_at_trick_2() -> None:
    """Trick 2, hearts trump, the declarer to lead with the ace of trumps, the friend
    hidden: the rules drew trumps with the ace (the highest unseen trump); the fitted lead
    of trick 2 keeps it and leads a side card (trick 1: spades, followed by all)."""
    hand = np.uint64(parse_cards("AH QH 9H 5H 3H 4C 7C 6D 8D"))
    seen = np.uint64(parse_cards("KS QS 9S 4S 2S"))
    trump = TRUMPS.index("H")
    fit = lead_fit_at_nb(True, (0, 5, 2), -1, 0, 0)
    card, _, _ = lead_nb(hand, hand, trump, 2, -1, (True, True, fit), seen, _card("AS"),
                         (True, False), 0, True, hand | seen)
    rules, _, _ = lead_nb(hand, hand, trump, 2, -1, (True, True, NO_LEAD_FIT), seen, _card("AS"),
                          (True, False), 0, True, hand | seen)
    assert rules == _card("AH")
    assert card != _card("AH") and card // 13 != trump, format_cards(1 << card)


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_two_decks_no_king_is_cashed_while_the_other_ace_is_out(policy: str) -> None:
    """Two decks, diamonds trump, the declarer's side to lead: one ace of hearts has been
    played, the other copy is still out. The king of hearts is not a sure winner; the
    baseline, which counted kinds, led it as one."""
    hand = parse_cards("KH 4H 5C 6C 7S")
    seen = np.uint64(parse_cards("AH 2H 3H 2C 3C"))
    club = policy == "heuristic"
    gone = np.uint64(gone_kinds_nb(np.uint64(hand), np.uint64(0), seen, np.uint64(0), 2)
                     if club else np.uint64(hand) | seen)
    card, _, _ = lead_nb(np.uint64(hand), np.uint64(hand), TRUMPS.index("D"), 4, -1,
                         (True, True, NO_LEAD_FIT),
                         seen, _card("AS"), (True, False), 0, club, gone)
    assert (card == _card("KH")) == (policy == "baseline")


def test_weak_hands_shown_by_the_heuristic_are_rarely_strong() -> None:
    """Over many deals no weak-hand redeal is asked for by a hand with Mighty and the
    joker (tests/test_simulate.py compares the shares with the baseline's)."""
    batch = play_batch(STANDARD, seed=3, game_start=0, games=5000,
                       players=parse_players("heuristic", 5))
    weak = np.flatnonzero(batch.column("outcome") == OUTCOMES.index("weak-redeal"))
    hands = batch.ru[weak, batch.column("redeal_by")[weak]]
    assert len(weak) > 0
    assert not ((hands >> np.uint64(12)) & (hands >> np.uint64(52)) & np.uint64(1)).any()


def _king_leads_lost(policy: str) -> tuple[int, int]:
    """In russian-7p deals: kings led (not trumps) while an ace of their suit is still
    unseen, and how many of them an ace took."""
    profile = load_profile("russian-7p")
    n = profile.players
    b = play_batch(profile, seed=4, game_start=0, games=120,
                   players=parse_players(policy, n), record_tricks=True)
    trump = b.column("trump")
    kings = lost = t = 0
    for r in np.flatnonzero(b.played()):
        seen: dict[int, int] = {}
        for _ in range(profile.hand_size):
            row = b.ti[t]
            t += 1
            cards = [min(int(x) & 63, 52) for x in row[T_CARDS:T_CARDS + n]]
            kind = cards[0]
            if kind < 52 and kind % 13 == 11 and kind // 13 != trump[r]:
                if seen.get(kind + 1, 0) < 2:
                    kings += 1
                    lost += int(row[T_WINNER]) != int(row[T_LEADER]) and kind + 1 in cards
            for c in cards:
                seen[c] = seen.get(c, 0) + 1
    return kings, lost


def test_two_decks_kings_are_not_led_into_the_other_ace() -> None:
    heuristic, baseline = _king_leads_lost("heuristic"), _king_leads_lost("baseline")
    assert baseline[1] > 20
    assert heuristic[1] * 4 < baseline[1]


def test_standing_cards_by_masks_are_those_no_threat_beats() -> None:
    """``standing_nb`` (masks) against ``winners_nb`` asked card by card, on random
    tricks: the cards that would win, random unseen cards as threats, every strain."""
    rng = np.random.default_rng(5)
    for _ in range(3000):
        deck = rng.permutation(53)
        trump = int(rng.integers(5))
        mighty = _card("AD") if trump == 0 else _card("AS")
        suit = int(rng.integers(4))
        w = int(deck[0])
        power = bool(rng.integers(2))
        hand = np.uint64(sum(1 << int(c) for c in deck[1:11]))
        threats = np.uint64(sum(1 << int(c) for c in deck[11:11 + int(rng.integers(0, 20))]))
        wins = winners_nb(hand, w, suit, trump, mighty, power)
        by_card = 0
        for c in cards_of(int(wins)):
            if not winners_nb(threats, c, suit, trump, mighty, power):
                by_card |= 1 << c
        assert int(standing_nb(wins, threats, suit, trump, mighty, power)) == by_card
        # two decks: the other copy of a card among the threats does not beat it
        copies = np.uint64(int(threats) | int(wins) & ~(1 << mighty) & ~(1 << 52))
        by_card = 0
        for c in cards_of(int(wins)):
            if not winners_nb(copies, c, suit, trump, mighty, power):
                by_card |= 1 << c
        assert int(standing_nb(wins, copies, suit, trump, mighty, power)) == by_card


@pytest.mark.parametrize("policy", ["heuristic", "baseline"])
def test_two_decks_the_called_cards_holder_plays_as_friend(policy: str) -> None:
    """Two decks, diamonds trump, K♣ called: seat 2 holds it (the other copy is in the
    blind) but nobody knows the friend until a copy is played. The declarer leads A♥ and
    seat 2, void in hearts, is to play: as the friend it lets the declarer's ace take
    the trick; the baseline, counting only a revealed friend as a partner, trumped it."""
    from test_two_decks import Table

    from mighty_sim.engine.batch import policy_arrays
    from mighty_sim.kernels.loop.play_nb import play_until_nb

    t = Table(["AH", "2H", "KC", "", "", ""], trump="D", call="KC")
    assert t.friend() == (None, "friend")
    held = format_cards(t.ref.hands[2]).split()
    assert not [c for c in held if c.endswith("H")] and [c for c in held if c.endswith("D")]
    t.play(0, "AH")
    t.play(1, "2H")
    policies, pp = policy_arrays(parse_players(policy, 6), t.ref.profile)
    st = np.ones(1, np.uint64)
    ti = np.zeros((1, t.ti.shape[1]), np.int8)
    play_until_nb(st, t.s, t.h, t.tr, policies, t.params, 0.0, False, ti, 0, 1)
    trumped = int(t.tr[2]) // 13 == TRUMPS.index("D")
    assert trumped == (policy == "baseline")
