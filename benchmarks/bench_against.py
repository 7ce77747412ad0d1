"""The batch kernel against an earlier revision, both in one process, rounds alternating.

This machine is shared: its speed moves by 20-40% within minutes, more than most changes
to the kernel are worth, so two runs minutes apart cannot compare two versions. Here the
revision's package is exported (``git archive``) under another name, both versions are
imported into this process and timed in alternating rounds (CPU time of one
``play_batch`` call of ``--games`` games each); the ratios old/new of the rounds are
printed sorted, with their median. A ratio above 1 means the working tree is faster.

Before timing it says whether both versions write identical rows for the same games,
every array of the batch with the tricks recorded (a speed change usually should; a
change of play or rules will not): for the profile timed, and with ``--check-all`` for
every built-in profile with random, heuristic and (one deck) PIMC players.

    .venv/bin/python benchmarks/bench_against.py HEAD~1 [--profile standard]
        [--players heuristic,random] [--games 30000] [--rounds 12] [--check-all]
        [--simulate DEALS [--workers 2] [--tricks]] [--writer GAMES] [--odds SAMPLES]
        [--par TRICK [--par-games 300]]

``--simulate`` also times whole runs of ``simulate`` (play and Parquet; with ``--tricks``
the tricks table too), old and new alternating, wall time; ``--writer`` the ``deals``
table (``--writer-tables`` names ``tricks`` too) and its Parquet file of both (CPU time
a played deal, bytes a played deal, and whether the files read back hold the same
values, dictionary columns decoded); ``--odds`` the ``odds`` of one hand (wall
time, tables compared); ``--par`` the double-dummy par of recorded heuristic deals from
a trick's start as ``mighty-sim par`` solves them (CPU time, pars compared).

The exported copy and its compiled kernels are kept in ``out/bench-against/<commit>``,
so a second comparison with the same revision does not compile it again. The figures are
also written as JSON (``--out``), as every benchmark's are.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from statistics import median
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from _results import save
from numba import config as numba_config

from mighty_sim.analysis.tables import seat_lists
from mighty_sim.dataset.schema import bid_name
from mighty_sim.rules.profile import BUILTIN_PROFILES, load_profile

ROOT = Path(__file__).resolve().parent.parent
ALIAS = "mighty_sim_rev"


def export(rev: str) -> tuple[str, Path]:
    """Export ``src/mighty_sim`` of ``rev`` as package ``ALIAS``; (commit, folder)."""
    commit = subprocess.run(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.strip()
    base = ROOT / "out" / "bench-against" / commit[:12]
    pkg = base / ALIAS
    if not pkg.exists():
        tar = subprocess.run(["git", "archive", commit, "src/mighty_sim"], cwd=ROOT,
                             check=True, capture_output=True).stdout
        tmp = base / ".export"
        with tarfile.open(fileobj=io.BytesIO(tar)) as t:
            t.extractall(tmp, filter="data")
        for f in (tmp / "src" / "mighty_sim").rglob("*.py"):
            f.write_text(re.sub(r"\bmighty_sim\b(?=[. ])", ALIAS, f.read_text()))
        (tmp / "src" / "mighty_sim").rename(pkg)
    return commit, base


class Engine:
    """``parse_players``, ``play_batch`` and ``load_profile`` of one version of the
    package, whether laid out in subpackages or (older revisions) flat."""

    def __init__(self, package: str) -> None:
        def find(modules: tuple[str, ...], name: str) -> Any:
            for module in modules:
                try:
                    return getattr(importlib.import_module(f"{package}.{module}"), name)
                except (ImportError, AttributeError):
                    continue
            raise ImportError(f"{package} has no {name}")

        # the kernels imported now, while this package's compile cache is Numba's: its
        # `_jit` points Numba at it on import, and a kernel decorated after the other
        # package's import would be saved to (and loaded from) the other's cache
        for module in ("kernels.loop.games_nb", "kernels.loop.odds_nb",
                       "kernels.players.pimc_nb",  # kernels by concern, and flat before
                       "kernels.games_nb", "kernels.odds_nb", "kernels.pimc_nb"):
            try:
                importlib.import_module(f"{package}.{module}")
            except ImportError:
                continue
        self.parse_players = find(("engine.players", "engine"), "parse_players")
        self.play_batch = find(("engine.batch", "engine"), "play_batch")
        self.load_profile = find(("rules.profile", "profile"), "load_profile")
        self.deals_table = find(("dataset.schema", "schema"), "deals_table")
        self.tricks_table = find(("dataset.schema", "schema"), "tricks_table")
        # the row columns' indices, which differ between versions
        self.hist_len = find(("kernels.layout", "layout", "engine"), "R_HIST_LEN")
        self.outcome = find(("kernels.layout", "layout", "engine"), "R_OUTCOME")
        self.parquet_writer = find(("dataset.writer", "writer"), "parquet_writer")
        self.hand_odds = find(("analysis.odds",), "hand_odds")
        self.parse_cards = find(("rules.cards",), "parse_cards")
        try:  # the double-dummy par, in revisions that have it
            self.par_nb = find(("kernels.search.par_nb", "kernels.par_nb"), "par_nb")
            self.n_par = find(("kernels.search.par_nb", "kernels.par_nb"), "N_PAR")
            self.par_value = find(("kernels.search.par_nb", "kernels.par_nb"), "PAR_VALUE")
            self.compile_profile = find(("kernels.params",), "compile_profile")
        except ImportError:
            self.par_nb = None

        def optional(modules: tuple[str, ...], name: str) -> Any:
            try:
                return find(modules, name)
            except ImportError:
                return None

        # how `par` solves: in chunks of games, each chunk in its own arrays
        self.par_rows_nb = optional(("kernels.search.par_nb", "kernels.par_nb"), "par_rows_nb")
        self.chunk_games = optional(("analysis.par",), "chunk_games")
        self.search_work = optional(("kernels.search.dd_nb", "kernels.dd_nb"), "search_work")
        self.par_bits_nb = optional(("kernels.search.par_nb", "kernels.par_nb"), "par_bits_nb")
        self.g_game = optional(("kernels.layout",), "G_GAME")

    def solve_par(self, batch: Any, params: np.ndarray, profile: Any, from_trick: int,
                  out: np.ndarray) -> None:
        """The pars of a batch's rows in this version's ``mighty-sim par`` chunks of
        games (one ``par_nb`` call for the whole batch in versions without chunks), each
        chunk with fresh arrays: ``par`` keeps a worker's table from chunk to chunk, but
        versions from before that allocated one a chunk, and fresh arrays in both keep
        the comparison the search's alone."""
        if self.par_rows_nb is None or self.chunk_games is None or self.g_game is None:
            self.par_nb(batch.ri, batch.ru, batch.ti, params, from_trick, out)
            return
        games = batch.rg[:, self.g_game]
        size = self.chunk_games(profile, from_trick)
        for g in range(0, int(games.max()) + 1, size):
            r0, r1 = np.searchsorted(games, [g, g + size])
            args: tuple[Any, ...] = (batch.ri, batch.ru, batch.ti, params, from_trick,
                                     int(r0), int(r1), -1, 1 << 30, out, 0)
            if self.search_work is not None:  # the arrays allocated by the caller
                args += (self.search_work(self.par_bits_nb(params, from_trick)), 0)
            code = self.par_rows_nb.py_func.__code__
            if code.co_varnames[0] == "rows":  # the row arrays as one tuple
                args = ((batch.ri, batch.ru, batch.ti), *args[3:])
            # before the position limit, no limit argument
            self.par_rows_nb(*args[:code.co_argcount])


