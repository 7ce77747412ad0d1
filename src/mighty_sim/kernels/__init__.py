"""Numba kernels, kept apart from the public API.

Kernels accept only NumPy arrays and Numba-compatible scalars, are ``@njit(cache=True)``
(the ``njit`` of :mod:`._jit`) and named ``*_nb``. The public functions in
:mod:`mighty_sim.engine` validate their arguments, compile the profile
(:func:`params.compile_profile`) and call a kernel once per batch.

A kernel takes at most 12 arguments (``tests/test_layout.py``): what belongs together
travels as a tuple (a batch's row arrays, a search's work arrays, the trick as it stands,
a contract), unpacked at the function's top, which costs nothing once compiled. One
exception is measured, not understood: bundled in a tuple, ``loop.deal_nb.play_contract_nb``'s
row arrays lost the writes of the ``write_result_nb`` it inlines (Numba 0.68), so they
travel as arguments of their own there; the golden playthroughs catch such a loss.

Importing this package has no effect; importing a kernel module (through :mod:`._jit`)
points Numba's compile cache at :func:`cache_dir`.

Numba types a constant by its value (``Literal[int](0)``) and compiles a kernel once for
each type it is called with, with everything it inlines. So a kernel calling another
(not inlined) one passes a constant as ``var(0)`` (:func:`._jit.var`: an ``int64``, not the
constant 0) where the value is not meant to shape the compiled code, and so sets a
variable that a loop changes later: Numba would first compile the callee for the
constant, then again for the variable's type. A constant stays where the code compiled
for it pays: the search's ``USE_ALL`` (every part's test settled when it compiles) and
a PIMC rollout's ``record_tricks=False`` (sharing the deal loop's compile instead made
PIMC play 2% slower). ``play_until_nb`` still gives ``play_decide_nb`` a constant -1,
not yet weighed either way.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def sources_key() -> str:
    """A key that changes whenever a kernel source file changes.

    Numba's cache notices edits to a function's own file but not to a helper it calls in
    another file, so the cache lives in a folder named after all kernel sources at once.

    >>> len(sources_key())
    12
    """
    h = hashlib.sha256()
    for f in sorted(_HERE.rglob("*.py")):
        h.update(f.relative_to(_HERE).as_posix().encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def cache_root() -> Path:
    """The folder of the compile caches: ``.numba_cache`` in a source checkout, else
    ``~/.cache/mighty_sim/numba``."""
    checkout = _HERE.parents[2]
    if (checkout / "pyproject.toml").exists():
        return checkout / ".numba_cache"
    return Path.home() / ".cache" / "mighty_sim" / "numba"


def cache_dir() -> Path:
    """Numba's compile cache for these kernel sources: ``NUMBA_CACHE_DIR`` when the user
    set it, else a folder of :func:`cache_root` named by :func:`sources_key`."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    return cache_root() / sources_key()


def is_cached(*kernels: str) -> bool:
    """Whether Numba's compile cache for these sources (:func:`cache_dir`) holds each of
    ``kernels`` (``"module.function"``, as ``"dd_nb.dd_target_work_nb"``): else its first
    call compiles it, which a command says before it waits.

    >>> is_cached("no_such_nb.kernel_nb")
    False
    """
    return all(any(cache_dir().glob(f"*/{name}-*.nbi")) for name in kernels)


def prune_stale_caches() -> list[Path]:
    """Remove the caches of other kernel sources from :func:`cache_root` (what
    ``mighty-sim compile`` does before it builds); returns what was removed."""
    if os.environ.get("NUMBA_CACHE_DIR") or not cache_root().is_dir():
        return []
    keep = cache_dir()
    stale = [d for d in cache_root().iterdir() if d.is_dir() and d != keep]
    for d in stale:
        shutil.rmtree(d, ignore_errors=True)
    return stale
