"""The heuristic player's bidding parameters, tuned per profile and kept as data.

Every built-in profile ships the values ``mighty-sim tune`` found for it, in
``engine/tuned/<profile>.toml`` (each file says the command and seed that produced it).
``heuristic`` plays with the values tuned for the profile being played;
``heuristic@FILE`` with the values of a file that ``mighty-sim tune`` wrote. A profile
without tuned values of its own (a house-rule file not tuned yet) plays with those of the
built-in profile whose rules differ from it in the fewest fields.

>>> from mighty_sim.rules.profile import load_profile
>>> p = tuned_for(load_profile("standard"))
>>> p.bid_base > 0 and p.strength_scale > 0
True
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ..files import read_settings
from ..kernels.layout import (
    PP_BID_BASE,
    PP_BURY,
    PP_CHANGE_MARGIN,
    PP_FRIEND_MARGIN,
    PP_NT_MARGIN,
    PP_RAISE_MARGIN,
    PP_SOLO_THRESHOLD,
    PP_STRAIN_FIT,
    PP_STRENGTH_SCALE,
    PP_WEAK_SHOW,
)
from ..rules.profile import BUILTIN_PROFILES, RuleProfile

TUNED_DIR = Path(__file__).parent / "tuned"

_RANGES = {
    "bid_base": (-20.0, 40.0),
    "strength_scale": (0.05, 5.0),
    "nt_margin": (-30.0, 30.0),
    "solo_threshold": (0.0, 60.0),
    "change_margin": (0.0, 20.0),
    "weak_show": (-10.0, 40.0),
    "raise_margin": (0.0, 20.0),
    "strain_fit": (0.0, 1.0),
    "friend_margin": (0.0, 20.0),
    "bury": (0.0, 20.0),
}
SLOTS = {"bid_base": PP_BID_BASE, "strength_scale": PP_STRENGTH_SCALE,
         "nt_margin": PP_NT_MARGIN, "solo_threshold": PP_SOLO_THRESHOLD,
         "change_margin": PP_CHANGE_MARGIN, "weak_show": PP_WEAK_SHOW,
         "raise_margin": PP_RAISE_MARGIN, "strain_fit": PP_STRAIN_FIT,
         "friend_margin": PP_FRIEND_MARGIN, "bury": PP_BURY}
"""Each parameter's slot in a seat's row of the kernels' policy parameters."""


@dataclass(frozen=True)
class HeuristicParams:
    """How the heuristic bids (see :mod:`mighty_sim.kernels.players.policy_nb`). The defaults
    are the values it was first shaped with, for ``standard``.

    >>> HeuristicParams(strength_scale=0)
    Traceback (most recent call last):
    ...
    ValueError: strength_scale: must be a number from 0.05 to 5, got 0
    >>> HeuristicParams(strain_fit=0.5)
    Traceback (most recent call last):
    ...
    ValueError: strain_fit: must be 0 or 1, got 0.5
    >>> HeuristicParams(bury=2.5)
    Traceback (most recent call last):
    ...
    ValueError: bury: must be a whole number, got 2.5
    """

    bid_base: float = 6.5
    """Points the player expects its side to take beyond its hand's strength."""
    strength_scale: float = 1.0
    """Points of bid per point of hand strength."""
    nt_margin: float = 0.0
    """The NT edge (the payout NT is expected to gain over the hand's best suit) from
    which the player chooses NT."""
    solo_threshold: float = 16.0
    """Strength (per ten cards) from which the declarer plays openly without a friend."""
    change_margin: float = 2.0
    """How much stronger another strain must be for a trump change after the exchange."""
    weak_show: float = 4.0
    """A weak hand (by the profile's scale) is shown for a redeal only when its playing
    strength in its best strain is below this (Mighty and the joker alone make 4.5)."""
    raise_margin: float = 3.0
    """After the exchange the declarer raises its bid, where the rules allow, to its bid
    ceiling (with the hand it now holds) less this many points."""
    strain_fit: float = 0.0
    """1: the strain is chosen by the score fitted to ``odds`` in `standard`
    (:mod:`mighty_sim.kernels.players.strain_fit`), NT when its score beats the best
    suit's by ``nt_margin``; 0: the strongest suit by strength, NT by the NT edge. A
    choice of model, set by hand and never tuned by duels (nor is ``nt_margin`` with it)."""
    friend_margin: float = 0.0
    """Points below its ceiling the player bids against another seat's contract while it
    holds that contract's Mighty: a declarer calls Mighty first, so the holder is the
    friend of whoever wins the auction, and bidding the contract up only raises what its
    own side must make (20: it never bids over another seat)."""
    bury: float = 8.0
    """How much less the declarer wants to keep, in the exchange, a side point card (10
    to king) whose ace it lacks (``policy_nb.keep_value_nb``: a side card's keep value
    starts from its rank): discarded, its point is the declarer side's. With 8 a 10
    without its ace goes before a 3 of a suit with its ace; with 2 (the baseline's)
    after it. A whole number."""

    def __post_init__(self) -> None:
        for name, (low, high) in _RANGES.items():
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value)
                    and low <= value <= high):
                raise ValueError(f"{name}: must be a number from {low:g} to {high:g}, "
                                 f"got {value!r}")
        if self.strain_fit not in (0, 1):
            raise ValueError(f"strain_fit: must be 0 or 1, got {self.strain_fit!r}")
        if self.bury != int(self.bury):
            raise ValueError(f"bury: must be a whole number, got {self.bury!r}")

    def to_dict(self) -> dict[str, float]:
        """Plain data (a run's recorded configuration, a tuned file's table)."""
        return {k: float(v) for k, v in asdict(self).items()}

    def fill(self, row: np.ndarray) -> None:
        """Write these values into a seat's row of the kernels' policy parameters."""
        for name, slot in SLOTS.items():
            row[slot] = getattr(self, name)

    def replace(self, **changes: float) -> HeuristicParams:
        """A copy with some values changed, validated again."""
        return HeuristicParams(**{**self.to_dict(), **changes})

    def to_toml(self, *, profile: RuleProfile, comments: list[str]) -> str:
        """A tuned file: the profile it was tuned for and the values."""
        lines = [f"# {c}" for c in comments]
        lines += [f'profile = "{profile.name}"', f'fingerprint = "{profile.fingerprint()}"',
                  "", "[heuristic]"]
        lines += [f"{k} = {v!r}" for k, v in self.to_dict().items()]
        return "\n".join(lines) + "\n"


