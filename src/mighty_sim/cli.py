"""The ``mighty-sim`` command line.

Bad input gives a one-line error on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from .profile import BUILTIN_PROFILES, load_profile


class _Group(click.Group):
    """A click group that turns a ValueError into a one-line error with exit code 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ValueError as e:
            click.echo(f"mighty-sim: error: {e}", err=True)
            ctx.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="mighty-sim", prog_name="mighty-sim")
def main() -> None:
    """Simulate and analyse Mighty, the Korean trick-taking card game.

    Rules come from profiles (see `mighty-sim rules list`); a profile file in TOML
    extends a built-in profile with a table's house rules.
    """


@main.group(cls=_Group)
def rules() -> None:
    """List and show rule profiles."""


@rules.command("list")
def rules_list() -> None:
    """List the built-in rule profiles."""
    for name, p in BUILTIN_PROFILES.items():
        click.echo(f"{name:<12} {p.fingerprint()}  {p.description}")


@rules.command("show")
@click.argument("profile")
@click.option("--format", "fmt", type=click.Choice(["toml", "json"]), default="toml",
              show_default=True, help="Output format.")
def rules_show(profile: str, fmt: str) -> None:
    """Print the resolved PROFILE (a built-in name or a .toml file) and its fingerprint."""
    p = load_profile(profile)
    if fmt == "json":
        click.echo(json.dumps({"fingerprint": p.fingerprint(), "profile": p.to_dict()}, indent=2))
    else:
        click.echo(f"# fingerprint {p.fingerprint()}")
        click.echo(p.to_toml(), nl=False)


@main.command()
@click.option("--profile", default="standard", show_default=True,
              help="Built-in profile name or .toml file.")
@click.option("--deals", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Random deals to play in the reference engine.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to share the deals.")
def verify(profile: str, deals: int, seed: int, workers: int) -> None:
    """Check the Numba rule kernels against the reference engine, decision by decision.

    Exits with code 1 if any legal-play set, trick winner, settlement or weak-hand score
    differs.
    """
    from .verify import run_differential

    p = load_profile(profile)
    start = time.perf_counter()
    report = run_differential(p, deals=deals, seed=seed, workers=workers, progress=True)
    elapsed = time.perf_counter() - start
    click.echo(
        f"{report.deals:,} deals ({report.played:,} played): {report.decisions:,} decisions, "
        f"{report.tricks:,} tricks, {report.settlements:,} settlements, "
        f"{report.hands:,} hands compared; {report.mismatches} mismatches in {elapsed:.1f} s"
    )
    for line in report.examples:
        click.echo(f"  {line}")
    if report.mismatches:
        sys.exit(1)


@main.command()
@click.option("--deals", type=click.IntRange(min=1), default=2_000, show_default=True,
              help="Random deals for the differential check.")
def demo(deals: int) -> None:
    """Show the rules at work: worked examples, a ledger and a differential check."""
    from .demo import run_demo

    run_demo(deals=deals)


if __name__ == "__main__":  # pragma: no cover
    main()