ROW_ARRAYS = ("ru", "rf", "rw", "rh")
"""The batch arrays of the same layout in every revision compared: the others (the int
columns, narrowed and split in two; the trick rows, narrowed and without the row each
trick belongs to) are compared as the tables they decode to."""


def same_rows(new: Any, old: Any, profile: str, players: str, games: int) -> bool:
    """Whether both versions write identical rows for ``games`` games (ledger of 3): the
    ``deals`` and ``tricks`` tables, every value decoded (:func:`comparable`), and the
    arrays of :data:`ROW_ARRAYS`."""
    batches, tables = [], []
    for engine in (new, old):
        p = engine.load_profile(profile)
        spec = engine.parse_players(players, p.players)
        batch = engine.play_batch(p, seed=1, game_start=0, games=games, players=spec,
                                  ledger=3, record_tricks=True)
        batches.append(batch)
        tables.append((comparable(engine.deals_table(batch, p.players)),
                       comparable(engine.tricks_table(batch, p.players))))
    same_tables = all(not differing(a, b) for a, b in zip(*tables, strict=True))
    return same_tables and all(
        np.array_equal(_rows(batches[0], k, new), _rows(batches[1], k, old)) for k in ROW_ARRAYS)


def _rows(batch: Any, name: str, engine: Engine) -> np.ndarray:
    """A batch array; the auctions as one run of calls whichever layout the version has
    (a row of HISTORY entries each, or one after another)."""
    a = getattr(batch, name)
    if name == "rh" and a.ndim == 2:
        lengths = batch.ri[:, engine.hist_len]
        return a[np.arange(a.shape[1])[None, :] < lengths[:, None]]
    return a


