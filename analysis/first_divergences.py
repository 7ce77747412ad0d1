"""Where a searching player first plays otherwise than the heuristic: both play the same
deals (the same seed, every seat the one player), and each deal's first card that differs
is classed by the side and place of the seat that played it and by what each card was.

A PIMC player bids, exchanges and calls as the heuristic does, so up to that card both
deals are the same position: what is counted is a choice PIMC makes otherwise from the
same cards. With ``pimc:to=6:side=declarer:on=follow`` (the default) only the declarer's
side's follows of the first six tricks differ; the duels of docs/players.md say which of
those choices gain. Classes: ``D`` the declarer, ``F`` the friend, ``x`` a defender, the
place in the trick (0 leads), and for each card Mighty (``MI``), the joker (``JK``), a
trump, a side point card (``pt``) or a low one (``lo``), ``+W`` when it took the trick.
Prints the most frequent classes in which the two cards differ, then examples.

    .venv/bin/python analysis/first_divergences.py [--games 600] [--seed 11]
        [--players pimc:to=6:side=declarer:on=follow] [--examples 30]
"""

import argparse
from collections import Counter

import numpy as np

from mighty_sim.engine.batch import Batch, play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import (
    R_POINTS,
    T_CARDS,
    T_LEADER,
    T_WINNER,
    U_BLIND,
    U_DISCARDS,
)
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.rules.rules_nb import JOKER_BIT, NO_TRUMP, is_point_nb, mighty_of_nb
from mighty_sim.rules.cards import card_name, format_cards
from mighty_sim.rules.profile import TRUMPS, load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--players", default="pimc:to=6:side=declarer:on=follow")
ap.add_argument("--games", type=int, default=600)
ap.add_argument("--seed", type=int, default=11)
ap.add_argument("--examples", type=int, default=30)
args = ap.parse_args()

profile = load_profile("standard")
params = compile_profile(profile)
N, HAND = profile.players, profile.hand_size


def play(player: str) -> Batch:
    return play_batch(profile, seed=args.seed, game_start=0, games=args.games,
                      record_tricks=True, players=parse_players(player, N))


def kind(card: int, trump: int, mighty: int, took: bool) -> str:
    """The class of a card played."""
    if card == JOKER_BIT:
        name = "JK"
    elif card == mighty:
        name = "MI"
    elif trump != NO_TRUMP and card // 13 == trump:
        name = "trump"
    else:
        name = "pt" if is_point_nb(card) else "lo"
    return name + ("+W" if took else "")


heuristic, other = play("heuristic"), play(args.players)
if not np.array_equal(heuristic.ri[:, :R_POINTS], other.ri[:, :R_POINTS]):
    raise SystemExit(f"{args.players} bids otherwise than the heuristic: its deals are "
                     "not the same positions")
played = np.flatnonzero(heuristic.played())
declarer, friend = heuristic.column("declarer"), heuristic.column("friend_seat")
trumps = heuristic.column("trump")
classes: Counter[tuple[str, int, str, str]] = Counter()
examples = []
for i, row in enumerate(played):
    a, b = heuristic.ti[i * HAND:(i + 1) * HAND], other.ti[i * HAND:(i + 1) * HAND]
    differ = np.flatnonzero((a[:, T_CARDS:T_CARDS + N] != b[:, T_CARDS:T_CARDS + N]).any(1))
    if not len(differ):
        continue
    t = int(differ[0])
    k = int(np.flatnonzero(a[t, T_CARDS:T_CARDS + N] != b[t, T_CARDS:T_CARDS + N])[0])
    seat = (int(a[t, T_LEADER]) + k) % N
    role = "D" if seat == declarer[row] else "F" if seat == friend[row] else "x"
    trump = int(trumps[row])
    mighty = int(mighty_of_nb(params, trump))
    mine, theirs = int(a[t, T_CARDS + k]), int(b[t, T_CARDS + k])
    key = (role, k, kind(mine, trump, mighty, int(a[t, T_WINNER]) == seat),
           kind(theirs, trump, mighty, int(b[t, T_WINNER]) == seat))
    if key[2] == key[3]:
        continue
    classes[key] += 1
    hand = int(heuristic.ru[row, seat])
    if seat == declarer[row]:
        hand = (hand | int(heuristic.ru[row, U_BLIND])) & ~int(heuristic.ru[row, U_DISCARDS])
    for c in a[:t, T_CARDS:T_CARDS + N].ravel():
        hand &= ~(1 << int(c))
    before = " ".join(card_name(int(c)) for c in a[t, T_CARDS:T_CARDS + k])
    examples.append(f"{key} trick {t + 1}, trump {TRUMPS[trump]} | {before} | "
                    f"{format_cards(hand)} | heuristic {card_name(mine)}, "
                    f"{args.players} {card_name(theirs)}")
print(f"{len(played):,} deals; the first differing cards of another class, by "
      f"(side, place, heuristic's card, {args.players}'s card):")
for key, count in classes.most_common(25):
    print(f"  {count:5}  {key}")
for line in examples[:args.examples]:
    print(line)
