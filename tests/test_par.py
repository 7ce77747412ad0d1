"""Double-dummy par of recorded deals (kernels.search.par_nb, analysis.par, `mighty-sim par`):
the deals rebuilt from their rows and tricks replay to their recorded results in every
one-deck profile; the par is the exhaustive search's value of the position rebuilt from
the decoded rows and tricks; from the last trick, where every card is forced, it is what
the players took; a record that is not the deal's play is found out; the command writes
par.parquet, `analyze` shows its card-play table, and bad input is one line."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pytest
from click.testing import CliRunner

from mighty_sim.analysis import par as par_module
from mighty_sim.analysis.par import (
    _keep_part,
    _load_kept,
    card_play,
    pack_parts,
    par_table,
    write_par,
)
from mighty_sim.cli.commands import main
from mighty_sim.dataset.integrity import PACKED_PARTS, PAR_PARTS, open_run, remove_par_parts
from mighty_sim.dataset.schema import deals_table, tricks_table
from mighty_sim.engine import search as engine_search
from mighty_sim.engine.batch import Batch, play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import MAX_PLAYERS, N_T, R_POINTS, R_TRICKS, T_CARDS
from mighty_sim.kernels.loop.play_nb import N_H, N_S, apply_play_nb, start_play_nb
from mighty_sim.kernels.params import FRIEND_MODES, compile_profile
from mighty_sim.kernels.search import dd_nb
from mighty_sim.kernels.search.dd_nb import minimax_nb
from mighty_sim.kernels.search.par_nb import N_PAR, PAR_FROM, PAR_MATCH, PAR_VALUE, par_nb
from mighty_sim.rules.cards import SUITS, parse_card
from mighty_sim.rules.profile import BUILTIN_PROFILES, TRUMPS, RuleProfile, load_profile

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from par_runs import kept_solves, solved_in_a_row  # noqa: E402, I001 - how benchmarks read a run

ONE_DECK = [n for n in BUILTIN_PROFILES if load_profile(n).deck_copies == 1]


def _par(name: str, from_trick: int, games: int = 60, players: str = "heuristic"
         ) -> tuple[np.ndarray, np.ndarray, Batch]:
    profile = load_profile(name)
    batch = play_batch(profile, seed=5, game_start=0, games=games,
                       players=parse_players(players, profile.players), record_tricks=True)
    out = np.zeros((batch.rows, N_PAR), np.int64)
    par_nb(batch.ri, batch.ru, batch.ti, compile_profile(profile), from_trick, out)
    return out, batch.ri, batch


@pytest.mark.parametrize("name", ONE_DECK)
def test_par_from_the_last_trick_is_what_was_taken(name: str) -> None:
    profile = load_profile(name)
    out, ri, _ = _par(name, profile.hand_size, players="random")
    played = out[:, PAR_MATCH] >= 0
    assert played.sum() >= 60
    assert (out[played, PAR_MATCH] == 1).all()
    assert (out[played, PAR_FROM] == profile.hand_size).all()
    taken = ri[played, R_TRICKS if profile.bid_unit == "tricks" else R_POINTS]
    assert np.array_equal(out[played, PAR_VALUE], taken)


def _card(name: str) -> int:
    return parse_card(name).bit_length() - 1


def _position(profile: RuleProfile, row: dict, tricks: list[dict], start: int
              ) -> tuple[np.ndarray, ...]:
    """The play state at trick ``start`` of a decoded deals row and its decoded tricks,
    built here apart from the kernel's own replay."""
    params = compile_profile(profile)
    d = row["declarer"]
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    for p in range(profile.players):
        hands[p] = row["hands"][p]
    hands[d] = (int(hands[d]) | row["blind"]) & ~row["discards"]
    s, h, tr = np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64), np.zeros(MAX_PLAYERS, np.int64)
    start_play_nb(s, h, tr, params, hands, np.uint64(row["discards"]),
                  (d, row["bid"], TRUMPS.index(row["trump"]), row["trump_changed"]),
                  (FRIEND_MODES.index(row["friend_mode"]),
                   _card(row["friend_card"]) if row["friend_card"] else -1,
                   SUITS.index(row["lead_request"]) if row["lead_request"] else -1), False)
    ti = np.zeros((1, N_T), np.int8)
    for trick in tricks[:start - 1]:
        suit = SUITS.index(trick["joker_suit"]) if trick["joker_suit"] else -1
        for i, card in enumerate(trick["cards"]):
            seat = (trick["leader"] + i) % profile.players
            apply_play_nb(s, h, tr, seat, _card(card), suit, trick["demand"], params,
                          False, ti, 0)
    return s, h, tr, params


