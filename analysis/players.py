"""What each player does with the same deals: declarer success, mean bid, the share of
contracts played in NT, the share of dealt deals redealt for a weak hand, and how many of
those redeals a hand holding both Mighty and the joker asked for.

    .venv/bin/python analysis/players.py [--profile standard] [--games 20000] [--seed 3]
        [--players heuristic --players baseline]
"""

import argparse

import numpy as np

from mighty_sim.engine.batch import OUTCOMES, play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.rules.cards import parse_cards
from mighty_sim.rules.profile import TRUMPS, load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--profile", action="append")
ap.add_argument("--players", action="append")
ap.add_argument("--games", type=int, default=20_000)
ap.add_argument("--seed", type=int, default=3)
args = ap.parse_args()
print("profile | player | success | mean bid | NT contracts | weak-hand redeals (of dealt) | "
      "by a hand with Mighty and the joker")
for name in args.profile or ["standard"]:
    profile = load_profile(name)
    for player in args.players or ["heuristic", "baseline"]:
        b = play_batch(profile, seed=args.seed, game_start=0, games=args.games,
                       players=parse_players(player, profile.players))
        played = b.played()
        weak = np.flatnonzero(b.column("outcome") == OUTCOMES.index("weak-redeal"))
        hands = b.ru[weak, b.column("redeal_by")[weak]]
        mighty = np.uint64(parse_cards(profile.mighty).bit_length() - 1)
        both = (hands >> mighty) & (hands >> np.uint64(52)) & np.uint64(1)
        print(f"{name} | {player} | {b.column('success')[played].mean():.1%} | "
              f"{b.column('bid')[played].mean():.2f} | "
              f"{(b.column('trump')[played] == TRUMPS.index('NT')).mean():.1%} | "
              f"{len(weak) / b.rows:.1%} | "
              f"{int(both.sum())}")
