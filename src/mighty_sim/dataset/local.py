"""The local executor: a run's shards written by worker processes on this machine.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..workers import polled_pool, quiet_resource_tracker
from .heap import MMAP_THRESHOLD, WORKER_MALLOC_ENV, fix_mmap_threshold
from .writer import ShardWritten, write_shard

_PROGRESS: Any = None  # a worker process's progress queue (see _keep_queue)


def _keep_queue(queue: Any) -> None:
    """Worker setup (after :func:`mighty_sim.workers.init_worker`): keep the queue that
    progress goes back through."""
    global _PROGRESS
    _PROGRESS = queue
    if os.environ.get("MALLOC_MMAP_THRESHOLD_") == str(MMAP_THRESHOLD):
        fix_mmap_threshold()  # a forked worker's malloc did not read it at start
    # a worker's results and progress are sent before it is told to stop, and it prints
    # nothing: skip the interpreter's shutdown, which with the compiled kernels loaded
    # takes 0.3-0.6 s that the run would wait for
    atexit.register(os._exit, 0)


def _write_shard_in_worker(config_dict: dict[str, Any], out: str, shard: int
                           ) -> ShardWritten:
    """``write_shard`` in a worker process, reporting progress to the run."""
    return write_shard(config_dict, out, shard, _PROGRESS)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C ignored inside (in the main thread; elsewhere nothing changes): processes
    started here inherit it, and Python leaves an ignored SIGINT ignored at start."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def _workers_use_malloc() -> Iterator[None]:
    """Worker processes started inside allocate Arrow memory with the C library's malloc
    instead of Arrow's bundled allocator (mimalloc): a shard's peak memory measured about
    40 MiB lower (390 against 427 MiB, three shards of 500,000 games in one process), for
    the same writing time. Arrow reads ``ARROW_DEFAULT_MEMORY_POOL`` once, when a process
    first allocates, so it is set for the children only (the command sets it for itself
    too, so a forked worker has it either way); a value the user set is kept.

    ``MALLOC_MMAP_THRESHOLD_`` keeps glibc from moving its mmap threshold (see
    :mod:`mighty_sim.dataset.heap`); other C libraries ignore it."""
    ours = [key for key in WORKER_MALLOC_ENV if key not in os.environ]
    for key in ours:
        os.environ[key] = WORKER_MALLOC_ENV[key]
    try:
        yield
    finally:
        for key in ours:
            os.environ.pop(key, None)


def run_shards_local(cdict: dict[str, Any], out: Path, todo: list[int], workers: int,
                     progress: Any, on_shard: Callable[[ShardWritten], None]) -> None:
    """Write the shards ``todo`` on this machine, in this process with one worker (or one
    shard), else in worker processes; ``on_shard`` is called in this process with each
    shard written, as it is.

    The kernels are already loaded (or compiled into the cache) by this process, so the
    workers have them (forked) or load them from the cache (spawned). Their progress
    comes back through a pipe each inherits at start. On Ctrl-C (or any failure) the
    workers are ended at once: a shard they were writing is left as a dot-named
    temporary file, which ``--resume`` deletes before it plays the shard again."""
    if workers == 1 or len(todo) <= 1:
        for s in todo:
            on_shard(write_shard(cdict, str(out), s, _CallbackQueue(progress)))
        return
    quiet_resource_tracker()  # before the first semaphore (the queue's)
    queue = multiprocessing.get_context("spawn").SimpleQueue()  # serves forked workers too

    def drain() -> None:
        while not queue.empty():
            n = queue.get()
            if progress is not None:
                progress(n)

    @contextmanager
    def starting() -> Iterator[None]:
        # the pool starts its workers as the tasks are submitted: here, where they get
        # the environment above and start with Ctrl-C ignored (a worker caught by
        # Ctrl-C while it starts would print a traceback before its initializer runs)
        with _workers_use_malloc(), _sigint_ignored():
            yield

    try:
        with polled_pool(min(workers, len(todo)), setup=_keep_queue, setup_args=(queue,),
                         starting=starting) as run:
            run(_write_shard_in_worker, [(cdict, str(out), s) for s in todo],
                on_result=on_shard, on_poll=drain)
    except BaseException as e:  # the pool has ended every worker: none writes any more
        remove_temporaries(out)
        if isinstance(e, BrokenProcessPool):
            raise ValueError("a worker process stopped unexpectedly (out of memory, or "
                             "killed); `--resume` completes the run") from None
        raise
    drain()


def remove_temporaries(out: Path) -> None:
    """Remove the shard files of run ``out`` that a writer ended mid-write left (the
    caller holds the run's lock, so no writer of its own is running): a failed run leaves
    no partial file, and a run resumed after a crash starts clean."""
    for stale in out.glob("*/shard=*/.*.tmp"):
        stale.unlink(missing_ok=True)


class _CallbackQueue:
    """A queue-like adapter that forwards ``put`` to a progress callback."""

    def __init__(self, callback: Any) -> None:
        self.callback = callback

    def put(self, n: int) -> None:
        if self.callback is not None:
            self.callback(n)
