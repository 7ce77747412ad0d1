"""Every way a user can hand the command bad input, table by table: damaged shards and run
files, foreign files under --overwrite, absurd sizes, values out of range, cards outside
the deck, outputs that cannot be written, incomplete and incomparable runs.

Each case asserts the exit code (2, or 130 for Ctrl-C), exactly one line on stderr that
names the file or argument, no traceback, and the file system afterwards: nothing
half-written, nothing deleted that the command did not write.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import click
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import cpu_seconds

from mighty_sim.cli.commands import main
from mighty_sim.dataset.integrity import shard_path
from mighty_sim.dataset.schema import SCHEMA_VERSION

RUN_ARGS = ["--deals", "1500", "--seed", "5", "--shard-games", "500", "--workers", "1"]


def cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root``: size and modification time, by relative path."""
    if not root.exists():
        return {}
    return {p.relative_to(root).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(root.rglob("*")) if p.is_file()}


def assert_one_line_error(code: int, err: str, *needles: str, exit_code: int = 2) -> None:
    assert code == exit_code, err
    assert err.count("\n") == 1 and err.startswith("mighty-sim: error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Two complete standard runs (three shards each) and a russian-6p one, made once."""
    root = tmp_path_factory.mktemp("runs")
    made = {}
    for name, extra in [("good", ["--tricks"]), ("other", []),
                        ("six", ["--profile", "russian-6p", "--deals", "300"])]:
        args = ["simulate", *RUN_ARGS, *extra, "--out", str(root / name)]
        code, _, err = cli(*args)
        assert code == 0, err
        made[name] = root / name
    return made


def copy_run(runs: dict[str, Path], tmp_path: Path, name: str = "good") -> Path:
    out = tmp_path / name
    shutil.copytree(runs[name], out)
    return out


# -- 1. damaged datasets -------------------------------------------------------------------


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:1000])


def random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(path.stat().st_size))


def empty_run_file(run: Path) -> None:
    (run / "_run.json").write_text("{}")


def not_json_run_file(run: Path) -> None:
    (run / "_run.json").write_text("{not json")


def no_deals_folder(run: Path) -> None:
    shutil.rmtree(run / "deals")


def older_schema(run: Path) -> None:
    data = json.loads((run / "_run.json").read_text())
    data["config"]["schema_version"] = SCHEMA_VERSION - 1
    (run / "_run.json").write_text(json.dumps(data))


READERS: list[tuple[str, Callable[[Path, Path], list[str]]]] = [
    ("analyze", lambda run, tmp: ["analyze", str(run)]),
    ("report", lambda run, tmp: ["report", str(run), "--out", str(tmp / "report")]),
    ("compare", lambda run, tmp: ["compare", str(run), str(run)]),
    ("show", lambda run, tmp: ["show", str(run), "--deal", str(600 << 16)]),  # shard 1
]


@pytest.mark.parametrize("damage", [truncate, random_bytes], ids=["truncated", "random"])
@pytest.mark.parametrize("reader", READERS, ids=[r[0] for r in READERS])
def test_damaged_shard_is_named(runs: dict[str, Path], tmp_path: Path,
                                damage: Callable[[Path], None],
                                reader: tuple[str, Callable[[Path, Path], list[str]]]) -> None:
    run = copy_run(runs, tmp_path)
    bad = shard_path(run, "deals", 1)
    damage(bad)
    before = snapshot(tmp_path)
    code, _, err = cli(*reader[1](run, tmp_path))
    assert_one_line_error(code, err, str(bad), "--resume")
    assert snapshot(tmp_path) == before


def test_show_reads_healthy_shards_beside_a_damaged_one(runs: dict[str, Path],
                                                        tmp_path: Path) -> None:
    run = copy_run(runs, tmp_path)
    random_bytes(shard_path(run, "deals", 1))
    code, text, err = cli("show", str(run), "--deal", str(100 << 16))  # shard 0
    assert code == 0, err
    assert f"deal {100 << 16}: game 100" in text


