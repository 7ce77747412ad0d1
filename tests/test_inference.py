"""PIMC's inference (``play_nb.infer_nb``) against its definition, card by card: after each
play, the cards the seat is known not to hold are exactly those which, held beside the
card it played, would have made that card illegal, each tried alone."""

from __future__ import annotations

import numpy as np
import pytest

from mighty_sim.kernels._jit import njit
from mighty_sim.kernels.layout import MAX_PLAYERS, N_T
from mighty_sim.kernels.loop.play_nb import (
    H_CANT,
    H_DISCARDS_P0,
    H_DISCARDS_P1,
    H_PLANE1,
    N_H,
    N_S,
    S_DECKS,
    S_DEMANDED,
    S_JOKER_SUIT,
    S_K,
    S_REVEALED,
    S_TRICK_NO,
    S_TRUMP,
    apply_play_nb,
    lead_request_nb,
    open_to_infer_nb,
    play_until_nb,
    start_play_nb,
    to_play_nb,
)
from mighty_sim.kernels.params import MODE_CALLED, P_HAND_SIZE, P_MIN_BID, compile_profile
from mighty_sim.kernels.rng_nb import seed_stream_nb
from mighty_sim.kernels.rules.rules_nb import (
    bit_nb,
    hunter_of_nb,
    legal_plays_nb,
    lowest_card_nb,
    mighty_of_nb,
)
from mighty_sim.rules.cards import PLANE_BITS, cards_of
from mighty_sim.rules.profile import load_profile


@njit(cache=True)
def cannot_hold_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, card: int,
                   params: np.ndarray) -> np.uint64:
    """The definition: every card not yet known, tried one at a time beside ``card``."""
    k = s[S_K]
    req = lead_request_nb(s, seat) if s[S_REVEALED] == 1 else -1
    c, unknown = open_to_infer_nb(s, h, tr, seat, card)
    out = np.uint64(0)
    while unknown:
        xb = bit_nb(lowest_card_nb(unknown))
        unknown &= ~xb
        legal = legal_plays_nb(xb | c, tr, k, s[S_TRUMP], s[S_TRICK_NO], s[S_JOKER_SUIT],
                               s[S_DEMANDED] == 1, req, params)
        if not legal & c:
            out |= xb
    return out


@njit(cache=True, nrt=True)
def checked_deal_nb(seed: np.uint64, hands: np.ndarray, pile: tuple[np.uint64, np.uint64],
                    contract: tuple[int, int, int], params: np.ndarray
                    ) -> tuple[int, int, int]:
    """Play a contract of seat 0 with heuristic players, the inference on, checking each
    play against :func:`cannot_hold_nb`: (plays, mismatches, cards inferred)."""
    trump, called, policy = contract
    st = np.zeros(1, np.uint64)
    seed_stream_nb(st, seed, np.uint64(0))
    s = np.zeros(N_S, np.int64)
    h = np.zeros(N_H, np.uint64)
    tr = np.full(2 * MAX_PLAYERS, -1, np.int64)
    start_play_nb(s, h, tr, params, hands, pile[0] | pile[1],
                  (0, params[P_MIN_BID], trump, False), (MODE_CALLED, called, -1), True)
    if s[S_DECKS] == 2:
        h[H_DISCARDS_P0], h[H_DISCARDS_P1] = pile
    policies = np.full(MAX_PLAYERS, policy, np.int64)
    ti = np.zeros((1, N_T), np.int8)
    plays = mismatches = inferred = 0
    while s[S_TRICK_NO] <= params[P_HAND_SIZE]:
        seat = to_play_nb(s)
        s0, h0, tr0 = s.copy(), h.copy(), tr.copy()
        play_until_nb(st, s, h, tr, policies, params, 0.0, False, ti, 0, 1)
        gone = h0[seat] & ~h[seat]
        card = lowest_card_nb(gone) if gone else (
            PLANE_BITS + lowest_card_nb(h0[H_PLANE1 + seat] & ~h[H_PLANE1 + seat]))
        want = h0[H_CANT + seat] | cannot_hold_nb(s0, h0, tr0, seat, card, params)
        plays += 1
        mismatches += h[H_CANT + seat] != want
        inferred += h[H_CANT + seat] != h0[H_CANT + seat]
    return plays, mismatches, inferred


