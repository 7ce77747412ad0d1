"""What a player's leads cost against double-dummy play, and which other leads were best:
for the leads of the tricks asked (every seat played by PLAYER, `standard` by default),
every legal card is played in turn and the rest of the deal solved; a lead's cost is the
best card's value less its own for the leader's side. Prints the leads by side and kind
(trump or side card, whether it is the highest unseen of its suit, low or point, the
lowest of its suit in hand), their number and mean cost, then, for the leads that cost
something, the kinds of the best cards instead.

    .venv/bin/python analysis/lead_alternatives.py [--players heuristic] [--games 300]
        [--seed 2] [--tricks 3 4] [--profile standard] [--rows 25] [--winner]

Each trick earlier costs about five times the search (300 deals from trick 3: minutes).
"""

import argparse
from collections import Counter

import numpy as np

from mighty_sim.analysis.card_costs import lead_kind
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.engine.search import TOP, Position, recorded_positions, solve_position
from mighty_sim.kernels.layout import MAX_PLAYERS, T_CARDS, T_DEMAND, T_JOKER_SUIT, T_LEADER
from mighty_sim.kernels.loop.play_nb import H_SEEN, apply_play_nb, legal_now_nb
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.rules.rules_nb import JOKER_BIT, NO_TRUMP, mighty_of_nb, trick_winner_nb
from mighty_sim.rules.profile import load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--players", default="heuristic")
ap.add_argument("--games", type=int, default=300)
ap.add_argument("--seed", type=int, default=2)
ap.add_argument("--tricks", type=int, nargs="+", default=[3, 4])
ap.add_argument("--profile", default="standard")
ap.add_argument("--rows", type=int, default=25)
ap.add_argument("--winner", action="store_true",
                help="group each lead also by who took its trick (won, lost, ruffed)")
args = ap.parse_args()

profile = load_profile(args.profile)
if profile.deck_copies != 1:
    raise SystemExit("lead_alternatives.py: one-deck profiles only (the search's)")
params = compile_profile(profile)
n = profile.players
every_card = (1 << (JOKER_BIT + 1)) - 1
batch = play_batch(profile, seed=args.seed, game_start=0, games=args.games,
                   players=parse_players(args.players, n), record_tricks=True)
played = np.flatnonzero(batch.played())
declarer, friend = batch.column("declarer"), batch.column("friend_seat")
trumps = batch.column("trump")


leads, cost, better = Counter[tuple[str, str]](), Counter[tuple[str, str]](), Counter[str]()
first_trick = 0
for row in played:
    first, first_trick = first_trick, first_trick + profile.hand_size
    trump = int(trumps[row])
    mighty = int(mighty_of_nb(params, trump))
    for pos in recorded_positions(batch, row, profile, min(args.tricks)):
        if pos.trick_no not in args.tricks or pos.side < 0:
            continue
        rec = batch.ti[first + pos.trick_no - 1]
        leader, card = int(rec[T_LEADER]), int(rec[T_CARDS])
        ours = leader in (declarer[row], friend[row])
        s, h, tr = pos.state, pos.hands, pos.trick
        legal = int(legal_now_nb(s, h, tr, leader, params))
        hand = int(h[leader])
        outside = every_card & ~(hand | int(h[H_SEEN]))
        value = {}
        for c in range(JOKER_BIT + 1):
            if legal >> c & 1:
                s2, h2, tr2 = s.copy(), h.copy(), tr.copy()
                named = (trump if trump != NO_TRUMP else 0) if c == JOKER_BIT else -1
                apply_play_nb(s2, h2, tr2, leader, c, named, False, params, False, batch.ti, 0)
                value[c] = solve_position(Position(s2, h2, tr2, params), guess=TOP).value
        best = max(value.values()) if ours else min(value.values())
        kind = lead_kind(card, trump, mighty, outside, hand)
        if args.winner:  # who took the trick as played, and whether by another suit
            cards = np.full(MAX_PLAYERS, -1, np.int64)
            cards[:n] = rec[T_CARDS:T_CARDS + n]
            at = trick_winner_nb(cards, n, trump, pos.trick_no, int(rec[T_JOKER_SUIT]),
                                 bool(rec[T_DEMAND]), params)
            took = (leader + at) % n in (declarer[row], friend[row])
            ruffed = card != JOKER_BIT and cards[at] // 13 != card // 13
            kind += (" / won" if took == ours else
                     " / lost, ruffed" if ruffed else " / lost")
        key = ("declarer's side" if ours else "defence", kind)
        leads[key] += 1
        cost[key] += abs(best - value[card])
        if best != value[card]:
            for k in {lead_kind(c, trump, mighty, outside, hand) for c, v in value.items()
                      if v == best}:
                better[f"{key[0]} / {key[1]} -> {k}"] += 1

print(f"{args.players}, {args.profile}: leads of tricks {args.tricks}, {len(played)} deals")
print("side / lead | leads | cost a lead | cost a deal")
for key in sorted(leads, key=lambda k: -cost[k])[:args.rows]:
    print(f"{key[0]} / {key[1]} | {leads[key]} | {cost[key] / leads[key]:.3f} | "
          f"{cost[key] / len(played):.3f}")
print("costly lead -> a best lead instead | leads")
for text, count in better.most_common(args.rows):
    print(f"{text} | {count}")
