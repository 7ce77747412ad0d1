"""The PIMC player with two decks: worlds dealt with copies keep every copy and what is
known, its rows do not depend on batching, and it outplays the heuristic."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels._jit import njit
from mighty_sim.kernels.layout import MAX_PLAYERS, N_T
from mighty_sim.kernels.loop.play_nb import (
    H_CANT,
    H_DISCARDS_P0,
    H_DISCARDS_P1,
    H_PLANE1,
    N_H,
    N_S,
    play_until_nb,
    start_play_nb,
)
from mighty_sim.kernels.params import MODE_CALLED, P_MIN_BID, compile_profile
from mighty_sim.kernels.players.pimc_nb import W1, sample_world_nb
from mighty_sim.kernels.rng_nb import seed_stream_nb
from mighty_sim.rules.cards import PLANE_BITS, cards_of, kind_of
from mighty_sim.rules.profile import load_profile

SEVEN = load_profile("russian-7p")
JOKER = 52


@njit(cache=True, nrt=True)
def worlds2_after_nb(
    seed: np.uint64, hands: np.ndarray, pile: tuple[np.uint64, np.uint64], trump: int,
    called: int, params: np.ndarray, plays: int, me: int, out: np.ndarray,
    state: np.ndarray,
) -> bool:
    """Play ``plays`` cards of a two-deck contract of seat 0 from ``hands`` (planes at
    ``H_PLANE1 + seat``; ``pile`` its discards a deck at a time) with heuristic players,
    then sample ``out.shape[0]`` worlds for seat ``me`` into ``out`` (the world's array
    a row); ``state`` receives ``h``. False when a world was not found."""
    st = np.zeros(1, np.uint64)
    seed_stream_nb(st, seed, np.uint64(0))
    s = np.zeros(N_S, np.int64)
    h = np.zeros(N_H, np.uint64)
    tr = np.full(2 * MAX_PLAYERS, -1, np.int64)
    kinds = pile[0] | pile[1]  # (no joker among the discards of these deals)
    start_play_nb(s, h, tr, params, hands, kinds, (0, params[P_MIN_BID], trump, False),
                  (MODE_CALLED, called, -1), True)
    h[H_DISCARDS_P0], h[H_DISCARDS_P1] = pile
    policies = np.ones(MAX_PLAYERS, np.int64)
    ti = np.zeros((1, N_T), np.int8)
    play_until_nb(st, s, h, tr, policies, params, 0.0, False, ti, 0, plays)
    w = np.zeros(2 * W1, np.uint64)
    for i in range(out.shape[0]):
        if not sample_world_nb(st, s, h, tr, me, w):
            return False
        for j in range(2 * W1):
            out[i, j] = w[j]
    for i in range(N_H):
        state[i] = h[i]
    return True


def _copies(p0: int, p1: int) -> Counter[int]:
    """Each kind's copies in a two-plane hand."""
    return Counter(kind_of(c) for c in cards_of(p0 | p1 << PLANE_BITS))


def test_two_deck_worlds_keep_every_copy_and_what_is_known() -> None:
    """Each world gives every other seat as many cards as it holds (the hidden pile its
    six), the same copies of each kind in all as the deal hides from the seat, no kind a
    seat has shown it cannot hold, and the seat its own hand; the inference is sound (no
    seat holds a kind it "cannot") and the worlds are not the deal itself."""
    n = SEVEN.players
    params = compile_profile(SEVEN)
    rng = np.random.default_rng(3)
    physical = np.array(cards_of(SEVEN.card_mask), np.int64)
    checked = differing = inferred = 0
    for seed in range(60):
        deck = [int(c) for c in rng.permutation(physical)]
        pile_cards = [c for c in deck if c % PLANE_BITS < JOKER][:6]  # a pile of kinds only
        dealt_cards = [c for c in deck if c not in pile_cards]
        hands = np.zeros(N_H, np.uint64)
        size = SEVEN.hand_size
        for q in range(n):
            for c in dealt_cards[size * q: size * q + size]:
                hands[H_PLANE1 * (c >= PLANE_BITS) + q] |= np.uint64(1 << (c % PLANE_BITS))
        pile = [0, 0]
        for c in pile_cards:
            pile[c >= PLANE_BITS] |= 1 << (c % PLANE_BITS)
        me = seed % n
        plays = 3 + seed % 60
        out = np.zeros((8, 2 * W1), np.uint64)
        state = np.zeros(N_H, np.uint64)
        assert worlds2_after_nb(np.uint64(seed), hands,
                                (np.uint64(pile[0]), np.uint64(pile[1])), seed % 4, 12,
                                params, plays, me, out, state)
        h = [int(x) for x in state]
        hidden: Counter[int] = Counter()
        inferred += sum(h[H_CANT + q] != 0 for q in range(n))
        for q in range(n):
            assert (_copies(h[q], h[H_PLANE1 + q]).keys() & set(cards_of(h[H_CANT + q]))
                    == set()), "the inference says a seat cannot hold a kind it holds"
            if q != me:
                hidden += _copies(h[q], h[H_PLANE1 + q])
        if me != 0:
            hidden += _copies(pile[0], pile[1])
        for w in out:
            w = [int(x) for x in w]
            assert (w[me], w[W1 + me]) == (h[me], h[H_PLANE1 + me])
            dealt: Counter[int] = Counter()
            for q in range(n + 1):
                if q == me or (q == n and me == 0):
                    continue
                got = _copies(w[q], w[W1 + q])
                real = 6 if q == n else (h[q].bit_count() + h[H_PLANE1 + q].bit_count())
                assert sum(got.values()) == real
                if q < n:
                    assert not got.keys() & set(cards_of(h[H_CANT + q]))
                dealt += got
            assert dealt == hidden
            checked += 1
            differing += any((w[q], w[W1 + q]) != (h[q], h[H_PLANE1 + q])
                             for q in range(n) if q != me)
    assert checked == 60 * 8 and differing > checked // 2 and inferred > 60


def test_two_deck_pimc_rows_do_not_depend_on_batching() -> None:
    players = parse_players("pimc:worlds=3," + ",".join(["heuristic"] * 6), 7)
    whole = play_batch(SEVEN, seed=8, game_start=0, games=16, players=players)
    first = play_batch(SEVEN, seed=8, game_start=0, games=10, players=players)
    rest = play_batch(SEVEN, seed=8, game_start=10, games=6, players=players)
    for name in ("rg", "ri", "ru", "rf"):
        np.testing.assert_array_equal(getattr(whole, name), np.concatenate(
            [getattr(first, name), getattr(rest, name)]), name)
    assert int(whole.played().sum()) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["russian-6p", "russian-7p", "russian-8p"])
def test_two_deck_pimc_beats_the_heuristic_in_a_duplicate_duel(name: str) -> None:
    """PIMC, which bids as the heuristic and rolls out with it, plays two decks better
    than the heuristic: a PIMC whose worlds lost or duplicated copies, or kept a friend
    wrongly, would not gain (about 45 s each; docs/benchmarks.md has the 40-world duel)."""
    from mighty_sim.analysis.duel import duel

    r = duel(load_profile(name), "pimc:worlds=20", "heuristic", deals=2000, seed=5)
    assert r["ci_low"] > 0
    assert r["declarer"]["ci_low"] > 0  # type: ignore[index]
