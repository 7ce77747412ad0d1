"""The ``mighty-sim`` command line.

Bad input gives a one-line error on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import click

from ..dataset.shards import SHARD_GAMES, balanced_shard_games
from ..rules.cards import format_cards, parse_cards, parse_physical
from ..rules.profile import BUILTIN_PROFILES, TRUMPS, load_profile

_SIGNALLED: list[int] = []
"""The signal that stopped the command, when it was not Ctrl-C (SIGTERM)."""


def _on_sigterm(signum: int, frame: Any) -> None:
    """SIGTERM (``kill``, a batch scheduler at the end of a job's time) ends a command as
    Ctrl-C does: workers ended, what was written kept, and the way on said."""
    _SIGNALLED.append(signum)
    raise KeyboardInterrupt


class _Interrupted(click.ClickException):
    """Ctrl-C (exit code 130) or SIGTERM (143), with what to do next."""

    def __init__(self, message: str) -> None:
        if _SIGNALLED:
            message = message.replace("interrupted", "terminated", 1)
        super().__init__(message)
        type(self).exit_code = 128 + (_SIGNALLED[0] if _SIGNALLED else int(signal.SIGINT))


class _Group(click.Group):
    """A click group whose every failure is one line on stderr: a ValueError or an OSError
    from a command, and click's own usage errors, exit with code 2; Ctrl-C with 130."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ValueError as e:
            click.echo(f"mighty-sim: error: {e}", err=True)
            ctx.exit(2)
        except OSError as e:
            click.echo(f"mighty-sim: error: {_os_error(e)}", err=True)
            ctx.exit(2)
        except _data_errors() as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            click.echo(f"mighty-sim: error: a dataset file could not be read ({first})", err=True)
            ctx.exit(2)
        except KeyboardInterrupt:  # before click, which would print an empty line first
            raise _Interrupted("interrupted") from None

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()
            sys.exit(e.exit_code)
        except click.ClickException as e:
            hint = ""
            if isinstance(e, click.UsageError) and e.ctx is not None:
                hint = f" (see `{e.ctx.command_path} --help`)"
            click.echo(f"mighty-sim: error: {e.format_message()}{hint}", err=True)
            sys.exit(e.exit_code)
        except click.Abort:  # Ctrl-C outside a command that says more
            click.echo("mighty-sim: interrupted", err=True)
            sys.exit(130)
        sys.exit(rv if isinstance(rv, int) else 0)


def _os_error(e: OSError) -> str:
    """One line for a failed read or write: the file and the system's reason.

    >>> _os_error(FileNotFoundError(2, "No such file or directory", "out/x"))
    'out/x: No such file or directory'
    """
    what = e.filename if e.filename is not None else ""
    text = str(e).strip()
    reason = e.strerror or (text.splitlines()[0] if text else type(e).__name__)
    return f"{what}: {reason}" if what else reason


def _data_errors() -> tuple[type[BaseException], ...]:
    """The reading errors of Polars and Arrow, when those are loaded (a damaged file that
    passed the footer check: its pages do not decode)."""
    kinds: list[type[BaseException]] = []
    if "polars" in sys.modules:
        kinds.append(sys.modules["polars"].exceptions.PolarsError)
    if "pyarrow" in sys.modules:
        kinds.append(sys.modules["pyarrow"].ArrowException)
    return tuple(kinds)


PLAYER = ("random, heuristic[@FILE][:AGGR], baseline[:AGGR] (the first heuristic, frozen) "
          "or pimc[@FILE][:worlds=K][:rollouts=R][:noise=P][:from=T][:to=T]"
          "[:on=lead|follow][:side=declarer|defence] "
          "(@FILE: bidding values written by `mighty-sim tune`; from=, to=, on=, side=: "
          "the cards PIMC searches, by trick, place in the trick and side; the "
          "heuristic plays the others)")
"""A player as the options that take one read it (see ``engine.players.parse_player``)."""


def _seed_option(help_text: str) -> Callable[[Any], Any]:
    """``--seed``: a non-negative integer, 0 by default."""
    return click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                        help=help_text)


