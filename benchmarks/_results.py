"""What every benchmark does with its figures: print them, and write them as JSON (output,
not truth) under ``benchmarks/results/``."""

from __future__ import annotations

import json
from pathlib import Path

from floor import floor_rate


def print_figures(figures: dict[str, float]) -> None:
    """One aligned line a figure."""
    width = max(len(k) for k in figures) + 2
    for k, v in figures.items():
        print(f"{k:<{width}} {v:>14,.2f}")


def save(result: dict[str, object], path: Path) -> None:
    """Write ``result`` as JSON to ``path``, creating its folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n")


def add_floor(results: dict[str, float], before: float, *rates: str) -> None:
    """Measure the floor again (benchmarks/floor.py) and add both floors and each of
    ``rates`` (deals/s figures of ``results``) as a fraction of their mean: the ratio
    that holds whatever phase the machine is in."""
    after = floor_rate()
    results["floor_before_deals_per_s"] = before
    results["floor_after_deals_per_s"] = after
    mean = (before + after) / 2
    for name in rates:
        results[f"{name}_vs_floor"] = results[name] / mean
