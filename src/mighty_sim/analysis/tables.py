"""Answers from datasets, with Polars lazy scans: bid success odds, redeal frequency,
score variance.

Every function takes a ``LazyFrame`` of the ``deals`` table (:func:`scan_deals`) and
returns a small ``DataFrame``; the tables are what ``mighty-sim analyze`` prints.

>>> import polars as pl
>>> lazy = pl.LazyFrame({"outcome": ["played", "weak-redeal"], "bid": [15, None],
...                      "trump": ["S", None], "friend_mode": ["called", None],
...                      "success": [True, None]})
>>> bid_success(lazy)["rate"].to_list()
[1.0]
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import polars as pl

from ..dataset.integrity import open_run
from ..dataset.schema import SEAT_LISTS
from ..rules.profile import RuleProfile
from ..rules.weak import weak_deal_probability, weak_hand_probability
from .card_costs import card_costs_by_trick, card_costs_table, read_card_costs
from .par import card_play, read_par
from .stats import Z95, wilson_interval


def scan_deals(dataset: Path) -> pl.LazyFrame:
    """The ``deals`` table of a dataset as a lazy scan of its shard files, once
    :func:`~mighty_sim.dataset.integrity.open_run` has found the run complete and every file
    healthy (ValueError naming the file otherwise); each seat list whole (:func:`seat_lists`)."""
    files = open_run(dataset).files("deals")
    return seat_lists(pl.scan_parquet(files, hive_partitioning=True))


def seat_lists(deals: pl.LazyFrame) -> pl.LazyFrame:
    """Stored ``deals`` rows with their seat columns joined back into the lists of
    :data:`SEAT_LISTS`, each in the place of its first seat's column.

    >>> lazy = pl.LazyFrame({"deal_id": [7], "payouts_0": [1.0], "payouts_1": [-1.0]})
    >>> seat_lists(lazy).collect().to_dicts()
    [{'deal_id': 7, 'payouts': [1.0, -1.0]}]
    """
    names = deals.collect_schema().names()
    columns: list[pl.Expr] = []
    for name in names:
        base, _, seat = name.rpartition("_")
        if base in SEAT_LISTS and seat.isdigit():
            if seat == "0":
                seats = [c for c in names if re.fullmatch(rf"{base}_\d+", c)]
                columns.append(pl.concat_list(seats).alias(base))
        else:
            columns.append(pl.col(name))
    return deals.select(columns)


def _wilson_columns(df: pl.DataFrame) -> pl.DataFrame:
    lows, highs = zip(*(wilson_interval(int(s), int(n))
                        for s, n in zip(df["successes"], df["n"], strict=True)), strict=True) \
        if df.height else ((), ())
    return df.with_columns(
        (pl.col("successes") / pl.col("n")).alias("rate"),
        pl.Series("ci_low", list(lows), dtype=pl.Float64),
        pl.Series("ci_high", list(highs), dtype=pl.Float64),
    )


def _played(deals: pl.LazyFrame) -> pl.LazyFrame:
    return deals.filter(pl.col("outcome") == "played")


def bid_success(deals: pl.LazyFrame) -> pl.DataFrame:
    """Success by final bid, trump kind (suit or NT) and friend mode, with 95% Wilson
    intervals."""
    df = (
        _played(deals)
        .with_columns(pl.when(pl.col("trump") == "NT").then(pl.lit("NT")).otherwise(pl.lit("suit"))
                      .alias("trump_kind"))
        .group_by("bid", "trump_kind", "friend_mode")
        .agg(pl.len().alias("n"), pl.col("success").cast(pl.Int64).sum().alias("successes"))
        .sort("bid", "trump_kind", "friend_mode")
        .collect()
    )
    return _wilson_columns(df)


HAND_KEYS = ("strength", "declarer_trump_length", "declarer_has_mighty", "declarer_has_joker")


def _hand_groups(deals: pl.LazyFrame) -> pl.DataFrame:
    """Played deals counted by the declarer's hand at auction time (one scan)."""
    return (
        _played(deals)
        .with_columns(pl.col("declarer_strength").floor().cast(pl.Int64).alias("strength"))
        .group_by(*HAND_KEYS, "declarer_hand_points")
        .agg(pl.len().alias("n"), pl.col("success").cast(pl.Int64).sum().alias("successes"),
             pl.col("declarer_points").cast(pl.Int64).sum().alias("points_sum"))
        .collect()
    )


