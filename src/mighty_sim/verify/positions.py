"""Random play positions for the kernels' tests and benchmarks: a random contract on a
random deal (one deck or two), taken up at its first lead or played at random to an
ending.

>>> from mighty_sim.rules.profile import load_profile
>>> from mighty_sim.kernels.params import compile_profile
>>> p = load_profile("standard")
>>> s, h, tr = random_ending(p, compile_profile(p), seed=4, tricks_left=2)
>>> sum(bin(int(h[seat])).count("1") for seat in range(5))  # 2 tricks less 4 % 5 cards
6
"""

from __future__ import annotations

import numpy as np

from ..engine.batch import policy_arrays
from ..engine.players import parse_players
from ..kernels.layout import MAX_PLAYERS, N_T
from ..kernels.loop.play_nb import H_PLANE1, N_H, N_S, play_until_nb, start_play_nb
from ..kernels.params import MODE_CALLED, MODE_FIRST_TRICK, MODE_NONE, P_HAND_SIZE
from ..kernels.rng_nb import seed_stream_nb
from ..rules.cards import PLANE_BITS, cards_of, fold, kind_of, points_in
from ..rules.profile import TRUMPS, RuleProfile

MODES = {"called": MODE_CALLED, "first-trick": MODE_FIRST_TRICK, "none": MODE_NONE}


def random_contract(profile: RuleProfile, params: np.ndarray, seed: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A kernel play state (``s``, ``h``, ``tr`` of ``play_nb``) at the first lead of a
    random contract on a random deal: random declarer, strain, friend mode and called
    card, a 20-NT lead request now and then; the cards left over are the discards."""
    rng = np.random.default_rng(seed)
    deck = np.array(cards_of(profile.card_mask))
    rng.shuffle(deck)
    return _contract(profile, params, rng, deck, profile.hand_size)


def _contract(profile: RuleProfile, params: np.ndarray, rng: np.random.Generator,
              deck: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``size`` cards a player dealt from the front of ``deck``, the deck's other cards
    discarded, and a random contract on them."""
    n = profile.players
    hands = np.zeros(N_H, np.uint64)  # the second deck's cards at H_PLANE1 + seat
    for p in range(n):
        for c in deck[p * size:(p + 1) * size]:
            if c >= PLANE_BITS:
                hands[H_PLANE1 + p] |= np.uint64(1) << np.uint64(c - PLANE_BITS)
            else:
                hands[p] |= np.uint64(1) << np.uint64(c)
    held = 0
    for p in range(n):
        held |= int(hands[p]) | int(hands[H_PLANE1 + p]) << PLANE_BITS
    discards = np.uint64(fold(profile.card_mask & ~held))
    declarer = int(rng.integers(n))
    trump = int(rng.integers(len(TRUMPS)))
    mode = MODES[profile.friend_modes[int(rng.integers(len(profile.friend_modes)))]]
    called = kind_of(int(rng.choice(deck)))
    request = int(rng.integers(4)) if rng.random() < 0.3 else -1
    bid = profile.max_bid if request >= 0 else profile.min_bid
    s, h = np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64)
    tr = np.zeros(MAX_PLAYERS * profile.deck_copies, np.int64)  # two decks: the physical
    # cards after the kinds
    start_play_nb(s, h, tr, params, hands, discards, (declarer, bid, trump, False),
                  (mode, called, request), False)
    return s, h, tr


def random_small_deal(profile: RuleProfile, params: np.ndarray, seed: int, tricks: int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A whole deal of a reduced deck, small enough to search exhaustively: ``tricks``
    cards a player, dealt from the deck's point cards, the joker, Mighty and the hunters
    (the cards with rules of their own) and low cards of every suit to fill, played from
    trick 1 (its first-trick rules included) to trick ``tricks``, the last; a random
    contract as :func:`random_contract`. Returns the play state and the profile's
    parameters with that hand size (the deck's other cards are the discards; rules
    given by trick numbers, such as the joker's powerless last trick, stay the
    profile's).

    >>> from mighty_sim.rules.profile import load_profile
    >>> from mighty_sim.kernels.params import compile_profile
    >>> p = load_profile("standard")
    >>> s, h, tr, small = random_small_deal(p, compile_profile(p), seed=1, tricks=3)
    >>> [bin(int(h[seat])).count("1") for seat in range(5)]
    [3, 3, 3, 3, 3]
    """
    rng = np.random.default_rng(seed)
    special = [c for c in cards_of(profile.deck_mask)
               if points_in(1 << c) or c == 52 or c % 13 < 2]
    rng.shuffle(special)
    s, h, tr, small = _reduced(profile, params, rng,
                               np.array(special[:profile.players * tricks]), tricks)
    return s, h, tr, small


def _reduced(profile: RuleProfile, params: np.ndarray, rng: np.random.Generator,
             deck: np.ndarray, tricks: int) -> tuple[np.ndarray, ...]:
    """The play state of a random contract on ``deck`` dealt ``tricks`` cards a player,
    and the profile's parameters with that hand size."""
    small = params.copy()
    small[P_HAND_SIZE] = tricks
    return (*_contract(profile, small, rng, deck, tricks), small)


def random_plain_deal(profile: RuleProfile, params: np.ndarray, seed: int, tricks: int
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A whole deal of a reduced deck as :func:`random_small_deal`, three fifths of it
    the low cards (2 to 9) of two suits: cards that are equal in one line and not in
    another (a card between them played or still held), and positions that differ only
    in which of them each hand holds.

    >>> from mighty_sim.rules.profile import load_profile
    >>> from mighty_sim.kernels.params import compile_profile
    >>> from mighty_sim.rules.cards import format_cards
    >>> p = load_profile("ucla-5p")
    >>> format_cards(int(random_plain_deal(p, compile_profile(p), seed=2, tricks=4)[1][0]))
    'AH 9H 10D AC'
    """
    rng = np.random.default_rng(seed)
    suits = rng.choice(4, size=2, replace=False)
    cards = cards_of(profile.deck_mask)
    plain = [c for c in cards if c < 52 and c // 13 in suits and c % 13 < 8]
    other = [c for c in cards if c not in plain]
    rng.shuffle(plain)
    rng.shuffle(other)
    size = profile.players * tricks
    low = min(len(plain), int(size * 0.6))
    deck = np.array(plain[:low] + other[:size - low])
    rng.shuffle(deck)
    s, h, tr, small = _reduced(profile, params, rng, deck, tricks)
    return s, h, tr, small


def random_ending(profile: RuleProfile, params: np.ndarray, seed: int, tricks_left: int
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`random_contract` played by random players until ``tricks_left`` tricks are
    left, and ``seed % players`` cards of the first of them played."""
    s, h, tr = random_contract(profile, params, seed)
    policies, _ = policy_arrays(parse_players("random", profile.players), profile)
    st = np.zeros(1, np.uint64)
    seed_stream_nb(st, np.uint64(seed), np.uint64(2))
    ti = np.zeros((profile.hand_size, N_T), np.int8)
    plays = (profile.hand_size - tricks_left) * profile.players + seed % profile.players
    play_until_nb(st, s, h, tr, policies, params, 0.0, False, ti, 0, plays)
    return s, h, tr
