"""The PIMC player: time per decision and strength against the heuristic, in one run.

What it counts:

1. *ms per PIMC decision*: the same games are played twice with one PIMC seat among
   heuristic players and with heuristic players only; the extra time divided by the PIMC
   seat's cards (every card it plays, a hand's worth a played deal, forced ones
   included) is the cost of a decision. Compiled code, warm cache, one thread.
   With ``--from T`` PIMC searches from trick T only (``pimc:from=T``) and the cards
   counted are those of tricks T and later.
2. with ``--table``, *a deal at a table of such players*: CPU time a deal with every seat
   PIMC from trick T over that with every seat the heuristic, the same games.
3. a duplicate duel of PIMC against the heuristic (``mighty_sim.analysis.duel``): the payout
   difference per deal and per contract declared, with 95% intervals.

    .venv/bin/python benchmarks/bench_pimc.py [--worlds 20] [--games 2000] [--duel 1000]
        [--profile standard] [--from 9] [--table]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from _results import save
from floor import floor_rate

from mighty_sim.analysis.duel import duel
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import DEFAULT_WORLDS, R_OUTCOME
from mighty_sim.rules.profile import RuleProfile, load_profile


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--duel", type=int, default=1000, help="duel deals (0: skip)")
    ap.add_argument("--profile", default="standard")
    ap.add_argument("--from", dest="from_trick", type=int, default=1,
                    help="the first trick PIMC searches (default 1: every trick)")
    ap.add_argument("--table", action="store_true",
                    help="also time a deal with every seat PIMC against every seat heuristic")
    ap.add_argument("--out", type=Path, default=None,
                    help="default benchmarks/results/pimc.json (pimc-PROFILE.json)")
    args = ap.parse_args()
    profile = load_profile(args.profile)
    late = f"-from{args.from_trick}" if args.from_trick > 1 else ""
    out = args.out or Path("benchmarks/results/" + ("pimc" if args.profile == "standard"
                                                    else f"pimc-{args.profile}") + f"{late}.json")
    n = profile.players
    floor_before = floor_rate()
    pimc = f"pimc:worlds={args.worlds}" + (f":from={args.from_trick}" if late else "")
    mixed = parse_players(",".join([pimc] + ["heuristic"] * (n - 1)), n)
    plain = parse_players("heuristic", n)
    play_batch(profile, seed=0, game_start=0, games=20, players=mixed)  # compile / load
    t0 = time.perf_counter()
    base = play_batch(profile, seed=1, game_start=0, games=args.games, players=plain)
    t1 = time.perf_counter()
    batch = play_batch(profile, seed=1, game_start=0, games=args.games, players=mixed)
    t2 = time.perf_counter()
    searched = profile.tricks - min(args.from_trick, profile.tricks + 1) + 1
    decisions = int((batch.ri[:, R_OUTCOME] == 0).sum()) * searched
    ms = ((t2 - t1) - (t1 - t0)) / decisions * 1e3 if decisions else 0.0  # (past the last)
    result: dict[str, object] = {
        "profile": profile.name, "worlds": args.worlds, "games": args.games,
        "pimc_decisions": decisions,
        "seconds_heuristic_only": t1 - t0, "seconds_with_pimc_seat": t2 - t1,
        "ms_per_decision": ms, "played_rows_equal": int(base.ri.shape[0]) == batch.ri.shape[0],
    }
    print(f"{profile.name}: {pimc}: {ms:.3f} ms a decision over "
          f"{decisions:,} decisions "
          f"(heuristic-only run {t1 - t0:.2f} s, with one PIMC seat {t2 - t1:.2f} s)")
    if args.table:
        result["table_over_heuristic"] = _table_ratio(profile, pimc, args.games)
        print(f"a deal with every seat {pimc}: {result['table_over_heuristic']:.1f} times "
              "the CPU time of a deal with every seat heuristic (the same games)")
    if args.duel:
        t3 = time.perf_counter()
        r = duel(profile, pimc, "heuristic", deals=args.duel, seed=11)
        d = r["declarer"]
        assert isinstance(d, dict)
        print(f"duel over {args.duel:,} deals x {n} seats: PIMC - heuristic "
              f"{r['mean_difference']:+.3f} a deal (95% CI {r['ci_low']:+.3f} to "
              f"{r['ci_high']:+.3f}); as declarer {d['mean_difference']:+.3f} a contract "
              f"(95% CI {d['ci_low']:+.3f} to {d['ci_high']:+.3f}, {d['n']:,} contracts); "
              f"{time.perf_counter() - t3:.0f} s")
        result["duel"] = r
    result["floor_deals_per_s"] = [floor_before, floor_rate()]
    print(f"floor (benchmarks/floor.py): {floor_before:,.0f} before, "
          f"{result['floor_deals_per_s'][1]:,.0f} after deals/s")  # type: ignore[index]
    save(result, out)


def _table_ratio(profile: RuleProfile, pimc: str, games: int) -> float:
    """CPU time a deal, every seat ``pimc``, over every seat the heuristic: the same
    games, best of three alternating rounds each."""
    n = profile.players
    tables = {name: parse_players(name, n) for name in (pimc, "heuristic")}
    best = {name: float("inf") for name in tables}
    for _ in range(3):
        for name, players in tables.items():
            t = time.process_time()
            play_batch(profile, seed=2, game_start=0, games=games, players=players)
            best[name] = min(best[name], time.process_time() - t)
    return best[pimc] / best["heuristic"]


if __name__ == "__main__":
    main()
