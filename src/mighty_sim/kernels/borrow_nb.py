"""Borrowed array views: the same data, shape and strides without a reference count; and
:func:`copy_nb`, an array copy for kernels compiled without Numba's runtime.

Numba counts references to every array it passes between functions: each call that does
not inline increments and decrements the array's count with atomic instructions, and the
play of one deal makes thousands of such calls (measured with ``perf``: the two atomic
instructions of ``NRT_incref``/``NRT_decref`` took about half of the batch kernel's
time). A *borrowed* view carries no memory-info pointer, so those calls return at once.

Use it only for arrays that outlive every use of the view. Numba frees a local array
right after its last use, so borrow a function's *arguments* only: the caller's
variables keep them alive for the whole call.

>>> import numpy as np
>>> from numba import njit
>>> @njit
... def total(a):
...     b = borrow(a)
...     b[0] = 5
...     return b.sum()
>>> total(np.ones(3, np.int64))
7
"""

from __future__ import annotations

from typing import Any, cast

from numba.core import cgutils, types
from numba.extending import intrinsic

from ._jit import njit


@intrinsic
def _borrow(typingctx: Any, arr: types.Array) -> Any:
    """A view of ``arr`` without reference counting (see the module docstring)."""
    if not isinstance(arr, types.Array):
        return None
    sig = arr(arr)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        out.meminfo = cgutils.get_null_value(out.meminfo.type)
        out.parent = cgutils.get_null_value(out.parent.type)
        out.nitems = src.nitems
        out.itemsize = src.itemsize
        out.data = src.data
        out.shape = src.shape
        out.strides = src.strides
        return out._getvalue()

    return sig, codegen


def _typed(fn: object) -> Any:
    return cast(Any, fn)


borrow: Any = _typed(_borrow)


@njit(cache=True, inline="always")
def copy_nb(dst: Any, src: Any, m: int) -> None:
    """``dst[:m] = src[:m]`` element by element: a slice assignment of one array to
    another needs Numba's runtime, which the kernels' loops run without (:mod:`._jit`)."""
    for i in range(m):
        dst[i] = src[i]
