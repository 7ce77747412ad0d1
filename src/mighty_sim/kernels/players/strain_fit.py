"""The heuristic's strain score fitted to ``mighty-sim odds``: a linear model of the
expected payout of each strain for the hand an auction winner holds, summed per suit
from tables indexed by the suit's 13-bit pattern (rank r at bit r), so that the kernel
scores a strain with a few table reads (:func:`.policy_nb.strain_score_nb`).

A suit as trump scores Mighty held, the joker held, its own pattern as trump
(``TRUMP_FEATURES``) and the other suits' patterns as side suits (``SIDE_FEATURES``),
Mighty taken out of its suit. NT scores a constant, Mighty, the joker, each suit's pattern
(``NT_FEATURES``, Mighty left in: it is its suit's ace) and the lengths of the two
longest suits. The weights (``WEIGHTS``) maximise the mean payout of the strain chosen
(a softmax over the five strains, started from least squares) over `standard` auction
winners, every strain played out 1,000 times by ``odds``; ``analysis/fit_strain.py``
writes them and measures them on other deals (docs/players.md).

>>> trump_table().shape, side_table().shape, nt_table().shape
((8192,), (8192,), (8192,))
"""

from __future__ import annotations

from functools import cache

import numpy as np

TRUMP_FEATURES = ("length", "ace", "king", "queen", "jack", "past 5", "past 6")
SIDE_FEATURES = ("ace", "guarded king", "bare king", "queen of 3+", "void", "singleton",
                 "past 4", "run from the ace (4+ cards)", "doubleton")
NT_FEATURES = ("ace", "king with ace or 2+", "bare king", "queen of 3+", "run from the ace",
               "void", "past 4 with the ace", "length (run of 3+)", "run past 3",
               "past 4", "singleton")
SUIT_SCALARS = ("mighty", "joker")
NT_SCALARS = ("constant", "mighty", "joker", "longest", "second longest")

# fitted by analysis/fit_strain.py (24,000 `standard` auction winners, 1,000 deals a
# strain, seeds 101, 303, 404); the order: SUIT_SCALARS, TRUMP_FEATURES, SIDE_FEATURES,
# NT_SCALARS, NT_FEATURES
WEIGHTS = np.array([0.315, -0.763, 3.517, -1.012, -0.871, 0.418, 0.571, 0.718, 1.365, -0.113,
                    -1.588, -0.918, -0.694, 0.135, 0.131, -0.794, -0.902, 0.121, -9.362, 2.648,
                    0.763, 0.246, -0.512, 0.809, 2.103, 1.274, 2.002, 3.233, 0.837, 2.293,
                    0.622, -1.455, -0.438, 0.774])


@cache
def _patterns() -> tuple[np.ndarray, ...]:
    """Per pattern: its bits (pattern x rank), length, ace, king, queen, jack and the run
    of ranks held from the ace down."""
    bits = (np.arange(1 << 13)[:, None] >> np.arange(13)) & 1
    n = bits.sum(axis=1)
    run = np.cumprod(bits[:, ::-1], axis=1).sum(axis=1)
    return n, bits[:, 12], bits[:, 11], bits[:, 10], bits[:, 9], run


def _frozen(columns: np.ndarray) -> np.ndarray:
    out = columns.astype(np.float64)
    out.flags.writeable = False
    return out


@cache
def trump_features() -> np.ndarray:
    """(8192, len(TRUMP_FEATURES)) float64: each pattern's features as the trump suit
    (each feature table is built once, read-only)."""
    n, a, k, q, j, _ = _patterns()
    return _frozen(np.column_stack([n, a, k, q, j, np.maximum(n - 5, 0),
                                    np.maximum(n - 6, 0)]))