def check_all(new: Any, old: Any) -> bool:
    """Row identity for every built-in profile and player type; prints one line each."""
    ok = True
    for name in BUILTIN_PROFILES:
        kinds = [("random", 300), ("heuristic", 300)]
        if load_profile(name).deck_copies == 1:
            kinds.append(("pimc:worlds=4", 8))
        results = []
        for players, games in kinds:
            same = same_rows(new, old, name, players, games)
            ok &= same
            results.append(f"{players.split(':')[0]} {'yes' if same else 'NO'}")
        print(f"  rows identical, {name:<11} {', '.join(results)}", flush=True)
    return ok


def simulate_seconds(module: str, base: Path, profile: str, deals: int, workers: int,
                     out: Path, tricks: bool = False) -> float:
    """Wall time of ``python -m MODULE simulate`` (JIT kernels, compiled before), with
    ``--tricks`` when ``tricks``."""
    env = {**os.environ, "PYTHONPATH": str(base), "MIGHTY_SIM_AOT": "0"}
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", module, "simulate", "--profile", profile,
                    "--deals", str(deals), "--workers", str(workers), "--seed", "1",
                    "--out", str(out), "--overwrite", *(["--tricks"] if tricks else [])],
                   env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def cpu_seconds(engine: Any, profile: Any, players: str, start: int, games: int) -> float:
    spec = engine.parse_players(players, profile.players)
    t = time.process_time()
    engine.play_batch(profile, seed=1, game_start=start, games=games, players=spec)
    return time.process_time() - t


def decoded(table: pa.Table) -> pa.Table:
    """``table`` with dictionary columns (and lists of them) as their plain values, and
    ``bid_history`` codes (schema 2) as the calls' names."""
    columns = []
    for name, column in zip(table.column_names, table.columns, strict=True):
        t = column.type
        if name == "bid_history" and pa.types.is_integer(t.value_type):
            lists = column.combine_chunks()
            codes = lists.values.to_numpy()
            uniq, inverse = np.unique(codes, return_inverse=True)
            names = pa.array([bid_name(c) for c in uniq]).take(pa.array(inverse))
            column = pa.ListArray.from_arrays(lists.offsets, names)
        elif pa.types.is_dictionary(t):
            column = column.cast(t.value_type)
        elif pa.types.is_list(t) and pa.types.is_dictionary(t.value_type):
            column = column.cast(pa.list_(t.value_type.value_type))
        elif pa.types.is_list(t):  # items declared never null or not: the same values
            column = column.cast(pa.list_(t.value_type))
        columns.append(column)
    return pa.table(columns, names=table.column_names)


