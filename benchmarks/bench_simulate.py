"""Simulator throughput, measured in one run on this machine.

What it counts: *played deals* (redeals are extra rows, not counted) of the ``standard``
profile. It measures, in this order:

1. the whole-deal kernel alone, one thread, heuristic and random players (the compiled
   module of ``mighty_sim.engine.aot`` when ``make`` built it, as runs use it), and that module
   against the JIT kernel in alternating rounds;
2. end-to-end ``mighty-sim simulate`` (a subprocess: start-up, kernels, Arrow, zstd
   Parquet, rename) with 1 and 2 workers;
3. the reference engine (pure Python) on random players, the only players it has;
4. peak memory of ``simulate`` at two deal counts (should be flat);
5. the wall time of a small run once the compile cache is warm, with the compiled module
   and with the JIT kernel (``MIGHTY_SIM_AOT=0``);
6. what a worker spends besides the kernel: what a worker spends per deal besides the
   kernel (the Arrow table and the Parquet encoding, one batch, CPU time), how two kernel
   processes at once scale on this machine (wall time), and the start-up of any process
   that runs a cached Numba kernel (importing numpy and numba and loading Numba's
   registries, which its first call of a cached kernel does), measured in a subprocess,
   against the start-up of a process that loads the compiled module instead.

Before any time is quoted, the kernel's random deals are checked against the reference
engine's (an output-parity check). The toy kernel of ``benchmarks/floor.py`` runs before
and after, and the kernel and ``simulate`` rates are given as fractions of it. Ratios are
measured in the same run; the machine is
shared and noisy, so read the ratios rather than the absolute figures. Results are
printed and written as JSON (``--out``). Generated reports are output, not truth.

    .venv/bin/python benchmarks/bench_simulate.py [--deals 1000000] [--big 10000000]
        [--start-rounds N]  (only: 1 worker, 2 forked and 2 spawned, N rounds interleaved)
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from statistics import median
from typing import Any

import numpy as np
from _results import add_floor, print_figures, save
from floor import floor_rate

from mighty_sim.dataset.schema import deals_table
from mighty_sim.dataset.shards import SHARD_GAMES, balanced_shard_games
from mighty_sim.dataset.writer import GROUP_ROWS, parquet_writer
from mighty_sim.engine import aot
from mighty_sim.engine import batch as engine
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.reference import RandomPlayer, play_ledger
from mighty_sim.rules.profile import RuleProfile, load_profile

_SPAWNED = ("import sys; import mighty_sim.workers as w; w.start_method = lambda: 'spawn'; "
            "sys.argv[0] = 'mighty-sim'; from mighty_sim.cli.commands import run; run()")
"""The command with its workers spawned instead of forked (``workers.start_method``)."""


def _simulate(deals: int, workers: int, out: Path,
              env: dict[str, str] | None = None, spawn: bool = False) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB, largest process) of one ``simulate`` command
    (with ``spawn``, its workers spawned, not forked).

    The command runs under a small wrapper process that reports the largest RSS among its
    descendants, so each run's peak is its own (this process's own RUSAGE_CHILDREN would
    only ever give the largest of all runs so far)."""
    wrapper = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
               "capture_output=True); "
               "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", wrapper, sys.executable,
         *(["-c", _SPAWNED] if spawn else ["-m", "mighty_sim"]), "simulate",
         "--deals", str(deals), "--seed", "1", "--workers", str(workers), "--out", str(out),
         "--overwrite"],
        check=True, capture_output=True, text=True, env={**os.environ, **(env or {})},
    )
    seconds = time.perf_counter() - t0
    return seconds, int(done.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--big", type=int, default=0,
                    help="also measure peak memory at this many deals (e.g. 10000000)")
    ap.add_argument("--start-rounds", type=int, default=0, metavar="N",
                    help="only compare, in N interleaved rounds, 1 worker, 2 forked workers "
                         "and 2 spawned ones (--deals each; medians)")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/simulate.json"))
    args = ap.parse_args()
    if args.start_rounds:
        if args.deals <= balanced_shard_games(args.deals, 1, False):
            sys.exit("bench_simulate.py: --start-rounds needs two shards or more "
                     f"(--deals above {SHARD_GAMES:,}): one shard is played without workers")
        _start_rounds(args.start_rounds, args.deals)
        return
    profile = load_profile("standard")
    results: dict[str, float] = {}
    floor_before = floor_rate()

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

    # 1. kernel alone: the one runs use (the compiled module when there is one), then
    # the compiled module against the JIT kernel in alternating rounds (same rows)
    compiled = aot.load()
    results["aot_module_present"] = float(compiled is not None)
    if compiled is None:
        print("no compiled module for these sources (`make compile`): its figures are left out")
    for name in ("heuristic", "random"):
        players = parse_players(name, 5)
        play_batch(profile, seed=1, game_start=0, games=10, players=players)  # warm
        t0 = time.perf_counter()
        play_batch(profile, seed=1, game_start=0, games=200_000, players=players)
        results[f"kernel_{name}_deals_per_s"] = 200_000 / (time.perf_counter() - t0)
    if compiled is not None:
        results.update(_aot_against_jit(profile, compiled))

    # 2. end to end
    with tempfile.TemporaryDirectory() as tmp:
        _simulate(1000, 1, Path(tmp) / "warm")  # compile cache warm
        for workers in (1, 2):
            seconds, peak = _simulate(args.deals, workers, Path(tmp) / f"w{workers}")
            results[f"simulate_{workers}w_deals_per_s"] = args.deals / seconds
            results[f"simulate_{workers}w_peak_rss_mib"] = peak / 1024
        # 5. small run, warm cache: as runs go (the compiled kernel if there is one), and
        # with the JIT kernel (MIGHTY_SIM_AOT=0); best of three each, alternating
        small: dict[str, list[float]] = {"": [], "jit_": []}
        for _ in range(3):
            for key, env in (("", {}), ("jit_", {aot.ENV_SWITCH: "0"})):
                t0 = time.perf_counter()
                _simulate(1000, 1, Path(tmp) / "small", env)
                small[key].append(time.perf_counter() - t0)
        for key, times in small.items():
            results[f"small_run_{key}1000_deals_s"] = min(times)
        # 4. memory at a larger count
        if args.big:
            seconds, peak = _simulate(args.big, 2, Path(tmp) / "big")
            results["simulate_big_deals"] = args.big
            results["simulate_big_deals_per_s"] = args.big / seconds
            results["simulate_big_peak_rss_mib"] = peak / 1024

    # 6. floors: the writer's cost per deal, two processes' scaling, Numba's start-up
    results.update(_floors(profile))

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
    results["small_run_jit_over_numba_start_s"] = (results["small_run_jit_1000_deals_s"]
                                                   - results["numba_start_s"])
    kernel_us = 1e6 / results["kernel_heuristic_deals_per_s"]
    results["kernel_heuristic_us_per_deal"] = kernel_us
    # the kernel time a deal may take for 300,000 deals/s with 2 workers, if two
    # processes ran twice as fast as one (an upper bound: two_processes_scaling is the
    # measured figure, noisy) and nothing else (start-up, progress) cost anything
    budget = 2 / 300_000 * 1e6 - results["writer_us_per_deal"]
    results["kernel_us_per_deal_allowed_for_300k_2w"] = budget
    add_floor(results, floor_before, "kernel_heuristic_deals_per_s",
              "kernel_random_deals_per_s", "simulate_1w_deals_per_s",
              "simulate_2w_deals_per_s")
    print_figures(results)
    save(results, args.out)


