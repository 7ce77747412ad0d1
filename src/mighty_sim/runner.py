"""Running a simulation into a Parquet dataset: shards, workers, resume, progress.

A run is ``games = ceil(deals / ledger)`` games cut into shards of ``shard_games``
consecutive games. Each shard is one Parquet file per table, written under a temporary
name (leading dot) and renamed when complete, so a folder never holds a half-written
shard; ``--resume`` replays only the shards whose file is missing. Rows depend only on
the seed and the game numbers, never on the worker count.

Layout::

    OUT/_run.json                                 configuration and summary
    OUT/deals/shard=00000/part-0.parquet          hive-partitioned by shard
    OUT/tricks/shard=00000/part-0.parquet         with --tricks
"""

from __future__ import annotations

import atexit
import json
import math
import multiprocessing
import os
import platform
import re
import signal
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .counts import Counts
from .dataset import SCHEMA_VERSION, deals_table, tricks_table
from .engine import Batch, PlayerSpec, check_supported, play_batch
from .heap import WORKER_MALLOC_ENV, release_free_memory
from .integrity import RUN_FILE, TABLES, inspect_run, read_run_file, shard_path
from .kernels.layout import (
    OUTCOME_ALL_PASS,
    OUTCOME_PLAYED,
    OUTCOME_WEAK,
    R_OUTCOME,
    R_SUCCESS,
)
from .profile import RuleProfile, load_profile
from .shards import SHARD_GAMES, deals_per_game

