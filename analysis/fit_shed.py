"""Fit the defender's choice of a card that does not take the trick
(mighty_sim.kernels.players.shed_fit) to double-dummy play: on deals the heuristic plays,
every follow of a defender no legal card of which takes the trick (tricks 5 to 9) is
taken up, each legal card played in turn and the rest of the deal solved; a card's cost
is its par less the best card's, from the defence's side. The weights are the
least-squares fit of the costs less their follow's mean. Prints, on the test seed's
deals, the cost a deal of the cards the fitted score chooses against those the
heuristic played, and the weights.

The positions come from the heuristic's own play, which uses the weights in force: run
again after adopting new weights, the script gives the next iterate.

With ``--imitate PLAYER`` the weights are fitted to the cards PLAYER chose instead (a
conditional logit over the follows of tricks 1 to 9 of deals it plays, the weight of
"unseen cards of its suit above it" held at 0 so that the kernel's ``MONOTONE`` holds):
it prints how often the score in force and the fitted one choose PLAYER's card on the
test deals, and the weights (docs/players.md: fitted to PIMC's defence, they choose
worse against par).

    .venv/bin/python analysis/fit_shed.py [--games 8000] [--train 3] [--test 4]
        [--imitate pimc:side=defence:on=follow]
"""

import argparse

import numpy as np

from mighty_sim.analysis.stats import demean_by
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.engine.search import TOP, Position, recorded_positions, solve_position
from mighty_sim.kernels.layout import T_CARDS, T_DEMAND, T_JOKER_SUIT, T_LEADER
from mighty_sim.kernels.loop.play_nb import (
    H_SEEN,
    S_FRIEND,
    S_KIND,
    S_REVEALED,
    apply_play_nb,
    legal_now_nb,
    partners_of_nb,
)
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.players.shed_fit import FEATURES, WEIGHTS, card_features
from mighty_sim.kernels.rules.rules_nb import (
    JOKER_BIT,
    mighty_of_nb,
    trick_winner_nb,
)
from mighty_sim.rules.profile import load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--games", type=int, default=8000, help="deals of the training seed")
ap.add_argument("--train", type=int, default=3, help="the training deals' seed")
ap.add_argument("--test", type=int, default=4, help="the test deals' seed (half as many)")
ap.add_argument("--imitate", metavar="PLAYER",
                help="fit to the cards this player chooses (no double-dummy costs)")
args = ap.parse_args()
PLAYERS = args.imitate or "heuristic"
FROM_TRICK = 1 if args.imitate else 5

profile = load_profile("standard")
params = compile_profile(profile)
N, HAND = profile.players, profile.hand_size
EVERY = (1 << (JOKER_BIT + 1)) - 1


def takes(trick: tuple, card: int) -> bool:
    """Whether ``card`` played next takes the trick: ``trick`` is (its cards, how many
    are played, the trump, the trick's number, the joker's named suit, the demand)."""
    cards, k, trump, trick_no, named, demand = trick
    cards = cards.copy()
    cards[k] = card
    return trick_winner_nb(cards, k + 1, trump, trick_no, named, demand, params) == k