@pytest.mark.parametrize("name", ONE_DECK)
def test_par_is_the_exhaustive_value_of_the_recorded_position(name: str) -> None:
    profile = load_profile(name)
    start = profile.hand_size - 2
    out, ri, batch = _par(name, start, games=25)
    rows = deals_table(batch, profile.players).to_pylist()
    tricks = tricks_table(batch, profile.players).to_pylist()
    checked = 0
    for r, row in enumerate(rows):
        if out[r, PAR_MATCH] < 0:
            continue
        assert out[r, PAR_MATCH] == 1
        own = [t for t in tricks if t["deal_id"] == row["deal_id"]]
        s, h, tr, params = _position(profile, row, own, out[r, PAR_FROM])
        assert out[r, PAR_VALUE] == minimax_nb(s, h, tr, params, np.zeros(1, np.int64)), r
        checked += 1
    assert checked >= 25


def test_a_record_that_is_not_the_deals_play_is_found_out() -> None:
    profile = load_profile("standard")
    batch = play_batch(profile, seed=5, game_start=0, games=20,
                       players=parse_players("heuristic", 5), record_tricks=True)
    ti = batch.ti.copy()
    ti[2, T_CARDS], ti[2, T_CARDS + 1] = ti[2, T_CARDS + 1], ti[2, T_CARDS]  # two cards swapped
    out = np.zeros((batch.rows, N_PAR), np.int64)
    par_nb(batch.ri, batch.ru, ti, compile_profile(profile), 8, out)
    assert (out[:, PAR_MATCH] == 0).sum() == 1


def test_card_play_table() -> None:
    df = pl.DataFrame({
        "declarer_player": ["pimc", "heuristic", "heuristic", "heuristic", "pimc"],
        "from_trick": [5] * 5, "par": [14, 15, 12, 16, 13], "taken": [14, 14, 12, 13, 15],
        "bid": [14, 14, 13, 15, 13], "success": [True, True, False, False, True],
    })
    table = {r["declarer_player"]: r for r in card_play(df).to_dicts()}
    assert table["heuristic"]["n"] == 3
    assert table["heuristic"]["below_par"] == pytest.approx(4 / 3)
    assert (table["heuristic"]["makeable"], table["heuristic"]["lost"]) == (2, 1)
    assert table["heuristic"]["below_par_low"] < 4 / 3 < table["heuristic"]["below_par_high"]
    assert table["pimc"]["below_par"] == pytest.approx(-1.0)
    assert table["pimc"]["above_par_share"] == pytest.approx(0.5)
    assert table["heuristic"]["unsolved"] == table["pimc"]["unsolved"] == 0
    # a deal left unanswered (par null) is counted apart, outside every other column
    unanswered = pl.DataFrame({
        "declarer_player": ["heuristic"], "from_trick": [5], "par": [None], "taken": [3],
        "bid": [15], "success": [False]}, schema_overrides={"par": df.schema["par"]})
    again = {r["declarer_player"]: r for r in card_play(pl.concat([df, unanswered])).to_dicts()}
    assert again["heuristic"] == {**table["heuristic"], "unsolved": 1}
    # grouped further: a row for each value of the column named, after player and trick
    split = card_play(df.with_columns(high=pl.col("bid") >= 14), by=["high"])
    assert [(r["declarer_player"], r["high"], r["n"]) for r in split.to_dicts()] == [
        ("heuristic", False, 1), ("heuristic", True, 2), ("pimc", False, 1), ("pimc", True, 1)]
    row = split.filter(pl.col("declarer_player") == "heuristic", pl.col("high")).row(0, named=True)
    assert row["below_par"] == pytest.approx(2.0) and (row["makeable"], row["lost"]) == (2, 1)


