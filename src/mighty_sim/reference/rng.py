"""Counter-based random streams: one per deal, derived from the run seed and the deal index.

A deal's stream depends only on ``(seed, index)``, never on which worker or batch plays it,
so a run gives the same rows whatever its worker count. The generator is splitmix64
(Steele, Lea & Flood 2014); the Numba kernels implement the same arithmetic on
``uint64`` so that the reference engine and the kernels draw the same numbers.

>>> DealStream(seed=7, index=3).next_u64() == DealStream(seed=7, index=3).next_u64()
True
>>> DealStream(seed=7, index=3).next_u64() == DealStream(seed=7, index=4).next_u64()
False
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
ATTEMPT_BITS = 16
"""A game's dealt attempts are indexed ``game << 16 | attempt``."""
MAX_ATTEMPTS = (1 << ATTEMPT_BITS) - 1
"""Attempts a game may use; the last index of a game draws its first dealer."""


def attempt_index(game: int, attempt: int) -> int:
    """Stream index of attempt ``attempt`` (0, 1, ...) of game ``game``.

    >>> attempt_index(2, 3)
    131075
    """
    if not 0 <= attempt < MAX_ATTEMPTS:
        raise ValueError(f"attempt must be 0 to {MAX_ATTEMPTS - 1}, got {attempt}")
    return (game << ATTEMPT_BITS) | attempt


def dealer_index(game: int) -> int:
    """Stream index from which game ``game`` draws its first dealer."""
    return (game << ATTEMPT_BITS) | MAX_ATTEMPTS


def mix64(z: int) -> int:
    """splitmix64's finaliser: a bijection of 64-bit integers."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def stream_state(seed: int, index: int) -> int:
    """Initial state of the stream of deal ``index`` in a run with ``seed``."""
    return mix64((mix64(seed & MASK64) + (index & MASK64) * GOLDEN) & MASK64)


class DealStream:
    """A deal's random stream.

    ``below(n)`` uses the top 32 bits of a draw (``(x >> 32) * n >> 32``), which is exact
    in 64-bit arithmetic and so identical under Numba.

    >>> s = DealStream(seed=1, index=0)
    >>> all(0 <= s.below(10) < 10 for _ in range(100))
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int, index: int) -> None:
        self.state = stream_state(seed, index)

    def next_u64(self) -> int:
        """Next 64-bit draw."""
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32``."""
        if not 1 <= n < 1 << 32:
            raise ValueError(f"below(n) needs 1 <= n < 2**32, got {n}")
        return ((self.next_u64() >> 32) * n) >> 32

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability ``numerator / denominator``."""
        return self.below(denominator) < numerator

    def shuffled(self, items: list[int]) -> list[int]:
        """A Fisher-Yates shuffle of ``items`` (a new list).

        >>> sorted(DealStream(3, 4).shuffled(list(range(53)))) == list(range(53))
        True
        """
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
