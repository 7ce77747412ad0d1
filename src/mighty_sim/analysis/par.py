"""Double-dummy par of recorded deals (``mighty-sim par``) and the card-play table that
``mighty-sim analyze`` prints from it.

A deal's par is what the declarer's side takes against best defence with every hand
seen (:mod:`mighty_sim.engine.search`), from the start of a chosen trick: the tricks
before it are replayed as the players played them. Deals are re-simulated from the run's
seed with their tricks recorded, in chunks of games (in worker processes with
``workers`` > 1); every replay is checked against the recorded result and the stored
rows. The table is written whole to ``par.parquet`` in the dataset.

>>> import polars as pl
>>> df = pl.DataFrame({"declarer_player": ["heuristic"] * 3, "par": [15, 12, 16],
...                    "taken": [14, 12, 13], "bid": [14, 13, 15],
...                    "success": [True, False, False], "from_trick": [5] * 3})
>>> card_play(df).select("n", "below_par", "makeable", "lost").to_dicts()
[{'n': 3, 'below_par': 1.3333333333333333, 'makeable': 2, 'lost': 1}]
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from ..dataset.config import RunConfig
from ..dataset.integrity import PACKED_PARTS, PAR_FILE, PAR_PARTS, open_run
from ..dataset.schema import deal_id
from ..engine.batch import Batch, play_batch
from ..files import written_whole
from ..rules.profile import TRUMPS, RuleProfile
from ..workers import run_polled
from .stats import mean_interval, wilson_interval

T = TypeVar("T")

CHUNK_GAMES = 200
"""Games re-simulated and solved at a time (a worker's task) from six tricks left on;
fewer with more tricks left (:func:`chunk_games`)."""


def chunk_games(profile: RuleProfile, from_trick: int) -> int:
    """Games a chunk, from the start of ``from_trick``: :data:`CHUNK_GAMES` up to six
    tricks left, a sixth of it a trick more (each costs five to seven times the time),
    and never less than one game (from the whole deal and from trick 2 in ``standard``),
    so that a chunk (what a stopped run keeps) is minutes of work at most.

    >>> from mighty_sim.rules.profile import load_profile
    >>> [chunk_games(load_profile("standard"), t) for t in (1, 2, 3, 4, 5, 9)]
    [1, 1, 5, 33, 200, 200]
    """
    left = profile.hand_size - from_trick + 1
    return max(1, CHUNK_GAMES // int(6 ** max(0, left - 6)))


def replay_games(config_dict: dict[str, Any], game_start: int, games: int
                 ) -> tuple[RuleProfile, Batch]:
    """A run's games ``game_start ..`` (``games`` of them, fewer at the run's end)
    simulated again from its configuration, their tricks recorded: what the searches
    of recorded deals take up."""
    config = RunConfig.from_dict(config_dict)
    games = min(games, config.games - game_start)
    batch = play_batch(config.profile, seed=config.seed, game_start=game_start,
                       games=games, players=config.players, ledger=config.ledger,
                       record_tricks=True, to_target=config.to_target)
    return config.profile, batch


def _chunk(config_dict: dict[str, Any], game_start: int, games: int, from_trick: int,
           limit: int) -> dict[str, np.ndarray]:
    """Par of the played deals of games ``game_start ..``: the table's columns (``par``
    -1 for a deal left unanswered at ``limit`` positions; ``seconds`` the processor time
    of each deal's search, a kernel call a deal: a whole deal is a unit of work of
    milliseconds to minutes, and the call's 4 µs count only where a search takes tens
    of microseconds, from trick 9 on; ``search`` the search's version, whose positions
    and time these are). The search's arrays are the thread's, kept from chunk to chunk
    (:class:`..engine.search.ParSolver`)."""
    from ..engine.search import GAVE_UP, SEARCH_VERSION, ParSolver

    profile, batch = replay_games(config_dict, game_start, games)
    solver = ParSolver(profile, batch.ri, batch.ru, batch.ti, from_trick)
    played = np.flatnonzero(batch.played())
    seconds = np.zeros(len(played))
    # a first call with no rows: a process's first call loads the compiled search,
    # which is no deal's time
    solver.solve(0, 0, limit=limit)
    for i, r in enumerate(played.tolist()):  # a call a deal, to time each (4 µs a call)
        start = time.thread_time()
        solver.solve(r, r + 1, limit=limit)
        seconds[i] = time.thread_time() - start
    bad = played[~solver.replayed[played]]
    if len(bad):
        game, attempt = batch.column("game")[bad[:1]], batch.column("attempt")[bad[:1]]
        raise ValueError(f"deal {deal_id(game, attempt)[0]}: "
                         "its recorded play does not replay to its recorded result")
    tricks_bid = profile.bid_unit == "tricks"
    value = solver.value[played]

    def col(name: str) -> np.ndarray:
        return batch.column(name)[played]

    return {
        "deal_id": deal_id(col("game"), col("attempt")),
        "declarer": col("declarer"),
        "friend_seat": col("friend_seat"),
        "bid": col("bid"),
        "trump": col("trump"),
        "from_trick": solver.started[played].astype(np.int8),
        "par": np.where(value == GAVE_UP, -1, value).astype(np.int8),
        "taken": col("tricks" if tricks_bid else "points"),
        "points": col("points"),
        "success": col("success") == 1,
        "positions": solver.positions[played],
        "seconds": seconds.astype(np.float32),
        "search": np.full(len(played), SEARCH_VERSION, np.int16),
    }


def _check_stored(dataset: Path, cols: dict[str, np.ndarray]) -> None:
    """ValueError when the stored rows of these deals are not the re-simulated ones."""
    stored = (pl.scan_parquet(open_run(dataset).files("deals"), hive_partitioning=True)
              .filter(pl.col("deal_id").is_in(cols["deal_id"]))
              .select("deal_id", "declarer_points").sort("deal_id").collect())
    ids = np.asarray(stored["deal_id"])
    order = np.argsort(cols["deal_id"])
    if (len(ids) != len(order) or not np.array_equal(ids, cols["deal_id"][order])
            or not np.array_equal(np.asarray(stored["declarer_points"]),
                                  cols["points"][order])):
        raise ValueError(f"{dataset}: the stored deals differ from their re-simulation "
                         "(a damaged or edited run)")


def check_solvable(profile: RuleProfile, from_trick: int, option: str) -> None:
    """ValueError (naming ``option``) unless the search can start at ``from_trick`` of
    a ``profile`` deal: one deck, a trick of the deal."""
    if profile.deck_copies != 1:
        raise ValueError(f"{profile.name} plays two decks; the double-dummy search plays "
                         "one-deck profiles only")
    if not 1 <= from_trick <= profile.hand_size:
        raise ValueError(f"{option}: {profile.name} plays tricks 1 to "
                         f"{profile.hand_size}, got {from_trick}")


def _solved_chunk(config_dict: dict[str, Any], game_start: int, games: int, from_trick: int,
                  limit: int) -> tuple[int, dict[str, np.ndarray]]:
    """:func:`_chunk`, with the chunk's first game (a worker's task)."""
    return game_start, _chunk(config_dict, game_start, games, from_trick, limit)


def _parts_folder(dataset: Path, from_trick: int) -> Path:
    return dataset / PAR_PARTS / f"from-{from_trick}"


def _parts_key(config: RunConfig) -> bytes:
    """What ties a kept chunk to its run (the search that solved it is kept apart)."""
    return _config_key(config)


def _run_and_search(key: bytes, search: np.ndarray | None) -> tuple[bytes, int]:
    """A kept chunk's run key and search version: kept apart (``search``), or, in a chunk
    kept by a ``par`` that wrote them as one key, the version at the key's end (-1 for
    none).

    >>> _run_and_search(b'{"seed": 1}\\nsearch 4', None)
    (b'{"seed": 1}', 4)
    """
    if search is not None:
        return key, int(search[0])
    run, sep, version = key.rpartition(b"\nsearch ")
    return (run, int(version)) if sep and version.isdigit() else (key, -1)


def _same_answers(cols: dict[str, np.ndarray], kept_limit: int, limit: int) -> bool:
    """Whether a chunk solved with a limit of ``kept_limit`` positions a deal holds what
    a solve with ``limit`` gives (0: none): every par it found within ``limit``, every
    deal it left unanswered left at the same limit (a solve's positions do not depend
    on the limit until it is reached)."""
    solved = cols["par"] >= 0
    if limit > 0 and (cols["positions"][solved] > limit).any():
        return False
    return bool(solved.all()) or kept_limit == limit


class KeptChunk(NamedTuple):
    """A chunk kept in a parts folder: the run it was solved for, its games, the limit of
    positions it was solved with, its columns, the version of the search that solved
    it."""

    key: bytes
    games: int
    limit: int
    cols: dict[str, np.ndarray]
    search: int


def _taken(k: KeptChunk, limit: int) -> bool:
    """Whether a run with a limit of ``limit`` positions a deal takes kept chunk ``k`` of
    its own deals: one solved by this search when it holds what a solve with ``limit``
    gives (:func:`_same_answers`); one solved by another search whose pars are exact
    (:data:`..engine.search.EXACT_SINCE` on) when it answered every deal (its positions
    and times stay that search's, its ``search`` column says so)."""
    from ..engine.search import EXACT_SINCE, SEARCH_VERSION

    if k.search == SEARCH_VERSION:
        return _same_answers(k.cols, k.limit, limit)
    return k.search >= EXACT_SINCE and bool((k.cols["par"] >= 0).all())


def _of_run(k: KeptChunk, key: bytes) -> bool:
    """Whether kept chunk ``k`` is of the run of ``key`` and a run of it takes it at its
    own limit (:func:`_taken`): what :func:`pack_parts` keeps and the kept deals hold."""
    return k.key == key and _taken(k, k.limit)


def _load_kept(folder: Path) -> dict[int, KeptChunk]:
    """Every chunk kept in ``folder``, by first game: those packed in
    :data:`PACKED_PARTS`, and over them the loose chunks of the runs since."""
    kept: dict[int, KeptChunk] = {}
    packed = folder / PACKED_PARTS
    if packed.exists():
        with np.load(packed) as f:
            arrays = {k: f[k] for k in f.files}
        key = arrays.pop("_run").tobytes()
        starts, games = arrays.pop("_starts"), arrays.pop("_games")
        limits, offsets = arrays.pop("_limits"), arrays.pop("_offsets")
        searches = arrays.pop("_searches", None)
        if searches is None:  # packed by a par that wrote the search into the run's key
            key, search = _run_and_search(key, None)
            searches = np.full(len(starts), search)
        for i, start in enumerate(starts.tolist()):
            cols = {k: v[offsets[i]:offsets[i + 1]] for k, v in arrays.items()}
            kept[start] = KeptChunk(key, int(games[i]), int(limits[i]),
                                _complete(cols, int(searches[i])), int(searches[i]))
    for path in folder.glob("games-*.npz"):
        first = path.name.removeprefix("games-").removesuffix(".npz")
        if not first.isdigit():
            continue
        with np.load(path) as f:
            cols = {k: f[k] for k in f.files}
        limit = int(cols.pop("_limit")[0]) if "_limit" in cols else 0
        key, search = _run_and_search(cols.pop("_run").tobytes(), cols.pop("_search", None))
        kept[int(first)] = KeptChunk(key, int(cols.pop("_games")[0]), limit,
                                 _complete(cols, search), search)
    return kept


def _complete(cols: dict[str, np.ndarray], search: int) -> dict[str, np.ndarray]:
    """A kept chunk's columns with ``seconds`` (NaN, null in the table, for a chunk kept
    by a version of ``par`` that did not time its deals) and ``search`` (the version of
    the search that solved the chunk, ``search``, for each deal of a chunk kept by a
    ``par`` that recorded it for the chunk only)."""
    n = len(cols["deal_id"])
    if "seconds" not in cols:
        cols["seconds"] = np.full(n, np.nan, np.float32)
    if "search" not in cols:
        cols["search"] = np.full(n, search, np.int16)
    return cols


def _kept_parts(folder: Path, key: bytes, sizes: dict[int, int], limit: int
                ) -> dict[int, dict[str, np.ndarray]]:
    """The chunks kept in ``folder`` (:func:`_load_kept`) that this run would solve:
    those solved for this run (``key``) with the games ``sizes`` gives for their first
    game (a run that asked for fewer deals may have kept a shorter last chunk) that a
    run with ``limit`` takes (:func:`_taken`); by first game."""
    return {start: k.cols for start, k in _load_kept(folder).items()
            if start in sizes and k.key == key and k.games == sizes[start]
            and _taken(k, limit)}


def _keep_part(folder: Path, key: bytes, games: int, start: int,
               cols: dict[str, np.ndarray], limit: int = 0, search: int | None = None
               ) -> None:
    """Write a chunk solved for the run of ``key`` by search version ``search`` (this
    one's by default) to ``folder``, whole (a temporary file renamed into place)."""
    from ..engine.search import SEARCH_VERSION

    search = SEARCH_VERSION if search is None else search
    arrays: dict[str, Any] = {"_run": np.frombuffer(key, np.uint8),
                              "_search": np.array([search]),
                              "_games": np.array([games]),
                              "_limit": np.array([limit]),
                              **cols}
    _save_whole(folder / f"games-{start}.npz", arrays)


def _save_whole(path: Path, arrays: dict[str, Any]) -> None:
    """``arrays`` saved to ``path`` (its folder made) under a temporary name, renamed
    into place when whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with written_whole(path) as tmp, tmp.open("wb") as f:
        np.savez(f, **arrays)


def pack_parts(dataset: Path, from_trick: int) -> None:
    """Gather the chunks kept for ``from_trick`` that a run would take (:func:`_of_run`)
    into one file, :data:`PACKED_PARTS` (written whole, then the loose chunks deleted),
    so that a later ``par`` run asking for more deals, or for a table again, solves only
    the chunks it lacks; the chunks another search left with a deal unanswered, or a
    search whose pars are not taken, are dropped."""
    folder = _parts_folder(dataset, from_trick)
    if not folder.exists():
        return
    key = _parts_key(open_run(dataset).config)
    loose = list(folder.glob("games-*.npz"))  # those written later stay, read again
    kept = sorted((start, k) for start, k in _load_kept(folder).items() if _of_run(k, key))
    if kept:
        names = set(kept[0][1].cols)
        kept = [(start, k) for start, k in kept if set(k.cols) == names]
        sizes = [len(k.cols["deal_id"]) for _, k in kept]
        _save_whole(folder / PACKED_PARTS, {
            "_run": np.frombuffer(key, np.uint8),
            "_starts": np.array([start for start, _ in kept], np.int64),
            "_games": np.array([k.games for _, k in kept], np.int64),
            "_limits": np.array([k.limit for _, k in kept], np.int64),
            "_searches": np.array([k.search for _, k in kept], np.int64),
            "_offsets": np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
            **{name: np.concatenate([k.cols[name] for _, k in kept]) for name in names}})
    else:
        (folder / PACKED_PARTS).unlink(missing_ok=True)
    for path in loose:
        path.unlink()


def kept_chunks(dataset: Path, from_trick: int, search: int | None = None
                  ) -> dict[int, KeptChunk]:
    """The chunks kept for ``from_trick`` that a run takes (:func:`_of_run`), by first
    game. With ``search``, the chunks that search version solved past the last game of
    every older search's chunks: the deals it was the first to solve, not those it
    solved again where an older search left a deal unanswered (the hardest, which a
    timing of the search would count twice as often as they come)."""
    folder = _parts_folder(dataset, from_trick)
    if not folder.exists():
        return {}
    key = _parts_key(open_run(dataset).config)
    kept = {start: k for start, k in _load_kept(folder).items() if _of_run(k, key)}
    if search is None:
        return kept
    after = max((start + k.games for start, k in kept.items() if k.search < search),
                default=0)
    return {start: k for start, k in kept.items() if k.search == search and start >= after}


def _games(config: RunConfig, deals: int) -> int:
    """The games that hold a run's first ``deals`` played deals."""
    return min(config.games, math.ceil(deals / max(1, config.ledger)))


def par_table(dataset: Path, *, deals: int, from_trick: int, workers: int = 1,
              max_positions: int = 0, client: Any = None,
              progress: Callable[..., None] | None = None) -> pa.Table:
    """Par of the first ``deals`` played deals of ``dataset`` (every one if fewer) from
    the start of trick ``from_trick``: one row a deal, with what the players took; with
    ``max_positions`` > 0 a deal whose search passes that many positions is left
    unanswered (its ``par`` null), so that no deal holds a run up for hours. With a Dask
    ``client`` the chunks are solved on its cluster (its workers re-simulate the deals
    from the run's configuration: they need no access to the dataset).

    ``par`` and ``taken`` count what the contract counts: points, or tricks in trick-bid
    profiles (a contract par makes: ``par >= bid``). ValueError for a two-deck profile (the
    search plays one deck) or a trick out of range. Each chunk of games is kept in the
    dataset as it is solved, and the chunks kept by a stopped or an earlier run are
    taken as they are (:func:`pack_parts` gathers them once the table is written)."""
    config = open_run(dataset).config
    profile = config.profile
    check_solvable(profile, from_trick, "--from-trick")
    games = _games(config, deals)
    chunk = chunk_games(profile, from_trick)
    sizes = {g: min(chunk, games - g) for g in range(0, games, chunk)}
    starts = list(sizes)
    cdict = config.to_dict()
    key = _parts_key(config)
    folder = _parts_folder(dataset, from_trick)
    if max_positions < 0:
        raise ValueError(f"--max-positions: must be 0 (no limit) or more, got {max_positions}")
    parts = _kept_parts(folder, key, sizes, max_positions)
    if progress is not None and parts:
        progress(sum(len(p["deal_id"]) for p in parts.values()), kept=True)
    todo = [(cdict, g, sizes[g], from_trick, max_positions) for g in starts
            if g not in parts]

    def keep(result: tuple[int, dict[str, np.ndarray]]) -> None:
        start, cols = result
        _keep_part(folder, key, sizes[start], start, cols, max_positions)
        parts[start] = cols
        if progress is not None:
            progress(len(cols["deal_id"]))

    from ..engine.search import drop_kept

    if client is not None and todo:
        from ..dataset.dask_cluster import map_dask, run_key

        client.run(_chunk, cdict, 0, 1, profile.hand_size, 0)  # each worker compiles once
        name = f"mighty-sim-par-{run_key(cdict)}-from-{from_trick}-limit-{max_positions}"
        for _, result in map_dask(client, _solved_chunk, todo,
                                  [f"{name}-{task[1]}" for task in todo]):
            keep(result)
        client.run(drop_kept)  # the tables of the workers' threads, which live on
    elif workers <= 1 or len(todo) <= 1:
        try:
            for task in todo:
                keep(_solved_chunk(*task))
        finally:
            drop_kept([threading.get_ident()])
    elif todo:
        _chunk(cdict, 0, 1, profile.hand_size, 0)  # compiled once here, loaded by workers
        drop_kept([threading.get_ident()])
        run_polled(_solved_chunk, todo, workers, keep)
    cols = {k: np.concatenate([parts[g][k] for g in starts])[:deals] for k in parts[starts[0]]}
    _check_stored(dataset, cols)
    player = [config.players[d].policy for d in cols["declarer"]]
    friend = cols["friend_seat"]
    return pa.table({
        "deal_id": cols["deal_id"],
        "declarer": cols["declarer"],
        "declarer_player": pa.array(player, pa.string()).dictionary_encode(),
        "friend_seat": pa.array(friend, mask=friend < 0),
        "bid": cols["bid"],
        "trump": pa.array([TRUMPS[t] for t in cols["trump"]]).dictionary_encode(),
        "from_trick": cols["from_trick"],
        "par": pa.array(cols["par"], mask=cols["par"] < 0),
        "taken": cols["taken"],
        "success": cols["success"],
        "positions": cols["positions"],
        "seconds": pa.array(cols["seconds"], mask=np.isnan(cols["seconds"])),
        "search": cols["search"],
    })


def _config_key(config: RunConfig) -> bytes:
    """What ties a par table (or a kept chunk) to its run: the run's configuration."""
    return json.dumps(config.to_dict(), sort_keys=True).encode()


def _run_key(dataset: Path) -> bytes:
    """:func:`_config_key` of the run in ``dataset``."""
    return _config_key(open_run(dataset).config)


def _row_keys(table: pa.Table) -> np.ndarray:
    """Each row's deal and starting trick as one number."""
    return (np.asarray(table.column("deal_id")).astype(np.uint64) * np.uint64(64)
            + np.asarray(table.column("from_trick")).astype(np.uint64))


def write_par(dataset: Path, table: pa.Table) -> tuple[Path, pa.Table]:
    """``table`` written to ``dataset/par.parquet`` (a temporary file renamed into place),
    marked with the run it belongs to, beside the rows the file held of other deals or
    other starting tricks (so that one table compares the card play from several
    tricks); rows by starting trick, then deal. Returns the file and the table it
    holds."""
    path = dataset / PAR_FILE
    key = _run_key(dataset)
    if path.exists() and _par_file_key(path) == key:  # a damaged file is replaced
        old = pq.read_table(path).replace_schema_metadata(None)
        for name in ("seconds", "search"):  # rows of a par that wrote no such column
            if name not in old.schema.names and name in table.schema.names:
                field = table.schema.field(name)
                old = old.append_column(field, pa.nulls(len(old), field.type))
        if set(old.schema.names) == set(table.schema.names):
            old = old.select(table.schema.names)
        if old.schema.equals(table.schema):
            old = old.filter(pa.array(~np.isin(_row_keys(old), _row_keys(table))))
            table = pa.concat_tables([old, table]).unify_dictionaries().combine_chunks()
            table = table.sort_by([("from_trick", "ascending"), ("deal_id", "ascending")])
    table = write_run_table(path, table, key, "the deals solved are kept and "
                            "`mighty-sim par` writes the table again")
    return path, table


def write_run_table(path: Path, table: pa.Table, key: bytes, after: str) -> pa.Table:
    """``table`` written whole to ``path`` (a temporary file renamed into place), marked
    with the run of ``key``; ValueError ending with ``after`` when it cannot be. Returns
    the table as written."""
    table = table.replace_schema_metadata({b"mighty_sim.run": key})
    try:
        with written_whole(path) as tmp:
            pq.write_table(table, tmp, compression="zstd")
    except OSError as e:
        raise ValueError(f"cannot write {path}: {e.strerror or e}; {after}") from None
    return table


def _par_file_key(path: Path) -> bytes | None:
    """The run a table of :func:`write_run_table` was written for; None for a file that
    is not a whole Parquet file (cut short, damaged), which its command replaces."""
    try:
        return (pq.read_schema(path).metadata or {}).get(b"mighty_sim.run")
    except Exception:  # noqa: BLE001 - any reader failure means the file is damaged
        return None


def card_play(par: pl.DataFrame, by: Sequence[str] = ()) -> pl.DataFrame:
    """The declarer side's card play against double-dummy par, by the declarer's player
    and starting trick (and the columns ``by`` names, after them): deals, mean
    ``par - taken`` (``below_par``, with a 95% interval), the deals whose contract was
    makeable and how many of them were lost (``lost_rate`` with a Wilson interval), and
    the share that made more than par (the defence's errors); deals left unanswered
    (``par`` null: ``par --max-positions``) are counted apart (``unsolved``), outside
    every other column."""
    keys = ["declarer_player", "from_trick", *by]
    rows = []
    for values, g in par.group_by(keys, maintain_order=True):
        unsolved = g["par"].null_count()
        g = g.filter(pl.col("par").is_not_null())
        gap = (g["par"].cast(pl.Int64) - g["taken"].cast(pl.Int64)).to_numpy()
        n = len(gap)
        mean, low_gap, high_gap = mean_interval(gap)
        makeable = g.filter(pl.col("par") >= pl.col("bid"))
        lost = int((~makeable["success"]).sum())
        low, high = wilson_interval(lost, makeable.height)
        rows.append({
            **dict(zip(keys, values, strict=True)), "n": n, "unsolved": unsolved,
            "below_par": mean, "below_par_low": low_gap, "below_par_high": high_gap,
            "makeable": makeable.height, "lost": lost,
            "lost_rate": lost / makeable.height if makeable.height else math.nan,
            "lost_low": low, "lost_high": high,
            "above_par_share": float((gap < 0).mean()) if n else math.nan,
        })
    return pl.DataFrame(rows).sort(keys) if rows else pl.DataFrame()


def read_par(dataset: Path) -> pl.DataFrame | None:
    """The dataset's par table, or None when ``mighty-sim par`` has not written one;
    ValueError when the file belongs to another run."""
    return read_run_table(dataset / PAR_FILE, _run_key(dataset),
                          f"`mighty-sim par {dataset}` writes this run's again (the deals "
                          "solved are kept), or delete the file")


def read_run_table(path: Path, key: bytes, fix: str) -> pl.DataFrame | None:
    """A table a command wrote into a run's folder for the run of ``key``
    (:func:`write_run_table`), or None when there is none; ValueError ending with
    ``fix`` when it is damaged or belongs to another run."""
    if not path.exists():
        return None
    key_found = _par_file_key(path)
    if key_found is None:
        raise ValueError(f"{path} is damaged (not a whole Parquet file): {fix}")
    if key_found != key:
        raise ValueError(f"{path} was written for another run in this folder: {fix}")
    try:
        return pl.read_parquet(path)
    except Exception:  # noqa: BLE001 - a damaged page: Polars' errors and panics alike
        raise ValueError(f"{path} is damaged (a page does not decode): {fix}") from None
