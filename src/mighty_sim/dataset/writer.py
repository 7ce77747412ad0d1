"""The shard writer, shared by the local and the Dask executor: one shard of games
played batch by batch into Parquet files written under a temporary name and renamed
when complete, and the counts of what was written.
"""

from __future__ import annotations

import json
import os
import uuid
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from ..engine.batch import Batch, play_batch
from .config import RunConfig, versions
from .counts import Counts
from .heap import release_free_memory
from .integrity import file_sha256, shard_path
from .schema import MAX_SEATS, SCHEMA_VERSION, deals_table, tricks_table

GROUP_ROWS = 1 << 17
"""Rows of a Parquet row group, at least (all but a file's last): batches' tables are
kept until they hold this many, so files do not get a small row group per kernel call.
The tables kept cost memory: 1 << 16 measured a peak of 254-257 MiB, 1 << 17 287-289."""


def _metadata(config: RunConfig, shard: int) -> dict[bytes, bytes]:
    c = config.to_dict()
    start, games = config.shard_range(shard)
    return {
        b"mighty_sim.run": config.identity().encode(),
        b"mighty_sim.shard": str(shard).encode(),
        b"mighty_sim.games": f"{start} {games}".encode(),
        b"mighty_sim.config": json.dumps(c).encode(),
        b"mighty_sim.profile": json.dumps(c["profile"]).encode(),
        b"mighty_sim.fingerprint": c["fingerprint"].encode(),
        b"mighty_sim.seed": str(config.seed).encode(),
        b"mighty_sim.players": json.dumps(c["players"]).encode(),
        b"mighty_sim.versions": json.dumps(versions()).encode(),
        b"mighty_sim.schema_version": str(SCHEMA_VERSION).encode(),
    }


def file_record(path: Path) -> dict[str, Any]:
    """What the run's manifest keeps of a shard file: its size, rows and SHA-256."""
    return {"bytes": path.stat().st_size, "rows": pq.read_metadata(path).num_rows,
            "sha256": file_sha256(path)}


@dataclass
class ShardStats(Counts):
    """Counts of one shard (or a whole run, merged)."""

    games: int = 0
    rows: int = 0
    played: int = 0
    successes: int = 0
    weak_redeals: int = 0
    all_pass: int = 0


UNIQUE_COLUMNS = ("deal_id", "game", "blind_deck2", "discards_deck2",
                  *(f"hands_{s}" for s in range(MAX_SEATS)),
                  *(f"hands_deck2_{s}" for s in range(MAX_SEATS)))
"""Columns whose values rarely repeat: written without a Parquet dictionary, which would
only be built to be given up."""
TWO_DECK_UNIQUE = ("blind", "discards")
"""Unique too with two decks (a deck's share of six cards of 108). One deck's three cards
of 53 (23,426 sets) repeat within a row group: with a dictionary they take 1.5 bytes a
deal less, written in less time."""


def parquet_writer(where: Any, schema: pa.Schema) -> pq.ParquetWriter:
    """The writer of every shard: zstd level 1; Parquet dictionaries on every column but
    :data:`UNIQUE_COLUMNS` (and :data:`TWO_DECK_UNIQUE` with two decks; the Arrow
    dictionary columns are written as their indices, the small integers take fewer
    bytes), the calls of ``bid_history`` among them; the rising keys ``deal_id`` and
    ``game`` delta encoded (a few bits a row before compression, 0.05 µs a deal less
    to compress); min/max statistics on the key ``deal_id`` only (a reader looking for
    deals skips row groups by it; on every other column they cost a tenth of the
    writing time and no reader filters on them). Each ``write_table`` call writes one
    row group of up to 1,048,576 rows (pyarrow's default). ``where`` is a path or a
    writable file object."""
    delta = {c: "DELTA_BINARY_PACKED" for c in ("deal_id", "game") if c in schema.names}
    unique = UNIQUE_COLUMNS + (TWO_DECK_UNIQUE if "blind_deck2" in schema.names else ())
    # a list column's values are named by their Parquet path (``bid_history``'s calls: a
    # dictionary takes 1.8 bytes a deal less, in the same time)
    return pq.ParquetWriter(
        where, schema, compression="zstd", compression_level=1, write_page_checksum=True,
        use_dictionary=[f"{f.name}.list.element" if pa.types.is_list(f.type) else f.name
                        for f in schema if f.name not in unique],
        column_encoding=delta or None, write_statistics=["deal_id"],
    )


@dataclass
class ShardWritten:
    """A shard just written: its number, counts and the manifest's record of each file."""

    shard: int
    stats: ShardStats
    files: dict[str, dict[str, Any]]


def write_shard(config_dict: dict[str, Any], out: str, shard: int,
                queue: Any = None) -> ShardWritten:
    """Play one shard and write its files atomically; returns its counts and files.

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
    meta = _metadata(config, shard)
    files: dict[str, dict[str, Any]] = {}
    try:
        for done in range(0, games, config.batch_games):
            n = min(config.batch_games, games - done)
            batch = play_batch(config.profile, seed=config.seed, game_start=start + done,
                               games=n, players=config.players, ledger=config.ledger,
                               record_tricks=config.tricks, to_target=config.to_target)
            parts = {"deals": deals_table(batch, config.profile.players, seat_columns=True)}
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
            stats.add(batch_stats(batch))
            if queue is not None:
                queue.put(n * config.units_per_game)
        for name in tables:
            writers.pop(name).close()
            files[name] = file_record(temps[name])
            os.replace(temps.pop(name), shard_path(root, name, shard))
        release_free_memory()  # the shard's pages, reused batch after batch until now
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
    return ShardWritten(shard, stats, files)


def batch_stats(batch: Batch) -> ShardStats:
    """Counts of a batch's rows, as :func:`table_stats` gives them from its table (read
    from the arrays: no ``pyarrow.compute``, whose import costs a small run 0.06-0.08 s).

    >>> from mighty_sim.engine.players import parse_players

    >>> from mighty_sim.engine.batch import play_batch
    >>> from mighty_sim.rules.profile import load_profile
    >>> batch = play_batch(load_profile("standard"), seed=1, game_start=0, games=50,
    ...                    players=parse_players("random", 5))
    >>> batch_stats(batch) == table_stats(deals_table(batch, 5))
    True
    """
    counts = batch.outcome_counts()
    return ShardStats(
        games=batch.games,
        rows=len(batch.ri),
        played=counts["played"],
        successes=int(np.count_nonzero(batch.played() & (batch.column("success") == 1))),
        weak_redeals=counts["weak-redeal"],
        all_pass=counts["all-pass"],
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


def shard_stats_from_file(out: Path, shard: int) -> ShardStats:
    """Counts of a shard already written, read from its deals file."""
    return table_stats(pq.read_table(shard_path(out, "deals", shard),
                                      columns=["outcome", "success", "game"]))
