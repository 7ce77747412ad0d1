"""How a run is cut into games, batches and files: plain arithmetic, kept apart from the
engine so the command line can show its defaults without loading the kernels."""

from __future__ import annotations

import math

from ..engine.sizing import deals_per_game

SHARD_GAMES = 1 << 19  # deals per Parquet file of a run, at most (see balanced_shard_games)


def balanced_shard_games(games: int, ledger: int, to_target: bool) -> int:
    """Games per shard for a run of ``games`` games: as few files as with files of at most
    ``SHARD_GAMES`` deals' worth, all of about the same size, so no worker is left with a
    short last file while the others idle (1M deals: two files of 500,000 games, not
    524,288 and 475,712).

    >>> balanced_shard_games(1_000_000, 1, False), balanced_shard_games(8, 1, False)
    (500000, 8)
    >>> balanced_shard_games(10_000_000, 1, False)  # 20 files, not 19 full and 1 short
    500000
    """
    cap = max(1, SHARD_GAMES // deals_per_game(ledger, to_target))
    if games <= 0:
        return cap
    return math.ceil(games / math.ceil(games / cap))
