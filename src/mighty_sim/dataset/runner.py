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

import errno
import json
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.batch import play_batch
from ..files import write_atomic
from .config import RunConfig, config_differences, versions
from .dask_cluster import check_executor, executor_client
from .integrity import (
    CARDS_FILE,
    PAR_FILE,
    RUN_FILE,
    TABLES,
    inspect_run,
    read_run_file,
    remove_par_parts,
    shard_path,
)
from .local import remove_temporaries, run_shards_local
from .writer import ShardStats, ShardWritten, file_record, shard_stats_from_file


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
    played_now: int = 0
    """Deals played by this command (the shards kept from before not counted)."""

    @property
    def deals_per_second(self) -> float | None:
        """Deals played by this command per second of its wall time; None when it played
        none (a resume with nothing left to do)."""
        if not self.played_now or self.seconds <= 0:
            return None
        return self.played_now / self.seconds


def _write_json(path: Path, data: dict[str, Any]) -> None:
    write_atomic(path, json.dumps(data, indent=2) + "\n")


_OURS = re.compile(r"shard=\d{5}/(part-0\.parquet|\.part-0\.parquet\.[0-9a-f]{12}\.tmp)")
LOCK_FILE = ".mighty-sim.lock"
"""The run folder's lock (an advisory lock a writer holds for its whole run)."""


def _run_files(out: Path) -> list[Path]:
    """The shard files of the run in ``out`` (what ``--overwrite`` deletes, with the run
    file); ValueError naming the first path under ``deals/`` or ``tricks/`` that is a
    link (which would lead out of the run) or a file this package does not write."""
    ours: list[Path] = []
    for table in TABLES:
        top = out / table
        if top.is_symlink():
            raise ValueError(f"{top} is a link: --overwrite deletes only files inside the "
                             "run's own folders; remove the link, or choose another folder")
        if not top.exists():
            continue
        for root, dirs, files in os.walk(top, followlinks=False):
            here = Path(root)
            for name in sorted(dirs + files):
                path = here / name
                if path.is_symlink():
                    raise ValueError(f"{path} is a link: --overwrite deletes only files "
                                     "inside the run's own folders; remove the link, or "
                                     "choose another folder")
                if name in files and not _OURS.fullmatch(path.relative_to(top).as_posix()):
                    raise ValueError(f"{path} was not written by mighty-sim, and --overwrite "
                                     "deletes only a run's own files: move it, or choose "
                                     "another folder")
                if name in files:
                    ours.append(path)
    return ours


def _check_removable(out: Path, files: list[Path]) -> None:
    """ValueError naming the first folder from which the run's files could not be
    deleted (and the new ones written): checked before anything is deleted."""
    for folder in sorted({out, *(f.parent for f in files), *(out / t for t in TABLES)}):
        if folder.is_dir() and not os.access(folder, os.W_OK | os.X_OK):
            raise ValueError(f"cannot write to {folder}: permission denied; nothing was "
                             "deleted")


def _remove_run(out: Path) -> None:
    """Delete the run in ``out``: its run file, shard files, par table and the chunks of
    a stopped par run, then the folders they leave empty; nothing else. Every folder is
    checked writable before the first file goes."""
    files = _run_files(out)
    _check_removable(out, files)
    for path in files:
        path.unlink()
    (out / PAR_FILE).unlink(missing_ok=True)
    (out / CARDS_FILE).unlink(missing_ok=True)
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
        if out.exists() and any(p.name != LOCK_FILE for p in out.iterdir()):
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
        _check_removable(out, _run_files(out))
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
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} exists and is not a folder")
    with run_lock(out):  # first: a second writer is told who holds the folder
        check_output(out, config, resume=resume, overwrite=overwrite)  # before the kernels
        # the cluster is reached before anything is written
        with executor_client(executor, workers=workers, address=address,
                             scheduler_file=scheduler_file) as client:
            return _run(config, out, workers=workers, resume=resume, overwrite=overwrite,
                        progress=progress, client=client)


