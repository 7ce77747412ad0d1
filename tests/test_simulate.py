"""The batch simulator: kernel vs reference, determinism, resume, datasets, errors."""

from __future__ import annotations

import gc
import json
import math
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from conftest import STANDARD

from mighty_sim.analysis.tables import seat_lists
from mighty_sim.cli.commands import main
from mighty_sim.dataset import config, heap, writer
from mighty_sim.dataset.config import RunConfig
from mighty_sim.dataset.integrity import shard_path
from mighty_sim.dataset.runner import run_simulation
from mighty_sim.dataset.schema import deals_table, tricks_table
from mighty_sim.dataset.shards import balanced_shard_games, deals_per_game
from mighty_sim.engine.batch import OUTCOMES, Batch, play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.reference import RandomPlayer, play_ledger
from mighty_sim.rules.cards import parse_cards, points_in
from mighty_sim.rules.profile import load_profile

RANDOM = parse_players("random", 5)
HEURISTIC = parse_players("heuristic", 5)


def scan(out: Path, table: str = "deals") -> pl.DataFrame:
    lazy = pl.scan_parquet(out / table / "**" / "*.parquet", hive_partitioning=True)
    if table == "deals":
        lazy = seat_lists(lazy)
    return lazy.drop("shard").collect().sort("deal_id", *(["trick"] if table == "tricks"
                                                          else []))


def _name(bit: int) -> str:
    from mighty_sim.rules.cards import card_name

    return card_name(bit)


@pytest.mark.parametrize("players", [RANDOM, HEURISTIC])
def test_every_row_keeps_the_invariants(players: tuple) -> None:  # type: ignore[type-arg]
    batch = play_batch(STANDARD, seed=5, game_start=0, games=3000, players=players, ledger=2,
                       record_tricks=True)
    deals = deals_table(batch, 5).to_pylist()
    tricks: dict[int, list[dict]] = {}  # type: ignore[type-arg]
    for t in tricks_table(batch, 5).to_pylist():
        tricks.setdefault(t["deal_id"], []).append(t)
    deck = STANDARD.deck_mask
    for d in deals:
        hands = d["hands"]
        union = d["blind"]
        for h in hands:
            assert h & union == 0 and h.bit_count() == 10
            union |= h
        assert union == deck
        if d["outcome"] != "played":
            assert d["payouts"] == [0.0] * 5 and d["success"] is None
            continue
        declarer = d["declarer"]
        assert d["discards"] & ~(hands[declarer] | d["blind"]) == 0
        assert d["discards"].bit_count() == 3
        ts = tricks[d["deal_id"]]
        played = [parse_cards(c) for t in ts for c in t["cards"]]
        assert sum(played) | d["discards"] == deck and len(set(played)) == 50
        assert sum(t["points"] for t in ts) + points_in(d["discards"]) == 20
        side = {declarer, d["friend_seat"]}
        defenders = sum(t["points"] for t in ts if t["winner"] not in side)
        assert d["declarer_points"] == 20 - defenders
        assert d["success"] == (d["declarer_points"] >= d["bid"])
        assert sum(d["payouts"]) == 0
        if d["success"]:
            assert d["payouts"][declarer] >= 0
        else:
            assert d["payouts"][declarer] < 0


def test_heuristic_is_credible() -> None:
    batch = play_batch(STANDARD, seed=8, game_start=0, games=20000, players=HEURISTIC)
    df = pl.from_arrow(deals_table(batch, 5)).filter(pl.col("outcome") == "played")
    assert isinstance(df, pl.DataFrame)
    rate = df["success"].mean()
    assert 0.5 < rate < 0.9  # bids near what the hand makes, neither timid nor reckless
    strong = df.filter(pl.col("declarer_strength") >= 10)["success"].mean()
    assert strong > rate  # stronger hands make more
    assert df["bid"].max() > 14  # strong hands bid up
    # the baseline shows a weak hand whenever allowed (its redeal rate is the scale's);
    # the heuristic only a hand weak in play too: never one with Mighty and the joker
    base = play_batch(STANDARD, seed=8, game_start=0, games=20000,
                      players=parse_players("baseline", 5))
    shown = {}
    for name, b in (("baseline", base), ("heuristic", batch)):
        weak = np.flatnonzero(b.column("outcome") == OUTCOMES.index("weak-redeal"))
        by = b.column("redeal_by")[weak]
        hands = b.ru[weak, by]
        both = (hands >> np.uint64(12)) & (hands >> np.uint64(52)) & np.uint64(1)
        shown[name] = (len(weak) / len(b.column("outcome")), int(both.sum()))
    assert 0.1 < shown["baseline"][0] < 0.3 and shown["baseline"][1] > 0
    assert shown["heuristic"][0] < shown["baseline"][0] / 2
    assert shown["heuristic"][1] == 0