def with_attempt(deals: pl.DataFrame) -> pl.DataFrame:
    """``deals`` with the column ``attempt`` after ``game`` (schema 2 leaves it to
    ``deal_id & 0xFFFF``)."""
    if "attempt" in deals.columns:
        return deals
    attempt = (pl.col("deal_id") & 0xFFFF).cast(pl.Int16).alias("attempt")
    at = deals.columns.index("game") + 1
    return deals.with_columns(attempt).select(
        [*deals.columns[:at], "attempt", *deals.columns[at:]])


def writer_figures(engine: Any, profile: str, games: int, name: str = "deals"
                   ) -> tuple[Any, list[float], int, int]:
    """One version's writer of table ``name`` (``deals`` or ``tricks``) on ``games``
    heuristic games: (the Parquet file read back, CPU seconds of table + Parquet of each
    of 3 rounds, bytes, played deals)."""
    p = engine.load_profile(profile)
    batch = engine.play_batch(p, seed=1, game_start=0, games=games,
                              players=engine.parse_players("heuristic", p.players),
                              record_tricks=name == "tricks")
    seconds = []
    for _ in range(3):
        buf = io.BytesIO()
        t = time.process_time()
        if name == "tricks":
            table = engine.tricks_table(batch, p.players)
        else:
            try:  # as the version's writer calls it
                table = engine.deals_table(batch, p.players, seat_columns=True)
            except TypeError:
                table = engine.deals_table(batch, p.players)
        w = engine.parquet_writer(buf, table.schema)
        w.write_table(table)
        w.close()
        seconds.append(time.process_time() - t)
    back = pq.read_table(io.BytesIO(buf.getvalue()))
    return back, seconds, buf.tell(), int((batch.ri[:, engine.outcome] == 0).sum())


def comparable(table: pa.Table) -> pl.DataFrame:
    """A ``deals`` or ``tricks`` table of any version as values to compare: dictionary
    columns decoded, seat columns joined into lists, ``attempt`` a column."""
    frame = seat_lists(pl.from_arrow(decoded(table)).lazy()).collect()  # type: ignore[union-attr]
    return with_attempt(frame) if "game" in frame.columns else frame


def differing(new: pl.DataFrame, old: pl.DataFrame) -> list[str]:
    """The columns of ``old`` that ``new`` lacks or holds other values in (every column
    when the two differ in their columns)."""
    if new.columns != old.columns:
        return list(dict.fromkeys(old.columns + new.columns))
    return [c for c in old.columns if not new[c].equals(old[c])]


def compare_writers(new: Any, old: Any, profile: str, games: int, rounds: int,
                    table: str = "deals") -> dict[str, object]:
    """The writer (Arrow table and zstd Parquet of the ``deals`` or ``tricks`` rows) of
    both versions, alternating: µs per played deal (median of the rounds' best), bytes
    per played deal, and whether the files read back hold the same values."""
    times: dict[str, list[float]] = {"old": [], "new": []}
    out: dict[str, Any] = {}
    for _ in range(rounds):
        for name, engine in (("old", old), ("new", new)):
            back, seconds, size, played = writer_figures(engine, profile, games, table)
            times[name].append(min(seconds) / played * 1e6)
            out[name] = (back, size / played)
    new_t, old_t = (comparable(out[k][0]) for k in ("new", "old"))
    differ = differing(new_t, old_t)
    same = not differ
    res = {k: {"us_per_played_deal": median(v), "bytes_per_played_deal": out[k][1]}
           for k, v in times.items()}
    res["values_identical"] = same
    print(f"  writer, {table} ({games:,} games, {rounds} rounds): "
          f"old {median(times['old']):.2f} µs, {out['old'][1]:.1f} B; "
          f"new {median(times['new']):.2f} µs, {out['new'][1]:.1f} B a played deal; "
          f"values read back identical: {'yes' if same else 'NO'}"
          + (f" ({', '.join(differ)} differ)" if differ else ""))
    return res


