"""Numba's ``njit`` and ``prange`` for the kernels, with the compile cache in
:func:`mighty_sim.kernels.cache_dir` (Numba picks a function's cache folder when it is
decorated, so this is set before any kernel module defines one). A ``NUMBA_CACHE_DIR``
the user set is left as it is.

``njit(..., nrt=False)`` compiles a function without Numba's runtime (Numba's internal
``_nrt`` flag): no reference counting of the arrays it passes around, which in the hot
loops costs a call per array and a spill of the loop's registers around each call. The
functions it calls inherit the setting unless they set ``nrt`` themselves, so it is given
once, on a kernel's loop below the function that allocates its work arrays. Without the
runtime a function cannot allocate (Numba refuses to compile ``np.zeros`` there), so a
function that allocates says ``nrt=True``; such a function called from a loop without the
runtime still frees what it allocates. What a function without the runtime receives must
be kept alive by its caller, as with :func:`.borrow_nb.borrow`, and it returns no array (its
caller would count a reference that was never taken); an array copied into another goes
through :func:`.borrow_nb.copy_nb`. Numba keeps one compiled version of a function per
signature: a helper first compiled for a caller with the runtime serves the loop without it
too, correct and only slower (the ahead-of-time module compiles the batch loop first).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, overload

from numba import njit as _numba_njit
from numba import prange
from numba.core import config
from numba.extending import overload as numba_overload

from . import cache_dir

if not os.environ.get("NUMBA_CACHE_DIR"):
    config.CACHE_DIR = str(cache_dir())

__all__ = ["njit", "prange", "var"]


F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


@overload
def njit(fn: F, /) -> F: ...
@overload
def njit(*, nrt: bool | None = None, **options: Any) -> Callable[[F], F]: ...
def njit(*args: Any, nrt: bool | None = None, **options: Any) -> Any:
    """``numba.njit``; ``nrt`` True or False sets whether the function (and, when False,
    what it calls that does not set it) runs with Numba's reference counting; None
    inherits the caller's setting (Numba's default: with it).

    >>> import numpy as np
    >>> @njit(nrt=False)
    ... def first(a):
    ...     return a[0]
    >>> int(first(np.arange(3)))
    0
    """
    if nrt is not None:
        options["_nrt"] = nrt
    return _numba_njit(*args, **options)


def var(x: T) -> T:
    """``x`` as a value of its type rather than a constant, inside a kernel: Numba types
    ``0`` as ``Literal[int](0)`` and compiles a kernel called with it apart from the same
    kernel called with an ``int64`` (see :mod:`mighty_sim.kernels`); ``var(0)`` is an
    ``int64``, ``var(False)`` a ``bool``. Outside Numba, ``x`` itself.

    >>> @njit
    ... def twice(a):
    ...     return 2 * a
    >>> @njit
    ... def both():
    ...     return twice(var(3)) + twice(3)
    >>> int(both()), [str(t[0]) for t in twice.signatures]
    (12, ['int64', 'Literal[int](3)'])
    """
    return x


# Numba types an overload with its arguments' plain types first (not their constant
# values); inlined in Numba's IR, the call leaves no trace in the compiled code (the batch
# kernel's machine code is the same as with np.int64(0); a call LLVM inlines is not)
@numba_overload(var, inline="always")
def _var_nb(x: Any) -> Callable[[Any], Any]:
    def impl(x: Any) -> Any:  # Numba wants the parameter as var's, annotation included
        return x
    return impl