def _run(out: Path, workers: int, **kw: object) -> None:
    config = RunConfig(STANDARD, deals=kw.pop("deals", 3000), seed=11,  # type: ignore[arg-type]
                       players=HEURISTIC, ledger=kw.pop("ledger", 1),  # type: ignore[arg-type]
                       tricks=True, shard_games=kw.pop("shard_games", 700))  # type: ignore[arg-type]
    run_simulation(config, out, workers=workers, **kw)  # type: ignore[arg-type]


def test_same_rows_with_one_and_two_workers(tmp_path: Path) -> None:
    _run(tmp_path / "a", 1)
    _run(tmp_path / "b", 2)
    for table in ("deals", "tricks"):
        a, b = scan(tmp_path / "a", table), scan(tmp_path / "b", table)
        assert a.height > 0 and a.equals(b)
    assert len(list((tmp_path / "a" / "deals").iterdir())) == 5  # 3000 games / 700


def test_rows_do_not_depend_on_shard_size(tmp_path: Path) -> None:
    _run(tmp_path / "a", 1, shard_games=3000)
    _run(tmp_path / "b", 1, shard_games=512)
    assert scan(tmp_path / "a").equals(scan(tmp_path / "b"))


def test_row_groups_gather_kernel_batches_without_changing_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kernel batches are small (a worker's memory) and row groups are large (readers):
    a shard's tables are written in groups of at least ``GROUP_ROWS`` rows but its last,
    and the rows are those of one batch per shard."""
    _run(tmp_path / "whole", 1, deals=1400)
    monkeypatch.setattr(config, "BATCH_GAMES", 60)
    monkeypatch.setattr(writer, "GROUP_ROWS", 250)
    _run(tmp_path / "small", 1, deals=1400)
    for table in ("deals", "tricks"):
        assert scan(tmp_path / "small", table).equals(scan(tmp_path / "whole", table))
        for shard in range(2):
            meta = pq.read_metadata(shard_path(tmp_path / "small", table, shard))
            sizes = [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
            assert meta.num_row_groups > 1 and sum(sizes) == meta.num_rows
            assert all(n >= 250 for n in sizes[:-1]), sizes
            assert sizes[-1] > 0


@pytest.mark.parametrize("name", ["standard", "russian-6p"])
def test_stored_seat_columns_join_back_into_the_lists(name: str) -> None:
    """The files' seat columns (deals_table with seat_columns) read with seat_lists give
    the same columns, in the same order, as the table with lists."""
    profile = load_profile(name)
    batch = play_batch(profile, seed=3, game_start=0, games=300,
                       players=parse_players("heuristic", profile.players))
    stored = pl.from_arrow(deals_table(batch, profile.players, seat_columns=True))
    lists = pl.from_arrow(deals_table(batch, profile.players))
    assert isinstance(stored, pl.DataFrame) and isinstance(lists, pl.DataFrame)
    assert "hands_0" in stored.columns and "hands" not in stored.columns
    assert seat_lists(stored.lazy()).collect().equals(lists)
    assert seat_lists(stored.lazy()).collect().columns == lists.columns


@pytest.mark.parametrize("make", [deals_table, tricks_table])
def test_a_table_keeps_no_batch_memory_alive(make: Callable[..., pa.Table]) -> None:
    """A worker keeps a row group's worth of tables before writing them, so a table must
    hold no more NumPy memory than its own columns: Arrow shares a NumPy array's memory,
    and a column taken from one of the batch's arrays without a copy kept the whole array
    alive (a 1M-deal run's peak was 50 MiB higher)."""
    def batch() -> Batch:
        return play_batch(STANDARD, seed=5, game_start=0, games=2000, players=HEURISTIC,
                          record_tricks=True)

    make(batch(), 5)  # first-call caches (kernel loading, Arrow's functions) out of the count
    gc.collect()
    tracemalloc.start()  # NumPy reports its arrays' memory to tracemalloc
    try:
        b = batch()
        before = tracemalloc.get_traced_memory()[0] - sum(
            a.base.nbytes if a.base is not None else a.nbytes
            for a in (b.rg, b.ri, b.ru, b.rf, b.rw, b.rh, b.ti))
        table = make(b, 5)
        del b
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert table.num_rows > 0
    assert kept <= table.nbytes, (kept, table.nbytes)


def test_killed_run_resumes_to_the_same_rows(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "60000", "--seed", "11",
            "--workers", "1", "--shard-games", "3000", "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and not shard_path(out, "deals", 2).exists():
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = sorted(p.name for p in (out / "deals").iterdir())
    assert 3 <= len(done) < 20, done  # interrupted midway
    assert json.loads((out / "_run.json").read_text())["status"] == "running"
    code = subprocess.run(args + ["--resume"], capture_output=True, text=True, check=False)
    assert code.returncode == 0, code.stderr
    assert "shards already there" in code.stdout
    whole = tmp_path / "whole"
    subprocess.run(args[:-1] + [str(whole)], check=True, capture_output=True)
    assert scan(out).equals(scan(whole))
    assert not list(out.rglob(".*.tmp"))


def test_the_command_with_worker_processes_ends_and_leaves_none_behind(tmp_path: Path) -> None:
    """``simulate --workers 2`` as a user runs it: the command ends with its workers (a
    worker left running would hold the command's output open, and this call would time
    out) and the rows are those of one worker. A runner that did not wait for its workers
    left one running only sometimes (a race), so this catches such a bug only then."""
    args = [sys.executable, "-m", "mighty_sim", "simulate", "--deals", "3000", "--seed", "5",
            "--shard-games", "1000", "--out"]
    done = subprocess.run(args + [str(tmp_path / "two"), "--workers", "2"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "3,000 deals played" in done.stdout
    subprocess.run(args + [str(tmp_path / "one"), "--workers", "1"], capture_output=True,
                   timeout=120, check=True)
    assert scan(tmp_path / "two").equals(scan(tmp_path / "one"))


def test_resume_keeps_the_shard_size_the_run_was_started_with(tmp_path: Path) -> None:
    """A run started with another shard size than today's default (an older version's,
    say) resumes without --shard-games: it keeps its own layout and its rows."""
    out = tmp_path / "run"
    args = ["simulate", "--deals", "900", "--seed", "3", "--workers", "1", "--out", str(out)]
    code, _, err = _cli(*args, "--shard-games", "300")
    assert code == 0, err
    whole = scan(out)
    shard_path(out, "deals", 1).unlink()
    code, text, err = _cli(*args, "--resume")
    assert code == 0, err
    assert "shards already there" in text
    assert json.loads((out / "_run.json").read_text())["config"]["shard_games"] == 300
    assert sorted(p.name for p in (out / "deals").iterdir()) == [
        f"shard={i:05d}" for i in range(3)]
    assert scan(out).equals(whole)


def test_dataset_metadata_and_run_file(tmp_path: Path) -> None:
    _run(tmp_path / "a", 1, deals=500, ledger=5)
    run = json.loads((tmp_path / "a" / "_run.json").read_text())
    assert run["status"] == "complete" and run["config"]["fingerprint"] == STANDARD.fingerprint()
    assert run["summary"]["played"] == 500
    meta = pq.read_schema(shard_path(tmp_path / "a", "deals", 0)).metadata
    assert meta[b"mighty_sim.fingerprint"] == STANDARD.fingerprint().encode()
    assert json.loads(meta[b"mighty_sim.profile"])["hunter"] == "3C"
    assert meta[b"mighty_sim.schema_version"] == b"2"
    assert b"numba" in meta[b"mighty_sim.versions"]
    df = scan(tmp_path / "a")
    played = df.filter(pl.col("outcome") == "played")
    assert played.height == 500
    # ledgers of 5: each game has deals 0..4, and the rotation of docs/rules.md, standard
    per_game = played.group_by("game").agg(pl.col("deal_in_game").sort())
    assert all(v.to_list() == [0, 1, 2, 3, 4] for v in per_game["deal_in_game"])
    rows = df.sort("deal_id").to_dicts()
    for prev, nxt in zip(rows, rows[1:], strict=False):
        if prev["game"] != nxt["game"]:
            assert nxt["first_bidder"] == nxt["dealer"]
            continue
        if prev["outcome"] == "played":
            expected = prev["friend_seat"] if prev["friend_seat"] is not None else prev["declarer"]
            assert (nxt["dealer"], nxt["first_bidder"]) == (expected, prev["declarer"])
        elif prev["outcome"] == "weak-redeal":
            assert nxt["dealer"] == nxt["first_bidder"] == prev["redeal_by"]
        else:
            assert (nxt["dealer"], nxt["first_bidder"]) == (prev["dealer"], prev["first_bidder"])


def test_columns_that_repeat_are_written_with_a_dictionary(tmp_path: Path) -> None:
    """Every column of a shard but the unique ones (hands, keys) and the delta-encoded
    keys has a Parquet dictionary (booleans have none in Parquet): the calls of the list
    column ``bid_history`` too (named by their Parquet path, not the column's name), and
    the card names of ``friend_card`` (an Arrow dictionary that repeats a value is
    written without one)."""
    _run(tmp_path / "a", 1, deals=300)
    meta = pq.ParquetFile(shard_path(tmp_path / "a", "deals", 0)).metadata
    group = meta.row_group(0)
    with_dictionary = {group.column(i).path_in_schema.split(".")[0]
                       for i in range(meta.num_columns)
                       if "RLE_DICTIONARY" in group.column(i).encodings}
    names = {f.name for f in pq.read_schema(shard_path(tmp_path / "a", "deals", 0))
             if not pa.types.is_boolean(f.type)}
    assert {"bid_history", "friend_card"} <= with_dictionary
    assert with_dictionary == names - set(writer.UNIQUE_COLUMNS)


def _cli(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_cli_simulate_and_show(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    code, text, _ = _cli("simulate", "--deals", "300", "--seed", "3", "--workers", "1",
                         "--out", str(out), "--players", "heuristic,random,random,random,random")
    assert code == 0 and "300 deals played" in text
    df = scan(out)
    deal = int(df.filter(pl.col("outcome") == "played")["deal_id"][0])
    code, text, _ = _cli("show", str(out), "--deal", str(deal))
    assert code == 0 and "trick 10" in text and "payouts" in text
    code, _, err = _cli("simulate", "--deals", "300", "--out", str(out))
    assert code == 2 and "already holds a run" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--profile", "nope"], "unknown profile"),
        (["--deals", "-5"], "deals"),
        (["--players", "heuristic,random"], "players"),
        (["--players", "genius"], "players"),
        (["--workers", "0"], "workers"),
        (["--ledger", "0"], "ledger"),
        (["--to-target"], "no ledger_target"),
        (["--players", "pimc:worlds=x"], "worlds"),
    ],
)
def test_bad_arguments_fail_cleanly(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "bad"
    base = ["simulate", "--deals", "10", "--out", str(out)]
    code, _, err = _cli(*(base + args))
    assert code == 2 and message in err and err.count("\n") == 1
    assert not out.exists() or not any(out.rglob("*.parquet"))


def test_unwritable_folder(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        target = "/proc/mighty-sim-cannot-write-here"
    else:  # pragma: no cover - CI runs as root
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = str(locked / "out")
    code, _, err = _cli("simulate", "--deals", "10", "--out", target)
    assert code == 2 and "cannot write" in err


def test_show_rejects_unknown_deal(tmp_path: Path) -> None:
    _run(tmp_path / "a", 1, deals=50)
    code, _, err = _cli("show", str(tmp_path / "a"), "--deal", str(10**9))
    assert code == 2 and "no such deal" in err


def test_batches_match_one_big_call() -> None:
    whole = play_batch(STANDARD, seed=4, game_start=0, games=400, players=HEURISTIC)
    a = play_batch(STANDARD, seed=4, game_start=0, games=150, players=HEURISTIC)
    b = play_batch(STANDARD, seed=4, game_start=150, games=250, players=HEURISTIC)
    for name in ("rg", "ri", "ru", "rf", "rw", "rh"):
        assert np.array_equal(getattr(whole, name),
                              np.concatenate([getattr(a, name), getattr(b, name)])), name


def test_russian_rows_keep_their_invariants() -> None:
    from mighty_sim.rules.profile import load_profile

    profile = load_profile("russian-5p")
    batch = play_batch(profile, seed=3, game_start=0, games=2000, players=HEURISTIC, ledger=3,
                       record_tricks=True)
    deals = deals_table(batch, 5).to_pylist()
    points: dict[int, int] = {}
    for t in tricks_table(batch, 5).to_pylist():
        points[t["deal_id"]] = points.get(t["deal_id"], 0) + t["points"]
    for d in deals:
        union = d["blind"]
        for h in d["hands"]:
            union |= h
        assert union == profile.deck_mask
        if d["outcome"] != "played":
            continue
        assert points[d["deal_id"]] + points_in(d["discards"]) == 20
        assert d["success"] == (d["declarer_points"] >= d["bid"])
        base = profile.min_bid - 1
        factor = 2 if d["trump_changed"] else 1
        if d["success"]:  # each defender takes points - base penalty points
            assert d["payouts"][d["declarer"]] == 0
            assert min(d["payouts"]) == -(d["declarer_points"] - base) * factor
        else:  # the declarer takes bid - base
            assert d["payouts"][d["declarer"]] == -(d["bid"] - base) * factor


@pytest.mark.parametrize("players", ["heuristic", "random"])
def test_trick_bid_profiles_simulate(tmp_path: Path, players: str) -> None:
    code, text, _ = _cli("simulate", "--profile", "ucla-4p", "--deals", "2000", "--workers",
                         "1", "--players", players, "--out", str(tmp_path / "r"))
    assert code == 0 and "2,000 deals played" in text
    df = scan(tmp_path / "r").filter(pl.col("outcome") == "played")
    assert df["bid"].min() >= 3 and df["bid"].max() <= 10
    assert (df["declarer_tricks"] >= df["bid"]).to_list() == df["success"].to_list()
    # trick scoring is not zero-sum: defenders score nothing, the friend half
    for row in df.head(200).to_dicts():
        pays = row["payouts"]
        decl = pays[row["declarer"]]
        others = [v for s, v in enumerate(pays) if s not in (row["declarer"], row["friend_seat"])]
        assert all(v == 0 for v in others)
        if row["friend_seat"] is not None:
            assert pays[row["friend_seat"]] == decl / 2
    if players == "heuristic":  # bids in tricks near what the hand makes
        assert 0.5 < df["success"].mean() < 0.97


def test_two_deck_profiles_simulate_show_and_analyze(tmp_path: Path) -> None:
    out = tmp_path / "two"
    code, text, _ = _cli("simulate", "--profile", "russian-6p", "--deals", "400", "--seed", "2",
                         "--workers", "2", "--out", str(out), "--tricks")
    assert code == 0 and "400 deals played" in text
    df = scan(out)
    assert {"hands_deck2", "blind_deck2", "discards_deck2"} <= set(df.columns)
    row = df.filter(pl.col("outcome") == "played").row(0, named=True)
    code, text, _ = _cli("show", str(out), "--deal", str(row["deal_id"]))
    assert code == 0 and "trick 17" in text
    seat0 = next(line for line in text.splitlines() if line.startswith("  seat 0:"))
    assert len(seat0.split(":", 1)[1].split("(")[0].split()) == 17  # both decks' cards
    code, text, _ = _cli("analyze", str(out), "--format", "json")
    assert code == 0
    import json

    data = json.loads(text)
    assert sum(r["n"] for r in data["bid_success"]) == 400
    code, text, err = _cli("simulate", "--profile", "russian-6p", "--deals", "5", "--players",
                           "pimc:worlds=3,heuristic,heuristic,heuristic,heuristic,heuristic",
                           "--out", str(tmp_path / "p"))
    assert code == 0 and "5 deals played" in text, err


@pytest.mark.parametrize("name", ["ucla-5p", "ucla-4p"])
def test_games_to_the_target_end_as_the_reference_ends_them(name: str) -> None:
    """ucla plays to 1000: with to_target each game stops at the deal that takes a player
    to the target, in the kernel as in the reference engine (random players, so games run
    long and end by either player reaching 1000 or the deal limit)."""
    from mighty_sim.rules.profile import load_profile

    profile = load_profile(name)
    n = profile.players
    batch = play_batch(profile, seed=5, game_start=0, games=40, ledger=300, to_target=True,
                       players=parse_players("heuristic", n))
    kernel = play_batch(profile, seed=5, game_start=0, games=40, ledger=60, to_target=True,
                        players=parse_players("random", n))
    rows = deals_table(kernel, n).to_pylist()
    k = 0
    ended_by_target = 0
    for game in range(40):
        ref = play_ledger(profile, [RandomPlayer()] * n, seed=5, game=game, deals=60,
                          to_target=True)
        for rec in ref.attempts:
            row = rows[k]
            k += 1
            assert row["game"] == game and tuple(row["hands"]) == rec.hands
            assert row["outcome"] == rec.result.outcome
            if rec.result.outcome == "played":
                assert [Fraction(v) for v in row["payouts"]] == list(rec.result.payouts)
        ended_by_target += max(ref.totals) >= profile.ledger_target
        assert max(ref.totals) >= profile.ledger_target or len(ref.deals) == 60
    assert k == len(rows)
    # each heuristic game stops at the deal that reaches the target, or after 300 deals
    games = deals_table(batch, n).to_pylist()
    totals: dict[int, list[float]] = {}
    last: dict[int, list[float]] = {}
    for row in games:
        if row["outcome"] == "played":
            t = totals.setdefault(row["game"], [0.0] * n)
            last[row["game"]] = list(t)
            for s in range(n):
                t[s] += row["payouts"][s]
    assert len(totals) == 40
    reached = 0
    for game, t in totals.items():
        deals = sum(1 for r in games if r["game"] == game and r["outcome"] == "played")
        assert max(last[game]) < profile.ledger_target  # not one deal earlier
        assert max(t) >= profile.ledger_target or deals == 300
        reached += max(t) >= profile.ledger_target
    assert reached >= 30


def test_default_shards_are_balanced_files_of_at_most_2_19_deals(tmp_path: Path) -> None:
    """Files of at most 2**19 deals whatever the game length (--ledger K: 2**19 // K
    games, games played to a target: 2**19 // 64), no more files than that needs, and all
    of about the same size, so no worker is left alone with a short last file."""
    for games, ledger, to_target in ((1_000_000, 1, False), (10_000_000, 1, False),
                                     (3, 4, False), (2_000_001, 4, False), (50_000, 500, True),
                                     (8_193, 500, True), (1 << 19, 1, False)):
        cap = (1 << 19) // deals_per_game(ledger, to_target)
        size = balanced_shard_games(games, ledger, to_target)
        shards = math.ceil(games / size)
        assert size <= cap
        assert shards == math.ceil(games / cap)
        last = games - (shards - 1) * size
        assert 0 < last <= size and size - last < shards
    for args, games, ledger, to_target in ((["--ledger", "4"], 2, 4, False),
                                           (["--profile", "ucla-4p", "--to-target"], 8, 500,
                                            True)):
        out = tmp_path / str(games)
        code, _, err = _cli("simulate", "--deals", "8", "--workers", "1", "--out", str(out),
                            *args)
        assert code == 0, err
        config = json.loads((out / "_run.json").read_text())["config"]
        assert config["shard_games"] == balanced_shard_games(games, ledger, to_target)


def test_rules_where_every_deal_is_redealt_are_an_error_not_a_hang() -> None:
    """Every hand weak enough to show (baseline players always show): no deal is ever
    played, and the engine says so instead of growing its buffers without end."""
    always_weak = STANDARD.replace(weak_threshold=100)
    with pytest.raises(ValueError, match="redealt 60,000 times"):
        play_batch(always_weak, seed=1, game_start=0, games=1,
                   players=parse_players("baseline", 5))



def test_workers_get_arrow_malloc_and_the_parent_keeps_its_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker processes allocate Arrow memory with malloc and a fixed mmap threshold (a
    lower, flat peak); the variables that say so are set for them only, and a user's own
    choice is left alone."""
    from mighty_sim.dataset.heap import WORKER_MALLOC_ENV
    from mighty_sim.dataset.local import _workers_use_malloc

    assert set(WORKER_MALLOC_ENV) == {"ARROW_DEFAULT_MEMORY_POOL", "MALLOC_MMAP_THRESHOLD_"}
    for key, value in WORKER_MALLOC_ENV.items():
        monkeypatch.delenv(key, raising=False)
        with _workers_use_malloc():
            assert os.environ[key] == value
        assert key not in os.environ
        monkeypatch.setenv(key, "mine")
        with _workers_use_malloc():
            assert os.environ[key] == "mine"
        assert os.environ[key] == "mine"


_BLAS_SCENARIO = """
import os
from mighty_sim.cli import commands

def main(prog_name):
    import numpy  # noqa: F401 (loads OpenBLAS, which starts its threads now)
    print(os.environ["OPENBLAS_NUM_THREADS"], len(os.listdir("/proc/self/task")))

commands.main = main
commands.run()
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
@pytest.mark.parametrize("users", [None, "2"])
def test_the_command_loads_blas_with_one_thread_unless_the_user_chose(
        users: str | None) -> None:
    """No command calls BLAS: the command (and the workers it starts, which inherit its
    environment) load OpenBLAS with one thread, which then has no helper threads spinning
    beside the kernels; a number the user set is kept."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if users is not None:
        env["OPENBLAS_NUM_THREADS"] = users
    out = subprocess.run([sys.executable, "-c", _BLAS_SCENARIO], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out == ([users, users] if users else ["1", "1"])


_HEAP_SCENARIO = """
import os, sys
from mighty_sim.dataset import heap

def rss():
    with open("/proc/self/statm", encoding="ascii") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

if sys.argv[1] == "fixed":
    heap.fix_mmap_threshold()
first = bytearray(4 << 20)  # a large block, mapped
del first  # glibc's own threshold moves past 4 MiB here
blocks = [bytearray(1 << 20) for _ in range(100)]  # 100 MiB of 1 MiB blocks
pin = blocks[-1]  # the last stays alive, above the others
before = rss()
del blocks
freed = before - rss()
heap.release_free_memory()
print(freed, before - rss())
"""


@pytest.mark.skipif(not heap.has_glibc(), reason="glibc's malloc only")
def test_freed_blocks_go_back_to_the_system() -> None:
    """A worker's heap, in miniature: 1 MiB blocks freed below a live block stay in the
    process once glibc has moved its mmap threshold past them, until
    ``release_free_memory`` (called after every shard) hands them back; with the
    threshold fixed (as workers and the command have it) they are their own mappings and
    go back as soon as they are freed."""
    # glibc's own behaviour: no MALLOC_* settings (Dask's nanny puts
    # MALLOC_TRIM_THRESHOLD_ into the environment of the process that starts it, which
    # also stops glibc moving the mmap threshold)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}

    def run(mode: str) -> tuple[int, int]:
        out = subprocess.run([sys.executable, "-c", _HEAP_SCENARIO, mode], check=True,
                             capture_output=True, text=True, env=env).stdout.split()
        return int(out[0]), int(out[1])

    mib = 2**20
    freed, trimmed = run("default")
    assert freed < 20 * mib and trimmed > 80 * mib
    freed, trimmed = run("fixed")
    assert freed > 80 * mib and trimmed > 80 * mib


_SAY_START = ("import sys; import mighty_sim.workers as w; f = w.start_method; "
              "w.start_method = lambda: print('workers:', f()) or f(); "
              "sys.argv[0] = 'mighty-sim'; from mighty_sim.cli.commands import run; run()")
"""The command, saying how its pool starts its workers."""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers fork on Linux")
def test_same_rows_with_forked_workers(tmp_path: Path) -> None:
    """The command's workers, forked (a new process has no other thread: see
    ``workers.start_method``), write the rows one process writes; in this test process,
    which may hold threads of earlier tests, a pool's workers may be spawned instead."""
    for workers in (1, 2):
        done = subprocess.run([sys.executable, "-c", _SAY_START, "simulate", "--deals", "1400",
                               "--seed", "11", "--tricks", "--shard-games", "700", "--workers",
                               str(workers), "--out", str(tmp_path / f"w{workers}")],
                              check=True, capture_output=True, text=True)
        assert ("workers: fork" in done.stdout) == (workers == 2), done.stdout
    for table in ("deals", "tricks"):
        one, two = scan(tmp_path / "w1", table), scan(tmp_path / "w2", table)
        assert one.height > 0 and one.equals(two)


def test_same_rows_with_spawned_workers(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Spawned workers (off Linux, or beside other threads) write the rows one process
    writes."""
    from mighty_sim import workers

    monkeypatch.setattr(workers, "start_method", lambda: "spawn")
    _run(tmp_path / "one", 1, deals=1400)
    _run(tmp_path / "two", 2, deals=1400)
    for table in ("deals", "tricks"):
        one, two = scan(tmp_path / "one", table), scan(tmp_path / "two", table)
        assert one.height > 0 and one.equals(two)
