"""``mighty-sim par``: the double-dummy par of a run's deals or of one deal typed in."""

from __future__ import annotations

import json
import os
import time
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click

from ..rules.profile import load_profile
from .commands import (
    _compile_notice,
    _format_option,
    _Interrupted,
    _progress,
    executor_options,
    main,
)

_SUFFIXES = {"K": 10**3, "M": 10**6, "G": 10**9}


class PositionCount(click.ParamType):  # type: ignore[type-arg]
    """A count of positions: an integer, or one with a K, M or G suffix (thousands,
    millions, billions).

    >>> PositionCount().convert("500M", None, None), PositionCount().convert("2g", None, None)
    (500000000, 2000000000)
    """

    name = "count"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().upper().replace("_", "").replace(",", "")
        scale = _SUFFIXES.get(text[-1:], 1)
        digits = text[:-1] if scale > 1 else text
        if not digits.isdigit():
            self.fail(f"{value!r}: give a count such as 500M, 2G or 300000", param, ctx)
        return int(digits) * scale


@main.command()
@click.argument("dataset", required=False,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--deals", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Played deals to solve: the first ones of the run.")
@click.option("--from-trick", type=click.IntRange(min=1), default=5, show_default=True,
              help="Solve from the start of this trick, the tricks before it replayed as "
                   "played (first-trick friend mode: trick 2 at the earliest). Each trick "
                   "earlier costs five to seven times the time: a standard deal's median "
                   "is about 3 ms from trick 5, 15 ms from trick 4; a whole deal (trick "
                   "1) takes seconds to minutes, some much longer (--max-positions).")
@click.option("--workers", type=click.IntRange(min=1), default=os.cpu_count() or 1,
              show_default=True, help="Worker processes.")
@click.option("--max-positions", type=PositionCount(), default="0", show_default=True,
              help="With DATASET: leave a deal unanswered once its search passes this "
                   "many positions (e.g. 500M, about a minute), its par null and counted "
                   "apart in the card-play table; 0 for no limit. Whole deals mostly take "
                   "tens of millions, a few billions. The same limit answers the same deals "
                   "on every run.")
@click.option("--cards", is_flag=True,
              help="With DATASET: measure every card from --from-trick on against the "
                   "par (the par before and after it): what the declarer's side and the "
                   "defence gave away a deal, in all and trick by trick, written to "
                   "DATASET/cards.parquet and shown by `analyze`. About ten times a par's "
                   "time (8 ms a standard deal from trick 5).")
@executor_options
@click.option("--hand", "hands", multiple=True,
              help="Instead of DATASET, one deal: give once a seat, the declarer's hand "
                   "after the exchange first, then each seat in turn of play.")
@click.option("--blind", default="", help="With --hand: the cards the declarer set aside "
                                          "(they count for the declarer's side).")
@click.option("--contract", default=None, help='With --hand: e.g. "15S", "20NT".')
@click.option("--friend", default="none", show_default=True,
              help="With --hand: the card called for a friend (e.g. AD), or none.")
@click.option("--lead-request", default=None,
              help="With --hand: the suit the friend is asked to lead first (top NT "
                   "contracts where the profile has the request).")
@click.option("--profile", default="standard", show_default=True,
              help="With --hand: built-in one-deck profile name or .toml file.")
@click.option("--makes-only", is_flag=True,
              help="With --hand: only whether the contract makes (much faster than the par).")
