"""A dataset checked before anything reads it: its run file, its shards, their footers.

Every command that reads a run (``analyze``, ``report``, ``compare``, ``show``,
``simulate --resume``) goes through :func:`open_run`, so a damaged or incomplete run is
told in one line that names the file and what to do, instead of failing deep inside a
Parquet reader.

A run of another dataset schema version (``_run.json``'s ``schema_version``) is refused
in one line: its columns are not the ones this version reads.

A shard file is *healthy* when the run's manifest (``_run.json``'s ``shards``: each file's
size, rows and SHA-256, recorded as it was written) lists it with the same bytes, and its
Parquet footer says it holds this run's shard: the run's identity (a hash of its whole
configuration), the shard's number, its games and its rows. Anything else is *damaged*
and named in one line: a truncated file, a flipped byte, another run's file or another
shard's, a file the run never recorded (a run stopped before it could); ``--resume``
replays it. The files' Parquet pages carry checksums too, which pyarrow verifies when it
reads them. A run written before manifests (none in its ``_run.json``) is checked by its
footers only.
"""

from __future__ import annotations

import hashlib
import json
import os
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .config import RunConfig
from .schema import SCHEMA_VERSION

RUN_FILE = "_run.json"
TABLES = ("deals", "tricks")
PAR_FILE = "par.parquet"
"""The run's double-dummy par table (``mighty-sim par``), deleted with the run."""
CARDS_FILE = "cards.parquet"
"""The run's card-by-card yardstick (``mighty-sim par --cards``), deleted with the run."""
PAR_PARTS = ".par-parts"
"""The chunks of deals ``mighty-sim par`` solved, by starting trick (``from-T/``): loose
files ``games-N.npz`` as a run solves them, gathered into :data:`PACKED_PARTS` when it
has written its table; a later run takes the chunks it would solve. Deleted with the
run."""
PACKED_PARTS = "solved.npz"


def remove_par_parts(out: Path, from_trick: int | None = None) -> None:
    """Delete the par chunks kept in run folder ``out`` for ``from_trick`` (every trick
    when None), loose and packed, with the temporary files of a write cut short, then
    the folders they leave empty; nothing else."""
    pattern = "from-*" if from_trick is None else f"from-{from_trick}"
    folders = sorted((out / PAR_PARTS).glob(pattern))
    for folder in folders:
        for path in [*folder.glob(".*.tmp"), *folder.glob("games-*.npz"),
                     *folder.glob(PACKED_PARTS)]:
            path.unlink()
    for folder in [*folders, out / PAR_PARTS]:
        with suppress(OSError):
            folder.rmdir()


SHARD_FILE = "part-0.parquet"


def shard_path(out: Path, table: str, shard: int) -> Path:
    """Final path of a shard's file.

    >>> shard_path(Path("out"), "deals", 3).as_posix()
    'out/deals/shard=00003/part-0.parquet'
    """
    return out / table / f"shard={shard:05d}" / SHARD_FILE


def read_run_file(dataset: Path) -> dict[str, Any] | None:
    """The contents of ``dataset/_run.json``, or None when there is none; a file that is
    not a run file raises ValueError naming it."""
    path = dataset / RUN_FILE
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ValueError(f"cannot read {path}: {e.strerror}") from None
    except ValueError:
        raise ValueError(f"{path} is damaged (not JSON): it is not a mighty-sim run file") from None
    if not isinstance(data, dict) or not isinstance(data.get("config"), dict):
        raise ValueError(f"{path} is damaged (no run configuration): it is not a "
                         "mighty-sim run file")
    return data


@dataclass(frozen=True)
class RunState:
    """What a dataset folder holds: its configuration, its status and its shards."""

    path: Path
    config: RunConfig
    status: str
    missing: tuple[int, ...]
    """Shards with a table file not there."""
    damaged: tuple[Path, ...]
    """Shard files that are there but cannot be read as this run's."""
    damaged_shards: tuple[int, ...]
    """The shards of those files."""
    reasons: tuple[str, ...] = ()
    """Why each damaged file is, in the order of ``damaged``."""
    unrecorded: tuple[tuple[str, int], ...] = ()
    """(table, shard) of the healthy files the manifest does not list yet: written by a
    run stopped before it recorded them (checked page by page; ``--resume`` records
    them)."""
    manifest: dict[str, dict[str, Any]] | None = None
    """The run file's record of the shard files (None for a run written before it had
    one), by table and shard number (as text)."""

    def files(self, table: str = "deals") -> list[Path]:
        """The table's shard files, in shard order (only meaningful when complete)."""
        return [shard_path(self.path, table, s) for s in range(self.config.shards)]

    def require_complete(self) -> None:
        """Raise ValueError, naming the file and the fix, unless the run is complete."""
        if self.damaged:
            more = f" (and {len(self.damaged) - 1} more)" if len(self.damaged) > 1 else ""
            why = f" ({self.reasons[0]})" if self.reasons else ""
            raise ValueError(f"{self.damaged[0]} is damaged{why}{more}: replay it with "
                             f"`mighty-sim simulate ... --out {self.path} --resume`")
        if self.unrecorded:
            table, shard = self.unrecorded[0]
            raise ValueError(f"{shard_path(self.path, table, shard)} is not in the run's "
                             "manifest: complete the run with `mighty-sim simulate ... "
                             f"--out {self.path} --resume`")
        if self.missing:
            c = self.config
            gone = set(self.missing)
            done = sum(c.shard_range(s)[1] for s in range(c.shards) if s not in gone)
            raise ValueError(
                f"{self.path} is an incomplete run ({done:,} of {c.games:,} games written, "
                f"{len(self.missing)} of {c.shards} shards missing): finish it with "
                f"`mighty-sim simulate ... --out {self.path} --resume`")


