"""mighty_sim: simulation and analytics for Mighty, the Korean trick-taking card game.

The rules oracle (RULES.md is the specification):

>>> from mighty_sim import load_profile, settle
>>> settle(load_profile("standard"), bid=15, trump="D", taken=16, friend="friend")
Settlement(declarer=10.0, friend=5.0, defender=-5.0)
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any


def _kernel_sources_key() -> str:
    """A key that changes whenever a kernel source file changes.

    Numba's cache notices edits to a function's own file but not to a helper it calls in
    another file, so the cache lives in a folder named after all kernel sources at once.
    """
    h = hashlib.sha256()
    for f in sorted((Path(__file__).parent / "kernels").glob("*.py")):
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def _default_numba_cache() -> None:
    """Keep Numba's compile cache in a project-local folder unless one is set, in a
    subfolder per version of the kernel sources (older ones are removed)."""
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").exists():
        base = root / ".numba_cache"
    else:
        base = Path.home() / ".cache" / "mighty_sim" / "numba"
    here = base / _kernel_sources_key()
    if not here.exists() and base.is_dir():
        for old in base.iterdir():
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(here)


_default_numba_cache()

from .cards import format_cards, parse_cards  # noqa: E402
from .profile import RuleProfile, list_profiles, load_profile  # noqa: E402

if TYPE_CHECKING:
    from .oracle import Settlement, legal_plays, settle, trick_winner, weak_hand_score

_FROM_ORACLE = ("Settlement", "legal_plays", "settle", "trick_winner", "weak_hand_score")


def __getattr__(name: str) -> Any:
    """The oracle's names, imported on first use: the oracle loads Numba (0.6 s), which
    ``mighty-sim --help``, an argument error or a profile check never need."""
    if name in _FROM_ORACLE:
        from . import oracle

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
