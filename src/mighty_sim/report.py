"""Printing analysis tables for people (rich tables on the terminal)."""

from __future__ import annotations

import polars as pl
from rich.console import Console
from rich.table import Table


def _cell(v: object) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def print_tables(tables: dict[str, pl.DataFrame], console: Console | None = None) -> None:
    """Print each table under its name."""
    out = console or (Console() if Console().is_terminal else Console(width=160))
    for name, df in tables.items():
        table = Table(*df.columns, title=name, title_justify="left")
        for row in df.iter_rows():
            table.add_row(*(_cell(v) for v in row))
        out.print(table)
