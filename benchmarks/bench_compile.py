"""Cold compile: the wall time of a first call that finds Numba's cache empty.

A kernel is compiled once per machine and kernel sources, then loaded from the cache, so
this is what a user waits for once (``make`` compiles the batch kernel ahead of time; the
search, `odds` and PIMC kernels compile at their first use). Each task runs in a fresh
process with an empty ``NUMBA_CACHE_DIR`` and ``MIGHTY_SIM_AOT=0``:

- ``batch``: the first ``play_batch`` call (10 heuristic `standard` games), which
  compiles the deal loop every player type runs;
- ``par``: ``mighty-sim par --hand ...``, one whole deal solved (the search's kernels);
- ``odds``: ``mighty-sim odds --hand ... --play double-dummy --samples 2`` (the `odds`
  loop, the PIMC player it may meet, and the search).

Given a revision, its package is exported as ``bench_against.py`` exports it and each
task runs for both versions at once, one process on each core (this machine's speed moves
by 20-40% within minutes; two runs side by side see the same machine), with the ratio
old/new: above 1, the working tree compiles faster. Compile time is CPU-bound and
single-threaded, so with more than two cores busy the figures are not comparable.

    .venv/bin/python benchmarks/bench_compile.py [REV] [--tasks batch,par,odds]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _results import save
from bench_against import ALIAS, ROOT, export

HAND = ["--hand", "JK AS KS QS JS 10S AH KH AD AC", "--hand", "9S 8S 7S 6S QH JH 10H 9H KD QD",
        "--hand", "5S 4S 3S 2S 8H 7H 6H JD 10D 9D", "--hand", "5H 4H 3H 2H 8D 7D 6D 5D KC QC",
        "--hand", "4D 3D 2D JC 10C 9C 8C 7C 6C 5C", "--blind", "4C 3C 2C",
        "--contract", "18S", "--friend", "KD"]
ODDS = ["--hand", "AS KS QS 10S 5S JK AH KD 2C 3C", "--play", "double-dummy", "--samples", "2"]

# run in the measured process: PKG is the package's name (the working tree's or ALIAS)
CODE = {
    "batch": (
        "from PKG.engine.batch import play_batch\n"
        "from PKG.engine.players import parse_players\n"
        "from PKG.rules.profile import load_profile\n"
        "p = load_profile('standard')\n"
        "play_batch(p, seed=1, game_start=0, games=10, players=parse_players('heuristic', "
        "p.players))\n"),
    "par": "from PKG.cli import main\nmain(['par', *ARGS], standalone_mode=False)\n",
    "odds": "from PKG.cli import main\nmain(['odds', *ARGS], standalone_mode=False)\n",
}
ARGS = {"batch": [], "par": HAND, "odds": ODDS}


def start(task: str, package: str, path: Path | None, cache: str, log: Any
          ) -> subprocess.Popen[bytes]:
    """The task's process for ``package`` (imported from ``path`` when given)."""
    code = CODE[task].replace("PKG", package)
    prefix = f"import sys; sys.path.insert(0, {str(path)!r})\n" if path else ""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, MIGHTY_SIM_AOT="0")
    return subprocess.Popen([sys.executable, "-c", prefix + f"ARGS = {ARGS[task]!r}\n" + code],
                            env=env, stdout=subprocess.DEVNULL, stderr=log)


def wall_times(procs: list[subprocess.Popen[bytes]], logs: list[Any], t0: float
               ) -> list[float]:
    """Each process's wall time from ``t0``; exits with its error if one failed."""
    ends: list[float | None] = [None] * len(procs)
    while None in ends:
        for i, p in enumerate(procs):
            if ends[i] is None and p.poll() is not None:
                ends[i] = time.perf_counter() - t0
                if p.returncode != 0:
                    for other in procs:
                        other.kill()
                    logs[i].seek(0)
                    sys.exit(f"bench_compile: a task failed:\n{logs[i].read().decode()[-2000:]}")
        time.sleep(0.05)
    return [e for e in ends if e is not None]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rev", nargs="?", help="a git revision to run beside the working tree")
    ap.add_argument("--tasks", default="batch,par,odds")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/compile.json")
    args = ap.parse_args()
    tasks = args.tasks.split(",")
    unknown = [task for task in tasks if task not in CODE]
    if unknown:
        sys.exit(f"bench_compile: unknown task {unknown[0]!r} (batch, par, odds)")
    old = export(args.rev) if args.rev else None
    results: dict[str, object] = {"rev": old[0] if old else None}
    print("cold compile, wall time of the first call with an empty cache"
          + (f"; the working tree beside {old[0][:12]} ({args.rev}), at once" if old else ""))
    for task in tasks:
        with tempfile.TemporaryDirectory() as new_cache, \
                tempfile.TemporaryDirectory() as old_cache:
            logs = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
            t0 = time.perf_counter()
            procs = [start(task, "mighty_sim", None, new_cache, logs[0])]
            if old:
                procs.append(start(task, ALIAS, old[1], old_cache, logs[1]))
            times = wall_times(procs, logs, t0)
            for log in logs:
                log.close()
        line = f"  {task:<6} working tree {times[0]:6.1f} s"
        if old:
            line += f", {args.rev} {times[1]:6.1f} s, old/new {times[1] / times[0]:.2f}"
        print(line)
        results[task] = times
    save(results, args.out)


if __name__ == "__main__":
    main()
