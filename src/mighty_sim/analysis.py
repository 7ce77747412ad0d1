"""Answers from datasets, with Polars lazy scans: bid success odds, redeal frequency,
score variance.

Every function takes a ``LazyFrame`` of the ``deals`` table (:func:`scan_deals`) and
returns a small ``DataFrame``; the tables are what ``mighty-sim analyze`` prints.

>>> import polars as pl
>>> wilson_interval(8, 10)  # doctest: +ELLIPSIS
(0.49..., 0.94...)
"""

from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from .profile import RuleProfile
from .runner import load_run
from .weak import weak_deal_probability, weak_hand_probability

Z95 = 1.959963984540054


def scan_deals(dataset: Path) -> pl.LazyFrame:
    """The ``deals`` table of a dataset as a lazy scan (stray temporary files skipped)."""
    files = sorted((dataset / "deals").glob("shard=*/*.parquet"))
    if not files:
        raise ValueError(f"{dataset} holds no deals table (deals/shard=*/*.parquet)")
    return pl.scan_parquet(dataset / "deals" / "**" / "*.parquet", hive_partitioning=True)


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


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


def success_by_hand(deals: pl.LazyFrame) -> pl.DataFrame:
    """Success odds by the declarer's hand at auction time: strength (rounded down),
    trump length, Mighty and joker held; with the mean points made."""
    df = (
        _played(deals)
        .with_columns(pl.col("declarer_strength").floor().cast(pl.Int64).alias("strength"))
        .group_by("strength", "declarer_trump_length", "declarer_has_mighty",
                  "declarer_has_joker")
        .agg(pl.len().alias("n"), pl.col("success").cast(pl.Int64).sum().alias("successes"),
             pl.col("declarer_points").mean().alias("mean_points"))
        .sort("strength", "declarer_trump_length", "declarer_has_mighty", "declarer_has_joker")
        .collect()
    )
    return _wilson_columns(df)


def redeal(deals: pl.LazyFrame, profile: RuleProfile) -> pl.DataFrame:
    """Weak-hand eligibility per hand and per deal, the redeal rates that happened, and the
    exact values for the profile's deck and scale (one row per measure)."""
    limit = profile.weak_threshold
    qualifies = (pl.element() < limit) if profile.weak_strict else (pl.element() <= limit)
    counts = (
        deals.select(
            pl.len().alias("rows"),
            pl.col("weak_scores").list.eval(qualifies).list.sum().sum().alias("hands_ok"),
            pl.col("weak_scores").list.eval(qualifies).list.any().sum().alias("deals_ok"),
            (pl.col("outcome") == "weak-redeal").sum().alias("weak"),
            (pl.col("outcome") == "all-pass").sum().alias("all_pass"),
        )
        .collect()
        .row(0, named=True)
    )
    rows, n = counts["rows"], profile.players
    per_hand = weak_hand_probability(profile)
    per_deal = weak_deal_probability(profile)
    out = [
        ("hand eligible", counts["hands_ok"], rows * n, float(per_hand), str(per_hand)),
        ("deal with an eligible hand", counts["deals_ok"], rows, float(per_deal), str(per_deal)),
        ("weak-hand redeal happened", counts["weak"], rows, None, None),
        ("all-pass redeal happened", counts["all_pass"], rows, None, None),
    ]
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


def _payouts_long(deals: pl.LazyFrame) -> pl.LazyFrame:
    return (
        _played(deals)
        .select("game", "deal_id", "dealer", "declarer", "friend_seat", "payouts")
        .with_columns(pl.int_ranges(0, pl.col("payouts").list.len()).alias("seat"))
        .explode("payouts", "seat")
        .rename({"payouts": "payout"})
        .with_columns(
            pl.when(pl.col("seat") == pl.col("declarer")).then(pl.lit("declarer"))
            .when(pl.col("seat") == pl.col("friend_seat")).then(pl.lit("friend"))
            .otherwise(pl.lit("defender")).alias("role"),
        )
    )


def _summary() -> list[pl.Expr]:
    p = pl.col("payout")
    return [
        pl.len().alias("n"), p.mean().alias("mean"), p.var().alias("variance"),
        p.std().alias("sd"), p.quantile(0.05).alias("q05"), p.quantile(0.25).alias("q25"),
        p.median().alias("median"), p.quantile(0.75).alias("q75"),
        p.quantile(0.95).alias("q95"),
    ]


def score_variance(deals: pl.LazyFrame, players: int, ledger: int = 10) -> pl.DataFrame:
    """Payout per deal by role and by seat, payout per ledger of ``ledger`` deals by seat,
    and seat advantage relative to the dealer with 95% intervals (one row per group)."""
    long = _payouts_long(deals)
    by_role = long.group_by("role").agg(_summary()).with_columns(
        pl.lit("per deal, by role").alias("scope"), pl.col("role").alias("group"))
    by_seat = long.group_by("seat").agg(_summary()).with_columns(
        pl.lit("per deal, by seat").alias("scope"), pl.col("seat").cast(pl.String).alias("group"))
    by_position = (
        long.with_columns(((pl.col("seat") - pl.col("dealer")) % players).alias("after_dealer"))
        .group_by("after_dealer").agg(_summary())
        .with_columns(pl.lit("per deal, seat after the dealer").alias("scope"),
                      pl.col("after_dealer").cast(pl.String).alias("group"))
    )
    ledgers = (
        long.sort("deal_id")
        .with_columns((pl.col("deal_id").rank("dense").over("seat") - 1).alias("k"))
        .with_columns((pl.col("k") // ledger).alias("block"))
        .group_by("seat", "block").agg(pl.col("payout").sum(), pl.len().alias("deals"))
        .filter(pl.col("deals") == ledger)
        .group_by("seat").agg(_summary())
        .with_columns(pl.lit(f"per ledger of {ledger} deals, by seat").alias("scope"),
                      pl.col("seat").cast(pl.String).alias("group"))
    )
    cols = ["scope", "group", "n", "mean", "variance", "sd", "q05", "q25", "median", "q75",
            "q95"]
    frames = [f.select(cols) for f in (by_role, by_seat, by_position, ledgers)]
    df = pl.concat(pl.collect_all(frames)).sort("scope", "group")
    half = Z95 * pl.col("sd") / pl.col("n").sqrt()
    return df.with_columns((pl.col("mean") - half).alias("ci_low"),
                           (pl.col("mean") + half).alias("ci_high"))


def analyze_dataset(dataset: Path) -> dict[str, pl.DataFrame]:
    """Every table of ``mighty-sim analyze`` for a dataset."""
    config = load_run(dataset)
    deals = scan_deals(dataset)
    return {
        "bid_success": bid_success(deals),
        "success_by_hand": success_by_hand(deals),
        "redeal": redeal(deals, config.profile),
        "weak_scores": weak_score_distribution(deals),
        "score_variance": score_variance(deals, config.profile.players,
                                         config.profile.ledger_deals),
    }