def compare_odds(new: Any, old: Any, profile: str, samples: int, rounds: int
                 ) -> dict[str, object]:
    """``hand_odds`` of one standard hand (every contract, ``samples`` deals a strain) in
    both versions, alternating: median seconds of each, and whether the tables agree."""
    hand = "JK AS KS QS 10S 5S AH KD 9C 7C"
    for engine in (new, old):  # compiled before timing
        engine.hand_odds(engine.load_profile(profile), engine.parse_cards(hand), samples=10)
    seconds: dict[str, list[float]] = {"old": [], "new": []}
    tables = {}
    for _ in range(rounds):
        for name, engine in (("old", old), ("new", new)):
            p = engine.load_profile(profile)
            t = time.perf_counter()
            tables[name] = engine.hand_odds(p, engine.parse_cards(hand), samples=samples,
                                            seed=3)
            seconds[name].append(time.perf_counter() - t)
    same = tables["new"] == tables["old"]
    old_s, new_s = median(seconds["old"]), median(seconds["new"])
    print(f"  odds ({samples:,} samples a strain, {rounds} rounds): old {old_s:.3f} s, new "
          f"{new_s:.3f} s ({old_s / new_s:.2f}x); tables identical: {'yes' if same else 'NO'}")
    return {"old_s": old_s, "new_s": new_s, "tables_identical": same}


