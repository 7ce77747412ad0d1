"""Reports for people: rich tables on the terminal, and a Markdown report with pictures.

``mighty-sim report DIR --out OUT`` writes ``OUT/report.md`` and PNG pictures made with
matplotlib: success rate by bid with 95% intervals, success by hand strength, payout
distributions by role, and the weak-hand redeal frequency against its exact value.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import polars as pl
from rich.console import Console
from rich.table import Table

from ..files import write_atomic


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


def _markdown_table(df: pl.DataFrame, limit: int = 40) -> str:
    head = "| " + " | ".join(df.columns) + " |"
    rule = "|" + "---|" * len(df.columns)
    rows = ["| " + " | ".join(_cell(v) for v in row) + " |" for row in df.head(limit).iter_rows()]
    more = [f"\n({df.height - limit} more rows in `mighty-sim analyze --format csv`)"] \
        if df.height > limit else []
    return "\n".join([head, rule, *rows, *more])


def _html_table(df: pl.DataFrame, limit: int = 40) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(v))}</td>" for v in row) + "</tr>"
                   for row in df.head(limit).iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def write_report(dataset: Path, out: Path) -> Path:
    """Write ``report.md``, ``report.html`` and their pictures into ``out``; returns the
    Markdown report's path."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib.pyplot as plt

    from ..dataset.integrity import load_run
    from .tables import analyze_dataset, scan_deals

    config = load_run(dataset)
    tables = analyze_dataset(dataset)
    out.mkdir(parents=True, exist_ok=True)
    pictures: list[tuple[str, str]] = []

    def save(fig: object, name: str, caption: str) -> None:
        tmp = out / f".{name}.tmp.png"
        try:
            fig.savefig(tmp, dpi=110, bbox_inches="tight")  # type: ignore[attr-defined]
            os.replace(tmp, out / name)
        except OSError as e:
            raise ValueError(f"cannot write {out / name}: {e.strerror or e}") from None
        finally:
            plt.close(fig)  # type: ignore[arg-type]
            tmp.unlink(missing_ok=True)
        pictures.append((name, caption))

    by_bid = (tables["bid_success"].group_by("bid")
              .agg(pl.col("n").sum(), pl.col("successes").sum()).sort("bid"))
    from .stats import wilson_interval

    ci = [wilson_interval(s, n) for s, n in zip(by_bid["successes"], by_bid["n"], strict=True)]
    rate = (by_bid["successes"] / by_bid["n"]).to_list()
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.errorbar(by_bid["bid"].to_list(), rate,
                yerr=[[r - lo for r, (lo, _) in zip(rate, ci, strict=True)],
                      [hi - r for r, (_, hi) in zip(rate, ci, strict=True)]],
                fmt="o-", capsize=3)
    ax.set_xlabel("final bid")
    ax.set_ylabel("success rate")
    ax.set_ylim(0, 1)
    ax.set_title("Success rate by bid (95% Wilson intervals)")
    save(fig, "success_by_bid.png", "Success rate by final bid, with 95% Wilson intervals.")

    hand = (tables["success_by_hand"].group_by("strength")
            .agg(pl.col("n").sum(), pl.col("successes").sum()).sort("strength"))
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(hand["strength"].to_list(), (hand["successes"] / hand["n"]).to_list(), "o-")
    ax.set_xlabel("declarer's hand strength at auction (heuristic scale)")
    ax.set_ylabel("success rate")
    ax.set_ylim(0, 1)
    ax.set_title("Success by hand strength")
    save(fig, "success_by_strength.png", "Success rate by the declarer's hand strength.")

    deals = scan_deals(dataset).filter(pl.col("outcome") == "played")
    roles = (
        deals.select("declarer", "friend_seat", "payouts")
        .with_columns(pl.int_ranges(0, pl.col("payouts").list.len()).alias("seat"))
        .explode("payouts", "seat")
        .with_columns(pl.when(pl.col("seat") == pl.col("declarer")).then(pl.lit("declarer"))
                      .when(pl.col("seat") == pl.col("friend_seat")).then(pl.lit("friend"))
                      .otherwise(pl.lit("defender")).alias("role"))
        .group_by("role", "payouts").agg(pl.len().alias("n")).sort("role", "payouts")
        .collect()
    )
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for role in ("declarer", "friend", "defender"):
        part = roles.filter(pl.col("role") == role)
        if part.height:
            total = part["n"].sum()
            x, y = part["payouts"].to_list(), (part["n"] / total).to_list()
            # a role with one payout (ucla's defenders: always 0) is a point, not a step
            ax.plot(x, y, drawstyle="steps-mid", marker="o" if len(x) < 3 else None,
                    label=role)
    ax.set_xlabel("payout per deal (units)")
    ax.set_ylabel("share of deals")
    if roles.height:  # the payouts that occur, whatever the profile's scale
        low, high = float(roles["payouts"].min()), float(roles["payouts"].max())  # type: ignore[arg-type]
        pad = max(1.0, 0.03 * (high - low))
        ax.set_xlim(low - pad, high + pad)
    ax.legend()
    ax.set_title("Payout distribution by role")
    save(fig, "payouts_by_role.png", "Distribution of the payout per deal, by role.")

    redeal = tables["redeal"].filter(pl.col("exact").is_not_null())
    fig, ax = plt.subplots(figsize=(6, 3.5))
    names = redeal["measure"].to_list()
    ax.bar(names, redeal["rate"].to_list(), color="#8ab", label="simulated")
    ax.errorbar(names, redeal["rate"].to_list(),
                yerr=[(redeal["rate"] - redeal["ci_low"]).to_list(),
                      (redeal["ci_high"] - redeal["rate"]).to_list()], fmt="none", ecolor="k",
                capsize=4)
    ax.scatter(names, redeal["exact"].to_list(), color="red", zorder=3, label="exact")
    ax.set_ylabel("probability")
    ax.legend()
    ax.set_title("Weak-hand eligibility: simulated against exact")
    save(fig, "redeal_vs_exact.png", "Weak-hand eligibility per hand and per deal: the "
         "simulated rate (95% interval) against the exact value.")

    about = (f"Profile {config.profile.name} (fingerprint {config.profile.fingerprint()}), "
             f"seed {config.seed}, {config.deals:,} deals, players "
             f"{', '.join(p.policy for p in config.players)}, ledger {config.ledger}.")
    lines = [f"# mighty_sim report: {dataset}", "", about, ""]
    for name, caption in pictures:
        lines += [f"![{caption}]({name})", "", f"*{caption}*", ""]
    for name, df in tables.items():
        lines += [f"## {name}", "", _markdown_table(df), ""]
    write_atomic(out / "report.md", "\n".join(lines))
    body = [f"<h1>mighty_sim report: {html.escape(str(dataset))}</h1>",
            f"<p>{html.escape(about)}</p>"]
    for name, caption in pictures:
        body.append(f'<figure><img src="{name}" alt="{html.escape(caption)}">'
                    f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    for name, df in tables.items():
        body.append(f"<h2>{html.escape(name)}</h2>{_html_table(df)}")
    style = ("body{font-family:sans-serif;max-width:70em;margin:auto}"
             "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}")
    write_atomic(out / "report.html", "<!doctype html><html><head><meta charset='utf-8'>"
                  f"<title>mighty_sim report</title><style>{style}</style></head><body>"
                  + "".join(body) + "</body></html>\n")
    return out / "report.md"
