"""The heuristic's shortcuts against the definitions they stand for, on random hands of
every size for every strain of every one-deck profile (their Mighty differs): the card
the declarer least wants to keep (``least_wanted_nb``, which values at most two cards a
suit) against every card's ``keep_value_nb``; the hand strength (``strength_nb``)
against the sum of its terms written out in Python, to the last bit (the auction's
ceilings round it down: a term added in another order can move a bid); the strength in
integer tenths and the strain the auction picks from them against the float strengths;
the NT edge against its terms; the random bidder's count and choice of legal bids
against the bids listed one by one."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np
import pytest

from mighty_sim.kernels.layout import N_POLICY_PARAMS, PP_NT_MARGIN, PP_STRAIN_FIT
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.players import strain_fit
from mighty_sim.kernels.players.policy_nb import (
    best_strain_nb,
    keep_value_nb,
    least_wanted_nb,
    nt_edge_nb,
    strain_score_nb,
    strength_nb,
    strength_tenths_nb,
)
from mighty_sim.kernels.rules.rules_nb import mighty_of_nb
from mighty_sim.rules.cards import cards_of, parse_cards
from mighty_sim.rules.profile import BUILTIN_PROFILES, load_profile

ONE_DECK = [n for n in BUILTIN_PROFILES if load_profile(n).deck_copies == 1]


def _random_hands(name: str, seed: int) -> tuple[np.ndarray, list[int]]:
    """The profile's compiled parameters and 600 random hands of 1 to 15 of its cards,
    a third of them given the joker, the ace of spades and the ace of hearts (the cards
    the shortcuts treat apart)."""
    profile = load_profile(name)
    deck = np.array(cards_of(profile.deck_mask))
    rng = np.random.default_rng(seed)
    hands = []
    for _ in range(600):
        hand = 0
        for c in rng.choice(deck, int(rng.integers(1, 16)), replace=False):
            hand |= 1 << int(c)
        if rng.random() < 0.3:
            hand |= 1 << 52 | 1 << 12 | 1 << 25
        hands.append(hand)
    return compile_profile(profile), hands


def _least_wanted_by_definition(hand: int, trump: int, params: np.ndarray,
                                bury: int) -> int:
    """The lowest card among those of the smallest keep value."""
    values = [(keep_value_nb(np.uint64(hand), c, trump, params, bury), c)
              for c in range(64) if hand >> c & 1]
    return min(values)[1]


def _strength_by_definition(hand: int, trump: int, params: np.ndarray) -> float:
    """The heuristic's strength (docs/players.md), each term added when present."""
    mighty = mighty_of_nb(params, trump)
    s = 0.0
    if hand >> mighty & 1:
        s += 2.5
    if hand >> 52 & 1:
        s += 2.0
    for suit in range(4):
        cards = hand & (0x1FFF << 13 * suit) & ~(1 << mighty)
        n = bin(cards).count("1")
        top = suit * 13 + 12
        ace, king = cards >> top & 1, cards >> (top - 1) & 1
        if suit == trump:
            s += n
            if ace:
                s += 1.0
            if king:
                s += 0.7
            if cards >> (top - 2) & 1:
                s += 0.4
            if n > 5:
                s += 0.5 * (n - 5)
        else:
            if ace:
                s += 1.3 if trump == 4 else 1.0
            if king and (ace or n >= 3):
                s += 0.5 if trump == 4 else 0.4
            if trump == 4 and ace and n > 4:
                s += 0.5 * (n - 4)
    return s


