"""How much do scores swing? Payout per deal and per ledger, by role and seat.

    .venv/bin/python analysis/variance.py out/run1
"""

import sys
from pathlib import Path

import polars as pl

from mighty_sim.analysis.tables import scan_deals, score_variance
from mighty_sim.dataset.integrity import load_run

dataset = Path(sys.argv[1])
profile = load_run(dataset).profile
pl.Config.set_tbl_rows(40)
print(score_variance(scan_deals(dataset), profile.players, profile.ledger_deals))
