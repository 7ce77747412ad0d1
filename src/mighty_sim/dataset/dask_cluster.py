"""Running a simulation's shards, or ``par``'s chunks of deals, on a Dask cluster
(``--executor dask``).

Each shard is one task with a deterministic key (the run's hash and the shard number);
the task writes its own Parquet file into the shared output folder under a unique
temporary name and renames it, so a retried task is safe. Every worker loads (or
compiles) the Numba kernels once before the shards start. Progress comes from completed
tasks. Rows are those of a local run with the same seed: a shard's rows depend only on
the seed and its game numbers.

Dask is optional: ``pip install mighty-sim[dask]``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def check_dask() -> None:
    """Raise ValueError with the install hint when Dask is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ValueError(
            "executor dask needs Dask: pip install 'mighty-sim[dask]'") from None


def _warm(config_dict: dict[str, Any]) -> bool:
    from ..engine.batch import play_batch
    from .config import RunConfig

    config = RunConfig.from_dict(config_dict)
    play_batch(config.profile, seed=config.seed, game_start=0, games=1, players=config.players)
    return True


def run_key(config_dict: dict[str, Any]) -> str:
    """A short hash of the run's configuration, for task keys."""
    from .config import run_identity

    return run_identity(config_dict)[:12]


@contextmanager
def dask_client(*, workers: int, address: str | None,
                scheduler_file: str | None) -> Iterator[Any]:
    """A client of the cluster at ``address`` or in ``scheduler_file``, or of a local
    cluster of ``workers`` processes; closed (with the local cluster) on exit. A cluster
    that cannot be reached raises ValueError before the run writes anything."""
    from distributed import Client, LocalCluster

    if scheduler_file:
        address = scheduler_address(Path(scheduler_file))
    cluster = None
    try:
        if address:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        else:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                   dashboard_address=None)
            client = Client(cluster)
    except (OSError, ValueError, TimeoutError) as e:
        where = address or scheduler_file or "a local cluster"
        if cluster is not None:
            cluster.close()
        raise ValueError(f"cannot reach the Dask cluster at {where}: {e}") from None
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


SCHEDULER_WAIT = 30.0
"""Seconds to wait for a scheduler file that is not there yet (a batch job's scheduler
writes it once it starts), telling so, before giving up."""
CONNECT_TIMEOUT = "30s"
"""How long to try to reach a cluster's scheduler."""


def scheduler_address(path: Path, wait: float = SCHEDULER_WAIT) -> str:
    """The scheduler's address in a Dask scheduler file, waiting up to ``wait`` seconds
    for the file to appear (saying so on standard error); ValueError naming the file when
    it does not, or does not hold a scheduler's address.

    >>> import json, tempfile
    >>> f = Path(tempfile.mkdtemp()) / "scheduler.json"
    >>> _ = f.write_text(json.dumps({"address": "tcp://10.0.0.1:8786"}))
    >>> scheduler_address(f)
    'tcp://10.0.0.1:8786'
    """
    deadline = time.monotonic() + wait
    if not path.exists():
        print(f"waiting up to {wait:.0f} s for the scheduler file {path}", file=sys.stderr)
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
    if not path.exists():
        raise ValueError(f"--scheduler-file {path}: no such file after {wait:.0f} s; start "
                         "the scheduler with --scheduler-file, or give its --address")
    try:
        if not path.is_file() or path.stat().st_size > 1 << 20:
            raise ValueError
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        raise ValueError(f"--scheduler-file {path}: not a Dask scheduler file (JSON with "
                         "the scheduler's address)") from None
    address = data.get("address") if isinstance(data, dict) else None
    if not isinstance(address, str) or "://" not in address:
        raise ValueError(f"--scheduler-file {path}: holds no scheduler address "
                         "(\"address\": \"tcp://host:port\")")
    return address


def check_executor(executor: str, address: str | None, scheduler_file: str | None) -> None:
    """ValueError unless ``executor`` is ``local`` or ``dask``, an address or scheduler
    file goes with ``dask``, and Dask is installed for it."""
    if executor not in ("local", "dask"):
        raise ValueError(f"executor: must be local or dask, got {executor!r}")
    if executor == "local" and (address or scheduler_file):
        raise ValueError("--address and --scheduler-file go with --executor dask")
    if executor == "dask":
        check_dask()


@contextmanager
def executor_client(executor: str, *, workers: int, address: str | None,
                    scheduler_file: str | None) -> Iterator[Any]:
    """None for the ``local`` executor; for ``dask`` a client of the cluster
    (:func:`dask_client`). The arguments are those :func:`check_executor` checked."""
    if executor != "dask":
        yield None
        return
    with dask_client(workers=workers, address=address, scheduler_file=scheduler_file) as client:
        yield client


def map_dask(client: Any, fn: Callable[..., Any], tasks: list[tuple[Any, ...]],
             keys: list[str]) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """``fn(*task)`` for every task on ``client``'s cluster, under the given task keys
    (deterministic: a task submitted again is the same task), each retried twice on a
    lost worker: (task, result) pairs as they complete."""
    from distributed import as_completed

    futures = {client.submit(fn, *task, key=key, retries=2, pure=False): task
               for task, key in zip(tasks, keys, strict=True)}
    for future in as_completed(futures):
        yield futures[future], future.result()


def run_shards_dask(
    client: Any, config_dict: dict[str, Any], out: Path, shards: list[int],
    progress: Callable[[int], None] | None = None,
) -> Iterator[Any]:
    """Submit the shards to ``client``'s cluster and yield each one's
    :class:`~.writer.ShardWritten` as it completes."""
    from .config import RunConfig
    from .writer import write_shard

    config = RunConfig.from_dict(config_dict)
    client.run(_warm, config_dict)  # each worker loads or compiles the kernels once
    key = run_key(config_dict)
    tasks = [(config_dict, str(out), s, None) for s in shards]
    keys = [f"mighty-sim-{key}-shard-{s:05d}" for s in shards]
    for (_, _, shard, _), written in map_dask(client, write_shard, tasks, keys):
        if progress is not None:
            progress(config.shard_range(shard)[1] * config.units_per_game)
        yield written
