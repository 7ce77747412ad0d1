"""The worker processes of the commands: one pool for ``simulate``, ``par`` and
``verify`` (:func:`polled_pool`), and what every worker does first.

On Linux a worker is forked from its command (:func:`start_method`): it begins with the
libraries and kernels the command has loaded, where a spawned process would import them
again (0.3-0.5 s a worker before its first task; docs/benchmarks.md).

A command's worker processes end with it, however it ends. Ctrl-C and failures are
handled by the command, which ends its workers itself; but a command ended by a signal
it cannot handle (``kill``, a batch scheduler's SIGTERM at the end of a job's time, the
out-of-memory killer) leaves no Python code to run, and its workers, which wait for
nothing from it while they compute, would go on with their current task (whole deals
take minutes) before they notice. On Linux the kernel is asked to end a worker when the
process that started it ends; on every system a worker whose command has already ended
by the time it starts exits at once.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, wait
from contextlib import AbstractContextManager, ExitStack, contextmanager, nullcontext
from typing import Any, TypeVar

T = TypeVar("T")

_PR_SET_PDEATHSIG = 1  # prctl option: the signal a process gets when its parent ends


def end_with_parent(parent: int) -> None:
    """Ask the kernel to end this process (SIGTERM) when its parent ends; ``parent`` is
    the pid of the process that started it, checked after the request, so a parent that
    ended before it is seen (this check on every system; the request on Linux only).

    In a new process (a request outlives the call):

    >>> import subprocess, sys
    >>> code = "import os; from mighty_sim.workers import end_with_parent as e; e(%s)"
    >>> subprocess.run([sys.executable, "-c", code % "os.getppid()"]).returncode
    0
    >>> subprocess.run([sys.executable, "-c", code % "1"]).returncode  # not its parent
    1
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # no C library to ask: only the check below
            pass
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(1)


def init_worker(parent: int) -> None:
    """A worker pool's initializer: Ctrl-C left to the command, which ends its workers
    itself (a long compiled call cannot be interrupted), and the worker ended with the
    command (:func:`end_with_parent`): by SIGTERM's default action, not a handler the
    command set for itself and a forked worker inherits (it would run only once the
    compiled call it interrupts returns)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    end_with_parent(parent)


def start_method() -> str:
    """How a pool starts its workers: ``"fork"`` on Linux, else ``"spawn"``; and
    ``"spawn"`` too when a thread of this process other than a progress bar's refresh
    runs (it might hold a lock that the forked worker would wait for forever), or when
    Numba's parallel threads have run in it (they do not survive a fork).

    >>> stop = threading.Event()
    >>> other = threading.Thread(target=stop.wait)
    >>> other.start()
    >>> start_method()  # another thread runs
    'spawn'
    >>> stop.set(); other.join()
    """
    if not sys.platform.startswith("linux"):
        return "spawn"
    parallel = sys.modules.get("numba.np.ufunc.parallel")
    if parallel is not None and getattr(parallel, "_is_initialized", False):
        return "spawn"
    for thread in threading.enumerate():
        # rich's refresh thread writes the bar to the terminal, which a forked worker
        # never does; it is held while the workers fork (_bars_held)
        if thread is not threading.main_thread() and _bar_lock(thread) is None:
            return "spawn"
    return "fork"


def _bar_lock(thread: threading.Thread) -> Any:
    """The lock a progress bar's refresh thread (rich's) writes under, or None for
    any other thread."""
    if type(thread).__name__ != "_RefreshThread":
        return None
    return getattr(getattr(thread, "live", None), "_lock", None)


@contextmanager
def _bars_held() -> Iterator[None]:
    """Every progress bar's refresh thread kept from writing inside (its display's lock
    held), so that a worker forked inside copies no stream in the middle of a write."""
    with ExitStack() as held:
        for thread in threading.enumerate():
            lock = _bar_lock(thread)
            if lock is not None:
                held.enter_context(lock)
        yield


def _init(parent: int, setup: Callable[..., None] | None, setup_args: tuple[Any, ...]
          ) -> None:
    init_worker(parent)
    if setup is not None:
        setup(*setup_args)


def quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (once a process) with its standard error
    on the null device. The pool's queues hold semaphores, which the tracker frees if this
    process is killed (SIGKILL leaves it no code to run); it would then print a warning
    about "leaked semaphore objects" on the user's terminal, where nothing else is left to
    say what to do. It frees them all the same; an orderly end leaves it nothing to say.
    Called before a command's progress bar starts (a pool calls it too), as descriptor 2
    is pointed at the null device while the tracker starts."""
    from multiprocessing import resource_tracker

    if getattr(resource_tracker._resource_tracker, "_fd", None) is not None:
        return  # running already
    sys.stderr.flush()
    saved = os.dup(2)  # the tracker inherits descriptor 2 itself
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
            resource_tracker.ensure_running()
        finally:
            os.dup2(saved, 2)
            os.close(null)
    finally:
        os.close(saved)


@contextmanager
def polled_pool(workers: int, *, setup: Callable[..., None] | None = None,
                setup_args: tuple[Any, ...] = (),
                starting: Callable[[], AbstractContextManager[Any]] = nullcontext,
                ) -> Iterator[Callable[..., list[Any]]]:
    """``workers`` processes (started as :func:`start_method` says), kept for the
    ``with`` block: it gets a function
    ``run(fn, tasks, on_result=None, on_poll=None)`` giving ``fn(*task)`` for every task
    in those processes, the results in the tasks' order, ``on_result`` called on each as
    it comes and ``on_poll`` every tenth of a second (tasks given in turn reuse the
    processes, and what they loaded). Each worker runs :func:`init_worker`, then
    ``setup(*setup_args)``; the tasks are submitted (and so the workers started) inside
    ``starting()``. The futures are polled, so that Ctrl-C is seen at once; on Ctrl-C or a
    failure the workers are ended at once (they ignore Ctrl-C themselves: a long compiled
    call cannot be interrupted), and they end with this process however it ends.

    >>> with polled_pool(2) as run:
    ...     run(pow, [(2, 10), (3, 3)])
    [1024, 27]
    """
    quiet_resource_tracker()
    method = start_method()
    ctx = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_init,
                               initargs=(os.getpid(), setup, setup_args))
    forking = _bars_held if method == "fork" else nullcontext

    def run(fn: Callable[..., T], tasks: list[tuple[Any, ...]],
            on_result: Callable[[T], None] | None = None,
            on_poll: Callable[[], None] | None = None) -> list[T]:
        with starting(), forking():  # the workers start at the first task
            futures = [pool.submit(fn, *task) for task in tasks]
        pending = set(futures)
        while pending:  # polled: a wait on a future would hold off Ctrl-C
            done, pending = wait(pending, timeout=0.1)
            if on_poll is not None:
                on_poll()
            for f in done:
                if on_result is not None:
                    on_result(f.result())
        return [f.result() for f in futures]

    finished = False
    try:
        yield run
        finished = True
    finally:
        if not finished:  # Ctrl-C or a failure: the workers end at once
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
        # waited for even after success: a worker not told to stop would outlive the
        # command (it holds its own end of the task queue)
        pool.shutdown(wait=True, cancel_futures=True)


def run_polled(fn: Callable[..., T], tasks: list[tuple[Any, ...]], workers: int,
               on_result: Callable[[T], None] | None = None) -> list[T]:
    """``fn(*task)`` for every task in ``workers`` processes (:func:`polled_pool`),
    the results in the tasks' order, ``on_result`` called on each as it comes."""
    with polled_pool(workers) as run:
        return run(fn, tasks, on_result)
