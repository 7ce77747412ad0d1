"""mighty_sim: simulation and analytics for Mighty, the Korean trick-taking card game.

The rules oracle (the rules are written out in docs/rules.md):

>>> from mighty_sim import load_profile, settle
>>> settle(load_profile("standard"), bid=15, trump="D", taken=16, friend="friend")
Settlement(declarer=10.0, friend=5.0, defender=-5.0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .rules.cards import format_cards, parse_cards
from .rules.profile import RuleProfile, list_profiles, load_profile

if TYPE_CHECKING:
    from .engine.oracle import Settlement, legal_plays, settle, trick_winner, weak_hand_score

_FROM_ORACLE = ("Settlement", "legal_plays", "settle", "trick_winner", "weak_hand_score")


def __getattr__(name: str) -> Any:
    """The oracle's names, imported on first use: the oracle loads Numba (0.6 s), which
    ``mighty-sim --help``, an argument error or a profile check never need."""
    if name in _FROM_ORACLE:
        from .engine import oracle

        value = getattr(oracle, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__version__ = "0.1.0"

__all__ = [
    "RuleProfile",
    "Settlement",
    "format_cards",
    "legal_plays",
    "list_profiles",
    "load_profile",
    "parse_cards",
    "settle",
    "trick_winner",
    "weak_hand_score",
]
