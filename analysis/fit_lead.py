"""Fit the declarer's side's lead of trick 2 (mighty_sim.kernels.players.lead_fit) to
what each lead is worth in play: on deals the heuristic plays, every trick-2 lead of the
declarer or its friend (not a hunter led to demand the joker) is taken up, each legal
card led in turn and the rest of the real deal played out by heuristic players; a
card's cost is the leader's payout after the best card less its payout after this one.
The weights are the least-squares fit of the costs less their lead's mean, on features
of what the leader can see. Prints, on the test seed's deals, the cost a deal of the
leads the fitted score chooses against those of the rules it replaces (with a 95%
interval of the difference a lead), and the weights.

The positions and the play-outs come from the heuristic of the working tree (its later
leads are not the fitted score's, so a fit in force does not move the costs: run again,
the script gives back the weights in force).

    .venv/bin/python analysis/fit_lead.py [--games 12000] [--train 3] [--test 4]
        [--trick 2]
"""

import argparse

import numpy as np
from rich.progress import track

from mighty_sim.analysis.stats import demean_by
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.engine.search import recorded_positions
from mighty_sim.kernels.layout import (
    MAX_PLAYERS,
    N_T,
    POLICY_HEURISTIC,
    T_DEMAND,
    T_LEADER,
)
from mighty_sim.kernels.loop.play_nb import (
    H_SEEN,
    MAX_MOVES,
    S_CALLED,
    S_FRIEND,
    S_KIND,
    S_MODE,
    S_REVEALED,
    S_VOIDS,
    apply_play_nb,
    legal_now_nb,
    moves_nb,
    partners_of_nb,
    payout_of_nb,
    result_nb,
)
from mighty_sim.kernels.loop.tricks_nb import play_tricks_nb
from mighty_sim.kernels.params import (
    P_HUNTER_TRICKS,
    P_JOKER_POWERLESS,
    compile_profile,
)
from mighty_sim.kernels.players.lead_fit import FEATURES, FIT_TRICK, WEIGHTS, card_features
from mighty_sim.kernels.players.play_policy_nb import (
    NO_LEAD_FIT,
    called_suit_nb,
    joker_fades_nb,
    lead_fit_at_nb,
    lead_nb,
)
from mighty_sim.kernels.rules.rules_nb import JOKER_BIT, NO_TRUMP, in_tricks_nb, mighty_of_nb
from mighty_sim.rules.profile import load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--games", type=int, default=12000, help="deals of the training seed")
ap.add_argument("--train", type=int, default=3, help="the training deals' seed")
ap.add_argument("--test", type=int, default=4, help="the test deals' seed (half as many)")
ap.add_argument("--trick", type=int, default=2, help="the trick whose leads are fitted")
args = ap.parse_args()

profile = load_profile("standard")
params = compile_profile(profile)
N, HAND = profile.players, profile.hand_size
EVERY = (1 << (JOKER_BIT + 1)) - 1
HEURISTIC = np.full(MAX_PLAYERS, POLICY_HEURISTIC, np.int64)
SCRATCH = np.zeros((1, N_T), np.int8)
STREAM = np.zeros(1, np.uint64)  # the heuristic draws nothing


def rules_lead(hand: int, legal: int, seen: int, trump: int) -> int:
    """The card the rules lead (:func:`lead_nb` without the fitted score) for the
    declarer's side in trick ``--trick``."""
    mighty = int(mighty_of_nb(params, trump))
    powered = not in_tricks_nb(params[P_JOKER_POWERLESS], args.trick)
    card, _, _ = lead_nb(np.uint64(hand), np.uint64(legal), trump, args.trick, -1,
                         (True, True, NO_LEAD_FIT), np.uint64(seen), mighty,
                         (powered, joker_fades_nb(params, args.trick)),
                         params[P_HUNTER_TRICKS], True, np.uint64(hand | seen))
    return int(card)


def lead_costs(s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, trump: int
               ) -> dict[int, float]:
    """Each legal lead's cost to ``seat``: its payout after the best lead less its payout
    after this one, the rest of the real deal played by heuristic players (a joker led
    names trump, or spades in NT, as the heuristic's; a hunter is led without its
    demand)."""
    legal = np.uint64(legal_now_nb(s, h, tr, seat, params))
    mc, ms, md = (np.empty(MAX_MOVES, np.int64) for _ in range(3))
    payout = {}
    for m in range(moves_nb(s, h, seat, legal, params, mc, ms, md)):
        card, named = int(mc[m]), int(ms[m])
        if md[m] == 1 or (card == JOKER_BIT and named >= 0
                          and named != (trump if trump != NO_TRUMP else 0)):
            continue
        s2, h2, tr2 = s.copy(), h.copy(), tr.copy()
        apply_play_nb(s2, h2, tr2, seat, card, named, False, params, False, SCRATCH, 0)
        play_tricks_nb(STREAM, s2, h2, tr2, HEURISTIC, params, 0.0, False, SCRATCH, 0)
        d, f, x, _, _, _ = result_nb(s2, params)
        payout[card] = float(payout_of_nb(s2, seat, d, f, x))
    best = max(payout.values())
    return {c: best - v for c, v in payout.items()}