def _invoke(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def _answers(table: pa.Table) -> pa.Table:
    """A par table without its ``seconds``, which no two runs share."""
    return table.drop_columns(["seconds"])


def test_par_command_writes_the_table_that_analyze_shows(tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = _invoke("simulate", "--deals", "300", "--out", str(out), "--workers", "1")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    r = _invoke("par", str(out), "--deals", "250", "--from-trick", "7", "--workers", "2")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    par = pl.read_parquet(out / "par.parquet")
    assert par.height == 250 and (par["from_trick"] == 7).all()
    deals = pl.read_parquet(out / "deals").filter(pl.col("outcome") == "played")
    joined = par.join(deals.select("deal_id", "declarer_points", "bid"), on="deal_id")
    assert joined.height == 250
    assert (joined["taken"] == joined["declarer_points"]).all()
    # each deal's search timed: the time goes with the positions searched
    assert par["seconds"].null_count() == 0 and (par["seconds"] >= 0).all()
    ranks = par.select(pl.col("seconds", "positions").rank())
    assert np.corrcoef(ranks["seconds"], ranks["positions"])[0, 1] > 0.5
    # one worker gives the same table (every deal solved again)
    remove_par_parts(out, 7)
    r = _invoke("par", str(out), "--deals", "250", "--from-trick", "7", "--workers", "1")
    again = pl.read_parquet(out / "par.parquet")
    assert again.drop("seconds").equals(par.drop("seconds"))
    assert not again["seconds"].equals(par["seconds"])  # timed again
    par = again
    # another starting trick: its rows beside these, each deal once a trick
    for _ in range(2):
        r = _invoke("par", str(out), "--deals", "100", "--from-trick", "9", "--workers", "1")
        assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
        both = pl.read_parquet(out / "par.parquet")
        assert both.filter(pl.col("from_trick") == 7).equals(par)
        assert both.filter(pl.col("from_trick") == 9)["deal_id"].to_list() == \
            par["deal_id"].to_list()[:100]
    assert [(r["from_trick"], r["n"]) for r in card_play(both).to_dicts()] == [(7, 250), (9, 100)]
    r = _invoke("analyze", str(out), "--format", "json")
    assert r.exit_code == 0 and '"card_play"' in r.output  # type: ignore[attr-defined]
    script = Path(__file__).resolve().parents[1] / "analysis" / "card_play.py"
    proc = subprocess.run([sys.executable, str(script), str(out)], capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0 and proc.stdout.count("shape:") == 4, proc.stderr
    assert "suit" in proc.stdout  # the table by kind of contract (trumps print as S, NT...)


@pytest.mark.parametrize("args, message", [
    (["--from-trick", "11"], "plays tricks 1 to 10"),
    (["--deals", "0"], "--deals"),
    (["--max-positions", "lots"], "--max-positions"),
    (["--max-positions", "-5"], "--max-positions"),
])
def test_par_bad_input_is_one_line(tmp_path: Path, args: list[str], message: str,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "20", "--out", str(out), "--workers", "1")
    _empty_cache(monkeypatch, tmp_path)  # one line still: no compile notice before it
    r = _invoke("par", str(out), *args)
    assert r.exit_code == 2 and message in r.stderr  # type: ignore[attr-defined]
    assert r.stderr.count("\n") == 1, r.stderr  # type: ignore[attr-defined]
    assert not (out / "par.parquet").exists()


def _empty_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Numba's cache as a command finds it (kernels.is_cached): empty, as on a new
    machine, where the search-running commands first say that they compile."""
    from mighty_sim import kernels

    (tmp_path / "empty-cache").mkdir()
    monkeypatch.setattr(kernels, "cache_dir", lambda: tmp_path / "empty-cache")


def test_par_refuses_two_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    _invoke("simulate", "--profile", "russian-6p", "--deals", "10", "--out", str(out),
            "--workers", "1")
    _empty_cache(monkeypatch, tmp_path)
    r = _invoke("par", str(out))
    assert r.exit_code == 2 and "one-deck profiles only" in r.stderr  # type: ignore[attr-defined]
    assert r.stderr.count("\n") == 1, r.stderr  # type: ignore[attr-defined]


def test_show_gives_the_par_at_each_tricks_start(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "5", "--out", str(out), "--workers", "1")
    deal = pl.read_parquet(out / "deals").filter(pl.col("outcome") == "played").row(0, named=True)
    r = _invoke("show", str(out), "--deal", str(deal["deal_id"]), "--par-from", "8")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    lines = [x for x in r.output.splitlines() if x.lstrip().startswith("par at trick")]  # type: ignore[attr-defined]
    assert [x.split()[3] for x in lines] == ["8:", "9:", "10:"]
    # from the last trick every card is forced: its par is what the side ended with
    assert lines[-1].split()[-4] == str(deal["declarer_points"])
    _empty_cache(monkeypatch, tmp_path)
    r = _invoke("show", str(out), "--deal", str(deal["deal_id"]), "--par-from", "0")
    assert r.exit_code == 2 and "--par-from" in r.stderr  # type: ignore[attr-defined]
    assert r.stderr.count("\n") == 1, r.stderr  # type: ignore[attr-defined]


def test_a_par_table_goes_with_its_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "30", "--out", str(out), "--workers", "1")
    assert _invoke("par", str(out), "--from-trick", "9", "--workers", "1").exit_code == 0  # type: ignore[attr-defined]
    par = out / "par.parquet"
    kept = par.read_bytes()
    # the chunks it solved: packed in one file, for a later run
    assert [p.name for p in (out / PAR_PARTS / "from-9").iterdir()] == [PACKED_PARTS]
    # a new run in the folder deletes it with the old run's files, and the chunks a
    # stopped par run kept
    _keep_part(out / PAR_PARTS / "from-5", b"run", 30, 0, {"par": np.zeros(3)})
    (out / PAR_PARTS / "from-5" / ".games-30.npz.123.tmp").write_bytes(b"")  # a write cut short
    r = _invoke("simulate", "--deals", "30", "--seed", "4", "--out", str(out), "--workers", "1",
                "--overwrite")
    assert r.exit_code == 0 and not par.exists()  # type: ignore[attr-defined]
    assert not (out / PAR_PARTS).exists()
    # an old table put back is refused, in one line
    par.write_bytes(kept)
    r = _invoke("analyze", str(out))
    assert r.exit_code == 2 and "another run" in r.output  # type: ignore[attr-defined]


def _chunks_solved(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the first game of each chunk ``par_table`` solves, as it solves it."""
    solved: list[int] = []
    chunk = par_module._chunk

    def counted(cdict: dict[str, object], start: int, games: int, t: int, limit: int
                ) -> dict[str, np.ndarray]:
        solved.append(start)
        return chunk(cdict, start, games, t, limit)

    monkeypatch.setattr(par_module, "_chunk", counted)
    return solved


def test_a_stopped_par_run_goes_on_from_the_chunks_it_solved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk of games is kept in the run's folder as it is solved: a run stopped
    after two chunks, given again, solves only the chunks left and gives the table of a
    run never stopped; once a table is written its chunks are packed in one file, which
    a run for more deals takes; a chunk kept for another run, or the shorter last chunk
    of a run that asked for fewer deals, or one solved by another version of the
    search with a deal unanswered, is solved again, not taken."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "40", "--out", str(out), "--workers", "1")
    monkeypatch.setattr(par_module, "CHUNK_GAMES", 8)  # from trick 7: chunks of 8 games
    whole = par_table(out, deals=40, from_trick=7)
    remove_par_parts(out, 7)
    assert not (out / PAR_PARTS).exists()
    solved = _chunks_solved(monkeypatch)

    def stop_after_two(deals: int) -> None:
        if len(solved) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        par_table(out, deals=40, from_trick=7, progress=stop_after_two)
    folder = out / PAR_PARTS / "from-7"

    def files() -> list[str]:
        return sorted(p.name for p in folder.iterdir())

    assert files() == ["games-0.npz", "games-8.npz"]
    assert solved_in_a_row(out, 7) == 16 and solved_in_a_row(out, 6) == 0
    kept = kept_solves(out, 7)
    first = whole.slice(0, 16)
    assert sorted(zip(kept["deal_id"].tolist(), kept["par"].tolist(), strict=True)) == sorted(
        zip(first["deal_id"].to_pylist(), first["par"].to_pylist(), strict=True))
    # the table of the first 16 deals: both chunks taken, then packed in one file
    solved.clear()
    # (compared by value: a slice keeps the whole table's dictionaries, which may hold
    # names that appear only after its rows)
    assert (_answers(par_table(out, deals=16, from_trick=7)).to_pydict()
            == _answers(whole.slice(0, 16)).to_pydict())
    assert solved == []
    pack_parts(out, 7)
    assert files() == [PACKED_PARTS]
    # a run for more deals takes the packed chunks and solves only the others
    more = par_table(out, deals=40, from_trick=7)
    assert _answers(more).equals(_answers(whole))
    assert solved == [16, 24, 32]
    pack_parts(out, 7)
    assert files() == [PACKED_PARTS] and sorted(_load_kept(folder)) == [0, 8, 16, 24, 32]
    solved.clear()
    assert par_table(out, deals=40, from_trick=7).equals(more)  # the times kept too
    assert solved == []
    # chunk 8 rewritten as another run's, with other pars (a loose chunk over the packed
    # one): solved again
    cols = _load_kept(folder)[8].cols
    _keep_part(folder, b"another run", 8, 8, {**cols, "par": cols["par"] + 1})
    assert solved_in_a_row(out, 7) == 8  # a gap at game 8: the deals after it not counted
    assert _answers(par_table(out, deals=40, from_trick=7)).equals(_answers(whole))
    assert solved == [8]
    assert solved_in_a_row(out, 7) == 40
    # a run of 20 deals keeps games 16-19 as its last chunk; one of 40 needs 16-23
    remove_par_parts(out, 7)
    par_table(out, deals=20, from_trick=7)
    pack_parts(out, 7)
    solved.clear()
    assert _answers(par_table(out, deals=40, from_trick=7)).equals(_answers(whole))
    assert solved == [16, 24, 32]
    # chunks packed by another version of the search: their pars are taken where every
    # deal was answered (chunk 16 here has one left unanswered at a limit, solved again),
    # their positions and times stay theirs, and the table says which search solved each
    pack_parts(out, 7)
    old = engine_search.SEARCH_VERSION
    k16 = _load_kept(folder)[16]
    cut = {**k16.cols, "par": np.where(np.arange(len(k16.cols["par"])) == 0, -1,
                                       k16.cols["par"])}
    _keep_part(folder, k16.key, k16.games, 16, cut, limit=5, search=old)
    monkeypatch.setattr(engine_search, "SEARCH_VERSION", old + 1)
    assert solved_in_a_row(out, 7) == 16 and solved_in_a_row(out, 7, old) == 16
    solved.clear()
    table = par_table(out, deals=40, from_trick=7)
    assert solved == [16]
    assert _answers(table).drop_columns(["search"]).equals(
        _answers(whole).drop_columns(["search"]))
    new = len(k16.cols["deal_id"])
    assert table.column("search").to_pylist() == [old] * 16 + [old + 1] * new + [old] * (
        24 - new)
    pack_parts(out, 7)
    assert {s: k.search for s, k in _load_kept(folder).items()} == {
        0: old, 8: old, 16: old + 1, 24: old, 32: old}
    assert solved_in_a_row(out, 7) == 40 and solved_in_a_row(out, 7, old + 1) == 0
    assert kept_solves(out, 7, old + 1) == {}  # chunk 16 solved again: not its own deals
    # a search found to give wrong pars (EXACT_SINCE raised past it): its chunks are
    # solved again, and dropped when packed
    monkeypatch.setattr(engine_search, "EXACT_SINCE", old + 1)
    assert solved_in_a_row(out, 7) == 0
    solved.clear()
    assert _answers(par_table(out, deals=40, from_trick=7)).drop_columns(["search"]).equals(
        _answers(whole).drop_columns(["search"]))
    assert solved == [0, 8, 24, 32]
    pack_parts(out, 7)
    assert {k.search for k in _load_kept(folder).values()} == {old + 1}
    assert {k.key for k in _load_kept(folder).values()} == {_load_kept(folder)[0].key}


def test_a_search_is_timed_on_the_deals_it_was_first_to_solve(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deals a search version solved, for its timing: those past every chunk of an
    older search, in a row from the first; not a chunk it solved again because the
    older search left a deal in it unanswered (the hardest deals)."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "24", "--out", str(out), "--workers", "1")
    monkeypatch.setattr(par_module, "CHUNK_GAMES", 8)  # from trick 8: chunks of 8 games
    par_table(out, deals=16, from_trick=8)
    folder = out / PAR_PARTS / "from-8"
    old = engine_search.SEARCH_VERSION
    k0 = _load_kept(folder)[0]
    cut = {**k0.cols, "par": np.where(np.arange(len(k0.cols["par"])) == 0, -1, k0.cols["par"])}
    _keep_part(folder, k0.key, k0.games, 0, cut, limit=5, search=old)
    monkeypatch.setattr(engine_search, "SEARCH_VERSION", old + 1)
    table = par_table(out, deals=24, from_trick=8)
    assert {s: k.search for s, k in _load_kept(folder).items()} == {0: old + 1, 8: old,
                                                                   16: old + 1}
    assert solved_in_a_row(out, 8) == 24 and solved_in_a_row(out, 8, old) == 8
    assert solved_in_a_row(out, 8, old + 1) == 8
    ours = kept_solves(out, 8, old + 1)
    assert ours["deal_id"].tolist() == table.column("deal_id").to_pylist()[16:]
    assert (ours["search"] == old + 1).all()


def test_chunks_kept_with_the_search_in_their_key_are_read(tmp_path: Path) -> None:
    """A chunk, or a packed file, kept by a ``par`` that wrote the search's version at the
    end of the run's key (as ``data/whole-deals`` holds them) is read as that search's,
    its deals taken."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "16", "--out", str(out), "--workers", "1")
    table = par_table(out, deals=16, from_trick=8)
    pack_parts(out, 8)
    folder = out / PAR_PARTS / "from-8"
    with np.load(folder / PACKED_PARTS) as f:
        arrays = {k: f[k] for k in f.files}
    key = arrays["_run"].tobytes() + b"\nsearch " + str(int(arrays["_searches"][0])).encode()
    del arrays["_searches"]
    arrays = {k: v for k, v in arrays.items() if k != "search"}
    np.savez(folder / PACKED_PARTS, **{**arrays, "_run": np.frombuffer(key, np.uint8)})
    kept = _load_kept(folder)
    assert {k.search for k in kept.values()} == {engine_search.SEARCH_VERSION}
    assert par_table(out, deals=16, from_trick=8).equals(table)  # taken, times and all
    # a loose chunk so kept, over the packed one
    cols = {k: v for k, v in kept[0].cols.items() if k != "search"}
    np.savez(folder / "games-0.npz", _run=np.frombuffer(key, np.uint8),
             _games=np.array([kept[0].games]), _limit=np.array([0]), **cols)
    assert _load_kept(folder)[0].search == engine_search.SEARCH_VERSION
    assert par_table(out, deals=16, from_trick=8).equals(table)


def test_par_says_which_deals_an_older_search_solved(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``par`` run of a newer search that takes the deals an older one answered says how
    many, and which search; one that solved them all itself says nothing of it."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "16", "--out", str(out), "--workers", "1")
    monkeypatch.setattr(par_module, "CHUNK_GAMES", 8)  # from trick 8: chunks of 8 games
    first = _invoke("par", str(out), "--from-trick", "8", "--deals", "8")
    assert first.exit_code == 0, first.output  # type: ignore[attr-defined]
    assert "older search" not in first.output  # type: ignore[attr-defined]
    old = engine_search.SEARCH_VERSION
    monkeypatch.setattr(engine_search, "SEARCH_VERSION", old + 1)
    r = _invoke("par", str(out), "--from-trick", "8")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    assert (f"8 of them taken as an older search solved them (search {old}; this is "
            f"{old + 1})") in r.output  # type: ignore[attr-defined]
    table = pl.read_parquet(out / "par.parquet")
    assert table["search"].to_list() == [old] * 8 + [old + 1] * 8


def test_a_table_kept_across_chunks_answers_each_deal_from_its_own_entries(
        tmp_path: Path) -> None:
    """A worker keeps its search's table from one chunk to the next: the same chunk
    solved twice in it visits the positions of a fresh table each time (no entry of
    the first solve answers the second) and gives the same pars."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "16", "--out", str(out), "--workers", "1")
    cdict = open_run(out).config.to_dict()
    dd_nb.drop_kept()
    try:
        first = par_module._chunk(cdict, 0, 16, 6, 0)
        table = dd_nb._kept[threading.get_ident()][1][0]
        again = par_module._chunk(cdict, 0, 16, 6, 0)
        assert dd_nb._kept[threading.get_ident()][1][0] is table  # kept, not allocated again
    finally:
        dd_nb.drop_kept()
    assert (first["positions"] > 50).sum() >= 8
    for k in ("deal_id", "par", "positions"):
        assert np.array_equal(first[k], again[k]), k


def test_a_run_frees_the_tables_of_its_own_threads_only(tmp_path: Path) -> None:
    """At its end ``par`` frees the table its thread kept, not those other threads of the
    process keep for work of their own (a library user's ``odds`` beside it)."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "8", "--out", str(out), "--workers", "1")
    other = threading.Thread(target=dd_nb.kept_work, args=(4, 1))
    other.start()
    other.join()
    try:
        par_table(out, deals=8, from_trick=8)
        assert other.ident in dd_nb._kept
        assert threading.get_ident() not in dd_nb._kept
    finally:
        dd_nb.drop_kept([other.ident])


def test_deals_solved_untimed_have_no_seconds(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A chunk kept by a ``par`` that did not time its deals is taken as it is, its deals'
    ``seconds`` null; a par.parquet written without the column, or without ``search``,
    keeps its rows of other starting tricks beside a timed table, those columns null."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "16", "--out", str(out), "--workers", "1")
    monkeypatch.setattr(par_module, "CHUNK_GAMES", 8)  # from trick 7: chunks of 8 games
    timed = par_table(out, deals=16, from_trick=7)
    folder = out / PAR_PARTS / "from-7"
    kept = _load_kept(folder)
    _keep_part(folder, kept[8].key, kept[8].games, 8,
               {k: v for k, v in kept[8].cols.items() if k != "seconds"}, kept[8].limit)
    solved = _chunks_solved(monkeypatch)
    table = par_table(out, deals=16, from_trick=7)
    assert solved == [] and _answers(table).equals(_answers(timed))
    first = len(kept[0].cols["deal_id"])
    seconds = table.column("seconds").to_pylist()
    assert seconds[:first] == timed.column("seconds").to_pylist()[:first]
    assert all(x is None for x in seconds[first:]) and len(seconds) > first
    # a file without the columns, then a timed table of another trick written beside it
    for dropped in (["seconds"], ["seconds", "search"], ["search"]):
        write_par(out, timed.drop_columns(dropped))
        _, both = write_par(out, par_table(out, deals=16, from_trick=8))
        by_trick = pl.from_arrow(both).partition_by("from_trick", as_dict=True)
        for name in ("seconds", "search"):
            assert by_trick[(7,)][name].null_count() == (len(timed) if name in dropped else 0)
            assert by_trick[(8,)][name].null_count() == 0


def test_a_position_limit_leaves_the_longest_searches_unanswered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``max_positions`` a deal whose search needs more is left unanswered (par
    null, the limit's positions), every other deal answered as without the limit; the
    chunks a run kept are taken by a run with another limit only where they hold its
    answers, so every limit gives the table of a fresh run with it."""
    out = tmp_path / "run"
    _invoke("simulate", "--deals", "40", "--out", str(out), "--workers", "1")
    monkeypatch.setattr(par_module, "CHUNK_GAMES", 8)  # from trick 6: chunks of 8 games
    whole = _answers(par_table(out, deals=40, from_trick=6)).to_pydict()
    remove_par_parts(out, 6)
    positions = np.array(whole["positions"])
    limit = int(np.median(positions))

    def fresh(max_positions: int) -> pa.Table:
        remove_par_parts(out, 6)
        return par_table(out, deals=40, from_trick=6, max_positions=max_positions)

    cut = fresh(limit).to_pydict()
    over = positions > limit
    assert 5 <= over.sum() <= 35
    for i in range(len(positions)):
        if over[i]:
            assert cut["par"][i] is None and cut["positions"][i] == limit + 1
        else:
            assert (cut["par"][i], cut["positions"][i]) == (whole["par"][i], positions[i])
    # the chunks kept at this limit: another limit takes only those that hold its answers
    solved = _chunks_solved(monkeypatch)
    lower = int(np.percentile(positions, 25))
    starts = range(0, 40, 8)

    def beyond(most: int) -> list[int]:  # the chunks with a deal needing more than most
        return [s for s in starts if (positions[s:s + 8] > most).any()]

    # each run below finds the chunks the one before kept (all at that one's limit)
    for max_positions, retaken in [(limit, []), (lower, beyond(lower)), (0, beyond(lower)),
                                   (limit, beyond(limit))]:
        solved.clear()
        table = par_table(out, deals=40, from_trick=6, max_positions=max_positions)
        assert solved == retaken, max_positions
        assert _answers(table).equals(_answers(fresh(max_positions))), max_positions
    assert _answers(fresh(0)).to_pydict() == whole


def test_a_position_limit_is_for_a_runs_deals() -> None:
    r = _invoke("par", "--hand", "AS KS", "--contract", "15S", "--max-positions", "1K")
    assert r.exit_code == 2 and "--max-positions: only with DATASET" in r.output  # type: ignore[attr-defined]


ONE_DECK_PROFILES = [n for n in BUILTIN_PROFILES if load_profile(n).deck_copies == 1]


@pytest.mark.parametrize("name", ONE_DECK_PROFILES)
def test_card_costs_add_up_to_what_the_players_took(name: str) -> None:
    """The yardstick on random and heuristic deals of every one-deck profile: no card
    costs less than nothing; the par at the first trick measured, less the declarer's
    side's costs, plus the defence's, is what the side took; and the par the costs give
    at each later trick's start is the par the search finds there on its own."""
    profile = load_profile(name)
    for players in ("heuristic", "random"):
        batch = play_batch(profile, seed=4, game_start=0, games=40,
                           players=parse_players(players, profile.players),
                           record_tricks=True)
        out = engine_search.card_costs(batch, profile, 7)
        played = np.flatnonzero(batch.played())
        assert (out.pars[played] >= 0).all()
        n = profile.players
        taken = batch.column("tricks" if profile.bid_unit == "tricks" else "points")
        for r in played.tolist()[:15]:
            costs = out.costs[r]
            assert (costs[6:, :n] >= 0).all() and (costs[:, n:] == -1).all()
            assert (costs[:6] == -1).all()
            given = out.given[r].astype(int)
            assert (given[6:].sum(axis=1) == costs[6:, :n].sum(axis=1)).all()
            final = int(out.pars[r]) - given[:, 0].clip(0).sum() + given[:, 1].clip(0).sum()
            assert final == int(taken[r])
            par = int(out.pars[r])
            work = engine_search.trick_arrays(profile, 7)
            for pos in engine_search.recorded_positions(batch, r, profile, 7):
                t = pos.trick_no
                alone = engine_search.solve_position(pos, guess=engine_search.TOP,
                                                     work=work, solve=t).value
                assert alone == par, (name, players, r, t)
                par += -int(given[t - 1, 0]) + int(given[t - 1, 1])


def test_par_cards_writes_the_yardstick_that_analyze_and_show_give(tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = _invoke("simulate", "--deals", "200", "--out", str(out), "--workers", "1")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    r = _invoke("par", str(out), "--cards", "--deals", "150", "--from-trick", "7",
                "--workers", "2")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    cards = pl.read_parquet(out / "cards.parquet")
    assert cards.height == 150 and (cards["from_trick"] == 7).all()
    by_trick = np.stack(cards["declarer_by_trick"].to_list()).astype(int)
    assert (by_trick.sum(axis=1) == cards["given_declarer"].to_numpy()).all()
    assert (by_trick[:, :6] == 0).all()
    r = _invoke("analyze", str(out), "--format", "json")
    assert r.exit_code == 0 and '"card_costs"' in r.output  # type: ignore[attr-defined]
    assert '"card_costs_by_trick"' in r.output  # type: ignore[attr-defined]
    costly = cards.filter(pl.col("given_declarer") + pl.col("given_defence") > 0)
    r = _invoke("show", str(out), "--deal", str(costly["deal_id"][0]), "--par-from", "7")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    assert "(-" in r.output and "cost against the par" in r.output  # type: ignore[attr-defined]
    r = _invoke("par", str(out), "--cards", "--max-positions", "5M")
    assert r.exit_code == 2 and "not with --cards" in r.output  # type: ignore[attr-defined]
    (out / "cards.parquet").write_bytes(b"not parquet")  # a damaged table is said, not lost
    r = _invoke("analyze", str(out))
    assert r.exit_code == 2 and "cards.parquet is damaged" in r.output  # type: ignore[attr-defined]
