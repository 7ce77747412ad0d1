"""House-rule balance: the same deals under two or more profiles, or two datasets.

Profiles are compared with common random numbers: every profile plays games
``0 .. n-1`` from the same seed, so game g starts from the same shuffled deck under each
profile (later attempts and decisions may differ where the rules make them differ). Each
headline metric is averaged per game, and the difference to the first profile is
reported with a 95% interval of the paired per-game differences. Two datasets are paired
the same way when they share seed and games; otherwise they are compared as independent
samples (Welch).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import polars as pl

from ..dataset.integrity import open_run
from ..dataset.schema import deals_table
from ..engine.batch import play_batch
from ..engine.heuristic import HeuristicParams, has_tuned, tuned_for
from ..engine.players import PlayerSpec
from ..rules.profile import RuleProfile
from .stats import Z95
from .tables import scan_deals
from .tune import tune

METRICS = {
    "success_rate": "share of played deals the declarer made",
    "mean_bid": "final bid",
    "declarer_points": "declarer side's points",
    "declarer_payout": "declarer's payout per deal",
    "payout_square": "declarer's payout squared (score variance)",
    "nt_share": "share of deals played in no trump",
    "solo_share": "share of deals played without a friend",
    "redeals_per_deal": "redeals before a played deal",
}


def per_game_metrics(deals: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """One row per game: each metric of :data:`METRICS` averaged over its deals."""
    lf = deals.lazy()
    played = pl.col("outcome") == "played"
    return (
        lf.with_columns(
            pl.col("payouts").list.get(pl.col("declarer").cast(pl.Int64).fill_null(0))
            .alias("declarer_payout"))
        .group_by("game")
        .agg(
            pl.col("success").filter(played).cast(pl.Float64).mean().alias("success_rate"),
            pl.col("bid").filter(played).cast(pl.Float64).mean().alias("mean_bid"),
            pl.col("declarer_points").filter(played).cast(pl.Float64).mean()
            .alias("declarer_points"),
            pl.col("declarer_payout").filter(played).mean().alias("declarer_payout"),
            (pl.col("declarer_payout").filter(played) ** 2).mean().alias("payout_square"),
            (pl.col("trump").filter(played) == "NT").cast(pl.Float64).mean().alias("nt_share"),
            (pl.col("friend_kind").filter(played) != "friend").cast(pl.Float64).mean()
            .alias("solo_share"),
            ((~played).sum() / played.sum()).cast(pl.Float64).alias("redeals_per_deal"),
        )
        .sort("game")
        .collect()
    )


def simulate_metrics(
    profile: RuleProfile, *, deals: int, seed: int, players: tuple[PlayerSpec, ...],
    batch_games: int = 65_536,
) -> pl.DataFrame:
    """Per-game metrics of ``deals`` games of one deal each, played in memory."""
    parts = []
    for start in range(0, deals, batch_games):
        n = min(batch_games, deals - start)
        batch = play_batch(profile, seed=seed, game_start=start, games=n, players=players)
        table = pl.DataFrame(deals_table(batch, profile.players))
        parts.append(per_game_metrics(table))
    return pl.concat(parts)


def _f(x: object) -> float:
    """A Polars scalar (mean, std, var) as a float; NaN when missing."""
    return float(x) if isinstance(x, int | float) else float("nan")


def _paired(a: pl.DataFrame, b: pl.DataFrame) -> dict[str, tuple[float, float, float, int]]:
    joined = a.join(b, on="game", suffix="_b")
    out = {}
    for m in METRICS:
        d = (joined[f"{m}_b"] - joined[m]).drop_nulls()
        n = d.len()
        mean = _f(d.mean())
        sd = _f(d.std())
        half = Z95 * sd / math.sqrt(n) if n > 1 else float("nan")
        out[m] = (mean, mean - half, mean + half, n)
    return out


def _welch(a: pl.DataFrame, b: pl.DataFrame) -> dict[str, tuple[float, float, float, int]]:
    out = {}
    for m in METRICS:
        x, y = a[m].drop_nulls(), b[m].drop_nulls()
        mean = _f(y.mean()) - _f(x.mean())
        se = math.sqrt(_f(x.var()) / x.len() + _f(y.var()) / y.len())
        out[m] = (mean, mean - Z95 * se, mean + Z95 * se, min(x.len(), y.len()))
    return out


def check_comparable(a: RuleProfile, b: RuleProfile, *, what: str = "profiles") -> None:
    """ValueError unless the headline metrics mean the same under both profiles: the
    same number of players, the same bid unit and the same points in the deck.

    >>> from mighty_sim.rules.profile import load_profile
    >>> check_comparable(load_profile("standard"), load_profile("ucla-5p"))
    Traceback (most recent call last):
    ...
    ValueError: profiles standard and ucla-5p cannot be compared: bids in points against tricks
    """
    why = ""
    if a.players != b.players:
        why = f"{a.players} players against {b.players}"
    elif a.bid_unit != b.bid_unit:
        why = f"bids in {a.bid_unit} against {b.bid_unit}"
    elif a.total_points != b.total_points:
        why = f"the deck holds {a.total_points} points against {b.total_points}"
    if why:
        raise ValueError(f"{what} {a.name} and {b.name} cannot be compared: {why}")


PAIRING = {True: "paired by game (same seed and games)",
           False: "independent samples (Welch)"}


def comparison_table(named: list[tuple[str, pl.DataFrame]], *, paired: bool) -> pl.DataFrame:
    """Each metric under each profile, and its difference to the first with a 95% CI; the
    ``pairing`` column says how the intervals were formed."""
    base = named[0][1]
    rows = []
    for k, (name, df) in enumerate(named):
        diffs = (_paired if paired else _welch)(base, df) if k else {}
        for m, doc in METRICS.items():
            value = df[m].drop_nulls()
            d, lo, hi, n = diffs.get(m, (None, None, None, value.len()))
            rows.append({"profile": name, "metric": m, "meaning": doc,
                         "value": _f(value.mean()) if value.len() else None,
                         "diff": d, "ci_low": lo, "ci_high": hi, "n": n,
                         "pairing": PAIRING[paired]})
    schema = {"profile": pl.String, "metric": pl.String, "meaning": pl.String,
              "value": pl.Float64, "diff": pl.Float64, "ci_low": pl.Float64,
              "ci_high": pl.Float64, "n": pl.Int64, "pairing": pl.String}
    return pl.DataFrame(rows, schema=schema)


def compare_profiles(
    profiles: list[RuleProfile], *, deals: int, seed: int, players: tuple[PlayerSpec, ...],
    adapted: bool = True, note: Callable[[str], None] | None = None,
) -> pl.DataFrame:
    """Play each profile on the same games and compare to the first (paired).

    The ``players`` column says who played. ``same``: every profile played by the players
    of the first profile (its tuned values), which measures the rule alone. ``adapted``
    (with ``adapted``, when some player bids with tuned values): each profile played by
    players tuned for it, which measures the rule once players adapt to it; a profile
    with no tuned values of its own is tuned first (``note`` says so).
    """
    if len(profiles) < 2:
        raise ValueError("compare needs at least two profiles")
    for p in profiles[1:]:
        check_comparable(profiles[0], p)
    names = [p.name for p in profiles]
    if len(set(names)) != len(names):
        names = [f"{p.name}#{i}" for i, p in enumerate(profiles)]
    same = tuple(s.resolved(profiles[0]) for s in players)
    metrics_same = [simulate_metrics(p, deals=deals, seed=seed, players=same)
                    for p in profiles]
    tables = [comparison_table(list(zip(names, metrics_same, strict=True)), paired=True)
              .with_columns(pl.lit("same").alias("players"))]
    if adapted and any(s.policy != "random" and s.params is None for s in players):
        named = []
        for name, p, played in zip(names, profiles, metrics_same, strict=True):
            values = adapted_values(p, deals=deals, seed=seed, note=note)
            own = tuple(s if s.policy == "random" or s.params is not None
                        else replace(s, params=values) for s in players)
            # players who bid as the first profile's did play the same games again
            metrics = played if own == same else simulate_metrics(
                p, deals=deals, seed=seed, players=own)
            named.append((name, metrics))
        tables.append(comparison_table(named, paired=True)
                      .with_columns(pl.lit("adapted").alias("players")))
    return pl.concat(tables)


def adapted_values(profile: RuleProfile, *, deals: int, seed: int,
                   note: Callable[[str], None] | None = None) -> HeuristicParams:
    """The heuristic's values tuned for ``profile``: shipped ones for its rules, else
    tuned now (from those of the nearest built-in profile, at most 10,000 deals a duel)."""
    if has_tuned(profile):
        return tuned_for(profile)
    result = tune(profile, deals=min(max(deals, 1000), 10_000), seed=seed)
    if note is not None:
        note(f"players tuned for {profile.name}: "
             + ", ".join(f"{k} {v:g}" for k, v in result.params.to_dict().items())
             + f" ({'a fixed point' if result.converged else 'no fixed point'} after "
             f"{result.rounds} rounds)")
    return result.params


def compare_datasets(a: Path, b: Path) -> pl.DataFrame:
    """Compare two complete datasets of comparable rules: paired by game when they share
    seed and games, independent samples otherwise."""
    ca, cb = open_run(a).config, open_run(b).config
    check_comparable(ca.profile, cb.profile, what=f"the runs in {a} and {b}, with profiles")
    paired = ca.seed == cb.seed and ca.games == cb.games and ca.ledger == cb.ledger
    ma, mb = per_game_metrics(scan_deals(a)), per_game_metrics(scan_deals(b))
    names = [f"{ca.profile.name} ({a.name})", f"{cb.profile.name} ({b.name})"]
    return comparison_table([(names[0], ma), (names[1], mb)], paired=paired)
