"""``mighty-sim tune``: the heuristic's bidding values for a profile, found by simulation.

Best response on common random numbers, iterated to a fixed point. The field plays the
current values; one seat at a time deviates by one step of one parameter (up or down),
and its payout minus the field player's payout in that seat, on the same deals against
the same opponents (a duplicate duel, :mod:`.duel`), is the gain of the step. A step
whose gain is positive by the lower end of its 95% interval, and again on fresh deals
(a round tries dozens of steps, and one in forty passes one such test by chance), is
adopted by the whole field, and the parameter keeps moving that way while the next step
pays too. Where a step changes no decision at all (or, for the thresholds of rare choices
such as NT, does not lose by its interval), the next one is tried, up to ``PLATEAU``
steps away. A round
tries every parameter; the values are a fixed point when a whole round adopts nothing
(no single step pays). Each round plays fresh deals (seed + round), so the values do not
fit one sample.

>>> from mighty_sim.rules.profile import load_profile
>>> result = tune(load_profile("standard"), deals=200, seed=1, rounds=1)
>>> result.rounds, len(result.steps) >= 10
(1, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..engine.heuristic import PARAM_NAMES, HeuristicParams, tuned_for
from ..engine.players import PlayerSpec
from ..rules.profile import RuleProfile
from .duel import seat_payouts
from .stats import Z95

STEPS = {"bid_base": 0.5, "strength_scale": 0.05, "nt_margin": 0.5, "solo_threshold": 1.0,
         "change_margin": 0.5, "weak_show": 0.5, "raise_margin": 1.0, "friend_margin": 1.0,
         "bury": 1.0}
"""One step of each parameter."""
THRESHOLDS = ("nt_margin", "solo_threshold", "weak_show", "raise_margin", "friend_margin")
"""Values that decide rare choices (NT, no friend): across the wide range where a step
changes few decisions, the search looks further while a step does not lose by its 95%
interval."""
PLATEAU = 16
"""Most steps looked ahead past steps that do not pay."""
CONFIRM_SEED = 500_009
"""Offset of the seed of the fresh deals that confirm a step before it is adopted."""


@dataclass(frozen=True)
class Step:
    """One deviation tried: its parameter, values, gain a deal and 95% interval."""

    round: int
    parameter: str
    old: float
    new: float
    gain: float
    ci_low: float
    ci_high: float
    adopted: bool
    confirm_low: float = math.nan
    """The lower end of the step's gain on fresh deals, asked only when ``ci_low`` is
    above zero: the step is adopted when both are."""


@dataclass
class TuneResult:
    """The values found, every step tried, and whether a fixed point was reached."""

    params: HeuristicParams
    start: HeuristicParams
    steps: list[Step] = field(default_factory=list)
    rounds: int = 0
    converged: bool = False


class _Field:
    """The field's payouts by seat on one round's deals, kept while the field is the
    same."""

    def __init__(self, profile: RuleProfile, params: HeuristicParams, deals: int,
                 seed: int) -> None:
        self.profile, self.params, self.deals, self.seed = profile, params, deals, seed
        player = PlayerSpec("heuristic", params=params)
        lineup = (player,) * profile.players
        self.pay = [seat_payouts(profile, lineup, s, deals, seed)[0]
                    for s in range(profile.players)]

    def gain(self, deviant: HeuristicParams) -> tuple[float, float, float]:
        """Mean gain a deal of one seat playing ``deviant`` (over every seat), 95% CI."""
        n = self.profile.players
        field_player = PlayerSpec("heuristic", params=self.params)
        player = PlayerSpec("heuristic", params=deviant)
        diff = np.zeros(self.deals, np.float64)
        for seat in range(n):
            lineup = tuple(player if s == seat else field_player for s in range(n))
            diff += seat_payouts(self.profile, lineup, seat, self.deals, self.seed)[0]
            diff -= self.pay[seat]
        diff /= n
        mean = float(diff.mean())
        half = Z95 * float(diff.std(ddof=1)) / math.sqrt(self.deals)
        return mean, mean - half, mean + half


def _clamped(params: HeuristicParams, name: str, value: float) -> HeuristicParams | None:
    try:
        return params.replace(**{name: round(value, 6)})
    except ValueError:
        return None  # outside the parameter's range


def decides(profile: RuleProfile, name: str) -> bool:
    """Whether parameter ``name`` can change a decision under ``profile``'s rules: no
    weak hand is shown where the rules have no weak-hand redeal, no bid is raised
    after the exchange where they allow no raise (a trump change is no raise), no
    holder of Mighty is sure to be the friend where no friend is called, and nothing is
    buried where the blind is empty (the declarer discards nothing).

    >>> from mighty_sim.rules.profile import load_profile
    >>> [decides(load_profile("russian-7p"), n) for n in ("weak_show", "raise_margin")]
    [False, False]
    >>> decides(load_profile("russian-3p"), "friend_margin")  # no friend is called
    False
    >>> no_blind = load_profile("standard").replace(blind_size=0, deck_remove=("2C", "2D", "2H"))
    >>> decides(no_blind, "bury"), decides(load_profile("standard"), "bury")
    (False, True)
    """
    if name == "weak_show":
        return profile.weak_hand_when != "never"
    if name == "strain_fit":  # a choice of model, set by hand
        return False
    if name == "raise_margin":
        return profile.raise_after_exchange or profile.raise_rule == "rank-gap"
    if name == "friend_margin":  # Mighty's holder is the friend only of a called friend
        return "called" in profile.friend_modes
    if name == "bury":
        return profile.blind_size > 0
    return True


def tune(
    profile: RuleProfile, *, deals: int = 10_000, seed: int = 0, rounds: int = 12,
    start: HeuristicParams | None = None, report: Callable[[Step], None] | None = None,
) -> TuneResult:
    """Tune the heuristic for ``profile`` (from ``start``, by default its current tuned
    values); ``report(step)`` is called for every step tried."""
    if deals < 100:
        raise ValueError(f"deals: tuning needs at least 100 deals a duel, got {deals}")
    if rounds < 1:
        raise ValueError(f"rounds: must be at least 1, got {rounds}")
    params = start or tuned_for(profile)
    result = TuneResult(params, params)
    for r in range(rounds):
        result.rounds = r + 1
        round_seed = seed + 1_000_003 * r
        moved = False
        field_ = _Field(profile, params, deals, round_seed)
        fresh: _Field | None = None  # the confirming duels' field, made when first asked
        for name in PARAM_NAMES:
            if not decides(profile, name) or (
                    name == "nt_margin" and params.strain_fit):  # fitted to odds
                continue
            direction = 0
            for sign in (+1, -1):
                if direction:
                    break
                k = 1  # steps away from the current value
                while True:
                    value = getattr(params, name) + sign * k * STEPS[name]
                    deviant = _clamped(params, name, value)
                    if deviant is None:
                        break
                    gain, low, high = field_.gain(deviant)
                    confirm = math.nan
                    if low > 0:  # confirmed on fresh deals: of the dozens of steps a
                        # round tries, one in forty passes a single test by chance
                        if fresh is None:
                            fresh = _Field(profile, params, deals, round_seed + CONFIRM_SEED)
                        confirm = fresh.gain(deviant)[1]
                    adopted = low > 0 and confirm > 0
                    step = Step(r + 1, name, getattr(params, name), getattr(deviant, name),
                                gain, low, high, adopted, confirm)
                    result.steps.append(step)
                    if report is not None:
                        report(step)
                    if not adopted:
                        flat = low == high == 0.0 or name in THRESHOLDS and high >= 0
                        if flat and k < PLATEAU:  # changed no decision, or (a rare
                            k += 1  # choice's threshold) did not lose: look further
                            continue
                        break
                    direction, moved, params, k = sign, True, deviant, 1
                    field_ = _Field(profile, params, deals, round_seed)
                    fresh = None
        result.params = params
        if not moved:
            result.converged = True
            break
    return result


__all__ = ["STEPS", "Step", "TuneResult", "decides", "tune"]
