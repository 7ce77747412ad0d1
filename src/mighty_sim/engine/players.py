"""Who sits at the table: a seat's policy and its parameters, read from text such as
``heuristic:1.5`` or ``pimc:worlds=40``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..kernels.layout import DEFAULT_WORLDS, POLICY_NAMES, SEARCH_ON, SEARCH_SIDE
from ..rules.profile import RuleProfile
from .heuristic import HeuristicParams, read_tuned, tuned_for

AGGRESSIVENESS_LIMIT = 10.0
"""The most points a player may add to or take from its bid ceiling. Far below -4 the
heuristic players of some profiles pass almost every deal (standard at -8: no game ends
within 60,000 redeals); a run with such players stops before it writes anything."""


@dataclass(frozen=True)
class PlayerSpec:
    """A seat's policy and its parameters (PIMC's ``worlds``, ``rollouts``, ``noise``, and
    which of its cards it searches, the heuristic playing the others: from trick
    ``from_trick`` to ``to_trick``, ``search_on`` its leads, its follows or both
    (``SEARCH_ON``), ``search_side`` as the declarer or friend, as a defender, or both
    (``SEARCH_SIDE``); ``params``: the heuristic's bidding values, which PIMC bids with
    too; None for the values tuned for the profile played, see :func:`resolved`)."""

    policy: str = "heuristic"
    aggressiveness: float = 0.0
    worlds: int = DEFAULT_WORLDS
    rollouts: int = 1
    noise: float = 0.0
    params: HeuristicParams | None = None
    from_trick: int = 1
    to_trick: int = 30
    search_on: str = "all"
    search_side: str = "all"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.aggressiveness)
                and abs(self.aggressiveness) <= AGGRESSIVENESS_LIMIT):
            raise ValueError(
                f"aggressiveness: a player's total (its :AGGR plus --aggressiveness) must be "
                f"a number from -{AGGRESSIVENESS_LIMIT:g} to {AGGRESSIVENESS_LIMIT:g}, "
                f"got {self.aggressiveness:g}")

    def to_dict(self) -> dict[str, object]:
        """Plain data, for a run's recorded configuration."""
        out: dict[str, object] = {"policy": self.policy, "aggressiveness": self.aggressiveness}
        if self.policy == "pimc":
            out.update(worlds=self.worlds, rollouts=self.rollouts, noise=self.noise)
            # (a run recorded before an option reads the same)
            defaults = PlayerSpec()
            for key in ("from_trick", "to_trick", "search_on", "search_side"):
                if getattr(self, key) != getattr(defaults, key):
                    out[key] = getattr(self, key)
        if self.params is not None:
            out["params"] = self.params.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerSpec:
        """Inverse of :meth:`to_dict`."""
        params = data.get("params")
        return cls(**{**data, "params": None if params is None else HeuristicParams(**params)})

    def resolved(self, profile: RuleProfile) -> PlayerSpec:
        """This player with its bidding values made explicit: the profile's tuned values
        when none were given (random players have none)."""
        if self.policy == "random" or self.params is not None:
            return self
        return replace(self, params=tuned_for(profile, baseline=self.policy == "baseline"))


_PIMC_KEYS: dict[str, tuple[Callable[[str], float], float, float]] = {
    "worlds": (int, 1, 10_000), "rollouts": (int, 1, 100), "noise": (float, 0.0, 1.0),
    "from": (int, 1, 30), "to": (int, 1, 30)}
_PIMC_CHOICES = {"on": SEARCH_ON, "side": SEARCH_SIDE}
_FIELDS = {"aggr": "aggressiveness", "from": "from_trick", "to": "to_trick",
           "on": "search_on", "side": "search_side"}
"""The PlayerSpec field of each option whose name differs from it."""


