"""The double-dummy search (``kernels.dd_nb``): time and positions searched a solve.

What it counts: random contracts of ``standard`` on random deals, played by random
players to an ending of N tricks left (and a few cards of the first of them), each
solved once from a cold table, one thread, compiled code; per N the median and 99th
percentile (the maximum with fewer than 100 positions) of the wall time a solve and the
median positions searched. Before timing, it checks the search against the exhaustive
one on 50 endings of 2 tricks.

    .venv/bin/python benchmarks/bench_dd.py [--tricks 3,4,5,6] [--positions 40]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from _results import print_figures, save
from numba import config as numba_config

from mighty_sim.kernels.dd_nb import dd_value_nb, minimax_nb, side_of_nb
from mighty_sim.kernels.params import compile_profile
from mighty_sim.rules.profile import load_profile
from mighty_sim.verify.positions import random_ending


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--tricks", default="3,4,5,6", help="tricks left, comma-separated")
    ap.add_argument("--positions", type=int, default=40, help="endings a number of tricks")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/dd.json"))
    args = ap.parse_args()
    if numba_config.DISABLE_JIT:
        ap.error("NUMBA_DISABLE_JIT is set; this times the compiled search")
    profile = load_profile(args.profile)
    params = compile_profile(profile)
    nodes = np.zeros(1, np.int64)
    for seed in range(50):  # exact before fast
        s, h, tr = random_ending(profile, params, seed, 2)
        if side_of_nb(s) >= 0:
            assert dd_value_nb(s.copy(), h.copy(), tr.copy(), params, nodes) == minimax_nb(
                s, h, tr, params, nodes), f"ending {seed}: the search is not exact"
    figures: dict[str, float] = {}
    for left in (int(t) for t in args.tricks.split(",")):
        seconds, searched = [], []
        seed = 0
        while len(seconds) < args.positions:
            s, h, tr = random_ending(profile, params, 1000 * left + seed, left)
            seed += 1
            if side_of_nb(s) < 0:  # a first-trick friend still unknown
                continue
            nodes[0] = 0
            t = time.perf_counter()
            dd_value_nb(s, h, tr, params, nodes)
            seconds.append(time.perf_counter() - t)
            searched.append(int(nodes[0]))
        tail = np.percentile(seconds, 99) if len(seconds) >= 100 else max(seconds)
        figures[f"{left}_tricks_median_ms"] = float(np.median(seconds)) * 1e3
        figures[f"{left}_tricks_p99_or_max_ms"] = float(tail) * 1e3
        figures[f"{left}_tricks_median_positions"] = float(np.median(searched))
    print(f"double-dummy search, {args.profile}, {args.positions} endings a number of "
          "tricks left")
    print_figures(figures)
    save({"profile": args.profile, "positions": args.positions, **figures}, args.out)


if __name__ == "__main__":
    main()
