"""One-deck and two-deck throughput of the batch kernel, measured in one run.

What it counts: *played deals* per second (redeals are extra rows, not counted) of the
whole-deal kernel alone, one thread, heuristic and random players, for the one-deck
profiles ``standard`` and ``russian-5p`` and the two-deck ``russian-6p`` to ``russian-8p``
(17, 14 and 12 cards a hand, 102 to 108 cards); then the reference engine on
``russian-6p`` with random players. A two-deck deal has more players, more cards and more
tricks, so the figures also give cards played per second.

Before any time is quoted, the kernel's random two-deck deals are checked against the
reference engine's. Ratios are measured in the same run (the machine is shared and
noisy); results are printed and written as JSON (``--out``).

    .venv/bin/python benchmarks/bench_decks.py [--games 100000]
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction
from pathlib import Path

from _results import add_floor, print_figures, save
from floor import floor_rate

from mighty_sim.dataset.schema import deals_table
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.reference import RandomPlayer, play_ledger
from mighty_sim.rules.profile import load_profile

PROFILES = ("standard", "russian-5p", "russian-6p", "russian-7p", "russian-8p")


def _parity(name: str, games: int = 100) -> None:
    profile = load_profile(name)
    n = profile.players
    rows = deals_table(play_batch(profile, seed=3, game_start=0, games=games,
                                  players=parse_players("random", n)), n).to_pylist()
    k = 0
    for g in range(games):
        for rec in play_ledger(profile, [RandomPlayer()] * n, seed=3, game=g, deals=1).attempts:
            row = rows[k]
            k += 1
            assert [Fraction(v) for v in row["payouts"]] == list(rec.result.payouts or [0] * n)
    assert k == len(rows), f"{name}: kernel and reference differ"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/decks.json"))
    args = ap.parse_args()
    for name in PROFILES[2:]:
        _parity(name)
    results: dict[str, float] = {}
    floor_before = floor_rate()
    for policy in ("heuristic", "random"):
        for name in PROFILES:
            profile = load_profile(name)
            players = parse_players(policy, profile.players)
            play_batch(profile, seed=1, game_start=0, games=10, players=players)  # warm
            t0 = time.perf_counter()
            play_batch(profile, seed=1, game_start=0, games=args.games, players=players)
            rate = args.games / (time.perf_counter() - t0)
            results[f"kernel_{policy}_{name}_deals_per_s"] = rate
            results[f"kernel_{policy}_{name}_cards_per_s"] = rate * profile.players * profile.tricks
        base = results[f"kernel_{policy}_standard_deals_per_s"]
        for name in PROFILES[1:]:
            results[f"ratio_{policy}_{name}_vs_standard"] = (
                results[f"kernel_{policy}_{name}_deals_per_s"] / base)
    p6 = load_profile("russian-6p")
    n_ref = 300
    t0 = time.perf_counter()
    for g in range(n_ref):
        play_ledger(p6, [RandomPlayer()] * 6, seed=1, game=g, deals=1)
    ref = n_ref / (time.perf_counter() - t0)
    results["reference_random_russian-6p_deals_per_s"] = ref
    results["ratio_kernel_random_russian-6p_vs_reference"] = (
        results["kernel_random_russian-6p_deals_per_s"] / ref)
    add_floor(results, floor_before, *(f"kernel_{p}_{n}_deals_per_s"
                                       for p in ("heuristic", "random") for n in PROFILES))
    print_figures(results)
    save(results, args.out)


if __name__ == "__main__":
    main()