def executor_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--executor`` (local or dask), ``--address`` and ``--scheduler-file``."""
    for option in reversed([
        click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
                     show_default=True, help="Local worker processes, or a Dask cluster "
                     "(docs/cluster.md)."),
        click.option("--address", default=None, help="Dask scheduler, e.g. tcp://host:8786."),
        click.option("--scheduler-file", default=None, help="Dask scheduler file."),
    ]):
        command = option(command)
    return command


def _format_option(*choices: str) -> Callable[[Any], Any]:
    """``--format``: one of ``choices``, the first by default."""
    return click.option("--format", "fmt", type=click.Choice(list(choices)),
                        default=choices[0], show_default=True, help="Output format.")



@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mighty-sim", prog_name="mighty-sim")
def main() -> None:
    """Simulate and analyse Mighty, the Korean trick-taking card game.

    Rules come from profiles (see `mighty-sim rules list`); a profile file in TOML
    extends a built-in profile with a table's house rules.
    """


def run() -> None:
    """The ``mighty-sim`` command: :func:`main`, then a prompt exit.

    Ending a process that has loaded the Numba kernels takes 0.3 to 1 s (the compiled code
    and Numba's objects are freed one by one), a third of a small command's time. Once the
    command has returned (files closed, workers and clusters shut down in their own
    ``with`` and ``finally`` blocks) and its output is flushed, nothing is left to do, so
    the process exits at once (a failure exits the usual way, releasing the worker pool's
    semaphores and files that Python's exit functions release). Arrow allocates with the C
    library's malloc here, as in the worker processes (see ``runner._workers_use_malloc``),
    unless the user chose an allocator, and malloc keeps a fixed mmap threshold, as the
    workers' does (:mod:`mighty_sim.dataset.heap`), unless the user set one.

    OpenBLAS, loaded with NumPy, starts a thread a processor, which spins for a while
    before it sleeps; no command calls BLAS, so the command and the workers it starts
    (which inherit the variable) load it with one thread, unless the user chose how many.
    Measured on this 2-core machine: a `simulate` of 20,000 deals 0.39 against 0.45 s wall,
    of 400,000 deals with 2 workers 2.38 against 2.44 s.
    """
    from ..dataset.heap import WORKER_MALLOC_ENV, fix_mmap_threshold

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy is imported
    pool = "ARROW_DEFAULT_MEMORY_POOL"
    os.environ.setdefault(pool, WORKER_MALLOC_ENV[pool])
    if "MALLOC_MMAP_THRESHOLD_" not in os.environ:
        fix_mmap_threshold()
    code: int = 0
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        main(prog_name="mighty-sim")
    except SystemExit as e:
        if isinstance(e.code, str):
            print(e.code, file=sys.stderr)
            code = 1
        else:
            code = e.code or 0
    sys.stdout.flush()
    sys.stderr.flush()
    if code:  # a failure exits the usual way, so that every resource is released
        sys.exit(code)
    os._exit(code)


@main.group(cls=_Group)
def rules() -> None:
    """List and show rule profiles."""


@rules.command("list")
def rules_list() -> None:
    """List the built-in rule profiles."""
    for name, p in BUILTIN_PROFILES.items():
        click.echo(f"{name:<12} {p.fingerprint()}  {p.description}")


@rules.command("show")
@click.argument("profile")
@_format_option("toml", "json")
def rules_show(profile: str, fmt: str) -> None:
    """Print the resolved PROFILE (a built-in name or a .toml file) and its fingerprint."""
    p = load_profile(profile)
    if fmt == "json":
        click.echo(json.dumps({"fingerprint": p.fingerprint(), "profile": p.to_dict()}, indent=2))
    else:
        click.echo(f"# fingerprint {p.fingerprint()}")
        click.echo(p.to_toml(), nl=False)


@main.command()
@click.option("--profile", default="standard", show_default=True,
              help="Built-in profile name or .toml file.")
@click.option("--deals", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Random deals to play in the reference engine.")
@_seed_option("Seed of the random deals; the same seed checks the same deals.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to share the deals.")
def verify(profile: str, deals: int, seed: int, workers: int) -> None:
    """Check the fast engine against the reference engine, decision by decision.

    On DEALS random deals: every legal-play set, trick winner, settlement and weak-hand
    score from the rule kernels; every list of legal bids and allowed contract changes
    from the auction kernels; and the same number of whole deals played by the batch
    kernel, every auction action, contract, friend call and card compared in order
    (docs/correctness.md). Exits with code 1 if anything differs.
    """
    from ..verify.parallel import run_differential

    p = load_profile(profile)
    start = time.perf_counter()
    report = run_differential(p, deals=deals, seed=seed, workers=workers, progress=True)
    elapsed = time.perf_counter() - start
    click.echo(
        f"{report.deals:,} deals ({report.played:,} played): {report.decisions:,} decisions, "
        f"{report.tricks:,} tricks, {report.settlements:,} settlements, "
        f"{report.hands:,} hands, {report.choices:,} auction and contract choices, "
        f"{report.attempts:,} whole attempts ({report.attempt_decisions:,} decisions) "
        f"compared; {report.mismatches} mismatches in {elapsed:.1f} s"
    )
    for line in report.examples:
        click.echo(f"  {line}")
    if report.mismatches:
        sys.exit(1)


@main.command()
@click.option("--deals", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Deals to simulate.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=Path("out/demo"), show_default=True, help="Dataset folder (replaced).")
def demo(deals: int, out: Path) -> None:
    """Show the rules at work, then simulate DEALS standard deals and print the figures."""
    from .demo import run_demo

    run_demo(deals=deals, dataset=out)


@main.command()
@click.option("--profile", default="standard", show_default=True,
              help="Built-in profile name or .toml file.")
@click.option("--deals", type=int, required=True,
              help="Deals to play (redeals not counted), 1 to 10,000,000,000; with "
                   "--to-target, games.")
@click.option("--seed", type=int, default=0, show_default=True, help="Run seed.")
@click.option("--workers", type=int, default=os.cpu_count() or 1, show_default=True,
              help="Worker processes, at most this machine's processors (with --executor "
                   "dask and no address: the local cluster's workers).")
@click.option("--out", type=click.Path(path_type=Path), required=True,
              help="Dataset folder.")
@click.option("--players", default="heuristic", show_default=True,
              help=f"One player for every seat or one per seat (p0,p1,p2,...): {PLAYER}.")
@click.option("--aggressiveness", type=click.FloatRange(-10, 10), default=0.0,
              show_default=True,
              help="Points every heuristic or PIMC player adds to its bid ceiling, -10 to "
                   "10 (on top of a player's own :AGGR; the total stays within -10..10).")
@click.option("--ledger", type=int, default=None,
              help="Deals per game, with the dealer rotation of the rules [default: 1; "
                   "with --to-target, the most deals a game may last: 500].")
@click.option("--to-target", is_flag=True,
              help="Play each game until a player's total reaches the profile's "
                   "ledger_target (ucla: 1000); --deals then counts games.")
@click.option("--tricks", is_flag=True, help="Also write every trick to a tricks table.")
@click.option("--resume", is_flag=True,
              help="Complete an interrupted run in --out (same arguments): plays the "
                   "shards that are missing or damaged.")
@click.option("--overwrite", is_flag=True,
              help="Replace a run already in --out (deletes only the run's own files).")
@click.option("--shard-games", type=int, default=None,
              help=f"Games per Parquet file [default: files of at most {SHARD_GAMES:,} "
                   "deals' worth, all of about the same size].")
@executor_options
def simulate(profile: str, deals: int, seed: int, workers: int, out: Path, players: str,
             aggressiveness: float, ledger: int | None, to_target: bool, tricks: bool,
             resume: bool, overwrite: bool,
             shard_games: int | None, executor: str, address: str | None,
             scheduler_file: str | None) -> None:
    """Play DEALS complete deals into a hive-partitioned Parquet dataset in OUT.

    One row per dealt attempt (redeals included) in OUT/deals, every trick in OUT/tricks
    with --tricks, the configuration in OUT/_run.json. The same seed gives the same rows
    whatever the number of workers or the executor. With --executor dask and no address,
    a local Dask cluster of --workers processes is started; OUT must be a folder every
    worker can write.
    """
    p = load_profile(profile)  # before the kernels load: a bad profile is told at once
    from ..dataset.config import RunConfig
    from ..dataset.integrity import RUN_FILE, load_run
    from ..dataset.runner import run_simulation
    from ..engine.players import parse_players

    specs = tuple(replace(s, aggressiveness=s.aggressiveness + aggressiveness).resolved(p)
                  for s in parse_players(players, p.players))
    if ledger is None:
        ledger = 500 if to_target else 1
    config = RunConfig(p, deals, seed, specs, ledger, tricks,
                       SHARD_GAMES if shard_games is None else shard_games, to_target)
    if shard_games is None:
        if resume and (out / RUN_FILE).is_file():  # the run's own layout, whatever default
            shard_games = load_run(out).shard_games  # it was started with
        else:  # files of at most 2**19 deals, all about the same size
            shard_games = balanced_shard_games(config.games, ledger, to_target)
        config = replace(config, shard_games=shard_games)
    from ..engine.aot import kernel_ready

    if not kernel_ready():  # else the bar would stand at 0 for a minute
        click.echo("compiling the kernels for this machine: once, about two minutes "
                   "(`mighty-sim compile` builds them ahead of time)", err=True)
    try:
        with _progress("simulate" if not to_target else "simulate (games)",
                       config.games * config.units_per_game) as advance:
            result = run_simulation(config, out, workers=workers, resume=resume,
                                    overwrite=overwrite, progress=advance, executor=executor,
                                    address=address, scheduler_file=scheduler_file)
    except KeyboardInterrupt:
        hint = ("the same command with --resume completes it" if (out / RUN_FILE).is_file()
                else "nothing was written")
        raise _Interrupted(f"interrupted; {hint}") from None
    s = result.stats
    rate = s.successes / s.played if s.played else 0.0
    click.echo(
        f"{s.played:,} deals played ({s.rows:,} dealt, {s.weak_redeals:,} weak-hand and "
        f"{s.all_pass:,} all-pass redeals), success rate {rate:.1%}, "
        f"{result.seconds:.1f} s"
        + (f", {result.deals_per_second:,.0f} deals/s" if result.deals_per_second else "")
        + f" -> {out}"
        + (f" ({result.shards_skipped} shards already there)" if result.shards_skipped else "")
        + (f" ({result.shards_damaged} damaged shards played again)"
           if result.shards_damaged else "")
    )


@main.command("compile")
@click.option("--force", is_flag=True, help="Build again even if an up-to-date one exists.")
def compile_kernel(force: bool) -> None:
    """Compile the batch kernel ahead of time (`make` does it).

    About 15 s once Numba's cache is warm, a minute or more on a fresh checkout (which
    also fills the cache for the JIT kernel).

    `simulate` then runs the compiled module and does not load Numba, which takes about
    a second a process: a small run finishes in a fraction of a second. Without it (or
    after a kernel source changes, or with MIGHTY_SIM_AOT=0) runs use Numba's cached JIT
    compile and give the same rows.
    """
    from ..engine import aot
    from ..engine.aot import prune_stale_caches

    for stale in prune_stale_caches():
        click.echo(f"removed the compile cache of other kernel sources: {stale}")
    path = aot.module_path()
    if path.is_file() and not force:
        click.echo(f"up to date: {path}")
        return
    t0 = time.perf_counter()
    try:
        path = aot.build()
    except Exception as e:  # a missing C compiler or setuptools, an unwritable cache
        click.echo(f"mighty-sim: error: could not compile the kernel ahead of time ({e}); "
                   "runs use the JIT kernel", err=True)
        sys.exit(1)
    click.echo(f"compiled in {time.perf_counter() - t0:.0f} s: {path}")


@main.command()
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--deal", "deal", type=int, required=True,
              help="deal_id of the row to show: game * 65536 + attempt (attempt 0 is a "
                   "game's first deal, each redeal or later deal of a ledger the next).")
@click.option("--par-from", type=int, default=None,
              help="Also give the double-dummy par at the start of each trick from this "
                   "one on (one-deck profiles; from trick 5 on it takes milliseconds, "
                   "from trick 4 up to seconds): where the points were lost or gained.")
def show(dataset: Path, deal: int, par_from: int | None) -> None:
    """Replay recorded deal DEAL of DATASET trick by trick (re-simulated from its seed).

    Deal ids are the `deal_id` column of the deals table: game 3's first deal is
    3 * 65536 = 196608, its first redeal 196609.
    """
    from ..analysis.replay import describe_deal

    def notice() -> None:
        _compile_notice("the double-dummy search", "about half a minute",
                        "dd_nb.dd_target_work_nb")

    click.echo(describe_deal(dataset, deal, par_from, before_search=notice))


@main.command()
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@_format_option("table", "json", "csv")
def analyze(dataset: Path, fmt: str) -> None:
    """Bid success odds, redeal frequency and score variance of DATASET; with
    `mighty-sim par` run on it, the card play against double-dummy par.

    JSON output is an object whose keys (bid_success, success_by_hand,
    success_by_points, redeal, weak_scores, score_variance; games with --to-target
    runs; card_play after `par`) each hold a list of row objects.
    """
    from ..analysis.tables import analyze_dataset

    tables = analyze_dataset(dataset)
    if fmt == "json":
        click.echo(json.dumps({k: v.to_dicts() for k, v in tables.items()}, indent=1))
    elif fmt == "csv":
        for name, df in tables.items():
            click.echo(f"# {name}")
            click.echo(df.write_csv(), nl=False)
    else:
        from ..analysis.report import print_tables

        print_tables(tables)


@main.command()
@click.argument("dataset", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for report.md and its pictures.")
def report(dataset: Path, out: Path) -> None:
    """Write report.md and report.html with pictures (matplotlib) of DATASET into OUT."""
    from ..analysis.report import write_report

    click.echo(f"wrote {write_report(dataset, out)}")


@main.command()
@click.argument("datasets", nargs=-1, type=click.Path(exists=True, file_okay=False,
                                                       path_type=Path))
@click.option("--profile", "profiles", multiple=True,
              help="A profile to compare, built-in name or .toml file (give two or more); "
                   "the first is the baseline.")
@click.option("--deals", type=click.IntRange(2, 100_000_000), default=100_000,
              show_default=True, help="Deals every profile plays (the same deals).")
@_seed_option("Seed of the deals.")
@click.option("--players", default="heuristic", show_default=True,
              help=f"One player for every seat or one per seat: {PLAYER}.")
@click.option("--fixed-players", is_flag=True,
              help="Only the same players under every rule (those tuned for the first "
                   "profile); by default also players tuned for each profile.")
@_format_option("table", "json", "csv")
def compare(datasets: tuple[Path, ...], profiles: tuple[str, ...], deals: int, seed: int,
            players: str, fixed_players: bool, fmt: str) -> None:
    """Compare house rules on the same deals, or two existing DATASETS.

    With --profile A --profile B [...], every profile plays the same deals (common random
    numbers) and each headline metric's difference to the first profile is given with a
    95% interval of the paired per-game differences: once with the same players under
    every rule ("same": what the rule does), and once with players tuned for each profile
    ("adapted": what it does once players adapt; a profile without tuned values is tuned
    first).
    """
    from ..analysis.compare import compare_datasets, compare_profiles
    from ..engine.players import parse_players

    if datasets and profiles:
        raise ValueError("give either two datasets or --profile options, not both")
    if datasets:
        if len(datasets) != 2:
            raise ValueError("compare takes exactly two datasets")
        df = compare_datasets(*datasets)
    else:
        loaded = [load_profile(p) for p in profiles]
        if len(loaded) < 2:
            raise ValueError("give two or more --profile options, or two datasets")
        df = compare_profiles(loaded, deals=deals, seed=seed,
                              players=parse_players(players, loaded[0].players),
                              adapted=not fixed_players,
                              note=lambda text: click.echo(text, err=True))
    if fmt == "json":
        click.echo(json.dumps(df.to_dicts(), indent=1))
    elif fmt == "csv":
        click.echo(df.write_csv(), nl=False)
    else:
        import polars as pl

        from ..analysis.report import print_tables

        if "players" in df.columns:
            for who, title in (("same", "the same players under every rule"),
                               ("adapted", "players tuned for each rule")):
                part = df.filter(pl.col("players") == who)
                if part.height:
                    print_tables({f"comparison, {title}": part.drop("meaning", "pairing",
                                                                     "players")})
        else:
            print_tables({"comparison": df.drop("meaning", "pairing")})
        click.echo(f"intervals: {df['pairing'][0]}")


DD_SAMPLES = 10
"""``odds --play double-dummy``'s samples a strain unless told: a whole deal takes
seconds to minutes to solve (the option's help; figures in docs/odds.md)."""


@main.command()
@click.option("--hand", required=True,
              help='The hand\'s cards (10 in one-deck profiles), e.g. "AS JK KH QH 10H 9H AD '
                   '5C 3C 2C"; with two decks a card named twice is both its copies.')
@click.option("--blind", default="", help="The blind too, if known (after the exchange).")
@click.option("--profile", default="standard", show_default=True,
              help="Built-in profile name or .toml file (--play double-dummy: one deck).")
@click.option("--samples", type=click.IntRange(1, 10_000_000), default=None,
              help="Random deals of the unseen cards per strain.  [default: 10000; "
                   f"{DD_SAMPLES} with --play double-dummy]")
@_seed_option("Seed of the random deals.")
@click.option("--players", default="heuristic", show_default=True,
              help="Who plays the deals: 'heuristic' or 'random' for every seat, "
                   "'pimc[:worlds=K]' for the hand's owner with a heuristic field "
                   "(about 0.2 ms a card: use fewer samples), or one per seat, the "
                   "hand's owner first.")
@click.option("--play", type=click.Choice(["players", "double-dummy"]), default="players",
              show_default=True,
              help="'double-dummy' adds each contract's success when the cards are "
                   "played double dummy (every hand seen, best play on both sides) after "
                   "the players' exchange and friend call, on the same deals. Slow: a "
                   "deal and strain take seconds to minutes of CPU (median about a second, "
                   "the slowest minutes), solved on every core.")
@_format_option("table", "json")
def odds(hand: str, blind: str, profile: str, samples: int | None, seed: int, players: str,
         play: str, fmt: str) -> None:
    """Success odds and expected payout of every contract for a hand at the auction.

    The unseen cards are dealt at random SAMPLES times and played out with the hand's
    owner declaring each trump and NT; every bid from the minimum to the maximum is
    scored on the same deals. With --play double-dummy, the double-dummy success of
    every contract too (columns dd_*).
    """
    from ..analysis.odds import check_hand_odds, hand_odds
    from ..engine.players import parse_players

    p = load_profile(profile)
    if "," not in players and players.strip().startswith("pimc"):  # PIMC declares, the
        players = ",".join([players] + ["heuristic"] * (p.players - 1))  # field is heuristic
    double_dummy = play == "double-dummy"
    if samples is None:
        samples = DD_SAMPLES if double_dummy else 10_000
    specs = parse_players(players, p.players)
    parse = parse_physical if p.deck_copies == 2 else parse_cards
    cards, blind_cards = parse(hand), parse(blind)
    check_hand_odds(p, cards, blind_cards, samples, specs, double_dummy)  # errors first
    try:
        if not double_dummy:
            _compile_notice("the odds kernels", "about a minute", "odds_nb.odds_strains_nb")
            with _progress("odds", len(TRUMPS) * samples, unit="deals") as advance:
                table = _in_thread(lambda: hand_odds(p, cards, samples=samples, seed=seed,
                                                     blind=blind_cards, players=specs,
                                                     progress=advance))
        else:
            _compile_notice("the odds and double-dummy kernels", "about two minutes",
                            "odds_nb.odds_strains_nb", "par_nb.par_rows_nb")
            with _progress("odds, double dummy", len(TRUMPS) * samples, unit="deals"
                           ) as advance:
                table = hand_odds(p, cards, samples=samples, seed=seed, blind=blind_cards,
                                  players=specs, double_dummy=True, progress=advance)
    except KeyboardInterrupt:
        # a compiled call cannot be stopped mid-deal: leave at once, nothing was written
        click.echo(f"mighty-sim: error: {_Interrupted('interrupted').format_message()}",
                   err=True)
        sys.stderr.flush()
        os._exit(_Interrupted.exit_code)
    best = max(table, key=lambda r: r["expected_score"])  # type: ignore[arg-type, return-value]
    # penalty scoring pays a made contract 0 to the declarer (the defenders pay): no
    # contract gains, and passing is no zero either (a defence pays), so no advice
    advice: str | None = None
    if p.scoring != "penalty":
        advice = "bid" if float(best["expected_score"]) > 0 else "pass"  # type: ignore[arg-type]
    if fmt == "json":
        click.echo(json.dumps({"hand": format_cards(cards), "samples": samples,
                               "profile": p.name, "fingerprint": p.fingerprint(),
                               "contracts": table, "best": best, "advice": advice},
                              indent=1))
        return
    import polars as pl

    from ..analysis.report import print_tables

    df = pl.DataFrame(table)
    df = df.filter((pl.col("p_success") > 0) | (pl.col("dd_p_success") > 0) if double_dummy
                   else pl.col("p_success") > 0)
    print_tables({f"odds for {format_cards(cards)} ({samples:,} deals a strain)":
                  df})
    verdict = (f"{best['bid']} {best['trump']} (success {best['p_success']:.1%}, expected "
               f"{best['expected_score']:+.2f})")
    if advice is None:
        click.echo(f"best contract by expected payout: {verdict}; penalty scoring: a made "
                   "contract costs the declarer nothing and the defenders pay, so no "
                   "contract gains and passing is no zero (no advice)")
    elif advice == "pass":
        click.echo(f"pass: every contract loses on average (the least bad is {verdict})")
    else:
        click.echo(f"best contract by expected payout: {verdict}")


@main.command()
@click.option("--players", "players", multiple=True, required=True,
              help=f"Give twice: A then B, each {PLAYER}.")
@click.option("--deals", type=click.IntRange(1, 10_000_000), default=10_000,
              show_default=True, help="Deals; each is played once per seat by A and by B.")
@_seed_option("Seed of the deals.")
@click.option("--field", default="heuristic", show_default=True,
              help="The player in the other seats.")
@click.option("--profile", default="standard", show_default=True,
              help="Built-in profile name or .toml file.")
@_format_option("table", "json")
def duel(players: tuple[str, ...], deals: int, seed: int, field: str, profile: str,
         fmt: str) -> None:
    """Duplicate match: A and B each take every seat on the same deals against the same
    field; the mean payout difference per deal with a 95% interval."""
    from ..analysis.duel import duel as run_duel

    if len(players) != 2:
        raise ValueError("duel takes exactly two --players (A and B)")
    prof = load_profile(profile)
    with _progress("duel", 2 * prof.players * deals) as advance:
        result = run_duel(prof, players[0], players[1], deals=deals, seed=seed, field=field,
                          progress=advance)
    if fmt == "json":
        click.echo(json.dumps(result, indent=1))
    else:
        click.echo(f"{players[0]} - {players[1]}: {result['mean_difference']:+.3f} units a deal "
                   f"(95% CI {result['ci_low']:+.3f} to {result['ci_high']:+.3f}), "
                   f"{deals:,} deals x {load_profile(profile).players} seats, field {field}")
        d = result["declarer"]
        assert isinstance(d, dict)
        click.echo(f"as declarer: {d['mean_difference']:+.3f} units a contract (95% CI "
                   f"{d['ci_low']:+.3f} to {d['ci_high']:+.3f}), {d['n']:,} contracts")


@main.command()
@click.option("--profile", default="standard", show_default=True,
              help="Built-in profile name or .toml file to tune the heuristic for.")
@click.option("--deals", type=click.IntRange(100, 10_000_000), default=10_000,
              show_default=True, help="Deals of each duplicate duel (one seat deviating).")
@_seed_option("Seed of the first round's deals (each round plays fresh ones).")
@click.option("--rounds", type=click.IntRange(1, 100), default=12, show_default=True,
              help="Most rounds; tuning stops earlier at a fixed point.")
@click.option("--start", "start_file", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Start from this tuned file [default: the profile's "
                                 "current values].")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Tuned file to write [default: tuned-<profile>.toml].")
def tune(profile: str, deals: int, seed: int, rounds: int, start_file: Path | None,
         out: Path | None) -> None:
    """Tune the heuristic's bidding values for a profile by best response.

    The field plays the current values; one seat deviates by one step of one value and
    the step is adopted by all when it pays (duplicate duel, lower end of the 95% interval
    above zero, and again on fresh deals). Rounds repeat until no single step pays. The
    file written is used with
    --players heuristic@FILE by simulate, odds, duel and compare.
    """
    from ..analysis.tune import tune as run_tune
    from ..engine.heuristic import read_tuned
    from ..files import write_atomic

    p = load_profile(profile)
    start = read_tuned(start_file)[0] if start_file else None
    target = out or Path(f"tuned-{p.name}.toml")
    if target.exists() and not target.is_file():
        raise ValueError(f"--out {target} is not a file")
    t0 = time.perf_counter()

    def show(step: Any) -> None:
        again = ("" if math.isnan(step.confirm_low) else  # not asked
                 f", on fresh deals lower end {step.confirm_low:+.3f}")
        click.echo(f"round {step.round}: {step.parameter} {step.old:g} -> {step.new:g}: "
                   f"gain {step.gain:+.3f} a deal (95% CI {step.ci_low:+.3f} to "
                   f"{step.ci_high:+.3f}{again}) {'adopted' if step.adopted else 'kept'}")

    result = run_tune(p, deals=deals, seed=seed, rounds=rounds, start=start, report=show)
    seconds = time.perf_counter() - t0
    verdict = (f"a fixed point after {result.rounds} rounds" if result.converged else
               f"no fixed point within {result.rounds} rounds")
    command = (f"mighty-sim tune --profile {profile} --deals {deals} --seed {seed} "
               f"--rounds {rounds}" + (f" --start {start_file}" if start_file else ""))
    text = result.params.to_toml(profile=p, comments=[
        f"The heuristic's bidding values for {p.name}, {verdict} ({seconds:.0f} s).",
        f"Written by: {command}",
        f"Started from: {', '.join(f'{k} {v:g}' for k, v in result.start.to_dict().items())}",
    ])
    write_atomic(target, text)
    click.echo(f"{verdict} in {seconds:.0f} s: "
               + ", ".join(f"{k} {v:g}" for k, v in result.params.to_dict().items())
               + f" -> {target}")


T = TypeVar("T")


def _in_thread(work: Callable[[], T]) -> T:
    """``work()`` in a thread while this one waits, so that Ctrl-C is seen at once even
    during a long compiled call (which holds off Python's signal handling in its own
    thread); the caller leaves the process then."""
    import threading

    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as e:  # noqa: BLE001 - handed to the waiting thread
            box["error"] = e

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.1)
    if "error" in box:
        raise box["error"]
    result: T = box["value"]
    return result


LOG_EVERY = 60.0
"""Seconds between two progress lines when standard error is not a terminal."""


def _clock(seconds: float) -> str:
    """``seconds`` as h:mm:ss.

    >>> _clock(3725.2), _clock(59)
    ('1:02:05', '0:00:59')
    """
    m, sec = divmod(int(seconds), 60)
    return f"{m // 60}:{m % 60:02d}:{sec:02d}"


def _compile_notice(what: str, about: str, *kernels: str) -> None:
    """Say on standard error that ``what`` compiles first when Numba's cache lacks one of
    ``kernels`` (:func:`~mighty_sim.engine.aot.is_cached`): otherwise the command would
    stand still for ``about`` without a word."""
    from ..engine.aot import is_cached

    if not is_cached(*kernels):
        click.echo(f"compiling {what} for this machine: once, {about}", err=True)


@contextmanager
def _progress(label: str, total: int, unit: str = "deals") -> Iterator[Callable[..., None]]:
    """A progress bar on standard error, ``advance(n)`` counting ``n`` more done
    (``advance(n, kept=True)``: done before this run, by a run it takes up). When
    standard error is not a terminal (a run in the background, its output to a file),
    a plain line instead every :data:`LOG_EVERY` seconds, and one when all is done if
    any came before: what is done, the time taken, the time left. The rate and the time
    left are this run's pace from its first advance on: neither what an earlier run did
    nor the start-up before the first work is done (loading or compiling the kernels)
    is in it."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(stderr=True)
    bar = Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("{task.fields[left]}"),
        console=console, transient=True, disable=not console.is_terminal,
    )
    start = time.perf_counter()
    logged, said = start, False  # a line written: a last one comes when all is done
    first: tuple[float, int] | None = None  # time and count at this run's first advance
    with bar:
        task = bar.add_task(label, total=total, rate="", left="")

        def advance(n: int, kept: bool = False) -> None:
            nonlocal logged, said, first
            bar.advance(task, n)
            done = int(bar.tasks[0].completed)
            now = time.perf_counter()
            elapsed = now - start
            if first is None and not kept:
                first = (now, done)
            rate = 0.0
            if first is not None and done > first[1] and now > first[0]:
                rate = (done - first[1]) / (now - first[0])
            left = f"about {_clock((total - done) / rate)} left" if rate and done < total else ""
            bar.update(task, left=left, rate=(f"{rate:,.0f} {unit}/s" if rate >= 10
                                              else f"{1 / rate:,.1f} s a {unit[:-1]}" if rate
                                              else ""))
            if not bar.disable:
                return
            if now - logged >= LOG_EVERY or (said and done >= total):
                logged, said = now, True
                click.echo(f"{label}: {done:,}/{total:,} {unit}, {_clock(elapsed)}"
                           + (f", {left}" if left else ""), err=True)

        yield advance


if __name__ == "__main__":  # pragma: no cover
    main()