@pytest.mark.parametrize("damage", [empty_run_file, not_json_run_file, no_deals_folder,
                                    older_schema],
                         ids=["empty-object", "not-json", "no-deals", "older-schema"])
@pytest.mark.parametrize("reader", READERS, ids=[r[0] for r in READERS])
def test_damaged_run_is_named(runs: dict[str, Path], tmp_path: Path,
                              damage: Callable[[Path], None],
                              reader: tuple[str, Callable[[Path, Path], list[str]]]) -> None:
    run = copy_run(runs, tmp_path)
    damage(run)
    before = snapshot(tmp_path)
    code, _, err = cli(*reader[1](run, tmp_path))
    named = {no_deals_folder: "incomplete run",
             older_schema: f"schema {SCHEMA_VERSION - 1}"}.get(damage, "_run.json")
    assert_one_line_error(code, err, str(run), named)
    assert snapshot(tmp_path) == before


def test_resume_replays_a_damaged_shard(runs: dict[str, Path], tmp_path: Path) -> None:
    run = copy_run(runs, tmp_path)
    bad = shard_path(run, "tricks", 2)
    truncate(bad)
    code, text, err = cli("simulate", *RUN_ARGS, "--tricks", "--out", str(run), "--resume")
    assert code == 0, err
    assert "1 damaged shards played again" in text
    for table in ("deals", "tricks"):
        for s in range(3):
            fresh = pq.read_table(shard_path(run, table, s))
            assert fresh.equals(pq.read_table(shard_path(runs["good"], table, s)))
    code, _, err = cli("analyze", str(run))
    assert code == 0, err


# -- 2. --overwrite deletes only what the tool wrote ----------------------------------------


def test_overwrite_refuses_a_folder_of_foreign_files(tmp_path: Path) -> None:
    out = tmp_path / "mine"
    (out / "deals").mkdir(parents=True)
    (out / "tricks").mkdir()
    (out / "deals" / "mydata.txt").write_text("keep me")
    (out / "tricks" / "notes.txt").write_text("keep me too")
    before = snapshot(out)
    for extra in ([], ["--overwrite"]):
        code, _, err = cli("simulate", *RUN_ARGS, "--out", str(out), *extra)
        assert_one_line_error(code, err, str(out), "holds no run")
        assert "--overwrite" not in err
        assert snapshot(out) == before


def test_overwrite_keeps_foreign_files_inside_a_run(runs: dict[str, Path],
                                                   tmp_path: Path) -> None:
    run = copy_run(runs, tmp_path)
    foreign = run / "deals" / "shard=00000" / "mine.parquet.txt"
    foreign.write_text("mine")
    before = snapshot(run)
    code, _, err = cli("simulate", *RUN_ARGS, "--out", str(run), "--overwrite")
    assert_one_line_error(code, err, str(foreign), "not written by mighty-sim")
    assert snapshot(run) == before
    foreign.unlink()
    (run / "notes.md").write_text("beside the run, not in it")
    code, _, err = cli("simulate", *RUN_ARGS, "--out", str(run), "--overwrite")
    assert code == 0, err
    assert (run / "notes.md").read_text() == "beside the run, not in it"
    assert not (run / "tricks").exists()  # the old run's tricks went with it


# -- 3, 4, 5. absurd sizes, values out of range, cards outside the deck ---------------------


