"""Solve times of the deals of ``mighty-sim par`` runs, as each was timed where it was
solved (the ``seconds`` column of ``par.parquet``).

What it counts: for each run folder given, the rows of one starting trick (``--from``,
1 by default: whole deals after the exchange) that carry a time and were solved by one
version of the search (``--search``, this one's by default; ``par`` takes the deals an
older search answered, with that search's times): the deals, the median,
90th and 99th percentile and slowest processor time of a deal's search on its core, the
share solved under 20 ms and under 1 s, the positions a deal and the time a position.
A deal left unanswered at the run's ``--max-positions`` counts as slower than every
answered one (its time at the limit is only a lower bound), so the percentiles hold
as long as they fall below the unanswered share. A run of hours on a shared machine
is timed in every phase of it: docs/benchmarks.md says what else ran beside it.

    python benchmarks/bench_par_times.py out/whole-deals/heuristic out/whole-deals/pimc
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np
import polars as pl
from _results import print_figures, save
from par_runs import kept_solves

from mighty_sim.analysis.par import read_par
from mighty_sim.kernels.search.dd_nb import SEARCH_VERSION


def times(runs: list[Path], from_trick: int, search: int = SEARCH_VERSION) -> pl.DataFrame:
    """The timed rows of ``from_trick`` of every run that search version ``search`` was
    the first to solve (as ``bench_dd.py`` counts them: not the deals it solved again
    where an older search gave up, the hardest): ``seconds`` (inf for a deal left
    unanswered), ``positions``, ``answered``."""
    frames = []
    for run in runs:
        par = read_par(run)
        if par is None or "search" not in par.columns:
            raise SystemExit(f"{run}: no par.parquet with timed deals and their search; "
                             f"run `mighty-sim par {run}` (it takes the deals it kept)")
        own = kept_solves(run, from_trick, search).get("deal_id", np.zeros(0, np.uint64))
        frames.append(par.filter((pl.col("from_trick") == from_trick)
                                 & pl.col("seconds").is_not_null()
                                 & (pl.col("search") == search)
                                 & pl.col("deal_id").is_in(own))
                      .select("seconds", "positions", answered=pl.col("par").is_not_null()))
    return pl.concat(frames).with_columns(
        seconds=pl.when("answered").then(pl.col("seconds").cast(pl.Float64))
        .otherwise(math.inf))


def figures(t: pl.DataFrame) -> dict[str, float]:
    """The report's figures of the rows ``times`` gives."""
    s = t["seconds"].to_numpy()
    answered = t.filter("answered")
    pos = answered["positions"].to_numpy()
    return {
        "deals timed": float(len(s)),
        "left unanswered": float(len(s) - answered.height),
        "median ms": 1e3 * float(np.percentile(s, 50, method="lower")),
        "90th percentile ms": 1e3 * float(np.percentile(s, 90, method="lower")),
        "99th percentile ms": 1e3 * float(np.percentile(s, 99, method="lower")),
        "slowest answered ms": 1e3 * float(answered["seconds"].max()),  # type: ignore[arg-type]
        "under 20 ms %": 100.0 * float((s < 0.02).mean()),
        "under 1 s %": 100.0 * float((s < 1.0).mean()),
        "median positions (millions)": float(np.median(pos)) / 1e6,
        "ns a position": 1e9 * float(answered["seconds"].sum()) / float(pos.sum()),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=Path, nargs="+", help="run folders with a par.parquet")
    ap.add_argument("--from", dest="from_trick", type=int, default=1)
    ap.add_argument("--search", type=int, default=SEARCH_VERSION,
                    help="the search version whose deals are timed (default: this one)")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/par_times.json"))
    args = ap.parse_args()
    t = times(args.runs, args.from_trick, args.search)
    if t.height == 0:
        raise SystemExit(f"no deals from trick {args.from_trick} timed by search "
                         f"{args.search}")
    result = figures(t)
    print(f"par solve times from trick {args.from_trick}, search {args.search}, "
          f"{', '.join(str(r) for r in args.runs)}")
    print_figures(result)
    save({"runs": [str(r) for r in args.runs], "from_trick": args.from_trick,
          "search": args.search, **result}, args.out)


if __name__ == "__main__":
    main()