@pytest.mark.parametrize("name", ["standard", "ucla-5p", "russian-5p", "russian-7p"])
def test_the_inference_is_its_definition_card_by_card(name: str) -> None:
    """Random and heuristic play, every trump: the inference that tries one card of a
    suit for all its plain cards finds exactly what trying each card finds."""
    profile = load_profile(name)
    params = compile_profile(profile)
    n, size = profile.players, profile.hand_size
    rng = np.random.default_rng(11)
    physical = np.array(cards_of(profile.card_mask), np.int64)
    plays = inferred = 0
    for deal in range(40):
        deck = [int(c) for c in rng.permutation(physical)]
        hands = np.zeros(N_H, np.uint64)
        for q in range(n):
            for c in deck[size * q: size * q + size]:
                hands[H_PLANE1 * (c >= PLANE_BITS) + q] |= np.uint64(1 << (c % PLANE_BITS))
        pile = [0, 0]
        for c in deck[n * size:]:
            pile[c >= PLANE_BITS] |= 1 << (c % PLANE_BITS)
        trump = deal % 5 if profile.deck_copies == 1 else deal % 4
        called = int(mighty_of_nb(params, trump))
        done, wrong, found = checked_deal_nb(
            np.uint64(deal), hands, (np.uint64(pile[0]), np.uint64(pile[1])),
            (trump, called, deal % 2), params)
        assert wrong == 0, f"deal {deal}: {wrong} of {done} plays inferred otherwise"
        plays += done
        inferred += found
    assert plays == 40 * n * size and inferred > plays // 10


@njit(cache=True, nrt=True)
def first_lead_nb(hands: np.ndarray, pile: np.uint64, trump: int, card: int,
                  params: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """Seat 0, declaring ``trump``, leads ``card`` to trick 1: (what the inference says
    it cannot hold, what :func:`cannot_hold_nb` says)."""
    s = np.zeros(N_S, np.int64)
    h = np.zeros(N_H, np.uint64)
    tr = np.full(2 * MAX_PLAYERS, -1, np.int64)
    start_play_nb(s, h, tr, params, hands, pile, (0, params[P_MIN_BID], trump, False),
                  (MODE_CALLED, int(mighty_of_nb(params, trump)), -1), True)
    s0, h0, tr0 = s.copy(), h.copy(), tr.copy()
    apply_play_nb(s, h, tr, 0, card, -1, False, params, False, np.zeros((1, N_T), np.int8), 0)
    return h[H_CANT], cannot_hold_nb(s0, h0, tr0, 0, card, params)


def test_a_trump_led_to_trick_1_shows_no_card_but_the_hunter_and_the_joker() -> None:
    """Russian rules bar trumps, the joker and the hunter from the first lead while
    another card may be led: a trump led there shows every other card missing but those
    two, the hunter (a club, itself barred) unlike the clubs beside it."""
    profile = load_profile("russian-5p")
    params = compile_profile(profile)
    trump = 2  # hearts; the hunter is a club
    hunter = int(hunter_of_nb(params, trump))
    deck = cards_of(profile.deck_mask)
    trumps = [c for c in deck if c // 13 == trump and c != mighty_of_nb(params, trump)]
    mine = trumps[:profile.hand_size - 1] + [hunter]
    rest = [c for c in deck if c not in mine]
    hands = np.zeros(N_H, np.uint64)
    for q in range(profile.players):
        for c in (mine if q == 0 else rest[(q - 1) * profile.hand_size: q * profile.hand_size]):
            hands[q] |= np.uint64(1 << c)
    pile = np.uint64(sum(1 << c for c in rest[(profile.players - 1) * profile.hand_size:]))
    got, want = first_lead_nb(hands, pile, trump, mine[0], params)
    assert int(got) == int(want)
    clubs = sum(1 << c for c in deck if c // 13 == hunter // 13)
    assert not int(want) >> hunter & 1 and not int(want) >> 52 & 1
    assert int(want) & clubs == clubs & ~(1 << hunter) & ~int(hands[0])
