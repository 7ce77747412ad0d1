"""The command line: profiles, verification, errors as one line with exit code 2."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from mighty_sim.cli import commands
from mighty_sim.cli.commands import main
from mighty_sim.rules.profile import load_profile


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_rules_list() -> None:
    code, out, _ = run("rules", "list")
    assert code == 0
    assert out.splitlines()[0].startswith("standard")
    assert load_profile("standard").fingerprint() in out


def test_rules_show_resolved_profile_and_fingerprint(tmp_path: Path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text('extends = "standard"\nback_run_threshold = 8\n')
    code, out, _ = run("rules", "show", str(f), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["profile"]["back_run_threshold"] == 8
    assert data["profile"]["name"] == "mine"
    assert data["fingerprint"] == load_profile(str(f)).fingerprint()
    code, out, _ = run("rules", "show", "standard")
    assert code == 0 and "hunter = \"3C\"" in out


def test_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    code, out, err = run("rules", "show", "nope")
    assert code == 2 and err.count("\n") == 1 and "unknown profile" in err
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "standard"\nplayers = 2\n')
    code, _, err = run("rules", "show", str(bad))
    assert code == 2 and err.startswith("mighty-sim: error: players:")
    code, _, err = run("verify", "--deals", "-5")
    assert code == 2 and "Traceback" not in err


def test_verify_small() -> None:
    code, out, _ = run("verify", "--deals", "50", "--seed", "4")
    assert code == 0 and "0 mismatches" in out


def test_python_dash_m() -> None:
    proc = subprocess.run([sys.executable, "-m", "mighty_sim", "--help"], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0 and "rules" in proc.stdout and "verify" in proc.stdout


def test_help_and_a_bad_profile_do_not_load_the_kernels() -> None:
    """``--help``, a command's help and an unknown profile answer without importing Numba
    (about 0.6 s before the first kernel call); the oracle's names still import."""
    code = ("import sys\n"
            "from click.testing import CliRunner\n"
            "from mighty_sim.cli import main\n"
            "for args in (['--help'], ['simulate', '--help'], ['analyze', '--help'],\n"
            "             ['simulate', '--profile', 'nope', '--out', 'x']):\n"
            "    r = CliRunner().invoke(main, args)\n"
            "    print(r.exit_code, end=' ')\n"
            "print('numba' in sys.modules)\n"
            "from mighty_sim import settle\n"
            "print('numba' in sys.modules, settle.__module__)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert proc.stdout.split("\n")[:2] == ["0 0 0 2 False", "True mighty_sim.engine.oracle"]


def test_the_command_exits_promptly_with_its_code_and_all_its_output() -> None:
    """`python -m mighty_sim` ends with os._exit after flushing: the output must be whole
    (a large JSON document piped out) and the exit codes those of the command."""
    cmd = [sys.executable, "-m", "mighty_sim"]
    ok = subprocess.run([*cmd, "rules", "show", "ucla-5p", "--format", "json"],
                        capture_output=True, text=True, check=False)
    assert ok.returncode == 0 and json.loads(ok.stdout)["profile"]["name"] == "ucla-5p"
    bad = subprocess.run([*cmd, "odds", "--hand", "ZZ"], capture_output=True, text=True,
                         check=False)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "not a card" in bad.stderr
    usage = subprocess.run([*cmd, "no-such-command"], capture_output=True, text=True,
                           check=False)
    assert usage.returncode == 2 and "No such command" in usage.stderr


def test_progress_lines_when_standard_error_is_not_a_terminal(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A run in the background writes a line a minute (here: at every advance), the
    time left at this run's pace from its first advance on (neither the deals an
    earlier run kept nor the start-up before the first are in it), and a last line
    when done."""
    with commands._progress("par", 5) as advance:  # a short run: no line at all
        advance(5)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(commands, "LOG_EVERY", 0.0)
    with commands._progress("par", 6) as advance:
        advance(2, kept=True)  # kept from an earlier run: no pace
        advance(1)  # this run's first: its start-up, no pace yet
        advance(1)
        advance(2)
    lines = capsys.readouterr().err.splitlines()
    assert lines[:2] == ["par: 2/6 deals, 0:00:00", "par: 3/6 deals, 0:00:00"]
    assert re.fullmatch(r"par: 4/6 deals, 0:00:00, about 0:00:0\d left", lines[2])
    assert lines[3:] == ["par: 6/6 deals, 0:00:00"]
