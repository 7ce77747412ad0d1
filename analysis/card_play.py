"""Card play against double-dummy par: where do declarers give points away?

    .venv/bin/mighty-sim par out/run1 --deals 20000       # writes out/run1/par.parquet
    .venv/bin/python analysis/card_play.py out/run1

Adapt freely: `par` is the dataset's par table (one row a solved deal), `deals` its
`deals` table; they join on `deal_id`.
"""

import sys
from pathlib import Path

import polars as pl

from mighty_sim.analysis.par import card_play, read_par
from mighty_sim.analysis.tables import scan_deals

dataset = Path(sys.argv[1])
par = read_par(dataset)
if par is None:
    sys.exit(f"{dataset} has no par table: run `mighty-sim par {dataset}` first")
pl.Config.set_tbl_rows(40)
print(card_play(par))
# by contract (and starting trick: a table holds each trick `par` was run from): the share
# par makes against the share made, and the points below par
print(
    par.group_by("from_trick", "bid", "trump")
    .agg(pl.len().alias("n"), (pl.col("par") >= pl.col("bid")).mean().alias("par_makes"),
         pl.col("success").mean().alias("made"),
         (pl.col("par").cast(pl.Int64) - pl.col("taken")).mean().alias("below_par"))
    .filter(pl.col("n") >= 50)
    .sort("from_trick", "bid", "trump")
)
# by kind of contract, no-trump or a suit: the card-play table's columns for each
print(card_play(par.with_columns(
    kind=pl.when(pl.col("trump") == "NT").then(pl.lit("NT")).otherwise(pl.lit("suit"))),
    by=["kind"]))
# an example of your own: below par when the declarer held both Mighty and the joker
deals = scan_deals(dataset).select("deal_id", "declarer_has_mighty", "declarer_has_joker")
print(
    par.lazy().join(deals, on="deal_id")
    .group_by("from_trick", "declarer_has_mighty", "declarer_has_joker")
    .agg(pl.len().alias("n"), (pl.col("par").cast(pl.Int64) - pl.col("taken")).mean()
         .alias("below_par"))
    .sort("from_trick", "declarer_has_mighty", "declarer_has_joker")
    .collect()
)
