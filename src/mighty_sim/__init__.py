"""mighty_sim: simulation and analytics for Mighty, the Korean trick-taking card game.

The rules oracle (RULES.md is the specification):

>>> from mighty_sim import load_profile, settle
>>> settle(load_profile("standard"), bid=15, trump="D", taken=16, friend="friend")
Settlement(declarer=10.0, friend=5.0, defender=-5.0)
"""

from __future__ import annotations

import os
from pathlib import Path


def _default_numba_cache() -> None:
    """Keep Numba's compile cache in a project-local folder unless one is set."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").exists():
        os.environ["NUMBA_CACHE_DIR"] = str(root / ".numba_cache")
    else:
        os.environ["NUMBA_CACHE_DIR"] = str(Path.home() / ".cache" / "mighty_sim" / "numba")


_default_numba_cache()

from .cards import format_cards, parse_cards  # noqa: E402
from .oracle import Settlement, legal_plays, settle, trick_winner, weak_hand_score  # noqa: E402
from .profile import RuleProfile, list_profiles, load_profile  # noqa: E402

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
