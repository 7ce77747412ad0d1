"""Time of ``mighty-sim analyze`` (all tables) on a dataset, measured in one run.

What it counts: wall seconds of :func:`mighty_sim.analysis.analyze_dataset` on an
existing dataset (or one it makes first with ``mighty-sim simulate``), plus the row
count. Run it on a 10M-deal dataset to check the 10-second target:

    .venv/bin/python benchmarks/bench_analyze.py --deals 10000000 --dataset out/bench10m
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
from _results import save

from mighty_sim.analysis.tables import analyze_dataset, scan_deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--dataset", type=Path, default=Path("out/bench-analyze"))
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/analyze.json"))
    args = ap.parse_args()
    if not (args.dataset / "_run.json").exists():
        subprocess.run([sys.executable, "-m", "mighty_sim", "simulate", "--deals",
                        str(args.deals), "--seed", "1", "--workers", str(os.cpu_count() or 1),
                        "--out", str(args.dataset)], check=True)
    rows = scan_deals(args.dataset).select(pl.len()).collect().item()
    t0 = time.perf_counter()
    tables = analyze_dataset(args.dataset)
    seconds = time.perf_counter() - t0
    played = int(tables["bid_success"]["n"].sum())
    result = {"rows": rows, "played_deals": played, "analyze_seconds": seconds}
    print(f"{rows:,} rows ({played:,} played deals): analyze in {seconds:.2f} s")
    save(result, args.out)


if __name__ == "__main__":
    main()
