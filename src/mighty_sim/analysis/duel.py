"""``mighty-sim duel``: a duplicate match between two players.

Every game is played twice for every seat s: once with player A in seat s and once with
player B in seat s, the other seats held by the same field (``--field``, heuristic by
default), from the same seed, so both meet the same cards and the same opponents. The
score is A's payout minus B's payout in that seat, averaged over seats per game; the
mean over games is reported with a 95% interval, and the same for the games where the
seat declared with either player (A and B bid alike when they differ only in play, as
``pimc`` and ``heuristic`` do).

>>> from mighty_sim.rules.profile import load_profile
>>> r = duel(load_profile("standard"), "heuristic", "random", deals=400, seed=1)
>>> r["mean_difference"] > 0 and r["ci_low"] > 0   # the heuristic beats random play
True
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ..engine.batch import play_batch
from ..engine.players import PlayerSpec, parse_player
from ..rules.profile import RuleProfile
from .stats import Z95


def seat_payouts(profile: RuleProfile, lineup: tuple[PlayerSpec, ...], seat: int, deals: int,
                  seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The seat's payout in each game, and whether it declared."""
    batch = play_batch(profile, seed=seed, game_start=0, games=deals, players=lineup)
    played = batch.played()
    games = batch.column("game")[played]
    pay = np.zeros(deals, np.float64)
    declared = np.zeros(deals, np.bool_)
    pay[games] = batch.rf[played, seat]
    declared[games] = batch.column("declarer")[played] == seat
    return pay, declared


def _interval(diff: np.ndarray) -> dict[str, float | int]:
    n = int(diff.size)
    mean = float(diff.mean()) if n else float("nan")
    half = Z95 * float(diff.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return {"n": n, "mean_difference": mean, "ci_low": mean - half, "ci_high": mean + half}


def _spec(player: str | PlayerSpec) -> PlayerSpec:
    return parse_player(player) if isinstance(player, str) else player


def duel(
    profile: RuleProfile, a: str | PlayerSpec, b: str | PlayerSpec, *, deals: int,
    seed: int = 0, field: str | PlayerSpec = "heuristic",
    progress: Callable[[int], None] | None = None,
) -> dict[str, object]:
    """Duplicate match of A against B over ``deals`` games of one deal.

    Besides the overall figures, ``declarer`` compares the two where the seat declared in
    both lineups (each such seat and game a sample): how much better A plays a contract.
    ``progress(deals)`` is called after each of the 2 x players batches.
    """
    if deals < 2:
        raise ValueError("deals: a duel needs at least 2 deals")
    pa, pb, pf = _spec(a), _spec(b), _spec(field)
    n = profile.players
    diff = np.zeros(deals, np.float64)
    as_declarer: list[np.ndarray] = []
    for seat in range(n):
        line_a = tuple(pa if s == seat else pf for s in range(n))
        line_b = tuple(pb if s == seat else pf for s in range(n))
        pay_a, decl_a = seat_payouts(profile, line_a, seat, deals, seed)
        if progress is not None:
            progress(deals)
        pay_b, decl_b = seat_payouts(profile, line_b, seat, deals, seed)
        if progress is not None:
            progress(deals)
        diff += pay_a - pay_b
        both = decl_a & decl_b
        as_declarer.append(pay_a[both] - pay_b[both])
    diff /= n
    overall = _interval(diff)
    return {"a": str(a), "b": str(b), "field": str(field), "deals": deals, "seed": seed,
            "mean_difference": overall["mean_difference"], "ci_low": overall["ci_low"],
            "ci_high": overall["ci_high"], "declarer": _interval(np.concatenate(as_declarer))}
