"""Where the batch kernel's time goes: the share of `perf` samples in each compiled
function, for one player type.

What it counts: one process plays ``--reps`` batches of ``--games`` games (ledger 1:
one played deal a game, with its redeal attempts) through the module compiled ahead of
time (``mighty-sim compile``, built here when missing), whose functions carry their
names, while ``perf record`` samples it; the shares are of every sample of that process
(the system's work for it, such as zeroing fresh pages of the output arrays, included;
the first small batch, which loads the module, too). A function inlined into another
counts as its caller: the trick loop holds the rules' and the random player's helpers,
the attempt its shuffle and deal. Shares, not times, are the figures to compare: this
machine's speed moves within minutes, the shares much less. Needs Linux ``perf``.

    .venv/bin/python benchmarks/perf_kernel.py [--players heuristic] [--games 200000]
        [--reps 5] [--profile standard] [--top 15]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import save

ROOT = Path(__file__).resolve().parent.parent
_LINE = re.compile(r"^\s*([0-9.]+)%\s+\[([.k])\]\s+(.*?)\s*(?:-\s+-\s*)?$")
_KERNEL = re.compile(r"mighty_sim::kernels::(?:\w+::)*(\w+)::(\w+)")


def _control(fifos: list[str], command: str) -> None:
    """Tell ``perf record`` to ``enable`` or ``disable`` its sampling (its control fifo, then
    its acknowledgement)."""
    with open(fifos[0], "w") as ctl:
        ctl.write(command + "\n")
    with open(fifos[1]) as ack:
        ack.readline()


def play(profile_name: str, players: str, games: int, reps: int, fifos: list[str]) -> float:
    """Play the batches (the sampled process's work), perf sampling only while they run
    (the imports and the first small batch left out); the CPU time a game in µs."""
    from mighty_sim.engine.aot import load
    from mighty_sim.engine.batch import play_batch
    from mighty_sim.engine.players import parse_players
    from mighty_sim.rules.profile import load_profile

    if load() is None:
        raise SystemExit("the compiled module is missing (or MIGHTY_SIM_AOT=0)")
    profile = load_profile(profile_name)
    spec = parse_players(players, profile.players)
    play_batch(profile, seed=1, game_start=0, games=1000, players=spec)
    _control(fifos, "enable")
    t = time.process_time()
    for i in range(reps):
        play_batch(profile, seed=1, game_start=i * games, games=games, players=spec)
    cpu = time.process_time() - t
    _control(fifos, "disable")
    return cpu / (reps * games) * 1e6


def name_of(symbol: str, space: str) -> str:
    """A sample's function as the table names it: ``module.function`` for the kernels,
    ``system`` for the operating system's work, else the symbol's first word."""
    m = _KERNEL.search(symbol)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    if space == "k":
        return "system"
    return symbol.split("(")[0].split()[0] if symbol else "?"


def shares(report: str) -> dict[str, float]:
    """Percent of samples by function (:func:`name_of`) from ``perf report --stdio``."""
    out: dict[str, float] = {}
    for line in report.splitlines():
        m = _LINE.match(line)
        if m:
            key = name_of(m.group(3), m.group(2))
            out[key] = out.get(key, 0.0) + float(m.group(1))
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="heuristic")
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--top", type=int, default=15, help="functions printed")
    ap.add_argument("--inner", nargs=2, metavar="FIFO", help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/perf_kernel.json")
    args = ap.parse_args()
    if args.inner:  # the sampled process
        print(f"{play(args.profile, args.players, args.games, args.reps, args.inner):.3f}")
        return
    if shutil.which("perf") is None:
        sys.exit("perf_kernel.py: needs Linux `perf` on the PATH")
    from mighty_sim.engine.aot import build, load

    if load() is None:
        build()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "perf.data"
        fifos = [str(Path(tmp) / "ctl"), str(Path(tmp) / "ack")]
        for fifo in fifos:
            os.mkfifo(fifo)
        inner = [sys.executable, __file__, "--inner", *fifos, "--players", args.players,
                 "--games", str(args.games), "--reps", str(args.reps),
                 "--profile", args.profile]
        # no BLAS threads: OpenBLAS's, started by NumPy's import, spin and take samples
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        run = subprocess.run(["perf", "record", "-F", "2000", "-D", "-1", "--control",
                              f"fifo:{fifos[0]},{fifos[1]}", "-o", str(data), "--", *inner],
                             capture_output=True, text=True, env=env)
        if run.returncode != 0:
            sys.exit(f"perf_kernel.py: perf record failed: {run.stderr.strip()[-300:]}")
        us = float(run.stdout.strip().splitlines()[-1])
        report = subprocess.run(["perf", "report", "-i", str(data), "--no-children",
                                 "--sort", "symbol", "--stdio"],
                                capture_output=True, text=True, check=True).stdout
    by_function = shares(report)
    print(f"{args.profile}, {args.players} players: {us:.2f} µs of CPU a game "
          f"({args.reps} batches of {args.games:,} games); share of perf's samples:")
    for name, pct in list(by_function.items())[:args.top]:
        print(f"  {pct:5.1f}%  {name}")
    save({"profile": args.profile, "players": args.players, "games": args.games,
          "reps": args.reps, "us_a_game": us, "percent_by_function": by_function}, args.out)


if __name__ == "__main__":
    main()
