"""Bookkeeping of long ``mighty-sim par`` runs for the benchmarks: which deals a run has
solved so far, as the whole-deal timing (``bench_dd.py --par-run``), the solve times
(``bench_par_times.py``) and the card-play runs (``whole_deals.py``) read them. A run
keeps its solved chunks in its folder (:func:`mighty_sim.analysis.par.kept_chunks`); these
read them as deals."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mighty_sim.analysis.par import kept_chunks


def kept_solves(dataset: Path, from_trick: int, search: int | None = None
                ) -> dict[str, np.ndarray]:
    """Every deal solved from ``from_trick`` and kept in the run's folder (the chunks a
    running or stopped ``par`` has kept, in or out of order), as columns: ``par`` (-1
    for a deal left unanswered), ``positions``, ``seconds``, ``search``...; with
    ``search``, the deals that search version was the first to solve
    (:func:`kept_chunks`)."""
    kept = kept_chunks(dataset, from_trick, search)
    if not kept:
        return {}
    names = list(next(iter(kept.values())).cols)
    return {name: np.concatenate([k.cols[name] for k in kept.values()]) for name in names}


def solved_in_a_row(dataset: Path, from_trick: int, search: int | None = None) -> int:
    """The played deals from the run's first on that the chunks kept for ``from_trick``
    hold with no gap: ``par --deals`` that many writes their table without a search.
    A run solving on several workers keeps chunks a little out of order; the chunks
    past the first gap are kept too, and counted once the gap is solved. With
    ``search``, the deals in a row that search version was the first to solve
    (:func:`kept_chunks`), from the first of them on."""
    kept = kept_chunks(dataset, from_trick, search)
    return in_a_row({start: (k.games, len(k.cols["deal_id"])) for start, k in kept.items()},
                    min(kept, default=0) if search is not None else 0)


def in_a_row(chunks: dict[int, tuple[int, int]], first: int = 0) -> int:
    """The deals of ``chunks`` (first game: (games, deals)) from game ``first`` on, up to
    the first gap.

    >>> in_a_row({0: (2, 2), 2: (2, 1), 6: (1, 1)})
    3
    >>> in_a_row({0: (2, 2), 2: (2, 1), 6: (1, 1)}, 6)
    1
    """
    start, deals = first, 0
    while start in chunks:
        deals += chunks[start][1]
        start += chunks[start][0]
    return deals


