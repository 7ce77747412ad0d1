"""The one-loop trick play (kernels.loop.tricks_nb) against the state-machine play it stands in
for (kernels.loop.play_nb.play_until_nb), position by position: random contracts on random
deals of every profile (one deck and two), random and heuristic seats mixed, taken up at the start
or in the middle of a trick, with and without noise, compared on every trick row, every
seat's points and tricks, the friend found and the stream's state."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mighty_sim.engine.batch import policy_arrays
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import MAX_PLAYERS, N_T
from mighty_sim.kernels.loop.play_nb import play_until_nb
from mighty_sim.kernels.loop.tricks_nb import play_tricks_nb
from mighty_sim.kernels.params import (
    compile_profile,
)
from mighty_sim.kernels.players.play_policy_nb import winners_apply_nb, winners_nb
from mighty_sim.kernels.rng_nb import seed_stream_nb
from mighty_sim.kernels.rules.rules_nb import (
    JOKER_BIT,
    demand_allowed_nb,
    hunter_of_nb,
    joker_has_power_nb,
    legal_plays_nb,
    mighty_of_nb,
    suit_to_follow_nb,
    trick_winner_nb,
)
from mighty_sim.rules.cards import cards_of, fold, parse_cards
from mighty_sim.rules.profile import BUILTIN_PROFILES, TRUMPS, load_profile
from mighty_sim.verify.positions import random_contract

PROFILE_FILES = Path(__file__).parent.parent / "data" / "profiles"
HOUSE_RULES = sorted(str(p) for p in PROFILE_FILES.glob("*.toml"))
ALL = [*BUILTIN_PROFILES, *HOUSE_RULES]


def _play(fast: bool, profile_name: str, seats: str, deal_seed: int) -> tuple[np.ndarray, ...]:
    profile = load_profile(profile_name)
    params = compile_profile(profile)
    policies, pp = policy_arrays(parse_players(seats, profile.players), profile)
    s, h, tr = random_contract(profile, params, deal_seed)
    size = profile.hand_size
    st = np.zeros(1, np.uint64)
    seed_stream_nb(st, np.uint64(deal_seed), np.uint64(1))
    ti = np.zeros((size, N_T), np.int8)
    # some cards first (a deal taken up mid-trick, as PIMC's rollouts do), then the rest
    # with or without noise
    used = play_until_nb(st, s, h, tr, policies, params, 0.0, True, ti, 0, deal_seed % 13)
    noise = 0.3 if deal_seed % 2 else 0.0
    if fast:
        used = play_tricks_nb(st, s, h, tr, policies, params, noise, True, ti, used)
    else:
        used = play_until_nb(st, s, h, tr, policies, params, noise, True, ti, used)
    return np.array([used]), s, h, tr, ti, st


@pytest.mark.parametrize("name", ALL, ids=lambda n: Path(n).stem)
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


@pytest.mark.parametrize("name", ALL, ids=lambda n: Path(n).stem)
def test_the_winners_by_masks_are_the_trick_winners(name: str) -> None:
    """Wherever the heuristic follower takes the winning cards from winners_nb, they are
    exactly the cards with which trick_winner would have the trick won: random tricks
    under way (random legal cards, joker suits and demands), every trick number; with two
    decks, card kinds, a copy of a card in the trick now and then."""
    profile = load_profile(name)
    params = compile_profile(profile)
    n = profile.players
    rng = np.random.default_rng(11)
    checked = copies = 0
    for _ in range(3000):
        deck = np.array(cards_of(profile.card_mask))
        rng.shuffle(deck)
        trump = int(rng.integers(len(TRUMPS)))
        trick_no = int(rng.integers(1, profile.hand_size + 1))
        k = int(rng.integers(1, n))
        trick = np.full(MAX_PLAYERS, -1, np.int64)
        hands = [np.uint64(fold(sum(1 << int(c) for c in deck[p * 4:(p + 1) * 4])))
                 for p in range(k + 1)]
        joker_suit, demanded = -1, False
        for i in range(k):
            legal = legal_plays_nb(hands[i], trick, i, trump, trick_no, joker_suit, demanded,
                                   -1, params)
            card = int(rng.choice(cards_of(int(legal))))
            trick[i] = card
            if i == 0:
                joker_suit = int(rng.integers(4)) if card == JOKER_BIT else -1
                demanded = bool(demand_allowed_nb(params, trump, trick_no, card)
                                and rng.random() < 0.5)
        legal = legal_plays_nb(hands[k], trick, k, trump, trick_no, joker_suit, demanded, -1,
                               params)
        if not winners_apply_nb(trick, k, legal, trump, params):
            continue
        win = trick_winner_nb(trick, k, trump, trick_no, joker_suit, demanded, params)
        suit = suit_to_follow_nb(trick, k, trump, trick_no, joker_suit, params)
        power = joker_has_power_nb(trick, k, trump, trick_no, demanded, params)
        got = winners_nb(legal, trick[win], suit, trump, mighty_of_nb(params, trump), power)
        want = 0
        for c in cards_of(int(legal)):
            trick[k] = c
            if trick_winner_nb(trick, k + 1, trump, trick_no, joker_suit, demanded,
                               params) == k:
                want |= 1 << c
        trick[k] = -1
        assert int(got) == want, (name, trick[:k].tolist(), trump, trick_no, hex(int(legal)))
        checked += 1
        copies += any(int(legal) >> int(c) & 1 for c in trick[:k])
    assert checked > 2000
    if profile.deck_copies == 2:  # a follower holding a copy of a card in the trick
        assert copies > 100, copies


def test_a_hunter_that_takes_the_jokers_power_is_asked_of_the_whole_trick() -> None:
    """russian-5p (next-player hunter, hunted joker powerless): the joker led for clubs
    and a 2 of clubs in the trick; the 3 of clubs, the hunter, takes the joker's power and
    wins. winners_nb, seeing a joker with power, would not say so: the follower asks the
    whole trick there."""
    profile = load_profile("russian-5p")
    params = compile_profile(profile)
    trump, clubs, trick_no = TRUMPS.index("H"), 3, 3
    trick = np.full(MAX_PLAYERS, -1, np.int64)
    trick[0], trick[1] = JOKER_BIT, parse_cards("2C").bit_length() - 1
    legal = legal_plays_nb(np.uint64(parse_cards("3C 9D")), trick, 2, trump, trick_no, clubs,
                           False, -1, params)
    hunter = hunter_of_nb(params, trump)
    assert int(legal) == 1 << hunter
    trick[2] = hunter
    assert trick_winner_nb(trick, 3, trump, trick_no, clubs, False, params) == 2
    trick[2] = -1
    power = joker_has_power_nb(trick, 2, trump, trick_no, False, params)
    assert winners_nb(legal, JOKER_BIT, clubs, trump, mighty_of_nb(params, trump), power) == 0
    assert not winners_apply_nb(trick, 2, legal, trump, params)


@pytest.mark.parametrize("name", ["standard", "russian-3p", "russian-5p"])
def test_the_voids_shown_are_the_suits_not_followed(name: str) -> None:
    """``S_VOIDS`` after a whole deal holds, for each seat, exactly the suits it did not
    follow in the recorded tricks with a card other than Mighty or the joker (the suit
    to follow read from the trick's first cards), in the one-loop play and the state
    machine alike (one deck: the recorded cards are the kinds)."""
    from mighty_sim.kernels.layout import T_CARDS, T_JOKER_SUIT, T_LEADER, T_NO
    from mighty_sim.kernels.loop.play_nb import S_TRUMP, S_VOIDS

    profile = load_profile(name)
    params = compile_profile(profile)
    n = profile.players
    shown = 0
    for deal_seed in range(60):
        for fast in (True, False):
            _, s, _, _, ti, _ = _play(fast, name, "heuristic" if deal_seed % 2 else "random",
                                      deal_seed)
            trump = int(s[S_TRUMP])
            mighty = int(mighty_of_nb(params, trump))
            want = 0
            for row in ti:
                cards = np.array([int(row[T_CARDS + k]) for k in range(n)], np.int64)
                for k in range(1, n):
                    su = suit_to_follow_nb(cards, k, trump, int(row[T_NO]),
                                           int(row[T_JOKER_SUIT]), params)
                    c = int(cards[k])
                    if c not in (JOKER_BIT, mighty) and 0 <= su < 4 and c // 13 != su:
                        want |= 1 << (4 * ((int(row[T_LEADER]) + k) % n) + su)
            assert int(s[S_VOIDS]) == want, (name, deal_seed, fast)
            shown += bin(want).count("1")
    assert shown > 0
