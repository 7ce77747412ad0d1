"""Whole-deal pars that grow from sitting to sitting: the card-play table from the exchange
on, and the timing of whole deals, over 20,000 deals of each run.

A whole deal's par takes seconds to minutes of one core (docs/double-dummy.md), so the
20,000 deals of a run take days. ``mighty-sim par`` keeps every deal it solves in the
run's folder and goes on from them; the folder lives under ``out/`` (not kept by git),
so this script keeps what was solved in the repository, in ``data/whole-deals/RUN.npz``
(``par``'s own packed file, compressed), and puts it back into a fresh folder:

    .venv/bin/python benchmarks/whole_deals.py prepare heuristic   # simulate, then restore
    nice -n 19 .venv/bin/mighty-sim par out/whole-deals/heuristic --deals 20000 \\
        --from-trick 1 --max-positions 2G --workers 2 2> par.log &
    .venv/bin/python benchmarks/whole_deals.py keep heuristic      # into data/whole-deals
    .venv/bin/python benchmarks/whole_deals.py status heuristic pimc   # and the timing's count

``keep`` writes the run's ``par.parquet`` for the deals solved in a row from the first
(``par --deals N`` over the deals kept, no search), so that ``mighty-sim analyze
out/whole-deals/RUN`` shows the card-play table and ``bench_par_times.py
out/whole-deals/RUN`` the timing of those deals; a ``par`` still running goes on. The
runs: ``heuristic`` (seed 1: its deals are those ``bench_dd.py --played`` times, and
``par`` visits the same positions for each) and ``pimc`` (seed 2, every seat PIMC; its
players bid and exchange as the heuristic's, so ``bench_dd.py --also-run`` counts its
deals in the whole-deal timing too).
A new version of the search (``kernels.search.dd_nb.SEARCH_VERSION``) takes the deals an older
one answered (a par is exact whatever search found it); the timing counts only the
deals this search was the first to solve, in a row from the first of them (so a new
search's timing starts where the older one's deals end).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from par_runs import in_a_row, kept_solves, solved_in_a_row

from mighty_sim.dataset.integrity import PACKED_PARTS, PAR_PARTS, open_run
from mighty_sim.files import written_whole
from mighty_sim.kernels.search.dd_nb import SEARCH_VERSION

ROOT = Path(__file__).resolve().parent.parent
KEPT = ROOT / "data" / "whole-deals"
OUT = ROOT / "out" / "whole-deals"
DEALS = 20_000
TIMING = 10_000
"""Whole deals the timing counts (``bench_dd.py --also-run``): both runs' deals in a row
that this search was the first to solve."""
LIMIT = "2G"
RUNS = {
    "heuristic": ["--seed", "1"],
    "pimc": ["--seed", "2", "--players", "pimc"],
}


def _cli(*args: str) -> None:
    """``mighty-sim ARGS`` in this interpreter, its output passed through."""
    subprocess.run([sys.executable, "-m", "mighty_sim", *args], check=True)


def _packed(name: str) -> Path:
    return OUT / name / PAR_PARTS / "from-1" / PACKED_PARTS


def prepare(name: str) -> None:
    """Simulate run ``name`` unless its folder holds it, then put the deals kept in the
    repository into its folder, unless it holds as many already."""
    run = OUT / name
    try:
        open_run(run)
    except ValueError:
        _cli("simulate", "--deals", str(DEALS), *RUNS[name], "--out", str(run), "--overwrite")
    kept = KEPT / f"{name}.npz"
    if not kept.exists():
        print(f"{name}: no deals kept yet")
        return
    had = solved_in_a_row(run, 1)
    with np.load(kept) as f:
        starts, games, offsets = f["_starts"], f["_games"], f["_offsets"]
    in_file = in_a_row(dict(zip(starts.tolist(), zip(games.tolist(),
                                                     np.diff(offsets).tolist(), strict=True),
                                strict=True)))
    if had >= in_file:
        print(f"{name}: the folder holds {had:,} deals in a row, the kept file {in_file:,}")
        return
    target = _packed(name)
    target.parent.mkdir(parents=True, exist_ok=True)
    with written_whole(target) as tmp:  # the folder's loose chunks stay, and count with it
        shutil.copyfile(kept, tmp)
    now = solved_in_a_row(run, 1)
    print(f"{name}: {now:,} deals solved in a row")
    if now < in_file:
        print(f"{name}: {kept} holds deals of another run, or left unanswered by "
              "another search, which `par` solves again")


def keep(name: str) -> None:
    """Write the table of the deals solved in a row and keep them in the repository."""
    run = OUT / name
    deals = solved_in_a_row(run, 1)
    if deals == 0:
        raise SystemExit(f"{name}: no deals solved in {run}")
    _cli("par", str(run), "--deals", str(deals), "--from-trick", "1", "--max-positions",
         LIMIT, "--workers", "1")
    KEPT.mkdir(parents=True, exist_ok=True)
    with np.load(_packed(name)) as f:
        arrays = {k: f[k] for k in f.files}
    with written_whole(KEPT / f"{name}.npz") as tmp, tmp.open("wb") as out:
        np.savez_compressed(out, **arrays)
    print(f"{name}: {deals:,} deals solved in a row, kept in {KEPT / f'{name}.npz'}")


def status(name: str) -> None:
    """What the run's folder holds: the deals solved (in a row from the first, and in
    all), those left unanswered, their mean time (of the deals this search was the
    first to solve, as the timing counts them, if any), and the core-hours the rest of
    the run would take at that mean (or that it is complete: every deal solved in a
    row, as ``keep`` tables them)."""
    run = OUT / name
    in_row = solved_in_a_row(run, 1)  # before the rest: a running par only adds deals
    cols = kept_solves(run, 1)
    if not cols:
        print(f"{name}: no deals solved in {run}")
        return
    solved = len(cols["par"])
    own = kept_solves(run, 1, SEARCH_VERSION).get("seconds", cols["seconds"])
    mean = float(np.nanmean(own))
    left = (DEALS - solved) * mean / 3600
    places = 1 if left < 10 else 0
    rest = ("complete" if in_row >= DEALS else
            f"the rest of {DEALS:,} about {left:.{places}f} core-hours")
    print(f"{name}: {in_row:,} deals solved in a row, {solved:,} in all, "
          f"{int((cols['par'] < 0).sum())} unanswered; {mean:.1f} s a deal, {rest}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("action", choices=("prepare", "keep", "status"))
    ap.add_argument("runs", nargs="+", choices=sorted(RUNS))
    a = ap.parse_args()
    for name in a.runs:
        {"prepare": prepare, "keep": keep, "status": status}[a.action](name)
    if a.action == "status" and set(a.runs) == set(RUNS):  # the timing counts both
        timed = sum(solved_in_a_row(OUT / name, 1, SEARCH_VERSION) for name in RUNS)
        print(f"whole-deal timing: {min(timed, TIMING):,} of {TIMING:,} deals (both runs' "
              f"deals in a row, first solved by search {SEARCH_VERSION})")


if __name__ == "__main__":
    main()