def toml(tmp_path: Path, line: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(f'extends = "standard"\n{line}\n')
    return str(path)


BAD_SIMULATE: list[tuple[str, list[str], str]] = [
    ("huge-deals", ["--deals", "1000000000000"], "deals"),
    ("many-workers", ["--deals", "100", "--workers", "1000"], "workers"),
    ("aggr-nan", ["--deals", "100", "--aggressiveness", "nan"], "aggressiveness"),
    ("aggr-inf", ["--deals", "100", "--aggressiveness", "inf"], "--aggressiveness"),
    ("aggr-low", ["--deals", "100", "--aggressiveness", "-25"], "--aggressiveness"),
    ("aggr-high", ["--deals", "100", "--aggressiveness", "25"], "--aggressiveness"),
    ("aggr-sum", ["--deals", "100", "--players", "heuristic:8", "--aggressiveness", "5"],
     "aggressiveness"),
    ("player-aggr", ["--deals", "100", "--players", "heuristic:-20"], "heuristic:-20"),
    ("nobody-bids", ["--deals", "100", "--players", "heuristic:-9"], "did not end"),
    ("huge-ledger", ["--deals", "10", "--ledger", "100000000"], "ledger"),
    ("zero-shards", ["--deals", "10", "--shard-games", "0"], "shard_games"),
    ("negative-seed", ["--deals", "10", "--seed", "-1"], "seed"),
]


@pytest.mark.parametrize("args,needle", [c[1:] for c in BAD_SIMULATE],
                         ids=[c[0] for c in BAD_SIMULATE])
def test_bad_simulate_values_write_nothing(tmp_path: Path, args: list[str],
                                           needle: str) -> None:
    out = tmp_path / "run"
    code, _, err = cli("simulate", *args, "--out", str(out))
    assert_one_line_error(code, err, needle)
    assert not out.exists()


@pytest.mark.parametrize("line,needle", [
    ('mighty = "3C"', "mighty: 3C is also the hunter"),
    ("rank_gap_after_blind = 0", "rank_gap_after_blind"),
    ("ledger_target = -5", "ledger_target"),
    ("weak_ten = inf", "weak_ten"),
    ("friend_share = nan", "friend_share"),
])
def test_bad_profile_fields_are_named(tmp_path: Path, line: str, needle: str) -> None:
    path = toml(tmp_path, line)
    for args in (["rules", "show", path], ["simulate", "--deals", "10", "--profile", path,
                                           "--out", str(tmp_path / "run")]):
        code, _, err = cli(*args)
        assert_one_line_error(code, err, needle)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("args,needle", [
    (["--profile", "russian-3p", "--hand", "AS KS QS JS 10S 9S 8S 7S AH KH",
      "--blind", "2C 3C 4C"], "blind: 4C 3C 2C not in the russian-3p deck"),
    (["--profile", "ucla-4p", "--hand", "2C AS KS QS JS 10S 9S 8S 7S AH"],
     "hand: 2C not in the ucla-4p deck"),
    (["--hand", "AS KS QS"], "got 3: AS KS QS"),
    (["--hand", "AS KS QS JS 10S 9S 8S 7S AH KH", "--samples", "0"], "--samples"),
])
@pytest.mark.parametrize("play", ["players", "double-dummy"])
def test_odds_cards_outside_the_deck(args: list[str], needle: str, play: str,
                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """One line, also where the kernels are not compiled yet: the input is checked before
    the command says that it compiles."""
    from mighty_sim import kernels

    monkeypatch.setattr(kernels, "cache_dir", lambda: tmp_path)  # an empty cache
    code, _, err = cli("odds", *args, "--play", play)
    assert_one_line_error(code, err, needle)


# -- 6. outputs that cannot be written ------------------------------------------------------


def test_unwritable_outputs(runs: dict[str, Path], tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, _, err = cli("report", str(runs["good"]), "--out", str(blocker / "report"))
    assert_one_line_error(code, err, str(blocker / "report"))
    code, _, err = cli("simulate", "--deals", "10", "--out", str(blocker / "run"))
    assert_one_line_error(code, err, str(blocker / "run"))
    run = copy_run(runs, tmp_path)
    shutil.rmtree(run / "deals" / "shard=00001")
    (run / "deals" / "shard=00001").write_text("in the way")
    code, _, err = cli("simulate", *RUN_ARGS, "--tricks", "--out", str(run), "--resume")
    assert_one_line_error(code, err, "shard=00001", "--resume")
    assert list(tmp_path.rglob("*.tmp")) == []


def test_a_report_that_cannot_be_written_leaves_no_temporary_file(runs: dict[str, Path],
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "report"
    (out / "report.html").mkdir(parents=True)  # a folder where the page goes
    code, _, err = cli("report", str(runs["good"]), "--out", str(out))
    assert_one_line_error(code, err, "report.html")
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert (out / "report.html").is_dir()  # what was there is left as it was


def _limit_file_size() -> None:  # runs in the child: a 'full disk' at 100 kB a file
    resource.setrlimit(resource.RLIMIT_FSIZE, (100_000, 100_000))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_full_disk_leaves_no_partial_file(tmp_path: Path, workers: str) -> None:
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "20000", "--shard-games",
         "5000", "--workers", workers, "--out", str(out)],
        capture_output=True, text=True, preexec_fn=_limit_file_size, check=False)
    assert_one_line_error(proc.returncode, proc.stderr, "cannot write", "File too large",
                          "--resume")
    assert not [p for p in out.rglob("*") if p.is_file() and p.name != "_run.json"]


def test_unreachable_cluster_writes_nothing(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "run"
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    proc = subprocess.run(
        [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "10", "--executor",
         "dask", "--address", "tcp://127.0.0.1:9", "--out", str(out)],
        capture_output=True, text=True, env=env, check=False)
    assert_one_line_error(proc.returncode, proc.stderr, "cannot reach the Dask cluster")
    assert not out.exists()


def test_ctrl_c_exits_130_and_resume_finishes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["simulate", "--deals", "600000", "--shard-games", "100000", "--workers", "2",
            "--seed", "2", "--out", str(out)]
    proc = subprocess.Popen([sys.executable, "-m", "mighty_sim", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and not list(out.glob("deals/shard=*/.*.tmp")):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert_one_line_error(proc.returncode, err, "interrupted", "--resume", exit_code=130)
    for done in out.glob("deals/shard=*/part-0.parquet"):  # whatever was renamed is whole
        assert pq.read_metadata(done).num_rows > 0
    code, _, err = cli("analyze", str(out))
    assert_one_line_error(code, err, "incomplete run", "--resume")
    code, _, err = cli(*args, "--resume")
    assert code == 0, err
    assert list(out.rglob("*.tmp")) == []
    code, _, err = cli("analyze", str(out))
    assert code == 0, err


# -- 7. incomplete and incomparable runs ----------------------------------------------------


@pytest.mark.parametrize("reader", READERS[:3], ids=[r[0] for r in READERS[:3]])
def test_incomplete_run_is_refused(runs: dict[str, Path], tmp_path: Path,
                                   reader: tuple[str, Callable[[Path, Path], list[str]]]) -> None:
    run = copy_run(runs, tmp_path)
    shard_path(run, "deals", 2).unlink()
    code, _, err = cli(*reader[1](run, tmp_path))
    assert_one_line_error(code, err, "incomplete run", "1,000 of 1,500 games", "--resume")
    assert not (tmp_path / "report").exists()


def test_incomparable_runs_and_profiles(runs: dict[str, Path]) -> None:
    code, _, err = cli("compare", str(runs["good"]), str(runs["six"]))
    assert_one_line_error(code, err, "cannot be compared", "5 players against 6")
    code, _, err = cli("compare", "--profile", "standard", "--profile", "ucla-5p",
                       "--deals", "100")
    assert_one_line_error(code, err, "cannot be compared", "points against tricks")


def test_compare_says_how_it_paired(runs: dict[str, Path]) -> None:
    code, text, err = cli("compare", str(runs["good"]), str(runs["other"]))
    assert code == 0, err
    assert "intervals: paired by game" in text
    code, text, err = cli("compare", str(runs["good"]), str(runs["good"]), "--format", "csv")
    assert code == 0 and "paired by game" in text


# -- 8. smaller ones --------------------------------------------------------------------------


def test_resume_names_what_differs_and_needs_a_run(runs: dict[str, Path],
                                                   tmp_path: Path) -> None:
    run = copy_run(runs, tmp_path)
    before = snapshot(run)
    args = [a if a != "5" else "6" for a in RUN_ARGS]  # another seed
    code, _, err = cli("simulate", *args, "--tricks", "--out", str(run), "--resume")
    assert_one_line_error(code, err, "--seed (the run has 5, now 6)")
    assert snapshot(run) == before
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = cli("simulate", *RUN_ARGS, "--out", str(empty), "--resume")
    assert_one_line_error(code, err, "holds no run to resume")
    assert list(empty.iterdir()) == []


def test_odds_advises_pass_when_every_contract_loses() -> None:
    code, text, err = cli("odds", "--hand", "2C 3C 4C 5C 6C 2D 3D 4D 5D 6D", "--samples", "300")
    assert code == 0, err
    assert text.splitlines()[-1].startswith("pass: every contract loses")
    code, text, _ = cli("odds", "--hand", "AS JK AH KH QH JH 10H AD AC 2S", "--samples", "300")
    assert text.splitlines()[-1].startswith("best contract by expected payout")


def _commands(group: click.Group) -> list[click.Command]:
    out: list[click.Command] = []
    for cmd in group.commands.values():
        out += _commands(cmd) if isinstance(cmd, click.Group) else [cmd]
    return out


def test_every_option_explains_itself() -> None:
    missing = [f"{cmd.name} {p.opts[0]}" for cmd in _commands(main) for p in cmd.params
               if isinstance(p, click.Option) and not p.help]
    assert missing == []
    code, text, _ = cli("show", "--help")
    assert code == 0 and "65536" in text


def test_resume_ignores_a_reworded_profile_description(runs: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """Only rules make runs differ: a run whose profile description has since been
    reworded resumes (a name or rule change is refused above)."""
    run = copy_run(runs, tmp_path)
    data = json.loads((run / "_run.json").read_text())
    data["config"]["profile"]["description"] = "worded otherwise"
    (run / "_run.json").write_text(json.dumps(data))
    code, text, err = cli("simulate", *RUN_ARGS, "--tricks", "--out", str(run), "--resume")
    assert code == 0, err
    assert "3 shards already there" in text


# -- data you can trust: one case for each way a run could hold wrong data or lose it -------


def _run_with(tmp_path: Path, name: str, *extra: str) -> Path:
    out = tmp_path / name
    code, _, err = cli("simulate", *RUN_ARGS, *extra, "--out", str(out))
    assert code == 0, err
    return out


@pytest.mark.parametrize("donor_args", [["--shard-games", "250"], ["--players", "random"]],
                         ids=["other-shard-size", "other-players"])
def test_another_runs_shard_is_refused_and_replayed(runs: dict[str, Path], tmp_path: Path,
                                                    donor_args: list[str]) -> None:
    """(1) A shard of another run (same seed: other shard size, other players) copied into
    a run is named by every reader, and --resume replays it to the run's own rows."""
    run = copy_run(runs, tmp_path, "other")
    donor = _run_with(tmp_path, "donor", *donor_args)
    bad = shard_path(run, "deals", 1)
    shutil.copy(shard_path(donor, "deals", 1), bad)
    for reader in READERS[:2]:
        code, _, err = cli(*reader[1](run, tmp_path))
        assert_one_line_error(code, err, str(bad), "another", "--resume")
    code, text, err = cli("simulate", *RUN_ARGS, "--out", str(run), "--resume")
    assert code == 0 and "1 damaged shards played again" in text, err
    assert pq.read_table(bad).equals(pq.read_table(shard_path(runs["other"], "deals", 1)))


def test_a_flipped_byte_is_named_and_replayed(runs: dict[str, Path], tmp_path: Path) -> None:
    """(2) One byte flipped in a data page: every reader names the file (no panic, no
    changed figure), and --resume replays it."""
    run = copy_run(runs, tmp_path)
    bad = shard_path(run, "deals", 2)
    data = bytearray(bad.read_bytes())
    data[len(data) // 2] ^= 0x10
    bad.write_bytes(bytes(data))
    for reader in READERS:
        code, _, err = cli(*reader[1](run, tmp_path))
        if reader[0] == "show":  # the deal asked for lies in shard 1, which is whole
            assert code == 0, err
            continue
        assert_one_line_error(code, err, str(bad), "bytes differ", "--resume")
    code, text, err = cli("simulate", *RUN_ARGS, "--tricks", "--out", str(run), "--resume")
    assert code == 0 and "1 damaged shards played again" in text, err


def test_every_single_byte_flip_is_detected(runs: dict[str, Path], tmp_path: Path) -> None:
    """(2) 200 random single-byte flips across a run's shard files, one at a time: each is
    detected by name (the file's SHA-256 in the run's manifest); none is harmless."""
    import random

    from mighty_sim.dataset.integrity import inspect_run

    run = copy_run(runs, tmp_path)
    files = [shard_path(run, t, s) for t in ("deals", "tricks") for s in range(3)]
    rng = random.Random(63)
    detected = 0
    for _ in range(200):
        path = rng.choice(files)
        original = path.read_bytes()
        data = bytearray(original)
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        state = inspect_run(run)
        detected += state.damaged == (path,)
        path.write_bytes(original)
    assert detected == 200
    assert inspect_run(run).damaged == ()


def test_overwrite_checks_everything_before_it_deletes(runs: dict[str, Path], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """(3) A folder of the run that cannot be written (as for a user without the right,
    here told by os.access) is named before any file is deleted."""
    run = copy_run(runs, tmp_path)
    locked = run / "deals" / "shard=00002"
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: Path(p) != locked and real(
        p, mode, **kw))
    before = snapshot(run)
    code, _, err = cli("simulate", *RUN_ARGS, "--out", str(run), "--overwrite")
    assert_one_line_error(code, err, str(locked), "nothing was deleted")
    assert snapshot(run) == before


def test_overwrite_does_not_follow_a_link_out_of_the_run(runs: dict[str, Path],
                                                        tmp_path: Path) -> None:
    """(4) A run whose deals/ is a link to another run's: --overwrite refuses, and the other
    run keeps its shards."""
    victim = copy_run(runs, tmp_path, "other")
    run = copy_run(runs, tmp_path)
    shutil.rmtree(run / "deals")
    (run / "deals").symlink_to(victim / "deals")
    before = snapshot(victim)
    code, _, err = cli("simulate", *RUN_ARGS, "--out", str(run), "--overwrite")
    assert_one_line_error(code, err, str(run / "deals"), "link")
    assert snapshot(victim) == before


def test_a_second_writer_is_refused(runs: dict[str, Path], tmp_path: Path) -> None:
    """(5) Two simulate commands on one folder: the second is refused in one line naming
    the first's process, and the first completes with the rows of an uninterrupted run;
    a --resume while it writes is refused the same way (it deletes no temporary file)."""
    out = tmp_path / "shared"
    command = [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "400000",
               "--shard-games", "50000", "--workers", "1", "--out", str(out)]
    first = subprocess.Popen([*command, "--seed", "31"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    lock = out / ".mighty-sim.lock"
    try:
        deadline = time.monotonic() + 60
        while not (lock.exists() and lock.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert first.poll() is None, "the first writer ended before the second could start"
        for extra in (["--seed", "32"], ["--seed", "31", "--resume"]):
            second = subprocess.run([*command, *extra], capture_output=True, text=True,
                                    check=False)
            assert_one_line_error(second.returncode, second.stderr, str(out),
                                  f"process {first.pid}")
    finally:
        _, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    whole = tmp_path / "alone"
    code, _, err = cli("simulate", "--deals", "400000", "--seed", "31", "--shard-games",
                       "50000", "--workers", "1", "--out", str(whole))
    assert code == 0, err
    for s in range(8):
        assert pq.read_table(shard_path(out, "deals", s)).equals(
            pq.read_table(shard_path(whole, "deals", s)))
    assert not lock.exists()


@pytest.mark.parametrize("make", ["device", "fifo", "folder", "too-big"])
@pytest.mark.parametrize("use", ["profile", "player"])
def test_profile_and_player_files_are_bounded(tmp_path: Path, make: str, use: str) -> None:
    """(6) A profile or player file must be a regular file under 1 MiB: a device, a pipe
    or a folder is refused without reading it (reading /dev/zero or the pipe would not
    end)."""
    path = {"device": Path("/dev/zero"), "fifo": tmp_path / "pipe",
            "folder": tmp_path, "too-big": tmp_path / "big.toml"}[make]
    if make == "fifo":
        os.mkfifo(path)
    if make == "too-big":
        path.write_text("# " + "x" * (1 << 20) + "\n")
    args = (["rules", "show", str(path)] if use == "profile" else
            ["duel", "--players", f"heuristic@{path}", "--players", "heuristic", "--deals", "10"])
    code, _, err = cli(*args)
    assert_one_line_error(code, err, str(path))


def test_absurd_sizes_are_refused_at_once(runs: dict[str, Path], tmp_path: Path) -> None:
    """(7) Sizes that would loop over billions of shards are refused before any loop: on
    the command line, and in a run file."""
    code, _, err = cli("simulate", "--deals", "10000000000", "--shard-games", "1",
                       "--out", str(tmp_path / "huge"))
    assert_one_line_error(code, err, "shard_games", "at most 100,000")
    assert not (tmp_path / "huge").exists()
    run = copy_run(runs, tmp_path)
    data = json.loads((run / "_run.json").read_text())
    data["config"].update(games=10_000_000_000, deals=10_000_000_000, shard_games=1)
    (run / "_run.json").write_text(json.dumps(data))
    for reader in READERS[:1] + READERS[3:]:
        code, _, err = cli(*reader[1](run, tmp_path))
        assert_one_line_error(code, err, str(run / "_run.json"))


@pytest.mark.parametrize("content,needle", [
    (None, "no such file"),
    ("root:x:0:0:root:/root:/bin/bash\n", "not a Dask scheduler file"),
    ('{"address": 5}', "no scheduler address"),
], ids=["missing", "passwd", "address-5"])
def test_bad_scheduler_files_are_named(tmp_path: Path, content: str | None, needle: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """(7, 8) A scheduler file that is missing (waited for a stated time), not JSON, or
    without an address: one line naming it, nothing written."""
    pytest.importorskip("distributed")
    from mighty_sim.dataset import dask_cluster

    monkeypatch.setattr(dask_cluster, "SCHEDULER_WAIT", 1.0)
    path = tmp_path / "scheduler.json"
    if content is not None:
        path.write_text(content)
    out = tmp_path / "run"
    code, _, err = cli("simulate", *RUN_ARGS, "--executor", "dask", "--scheduler-file",
                       str(path), "--out", str(out))
    lines = [ln for ln in err.splitlines() if not ln.startswith("waiting up to")]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert str(path) in lines[0] and needle in lines[0]
    assert not out.exists()


def test_deeply_nested_toml_is_one_line(tmp_path: Path) -> None:
    """(8) 2,000 nested inline tables: one line, not 3,000 of recursion traceback."""
    deep = tmp_path / "deep.toml"
    deep.write_text('extends = "standard"\nx = ' + "{a = " * 2000 + "1" + "}" * 2000 + "\n")
    code, _, err = cli("rules", "show", str(deep))
    assert_one_line_error(code, err, str(deep), "nested too deeply")


def test_a_damaged_par_table_is_named_and_replaced(tmp_path: Path) -> None:
    """(9) A cut-short par.parquet: analyze names it and the way out; par itself writes
    the table again."""
    run = _run_with(tmp_path, "run")
    code, _, err = cli("par", str(run), "--deals", "30", "--from-trick", "8")
    assert code == 0, err
    table = run / "par.parquet"
    truncate(table)
    code, _, err = cli("analyze", str(run))
    assert_one_line_error(code, err, str(table), "damaged", f"mighty-sim par {run}")
    code, _, err = cli("par", str(run), "--deals", "30", "--from-trick", "8")
    assert code == 0, err
    code, text, err = cli("analyze", str(run))
    assert code == 0 and "card_play" in text, err


def test_sigterm_says_how_to_resume(tmp_path: Path) -> None:
    """(9) A simulate ended by SIGTERM (a batch job's end) says how to go on, in one line,
    with the signal's exit code; its workers end with it."""
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "mighty_sim", "simulate", "--deals",
                             "3000000", "--shard-games", "100000", "--workers", "2",
                             "--out", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(out.glob("deals/shard=*/part-0.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert_one_line_error(proc.returncode, err, "terminated", "--resume", exit_code=143)
    code, text, err = cli("simulate", "--deals", "3000000", "--shard-games", "100000",
                          "--out", str(out), "--resume", "--workers", "2")
    assert code == 0, err
    assert "shards already there" in text


def test_a_resume_with_nothing_to_do_claims_no_speed(runs: dict[str, Path],
                                                     tmp_path: Path) -> None:
    """(9) A resume of a complete run plays nothing and quotes no deals/s."""
    run = copy_run(runs, tmp_path)
    code, text, err = cli("simulate", *RUN_ARGS, "--tricks", "--out", str(run), "--resume")
    assert code == 0, err
    assert "3 shards already there" in text and "deals/s" not in text


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_in_odds_is_one_line() -> None:
    """(9) Ctrl-C in `odds`: one line and 130, no empty line before it, and at once while
    the compiled call runs (the kernels compiled first, so that it lands there)."""
    subprocess.run([sys.executable, "-m", "mighty_sim", "odds", "--hand",
                    "AS JK AH KH QH JH 10H AD AC 2S", "--samples", "10"],
                   capture_output=True, check=True, timeout=600)
    proc = subprocess.Popen([sys.executable, "-m", "mighty_sim", "odds", "--hand",
                             "AS JK AH KH QH JH 10H AD AC 2S", "--samples", "10000000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while cpu_seconds(proc.pid) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)  # polls until the command is at its work (imports take ~1 s)
    while proc.poll() is None and time.monotonic() < deadline:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            continue
    _, err = proc.communicate(timeout=30)
    assert_one_line_error(proc.returncode, err, "interrupted", exit_code=130)
    assert time.monotonic() < deadline - 50  # at once, not when the compiled call ends


def test_kill_9_leaves_no_warning_and_resume_finishes(tmp_path: Path) -> None:
    """(9) A simulate killed outright prints nothing more (multiprocessing's resource
    tracker, which frees the pool's semaphores, used to warn of them on the terminal);
    the run then says how to go on, and --resume finishes it."""
    out = tmp_path / "run"
    command = [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "3000000",
               "--shard-games", "100000", "--workers", "2", "--out", str(out)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not list(out.glob("deals/shard=*/part-0.parquet")) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=60)  # every holder of its standard error gone
    assert proc.returncode == -signal.SIGKILL and err == "", err
    again = subprocess.run(command, capture_output=True, text=True, check=False)
    assert_one_line_error(again.returncode, again.stderr, str(out), "--resume")
    done = subprocess.run([*command, "--resume"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "shards already there" in done.stdout, done.stderr