def collect(seed: int, games: int) -> tuple[tuple[np.ndarray, ...], int]:
    """(features, costs, lead ids, flags of the rules' card) of every legal card of the
    declarer's side's leads of trick ``--trick``, and the deals played."""
    batch = play_batch(profile, seed=seed, game_start=0, games=games,
                       players=parse_players("heuristic", N), record_tricks=True)
    played = np.flatnonzero(batch.played())
    declarer, friend = batch.column("declarer"), batch.column("friend_seat")
    feats, costs, ids, chosen = [], [], [], []
    for i, row in track(list(enumerate(played)), description=f"seed {seed}",
                        transient=True):
        pos = next(iter(recorded_positions(batch, row, profile, args.trick)))
        if pos.trick_no != args.trick:
            continue
        rec = batch.ti[i * HAND + args.trick - 1]
        seat, s, h, tr = int(rec[T_LEADER]), pos.state, pos.hands, pos.trick
        d = int(declarer[row])
        if seat not in (d, int(friend[row])) or bool(rec[T_DEMAND]):
            continue
        trump = int(batch.column("trump")[row])
        cost = lead_costs(s, h, tr, seat, trump)
        rules = rules_lead(int(h[seat]), int(legal_now_nb(s, h, tr, seat, params)),
                           int(h[H_SEEN]), trump)
        if len(cost) < 2 or rules not in cost:
            continue
        hand = int(h[seat])
        mine = int(partners_of_nb(seat, N, d, int(s[S_FRIEND]), bool(s[S_REVEALED]),
                                  int(s[S_KIND])))
        # the score's inputs as the kernel works them out (asked as for FIT_TRICK, where
        # the kernel does: they do not depend on the trick)
        _, at_nb = lead_fit_at_nb(True, (seat, N, FIT_TRICK),
                                  int(called_suit_nb(int(s[S_MODE]), int(s[S_CALLED]),
                                                     bool(s[S_REVEALED]))),
                                  mine, int(s[S_VOIDS]))
        at = dict(zip(("pal_pos", "n", "called_suit", "mate_next",
                       "opp_void", "pal_void"), (int(v) for v in at_nb), strict=True))
        outside = EVERY & ~hand & ~int(h[H_SEEN])
        mighty = int(mighty_of_nb(params, trump))
        for c, v in cost.items():
            feats.append(card_features(c, hand, outside, trump, mighty, at))
            costs.append(v)
            ids.append(i)
            chosen.append(c == rules)
    return (np.array(feats), np.array(costs, float), np.array(ids),
            np.array(chosen)), len(played)


def choice_costs(weights: np.ndarray, data: tuple) -> tuple[np.ndarray, np.ndarray]:
    """Each lead's cost of the card the score chooses, and of the rules' card."""
    x, cost, ids, played = data
    order = np.lexsort((x @ weights, ids))
    first = np.r_[True, ids[order][1:] != ids[order][:-1]]
    return cost[order[first]], cost[played][np.argsort(ids[played], kind="stable")]


train, train_deals = collect(args.train, args.games)
test, test_deals = collect(args.test, args.games // 2)
x, cost, ids, _ = train
weights, *_ = np.linalg.lstsq(demean_by(x, ids), demean_by(cost, ids), rcond=None)
print(f"{len(np.unique(ids)):,} leads of {train_deals:,} deals (seed {args.train}); "
      f"test: {len(np.unique(test[2])):,} leads of {test_deals:,} deals (seed {args.test})")
for name, w in (("fitted now", weights), ("in force", WEIGHTS)):
    fit, played = choice_costs(w, test)
    diff = fit - played
    print(f"units a deal given up on the test leads: {name} {fit.sum() / test_deals:.3f}, "
          f"the rules {played.sum() / test_deals:.3f}; a lead {diff.mean():+.3f} "
          f"(± {1.96 * diff.std() / np.sqrt(len(diff)):.3f})")
for name, w in zip(FEATURES, weights, strict=True):
    print(f"  {w:+.3f}  {name}")
print("WEIGHTS =", np.round(weights, 3).tolist())
