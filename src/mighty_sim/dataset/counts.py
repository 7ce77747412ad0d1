"""Tallies that add up: the counters of a differential run or of a simulation shard."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Self


@dataclass
class Counts:
    """A dataclass whose ``int`` fields are counts; :meth:`add` sums them field by field.

    >>> @dataclass
    ... class Tally(Counts):
    ...     a: int = 0
    >>> t = Tally(1); t.add(Tally(2)).a
    3
    """

    def add(self, other: Self) -> Self:
        """Add another tally's counts to this one (other fields are left alone)."""
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(self, f.name, value + getattr(other, f.name))
        return self
