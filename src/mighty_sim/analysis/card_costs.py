"""The card-by-card yardstick (``mighty-sim par DATASET --cards``): each card of a run's
deals measured against double-dummy par, and the table ``mighty-sim analyze`` prints
from it.

For every card played from the start of a chosen trick on, the par (what the
declarer's side ends with against best play, every hand seen) is found before and after
it. A card of the declarer's side that lowers the par, or a defender's card that raises
it, gave that many points away (tricks in trick-bid profiles); a card that keeps its
side's par gave nothing. A deal's sums by side say what each side's play cost against
perfect play, whoever the opponents were: the measure of card play that bridge analysis
programs show card by card.

>>> import polars as pl
>>> df = pl.DataFrame({"declarer_player": ["heuristic"] * 4, "from_trick": [5] * 4,
...                    "given_declarer": [0, 2, 1, 1], "given_defence": [1, 0, 0, 3]})
>>> card_costs_table(df).select("n", "declarer_given", "defence_given").to_dicts()
[{'n': 4, 'declarer_given': 1.0, 'defence_given': 1.0}]
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pyarrow as pa

from ..dataset.integrity import CARDS_FILE, open_run
from ..dataset.schema import deal_id
from ..rules.cards import JOKER_BIT, POINT_CARDS
from ..rules.profile import TRUMPS
from ..workers import run_polled
from .par import (
    _games,
    _run_key,
    check_solvable,
    chunk_games,
    read_run_table,
    replay_games,
    write_run_table,
)
from .stats import mean_interval


def _chunk(config_dict: dict[str, Any], game_start: int, games: int, from_trick: int
           ) -> tuple[int, dict[str, np.ndarray]]:
    """The yardstick of the played deals of games ``game_start ..`` (a worker's task):
    one row a deal, its sums by side and by trick."""
    from ..engine.search import card_costs

    profile, batch = replay_games(config_dict, game_start, games)
    out = card_costs(batch, profile, from_trick)
    played = np.flatnonzero(batch.played())
    bad = played[out.pars[played] < 0]
    if len(bad):
        game, attempt = batch.column("game")[bad[:1]], batch.column("attempt")[bad[:1]]
        raise ValueError(f"deal {deal_id(game, attempt)[0]}: "
                         "its recorded play does not replay to its recorded result")
    given = np.maximum(out.given[played], 0)  # 0 for the tricks before the first measured

    def col(name: str) -> np.ndarray:
        return batch.column(name)[played]

    return game_start, {
        "deal_id": deal_id(col("game"), col("attempt")),
        "declarer": col("declarer"),
        "bid": col("bid"),
        "from_trick": np.full(len(played), from_trick, np.int8),
        "par": out.pars[played].astype(np.int8),
        "given_declarer": given[:, :, 0].sum(axis=1).astype(np.int16),
        "given_defence": given[:, :, 1].sum(axis=1).astype(np.int16),
        "declarer_by_trick": given[:, :, 0].astype(np.int8),
        "defence_by_trick": given[:, :, 1].astype(np.int8),
    }


def card_costs_run(dataset: Path, *, deals: int, from_trick: int, workers: int = 1,
                   progress: Callable[..., None] | None = None) -> pa.Table:
    """The yardstick of the first ``deals`` played deals of ``dataset`` (every one if
    fewer) from the start of ``from_trick``: one row a deal, with what each side gave
    away in all (``given_declarer``, ``given_defence``) and trick by trick (lists, from
    trick 1; 0 before the first trick measured). The deals are re-simulated from the
    run's seed and checked against the stored rows, in ``workers`` processes."""
    config = open_run(dataset).config
    profile = config.profile
    check_solvable(profile, from_trick, "--from-trick")
    games = _games(config, deals)
    chunk = max(1, chunk_games(profile, from_trick) // 4)
    cdict = config.to_dict()
    todo = [(cdict, g, min(chunk, games - g), from_trick) for g in range(0, games, chunk)]
    parts: dict[int, dict[str, np.ndarray]] = {}

    def keep(result: tuple[int, dict[str, np.ndarray]]) -> None:
        start, cols = result
        parts[start] = cols
        if progress is not None:
            progress(len(cols["deal_id"]))

    if workers <= 1 or len(todo) <= 1:
        for task in todo:
            keep(_chunk(*task))
    else:
        _chunk(cdict, 0, 1, profile.hand_size)  # compiled once here, loaded by workers
        run_polled(_chunk, todo, workers, keep)
    starts = sorted(parts)
    cols = {k: np.concatenate([parts[g][k] for g in starts])[:deals] for k in parts[0]}
    player = [config.players[d].policy for d in cols["declarer"]]
    return pa.table({
        "deal_id": cols["deal_id"],
        "declarer": cols["declarer"],
        "declarer_player": pa.array(player, pa.string()).dictionary_encode(),
        "bid": cols["bid"],
        "from_trick": cols["from_trick"],
        "par": cols["par"],
        "given_declarer": cols["given_declarer"],
        "given_defence": cols["given_defence"],
        "declarer_by_trick": pa.array(list(cols["declarer_by_trick"]),
                                      pa.list_(pa.int8())),
        "defence_by_trick": pa.array(list(cols["defence_by_trick"]), pa.list_(pa.int8())),
    })


def write_card_costs(dataset: Path, table: pa.Table) -> Path:
    """``table`` written whole to ``dataset/cards.parquet``, marked with its run."""
    path = dataset / CARDS_FILE
    write_run_table(path, table, _run_key(dataset),
                    "`mighty-sim par --cards` measures the deals again")
    return path


def read_card_costs(dataset: Path) -> pl.DataFrame | None:
    """The run's yardstick table, or None when ``par --cards`` has not written one;
    ValueError when the file is damaged or belongs to another run."""
    return read_run_table(dataset / CARDS_FILE, _run_key(dataset),
                          f"`mighty-sim par {dataset} --cards` writes this run's again, "
                          "or delete the file")


def card_costs_table(df: pl.DataFrame) -> pl.DataFrame:
    """Points (or tricks) given away a deal against double-dummy par by the declarer's
    side and by the defence, with 95% intervals, by the declarer's player and the first
    trick measured."""
    keys = ["declarer_player", "from_trick"]
    rows = []
    for values, g in df.group_by(keys, maintain_order=True):
        dm, dl, dh = mean_interval(g["given_declarer"].cast(pl.Float64).to_numpy())
        fm, fl, fh = mean_interval(g["given_defence"].cast(pl.Float64).to_numpy())
        rows.append({**dict(zip(keys, values, strict=True)), "n": g.height,
                     "declarer_given": dm, "declarer_low": dl, "declarer_high": dh,
                     "defence_given": fm, "defence_low": fl, "defence_high": fh})
    return pl.DataFrame(rows).sort(keys) if rows else pl.DataFrame()


def card_costs_by_trick(df: pl.DataFrame) -> pl.DataFrame:
    """What each side gave away a deal in each trick measured, with 95% intervals, by
    the declarer's player and the first trick measured."""
    rows = []
    for (player, first), g in df.group_by(["declarer_player", "from_trick"],
                                          maintain_order=True):
        dec = np.stack(g["declarer_by_trick"].to_list()).astype(np.float64)
        dfc = np.stack(g["defence_by_trick"].to_list()).astype(np.float64)
        for t in range(int(first) - 1, dec.shape[1]):
            dm, dl, dh = mean_interval(dec[:, t])
            fm, fl, fh = mean_interval(dfc[:, t])
            rows.append({"declarer_player": player, "from_trick": first, "trick": t + 1,
                         "declarer_given": dm, "declarer_low": dl, "declarer_high": dh,
                         "defence_given": fm, "defence_low": fl, "defence_high": fh})
    return pl.DataFrame(rows) if rows else pl.DataFrame()


def lead_kind(card: int, trump: int, mighty: int, outside: int, hand: int) -> str:
    """A lead's kind as its leader saw it, for the yardstick's breakdowns
    (``analysis/where_points_go.py``, ``analysis/lead_alternatives.py``): the joker,
    Mighty, a trump or side card that is the highest unseen of its suit or not, a side
    point or low card and whether it is the lowest of its suit in ``hand``; ``outside``
    the cards the leader has not seen (bit masks; ``trump`` 4 for NT).

    >>> lead_kind(11, 3, 12, outside=1 << 10, hand=(1 << 11) | (1 << 2))
    'side, highest unseen'
    >>> lead_kind(2, 3, 12, outside=1 << 10, hand=(1 << 11) | (1 << 2))
    'side low, lowest in hand'
    """
    if card == JOKER_BIT:
        return "joker"
    if card == mighty:
        return "Mighty"
    suit, top = card // 13, card // 13 * 13 + 12
    highest = not any(outside >> x & 1 for x in range(card + 1, top + 1) if x != mighty)
    if TRUMPS[trump] != "NT" and suit == trump:
        return "trump, highest unseen" if highest else "trump, not highest"
    if highest:
        return "side, highest unseen"
    lowest = card == min(c for c in range(suit * 13, top + 1) if hand >> c & 1)
    return (("side point" if POINT_CARDS >> card & 1 else "side low")
            + (", lowest in hand" if lowest else ""))
