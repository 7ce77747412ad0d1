"""How long a game is expected to last, for sizing buffers, batches and files: plain
arithmetic, free of the kernels, so the command line can show its defaults without
loading them."""

from __future__ import annotations


def deals_per_game(ledger: int, to_target: bool) -> int:
    """Deals a game is expected to last: ``ledger``, or for a game played to a target at
    most 64 (ucla games last about 36 to 60).

    >>> deals_per_game(10, False), deals_per_game(500, True)
    (10, 64)
    """
    return min(ledger, 64) if to_target else max(ledger, 1)
