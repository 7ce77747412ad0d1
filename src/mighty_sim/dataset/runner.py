"""Running a simulation into a Parquet dataset: shards, workers, resume, progress.

A run is ``games = ceil(deals / ledger)`` games cut into shards of ``shard_games``
consecutive games. Each shard is one Parquet file per table, written under a temporary
name (leading dot) and renamed when complete, so a folder never holds a half-written
shard; ``--resume`` replays only the shards whose file is missing or damaged. Rows
depend only on the seed and the game numbers, never on the worker count. The shards are
written by :mod:`.local` (worker processes) or :mod:`.dask_cluster`, both through
:func:`.writer.write_shard`.

Layout::

    OUT/_run.json                                 configuration and summary
    OUT/deals/shard=00000/part-0.parquet          hive-partitioned by shard
    OUT/tricks/shard=00000/part-0.parquet         with --tricks
"""

from __future__ import annotations

import json
import os
import re
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.batch import play_batch
from ..files import write_atomic
from .config import RunConfig, config_differences, versions
from .dask_cluster import check_executor, executor_client
from .integrity import (
    PAR_FILE,
    RUN_FILE,
    TABLES,
    inspect_run,
    read_run_file,
    remove_par_parts,
)
from .local import run_shards_local
from .writer import ShardStats, shard_stats_from_file


@dataclass
class RunResult:
    """What a run did, for the summary line."""

    stats: ShardStats
    seconds: float
    shards_written: int
    shards_skipped: int
    config: RunConfig = field(repr=False)
    shards_damaged: int = 0
    """Shards found damaged and played again (``resume``)."""

    @property
    def deals_per_second(self) -> float:
        """Played deals per second of wall time."""
        return self.stats.played / self.seconds if self.seconds > 0 else float("inf")


def _write_json(path: Path, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(data, indent=2) + "\n")


_OURS = re.compile(r"shard=\d{5}/(part-0\.parquet|\.part-0\.parquet\.[0-9a-f]{12}\.tmp)")


def _run_files(out: Path) -> list[Path]:
    """The shard files of the run in ``out`` (what ``--overwrite`` deletes, with the run
    file); ValueError naming the first file in ``deals/`` or ``tricks/`` that this
    package does not write."""
    ours: list[Path] = []
    for table in TABLES:
        for path in sorted((out / table).rglob("*")):
            if path.is_dir() and not path.is_symlink():
                continue
            if not _OURS.fullmatch(path.relative_to(out / table).as_posix()):
                raise ValueError(f"{path} was not written by mighty-sim, and --overwrite "
                                 "deletes only a run's own files: move it, or choose "
                                 "another folder")
            ours.append(path)
    return ours


def _remove_run(out: Path) -> None:
    """Delete the run in ``out``: its run file, shard files, par table and the chunks of
    a stopped par run, then the folders they leave empty; nothing else."""
    for path in _run_files(out):
        path.unlink()
    (out / PAR_FILE).unlink(missing_ok=True)
    remove_par_parts(out)
    for table in TABLES:
        for folder in sorted((out / table).glob("shard=*")):
            with suppress(OSError):
                folder.rmdir()
        with suppress(OSError):
            (out / table).rmdir()
    (out / RUN_FILE).unlink()


def check_output(out: Path, config: RunConfig, *, resume: bool, overwrite: bool) -> bool:
    """Whether ``out`` already holds a run; ValueError with the reason when it may not be
    used with these options. Changes nothing.

    ``--overwrite`` replaces only a run (and deletes only what a run writes); a folder
    that holds other files and no run is refused whatever the options."""
    if resume and overwrite:
        raise ValueError("--resume and --overwrite exclude each other")
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} exists and is not a folder")
    existing = read_run_file(out) if out.is_dir() else None
    if existing is None:
        if resume:
            raise ValueError(f"{out} holds no run to resume; leave out --resume to start one")
        if out.exists() and any(out.iterdir()):
            raise ValueError(f"{out} is not empty and holds no run; choose a new or empty "
                             "folder")
        return False
    differences = config_differences(existing["config"], config.to_dict())
    if resume and differences:
        raise ValueError(f"{out} holds a different run: {'; '.join(differences)}; "
                         "--resume needs the arguments the run was started with")
    if not resume and not overwrite:
        hint = ("--resume completes it, --overwrite replaces it" if not differences
                else "--overwrite replaces it")
        raise ValueError(f"{out} already holds a run ({hint})")
    if overwrite:
        _run_files(out)
    return True