def parse_player(text: str) -> PlayerSpec:
    """A player from ``policy[@FILE][:option...]``: ``@FILE`` takes the bidding values of
    a file written by ``mighty-sim tune`` (else the values tuned for the profile played);
    an option is a number (the aggressiveness, points added to the bid ceiling) or
    ``aggr=``, and for ``pimc`` also ``worlds=``, ``rollouts=``, ``noise=``, and which of
    its cards it searches, the heuristic's cards played for the others: ``from=`` and
    ``to=`` (the first and last tricks searched), ``on=lead`` or ``on=follow`` (its leads
    only, its follows only), ``side=declarer`` or ``side=defence`` (as the declarer or
    the friend only, as a defender only).

    >>> spec = parse_player("heuristic:1.5")
    >>> spec.policy, spec.aggressiveness, spec.params is None
    ('heuristic', 1.5, True)
    >>> parse_player("pimc:worlds=40").worlds
    40
    >>> parse_player("pimc:worlds=20:from=7").from_trick
    7
    >>> spec = parse_player("pimc:to=6:on=lead:side=defence")
    >>> spec.to_trick, spec.search_on, spec.search_side
    (6, 'lead', 'defence')
    >>> parse_player("random:worlds=4")
    Traceback (most recent call last):
    ...
    ValueError: player 'random:worlds=4': worlds= is an option of pimc only
    """
    name, *opts = [part.strip() for part in text.strip().split(":")]
    name, at, tuned_file = name.partition("@")
    if name not in POLICY_NAMES:
        raise ValueError(f"players: unknown policy {name!r} ({', '.join(POLICY_NAMES)})")
    params = None
    if at:
        if name == "random":
            raise ValueError(f"player {text!r}: a random player has no tuned values")
        params = read_tuned(tuned_file)[0]
    values: dict[str, Any] = {}  # by option name; _FIELDS names PlayerSpec's field
    for opt in opts:
        key, eq, raw = opt.partition("=")
        if not eq:
            key, raw = "aggr", opt
        key = key.strip()
        kind: Callable[[str], float]
        if key in _PIMC_CHOICES:
            if name != "pimc":
                raise ValueError(f"player {text!r}: {key}= is an option of pimc only")
            if raw not in _PIMC_CHOICES[key]:
                raise ValueError(f"player {text!r}: {key} must be one of "
                                 f"{', '.join(_PIMC_CHOICES[key])}, got {raw!r}")
            values[key] = raw
            continue
        if key == "aggr":
            kind, low, high = float, -AGGRESSIVENESS_LIMIT, AGGRESSIVENESS_LIMIT
        elif key in _PIMC_KEYS:
            if name != "pimc":
                raise ValueError(f"player {text!r}: {key}= is an option of pimc only")
            kind, low, high = _PIMC_KEYS[key]
        else:
            raise ValueError(f"player {text!r}: unknown option {key!r} "
                             f"(aggr, {', '.join([*_PIMC_KEYS, *_PIMC_CHOICES])})")
        try:
            value = kind(raw)
        except ValueError:
            what = "aggressiveness" if key == "aggr" else key
            raise ValueError(f"player {text!r}: {what} must be a number, got {raw!r}") from None
        if not low <= value <= high:
            raise ValueError(f"player {text!r}: {key} must be in {low}..{high}")
        values[key] = value
    spec = PlayerSpec(name, params=params,
                      **{_FIELDS.get(key, key): value for key, value in values.items()})
    if spec.to_trick < spec.from_trick:
        raise ValueError(f"player {text!r}: to= must not be before from=")
    return spec


def parse_players(text: str, players: int) -> tuple[PlayerSpec, ...]:
    """Seats' players from one player for every seat or a comma list, one per seat
    (each as :func:`parse_player` reads it).

    >>> [p.policy for p in parse_players("random,heuristic,random,pimc,random", 5)]
    ['random', 'heuristic', 'random', 'pimc', 'random']
    >>> parse_players("genius", 5)
    Traceback (most recent call last):
    ...
    ValueError: players: unknown policy 'genius' (random, heuristic, pimc, baseline)
    """
    names = [t.strip() for t in text.split(",")]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"players: need 1 or {players} policies, got {len(names)}")
    return tuple(parse_player(name) for name in names)