@_format_option("table", "json")
def par(dataset: Path | None, deals: int, from_trick: int, workers: int, max_positions: int,
        cards: bool, executor: str, address: str | None, scheduler_file: str | None,
        hands: tuple[str, ...], blind: str, contract: str | None, friend: str,
        lead_request: str | None, profile: str, makes_only: bool, fmt: str) -> None:
    """Double-dummy par: what the declarer's side takes against best defence with every
    hand seen.

    With DATASET: the par of its deals beside what the players took, written to
    DATASET/par.parquet (one row a deal: par, taken, bid, success, the positions
    searched and the seconds it took; points, or tricks in trick-bid profiles; the
    rows of other starting tricks kept), and the card-play table that `mighty-sim
    analyze` shows from then on. The deals
    solved are kept as they are solved: a run stopped (Ctrl-C) goes on from them when
    the same command is given again, and a later run for more deals solves only the
    deals it lacks. With --hand (five times in standard), --blind and
    --contract instead: one whole deal, whether its contract makes and its par.
    With --cards: the card-by-card yardstick instead (what each card gave away against
    the par), to DATASET/cards.parquet. One-deck profiles only.
    """
    if hands:
        if dataset is not None:
            raise ValueError("give DATASET or --hand, not both")
        apart = [name for name, v in (("--max-positions", max_positions), ("--cards", cards),
                                      ("--executor", executor != "local"),
                                      ("--address", address),
                                      ("--scheduler-file", scheduler_file)) if v]
        if apart:
            raise ValueError(f"{', '.join(apart)}: only with DATASET, not with --hand (one "
                             "deal, solved here; Ctrl-C ends its search)")
        _par_deal(hands, blind, contract, friend, lead_request, profile, makes_only, fmt)
        return
    if dataset is None:
        raise ValueError("give DATASET (a run's folder) or one deal with --hand")
    given = [name for name, v in (("--blind", blind), ("--contract", contract),
                                  ("--lead-request", lead_request),
                                  ("--makes-only", makes_only)) if v]
    if given:
        raise ValueError(f"{', '.join(given)}: only with --hand (one deal), not with DATASET")
    if cards:
        _par_cards(dataset, deals, from_trick, workers, max_positions, executor)
        return
    from ..analysis.par import card_play, check_solvable, pack_parts, par_table, write_par
    from ..analysis.report import print_tables
    from ..dataset.dask_cluster import check_executor, executor_client
    from ..dataset.integrity import open_run
    from ..dataset.runner import run_lock

    check_executor(executor, address, scheduler_file)
    run = open_run(dataset)
    expected = min(deals, run.config.deals * max(1, run.config.ledger))
    check_solvable(run.config.profile, from_trick, "--from-trick")  # before the notice
    _compile_notice("the double-dummy search", "about a minute", "par_nb.par_rows_nb")
    t0 = time.perf_counter()
    with run_lock(dataset):  # one writer a folder: a simulate or another par is refused
        try:
            with executor_client(executor, workers=workers, address=address,
                                 scheduler_file=scheduler_file) as client, \
                    _progress("par", expected) as advance:
                table = par_table(dataset, deals=deals, from_trick=from_trick,
                                  workers=workers, max_positions=max_positions,
                                  client=client, progress=advance)
        except KeyboardInterrupt:
            raise _Interrupted("interrupted; the deals solved so far are kept in the run's "
                               "folder, and the same command goes on from them") from None
        path, written = write_par(dataset, table)  # with the rows of other starting tricks
        pack_parts(dataset, from_trick)
    unsolved = table.column("par").null_count
    left = (f" ({unsolved:,} left unanswered at {max_positions:,} positions)"
            if unsolved else "")
    click.echo(f"{table.num_rows - unsolved:,} deals solved{left} in "
               f"{time.perf_counter() - t0:.1f} s -> {path}")
    import numpy as np

    from ..engine.search import SEARCH_VERSION

    searches = np.asarray(table.column("search"))
    taken = searches[searches != SEARCH_VERSION]
    if len(taken):
        older = sorted(set(taken.tolist()))
        click.echo(f"{len(taken):,} of them taken as an older "
                   f"search solved them (search {', '.join(map(str, older))}; this is "
                   f"{SEARCH_VERSION}): the same pars, that search's positions and seconds")
    import polars as pl

    print_tables({"card_play": card_play(pl.DataFrame(written))})


def _par_cards(dataset: Path, deals: int, from_trick: int, workers: int, max_positions: int,
               executor: str) -> None:
    """`par DATASET --cards`: the card-by-card yardstick of the run's first deals."""
    apart = [name for name, v in (("--max-positions", max_positions),
                                  ("--executor", executor != "local")) if v]
    if apart:
        raise ValueError(f"{', '.join(apart)}: not with --cards (run on this machine)")
    from ..analysis.card_costs import card_costs_run, card_costs_table, write_card_costs
    from ..analysis.par import check_solvable
    from ..analysis.report import print_tables
    from ..dataset.integrity import open_run
    from ..dataset.runner import run_lock

    run = open_run(dataset)
    expected = min(deals, run.config.deals * max(1, run.config.ledger))
    check_solvable(run.config.profile, from_trick, "--from-trick")
    _compile_notice("the double-dummy search", "about a minute", "par_nb.card_costs_nb")
    t0 = time.perf_counter()
    with run_lock(dataset):
        try:
            with _progress("cards", expected) as advance:
                table = card_costs_run(dataset, deals=deals, from_trick=from_trick,
                                       workers=workers, progress=advance)
        except KeyboardInterrupt:
            raise _Interrupted("interrupted; nothing written") from None
        path = write_card_costs(dataset, table)
    click.echo(f"{table.num_rows:,} deals measured card by card in "
               f"{time.perf_counter() - t0:.1f} s -> {path}")
    import polars as pl

    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    print_tables({"card_costs": card_costs_table(frame)})


def _par_deal(hands: tuple[str, ...], blind: str, contract: str | None, friend: str,
              lead_request: str | None, profile: str, makes_only: bool, fmt: str) -> None:
    """`par --hand ...`: one whole deal solved, answers printed as they come."""
    from ..analysis.par_position import make_deal, solve_deal

    if contract is None:
        raise ValueError("--contract: needed with --hand (e.g. 15S)")
    deal = make_deal(load_profile(profile), list(hands), blind, contract, friend, lead_request)
    unit = "tricks" if deal.profile.bid_unit == "tricks" else "points"

    def say(step: str, r: dict[str, object]) -> None:
        if fmt == "json":
            return
        if step == "makes":
            click.echo(f"{contract.upper()}: {'makes' if r['makes'] else 'goes down'} with best "
                       f"play on both sides ({r['positions']:,} positions, "
                       f"{r['seconds']:.2f} s)")
        else:
            click.echo(f"par: the declarer's side takes {r['par']} {unit} "
                       f"({r['positions']:,} positions, {r['seconds']:.2f} s)")

    from rich.console import Console

    console = Console(stderr=True)
    _compile_notice("the double-dummy search", "about half a minute",
                    "dd_nb.dd_target_work_nb")
    try:
        with console.status("solving (whole deals take seconds to minutes; Ctrl-C stops)",
                            spinner="dots") if console.is_terminal else nullcontext():
            out = solve_deal(deal, exact=not makes_only, on_step=say)
    except KeyboardInterrupt:
        raise _Interrupted("interrupted") from None
    if fmt == "json":
        click.echo(json.dumps(out, indent=1))


