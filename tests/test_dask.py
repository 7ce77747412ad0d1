"""The Dask executor: a local Dask cluster gives the rows of a local run."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from conftest import STANDARD

from mighty_sim.cli.commands import main
from mighty_sim.dataset.config import RunConfig
from mighty_sim.dataset.integrity import PAR_PARTS, remove_par_parts
from mighty_sim.dataset.runner import run_simulation
from mighty_sim.engine.players import parse_players

pytest.importorskip("distributed")


def _rows(out: Path, table: str) -> pl.DataFrame:
    return pl.scan_parquet(out / table / "**" / "*.parquet").collect().sort(
        "deal_id", *(["trick"] if table == "tricks" else []))


def test_dask_local_cluster_gives_the_rows_of_a_local_run(tmp_path: Path) -> None:
    config = RunConfig(STANDARD, deals=6000, seed=17, players=parse_players("heuristic", 5),
                       ledger=2, tricks=True, shard_games=1000)
    seen: list[int] = []
    result = run_simulation(config, tmp_path / "dask", workers=2, executor="dask",
                            progress=seen.append)
    run_simulation(config, tmp_path / "local", workers=1)
    assert result.stats.played == 6000 and sum(seen) == 6000  # progress from finished tasks
    for table in ("deals", "tricks"):
        a, b = _rows(tmp_path / "dask", table), _rows(tmp_path / "local", table)
        assert a.height > 0 and a.equals(b)
    assert not list((tmp_path / "dask").rglob(".*.tmp"))


def test_address_needs_the_dask_executor(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["simulate", "--deals", "10", "--out", str(tmp_path / "x"),
                                  "--address", "tcp://127.0.0.1:1"])
    assert r.exit_code == 2 and "--executor dask" in r.stderr


def test_par_on_a_dask_cluster_gives_the_table_of_a_local_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    run_simulation(RunConfig(STANDARD, deals=300, seed=3, players=parse_players("heuristic", 5)),
                   out, workers=1)
    args = ["par", str(out), "--deals", "300", "--from-trick", "7"]
    r = CliRunner().invoke(main, [*args, "--workers", "1"])
    assert r.exit_code == 0, r.output
    local = pl.read_parquet(out / "par.parquet")
    remove_par_parts(out)  # the dask run below solves every chunk
    assert not (out / PAR_PARTS).exists()
    r = CliRunner().invoke(main, [*args, "--executor", "dask", "--workers", "2"])
    assert r.exit_code == 0, r.output
    dask = pl.read_parquet(out / "par.parquet")
    assert dask.drop("seconds").equals(local.drop("seconds")) and local.height == 300