PARAM_NAMES = tuple(f.name for f in fields(HeuristicParams))


def read_tuned(path: str | Path) -> tuple[HeuristicParams, dict[str, Any]]:
    """The values of a tuned file and its other keys (profile, fingerprint); ValueError
    naming the file when it cannot be read."""
    where = Path(path)
    data = read_settings(where, "tuned player file")
    table = data.get("heuristic")
    if not isinstance(table, dict):
        raise ValueError(f"{where}: no [heuristic] table (write one with mighty-sim tune)")
    unknown = set(table) - set(PARAM_NAMES)
    if unknown:
        raise ValueError(f"{where}: unknown heuristic parameter {sorted(unknown)[0]!r}")
    try:
        return HeuristicParams(**table), {k: v for k, v in data.items() if k != "heuristic"}
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None


@cache
def _shipped(baseline: bool = False) -> dict[str, tuple[HeuristicParams, dict[str, Any]]]:
    """The tuned files shipped with the package, by profile name (``baseline``: the
    frozen values of the baseline player, in ``tuned/baseline/``)."""
    folder = TUNED_DIR / "baseline" if baseline else TUNED_DIR
    return {f.stem: read_tuned(f) for f in sorted(folder.glob("*.toml"))}


def _distance(a: RuleProfile, b: RuleProfile) -> int:
    da, db = a.to_dict(), b.to_dict()
    return sum(da[k] != db[k] for k in da if k not in ("name", "description"))


def _tuned_exactly(profile: RuleProfile, baseline: bool = False) -> HeuristicParams | None:
    """The shipped values tuned for exactly these rules (by fingerprint), if any."""
    fingerprint = profile.fingerprint()
    return next((params for params, meta in _shipped(baseline).values()
                 if meta.get("fingerprint") == fingerprint), None)


def has_tuned(profile: RuleProfile) -> bool:
    """Whether values were tuned for exactly these rules (fingerprint)."""
    return _tuned_exactly(profile) is not None


def tuned_for(profile: RuleProfile, *, baseline: bool = False) -> HeuristicParams:
    """The heuristic's values for ``profile``: those tuned for its rules (by fingerprint,
    then by name), else those of the nearest built-in profile. With ``baseline``, the
    baseline player's: the values the first heuristic was tuned to, kept frozen with it
    (``tuned/baseline/``), so that it plays today as it always has."""
    exact = _tuned_exactly(profile, baseline)
    if exact is not None:
        return exact
    shipped = _shipped(baseline)
    if profile.name in shipped:
        return shipped[profile.name][0]
    nearest = min(BUILTIN_PROFILES.values(), key=lambda b: (_distance(profile, b), b.name))
    if nearest.name in shipped:
        return shipped[nearest.name][0]
    return HeuristicParams()


__all__ = ["HeuristicParams", "PARAM_NAMES", "has_tuned", "read_tuned", "tuned_for"]