def _start_rounds(rounds: int, deals: int) -> None:
    """What starting the workers costs: ``simulate`` with 1 worker, 2 forked workers
    and 2 spawned ones, one after another in each round; the medians, 2 workers over 1,
    and the largest peak memory of each."""
    runs: dict[str, list[tuple[float, int]]] = {"1 worker": [], "2 forked": [],
                                                "2 spawned": []}
    floor_before = floor_rate()
    with tempfile.TemporaryDirectory() as tmp:
        _simulate(1000, 1, Path(tmp) / "warm")
        for _ in range(rounds):
            for name, runs_of in runs.items():
                runs_of.append(_simulate(deals, 2 if "2" in name else 1, Path(tmp) / "run",
                                         spawn="spawned" in name))
    one = median(t for t, _ in runs["1 worker"])
    for name, runs_of in runs.items():
        mid = median(t for t, _ in runs_of)
        print(f"{name:10} {deals / mid:>10,.0f} deals/s (median of {rounds}), over 1 worker "
              f"{one / mid:.2f}; peak {max(p for _, p in runs_of) / 1024:.1f} MiB")
    print(f"floor {floor_before:,.0f} before, {floor_rate():,.0f} after")


def _kernel_process(games: int) -> subprocess.Popen[str]:
    code = ("import sys, time; from mighty_sim.engine.batch import play_batch; "
            "from mighty_sim.engine.players import parse_players; "
            "from mighty_sim.rules.profile import load_profile; p = load_profile('standard'); "
            "s = parse_players('heuristic', 5); play_batch(p, seed=1, game_start=0, games=10, "
            "players=s); t = time.perf_counter(); "
            f"play_batch(p, seed=1, game_start=0, games={games}, players=s); "
            f"print({games} / (time.perf_counter() - t))")
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def _floors(profile: RuleProfile) -> dict[str, float]:
    """Section 6: the costs the speed targets cannot go below (see the module docstring)."""
    out: dict[str, float] = {}
    players = parse_players("heuristic", 5)
    games = GROUP_ROWS  # a row group's worth of deals or more: the writer's cost per deal
    batch = play_batch(profile, seed=1, game_start=0, games=games, players=players)
    table_s, parquet_s = [], []
    for _ in range(4):  # the first round pays one-time set-up: the best of the rest
        t0 = time.process_time()
        table = deals_table(batch, profile.players, seat_columns=True)
        t1 = time.process_time()
        writer = parquet_writer(io.BytesIO(), table.schema)
        writer.write_table(table)
        writer.close()
        table_s.append(t1 - t0)
        parquet_s.append(time.process_time() - t1)
    out["table_us_per_deal"] = min(table_s[1:]) / games * 1e6
    out["parquet_us_per_deal"] = min(parquet_s[1:]) / games * 1e6
    out["writer_us_per_deal"] = out["table_us_per_deal"] + out["parquet_us_per_deal"]
    # kernel deals/s of one process alone, then of two at once (wall time each: CPU time
    # would not show two processes slowing each other), in alternating rounds: the median
    # of the rounds' ratios
    ratios = []
    for _ in range(3):
        alone = float(_kernel_process(60_000).communicate()[0])
        pair = [_kernel_process(60_000) for _ in range(2)]
        ratios.append(sum(float(p.communicate()[0]) for p in pair) / alone)
    out["two_processes_scaling"] = median(ratios)
    out["numba_start_s"] = _start_s("import numpy, numba; from numba.core.registry import "
                                    "cpu_target; cpu_target.target_context.refresh()")
    if aot.load() is not None:  # without the compiled module (`make compile`): no figure
        out["aot_start_s"] = _start_s("import numpy; from mighty_sim.engine import aot; "
                                      "assert aot.load() is not None")
    return out


