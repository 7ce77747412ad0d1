"""How much expected payout the players' choice of strain leaves behind, by the `odds`
measure: for each auction winner of a run (its hand as dealt), every strain is played
out at the bid it made (`odds`, SAMPLES deals a strain); the regret is the best strain's
mean payout minus the chosen one's.

    .venv/bin/python analysis/strain_regret.py [--winners 2000] [--samples 1000]
        [--seed 11] [--players heuristic]
"""

import argparse
import math

import numpy as np

from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.odds import play_strains
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import R_AUCTION_BID, R_AUCTION_TRUMP, R_DECLARER
from mighty_sim.rules.profile import TRUMPS, load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--profile", default="standard")
ap.add_argument("--players", default="heuristic")
ap.add_argument("--winners", type=int, default=2000)
ap.add_argument("--samples", type=int, default=1000)
ap.add_argument("--seed", type=int, default=11)
args = ap.parse_args()
profile = load_profile(args.profile)
players = parse_players(args.players, profile.players)
batch = play_batch(profile, seed=args.seed, game_start=0, games=args.winners,
                   players=players)
rows = np.flatnonzero(batch.played())[:args.winners]
regret = np.zeros(len(rows))
nt = 0
for i, r in enumerate(rows.tolist()):
    hand = int(batch.ru[r, batch.ri[r, R_DECLARER]])
    bid, chosen = int(batch.ri[r, R_AUCTION_BID]), int(batch.ri[r, R_AUCTION_TRUMP])
    strains = play_strains(profile, hand, samples=args.samples, seed=args.seed + i,
                           players=players)
    ev = [strains.expected_payout(t, bid) for t in range(len(TRUMPS))]
    regret[i] = max(ev) - ev[chosen]
    nt += chosen == TRUMPS.index("NT")
half = 1.96 * regret.std(ddof=1) / math.sqrt(len(regret))
print(f"{args.players}, {args.profile}: {len(regret)} auction winners ({nt} chose NT), "
      f"regret {regret.mean():.3f} ± {half:.3f} units a deal "
      f"({args.samples} deals a strain)")
