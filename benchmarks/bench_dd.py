"""The double-dummy search (``kernels.search.dd_nb``): time and positions searched a solve.

What it counts: random contracts of ``standard`` on random deals, played by random
players to an ending of N tricks left (and a few cards of the first of them), each
solved once from a cold table, one thread, compiled code; per N the median, 90th and
99th percentile (the maximum with fewer than 100 positions) of the CPU time a solve (of
the solving thread, so a run beside other work, or niced, times what it would alone),
the mean, the shares under 20 ms, 1 s and 10 s, the median positions searched and the
time a position. With ``--played D``, the same figures for D deals played by
heuristic players (the contracts and hands of real auctions and exchanges), each taken
up at the start of trick T (``--from``, the tricks before replayed as played), solved
as ``mighty-sim par`` solves them (null-window searches from the top of the range, one
table for all the deals); with ``--question makes`` (or ``both``) the time to
answer whether the contract makes (the null-window search of ``par --hand``); with
``--question odds`` the par as ``odds --play double-dummy`` needs it, searched only as
far as the bids' range (``par_nb.par_rows_nb``); with ``--max-positions N`` a par
left unanswered past N positions counts as slower than every answered one; with
``--question targets`` where the par's positions go among its null-window searches
(the one that fails just above the par, the one that reaches it, those above), no
times. With ``--without PART`` the par again without a part of the search
(``--without ranks``: the table's entries keyed on every hand in relative ranks). With
``--parts N``, what each part of the search buys: positions and time on the same
endings of N tricks with the whole search, with each part left out, and with alpha-beta
alone (up to 5 tricks). Before timing, it checks the search against the exhaustive one
on 50 endings of 2 tricks.

    .venv/bin/python benchmarks/bench_dd.py [--tricks 3,4,5,6] [--positions 40]
    .venv/bin/python benchmarks/bench_dd.py --tricks "" --played 2000 --from 7,6,5
    .venv/bin/python benchmarks/bench_dd.py --tricks "" --parts 5
    .venv/bin/python benchmarks/bench_dd.py --tricks "" --played 40 --from 1 --question makes
    .venv/bin/python benchmarks/bench_dd.py --tricks "" --played 20 --from 1 --question odds
    .venv/bin/python benchmarks/bench_dd.py --tricks "" --played 20 --from 1 --question targets
    .venv/bin/python benchmarks/bench_dd.py --tricks "" --played 1000 --from 1 \
        --question makes --log benchmarks/results/dd_makes.log
    .venv/bin/python benchmarks/bench_dd.py --tricks "" --played 10000 --from 1 \
        --max-positions 2000000000 --log benchmarks/logs/dd_whole_v4.log

The last is the whole-deal timing, far longer than a sitting (``--part 0/2`` and
``--part 1/2`` run it on two cores, each solving every other deal): its log is kept in the
repository (``_v4``: :data:`mighty_sim.kernels.search.dd_nb.SEARCH_VERSION`; a search that
visits other positions starts a new log), and each run takes the deals already there
from it and adds more. A deal's positions do not depend on the run; its time moves with
the machine's phase and whatever ran beside it. With ``--par-run RUN``, the deals the
log lacks are taken from a ``mighty-sim par`` run of the same deals where it has solved
them (``simulate --deals N --seed 1``, heuristic players: `benchmarks/whole_deals.py`'s
heuristic run), as ``par`` timed them: one table kept for every deal, as here. Where
both hold a deal, its positions must agree. Only the deals this search was the first
to solve count (``par`` takes the pars an older search found, with that search's
positions, and solves again only the deals it left unanswered, the hardest).

    .venv/bin/python benchmarks/bench_dd.py --tricks "" --played 2500 --from 1 \
        --max-positions 2000000000 --log benchmarks/logs/dd_whole_v4.log \
        --par-run out/whole-deals/heuristic [--also-run out/whole-deals/pimc]

``--also-run RUN`` counts the deals of another ``par`` run with them (another seed, every
seat bidding, exchanging and calling as the heuristic player, as PIMC players do: the
positions after the exchange are of the same kind; how the cards were then played does
not enter a par from trick 1), its deals solved in a row, as ``par`` timed them.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
from _results import print_figures, save
from floor import floor_rate
from numba import config as numba_config
from par_runs import kept_solves, solved_in_a_row
from rich.console import Console
from rich.progress import MofNCompleteColumn, Progress

from mighty_sim.dataset.integrity import open_run
from mighty_sim.dataset.schema import deal_id
from mighty_sim.engine.batch import Batch, play_batch, policy_arrays
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import (
    G_ATTEMPT,
    G_GAME,
    MAX_PLAYERS,
    OUTCOME_PLAYED,
    POLICY_HEURISTIC,
    POLICY_PIMC,
    PP_BIDDING,
    R_BID,
    R_OUTCOME,
)
from mighty_sim.kernels.loop.play_nb import N_H, N_S
from mighty_sim.kernels.params import P_HAND_SIZE, P_TOTAL_POINTS, compile_profile
from mighty_sim.kernels.search.dd_nb import (
    SEARCH_VERSION,
    TOP,
    TT_BITS,
    USE_ALL,
    USE_BOUNDS,
    USE_DECIDED,
    USE_EQUALS,
    USE_LAST,
    USE_ORDER,
    USE_PRUNING,
    USE_RANKS,
    USE_TABLE,
    Work,
    dd_search_nb,
    dd_target_uses_nb,
    dd_target_work_nb,
    dd_value_nb,
    minimax_nb,
    search_work,
    side_of_nb,
    table_bits_nb,
    work_nb,
)
from mighty_sim.kernels.search.par_nb import (
    first_tricks_nb,
    recorded_position_nb,
)
from mighty_sim.rules.profile import RuleProfile, load_profile
from mighty_sim.verify.positions import random_ending


def _timed(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
           seconds: list[float], searched: list[int], target: int = -1,
           par: tuple[int, Work, int, int, int] | None = None, limit: int = 0,
           uses: int = USE_ALL) -> None:
    """Solve once, adding the thread's CPU time and the positions searched to the lists: the
    par by one search from a cold table; with a ``target`` whether the side reaches it;
    with ``par`` (guess, work arrays, solve number, lo, hi) the par as ``par_nb`` finds
    it, only as far as [lo, hi] (``par_rows_nb``), left unanswered past ``limit``
    positions (> 0; its positions then ``limit`` + 1), with the parts of the search
    ``uses`` names."""
    nodes = np.zeros(1, np.int64)
    t = time.thread_time()
    if target >= 0:  # as `par --hand` asks it: a fresh table, allocated by NumPy
        dd_target_work_nb(s, h, tr, params, nodes, target, target - 1, target,
                          search_work(table_bits_nb(s, h)), 0, 0)
    elif par is not None:
        guess, work, solve, lo, hi = par
        if uses == USE_ALL:  # the search as par runs it
            dd_target_work_nb(s, h, tr, params, nodes, guess, lo, hi, work, solve, limit)
        else:
            dd_target_uses_nb(s, h, tr, params, nodes, guess, lo, hi, work, solve, limit,
                              uses)
    else:
        dd_value_nb(s, h, tr, params, nodes)
    seconds.append(time.thread_time() - t)
    searched.append(int(nodes[0]))


def _summary(seconds: list[float], searched: list[int], name: str, limit: int = 0
             ) -> dict[str, float]:
    """The figures of a question's solves; a solve left unanswered at ``limit`` counts as
    slower than every other (its time inf), so a percentile above the answered share is
    inf; the mean counts it at the time it took to the limit (a lower bound), the time a
    position only the answered solves."""
    timed = np.array(seconds, dtype=float)
    answered = np.array([not limit or n <= limit for n in searched], dtype=bool)
    s = np.where(answered, timed, math.inf)
    tail = np.percentile(s, 99) if len(s) >= 100 else s.max()
    positions = np.array(searched, dtype=float)
    return {f"{name}_solves": float(len(s)),
            f"{name}_unanswered": float((~answered).sum()),
            f"{name}_median_ms": float(np.median(s)) * 1e3,
            f"{name}_p90_ms": float(np.percentile(s, 90)) * 1e3,
            f"{name}_p99_or_max_ms": float(tail) * 1e3,
            f"{name}_max_ms": float(s.max()) * 1e3,
            f"{name}_slowest_answered_ms": float(timed[answered].max(initial=0.0)) * 1e3,
            f"{name}_mean_at_least_ms": float(timed.mean()) * 1e3,
            f"{name}_under_20_ms_%": 100.0 * float((s < 0.02).mean()),
            f"{name}_under_1_s_%": 100.0 * float((s < 1.0).mean()),
            f"{name}_under_10_s_%": 100.0 * float((s < 10.0).mean()),
            f"{name}_median_positions": float(np.median(positions)),
            f"{name}_total_positions": float(positions.sum()),
            f"{name}_ns_a_position": 1e9 * float(timed[answered].sum())
            / max(1.0, float(positions[answered].sum())),
            f"{name}_total_s": float(s.sum())}


def _logged(log: Path | None) -> dict[tuple[str, int], tuple[float, int]]:
    """The solves a ``--log`` file holds: (seconds, positions) by (figure's name, solve)."""
    done: dict[tuple[str, int], tuple[float, int]] = {}
    if log is not None and log.exists():
        for line in log.read_text().splitlines():
            parts = line.split()
            if len(parts) == 4:  # a line cut short by a stop is left out
                done[(parts[0], int(parts[1]))] = (float(parts[2]), int(parts[3]))
    return done


def _played_deals(profile: RuleProfile, deals: int) -> tuple[Batch, np.ndarray, np.ndarray]:
    """The first ``deals`` played deals of games played by heuristic players (seed 1),
    their tricks recorded: (the batch, the played rows, each row's first trick row)."""
    batch = play_batch(profile, seed=1, game_start=0, games=deals,
                       players=parse_players("heuristic", profile.players), record_tricks=True)
    rows = np.flatnonzero(batch.ri[:, R_OUTCOME] == OUTCOME_PLAYED)[:deals]
    return batch, rows, first_tricks_nb(batch.ri, profile.hand_size)


def _targets(profile: RuleProfile, params: np.ndarray, deals: int, start: int
             ) -> dict[str, float]:
    """Where the par's positions go: each deal's par from the start of trick ``start``
    found one target at a time from the top, as ``par`` finds it when every search that
    fails returns one below its target (each a one-target window of
    ``dd_target_work_nb``, one table for all the deals), and found again by ``par``'s own
    call in a second table. Over the deals where the two agree (the same par, the same
    positions: ``par`` searched every target from the top), the shares of their
    positions in the search that failed just above the par, in the one that reached it
    and in those above, and the searches a deal."""
    batch, rows, first = _played_deals(profile, deals)
    s, h, tr = np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64), np.zeros(MAX_PLAYERS, np.int64)
    top = max(int(params[P_TOTAL_POINTS]), int(params[P_HAND_SIZE]))
    one, whole = work_nb(TT_BITS), work_nb(TT_BITS)
    nodes = np.zeros(1, np.int64)
    next_fail = reach = above = tests = same = 0
    for solve, r in enumerate(rows, 1):
        recorded_position_nb(batch.ri, batch.ru, batch.ti, r, first[r], params, start, s, h, tr)
        per: dict[int, int] = {}
        for target in range(top, -1, -1):
            nodes[0] = 0
            value = dd_target_work_nb(s.copy(), h.copy(), tr.copy(), params, nodes, target,
                                      target - 1, target, one, solve, 0)
            if nodes[0]:  # a target outside the side's range needs no search
                per[target] = int(nodes[0])
            if value >= target:
                break
        nodes[0] = 0
        par = dd_target_work_nb(s.copy(), h.copy(), tr.copy(), params, nodes, TOP, -1, TOP,
                                whole, solve, 0)
        if par != target or int(nodes[0]) != sum(per.values()):
            continue  # a search's bound let par skip targets: left out of the shares
        same += 1
        next_fail += per.get(target + 1, 0)
        reach += per.get(target, 0)
        above += sum(v for t, v in per.items() if t > target + 1)
        tests += len(per)
    total = max(1, next_fail + reach + above)
    name = f"targets_from_trick_{start}"
    return {f"{name}_deals": float(len(rows)),
            f"{name}_deals_searched_target_by_target": float(same),
            f"{name}_their_positions": float(next_fail + reach + above),
            f"{name}_share_failing_just_above_par": next_fail / total,
            f"{name}_share_reaching_par": reach / total,
            f"{name}_share_above": above / total,
            f"{name}_searches_a_deal": tests / max(1, same)}