@pytest.mark.parametrize("name", ONE_DECK)
@pytest.mark.parametrize(("kernel", "definition"), [
    # the card of least keep value, with the heuristic's burying of doubtful points (the
    # default of HeuristicParams.bury, 8) and the baseline's (2)
    (partial(least_wanted_nb, bury=8), partial(_least_wanted_by_definition, bury=8)),
    (partial(least_wanted_nb, bury=2), partial(_least_wanted_by_definition, bury=2)),
    (strength_nb, _strength_by_definition),  # the sum of its terms, to the last bit
], ids=["least-wanted", "least-wanted-baseline", "strength"])
def test_the_kernel_gives_what_the_definition_gives(
        name: str, kernel: Callable[..., object], definition: Callable[..., object]) -> None:
    params, hands = _random_hands(name, 7)
    for hand in hands:
        for trump in range(5):
            got = kernel(np.uint64(hand), trump, params)
            assert got == definition(hand, trump, params), (hex(hand), trump)


@pytest.mark.parametrize("name", BUILTIN_PROFILES)
def test_legal_bids_counted_and_picked_as_listed(name: str) -> None:
    """The random bidder's count of legal bids and its k-th one, against every bid listed
    in the reference order (number low to high, then S H D C NT) and kept when it beats
    the standing one, from no bid and from every bid."""
    from mighty_sim.kernels.rules.auction_nb import beats_nb, kth_legal_bid_nb, legal_bid_count_nb

    profile = load_profile(name)
    params = compile_profile(profile)
    every = [(n, t) for n in range(profile.min_bid, profile.max_bid + 1) for t in range(5)]
    for high in [(0, 0), *every]:
        legal = [b for b in every if beats_nb(params, b[0], b[1], *high)]
        assert legal_bid_count_nb(params, *high) == len(legal), high
        assert [kth_legal_bid_nb(params, *high, k) for k in range(len(legal))] == legal
        assert kth_legal_bid_nb(params, *high, len(legal)) == (-1, -1)


def _best_strain_by_definition(hand: int, params: np.ndarray, pp: np.ndarray
                               ) -> tuple[int, float]:
    """The first suit of the highest ``strength_nb``; NT when its NT edge reaches the
    margin, with the higher of the two strengths."""
    h = np.uint64(hand)
    strengths = [strength_nb(h, t, params) for t in range(4)]
    best = max(range(4), key=lambda t: (strengths[t], -t))
    if nt_edge_nb(h, params) >= pp[PP_NT_MARGIN]:
        return 4, max(strengths[best], strength_nb(h, 4, params))
    return best, strengths[best]


@pytest.mark.parametrize("name", ONE_DECK)
def test_strength_in_tenths_and_the_best_strain(name: str) -> None:
    """The integer strength is the float one in exact tenths, and the strain the auction
    picks from it (floats summed only for the suits of the top tenths) is the first of
    the highest float strengths: among the hands are suits of equal tenths whose float
    sums differ in the last bit."""
    params, hands = _random_hands(name, 11)
    pp = np.zeros(N_POLICY_PARAMS)
    split_ties = 0
    for margin in (-100.0, 1.0, 100.0):
        pp[PP_NT_MARGIN] = margin
        for hand in hands:
            h = np.uint64(hand)
            tenths = [strength_tenths_nb(h, t, params) for t in range(5)]
            floats = [strength_nb(h, t, params) for t in range(5)]
            assert tenths == [round(f * 10) for f in floats], hex(hand)
            assert best_strain_nb(h, params, pp) == _best_strain_by_definition(
                hand, params, pp), (hex(hand), margin)
            top = [t for t in range(4) if tenths[t] == max(tenths[:4])]
            split_ties += len({floats[t] for t in top}) > 1
    assert split_ties > 0


def test_equal_tenths_go_to_the_higher_float_sum() -> None:
    """Diamonds and clubs both count 4.8 here, but clubs' float sum ends a bit above
    diamonds' (4.800000000000001): the strain the auction always took is clubs, and a
    pick by tenths alone would take diamonds (such hands are about 1 in 10,000)."""
    params = compile_profile(load_profile("standard"))
    hand = np.uint64(parse_cards("KS 5S 4S QH QD 10D 6D AC QC 10C"))
    assert [strength_tenths_nb(hand, t, params) for t in range(4)] == [47, 28, 48, 48]
    assert strength_nb(hand, 2, params) < strength_nb(hand, 3, params)
    pp = np.zeros(N_POLICY_PARAMS)
    pp[PP_NT_MARGIN] = 100.0
    assert best_strain_nb(hand, params, pp) == (3, strength_nb(hand, 3, params))


