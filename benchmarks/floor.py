"""The floor: the deals/s of a toy deal kernel on one thread, the hardware's speed for this
kind of loop. Every speed figure in docs/benchmarks.md is quoted beside it, measured in the
same run (this machine's speed moves 20-40% within minutes; a ratio does not).

The toy deals 52 cards (no joker) from a counter-based stream to five hands of ten and
plays ten tricks of random follow-suit play: the leader plays a random card, each other
seat a random card of the led suit if it has one, else any; the highest card of the led
suit wins. No auction, no exchange, no special cards, no output but the tricks won.

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

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def _mix(z: np.uint64) -> np.uint64:
    """SplitMix64's finaliser."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(state: np.uint64, n: int) -> tuple[np.uint64, int]:
    """The next state of a counter stream and a draw below ``n`` (multiply-shift)."""
    state = state + _GOLDEN
    r = _mix(state) >> np.uint64(32)
    return state, int((r * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _nth_bit(mask: np.uint64, k: int) -> int:
    """The index of the k-th set bit of ``mask`` (from the lowest)."""
    for _ in range(k):
        mask &= mask - np.uint64(1)
    return int(trailing_zeros(mask))


@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> int:
    """Set bits of ``x`` (SWAR)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def floor_deals(seed: int, deals: int, won: np.ndarray) -> None:
    """Play ``deals`` toy deals, deal d from its own stream (seed, d); tricks won by seat
    summed into ``won`` (5,)."""
    deck = np.empty(52, np.int64)
    hands = np.zeros(5, np.uint64)
    suit = np.uint64(0x1FFF)
    for d in range(deals):
        state = _mix(np.uint64(seed) * _GOLDEN + np.uint64(d))
        for i in range(52):
            deck[i] = i
        for i in range(51, 0, -1):  # Fisher-Yates
            state, j = _below(state, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        for s in range(5):
            h = np.uint64(0)
            for k in range(10):
                h |= np.uint64(1) << np.uint64(deck[s * 10 + k])
            hands[s] = h
        leader = 0
        for _ in range(10):
            best, best_seat, led = -1, leader, -1
            for k in range(5):
                seat = leader + k
                if seat >= 5:
                    seat -= 5
                h = hands[seat]
                legal = h
                if led >= 0:
                    follow = h & (suit << np.uint64(13 * led))
                    if follow:
                        legal = follow
                state, pick = _below(state, _popcount(legal))
                card = _nth_bit(legal, pick)
                hands[seat] = h & ~(np.uint64(1) << np.uint64(card))
                if led < 0:
                    led = card // 13
                if card // 13 == led and card > best:
                    best, best_seat = card, seat
            won[best_seat] += 1
            leader = best_seat


def floor_rate(deals: int = 2_000_000, seed: int = 7) -> float:
    """Deals/s of the toy kernel on one thread (compiled first, outside the clock)."""
    won = np.zeros(5, np.int64)
    floor_deals(1, 100, won)
    start = time.perf_counter()
    floor_deals(seed, deals, won)
    return deals / (time.perf_counter() - start)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    print(f"{floor_rate(n):.0f}")
