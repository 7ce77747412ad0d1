"""What does a house rule change? Two profiles on the same deals.

    .venv/bin/python analysis/balance.py standard data/profiles/hunter-3h.toml 200000
"""

import sys

import polars as pl

from mighty_sim.analysis.compare import compare_profiles
from mighty_sim.engine.players import parse_players
from mighty_sim.rules.profile import load_profile

base, variant = load_profile(sys.argv[1]), load_profile(sys.argv[2])
deals = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
table = compare_profiles([base, variant], deals=deals, seed=1,
                         players=parse_players("heuristic", base.players))
pl.Config.set_tbl_rows(40)
print(table.filter(pl.col("profile") == variant.name).drop("meaning"))
