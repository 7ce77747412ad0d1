"""A command's worker processes end with it, however it ends: killed (SIGKILL, which runs
no code of the command's), its workers do not go on computing (``mighty_sim.workers``).
Linux only, where the kernel is asked to end them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import cpu_seconds

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="workers end with their parent on Linux")


def _stat(pid: int) -> tuple[str, int] | None:
    """A live process's state and parent pid, from /proc; None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    state, ppid = text.rsplit(")", 1)[1].split()[:2]
    return (state, int(ppid)) if state != "Z" else None


def _workers(parent: int) -> list[int]:
    """``parent``'s worker processes, forked or spawned (not multiprocessing's resource
    tracker)."""
    found = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit() and (s := _stat(int(p.name))) is not None and s[1] == parent:
            try:
                if b"resource_tracker" not in (p / "cmdline").read_bytes():
                    found.append(int(p.name))
            except OSError:
                pass
    return found


def _wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; whether it held."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _kill_and_survivors(proc: subprocess.Popen[bytes], workers: int,
                        working: Callable[[list[int]], bool]) -> list[int]:
    """Wait until ``proc`` has ``workers`` children doing their tasks (``working``), kill
    it, and return the children still alive once they have had two seconds to go."""
    children: list[int] = []

    def started() -> bool:
        nonlocal children
        children = _workers(proc.pid)
        return len(children) == workers and working(children)

    try:
        assert _wait_for(started, 180), f"no {workers} working workers: {children}"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    _wait_for(lambda: all(_stat(c) is None for c in children), 2.0)
    left = [c for c in children if _stat(c) is not None]
    for c in left:  # do not leave them behind the test run either
        os.kill(c, signal.SIGKILL)
    return left


def test_pool_workers_end_with_the_command(tmp_path: Path) -> None:
    """The pool of ``simulate``, ``par`` and ``verify``: each worker marks that its task
    has begun, then computes for minutes; the command is killed."""
    script = ("import pathlib, sys, time\n"
              "from mighty_sim.workers import polled_pool\n"
              "def task(path):\n"
              "    pathlib.Path(path).touch()\n"
              "    while True: pass\n"
              "if __name__ == '__main__':\n"
              "    with polled_pool(2) as run:\n"
              f"        run(task, [({str(tmp_path / 'a')!r},), ({str(tmp_path / 'b')!r},)])\n")
    (tmp_path / "pool.py").write_text(script)
    proc = subprocess.Popen([sys.executable, str(tmp_path / "pool.py")])
    left = _kill_and_survivors(
        proc, 2, lambda _: (tmp_path / "a").exists() and (tmp_path / "b").exists())
    assert left == [], "workers outlived the killed command"


def test_simulate_workers_end_with_the_command(tmp_path: Path) -> None:
    """Killed while both workers play their shards (each has computed for half a second)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "2000000",
         "--shard-games", "200000", "--workers", "2", "--out", str(tmp_path / "run")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    left = _kill_and_survivors(proc, 2, lambda pids: all(cpu_seconds(p) > 0.5 for p in pids))
    assert left == [], "workers outlived the killed command"


_FORK_SCENARIO = """
import os, sys, threading
from mighty_sim.workers import polled_pool, start_method

def task(x):  # a forked worker has what its parent loaded (rich), a spawned one not
    return x * x, os.getpid(), "rich.progress" in sys.modules

if __name__ == "__main__":
    import io
    from rich.console import Console
    from rich.progress import Progress

    assert start_method() == "fork", start_method()
    with Progress(console=Console(file=io.StringIO(), force_terminal=True),
                  refresh_per_second=1000) as bar:  # its refresh thread runs
        bar.add_task("work", total=2)
        assert start_method() == "fork"
        with polled_pool(2) as run:
            forked = run(task, [(3,), (4,)])
    assert [r[0] for r in forked] == [9, 16], forked
    assert os.getpid() not in {r[1] for r in forked} and all(r[2] for r in forked)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    assert start_method() == "spawn"
    with polled_pool(1) as run:
        spawned = run(task, [(5,)])
    stop.set()
    other.join()
    assert spawned[0][0] == 25 and not spawned[0][2], spawned
    print("ok")
"""


def test_workers_fork_beside_a_progress_bar_and_spawn_beside_other_threads(
        tmp_path: Path) -> None:
    """On Linux the workers are forked (they start with what the command has loaded),
    also while a progress bar refreshes itself on its own thread; a thread of any other
    kind could hold a lock a forked worker would wait for, and then they are spawned.
    Run in a process of its own: this one may have threads of earlier tests."""
    (tmp_path / "scenario.py").write_text(_FORK_SCENARIO)
    done = subprocess.run([sys.executable, str(tmp_path / "scenario.py")],
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "ok", done.stderr[-2000:]