def collect(seed: int, games: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(features, costs, follow ids, chosen flags) of every legal card of the defenders'
    follows that cannot take the trick, and the deals played."""
    batch = play_batch(profile, seed=seed, game_start=0, games=games,
                       players=parse_players(PLAYERS, N), record_tricks=True)
    played = np.flatnonzero(batch.played())
    declarer, friend = batch.column("declarer"), batch.column("friend_seat")
    feats, costs, ids, chosen = [], [], [], []
    follow = 0
    for i, row in enumerate(played):
        first = i * HAND
        trump = int(batch.column("trump")[row])
        mighty = int(mighty_of_nb(params, trump))
        for pos in recorded_positions(batch, row, profile, FROM_TRICK):
            if pos.trick_no > HAND - 1:
                continue
            rec = batch.ti[first + pos.trick_no - 1]
            leader, named = int(rec[T_LEADER]), int(rec[T_JOKER_SUIT])
            demand = bool(rec[T_DEMAND])
            s, h, tr = pos.state.copy(), pos.hands.copy(), pos.trick.copy()
            for k in range(N):
                card, seat = int(rec[T_CARDS + k]), (leader + k) % N
                if k > 0 and seat not in (declarer[row], friend[row]):
                    legal = int(legal_now_nb(s, h, tr, seat, params))
                    cands = [c for c in range(JOKER_BIT + 1) if legal >> c & 1]
                    trick = (tr, k, trump, pos.trick_no, named, demand)
                    if len(cands) > 1 and not any(takes(trick, c) for c in cands):
                        value = dict.fromkeys(cands, 0)  # no costs when imitating
                        if not args.imitate:
                            for c in cands:
                                s2, h2, tr2 = s.copy(), h.copy(), tr.copy()
                                apply_play_nb(s2, h2, tr2, seat, c, -1, False, params,
                                              False, batch.ti, 0)
                                value[c] = solve_position(Position(s2, h2, tr2, params),
                                                          guess=TOP).value
                        best = min(value.values())  # the defence's view: the least par
                        hand = int(h[seat])
                        in_trick = sum(1 << int(tr[j]) for j in range(k))
                        outside = EVERY & ~hand & ~int(h[H_SEEN]) & ~in_trick
                        mine = int(partners_of_nb(seat, N, int(declarer[row]),
                                                  int(s[S_FRIEND]), bool(s[S_REVEALED]),
                                                  int(s[S_KIND])))
                        win = trick_winner_nb(tr, k, trump, pos.trick_no, named, demand,
                                              params)
                        ws = (leader + win) % N
                        at = dict(
                            pw=(mine >> ws) & 1,
                            unknown=mine == 0 and ws != declarer[row],
                            mates=sum((mine >> ((leader + j) % N)) & 1 for j in range(k + 1, N)),
                            left=HAND + 1 - pos.trick_no, after=HAND - pos.trick_no,
                            beat=sum(takes(trick, u) for u in range(JOKER_BIT + 1)
                                     if outside >> u & 1))
                        at["opps"] = N - 1 - k - at["mates"]
                        for c in cands:
                            feats.append(card_features(c, legal, outside, trump, mighty, at))
                            costs.append(value[c] - best)
                            ids.append(follow)
                            chosen.append(c == card)
                        follow += 1
                apply_play_nb(s, h, tr, seat, card, named if k == 0 else -1,
                              demand and k == 0, params, False, batch.ti, 0)
    return (np.array(feats), np.array(costs, float), np.array(ids),
            np.array(chosen)), len(played)


def chosen(weights: np.ndarray, data: tuple) -> np.ndarray:
    """The rows of the cards the score chooses: each follow's card of lowest score."""
    x, _, ids, _ = data
    order = np.lexsort((x @ weights, ids))
    return order[np.r_[True, ids[order][1:] != ids[order][:-1]]]


def chosen_cost(weights: np.ndarray, data: tuple, deals: int) -> tuple[float, float]:
    """The cost a deal of the cards the score chooses, and of the cards played."""
    cost, played = data[1], data[3]
    return cost[chosen(weights, data)].sum() / deals, cost[played].sum() / deals


def agreement(weights: np.ndarray, data: tuple) -> float:
    """How often the card of lowest score is the card played."""
    return float(data[3][chosen(weights, data)].mean())


def imitation_fit(data: tuple, fixed: tuple[int, ...] = (4,)) -> np.ndarray:
    """The weights of the conditional logit (a card chosen with odds exp(-score)) that
    best explain the cards played, by Newton's method; the weights ``fixed`` held at 0."""
    x_all, _, ids, played = data
    keep = [j for j in range(x_all.shape[1]) if j not in fixed]
    x = x_all[:, keep]
    w = WEIGHTS[keep].astype(float)
    follows = int(ids.max()) + 1
    for _ in range(100):
        u = -(x @ w)
        top = np.full(follows, -np.inf)
        np.maximum.at(top, ids, u)
        e = np.exp(u - top[ids])
        total = np.zeros(follows)
        np.add.at(total, ids, e)
        p = e / total[ids]
        mean = np.zeros((follows, x.shape[1]))
        np.add.at(mean, ids, p[:, None] * x)
        grad = mean.sum(axis=0) - x[played].sum(axis=0)
        centred = x - mean[ids]
        hess = -(centred * p[:, None]).T @ centred - 1e-3 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    out = np.zeros(x_all.shape[1])
    out[keep] = w
    return out


train, train_deals = collect(args.train, args.games)
test, test_deals = collect(args.test, args.games // 2)
if args.imitate:
    fitted = imitation_fit(train)
    print(f"{len(np.unique(train[2])):,} follows of {train_deals:,} deals (seed {args.train}) "
          f"played by {args.imitate}; test: {test_deals:,} deals (seed {args.test})")
    for name, w in (("fitted now", fitted), ("in force", WEIGHTS)):
        print(f"the card of lowest score is the one {args.imitate} chose: {name} "
              f"{agreement(w, test):.3f} of the test follows")
    for name, w in zip(FEATURES, fitted, strict=True):
        print(f"  {w:+.3f}  {name}")
    print("WEIGHTS =", np.round(fitted, 3).tolist())
    raise SystemExit
x, cost, ids, _ = train
weights, *_ = np.linalg.lstsq(demean_by(x, ids), demean_by(cost, ids), rcond=None)
print(f"{len(np.unique(ids)):,} follows of {train_deals:,} deals (seed {args.train}); "
      f"test: {test_deals:,} deals (seed {args.test})")
for name, w in (("fitted now", weights), ("in force", WEIGHTS)):
    fit_cost, played_cost = chosen_cost(w, test, test_deals)
    print(f"points a deal given away on the test follows: {name} {fit_cost:.3f}, "
          f"as played {played_cost:.3f}")
for name, w in zip(FEATURES, weights, strict=True):
    print(f"  {w:+.3f}  {name}")
print("WEIGHTS =", np.round(weights, 3).tolist())
