"""How often does a bid make? Success by final bid and by the declarer's hand.

    .venv/bin/python analysis/bid_success.py out/run1

Adapt freely: `deals` is a Polars LazyFrame of the dataset's `deals` table.
"""

import sys
from pathlib import Path

import polars as pl

from mighty_sim.analysis.tables import bid_success, scan_deals, success_by_hand

deals = scan_deals(Path(sys.argv[1]))
pl.Config.set_tbl_rows(60)
print(bid_success(deals))
# the tables a player reads before bidding: success by hand strength and trump length
print(success_by_hand(deals).filter(pl.col("n") >= 100))
# an example of your own: success of 15-point bids holding both Mighty and the joker
print(
    deals.filter(
        (pl.col("bid") == 15) & pl.col("declarer_has_mighty") & pl.col("declarer_has_joker")
    )
    .select(pl.len(), pl.col("success").mean())
    .collect()
)