def compare_par(new: Any, old: Any, profile: str, from_trick: int, games: int, rounds: int
                ) -> dict[str, object]:
    """The solves of ``mighty-sim par`` (:meth:`Engine.solve_par`: its chunks of games,
    each with its own arrays) in both versions, alternating, each on its own recording
    of the same ``games`` heuristic games (the row layouts differ between versions) from
    trick ``from_trick``: CPU time old/new a round, and whether the pars agree."""
    if old.par_nb is None:
        raise SystemExit("--par: the revision has no double-dummy par")
    work = {}
    for name, engine in (("old", old), ("new", new)):
        p = engine.load_profile(profile)
        players = engine.parse_players("heuristic", p.players)
        params = engine.compile_profile(p)
        batch = engine.play_batch(p, seed=3, game_start=0, games=games, players=players,
                                  record_tricks=True)
        small = engine.play_batch(p, seed=4, game_start=0, games=3, players=players,
                                  record_tricks=True)
        out = np.zeros((small.rows, engine.n_par), np.int64)
        engine.solve_par(small, params, p, from_trick, out)  # compiled
        work[name] = (engine, batch, params, p)
    ratios, values = [], {}
    for r in range(rounds):
        seconds = {}
        for name in (("old", "new") if r % 2 == 0 else ("new", "old")):
            engine, batch, params, p = work[name]
            out = np.zeros((batch.rows, engine.n_par), np.int64)
            t = time.process_time()
            engine.solve_par(batch, params, p, from_trick, out)
            seconds[name] = time.process_time() - t
            values[name] = out[:, engine.par_value]
        ratios.append(seconds["old"] / seconds["new"])
    ratios.sort()
    same = bool(np.array_equal(values["old"], values["new"]))
    print(f"  par from trick {from_trick}, {games:,} games: old/new time "
          f"{' '.join(f'{v:.2f}' for v in ratios)}; median {median(ratios):.2f}; pars "
          f"identical: {'yes' if same else 'NO'} (this round: {seconds['new']:.2f} s new)")
    return {"from_trick": from_trick, "games": games, "old_over_new": ratios,
            "median": median(ratios), "pars_identical": same}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="git revision to compare the working tree with")
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--players", default="heuristic,random",
                    help="comma-separated policies, each timed on its own")
    ap.add_argument("--games", type=int, default=30_000)
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--simulate", type=int, default=0, metavar="DEALS",
                    help="also time `simulate` of DEALS deals end to end (wall time)")
    ap.add_argument("--workers", type=int, default=2, help="workers of --simulate")
    ap.add_argument("--tricks", action="store_true",
                    help="--simulate writes the tricks table too (`simulate --tricks`)")
    ap.add_argument("--odds", type=int, default=0, metavar="SAMPLES",
                    help="also time `odds` of one hand with SAMPLES deals a strain")
    ap.add_argument("--writer", type=int, default=0, metavar="GAMES",
                    help="also time the writer (deals table + Parquet) on GAMES games")
    ap.add_argument("--writer-tables", default="deals", metavar="NAMES",
                    help="the tables --writer times: deals, tricks or deals,tricks")
    ap.add_argument("--par", type=int, default=0, metavar="TRICK",
                    help="also time the double-dummy par of --par-games heuristic games "
                         "from the start of TRICK")
    ap.add_argument("--par-games", type=int, default=300)
    ap.add_argument("--check-all", action="store_true",
                    help="first compare the rows of every built-in profile and player type")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/against.json"))
    args = ap.parse_args()
    if numba_config.DISABLE_JIT:
        ap.error("NUMBA_DISABLE_JIT is set; this times the compiled kernels")
    # both versions' JIT kernels: a module compiled ahead of time for one of them (`mighty-sim
    # compile`, run by make) would otherwise be timed against the other's JIT kernel
    os.environ["MIGHTY_SIM_AOT"] = "0"
    commit, base = export(args.rev)
    sys.path.insert(0, str(base))
    new_engine = Engine("mighty_sim")
    old_engine = Engine(ALIAS)
    old_profile = old_engine.load_profile(args.profile)
    profile = load_profile(args.profile)
    print(f"working tree against {commit[:12]} ({args.rev}), profile {args.profile}, "
          f"{args.games:,} games a round, CPU time")
    result: dict[str, object] = {"revision": commit, "profile": args.profile,
                                 "games_per_round": args.games}
    if args.check_all:
        result["all_rows_identical"] = check_all(new_engine, old_engine)
    for players in filter(None, args.players.split(",")):  # --players "": none
        same = same_rows(new_engine, old_engine, args.profile, players, 2000)
        ratios = []
        for r in range(args.rounds):
            start = 1_000_000 + r * args.games
            old = cpu_seconds(old_engine, old_profile, players, start, args.games)
            new = cpu_seconds(new_engine, profile, players, start, args.games)
            ratios.append(old / new)
        ratios.sort()
        print(f"  {players:<10} rows identical: {'yes' if same else 'NO'}; old/new time "
              f"{' '.join(f'{v:.2f}' for v in ratios)}; median {median(ratios):.2f} "
              f"(this round: {args.games / new:,.0f} deals/s new)")
        result[players] = {"rows_identical": same, "old_over_new": ratios,
                           "median": median(ratios)}
    if args.odds:
        result["odds"] = compare_odds(new_engine, old_engine, args.profile, args.odds,
                                      args.rounds)
    if args.par:
        result["par"] = compare_par(new_engine, old_engine, args.profile, args.par,
                                    args.par_games, args.rounds)
    if args.writer:
        for table in args.writer_tables.split(","):
            key = "writer" if table == "deals" else f"writer_{table}"
            result[key] = compare_writers(new_engine, old_engine, args.profile, args.writer,
                                          args.rounds, table)
    if args.simulate:
        runs = ROOT / "out" / "bench-against" / "runs"
        for module, where in (("mighty_sim", ROOT / "src"), (ALIAS, base)):  # compile both
            simulate_seconds(module, where, args.profile, 1000, 1, runs / module)
        ratios = []
        for _ in range(args.rounds):
            old = simulate_seconds(ALIAS, base, args.profile, args.simulate, args.workers,
                                   runs / ALIAS, args.tricks)
            new = simulate_seconds("mighty_sim", ROOT / "src", args.profile, args.simulate,
                                   args.workers, runs / "mighty_sim", args.tricks)
            ratios.append(old / new)
        ratios.sort()
        what = " --tricks" if args.tricks else ""
        print(f"  simulate{what} {args.simulate:,} deals, {args.workers} workers: old/new "
              f"wall time {' '.join(f'{v:.2f}' for v in ratios)}; median {median(ratios):.2f} "
              f"(this round: {args.simulate / new:,.0f} deals/s new)")
        result["simulate"] = {"deals": args.simulate, "workers": args.workers,
                              "tricks": args.tricks,
                              "old_over_new": ratios, "median": median(ratios)}
        shutil.rmtree(runs, ignore_errors=True)
    save(result, args.out)


if __name__ == "__main__":
    main()