def prepare_output(out: Path, config: RunConfig, *, resume: bool, overwrite: bool) -> None:
    """:func:`check_output`, then make the folder ready: the old run removed with
    ``overwrite``, a new run file unless resuming."""
    existing = check_output(out, config, resume=resume, overwrite=overwrite)
    if existing and overwrite:
        _remove_run(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-probe"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise ValueError(f"cannot write to {out}: {e.strerror}") from None
    if not resume:
        _write_json(out / RUN_FILE, {"status": "running", "config": config.to_dict(),
                                     "versions": versions()})


def _check_players_bid(config: RunConfig) -> None:
    """Play the first few deals before anything is written: players who never bid (a
    very low aggressiveness) are told at once, and the kernels are loaded (or compiled
    into the cache, once) before any worker starts."""
    play_batch(config.profile, seed=config.seed, game_start=0, games=min(config.games, 8),
               players=config.players)


def run_simulation(
    config: RunConfig, out: Path, *, workers: int = 1, resume: bool = False,
    overwrite: bool = False, progress: Any = None, executor: str = "local",
    address: str | None = None, scheduler_file: str | None = None,
) -> RunResult:
    """Play the run into ``out``; ``progress(deals_done)`` is called as work finishes
    (``progress(deals, kept=True)`` first, on resuming, for the shards already written).

    ``executor`` is ``local`` (worker processes on this machine) or ``dask`` (a Dask
    cluster at ``address`` or described by ``scheduler_file``; a local one by default).
    With ``resume``, the shards that are missing or damaged are played again.
    """
    cpus = os.cpu_count() or 1
    if not 1 <= workers <= max(cpus, 2) and not (address or scheduler_file):
        raise ValueError(f"workers: must be 1 to {max(cpus, 2)} (this machine's processors), "
                         f"got {workers}")
    check_executor(executor, address, scheduler_file)
    check_output(out, config, resume=resume, overwrite=overwrite)  # before the kernels load
    # the cluster is reached before anything is written
    with executor_client(executor, workers=workers, address=address,
                         scheduler_file=scheduler_file) as client:
        return _run(config, out, workers=workers, resume=resume, overwrite=overwrite,
                    progress=progress, client=client)


def _run(config: RunConfig, out: Path, *, workers: int, resume: bool, overwrite: bool,
         progress: Any, client: Any) -> RunResult:
    """:func:`run_simulation` once its arguments are checked (``client``: a Dask client,
    or None to run locally)."""
    _check_players_bid(config)
    prepare_output(out, config, resume=resume, overwrite=overwrite)
    for stale in out.glob("*/shard=*/.*.tmp"):  # left by a run that was killed
        stale.unlink()
    state = inspect_run(out)
    todo = sorted(set(state.missing) | set(state.damaged_shards))
    todo_set = set(todo)
    skipped = config.shards - len(todo)
    total = ShardStats()
    for s in range(config.shards):
        if s not in todo_set:
            total.add(shard_stats_from_file(out, s))
    begin = time.perf_counter()
    cdict = config.to_dict()
    if progress is not None and skipped:
        progress(sum(config.shard_range(s)[1] for s in range(config.shards)
                     if s not in todo_set) * config.units_per_game, kept=True)
    if client is not None:
        from .dask_cluster import run_shards_dask

        for stats in run_shards_dask(client, cdict, out, todo, progress=progress):
            total.add(stats)
    else:
        total.add(run_shards_local(cdict, out, todo, workers, progress))
    seconds = time.perf_counter() - begin
    result = RunResult(total, seconds, len(todo), skipped, config,
                       len(state.damaged_shards))
    _write_json(out / RUN_FILE, {
        "status": "complete",
        "config": cdict,
        "versions": versions(),
        "summary": {**total.__dict__, "seconds": round(seconds, 3)},
    })
    return result
