"""A command's worker processes end with it, however it ends: killed (SIGKILL, which runs
no code of the command's), its workers do not go on computing (``mighty_sim.workers``).
Linux only, where the kernel is asked to end them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

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
    """``parent``'s worker processes (not multiprocessing's resource tracker)."""
    found = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit() and (s := _stat(int(p.name))) is not None and s[1] == parent:
            try:
                if b"spawn_main" in (p / "cmdline").read_bytes():
                    found.append(int(p.name))
            except OSError:
                pass
    return found


def _kill_and_watch(proc: subprocess.Popen[bytes], workers: int, ready: float) -> None:
    """Wait until ``proc`` has ``workers`` children, kill it, and check they end too."""
    deadline = time.time() + ready
    children: list[int] = []
    try:
        while time.time() < deadline and len(children) < workers:
            time.sleep(0.1)
            children = _workers(proc.pid)
        assert len(children) == workers, children
        time.sleep(3)  # the workers past their start, computing
        assert all(_stat(c) is not None for c in children)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(_stat(c) is not None for c in children):
        time.sleep(0.1)
    left = [c for c in children if _stat(c) is not None]
    for c in left:  # do not leave them behind the test run either
        os.kill(c, signal.SIGKILL)
    assert left == [], "workers outlived the killed command"


def test_par_workers_end_with_the_command() -> None:
    script = ("import time\nfrom mighty_sim.analysis.par import polled_pool\n"
              "with polled_pool(2) as run:\n    run(time.sleep, [(300,), (300,)])\n")
    proc = subprocess.Popen([sys.executable, "-c", script])
    _kill_and_watch(proc, 2, ready=60)


def test_simulate_workers_end_with_the_command(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "2000000",
         "--shard-games", "200000", "--workers", "2", "--out", str(tmp_path / "run")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _kill_and_watch(proc, 2, ready=180)