def _par_solves(run: Path, profile: RuleProfile, start: int, limit: int
                ) -> dict[int, tuple[float, int]]:
    """The deals of ``mighty-sim par`` run ``run`` solved and timed from trick ``start``:
    (seconds, positions) by deal id. SystemExit unless the run is of the deals timed
    here (seed 1, heuristic players, the profile), or if it left a deal unanswered at
    another limit than ``limit``."""
    config = open_run(run).config
    ours = policy_arrays(parse_players("heuristic", profile.players), profile)
    theirs = policy_arrays(config.players, config.profile)
    if config.seed != 1 or config.profile != profile or not all(
            np.array_equal(a, b) for a, b in zip(ours, theirs, strict=True)):
        raise SystemExit(f"--par-run {run}: not heuristic players' {profile.name} deals "
                         "of seed 1, the deals timed here")
    kept = kept_solves(run, start, SEARCH_VERSION)  # positions are the search's
    solves: dict[int, tuple[float, int]] = {}
    for d, p, s, n in zip(kept.get("deal_id", []), kept.get("par", []),
                          kept.get("seconds", []), kept.get("positions", []), strict=True):
        if np.isnan(s):
            continue
        if p < 0 and not 0 < limit < n:
            raise SystemExit(f"--par-run {run}: a deal left unanswered at {n - 1:,} "
                             f"positions, not at --max-positions {limit:,}")
        solves[int(d)] = (float(s), int(n))
    return solves


