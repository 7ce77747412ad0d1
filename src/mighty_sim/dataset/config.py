"""Everything that determines a run's rows (:class:`RunConfig`), as recorded in
``_run.json`` and every file's metadata, and how two configurations differ.
"""

from __future__ import annotations

import hashlib
import json
import math
import platform
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from typing import Any

from ..engine.players import PlayerSpec
from ..engine.sizing import deals_per_game
from ..rules.profile import RuleProfile, load_profile
from .schema import SCHEMA_VERSION
from .shards import SHARD_GAMES

MAX_DEALS = 10_000_000_000
"""The most deals (or games played to a target) one run may hold."""


MAX_SHARDS = 100_000
"""The most shard files a run may have (each table): a run of 10 billion deals in files
of the default size has about 20,000; one game a file would be billions of files."""


MAX_LEDGER = 10_000
"""The most deals a game may hold: its deals and redeals are numbered below 2**16."""


BATCH_GAMES = 8_192
"""Deals' worth of games per kernel call. The call's arrays and their conversion to
Arrow were the bulk of a worker's memory: a shard of 500,000 games in one process peaked
at 388-396 MiB with 65,536 (218 MiB of it the loaded modules), at 287-289 MiB with 8,192
and row groups of ``GROUP_ROWS``, for the same time a shard."""


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's rows."""

    profile: RuleProfile
    deals: int
    seed: int
    players: tuple[PlayerSpec, ...]
    ledger: int = 1
    tricks: bool = False
    shard_games: int = SHARD_GAMES
    to_target: bool = False

    def __post_init__(self) -> None:
        if not 1 <= self.deals <= MAX_DEALS:
            raise ValueError(f"deals: must be 1 to {MAX_DEALS:,} in one run, got {self.deals:,}"
                             "; split a larger study into runs with different seeds")
        if not 0 <= self.seed < 1 << 63:
            raise ValueError(f"seed: must be 0 to 2**63-1, got {self.seed}")
        if not 1 <= self.ledger <= MAX_LEDGER:
            raise ValueError(f"ledger: must be 1 to {MAX_LEDGER:,} deals a game, got "
                             f"{self.ledger:,}")
        if self.shard_games < 1:
            raise ValueError("shard_games: must be at least 1")
        if self.shards > MAX_SHARDS:
            least = math.ceil(self.games / MAX_SHARDS)
            raise ValueError(f"shard_games: {self.shard_games:,} games a file makes "
                             f"{self.shards:,} files; at most {MAX_SHARDS:,} (give at least "
                             f"{least:,} games a file)")
        if len(self.players) != self.profile.players:
            raise ValueError(f"players: {self.profile.name} needs {self.profile.players}")
        if self.to_target and self.profile.ledger_target <= 0:
            raise ValueError(f"to_target: profile {self.profile.name} has no ledger_target")

    @property
    def games(self) -> int:
        """Games played: ``deals`` rounded up to whole ledgers; with ``to_target`` (games
        played until a player reaches the profile's ledger_target), ``deals`` games."""
        return self.deals if self.to_target else math.ceil(self.deals / self.ledger)

    @property
    def units_per_game(self) -> int:
        """Progress units of a game: its deals, or 1 when games run to a target."""
        return 1 if self.to_target else self.ledger

    @property
    def batch_games(self) -> int:
        """Games per kernel call: about ``BATCH_GAMES`` deals' worth."""
        return max(1, BATCH_GAMES // deals_per_game(self.ledger, self.to_target))

    @property
    def shards(self) -> int:
        """Number of shards."""
        return math.ceil(self.games / self.shard_games)

    def shard_range(self, shard: int) -> tuple[int, int]:
        """First game and number of games of a shard."""
        start = shard * self.shard_games
        return start, min(self.shard_games, self.games - start)

    def to_dict(self) -> dict[str, Any]:
        """The configuration as recorded in ``_run.json`` and Parquet metadata."""
        return {
            "schema_version": SCHEMA_VERSION,
            "profile": self.profile.to_dict(),
            "fingerprint": self.profile.fingerprint(),
            "deals": self.deals,
            "games": self.games,
            "seed": self.seed,
            "players": [p.to_dict() for p in self.players],
            "ledger": self.ledger,
            "tricks": self.tricks,
            "shard_games": self.shard_games,
            "to_target": self.to_target,
        }

    def identity(self) -> str:
        """A hash of the whole configuration (:func:`run_identity`) but the profile's
        description, which a resumed run may have reworded: what every shard file of the
        run carries, and what a file of another run does not."""
        return run_identity(self.to_dict())

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunConfig:
        """Inverse of :meth:`to_dict`."""
        profile = load_profile("standard").replace(**data["profile"])
        return cls(
            profile=profile,
            deals=data["deals"],
            seed=data["seed"],
            players=tuple(PlayerSpec.from_dict(p) for p in data["players"]),
            ledger=data["ledger"],
            tricks=data["tricks"],
            shard_games=data["shard_games"],
            to_target=data.get("to_target", False),
        )


def run_identity(config_dict: dict[str, Any]) -> str:
    """A short hash of a run's configuration (:meth:`RunConfig.to_dict`): the profile
    with its fingerprint, the seed, the players, the shard size and every option.

    >>> len(run_identity({"seed": 1}))
    16
    """
    data = dict(config_dict)
    if isinstance(data.get("profile"), dict):
        data["profile"] = {k: v for k, v in data["profile"].items() if k != "description"}
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """Versions of the packages that made a dataset (looked up once per process)."""
    out = {"python": platform.python_version()}
    for name in ("mighty-sim", "numba", "numpy", "pyarrow", "polars"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover
            out[name] = "unknown"
    return out


_OPTION_OF = {"profile": "--profile", "fingerprint": "--profile", "deals": "--deals",
              "games": "--deals", "seed": "--seed", "players": "--players/--aggressiveness",
              "ledger": "--ledger", "tricks": "--tricks", "shard_games": "--shard-games",
              "to_target": "--to-target"}


def _same_rules(recorded: dict[str, Any], now: dict[str, Any]) -> bool:
    """The same profile name and rules (a description may have been reworded since)."""
    def name(c: dict[str, Any]) -> object:
        return c["profile"].get("name") if isinstance(c.get("profile"), dict) else None

    return recorded.get("fingerprint") == now.get("fingerprint") and name(recorded) == name(now)


def config_differences(recorded: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """What differs between a run's recorded configuration and the one asked for, as the
    options that set it.

    >>> config_differences({"seed": 1, "deals": 9, "games": 9}, {"seed": 2, "deals": 9,
    ...                                                            "games": 9})
    ['--seed (the run has 1, now 2)']
    """
    out: list[str] = []
    for key in sorted(set(recorded) | set(now)):
        old, new = recorded.get(key), now.get(key)
        if old == new or key == "profile" and _same_rules(recorded, now):
            continue
        option = _OPTION_OF.get(key)
        if option is None:
            return [f"the run was written by another mighty-sim version ({key} {old})"]
        if any(line.startswith(option) for line in out):
            continue
        if key == "profile":
            old_name = old.get("name") if isinstance(old, dict) else old
            new_name = new.get("name") if isinstance(new, dict) else new
            out.append(f"{option} (the run has {old_name!r}, with other rules than "
                       f"{new_name!r} now)")
        elif isinstance(old, int | float | str | bool) or old is None:
            out.append(f"{option} (the run has {old}, now {new})")
        else:
            out.append(f"{option} differs")
    return out