def _success_by(groups: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    df = (groups.group_by(*keys)
          .agg(pl.col("n").sum(), pl.col("successes").sum(), pl.col("points_sum").sum())
          .with_columns((pl.col("points_sum") / pl.col("n")).alias("mean_points"))
          .drop("points_sum").sort(*keys))
    return _wilson_columns(df)


def success_by_hand(
    deals: pl.LazyFrame, groups: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Success odds by the declarer's hand at auction time: strength (rounded down),
    trump length, Mighty and joker held; with the mean points made."""
    return _success_by(_hand_groups(deals) if groups is None else groups, list(HAND_KEYS))


def success_by_points(
    deals: pl.LazyFrame, groups: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Success odds by the point cards in the declarer's hand at auction time."""
    return _success_by(_hand_groups(deals) if groups is None else groups,
                       ["declarer_hand_points"])


def redeal(
    deals: pl.LazyFrame, profile: RuleProfile, distribution: pl.DataFrame | None = None
) -> pl.DataFrame:
    """Weak-hand eligibility per hand and per deal, the redeal rates that happened, and the
    exact values for the profile's deck and scale (one row per measure; a profile without
    the weak-hand redeal has the rates only). ``distribution`` is
    :func:`weak_score_distribution` of the same deals, if already computed."""
    limit = profile.weak_threshold
    dist = weak_score_distribution(deals) if distribution is None else distribution
    eligible = (pl.col("score") < limit) if profile.weak_strict else (pl.col("score") <= limit)
    lowest = pl.col("weak_scores").list.min()  # a deal has an eligible hand iff its lowest does
    counts = (
        deals.select(
            pl.len().alias("rows"),
            ((lowest < limit) if profile.weak_strict else (lowest <= limit)).sum()
            .alias("deals_ok"),
            (pl.col("outcome") == "weak-redeal").sum().alias("weak"),
            (pl.col("outcome") == "all-pass").sum().alias("all_pass"),
        )
        .collect()
        .row(0, named=True)
    )
    counts["hands_ok"] = int(dist.filter(eligible)["hands"].sum())
    rows, n = counts["rows"], profile.players
    per_hand = weak_hand_probability(profile)
    per_deal = weak_deal_probability(profile)
    out = [
        ("hand eligible", counts["hands_ok"], rows * n, float(per_hand), str(per_hand)),
        ("deal with an eligible hand", counts["deals_ok"], rows, float(per_deal), str(per_deal)),
        ("weak-hand redeal happened", counts["weak"], rows, None, None),
        ("all-pass redeal happened", counts["all_pass"], rows, None, None),
    ]
    if profile.weak_hand_when == "never":  # no hand is eligible where there is no redeal
        out = out[2:]
    df = pl.DataFrame(out, schema={"measure": pl.String, "successes": pl.Int64, "n": pl.Int64,
                                   "exact": pl.Float64, "exact_fraction": pl.String},
                      orient="row")
    return _wilson_columns(df).rename({"successes": "count"})


def weak_score_distribution(deals: pl.LazyFrame) -> pl.DataFrame:
    """How often each weak-hand score occurs, over every dealt hand."""
    return (
        deals.select(pl.col("weak_scores").explode().alias("score"))
        .group_by("score").agg(pl.len().alias("hands")).sort("score")
        .with_columns((pl.col("hands") / pl.col("hands").sum()).alias("share"))
        .collect()
    )


def _role(seat: int) -> pl.Expr:
    return (
        pl.when(pl.col("declarer") == seat).then(pl.lit("declarer"))
        .when(pl.col("friend_seat") == seat).then(pl.lit("friend"))
        .otherwise(pl.lit("defender"))
    )


def histogram_stats(hist: pl.DataFrame) -> pl.DataFrame:
    """Summary statistics per ``group`` of a histogram with columns group, value, count:
    n, mean, variance (n-1), sd, and nearest-rank quantiles 5/25/50/75/95%."""
    rows = []
    for (group,), part in hist.sort("value").group_by(["group"], maintain_order=True):
        values = part["value"].to_list()
        counts = part["count"].to_list()
        n = sum(counts)
        mean = sum(v * c for v, c in zip(values, counts, strict=True)) / n
        var = (sum(c * (v - mean) ** 2 for v, c in zip(values, counts, strict=True)) / (n - 1)
               if n > 1 else float("nan"))
        row = {"group": str(group), "n": n, "mean": mean, "variance": var,
               "sd": math.sqrt(var) if n > 1 else float("nan")}
        for name, q in (("q05", 0.05), ("q25", 0.25), ("median", 0.5), ("q75", 0.75),
                        ("q95", 0.95)):
            rank, seen = max(1, math.ceil(q * n)), 0
            for v, c in zip(values, counts, strict=True):
                seen += c
                if seen >= rank:
                    row[name] = float(v)
                    break
        rows.append(row)
    return pl.DataFrame(rows)


def score_variance(
    deals: pl.LazyFrame, players: int, ledger: int = 10, deals_per_game: int | None = None
) -> pl.DataFrame:
    """Payout per deal by role and by seat, by position after the dealer, and per ledger
    of ``ledger`` consecutive played deals by seat, with 95% intervals for the mean.

    Payouts take few distinct values, so everything is computed from histograms built
    seat by seat on the played deals, never from one row per seat and deal.
    """
    seats = range(players)
    flat = _played(deals).select(
        "deal_id", "game", "deal_in_game", "dealer", "declarer", "friend_seat",
        *[pl.col("payouts").list.get(s).alias(f"p{s}") for s in seats],
    )
    # deals that pay the same way are counted once: a few thousand rows, not millions
    compact = (flat.drop("deal_id", "game", "deal_in_game").group_by(pl.all())
               .agg(pl.len().alias("n_deals")).collect())
    pay = [pl.col(f"p{s}") for s in seats]

    def hist(key: list[pl.Expr]) -> pl.DataFrame:
        parts = [compact.lazy().select(k.alias("group"), p.alias("value"), "n_deals")
                 for k, p in zip(key, pay, strict=True)]
        return (pl.concat(parts).group_by("group", "value")
                .agg(pl.col("n_deals").sum().alias("count")).collect())

    by_role = hist([_role(s) for s in seats])
    by_seat = hist([pl.lit(str(s)) for s in seats])
    by_pos = hist([((pl.lit(s) - pl.col("dealer").cast(pl.Int64)) % players).cast(pl.String)
                   for s in seats])
    if deals_per_game:  # the played deals' order is known: game * K + number in the game
        numbered = flat.with_columns(
            (pl.col("game") * deals_per_game + pl.col("deal_in_game").cast(pl.Int64))
            .alias("k"))
    else:
        numbered = flat.sort("deal_id").with_row_index("k")
    blocks = (
        numbered.with_columns((pl.col("k") // ledger).alias("block"))
        .group_by("block").agg(pl.len().alias("deals"),
                               *[p.sum().alias(f"s{s}") for s, p in zip(seats, pay, strict=True)])
        .filter(pl.col("deals") == ledger)
        .collect()
    )
    by_ledger = pl.concat([
        blocks.group_by(f"s{s}").agg(pl.len().alias("count"))
        .select(pl.lit(str(s)).alias("group"), pl.col(f"s{s}").cast(pl.Float64).alias("value"),
                "count")
        for s in seats
    ]) if blocks.height else None
    frames = []
    for scope, h in (("per deal, by role", by_role), ("per deal, by seat", by_seat),
                     ("per deal, seat after the dealer", by_pos),
                     (f"per ledger of {ledger} deals, by seat", by_ledger)):
        if h is not None and h.height:
            frames.append(histogram_stats(h.with_columns(pl.col("value").cast(pl.Float64)))
                          .with_columns(pl.lit(scope).alias("scope")))
    cols = ["scope", "group", "n", "mean", "variance", "sd", "q05", "q25", "median", "q75",
            "q95"]
    df = pl.concat([f.select(cols) for f in frames]).sort("scope", "group")
    half = Z95 * pl.col("sd") / pl.col("n").sqrt()
    return df.with_columns((pl.col("mean") - half).alias("ci_low"),
                           (pl.col("mean") + half).alias("ci_high"))


def game_results(deals: pl.LazyFrame, players: int, target: float) -> pl.DataFrame:
    """Games played to a target (``simulate --to-target``): how many deals a game lasts,
    and who wins it, by position after the game's first dealer, with 95% intervals.

    The winner is the seat with the highest total when the game ends; a game that ended
    at its deal limit without reaching the target counts under ``reached = false``.
    """
    seats = range(players)
    games = (
        deals.sort("deal_id")
        .group_by("game")
        .agg(pl.col("dealer").first().alias("first_dealer"),
             (pl.col("outcome") == "played").sum().alias("deals"),
             *[pl.col("payouts").list.get(s).filter(pl.col("outcome") == "played").sum()
               .alias(f"t{s}") for s in seats])
        .with_columns(pl.max_horizontal(*[pl.col(f"t{s}") for s in seats]).alias("best"))
        .with_columns(
            pl.coalesce(*[pl.when(pl.col(f"t{s}") == pl.col("best")).then(pl.lit(s))
                          for s in seats]).alias("winner"),
            (pl.col("best") >= target).alias("reached"))
        .with_columns(((pl.col("winner") - pl.col("first_dealer")) % players)
                      .alias("winner_position"))
        .collect()
    )
    n = games.height
    lengths = games["deals"]
    rows: list[dict[str, object]] = [{
        "measure": "deals a game (mean; 10% and 90% quantiles)", "group": "all", "n": n,
        "value": float(lengths.mean()) if n else 0.0,  # type: ignore[arg-type]
        "ci_low": float(lengths.quantile(0.1) or 0), "ci_high": float(lengths.quantile(0.9) or 0),
    }]
    reached = int(games["reached"].sum())
    low, high = wilson_interval(reached, n)
    rows.append({"measure": "reached the target", "group": "all", "n": n,
                 "value": reached / n if n else 0.0, "ci_low": low, "ci_high": high})
    for pos in seats:
        wins = int((games["winner_position"] == pos).sum())
        low, high = wilson_interval(wins, n)
        rows.append({"measure": "wins by position after the first dealer",
                     "group": str(pos), "n": n, "value": wins / n if n else 0.0,
                     "ci_low": low, "ci_high": high})
    return pl.DataFrame(rows)


def analyze_dataset(dataset: Path) -> dict[str, pl.DataFrame]:
    """Every table of ``mighty-sim analyze`` for a dataset."""
    config = open_run(dataset).config
    deals = scan_deals(dataset)
    groups = _hand_groups(deals)
    distribution = weak_score_distribution(deals)
    extra = {}
    if config.to_target:
        extra["games"] = game_results(deals, config.profile.players,
                                      config.profile.ledger_target)
    par = read_par(dataset)
    if par is not None:
        extra["card_play"] = card_play(par)
    cards = read_card_costs(dataset)
    if cards is not None:
        extra["card_costs"] = card_costs_table(cards)
        extra["card_costs_by_trick"] = card_costs_by_trick(cards)
    return {
        "bid_success": bid_success(deals),
        "success_by_hand": success_by_hand(deals, groups),
        "success_by_points": success_by_points(deals, groups),
        "redeal": redeal(deals, config.profile, distribution),
        "weak_scores": distribution,
        "score_variance": score_variance(deals, config.profile.players,
                                         config.profile.ledger_deals, config.ledger),
        **extra,
    }
