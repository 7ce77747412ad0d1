"""The floor: the deals/s of a toy deal kernel on one thread, the hardware's speed for this
kind of loop. Every speed figure in docs/benchmarks.md is quoted beside it, measured in the
same run (this machine's speed moves 20-40% within minutes; a ratio does not).

The toy is the reference floor kernel that every deal kernel of this kind is measured
against, reproduced here line for line: a 53-card deck (the joker the top trump) shuffled
from a counter-based stream into a fresh array each deal, five hands of ten, a random
trump suit, and ten tricks of random follow-suit play (the leader plays a random card,
each other seat a random card of the suit led if it has one, else any; a trump beats the
suit led, the higher card of the same suit wins). No auction, no exchange, no other
special card, no output but the tricks won and the trump of each deal.

    python benchmarks/floor.py [DEALS]      # prints deals/s

>>> floor_rate(20_000) > 0
True
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

SUIT_MASKS = np.array([((1 << 13) - 1) << (13 * s) for s in range(4)], dtype=np.uint64)


@njit(inline="always", cache=True)
def _mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(inline="always", cache=True)
def _next_rand(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The next state of a counter stream and its mixed value."""
    state = state + np.uint64(0x9E3779B97F4A7C15)
    return state, _mix64(state)


@njit(inline="always", cache=True)
def _bounded(r: np.uint64, n: int) -> int:
    """A draw below ``n`` from the high half of ``r`` (multiply-shift)."""
    return np.int64(((r >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(inline="always", cache=True)
def _popcount(x: np.uint64) -> int:
    """Set bits of ``x`` (SWAR)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(inline="always", cache=True)
def _nth_set_bit(x: np.uint64, k: int) -> int:
    """The index of the k-th set bit of ``x`` (from the lowest)."""
    for _ in range(k):
        x &= x - np.uint64(1)
    return np.int64(trailing_zeros(x))


@njit(cache=True)
def _play_one(seed: int, d: int, suit_masks: np.ndarray, hands: np.ndarray,
              tricks: np.ndarray) -> int:
    """Deal ``d`` of the run: its tricks won by seat into ``tricks``; returns its trump."""
    state = _mix64(np.uint64(seed) ^ (np.uint64(d) * np.uint64(0xD1B54A32D192ED03)))
    deck = np.arange(53, dtype=np.int64)
    for i in range(52, 0, -1):
        state, r = _next_rand(state)
        j = _bounded(r, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for p in range(5):
        m = np.uint64(0)
        for k in range(10):
            m |= np.uint64(1) << np.uint64(deck[p * 10 + k])
        hands[p] = m
        tricks[p] = 0
    state, r = _next_rand(state)
    trump = _bounded(r, 4)
    trump_mask = suit_masks[trump] | (np.uint64(1) << np.uint64(52))
    leader = 0
    for _ in range(10):
        led_suit = -1
        best_card = -1
        best_player = -1
        best_is_trump = False
        for o in range(5):
            p = (leader + o) % 5
            h = hands[p]
            legal = h
            if led_suit >= 0:
                follow = h & suit_masks[led_suit]
                if led_suit == trump:
                    follow = h & trump_mask
                if follow:
                    legal = follow
            state, r = _next_rand(state)
            c = _nth_set_bit(legal, _bounded(r, _popcount(legal)))
            hands[p] = h & ~(np.uint64(1) << np.uint64(c))
            is_trump = ((np.uint64(1) << np.uint64(c)) & trump_mask) != 0
            suit = trump if c == 52 else c // 13
            if o == 0:
                led_suit = suit
                best_card, best_player, best_is_trump = c, p, is_trump
            elif is_trump and not best_is_trump:
                best_card, best_player, best_is_trump = c, p, True
            elif (is_trump == best_is_trump
                  and suit == (trump if best_card == 52 else best_card // 13)
                  and c > best_card):
                best_card, best_player = c, p
        tricks[best_player] += 1
        leader = best_player
    return trump


@njit(cache=True)
def floor_deals(seed: int, n: int, suit_masks: np.ndarray, out_tricks: np.ndarray,
                out_trump: np.ndarray) -> None:
    """Play deals ``0 .. n-1`` of ``seed``, one after another on this thread."""
    hands = np.empty(5, dtype=np.uint64)
    tr = np.empty(5, dtype=np.int8)
    for d in range(n):
        out_trump[d] = _play_one(seed, d, suit_masks, hands, tr)
        out_tricks[d, :] = tr


def floor_rate(deals: int = 2_000_000, seed: int = 7) -> float:
    """Deals/s of the toy kernel on one thread (compiled first, outside the clock)."""
    tricks = np.empty((deals, 5), dtype=np.int8)
    trump = np.empty(deals, dtype=np.int64)
    floor_deals(1, min(deals, 1000), SUIT_MASKS, tricks, trump)
    start = time.perf_counter()
    floor_deals(seed, deals, SUIT_MASKS, tricks, trump)
    return deals / (time.perf_counter() - start)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    print(f"{floor_rate(n):.0f}")