def _nt_edge_by_definition(hand: int, params: np.ndarray) -> float:
    """The NT edge's terms (docs/players.md) added one by one."""
    mighty = mighty_of_nb(params, 4)
    edge = -10.0 + (5.5 if hand >> 52 & 1 else 0.0) + (0.5 if hand >> mighty & 1 else 0.0)
    longest = 0
    for suit in range(4):
        cards = hand >> 13 * suit & 0x1FFF
        longest = max(longest, bin(cards).count("1"))
        edge += 3.75 if cards >> 11 & 1 else 0.0
        edge += 1.0 if cards >> 12 & 1 and suit * 13 + 12 != mighty else 0.0
        run = 0
        while run < 13 and cards >> (12 - run) & 1:
            run += 1
        edge += 3.25 * run
    return edge - 2.5 * longest


@pytest.mark.parametrize("name", ONE_DECK)
def test_nt_edge_is_the_sum_of_its_terms(name: str) -> None:
    params, hands = _random_hands(name, 13)
    for hand in hands:
        assert nt_edge_nb(np.uint64(hand), params) == _nt_edge_by_definition(hand, params)


@pytest.mark.parametrize("name", ONE_DECK)
def test_the_strain_score_is_the_fitted_model(name: str) -> None:
    """The kernel's strain score, summed from per-pattern tables, is the fitted linear
    model (``strain_features @ WEIGHTS``, in thousandths) in every strain, Mighty as the
    profile has it;
    and a player with ``strain_fit`` takes the first suit of the highest score, NT when
    its score beats that suit's by the margin, with that strain's strength."""
    params, hands = _random_hands(name, 17)
    mighty = tuple(int(mighty_of_nb(params, t)) for t in range(5))
    pp = np.zeros(N_POLICY_PARAMS)
    pp[PP_STRAIN_FIT] = 1.0
    nt_chosen = 0
    for hand in hands:
        h = np.uint64(hand)
        model = strain_fit.strain_features(hand, mighty) @ strain_fit.WEIGHTS
        kernel = [strain_score_nb(h, t, params) for t in range(5)]
        assert kernel == strain_fit.milli(model).tolist(), hex(hand)
        suit = max(range(4), key=lambda t: (kernel[t], -t))
        strengths = [strength_nb(h, t, params) for t in range(5)]
        for margin in (-100.0, 0.0, 100.0):
            pp[PP_NT_MARGIN] = margin
            if kernel[4] - kernel[suit] >= 1000 * margin:
                want = (4, max(max(strengths[:4]), strengths[4]))
            else:
                want = (suit, strengths[suit])
            assert best_strain_nb(h, params, pp) == pytest.approx(want), (hex(hand), margin)
            nt_chosen += margin == 0.0 and want[0] == 4
    assert 0 < nt_chosen < len(hands)


def test_a_running_suit_is_played_in_nt() -> None:
    """Mighty and five spades running down from it with the top diamonds: ``odds`` makes
    NT worth 29.4 units a deal at 14 against 15.9 in spades (1,000 deals each). The NT
    edge with the margin duels chose (4.5) says spades; the strain fitted to odds says NT."""
    params = compile_profile(load_profile("standard"))
    hand = np.uint64(parse_cards("AS KS QS JS 7S 2S AD KD 3D 2D"))
    pp = np.zeros(N_POLICY_PARAMS)
    pp[PP_NT_MARGIN] = 4.5
    assert best_strain_nb(hand, params, pp)[0] == 0
    pp[PP_NT_MARGIN], pp[PP_STRAIN_FIT] = 0.0, 1.0
    assert best_strain_nb(hand, params, pp)[0] == 4