def _other_solves(run: Path, profile: RuleProfile, start: int, limit: int
                  ) -> list[tuple[float, int]]:
    """(seconds, positions) of the deals a ``mighty-sim par`` run of other deals has
    solved and timed from trick ``start``, in a row from its first: deals of the
    profile whose every seat bids, exchanges and calls as the heuristic player (heuristic
    or PIMC players of the default parameters), so that its positions after the
    exchange are of the kind timed here. SystemExit for another run, for seed 1's
    heuristic deals (``--par-run``'s), or for a deal left unanswered at another limit
    than ``limit``."""
    config = open_run(run).config
    policies, pp = policy_arrays(config.players, config.profile)
    _, ours = policy_arrays(parse_players("heuristic", profile.players), profile)
    n = profile.players
    if (config.profile != profile
            or not np.isin(policies[:n], (POLICY_HEURISTIC, POLICY_PIMC)).all()
            or not np.array_equal(pp[:n][:, list(PP_BIDDING)], ours[:n][:, list(PP_BIDDING)])):
        raise SystemExit(f"--also-run {run}: not {profile.name} deals bid and exchanged "
                         "as the heuristic player does")
    if config.seed == 1 and (policies[:n] == POLICY_HEURISTIC).all():
        raise SystemExit(f"--also-run {run}: the deals timed here (--par-run takes them)")
    kept = kept_solves(run, start, SEARCH_VERSION)  # positions and times are the search's
    if not kept:
        return []
    order = np.argsort(kept["deal_id"], kind="stable")[
        :solved_in_a_row(run, start, SEARCH_VERSION)]
    solves = []
    for i in order:
        p, sec, n_pos = kept["par"][i], kept["seconds"][i], kept["positions"][i]
        if np.isnan(sec):
            raise SystemExit(f"--also-run {run}: deal {kept['deal_id'][i]} was not timed")
        if p < 0 and not 0 < limit < n_pos:
            raise SystemExit(f"--also-run {run}: a deal left unanswered at {n_pos - 1:,} "
                             f"positions, not at --max-positions {limit:,}")
        solves.append((float(sec), int(n_pos)))
    return solves


