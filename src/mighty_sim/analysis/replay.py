"""``mighty-sim show``: a recorded deal, replayed trick by trick in readable form.

The deal is re-simulated from the run's seed (its game is replayed with trick
recording on) and checked against the stored row before it is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow.compute as pc
import pyarrow.parquet as pq

from ..dataset.integrity import inspect_run, shard_path
from ..dataset.schema import bid_name, deals_table, row_cards, tricks_table
from ..engine.batch import play_batch
from ..rules.cards import format_cards


def describe_deal(dataset: Path, deal_id: int, par_from: int | None = None,
                  before_search: Callable[[], None] | None = None) -> str:
    """Readable text of one recorded deal; with ``par_from``, the double-dummy par of
    the declarer's side at the start of each trick from that one on and each card's
    cost against it (:func:`~mighty_sim.engine.search.card_costs`), ``before_search``
    called first (once every argument is found good)."""
    state = inspect_run(dataset)
    config = state.config
    if par_from is not None:  # told before the deal is played again
        from .par import check_solvable

        check_solvable(config.profile, par_from, "--par-from")
    game, attempt = divmod(deal_id, 1 << 16)
    if deal_id < 0 or game >= config.games:
        raise ValueError(f"deal {deal_id}: no such deal in {dataset} (deal ids are "
                         f"game * 65536 + attempt, for games 0 to {config.games - 1:,})")
    shard = game // config.shard_games
    stored_file = shard_path(dataset, "deals", shard)
    if shard in state.damaged_shards:
        raise ValueError(f"{stored_file} is damaged: replay it with "
                         f"`mighty-sim simulate ... --out {dataset} --resume`")
    if shard in state.missing:
        raise ValueError(f"{dataset} is an incomplete run: {stored_file}, which holds deal "
                         f"{deal_id}, is not written; `mighty-sim simulate ... --out "
                         f"{dataset} --resume` completes it")
    n = config.profile.players
    batch = play_batch(config.profile, seed=config.seed, game_start=game, games=1,
                       players=config.players, ledger=config.ledger, record_tricks=True,
                       to_target=config.to_target)
    rows = deals_table(batch, n)
    match = pc.equal(rows.column("deal_id"), deal_id)
    row_table = rows.filter(match)
    if row_table.num_rows == 0:
        raise ValueError(f"deal {deal_id}: game {game} has no attempt {attempt}")
    row = row_table.to_pylist()[0]
    seats = [f"hands_{s}" for s in range(n)]
    stored = pq.read_table(stored_file, columns=["deal_id", *seats])
    kept = stored.filter(pc.equal(stored.column("deal_id"), deal_id)).to_pylist()
    if kept and [kept[0][c] for c in seats] != row["hands"]:
        raise ValueError(f"deal {deal_id}: the stored row does not match its re-simulation")
    tricks = tricks_table(batch, n).filter(pc.equal(tricks_table(batch, n).column("deal_id"),
                                                    deal_id)).to_pylist()
    lines = [
        f"deal {deal_id}: game {game}, attempt {attempt}, profile {config.profile.name} "
        f"({config.profile.fingerprint()}), seed {config.seed}",
        f"dealer seat {row['dealer']}, first bidder seat {row['first_bidder']}",
    ]
    for s in range(n):
        lines.append(f"  seat {s}: {format_cards(row_cards(row, 'hands', s))}   (weak-hand score "
                     f"{row['weak_scores'][s]:g})")
    lines.append(f"  blind: {format_cards(row_cards(row, 'blind'))}")
    lines.append("auction: " + " ".join(bid_name(c) for c in row["bid_history"]))
    if row["outcome"] != "played":
        who = f" by seat {row['redeal_by']}" if row["redeal_by"] is not None else ""
        lines.append(f"outcome: {row['outcome']}{who}; redeal, nothing scored")
        return "\n".join(lines)
    lines.append(
        f"declarer seat {row['declarer']} won at {row['auction_bid']} {row['auction_trump']}, "
        f"discarded {format_cards(row_cards(row, 'discards'))}, plays {row['bid']} {row['trump']}"
        + (" (trump changed)" if row["trump_changed"] else "")
    )
    friend = row["friend_mode"]
    if friend == "called":
        friend += f" {row['friend_card']}"
    seat = row["friend_seat"]
    lines.append(f"friend: {friend} -> {row['friend_kind']}"
                 + (f", seat {seat}" if seat is not None else ""))
    pars: dict[int, int] = {}
    costs = np.full((config.profile.hand_size, n), -1)
    if par_from is not None:
        from ..engine.search import card_costs

        index = int(np.flatnonzero(pc.equal(rows.column("deal_id"), deal_id)
                                   .to_numpy(zero_copy_only=False))[0])
        if before_search is not None:
            before_search()
        measured = card_costs(batch, config.profile, par_from, range(index, index + 1))
        costs = measured.costs[index, :, :n].astype(int)
        par = int(measured.pars[index])
        ours = {row["declarer"], row["friend_seat"]}
        for t in tricks:  # the par at each trick's start, from the costs of the cards
            if costs[t["trick"] - 1, 0] < 0:
                continue
            pars[t["trick"]] = par
            for k in range(n):
                cost = costs[t["trick"] - 1, k]
                par += -cost if (t["leader"] + k) % n in ours else cost
    if pars:
        lines.append("  (each card's cost against the par in brackets: the points it "
                     "gave away, best play on both sides and every hand seen)")
    for t in tricks:
        if t["trick"] in pars:
            lines.append(f"  par at trick {t['trick']}: the declarer side ends with "
                         f"{pars[t['trick']]} against best play")
        order = [(t["leader"] + k) % n for k in range(n)]
        marks = [f"({-c})" if c > 0 else "" for c in costs[t["trick"] - 1]]
        cards = "  ".join(f"{s}:{c}{m}" for s, c, m in zip(order, t["cards"], marks,
                                                          strict=True))
        extra = ""
        if t["joker_suit"]:
            extra += f" (joker names {t['joker_suit']})"
        if t["demand"]:
            extra += " (joker demanded)"
        lines.append(f"  trick {t['trick']:>2}: {cards}{extra} -> seat {t['winner']} "
                     f"takes {t['points']}")
    lines.append(
        f"declarer side {row['declarer_points']} points: "
        f"{'made' if row['success'] else 'failed'}; payouts "
        + ", ".join(f"seat {s} {v:+g}" for s, v in enumerate(row["payouts"]))
    )
    return "\n".join(lines)