@cache
def side_features() -> np.ndarray:
    """(8192, len(SIDE_FEATURES)) float64: each pattern's features as a side suit."""
    n, a, k, q, _, run = _patterns()
    guarded = (a == 1) | (n >= 3)
    return _frozen(np.column_stack([a, k * guarded, k * ~guarded, q * (n >= 3), n == 0,
                                    n == 1, np.maximum(n - 4, 0), run * (n >= 4), n == 2]))


@cache
def nt_features() -> np.ndarray:
    """(8192, len(NT_FEATURES)) float64: each pattern's features in NT."""
    n, a, k, q, _, run = _patterns()
    guarded = (a == 1) | (n >= 2)
    return _frozen(np.column_stack([a, k * guarded, k * ~guarded, q * (n >= 3), run, n == 0,
                                    np.maximum(n - 4, 0) * a, n * (run >= 3),
                                    np.maximum(run - 3, 0), np.maximum(n - 4, 0), n == 1]))


def split(weights: np.ndarray) -> tuple[np.ndarray, ...]:
    """The weights by block: suit scalars, trump, side, NT scalars, NT features."""
    sizes = (len(SUIT_SCALARS), len(TRUMP_FEATURES), len(SIDE_FEATURES), len(NT_SCALARS),
             len(NT_FEATURES))
    return tuple(np.split(np.asarray(weights, np.float64), np.cumsum(sizes)[:-1]))


def trump_table(weights: np.ndarray = WEIGHTS) -> np.ndarray:
    """Each pattern's score as the trump suit."""
    return trump_features() @ split(weights)[1]


def side_table(weights: np.ndarray = WEIGHTS) -> np.ndarray:
    """Each pattern's score as a side suit."""
    return side_features() @ split(weights)[2]


def nt_table(weights: np.ndarray = WEIGHTS) -> np.ndarray:
    """Each pattern's score in NT."""
    return nt_features() @ split(weights)[4]


def milli(values: np.ndarray) -> np.ndarray:
    """Scores in whole thousandths (int64): every weight is a whole number of thousandths
    and every feature a whole number, so the kernel sums them exactly, in any order.

    >>> milli(np.array([1.5, -0.25])).tolist()
    [1500, -250]
    """
    return np.rint(np.asarray(values) * 1000).astype(np.int64)


def strain_features(hand: int, mighty: tuple[int, ...]) -> np.ndarray:
    """(5, len(WEIGHTS)) float64: the features of a one-deck hand in each strain (rows:
    the four suits, NT), ``mighty`` the card of Mighty under each strain: the model is
    ``strain_features(...) @ WEIGHTS``, what the kernel sums from the tables.

    >>> x = strain_features((1 << 12) | (1 << 52), (25, 12, 12, 12, 12))
    >>> x.shape, float(x[1, 0]), float(x[0, 0])  # A♠ is Mighty but under spades
    ((5, 34), 1.0, 0.0)
    """
    tf, sf, nf = trump_features(), side_features(), nt_features()
    k1, k2 = len(SUIT_SCALARS), len(SUIT_SCALARS) + len(TRUMP_FEATURES)
    k3 = k2 + len(SIDE_FEATURES)
    out = np.zeros((5, len(WEIGHTS)))
    joker = (hand >> 52) & 1
    for t in range(5):
        has_m = (hand >> mighty[t]) & 1
        if t < 4:
            rest = hand & ~(1 << mighty[t])
            pats = [(rest >> (13 * s)) & 0x1FFF for s in range(4)]
            out[t, :k1] = has_m, joker
            out[t, k1:k2] = tf[pats[t]]
            out[t, k2:k3] = sum(sf[pats[s]] for s in range(4) if s != t)
        else:
            pats = [(hand >> (13 * s)) & 0x1FFF for s in range(4)]
            lengths = sorted((bin(p).count("1") for p in pats), reverse=True)
            out[t, k3:k3 + len(NT_SCALARS)] = 1, has_m, joker, lengths[0], lengths[1]
            out[t, k3 + len(NT_SCALARS):] = sum(nf[p] for p in pats)
    return out