def _played(profile: RuleProfile, params: np.ndarray, deals: int, starts: list[int],
            what: str, log: Path | None = None, limit: int = 0, without: str = "",
            part: tuple[int, int] = (0, 1), par_run: Path | None = None,
            also: tuple[Path, ...] = ()) -> dict[str, float]:
    """Solve times of heuristic-played deals from the start of each trick of ``starts``:
    the par, whether the contract makes, the par within the bids' range (``what``
    "par", "makes", "both" for the first two, or "odds"). With ``log``, each solve is
    appended to that file as it ends (figure, solve, seconds, positions), and solves
    already there are taken from it rather than solved again: a long run stopped goes on
    where it stopped (a solve's positions do not depend on what the table held before;
    its time, a little). With ``limit`` > 0 the par (or the odds' par) is left
    unanswered past that many positions. With ``without`` (a part of :data:`PARTS`),
    each par again without that part, in the same arrays (``..._without_PART``). With
    ``part`` (i, k), only the solves i, i + k, i + 2k... (counted from 0) not in the log:
    k runs on one log, one a core, share its deals (the figures of each are of the
    solves it has; a last run, when all are in the log, gives them all). With
    ``par_run``, the pars (question "par") the log lacks are taken from that ``mighty-sim
    par`` run where it has them (:func:`_par_solves`), not solved; with ``also``, the
    pars of other deals those ``par`` runs solved are counted with them
    (:func:`_other_solves`)."""
    batch, rows, first = _played_deals(profile, deals)
    ids = deal_id(batch.rg[rows, G_GAME], batch.rg[rows, G_ATTEMPT])
    s, h, tr = np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64), np.zeros(MAX_PLAYERS, np.int64)
    work = work_nb(TT_BITS)
    figures: dict[str, float] = {}
    done = _logged(log)
    questions = [(start, q, USE_ALL) for start in starts for q in ("par", "makes", "odds")
                 if what == q or (what == "both" and q != "odds")]
    if without:
        questions += [(start, q, USE_ALL & ~PARTS[without])
                      for start, q, _ in questions if q == "par"]
    with Progress(*Progress.get_default_columns(), MofNCompleteColumn(), transient=True,
                  console=Console(stderr=True)) as bar:
        task = bar.add_task("solving", total=len(questions) * len(rows))
        for start, question, uses in questions:
            lo, hi = (profile.min_bid - 1, profile.max_bid) if question == "odds" else (-1, 1 << 30)
            name = f"played_from_trick_{start}" + ("" if question == "par" else f"_{question}")
            if uses != USE_ALL:
                name += f"_without_{without}"
            seconds: list[float] = []
            searched: list[int] = []
            from_run = (_par_solves(par_run, profile, start, limit)
                        if par_run is not None and question == "par" and uses == USE_ALL
                        else {})
            # compiled before the clock runs: the first deal's last trick, solved untimed
            recorded_position_nb(batch.ri, batch.ru, batch.ti, rows[0], first[rows[0]],
                                 params, profile.tricks, s, h, tr)
            if question == "makes":
                _timed(s, h, tr, params, [], [], int(batch.ri[rows[0], R_BID]))
            else:
                _timed(s, h, tr, params, [], [], par=(0, work, 0, lo, hi), uses=uses)
            for solve, r in enumerate(rows, 1):
                bar.advance(task)
                ran = from_run.get(int(ids[solve - 1]))
                if (name, solve) in done:
                    seconds.append(done[(name, solve)][0])
                    searched.append(done[(name, solve)][1])
                    if ran is not None and ran[1] != searched[-1]:
                        raise SystemExit(f"--par-run: deal {solve} searched {ran[1]:,} "
                                         f"positions there, {searched[-1]:,} in the log")
                    continue
                if ran is not None:
                    seconds.append(ran[0])
                    searched.append(ran[1])
                    continue
                if (solve - 1) % part[1] != part[0]:  # another run's
                    continue
                recorded_position_nb(batch.ri, batch.ru, batch.ti, r, first[r], params,
                                     start, s, h, tr)
                if question == "makes":
                    _timed(s, h, tr, params, seconds, searched, int(batch.ri[r, R_BID]))
                else:  # from the top, one table for all (par_nb)
                    _timed(s, h, tr, params, seconds, searched,
                           par=(TOP, work, solve, lo, hi), limit=limit, uses=uses)
                if log is not None:
                    with log.open("a") as f:
                        f.write(f"{name} {solve} {seconds[-1]!r} {searched[-1]}\n")
            if question == "par" and uses == USE_ALL and also:
                figures[f"{name}_deals_of_this_seed"] = float(len(seconds))
                for run in also:
                    other = _other_solves(run, profile, start, limit)
                    figures[f"{name}_deals_of_{run.name}"] = float(len(other))
                    seconds += [t for t, _ in other]
                    searched += [n for _, n in other]
            figures.update(_summary(seconds, searched, name,
                                    0 if question == "makes" else limit))
    return figures


