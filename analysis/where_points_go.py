"""Where a player's points go: the card-by-card yardstick (the double-dummy par before and
after each card, docs/double-dummy.md) summed by kind of card play.

Every seat is played by PLAYER on one-deck `standard` deals (or --profile); each card from
--from-trick on is put in a group: the side that played it (D: the declarer's side, d: the
defence), a lead by what was led (mighty_sim.analysis.card_costs.lead_kind: the joker,
Mighty, a trump or side card that is or is not the highest unseen of its suit, a side
point or low card and whether it is the lowest in hand) and its trick, or a
follow by its place in the trick, whether its side was winning the trick so far, and
what it did (took the trick, gave a point card, a low card) and whether any legal card
could have taken the trick. First what each side gives away a deal in all, then the
groups that give away most, per deal and per card.

    .venv/bin/python analysis/where_points_go.py [--players heuristic] [--games 2000]
        [--seed 2] [--from-trick 5] [--profile standard] [--rows 30]
"""

import argparse
from collections import Counter

import numpy as np

from mighty_sim.analysis.card_costs import lead_kind
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.engine.search import card_costs, recorded_positions
from mighty_sim.kernels.layout import T_CARDS, T_DEMAND, T_JOKER_SUIT, T_LEADER
from mighty_sim.kernels.loop.play_nb import H_SEEN, apply_play_nb, legal_now_nb
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.rules.rules_nb import is_point_nb, mighty_of_nb, trick_winner_nb
from mighty_sim.rules.profile import load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--players", default="heuristic")
ap.add_argument("--games", type=int, default=2000)
ap.add_argument("--seed", type=int, default=2)
ap.add_argument("--from-trick", type=int, default=5)
ap.add_argument("--profile", default="standard")
ap.add_argument("--rows", type=int, default=30)
args = ap.parse_args()

profile = load_profile(args.profile)
params = compile_profile(profile)
n = profile.players
batch = play_batch(profile, seed=args.seed, game_start=0, games=args.games,
                   players=parse_players(args.players, n), record_tricks=True)
costs = card_costs(batch, profile, args.from_trick).costs
played = np.flatnonzero(batch.played())
declarer, friend = batch.column("declarer"), batch.column("friend_seat")
trumps = batch.column("trump")
given: Counter[tuple[str, ...]] = Counter()
cards: Counter[tuple[str, ...]] = Counter()


def takes(trick: np.ndarray, k: int, card: int, at: tuple[int, int, int, bool]) -> bool:
    """Whether ``card``, played as the trick's (k+1)-th card, takes it so far."""
    t2 = trick.copy()
    t2[k] = card
    trump, trick_no, named, demand = at
    return trick_winner_nb(t2, k + 1, trump, trick_no, named, demand, params) == k


first_trick = 0
for row in played:
    first, first_trick = first_trick, first_trick + profile.hand_size
    trump = int(trumps[row])
    mighty = int(mighty_of_nb(params, trump))

    def ours(seat: int, row: int = row) -> bool:
        return seat in (declarer[row], friend[row])

    for pos in recorded_positions(batch, row, profile, args.from_trick):
        t = pos.trick_no - 1
        rec = batch.ti[first + t]
        leader = int(rec[T_LEADER])
        named, demand = int(rec[T_JOKER_SUIT]), bool(rec[T_DEMAND])
        s, h, tr = pos.state.copy(), pos.hands.copy(), pos.trick.copy()
        for k in range(n):
            card, seat = int(rec[T_CARDS + k]), (leader + k) % n
            side = "D" if ours(seat) else "d"
            if k == 0:
                outside = ((1 << 53) - 1) & ~(int(h[seat]) | int(h[H_SEEN]))
                key: tuple[str, ...] = (side, "lead",
                                        lead_kind(card, trump, mighty, outside, int(h[seat])),
                                        f"trick {pos.trick_no}" if pos.trick_no < 7
                                        else "trick 7+")
            else:
                legal = int(legal_now_nb(s, h, tr, seat, params))
                at = (trump, pos.trick_no, named, demand)
                winner = (leader + trick_winner_nb(tr, k, trump, pos.trick_no, named, demand,
                                                   params)) % n
                could = any(takes(tr, k, c, at) for c in range(53) if legal >> c & 1)
                did = ("took" if takes(tr, k, card, at) else "point card" if is_point_nb(card)
                       else "low card")
                key = (side, f"seat {k + 1}",
                       "own side winning" if ours(winner) == ours(seat) else "other side winning",
                       did, "could take" if could else "could not take")
            given[key] += int(costs[row, t, k])
            cards[key] += 1
            apply_play_nb(s, h, tr, seat, card, named if k == 0 else -1, demand and k == 0,
                          params, False, batch.ti, 0)

deals = len(played)
print(f"{args.players}, {args.profile}: {deals} deals from trick {args.from_trick}")
for side, name in (("D", "declarer's side"), ("d", "defence")):
    total = sum(v for key, v in given.items() if key[0] == side)
    print(f"given away a deal by the {name}: {total / deals:.3f}")
print("group | given away a deal | a card | cards a deal")
for key in sorted(given, key=lambda g: -given[g])[:args.rows]:
    print(f"{' / '.join(key)} | {given[key] / deals:.3f} | {given[key] / cards[key]:.3f} | "
          f"{cards[key] / deals:.2f}")
