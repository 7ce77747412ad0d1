"""``mighty-sim demo``: the rules at work on the ``standard`` profile.

Plays the worked examples of the rule text through the oracle, a ledger of ten random
deals through the reference engine, and a differential check of the kernels.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import polars as pl
from rich.console import Console
from rich.table import Table

from ..analysis.tables import seat_lists
from ..dataset.config import RunConfig
from ..dataset.runner import run_simulation
from ..engine.oracle import legal_plays, settle, trick_winner, weak_hand_score
from ..engine.players import parse_players
from ..reference import RandomPlayer, play_ledger
from ..rules.cards import card_name, format_cards, parse_cards, points_in
from ..rules.profile import load_profile
from ..rules.weak import weak_hand_probability
from ..verify.parallel import run_differential


def run_demo(
    *, deals: int = 1_000_000, dataset: Path = Path("out/demo"), check_deals: int = 1_000,
    console: Console | None = None,
) -> None:
    """Print the demo to ``console`` (stdout by default): the rules, a differential check
    of ``check_deals`` deals, then a simulation of ``deals`` deals into ``dataset`` and its
    headline figures."""
    out = console or (Console() if Console().is_terminal else Console(width=120))
    p = load_profile("standard")
    out.rule(f"[bold]mighty_sim[/] - profile {p.name} (fingerprint {p.fingerprint()})")
    out.print(p.description)
    out.print(
        f"{p.players} players, {p.deck_size} cards, hands of {p.hand_size}, blind "
        f"{p.blind_size}; bids {p.min_bid}-{p.max_bid}; Mighty {p.mighty} "
        f"({p.mighty_alternative} when {p.mighty[-1]} is trump); hunter {p.hunter} "
        f"({p.hunter_alternative} when {p.hunter[-1]} is trump)."
    )

    out.rule("Worked example: Mighty escapes the joker hunter (guide, section 08)")
    b_hand = parse_cards("JK AS 9H 8H 4D")
    legal = legal_plays(p, b_hand, trump="D", trick_no=5, played=["3C"], joker_demanded=True)
    out.print(f"Diamonds trump, trick 5. A leads 3C demanding the joker. B holds "
              f"{format_cards(b_hand)}: B may play {format_cards(legal)}.")
    trick = ["3C", "AS", "KC", "2C", "7D"]
    w = trick_winner(p, trick, trump="D", trick_no=5, joker_demanded=True)
    pts = points_in(parse_cards(" ".join(trick)))
    out.print(f"Trick {' '.join(trick)}: seat {'ABCDE'[w]} wins with {trick[w]} "
              f"(despite the trump 7D), capturing {pts} points.")
    s = settle(p, bid=15, trump="D", taken=16, friend="friend")
    out.print(f"Bid 15 diamonds, 16 taken, with a friend: declarer {s.declarer:+g}, friend "
              f"{s.friend:+g}, each defender {s.defender:+g} (sum "
              f"{s.declarer + (s.friend or 0) + 3 * s.defender:g}).")

    out.rule("Weak-hand redeal scale (section 2.2)")
    hand = parse_cards("AS JK KH 10C 9S 8S 7S 6S 5S 4S")
    out.print(f"{format_cards(hand)} scores {weak_hand_score(p, hand):g} (A S 0, joker -1, "
              f"K H +1, 10 C +1/2): a redeal may be asked for.")
    prob = weak_hand_probability(p)
    out.print(f"Exact probability that a hand qualifies: {prob} = {float(prob):.6f}")

    out.rule("A ledger of 10 deals, random legal players (reference engine)")
    ledger = play_ledger(p, [RandomPlayer()] * p.players, seed=2026)
    table = Table("deal", "dealer", "outcome", "declarer", "contract", "friend", "points",
                  "payouts by seat")
    for k, rec in enumerate(ledger.attempts, 1):
        r = rec.result
        friend = "-"
        if r.friend_mode == "called" and r.friend_card is not None:
            friend = f"{card_name(r.friend_card)} ({r.friend_kind})"
        elif r.friend_mode:
            friend = str(r.friend_kind)
        contract = f"{r.bid} {r.trump}" if r.bid else "-"
        pays = ",".join(f"{float(v):+g}" for v in r.payouts) if r.payouts else "-"
        table.add_row(str(k), str(r.dealer), r.outcome, str(r.declarer if r.declarer is not
                      None else "-"), contract, friend, str(r.declarer_points or "-"), pays)
    out.print(table)
    totals = "  ".join(f"seat {i} {float(t):+g}" for i, t in enumerate(ledger.totals))
    out.print(f"Totals: {totals}")

    out.rule(f"Differential check: Numba kernels vs reference engine, {check_deals:,} deals")
    start = time.perf_counter()
    report = run_differential(p, deals=check_deals, seed=7, workers=1, progress=True)
    out.print(
        f"{report.decisions:,} play decisions, {report.tricks:,} tricks, "
        f"{report.settlements:,} settlements, {report.hands:,} weak-hand scores: "
        f"[bold]{report.mismatches} mismatches[/] ({time.perf_counter() - start:.1f} s)"
    )

    out.rule(f"Simulation: {deals:,} standard deals, heuristic players, seed 2026")
    config = RunConfig(p, deals, 2026, parse_players("heuristic", p.players))
    result = run_simulation(config, dataset, workers=os.cpu_count() or 1, overwrite=True)
    out.print(f"{result.stats.played:,} deals played in {result.seconds:.1f} s "
              f"({result.deals_per_second or 0:,.0f} deals/s) -> {dataset}")
    print_headlines(dataset, out)


def print_headlines(dataset: Path, out: Console) -> None:
    """Headline figures of a dataset, computed with Polars lazy scans."""
    deals = seat_lists(pl.scan_parquet(dataset / "deals" / "**" / "*.parquet",
                                       hive_partitioning=True))
    counts = deals.group_by("outcome").agg(pl.len().alias("n")).collect()
    total = int(counts["n"].sum())
    by = {row["outcome"]: row["n"] for row in counts.iter_rows(named=True)}
    out.print(f"dealt {total:,}: played {by.get('played', 0) / total:.1%}, weak-hand redeals "
              f"{by.get('weak-redeal', 0) / total:.1%}, all-pass redeals "
              f"{by.get('all-pass', 0) / total:.1%}")
    played = deals.filter(pl.col("outcome") == "played")
    table = Table("bid", "deals", "share", "success", "mean declarer payout", "sd")
    rows = (
        played.with_columns(pl.col("payouts").list.get(pl.col("declarer").cast(pl.Int64))
                            .alias("declarer_payout"))
        .group_by("bid")
        .agg(pl.len().alias("n"), pl.col("success").mean().alias("rate"),
             pl.col("declarer_payout").mean().alias("mean"),
             pl.col("declarer_payout").std().alias("sd"))
        .sort("bid")
        .collect()
    )
    n_played = int(rows["n"].sum())
    for r in rows.iter_rows(named=True):
        table.add_row(str(r["bid"]), f"{r['n']:,}", f"{r['n'] / n_played:.1%}",
                      f"{r['rate']:.1%}", f"{r['mean']:+.2f}", f"{r['sd']:.2f}")
    out.print(table)
    modes = (played.group_by("friend_kind").agg(pl.len().alias("n")).sort("friend_kind")
             .collect())
    out.print("friend: " + ", ".join(f"{r['friend_kind']} {r['n'] / n_played:.1%}"
                                     for r in modes.iter_rows(named=True)))
    overall = played.select(pl.col("success").mean()).collect().item()
    out.print(f"overall success rate {overall:.1%}")
