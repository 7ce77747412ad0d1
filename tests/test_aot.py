"""The ahead-of-time compiled batch kernel: the JIT kernel's rows, and runs without Numba."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mighty_sim.engine.batch as engine
from mighty_sim import kernels
from mighty_sim.engine import aot
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.rules.profile import BUILTIN_PROFILES, RuleProfile, load_profile


@pytest.fixture(scope="module")
def compiled() -> Callable[..., Any]:
    """The compiled kernel of the current sources: the one `make` built, or built now
    into the same place (what `mighty-sim compile` does)."""
    kernel = aot.load()
    if kernel is None:
        aot.build()
        kernel = aot.load()
    assert kernel is not None
    return kernel


def _batches(kernel: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, profile_name: str,
             players: str, **kw: Any) -> engine.Batch:
    monkeypatch.setattr(engine, "games_kernel", lambda: kernel)
    profile = load_profile(profile_name)
    return play_batch(profile, seed=11, game_start=5, players=parse_players(players,
                      profile.players), **kw)


def _lineups(profile: RuleProfile) -> list[str]:
    pimc = "pimc:worlds=3:rollouts=1" if profile.deck_copies == 1 else "heuristic:-2"
    mixed = ["random", "heuristic:3", pimc, "heuristic", "random", "heuristic", "random",
             "heuristic"][:profile.players]
    return ["heuristic", "random", ",".join(mixed)]


@pytest.mark.parametrize("profile_name", sorted(BUILTIN_PROFILES))
def test_compiled_kernel_writes_the_jit_kernels_rows(
        compiled: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, profile_name: str,
) -> None:
    """Every built-in profile, both policies and a mixed table (with a PIMC player where
    the deck is single), tricks recorded, in ledgers and played to a target: every column
    of every row and trick is equal."""
    from mighty_sim.kernels.loop.games_nb import play_games_nb

    assert compiled is not play_games_nb
    profile = load_profile(profile_name)
    runs: list[dict[str, Any]] = [
        {"players": p, "games": 150, "record_tricks": True}
        for p in _lineups(profile)
    ]
    runs.append({"players": "heuristic", "games": 40, "ledger": 4})
    if profile.ledger_target > 0:
        runs.append({"players": "random", "games": 3, "ledger": 500, "to_target": True})
    for kw in runs:
        a = _batches(play_games_nb, monkeypatch, profile_name, **kw)
        b = _batches(compiled, monkeypatch, profile_name, **kw)
        assert a.games == b.games == kw["games"]
        for name in ("rg", "ri", "ru", "rf", "rw", "rh", "ti"):
            x, y = getattr(a, name), getattr(b, name)
            assert x.shape == y.shape and np.array_equal(x, y), (kw, name)
        played = int(a.played().sum())  # every game's deals, and their tricks
        if not kw.get("to_target"):
            assert played == kw["games"] * kw.get("ledger", 1), kw
        assert len(a.ti) == (played * profile.tricks if kw.get("record_tricks") else 0), kw


def test_play_batch_takes_the_compiled_kernel_unless_switched_off(
        compiled: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from mighty_sim.kernels.loop.games_nb import play_games_nb

    assert aot.games_kernel() is compiled
    monkeypatch.setenv(aot.ENV_SWITCH, "0")
    aot.load.cache_clear()
    try:
        assert aot.games_kernel() is play_games_nb
    finally:
        monkeypatch.delenv(aot.ENV_SWITCH)
        aot.load.cache_clear()
    assert aot.games_kernel() is compiled


def test_a_module_built_for_other_sources_is_not_loaded(
        compiled: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """The module's name carries a key of the kernel sources (as well as the versions and
    the CPU): after an edit to a kernel the key changes, the old module is not found and
    runs take the JIT kernel."""
    key = aot.kernel_key()
    assert aot.module_path().is_file()
    monkeypatch.setattr(aot, "sources_key", lambda: "an edited kernel")
    aot.kernel_key.cache_clear()
    aot.load.cache_clear()
    try:
        assert aot.kernel_key() != key
        assert not aot.module_path().is_file()
        assert aot.load() is None
    finally:
        monkeypatch.undo()
        aot.kernel_key.cache_clear()
        aot.load.cache_clear()
    assert aot.kernel_key() == key and aot.load() is not None


_SMALL_RUN = """
import sys
from mighty_sim.cli.commands import main
main(["simulate", "--deals", "300", "--seed", "4", "--workers", "1", "--out", sys.argv[1],
      "--overwrite"], standalone_mode=False)
print("numba" in sys.modules)
"""


def test_a_small_run_does_not_load_numba(compiled: Callable[..., Any], tmp_path: Path) -> None:
    """With the compiled module a whole `simulate` runs without importing Numba (the
    second most of a small run's time); switched off, the same run loads it and writes
    the same rows."""
    import pyarrow.parquet as pq

    def small_run(out: Path, **env: str) -> str:
        import os

        proc = subprocess.run([sys.executable, "-c", _SMALL_RUN, str(out)],
                              capture_output=True, text=True, check=True,
                              env={**os.environ, **env})
        return proc.stdout.strip().splitlines()[-1]

    assert small_run(tmp_path / "aot") == "False"
    assert small_run(tmp_path / "jit", **{aot.ENV_SWITCH: "0"}) == "True"
    a = pq.read_table(tmp_path / "aot" / "deals").sort_by("deal_id")
    b = pq.read_table(tmp_path / "jit" / "deals").sort_by("deal_id")
    assert a.num_rows >= 300 and a.equals(b)


def test_kernel_ready_says_whether_a_run_compiles_first(
        compiled: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`simulate` tells the user when its first minute goes to compiling: neither the
    compiled module nor a Numba cache entry of the JIT kernel is there."""
    assert aot.kernel_ready()
    monkeypatch.setenv(aot.ENV_SWITCH, "0")
    aot.load.cache_clear()
    try:
        # the JIT kernel, once run, is found by the name Numba gives its cache entry
        play_batch(load_profile("standard"), seed=1, game_start=0, games=2,
                   players=parse_players("random", 5))
        assert aot.kernel_ready()
        monkeypatch.setattr(kernels, "cache_dir", lambda: tmp_path)  # is_cached looks there
        assert not aot.kernel_ready()
        entry = tmp_path / "kernels_0" / "games_nb.play_games_nb-43.py311.nbi"
        entry.parent.mkdir()
        entry.write_bytes(b"")
        assert aot.kernel_ready()
    finally:
        monkeypatch.undo()
        aot.load.cache_clear()
