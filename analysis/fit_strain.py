"""Fit the heuristic's strain score (mighty_sim.kernels.players.strain_fit) to `odds`:
for the auction winners of runs on the training seeds, every strain is played out at the
bid made (SAMPLES deals a strain); the weights maximise the mean payout of the strain a
softmax over the five scores chooses, started from least squares on the payouts less
their mean over the strains. Prints the regret (best strain's mean payout minus the
chosen one's) of the fitted score on the test seed's winners, and the weights.

    .venv/bin/python analysis/fit_strain.py [--winners 8000] [--samples 1000]
        [--train 101 303 404] [--test 202] [--cache DIR]
"""

import argparse
from pathlib import Path

import numpy as np

from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.odds import play_strains
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import R_AUCTION_BID, R_AUCTION_TRUMP, R_DECLARER
from mighty_sim.kernels.params import compile_profile
from mighty_sim.kernels.players import strain_fit
from mighty_sim.kernels.rules.rules_nb import mighty_of_nb
from mighty_sim.rules.profile import TRUMPS, load_profile

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--profile", default="standard")
ap.add_argument("--winners", type=int, default=8000)
ap.add_argument("--samples", type=int, default=1000)
ap.add_argument("--train", type=int, nargs="+", default=[101, 303, 404])
ap.add_argument("--test", type=int, default=202)
ap.add_argument("--temperature", type=float, default=0.3)
ap.add_argument("--cache", type=Path, default=Path("out/fit_strain"))
args = ap.parse_args()
profile = load_profile(args.profile)
players = parse_players("heuristic", profile.players)
params = compile_profile(profile)
mighty = tuple(int(mighty_of_nb(params, t)) for t in range(len(TRUMPS)))


def winners(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hands, chosen strains and each strain's mean payout for a seed's winners."""
    path = args.cache / f"{args.profile}-{seed}-{args.winners}-{args.samples}.npz"
    if path.exists():
        d = np.load(path)
        return d["hand"], d["chosen"], d["ev"]
    batch = play_batch(profile, seed=seed, game_start=0, games=2 * args.winners + 100,
                       players=players)
    rows = np.flatnonzero(batch.played())[:args.winners]
    hands, chosen, ev = [], [], []
    for i, r in enumerate(rows.tolist()):
        hand = int(batch.ru[r, batch.ri[r, R_DECLARER]])
        bid = int(batch.ri[r, R_AUCTION_BID])
        strains = play_strains(profile, hand, samples=args.samples, seed=seed + i,
                               players=players)
        ev.append([strains.expected_payout(t, bid) for t in range(len(TRUMPS))])
        hands.append(hand)
        chosen.append(int(batch.ri[r, R_AUCTION_TRUMP]))
    args.cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, hand=np.array(hands, np.uint64), chosen=np.array(chosen), ev=np.array(ev))
    tmp.replace(path)
    return winners(seed)


def features(hands: np.ndarray) -> np.ndarray:
    return np.stack([strain_fit.strain_features(int(h), mighty) for h in hands.tolist()])


def regret(x: np.ndarray, ev: np.ndarray, w: np.ndarray) -> float:
    choice = (x @ w).argmax(axis=1)
    return float((ev.max(axis=1) - ev[np.arange(len(ev)), choice]).mean())


def fit(x: np.ndarray, ev: np.ndarray, temp: float, steps: int = 3000) -> np.ndarray:
    xd = x - x.mean(axis=1, keepdims=True)
    yd = ev - ev.mean(axis=1, keepdims=True)
    w = np.linalg.lstsq(xd.reshape(-1, x.shape[2]), yd.reshape(-1), rcond=None)[0]
    for _ in range(steps):  # gradient ascent on the softmax choice's mean payout
        z = x @ w / temp
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        value = (p * ev).sum(axis=1, keepdims=True)
        grad = ((p * (ev - value))[:, :, None] * x).sum(axis=(0, 1)) / len(ev) / temp
        w += 0.05 * (grad - 1e-3 * w)
    return w


train = [winners(s) for s in args.train]
x = np.concatenate([features(h) for h, _, _ in train])
ev = np.concatenate([e for _, _, e in train])
w = fit(x, ev, args.temperature)
hands, chosen, ev_test = winners(args.test)
x_test = features(hands)
now = float((ev_test.max(axis=1) - ev_test[np.arange(len(ev_test)), chosen]).mean())
print(f"{len(ev)} training winners; on the {len(ev_test)} of seed {args.test}: regret "
      f"{regret(x_test, ev_test, w):.3f} with the fit ({regret(x, ev, w):.3f} on the "
      f"training winners), {now:.3f} with the players' own choice")
print("WEIGHTS = np.array([" + ", ".join(f"{v:.3f}" for v in w) + "])")
