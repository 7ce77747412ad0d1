"""How often is a deal redealt, and how does that compare with the exact odds?

    .venv/bin/python analysis/redeal.py out/run1
"""

import sys
from pathlib import Path

from mighty_sim.analysis.tables import redeal, scan_deals, weak_score_distribution
from mighty_sim.dataset.integrity import load_run

dataset = Path(sys.argv[1])
deals = scan_deals(dataset)
profile = load_run(dataset).profile  # the exact values follow the dataset's own rules
print(redeal(deals, profile))
print(weak_score_distribution(deals))
