"""What every benchmark does with its figures: print them, and write them as JSON (output,
not truth) under ``benchmarks/results/``."""

from __future__ import annotations

import json
from pathlib import Path


def print_figures(figures: dict[str, float]) -> None:
    """One aligned line a figure."""
    width = max(len(k) for k in figures) + 2
    for k, v in figures.items():
        print(f"{k:<{width}} {v:>14,.2f}")


def save(result: dict[str, object], path: Path) -> None:
    """Write ``result`` as JSON to ``path``, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")
