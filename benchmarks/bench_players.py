"""The heuristic against the baseline (the first heuristic, kept as a yardstick): the batch
kernel's speed with each, measured in one process, rounds interleaved.

What it counts: *played deals* per second (redeals are extra rows, not counted) of the
whole-deal kernel alone (``play_batch``: auction, exchange, friend call and play), one
thread, every seat played by the same policy, for each profile asked. Each round plays
the same games with each policy in turn; the figure is the best round of each (the
machine is shared and noisy: the best round is the least disturbed), beside the floor
(benchmarks/floor.py) measured before and after. The ratio heuristic / baseline is the
figure that matters: the club player must cost no more than the player it replaces.

    .venv/bin/python benchmarks/bench_players.py [--games 100000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from _results import add_floor, print_figures, save
from floor import floor_rate

from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.rules.profile import load_profile

POLICIES = ("heuristic", "baseline")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--profile", action="append", default=None)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/players.json"))
    args = ap.parse_args()
    names = args.profile or ["standard", "russian-7p"]
    results: dict[str, float] = {}
    floor_before = floor_rate()
    for name in names:
        profile = load_profile(name)
        lineups = {p: parse_players(p, profile.players) for p in POLICIES}
        for policy in POLICIES:  # compiled and warmed before any round is timed
            play_batch(profile, seed=1, game_start=0, games=100, players=lineups[policy])
        best = dict.fromkeys(POLICIES, 0.0)
        for r in range(args.rounds):
            for policy in POLICIES:
                t = time.perf_counter()
                batch = play_batch(profile, seed=r + 2, game_start=0, games=args.games,
                                   players=lineups[policy])
                rate = int(batch.played().sum()) / (time.perf_counter() - t)
                best[policy] = max(best[policy], rate)
        for policy in POLICIES:
            results[f"{name}_{policy}_deals_per_s"] = best[policy]
        results[f"{name}_heuristic_vs_baseline"] = best["heuristic"] / best["baseline"]
    add_floor(results, floor_before,
              *[f"{n}_{p}_deals_per_s" for n in names for p in POLICIES])
    print_figures(results)
    save(results, args.out)


if __name__ == "__main__":
    main()
