"""splitmix64 streams under Numba: the same arithmetic as :mod:`mighty_sim.reference.rng`.

A stream is a one-element ``ndarray(uint64)`` holding its state, so helpers can advance
it in place.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_C1 = np.uint64(0xBF58476D1CE4E5B9)
_C2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
ATTEMPT_BITS = 16
MAX_ATTEMPTS = (1 << ATTEMPT_BITS) - 1


@njit(cache=True)
def mix64_nb(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser."""
    z = (z ^ (z >> _S30)) * _C1
    z = (z ^ (z >> _S27)) * _C2
    return z ^ (z >> _S31)


@njit(cache=True)
def stream_state_nb(seed: np.uint64, index: np.uint64) -> np.uint64:
    """Initial state of stream ``index`` of a run with ``seed`` (as ``rng.stream_state``)."""
    return mix64_nb(mix64_nb(seed) + index * GOLDEN)


@njit(cache=True)
def seed_stream_nb(st: np.ndarray, seed: np.uint64, index: np.uint64) -> None:
    """Point stream ``st`` at stream ``index``."""
    st[0] = stream_state_nb(seed, index)


@njit(cache=True)
def next_u64_nb(st: np.ndarray) -> np.uint64:
    """Next 64-bit draw."""
    st[0] = st[0] + GOLDEN
    return mix64_nb(st[0])


@njit(cache=True)
def below_nb(st: np.ndarray, n: int) -> int:
    """Uniform integer in ``[0, n)``, as ``DealStream.below``."""
    return np.int64(((next_u64_nb(st) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def below_at_nb(state: np.uint64, n: int) -> tuple[np.uint64, int]:
    """``below_nb`` on a stream's state held in a register: (the state after the draw,
    the draw). A loop that draws often keeps the state so and stores it back once."""
    state += GOLDEN
    return state, np.int64(((mix64_nb(state) >> _S32) * np.uint64(n)) >> _S32)


@njit(cache=True, inline="always")
def shuffle_nb(st: np.ndarray, a: np.ndarray, m: int) -> None:
    """Shuffle ``a[:m]`` in place (Fisher-Yates from the top, as ``DealStream.shuffled``):
    the draws of ``below_nb``, with the stream's state held in a register for the loop."""
    state = st[0]
    for i in range(m - 1, 0, -1):
        state, j = below_at_nb(state, i + 1)
        a[i], a[j] = a[j], a[i]
    st[0] = state


@njit(cache=True)
def chance_nb(st: np.ndarray, numerator: int, denominator: int) -> bool:
    """True with probability ``numerator / denominator``."""
    return below_nb(st, denominator) < numerator


@njit(cache=True)
def attempt_index_nb(game: int, attempt: int) -> np.uint64:
    """Stream index of an attempt of a game (as ``rng.attempt_index``)."""
    return (np.uint64(game) << np.uint64(ATTEMPT_BITS)) | np.uint64(attempt)


@njit(cache=True)
def dealer_index_nb(game: int) -> np.uint64:
    """Stream index of a game's first-dealer draw (as ``rng.dealer_index``)."""
    return (np.uint64(game) << np.uint64(ATTEMPT_BITS)) | np.uint64(MAX_ATTEMPTS)
