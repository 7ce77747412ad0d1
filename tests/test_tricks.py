"""The one-loop trick play (kernels.tricks_nb) against the state-machine play it stands in
for (kernels.play_nb.play_until_nb), position by position: random contracts on random
deals of every one-deck profile, random and heuristic seats mixed, taken up at the start
or in the middle of a trick, with and without noise, compared on every trick row, every
seat's points and tricks, the friend found and the stream's state."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mighty_sim.engine.batch import policy_arrays
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import MAX_PLAYERS, N_T
from mighty_sim.kernels.params import MODE_CALLED, MODE_FIRST_TRICK, MODE_NONE, compile_profile
from mighty_sim.kernels.play_nb import N_H, N_S, play_until_nb, start_play_nb
from mighty_sim.kernels.rng_nb import seed_stream_nb
from mighty_sim.kernels.tricks_nb import play_tricks_nb
from mighty_sim.rules.cards import cards_of
from mighty_sim.rules.profile import BUILTIN_PROFILES, TRUMPS, load_profile

PROFILE_FILES = Path(__file__).parent.parent / "data" / "profiles"
HOUSE_RULES = sorted(str(p) for p in PROFILE_FILES.glob("*.toml"))
ONE_DECK = [n for n in (*BUILTIN_PROFILES, *HOUSE_RULES) if load_profile(n).deck_copies == 1]
MODES = {"called": MODE_CALLED, "first-trick": MODE_FIRST_TRICK, "none": MODE_NONE}


def _play(fast: bool, profile_name: str, seats: str, deal_seed: int) -> tuple[np.ndarray, ...]:
    profile = load_profile(profile_name)
    params = compile_profile(profile)
    rng = np.random.default_rng(deal_seed)
    deck = np.array(cards_of(profile.deck_mask))
    rng.shuffle(deck)
    n, size = profile.players, profile.hand_size
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    for p in range(n):
        for c in deck[p * size:(p + 1) * size]:
            hands[p] |= np.uint64(1) << np.uint64(c)
    discards = np.uint64(0)
    for c in deck[n * size:]:
        discards |= np.uint64(1) << np.uint64(c)
    declarer = int(rng.integers(n))
    trump = int(rng.integers(len(TRUMPS)))
    mode = MODES[profile.friend_modes[int(rng.integers(len(profile.friend_modes)))]]
    called = int(rng.choice(deck))
    request = int(rng.integers(4)) if rng.random() < 0.3 else -1
    bid = profile.max_bid if request >= 0 else profile.min_bid
    policies, pp = policy_arrays(parse_players(seats, n), profile)
    s, h, tr = np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64), np.zeros(MAX_PLAYERS, np.int64)
    start_play_nb(s, h, tr, params, hands, discards, declarer, bid, trump, False, mode, called,
                  request, False)
    st = np.zeros(1, np.uint64)
    seed_stream_nb(st, np.uint64(deal_seed), np.uint64(1))
    ti = np.zeros((size, N_T), np.int64)
    # some cards first (a deal taken up mid-trick, as PIMC's rollouts do), then the rest
    # with or without noise
    used = play_until_nb(st, s, h, tr, policies, params, 0.0, True, ti, 0, 7, deal_seed % 13)
    noise = 0.3 if deal_seed % 2 else 0.0
    if fast:
        used = play_tricks_nb(st, s, h, tr, policies, params, noise, True, ti, used, 7)
    else:
        used = play_until_nb(st, s, h, tr, policies, params, noise, True, ti, used, 7)
    return np.array([used]), s, h, tr, ti, st


@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_the_one_loop_play_plays_as_the_state_machine(name: str) -> None:
    n = load_profile(name).players
    lineups = ["random", "heuristic",
               ",".join("heuristic" if p % 2 else "random" for p in range(n))]
    for deal_seed in range(150):
        seats = lineups[deal_seed % 3]
        fast = _play(True, name, seats, deal_seed)
        slow = _play(False, name, seats, deal_seed)
        for a, b in zip(fast, slow, strict=True):
            assert np.array_equal(a, b), (name, seats, deal_seed)