def _start_s(code: str) -> float:
    """Wall seconds of a fresh Python running ``code``, best of three."""
    starts = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        starts.append(time.perf_counter() - t)
    return min(starts)


def _aot_against_jit(profile: RuleProfile, compiled: Any) -> dict[str, float]:
    """The compiled module's kernel against the JIT kernel, heuristic players, one
    thread, CPU time, six alternating rounds after a check that the rows are equal: the
    median ratio (above 1: the compiled module is faster)."""
    from mighty_sim.kernels.loop.games_nb import play_games_nb

    players = parse_players("heuristic", 5)
    original = engine.games_kernel

    def run(kernel: Any, games: int) -> tuple[float, Any]:
        engine.games_kernel = lambda: kernel
        try:
            t0 = time.process_time()
            batch = play_batch(profile, seed=2, game_start=0, games=games, players=players)
            return time.process_time() - t0, batch
        finally:
            engine.games_kernel = original

    a, b = run(compiled, 2000)[1], run(play_games_nb, 2000)[1]
    assert all(np.array_equal(getattr(a, k), getattr(b, k))
               for k in ("rg", "ri", "ru", "rf", "rw", "rh"))
    ratios, rates = [], []
    for _ in range(6):
        t_aot = run(compiled, 60_000)[0]
        t_jit = run(play_games_nb, 60_000)[0]
        ratios.append(t_jit / t_aot)
        rates.append(60_000 / t_aot)
    return {"kernel_heuristic_aot_deals_per_s_cpu": median(rates),
            "ratio_kernel_aot_vs_jit": median(ratios)}


if __name__ == "__main__":
    main()
