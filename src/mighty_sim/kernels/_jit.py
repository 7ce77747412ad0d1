"""Numba's ``njit`` and ``prange`` for the kernels, with the compile cache in
:func:`mighty_sim.kernels.cache_dir` (Numba picks a function's cache folder when it is
decorated, so this is set before any kernel module defines one). A ``NUMBA_CACHE_DIR``
the user set is left as it is."""

from __future__ import annotations

import os

from numba import njit, prange
from numba.core import config

from . import cache_dir

if not os.environ.get("NUMBA_CACHE_DIR"):
    config.CACHE_DIR = str(cache_dir())

__all__ = ["njit", "prange"]
