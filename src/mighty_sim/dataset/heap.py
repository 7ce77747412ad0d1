"""The C heap of a process that writes shards: glibc's malloc kept from hoarding pages.

A worker writes one row group after another; each one's NumPy arrays and Arrow buffers
are freed, but glibc's malloc keeps freed pages that lie below a live block, and after
freeing a large block it raises its mmap threshold to that block's size, so the next
batches' arrays come from the fragmented heap instead of mappings of their own. A
worker's peak then crept over its first shards. Measured in one process writing shards
of 500,000 games (each row group's table already dropped once written): 140.4 MiB after
the first shard and 143.3 after the tenth with :func:`release_free_memory` alone, 128.6
and 129.5 with the threshold fixed as well, at the same speed (both with the free pages
handed back after every row group; once a shard is written, as now, the peak of a
one-worker `simulate` is the same, 114 MB at 1,000,000 deals and 115 at 10,000,000).
Elsewhere than glibc these are no-ops.

>>> release_free_memory()  # no-op where the C library has no malloc_trim
"""

from __future__ import annotations

import ctypes
from functools import cache
from typing import Any

MMAP_THRESHOLD = 128 * 1024  # glibc's default, before it starts moving it
_M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)

# what worker processes start with; glibc reads MALLOC_MMAP_THRESHOLD_ at start-up
# (a value the user set is kept: see runner._workers_use_malloc)
WORKER_MALLOC_ENV = {
    "ARROW_DEFAULT_MEMORY_POOL": "system",
    "MALLOC_MMAP_THRESHOLD_": str(MMAP_THRESHOLD),
}


@cache
def _libc() -> Any:
    """glibc, or None where the C library is another (or not found)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim  # noqa: B018 (glibc has it, other C libraries do not)
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


def has_glibc() -> bool:
    """True where these calls do something."""
    return _libc() is not None


def release_free_memory() -> None:
    """Hand the heap's free pages back to the system (``malloc_trim(0)``), as a worker
    does after every shard it writes; a few milliseconds. Not after every row group:
    the next batches take the same pages again, each one faulted in anew (measured on
    `simulate` of 1,000,000 deals with one worker: 124,000-132,000 page faults against
    175,000, for the same peak, 114 MB)."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


def fix_mmap_threshold() -> None:
    """Keep blocks of :data:`MMAP_THRESHOLD` bytes and more in their own mappings from
    now on (``mallopt(M_MMAP_THRESHOLD, ...)``, which also stops glibc moving it): what
    ``MALLOC_MMAP_THRESHOLD_`` does for a worker, for a process already running (the
    ``mighty-sim`` command, which writes the shards itself with one worker)."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