_HASHED: dict[tuple[str, int, int, int], str] = {}
"""The hashes this process has taken, by file and its (inode, size, modification time):
a command reads a run through several calls of :func:`open_run`, which hash its files
once, and again only a file that changed."""


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read a MiB at a time (once a process for a file
    that does not change)."""
    info = os.stat(path)
    key = (os.path.abspath(path), info.st_ino, info.st_size, info.st_mtime_ns)
    if key not in _HASHED:
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            while chunk := f.read(1 << 20):
                digest.update(chunk)
        _HASHED[key] = digest.hexdigest()
    return _HASHED[key]


def shard_problem(path: Path, config: RunConfig, shard: int,
                  record: dict[str, Any] | None, manifest: bool) -> str | None:
    """Why ``path`` is not shard ``shard`` of the run of ``config``, or None when it is:
    with a ``manifest``, its ``record`` there (size, rows, SHA-256) and its footer (the
    run's identity, the shard's number and games); without, its footer's fingerprint and
    seed (a run written before manifests)."""
    import pyarrow.parquet as pq

    if manifest and record is not None:
        if not isinstance(record, dict):
            return "its entry in the run's manifest is damaged"
        try:
            if path.stat().st_size != record.get("bytes"):
                return "its size differs from the run's manifest"
            if file_sha256(path) != record.get("sha256"):
                return "its bytes differ from the run's manifest"
        except OSError as e:
            return f"cannot be read: {e.strerror}"
    try:
        footer = pq.read_metadata(path)
    except Exception:  # noqa: BLE001 - any reader failure means the file is damaged
        return "not a readable Parquet file"
    meta = footer.metadata or {}
    if not manifest:  # a run written before manifests: its footers only
        if (meta.get(b"mighty_sim.fingerprint") != config.profile.fingerprint().encode()
                or meta.get(b"mighty_sim.seed") != str(config.seed).encode()):
            return "written for another run"
        return None
    start, games = config.shard_range(shard)
    if meta.get(b"mighty_sim.run") != config.identity().encode():
        return "written for another run"
    if (meta.get(b"mighty_sim.shard") != str(shard).encode()
            or meta.get(b"mighty_sim.games") != f"{start} {games}".encode()):
        return "holds another shard's games"
    if record is not None:
        return "its rows differ from the run's manifest" if (
            footer.num_rows != record.get("rows")) else None
    # written by a run stopped before it recorded the file: every page read and checked
    try:
        for _ in pq.ParquetFile(path, page_checksum_verification=True).iter_batches(
                batch_size=1 << 16):
            pass
    except Exception:  # noqa: BLE001 - any reader failure means the file is damaged
        return "a page fails its checksum or does not decode"
    return None


def _config(dataset: Path) -> tuple[RunConfig, dict[str, Any]]:
    """The run's configuration and its run file's contents."""

    if not dataset.is_dir():
        raise ValueError(f"{dataset}: no such folder")
    data = read_run_file(dataset)
    if data is None:
        raise ValueError(f"{dataset} holds no run ({RUN_FILE} is missing)")
    version = data["config"].get("schema_version")
    if version != SCHEMA_VERSION:
        raise ValueError(f"{dataset} holds a run of dataset schema {version or 'unknown'}; "
                         f"this version of mighty-sim reads schema {SCHEMA_VERSION}: simulate "
                         "it again, or read it with the version that wrote it")
    try:
        return RunConfig.from_dict(data["config"]), data
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{dataset / RUN_FILE} is damaged ({e}): it is not a run "
                         "file this version can read") from None


def load_run(dataset: Path) -> RunConfig:
    """The configuration a dataset was made with; ValueError
    naming the file when there is no readable run."""
    return _config(dataset)[0]


def inspect_run(dataset: Path) -> RunState:
    """The state of the run in ``dataset``; ValueError (naming the file) when the folder
    holds no run or its run file is damaged."""
    config, data = _config(dataset)
    tables = [t for t in TABLES if t == "deals" or config.tricks]
    manifest = data.get("shards")
    if manifest is not None and not (isinstance(manifest, dict) and all(
            isinstance(manifest.get(t, {}), dict) for t in tables)):
        raise ValueError(f"{dataset / RUN_FILE} is damaged (its shard manifest is not a "
                         "table of files): it is not a run file this version can read")
    missing: list[int] = []
    damaged: list[Path] = []
    reasons: list[str] = []
    damaged_shards: list[int] = []
    unrecorded: list[tuple[str, int]] = []
    for s in range(config.shards):
        paths = {t: shard_path(dataset, t, s) for t in tables}
        if not all(p.exists() for p in paths.values()):
            missing.append(s)
        bad = False
        for t, p in paths.items():
            if not p.exists():
                continue
            record = manifest.get(t, {}).get(str(s)) if manifest is not None else None
            why = shard_problem(p, config, s, record, manifest is not None)
            if why is not None:
                damaged.append(p)
                reasons.append(why)
                bad = True
            elif manifest is not None and record is None:
                unrecorded.append((t, s))
        if bad:
            damaged_shards.append(s)
    return RunState(dataset, config, str(data.get("status", "unknown")), tuple(missing),
                    tuple(damaged), tuple(damaged_shards), reasons=tuple(reasons),
                    manifest=manifest, unrecorded=tuple(unrecorded))


def open_run(dataset: Path) -> RunState:
    """A complete, healthy run ready to read; ValueError with the reason otherwise.

    >>> open_run(Path("no/such/run"))
    Traceback (most recent call last):
    ...
    ValueError: no/such/run: no such folder
    """
    state = inspect_run(dataset)
    state.require_complete()
    return state