MAX_DEALS = 10_000_000_000
"""The most deals (or games played to a target) one run may hold."""
MAX_LEDGER = 10_000
"""The most deals a game may hold: its deals and redeals are numbered below 2**16."""
BATCH_GAMES = 8_192
"""Deals' worth of games per kernel call. The call's arrays and their conversion to
Arrow were the bulk of a worker's memory: a shard of 500,000 games in one process peaked
at 388-396 MiB with 65,536 (218 MiB of it the loaded modules), at 287-289 MiB with 8,192
and row groups of ``GROUP_ROWS``, for the same time a shard."""
GROUP_ROWS = 1 << 17
"""Rows of a Parquet row group, at least (all but a file's last): batches' tables are
kept until they hold this many, so files do not get a small row group per kernel call.
The tables kept cost memory: 1 << 16 measured a peak of 254-257 MiB, 1 << 17 287-289."""


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's rows."""

    profile: RuleProfile
    deals: int
    seed: int
    players: tuple[PlayerSpec, ...]
    ledger: int = 1
    tricks: bool = False
    shard_games: int = SHARD_GAMES
    to_target: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.deals <= MAX_DEALS:
            raise ValueError(f"deals: must be 1 to {MAX_DEALS:,} in one run, got {self.deals:,}"
                             "; split a larger study into runs with different seeds")
        if not 0 <= self.seed < 1 << 63:
            raise ValueError(f"seed: must be 0 to 2**63-1, got {self.seed}")
        if not 1 <= self.ledger <= MAX_LEDGER:
            raise ValueError(f"ledger: must be 1 to {MAX_LEDGER:,} deals a game, got "
                             f"{self.ledger:,}")
        if self.shard_games < 1:
            raise ValueError("shard_games: must be at least 1")
        check_supported(self.profile, self.players)
        if len(self.players) != self.profile.players:
            raise ValueError(f"players: {self.profile.name} needs {self.profile.players}")
        if self.to_target and self.profile.ledger_target <= 0:
            raise ValueError(f"to_target: profile {self.profile.name} has no ledger_target")

    @property
    def games(self) -> int:
        """Games played: ``deals`` rounded up to whole ledgers; with ``to_target`` (games
        played until a player reaches the profile's ledger_target), ``deals`` games."""
        return self.deals if self.to_target else math.ceil(self.deals / self.ledger)

    @property
    def units_per_game(self) -> int:
        """Progress units of a game: its deals, or 1 when games run to a target."""
        return 1 if self.to_target else self.ledger

    @property
    def batch_games(self) -> int:
        """Games per kernel call: about ``BATCH_GAMES`` deals' worth."""
        return max(1, BATCH_GAMES // deals_per_game(self.ledger, self.to_target))

    @property
    def shards(self) -> int:
        """Number of shards."""
        return math.ceil(self.games / self.shard_games)

    def shard_range(self, shard: int) -> tuple[int, int]:
        """First game and number of games of a shard."""
        start = shard * self.shard_games
        return start, min(self.shard_games, self.games - start)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as recorded in ``_run.json`` and Parquet metadata."""
        return {
            "schema_version": SCHEMA_VERSION,
            "profile": self.profile.to_dict(),
            "fingerprint": self.profile.fingerprint(),
            "deals": self.deals,
            "games": self.games,
            "seed": self.seed,
            "players": [p.to_dict() for p in self.players],
            "ledger": self.ledger,
            "tricks": self.tricks,
            "shard_games": self.shard_games,
            "to_target": self.to_target,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunConfig:
        """Inverse of :meth:`to_dict`."""
        profile = load_profile("standard").replace(**data["profile"])
        return cls(
            profile=profile,
            deals=data["deals"],
            seed=data["seed"],
            players=tuple(PlayerSpec(**p) for p in data["players"]),
            ledger=data["ledger"],
            tricks=data["tricks"],
            shard_games=data["shard_games"],
            to_target=data.get("to_target", False),
        )


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """Versions of the packages that made a dataset (looked up once per process)."""
    out = {"python": platform.python_version()}
    for name in ("mighty-sim", "numba", "numpy", "pyarrow", "polars"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover
            out[name] = "unknown"
    return out


def _metadata(config: RunConfig) -> dict[bytes, bytes]:
    c = config.to_dict()
    return {
        b"mighty_sim.config": json.dumps(c).encode(),
        b"mighty_sim.profile": json.dumps(c["profile"]).encode(),
        b"mighty_sim.fingerprint": c["fingerprint"].encode(),
        b"mighty_sim.seed": str(config.seed).encode(),
        b"mighty_sim.players": json.dumps(c["players"]).encode(),
        b"mighty_sim.versions": json.dumps(versions()).encode(),
        b"mighty_sim.schema_version": str(SCHEMA_VERSION).encode(),
    }


@dataclass
class ShardStats(Counts):
    """Counts of one shard (or a whole run, merged)."""

    games: int = 0
    rows: int = 0
    played: int = 0
    successes: int = 0
    weak_redeals: int = 0
    all_pass: int = 0


def parquet_writer(where: Any, schema: pa.Schema) -> pq.ParquetWriter:
    """The writer of every shard: zstd level 1, dictionaries on string columns only (on
    every column they made files about a tenth smaller and writing a tenth to a quarter
    slower), min/max statistics on the columns that are not lists (readers skip row
    groups by them; on the list columns they cost a quarter of the encoding time and no
    reader filters on them). Each ``write_table`` call writes one row group of up to
    1,048,576 rows (pyarrow's default). ``where`` is a path or a writable file object."""
    return pq.ParquetWriter(
        where, schema, compression="zstd", compression_level=1,
        use_dictionary=[f.name for f in schema if pa.types.is_string(f.type)
                        or pa.types.is_list(f.type) and pa.types.is_string(f.type.value_type)],
        write_statistics=[f.name for f in schema if not pa.types.is_list(f.type)],
    )


_PROGRESS: Any = None  # a worker process's progress queue (see _init_worker)


def _init_worker(queue: Any) -> None:
    """Worker process initializer: keep the queue that progress goes back through; leave
    Ctrl-C to the parent, which ends the workers itself."""
    global _PROGRESS
    _PROGRESS = queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # a worker's results and progress are sent before it is told to stop, and it prints
    # nothing: skip the interpreter's shutdown, which with the compiled kernels loaded
    # takes 0.3-0.6 s that the run would wait for
    atexit.register(os._exit, 0)


def _write_shard_in_worker(config_dict: dict[str, Any], out: str, shard: int) -> ShardStats:
    """``write_shard`` in a worker process, reporting progress to the run."""
    return write_shard(config_dict, out, shard, _PROGRESS)


@contextmanager
def _workers_use_malloc() -> Iterator[None]:
    """Worker processes started inside allocate Arrow memory with the C library's malloc
    instead of Arrow's bundled allocator (mimalloc): a shard's peak memory measured about
    40 MiB lower (390 against 427 MiB, three shards of 500,000 games in one process), for
    the same writing time. Arrow reads ``ARROW_DEFAULT_MEMORY_POOL`` once, when a process
    first allocates, so it is set for the children only; a value the user set is kept.

    ``MALLOC_MMAP_THRESHOLD_`` keeps glibc from moving its mmap threshold (see
    :mod:`mighty_sim.heap`); other C libraries ignore it."""
    ours = [key for key in WORKER_MALLOC_ENV if key not in os.environ]
    for key in ours:
        os.environ[key] = WORKER_MALLOC_ENV[key]
    try:
        yield
    finally:
        for key in ours:
            os.environ.pop(key, None)


def write_shard(config_dict: dict[str, Any], out: str, shard: int, queue: Any = None) -> ShardStats:
    """Play one shard and write its files atomically; returns its counts.

    ``queue``, if given, receives the progress units (deals, or games played to a
    target) finished after each batch. A failed write (a full disk, a folder that cannot
    be written) raises ValueError naming the file, and leaves no temporary file behind.
    """
    config = RunConfig.from_dict(config_dict)
    root = Path(out)
    start, games = config.shard_range(shard)
    tables = ["deals"] + (["tricks"] if config.tricks else [])
    writers: dict[str, pq.ParquetWriter] = {}
    pending: dict[str, list[pa.Table]] = {}  # tables not yet written, by table name
    temps: dict[str, Path] = {}
    stats = ShardStats()
    meta = _metadata(config)
    try:
        for done in range(0, games, config.batch_games):
            n = min(config.batch_games, games - done)
            batch = play_batch(config.profile, seed=config.seed, game_start=start + done,
                               games=n, players=config.players, ledger=config.ledger,
                               record_tricks=config.tricks, to_target=config.to_target)
            parts = {"deals": deals_table(batch, config.profile.players)}
            if config.tricks:
                parts["tricks"] = tricks_table(batch, config.profile.players)
            last = done + n >= games
            for name in tables:
                table = parts[name]
                if name not in writers:
                    final = shard_path(root, name, shard)
                    final.parent.mkdir(parents=True, exist_ok=True)
                    # unique per attempt, so a retried or duplicated task never shares it
                    temps[name] = final.parent / f".{final.name}.{uuid.uuid4().hex[:12]}.tmp"
                    writers[name] = parquet_writer(temps[name], table.schema.with_metadata(meta))
                    pending[name] = []
                pending[name].append(table)
                if last or sum(len(t) for t in pending[name]) >= GROUP_ROWS:
                    group = pa.concat_tables(pending[name]).replace_schema_metadata(meta)
                    writers[name].write_table(group)
                    pending[name] = []
                    del group
                    release_free_memory()
            stats.add(batch_stats(batch))
            if queue is not None:
                queue.put(n * config.units_per_game)
        for name in tables:
            writers.pop(name).close()
            os.replace(temps.pop(name), shard_path(root, name, shard))
    except OSError as e:
        where = e.filename or shard_path(root, tables[0], shard)
        reason = e.strerror or str(e).strip().splitlines()[0]
        raise ValueError(f"cannot write {where}: {reason}; `--resume` completes the run "
                         "once the cause is mended") from None
    finally:
        for w in writers.values():
            with suppress(OSError):
                w.close()
        for t in temps.values():
            with suppress(OSError):
                t.unlink(missing_ok=True)
    return stats


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
    tmp = path.parent / f".{path.name}.tmp"
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(tmp, path)


_OPTION_OF = {"profile": "--profile", "fingerprint": "--profile", "deals": "--deals",
              "games": "--deals", "seed": "--seed", "players": "--players/--aggressiveness",
              "ledger": "--ledger", "tricks": "--tricks", "shard_games": "--shard-games",
              "to_target": "--to-target"}


def config_differences(recorded: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What differs between a run's recorded configuration and the one asked for, as the
    options that set it.

    >>> config_differences({"seed": 1, "deals": 9, "games": 9}, {"seed": 2, "deals": 9,
    ...                                                            "games": 9})
    ['--seed (the run has 1, now 2)']
    """
    out: list[str] = []
    for key in sorted(set(recorded) | set(now)):
        old, new = recorded.get(key), now.get(key)
        if old == new:
            continue
        option = _OPTION_OF.get(key)
        if option is None:
            return [f"the run was written by another mighty-sim version ({key} {old})"]
        if any(line.startswith(option) for line in out):
            continue
        if key == "profile":
            old_name = old.get("name") if isinstance(old, dict) else old
            new_name = new.get("name") if isinstance(new, dict) else new
            out.append(f"{option} (the run has {old_name!r}, with other rules than "
                       f"{new_name!r} now)")
        elif isinstance(old, int | float | str | bool) or old is None:
            out.append(f"{option} (the run has {old}, now {new})")
        else:
            out.append(f"{option} differs")
    return out


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
    """Delete the run in ``out``: its run file and shard files, then the folders they
    leave empty; nothing else."""
    for path in _run_files(out):
        path.unlink()
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
    """Play the run into ``out``; ``progress(deals_done)`` is called as work finishes.

    ``executor`` is ``local`` (worker processes on this machine) or ``dask`` (a Dask
    cluster at ``address`` or described by ``scheduler_file``; a local one by default).
    With ``resume``, the shards that are missing or damaged are played again.
    """
    cpus = os.cpu_count() or 1
    if not 1 <= workers <= max(cpus, 2) and not (address or scheduler_file):
        raise ValueError(f"workers: must be 1 to {max(cpus, 2)} (this machine's processors), "
                         f"got {workers}")
    if executor not in ("local", "dask"):
        raise ValueError(f"executor: must be local or dask, got {executor!r}")
    if executor == "local" and (address or scheduler_file):
        raise ValueError("--address and --scheduler-file go with --executor dask")
    if executor == "dask":
        from .dask_executor import check_dask

        check_dask()
    check_output(out, config, resume=resume, overwrite=overwrite)  # before the kernels load
    with ExitStack() as stack:
        client = None
        if executor == "dask":  # reached before anything is written
            from .dask_executor import dask_client

            client = stack.enter_context(dask_client(workers=workers, address=address,
                                                     scheduler_file=scheduler_file))
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
            total.add(_shard_stats_from_file(out, s))
    begin = time.perf_counter()
    cdict = config.to_dict()
    if progress is not None and skipped:
        progress(sum(config.shard_range(s)[1] for s in range(config.shards)
                     if s not in todo_set) * config.units_per_game)
    if client is not None:
        from .dask_executor import run_shards_dask

        for stats in run_shards_dask(client, cdict, out, todo, progress=progress):
            total.add(stats)
    elif workers == 1 or len(todo) <= 1:
        for s in todo:
            total.add(write_shard(cdict, str(out), s, _CallbackQueue(progress)))
    else:
        total.add(_run_local_workers(cdict, out, todo, workers, progress))
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


def _run_local_workers(cdict: dict[str, Any], out: Path, todo: list[int], workers: int,
                       progress: Any) -> ShardStats:
    """Write the shards ``todo`` with local worker processes; their counts, merged.

    The kernels are already loaded (or compiled into the cache) by this process, so the
    workers load them from the cache. Their progress comes back through a pipe each
    inherits at start. On Ctrl-C (or any failure) the workers are ended at once: a shard
    they were writing is left as a dot-named temporary file, which ``--resume`` deletes
    before it plays the shard again."""
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.SimpleQueue()
    total = ShardStats()

    def drain() -> None:
        while not queue.empty():
            n = queue.get()
            if progress is not None:
                progress(n)

    with _workers_use_malloc():
        pool = ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=ctx,
                                   initializer=_init_worker, initargs=(queue,))
    finished = False
    try:
        futures = [pool.submit(_write_shard_in_worker, cdict, str(out), s) for s in todo]
        pending = set(futures)
        while pending:
            drain()
            pending = {f for f in pending if not f.done()}
            time.sleep(0.05)
        drain()
        for f in futures:
            total.add(f.result())
        finished = True
    except BrokenProcessPool:
        raise ValueError("a worker process stopped unexpectedly (out of memory, or killed); "
                         "`--resume` completes the run") from None
    finally:
        if not finished:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
        # waited for even after success: a worker not told to stop would outlive the
        # command (it holds its own end of the task queue) and keep its output open
        pool.shutdown(wait=True, cancel_futures=True)
    return total


class _CallbackQueue:
    """A queue-like adapter that forwards ``put`` to a progress callback."""

    def __init__(self, callback: Any) -> None:
        self.callback = callback

    def put(self, n: int) -> None:
        if self.callback is not None:
            self.callback(n)


def batch_stats(batch: Batch) -> ShardStats:
    """Counts of a batch's rows, as :func:`table_stats` gives them from its table (read
    from the arrays: no ``pyarrow.compute``, whose import costs a small run 0.06-0.08 s).

    >>> from mighty_sim.engine import parse_players, play_batch
    >>> from mighty_sim.profile import load_profile
    >>> batch = play_batch(load_profile("standard"), seed=1, game_start=0, games=50,
    ...                    players=parse_players("random", 5))
    >>> batch_stats(batch) == table_stats(deals_table(batch, 5))
    True
    """
    outcome = batch.ri[:, R_OUTCOME]
    return ShardStats(
        games=batch.games,
        rows=len(batch.ri),
        played=int(np.count_nonzero(outcome == OUTCOME_PLAYED)),
        successes=int(np.count_nonzero((outcome == OUTCOME_PLAYED)
                                       & (batch.ri[:, R_SUCCESS] == 1))),
        weak_redeals=int(np.count_nonzero(outcome == OUTCOME_WEAK)),
        all_pass=int(np.count_nonzero(outcome == OUTCOME_ALL_PASS)),
    )


def table_stats(deals: pa.Table) -> ShardStats:
    """Counts of a ``deals`` table (whole games only)."""
    import pyarrow.compute as pc

    outcome = deals.column("outcome")

    def count(mask: pa.ChunkedArray) -> int:
        return int(pc.sum(mask.cast(pa.int64())).as_py() or 0)

    return ShardStats(
        games=len(pc.unique(deals.column("game"))),
        rows=deals.num_rows,
        played=count(pc.equal(outcome, "played")),
        successes=count(deals.column("success")),
        weak_redeals=count(pc.equal(outcome, "weak-redeal")),
        all_pass=count(pc.equal(outcome, "all-pass")),
    )


def _shard_stats_from_file(out: Path, shard: int) -> ShardStats:
    return table_stats(pq.read_table(shard_path(out, "deals", shard),
                                      columns=["outcome", "success", "game"]))