@contextmanager
def run_lock(out: Path) -> Iterator[None]:
    """Hold the run folder's advisory lock for the block: :data:`LOCK_FILE`, naming the
    process that holds it, created with the folder when needed and removed when the
    block ends; ValueError naming the holder when another process has it. A folder
    created here and left empty is removed again. Where the system or the file system
    has no such locks (Windows; some network file systems) the run goes on unlocked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        fcntl = None  # type: ignore[assignment]
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot write to {out}: {e.strerror}") from None
    path = out / LOCK_FILE
    while True:
        try:
            handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held below
        except OSError as e:
            raise ValueError(f"cannot write to {out}: {e.strerror}") from None
        if fcntl is None:
            break
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                break  # a file system without locks (some network ones): run unlocked
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise ValueError(f"{out} is being written by {holder} (it holds {path}): wait "
                             "for it to end, or choose another folder") from None
        try:  # the file locked is still the folder's: not removed by a holder ending
            same = os.stat(path).st_ino == os.fstat(handle.fileno()).st_ino
        except OSError:
            same = False
        if same:
            break
        handle.close()
    try:
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}\n")
        handle.flush()
        yield
    finally:
        with suppress(OSError):
            path.unlink()  # while held: a process waiting on it sees it gone and retries
        handle.close()
        if created:
            with suppress(OSError):
                out.rmdir()  # only if nothing was written


MANIFEST_EVERY = 2.0
"""Seconds between two writes of the run file as shards complete (and at the end): a run
stopped in between replays the shards it had not recorded."""


def _run(config: RunConfig, out: Path, *, workers: int, resume: bool, overwrite: bool,
         progress: Any, client: Any) -> RunResult:
    """:func:`run_simulation` once its arguments are checked (``client``: a Dask client,
    or None to run locally)."""
    _check_players_bid(config)
    prepare_output(out, config, resume=resume, overwrite=overwrite)
    remove_temporaries(out)  # a dead writer's: the lock is ours
    state = inspect_run(out)
    todo = sorted(set(state.missing) | set(state.damaged_shards))
    todo_set = set(todo)
    skipped = config.shards - len(todo)
    tables = ["deals"] + (["tricks"] if config.tricks else [])
    manifest: dict[str, dict[str, Any]] = {t: {} for t in tables}
    if state.manifest is not None:  # the shards kept, as recorded
        for t in tables:
            manifest[t] = {k: v for k, v in state.manifest.get(t, {}).items()
                           if int(k) not in todo_set}
    total = ShardStats()
    for s in range(config.shards):
        if s not in todo_set:
            total.add(shard_stats_from_file(out, s))
    begin = time.perf_counter()
    cdict = config.to_dict()
    run_file: dict[str, Any] = {"status": "running", "config": cdict, "versions": versions(),
                                "shards": manifest}
    if state.manifest is None:  # a run written before manifests: its kept shards recorded
        for s in range(config.shards):
            if s not in todo_set:
                for t in tables:
                    manifest[t][str(s)] = file_record(shard_path(out, t, s))
    for t, s in state.unrecorded:  # written by a run stopped before it recorded them
        if s not in todo_set:
            manifest[t][str(s)] = file_record(shard_path(out, t, s))
    _write_json(out / RUN_FILE, run_file)
    if progress is not None and skipped:
        progress(sum(config.shard_range(s)[1] for s in range(config.shards)
                     if s not in todo_set) * config.units_per_game, kept=True)
    last_write = [time.monotonic()]

    now = ShardStats()

    def recorded(written: ShardWritten) -> None:
        total.add(written.stats)
        now.add(written.stats)
        for t, record in written.files.items():
            manifest[t][str(written.shard)] = record
        if time.monotonic() - last_write[0] >= MANIFEST_EVERY:
            _write_json(out / RUN_FILE, run_file)
            last_write[0] = time.monotonic()

    try:
        if client is not None:
            from .dask_cluster import run_shards_dask

            for written in run_shards_dask(client, cdict, out, todo, progress=progress):
                recorded(written)
        else:
            run_shards_local(cdict, out, todo, workers, progress, recorded)
    finally:  # what was written is recorded, however the run ends
        _write_json(out / RUN_FILE, run_file)
    seconds = time.perf_counter() - begin
    result = RunResult(total, seconds, len(todo), skipped, config,
                       len(state.damaged_shards), now.played)
    _write_json(out / RUN_FILE, {**run_file, "status": "complete",
                                 "summary": {**total.__dict__, "seconds": round(seconds, 3)}})
    return result
