"""Small statistics shared by the analyses, odds and duels (no heavy imports).

>>> wilson_interval(8, 10)  # doctest: +ELLIPSIS
(0.49..., 0.94...)
>>> mean_interval(np.array([1.0, 2.0, 3.0]))  # doctest: +ELLIPSIS
(2.0, 0.86..., 3.13...)
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: np.ndarray) -> tuple[float, float, float]:
    """The mean of ``values`` with its 95% normal interval: (mean, low, high); NaN for no
    values, an unbounded interval for one."""
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    half = Z95 * float(values.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return mean, mean - half, mean + half


def demean_by(a: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """``a`` (rows, or rows of columns) less the mean of the rows that share its id: the
    fitted choices' costs and features, each less its decision's mean
    (``analysis/fit_shed.py``, ``analysis/fit_lead.py``).

    >>> demean_by(np.array([1.0, 3.0, 5.0]), np.array([0, 0, 1])).tolist()
    [-1.0, 1.0, 0.0]
    """
    _, inv, count = np.unique(ids, return_inverse=True, return_counts=True)
    sums = np.stack([np.bincount(inv, col) for col in a.reshape(len(a), -1).T], 1)
    return a - (sums[inv] / count[inv, None]).reshape(a.shape)
