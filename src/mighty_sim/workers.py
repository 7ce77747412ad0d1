"""What every worker process the commands start does first.

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
import os
import signal
import sys

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
    command (:func:`end_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with_parent(parent)
