"""``mighty-sim duel``: a duplicate match between two players.

Every game is played twice for every seat s: once with player A in seat s and once with
player B in seat s, the other seats held by the same field (``--field``, heuristic by
default), from the same seed, so both meet the same cards and the same opponents. The
score is A's payout minus B's payout in that seat, averaged over seats per game; the
mean over games is reported with a 95% interval.

>>> from mighty_sim.profile import load_profile
>>> r = duel(load_profile("standard"), "heuristic", "random", deals=400, seed=1)
>>> r["mean_difference"] > 0 and r["ci_low"] > 0   # the heuristic beats random play
True
"""

from __future__ import annotations

import math

import numpy as np

from .analysis import Z95
from .engine import PlayerSpec, play_batch
from .kernels.deal_nb import R_GAME, R_OUTCOME
from .kernels.policy_nb import POLICY_NAMES
from .profile import RuleProfile


def parse_player(text: str) -> PlayerSpec:
    """A player from ``policy`` or ``policy:aggressiveness``, e.g. ``heuristic:1.5``.

    >>> parse_player("heuristic:1.5")
    PlayerSpec(policy='heuristic', aggressiveness=1.5)
    """
    name, _, aggr = text.strip().partition(":")
    if name not in POLICY_NAMES:
        raise ValueError(f"player: unknown policy {name!r} ({', '.join(POLICY_NAMES)})")
    try:
        return PlayerSpec(name, float(aggr) if aggr else 0.0)
    except ValueError:
        raise ValueError(f"player: aggressiveness must be a number, got {aggr!r}") from None


def _seat_payouts(profile: RuleProfile, lineup: tuple[PlayerSpec, ...], seat: int, deals: int,
                  seed: int) -> np.ndarray:
    batch = play_batch(profile, seed=seed, game_start=0, games=deals, players=lineup)
    played = batch.ri[:, R_OUTCOME] == 0
    out = np.zeros(deals, np.float64)
    out[batch.ri[played, R_GAME]] = batch.rf[played, seat]
    return out


def duel(
    profile: RuleProfile, a: str, b: str, *, deals: int, seed: int = 0,
    field: str = "heuristic",
) -> dict[str, object]:
    """Duplicate match of A against B over ``deals`` games of one deal."""
    if deals < 2:
        raise ValueError("deals: a duel needs at least 2 deals")
    pa, pb, pf = parse_player(a), parse_player(b), parse_player(field)
    n = profile.players
    diff = np.zeros(deals, np.float64)
    for seat in range(n):
        line_a = tuple(pa if s == seat else pf for s in range(n))
        line_b = tuple(pb if s == seat else pf for s in range(n))
        diff += (_seat_payouts(profile, line_a, seat, deals, seed)
                 - _seat_payouts(profile, line_b, seat, deals, seed))
    diff /= n
    mean = float(diff.mean())
    half = Z95 * float(diff.std(ddof=1)) / math.sqrt(deals)
    return {"a": a, "b": b, "field": field, "deals": deals, "seed": seed,
            "mean_difference": mean, "ci_low": mean - half, "ci_high": mean + half}