PARTS = {"table": USE_TABLE, "bounds": USE_BOUNDS, "equals": USE_EQUALS, "order": USE_ORDER,
         "last_trick": USE_LAST, "decided_tricks": USE_DECIDED, "ranks": USE_RANKS}


def _parts(profile: RuleProfile, params: np.ndarray, left: int, count: int
           ) -> dict[str, float]:
    """Total positions and seconds on ``count`` endings of ``left`` tricks: the whole
    search, without each part, alpha-beta alone (up to 5 tricks)."""
    endings = []
    seed = 0
    while len(endings) < count:
        s, h, tr = random_ending(profile, params, 7000 + seed, left)
        seed += 1
        if side_of_nb(s) >= 0:
            endings.append((s, h, tr))
    runs = {"all": USE_ALL, **{f"without_{k}": USE_ALL & ~v for k, v in PARTS.items()}}
    if left <= 5:  # alone it searches about 500 times the positions
        runs["alpha_beta_alone"] = USE_PRUNING
    figures: dict[str, float] = {}
    nodes = np.zeros(1, np.int64)
    for name, uses in runs.items():
        nodes[0] = 0
        t = time.perf_counter()
        for s, h, tr in endings:
            dd_search_nb(s.copy(), h.copy(), tr.copy(), params, nodes, uses)
        figures[f"parts_{left}_tricks_{name}_positions"] = float(nodes[0])
        figures[f"parts_{left}_tricks_{name}_s"] = time.perf_counter() - t
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--tricks", default="3,4,5,6", help="tricks left, comma-separated")
    ap.add_argument("--positions", type=int, default=40, help="endings a number of tricks")
    ap.add_argument("--played", type=int, default=0, help="heuristic-played deals a trick")
    ap.add_argument("--from", dest="starts", default="7,6,5",
                    help="tricks to take played deals up at, comma-separated")
    ap.add_argument("--question", choices=("par", "makes", "both", "odds", "targets"),
                    default="par",
                    help="with --played: time the par, whether the contract makes "
                         "(the null-window search), both, or the par within the bids' "
                         "range (odds --play double-dummy); or weigh the par's searches "
                         "target by target")
    ap.add_argument("--log", type=Path, default=None,
                    help="with --played: append each solve to this file as it ends, and "
                         "take the solves it already holds from it (a stopped run goes on)")
    ap.add_argument("--par-run", type=Path, default=None,
                    help="with --played and the par: take the deals the log lacks from "
                         "this `mighty-sim par` run of the same deals, as it timed them")
    ap.add_argument("--also-run", type=Path, action="append", default=[], metavar="RUN",
                    help="with --played and the par: count the deals this `mighty-sim "
                         "par` run of other deals (bid and exchanged as the heuristic "
                         "player does) solved in a row, as it timed them; repeatable")
    ap.add_argument("--max-positions", type=int, default=0,
                    help="with --played: leave a par unanswered past this many positions "
                         "(counted as slower than every answered one)")
    ap.add_argument("--part", default="0/1", metavar="I/K",
                    help="with --log: solve only the deals I, I+K, I+2K... (from 0), so "
                         "that K runs, one a core, share one log")
    ap.add_argument("--without", choices=sorted(PARTS), default="",
                    help="with --played and the par: solve each deal again without this "
                         "part of the search (in the same process, after the whole search)")
    ap.add_argument("--parts", type=int, default=0,
                    help="tricks left of the endings that weigh the search's parts")
    ap.add_argument("--out", type=Path, default=Path("benchmarks/results/dd.json"))
    args = ap.parse_args()
    try:
        part = tuple(int(x) for x in args.part.split("/"))
        if len(part) != 2 or not 0 <= part[0] < part[1]:
            raise ValueError
    except ValueError:
        ap.error(f"--part {args.part}: expected I/K with 0 <= I < K")
    if part[1] > 1 and args.log is None:
        ap.error("--part needs --log (the runs share their solves through it)")
    if numba_config.DISABLE_JIT:
        ap.error("NUMBA_DISABLE_JIT is set; this times the compiled search")
    profile = load_profile(args.profile)
    params = compile_profile(profile)
    nodes = np.zeros(1, np.int64)
    for seed in range(50):  # exact before fast
        s, h, tr = random_ending(profile, params, seed, 2)
        if side_of_nb(s) >= 0:
            assert dd_value_nb(s.copy(), h.copy(), tr.copy(), params, nodes) == minimax_nb(
                s, h, tr, params, nodes), f"ending {seed}: the search is not exact"
    figures: dict[str, float] = {}
    for left in (int(t) for t in args.tricks.split(",") if t):
        seconds, searched = [], []
        seed = 0
        while len(seconds) < args.positions:
            s, h, tr = random_ending(profile, params, 1000 * left + seed, left)
            seed += 1
            if side_of_nb(s) < 0:  # a first-trick friend still unknown
                continue
            _timed(s, h, tr, params, seconds, searched)
        figures.update(_summary(seconds, searched, f"{left}_tricks"))
    if args.parts:
        figures.update(_parts(profile, params, args.parts, args.positions))
    if args.played and args.question == "targets":
        for start in (int(t) for t in args.starts.split(",")):
            figures.update(_targets(profile, params, args.played, start))
    elif args.played:
        figures.update(_played(profile, params, args.played,
                               [int(t) for t in args.starts.split(",")], args.question,
                               args.log, args.max_positions, args.without,
                               (part[0], part[1]), args.par_run, tuple(args.also_run)))
    print(f"double-dummy search, {args.profile}, {args.positions} endings a number of "
          f"tricks left; {args.played} played deals a starting trick")
    figures["floor_after_deals_per_s"] = floor_rate()
    print_figures(figures)
    save({"profile": args.profile, "positions": args.positions, "played": args.played,
          **figures}, args.out)


if __name__ == "__main__":
    main()
