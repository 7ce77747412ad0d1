"""Simulator throughput, measured in one run on this machine.

What it counts: *played deals* (redeals are extra rows, not counted) of the ``standard``
profile. It measures, in this order:

1. the whole-deal kernel alone, one thread, heuristic and random players;
2. end-to-end ``mighty-sim simulate`` (a subprocess: start-up, kernels, Arrow, zstd
   Parquet, rename) with 1 and 2 workers;
3. the reference engine (pure Python) on random players, the only players it has;
4. peak memory of ``simulate`` at two deal counts (should be flat);
5. the wall time of a small run once the compile cache is warm.

Before any time is quoted, the kernel's random deals are checked against the reference
engine's (an output-parity check). Ratios are measured in the same run; the machine is
shared and noisy, so read the ratios rather than the absolute figures. Results are
printed and written as JSON (``--out``). Generated reports are output, not truth.

    .venv/bin/python benchmarks/bench_simulate.py [--deals 1000000] [--big 10000000]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from _results import print_figures, save

from mighty_sim.dataset import deals_table
from mighty_sim.engine import parse_players, play_batch
from mighty_sim.profile import load_profile
from mighty_sim.reference import RandomPlayer, play_ledger


def _simulate(deals: int, workers: int, out: Path) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB, largest process) of one ``simulate`` subprocess."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mighty_sim", "simulate", "--deals", str(deals), "--seed", "1",
         "--workers", str(workers), "--out", str(out), "--overwrite"],
        check=True, capture_output=True,
    )
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(peak, before)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--big", type=int, default=0,
                    help="also measure peak memory at this many deals (e.g. 10000000)")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/simulate.json"))
    args = ap.parse_args()
    profile = load_profile("standard")
    results: dict[str, float] = {}

    # parity first: the kernel's random deals are the reference engine's
    batch = play_batch(profile, seed=3, game_start=0, games=200, players=parse_players("random", 5))
    rows = deals_table(batch, 5).to_pylist()
    k = 0
    for g in range(200):
        for rec in play_ledger(profile, [RandomPlayer()] * 5, seed=3, game=g, deals=1).attempts:
            row = rows[k]
            k += 1
            assert tuple(row["hands"]) == rec.hands, "kernel and reference deal differently"
            assert [Fraction(v) for v in row["payouts"]] == list(rec.result.payouts or [0] * 5)
    assert k == len(rows)

    # 1. kernel alone
    for name in ("heuristic", "random"):
        players = parse_players(name, 5)
        play_batch(profile, seed=1, game_start=0, games=10, players=players)  # warm
        t0 = time.perf_counter()
        play_batch(profile, seed=1, game_start=0, games=200_000, players=players)
        results[f"kernel_{name}_deals_per_s"] = 200_000 / (time.perf_counter() - t0)

    # 2. end to end
    with tempfile.TemporaryDirectory() as tmp:
        _simulate(1000, 1, Path(tmp) / "warm")  # compile cache warm
        for workers in (1, 2):
            seconds, peak = _simulate(args.deals, workers, Path(tmp) / f"w{workers}")
            results[f"simulate_{workers}w_deals_per_s"] = args.deals / seconds
            results[f"simulate_{workers}w_peak_rss_mib"] = peak / 1024
        # 5. small run, warm cache
        t0 = time.perf_counter()
        _simulate(1000, 1, Path(tmp) / "small")
        results["small_run_1000_deals_s"] = time.perf_counter() - t0
        # 4. memory at a larger count
        if args.big:
            seconds, peak = _simulate(args.big, 2, Path(tmp) / "big")
            results["simulate_big_deals"] = args.big
            results["simulate_big_deals_per_s"] = args.big / seconds
            results["simulate_big_peak_rss_mib"] = peak / 1024

    # 3. reference engine, random players
    n_ref = 2000
    t0 = time.perf_counter()
    for g in range(n_ref):
        play_ledger(profile, [RandomPlayer()] * 5, seed=1, game=g, deals=1)
    results["reference_random_deals_per_s"] = n_ref / (time.perf_counter() - t0)

    ref = results["reference_random_deals_per_s"]
    results["ratio_kernel_random_vs_reference"] = results["kernel_random_deals_per_s"] / ref
    results["ratio_simulate_2w_vs_reference"] = results["simulate_2w_deals_per_s"] / ref
    results["ratio_simulate_2w_vs_1w"] = (results["simulate_2w_deals_per_s"]
                                         / results["simulate_1w_deals_per_s"])
    print_figures(results)
    save(results, args.out)


if __name__ == "__main__":
    main()
