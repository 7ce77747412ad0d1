"""Running the differential check over many deals, in chunks, on several processes.

Each chunk is :func:`check_chunk` on a contiguous range of deal indices, so the result
does not depend on the number of workers, nor on how they start
(:func:`mighty_sim.workers.start_method`).
"""

from __future__ import annotations

from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from ..rules.profile import RuleProfile
from ..workers import polled_pool
from .differential import DiffReport, check_deals
from .parity import compare_auction_choices, compare_games

CHUNK = 5_000


def check_chunk(profile: RuleProfile, *, seed: int, start: int, count: int) -> DiffReport:
    """Deals ``start .. start+count-1``: the rule kernels decision by decision
    (:func:`.differential.check_deals`), the kernels' auction and contract choices
    (:func:`.parity.compare_auction_choices`), and the same numbers of whole games played
    by the batch kernel and the reference engine (:func:`.parity.compare_games`)."""
    report = check_deals(profile, seed=seed, start=start, count=count)
    report.merge(compare_auction_choices(profile, seed=seed, start=start, count=count))
    return report.merge(compare_games(profile, seed=seed, start=start, count=count, ledger=1))


def _check(profile: RuleProfile, seed: int, start: int, count: int
           ) -> tuple[int, DiffReport]:
    """:func:`check_chunk` in a worker, with the deals it checked."""
    return count, check_chunk(profile, seed=seed, start=start, count=count)


def _chunks(deals: int, chunk: int) -> list[tuple[int, int]]:
    return [(s, min(chunk, deals - s)) for s in range(0, deals, chunk)]


def run_differential(
    profile: RuleProfile, *, deals: int, seed: int, workers: int = 1, progress: bool = False,
    chunk: int = CHUNK,
) -> DiffReport:
    """Differential check of ``deals`` random deals; the merged report.

    >>> from mighty_sim.rules.profile import load_profile
    >>> run_differential(load_profile("standard"), deals=10, seed=3).mismatches
    0
    """
    total = DiffReport()
    parts = _chunks(deals, chunk)
    bar = Progress(
        TextColumn("verify"),
        BarColumn(),
        TextColumn("{task.completed:,}/{task.total:,} deals"),
        TimeRemainingColumn(),
        disable=not progress,
        transient=True,
    )
    with bar:
        task = bar.add_task("verify", total=deals)
        if workers <= 1:
            for start, count in parts:
                total.merge(check_chunk(profile, seed=seed, start=start, count=count))
                bar.advance(task, count)
            return total
        with polled_pool(workers) as run:
            def merge(part: tuple[int, DiffReport]) -> None:
                total.merge(part[1])
                bar.advance(task, part[0])

            run(_check, [(profile, seed, s, c) for s, c in parts], on_result=merge)
    return total
