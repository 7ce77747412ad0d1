"""Whole deals in Numba, batch by batch: the public face of :mod:`.kernels.loop.games_nb`.

:func:`play_batch` validates, allocates the output buffers and calls the kernel once per
batch (again only if a batch outgrows its buffers); the result is a :class:`Batch` of
NumPy columns that :mod:`mighty_sim.dataset.schema` turns into Arrow tables. The kernel
is the ahead-of-time compiled module of :mod:`mighty_sim.engine.aot` when there is one,
else the JIT dispatcher: the same code, the same rows; only the first has no Numba to load.

>>> from mighty_sim.engine.players import parse_players
>>> from mighty_sim.rules.profile import load_profile
>>> batch = play_batch(load_profile("standard"), seed=1, game_start=0, games=100,
...                    players=parse_players("heuristic", 5))
>>> int(batch.played().sum())  # played deals: one per game
100
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kernels.layout import (
    G_ATTEMPT,
    G_DEAL_IN_GAME,
    G_GAME,
    HISTORY,
    MAX_PLAYERS,
    N_F,
    N_G,
    N_POLICY_PARAMS,
    N_R,
    N_T,
    N_U,
    OUTCOME_PLAYED,
    OUTCOMES,
    POLICY_NAMES,
    PP_AGGRESSIVENESS,
    PP_FROM_TRICK,
    PP_NOISE,
    PP_ROLLOUTS,
    PP_SEARCH_ON,
    PP_SEARCH_SIDE,
    PP_TO_TRICK,
    PP_WORLDS,
    R_BID,
    R_DECLARER,
    R_FRIEND_SEAT,
    R_HIST_LEN,
    R_OUTCOME,
    R_POINTS,
    R_REDEAL_BY,
    R_SUCCESS,
    R_TRICKS,
    R_TRUMP,
    SEARCH_ON,
    SEARCH_SIDE,
)
from ..kernels.params import compile_profile
from ..rules.cards import cards_of
from ..rules.profile import RuleProfile
from .aot import games_kernel
from .heuristic import HeuristicParams
from .players import PlayerSpec
from .sizing import deals_per_game

__all__ = ["COLUMNS", "OUTCOMES", "Batch", "deals_per_game", "play_batch"]



@dataclass
class Batch:
    """Output columns of a batch of games (see :mod:`.kernels.layout`); ``rg``, ``ri``,
    ``ru``, ``rf`` and ``rw`` are column-major (Fortran order), each column contiguous;
    ``rh`` holds the rows' auctions one after another (``ri[:, R_HIST_LEN]`` calls a row),
    ``ti`` the played rows' tricks one after another (each the hand size's, row-major).
    """

    rg: np.ndarray
    ri: np.ndarray
    ru: np.ndarray
    rf: np.ndarray
    rw: np.ndarray
    rh: np.ndarray
    ti: np.ndarray
    games: int

    @property
    def rows(self) -> int:
        """Dealt attempts in the batch."""
        return int(self.ri.shape[0])

    def column(self, name: str) -> np.ndarray:
        """One column of the rows by its name (:data:`COLUMNS`), a view.

        >>> from mighty_sim.engine.players import parse_players
        >>> from mighty_sim.rules.profile import load_profile
        >>> b = play_batch(load_profile("standard"), seed=1, game_start=0, games=3,
        ...                players=parse_players("heuristic", 5))
        >>> b.column("game").tolist()[-1], int(b.played().sum())
        (2, 3)
        """
        array, index = COLUMNS[name]
        out: np.ndarray = getattr(self, array)[:, index]
        return out

    def played(self) -> np.ndarray:
        """Whether each row was played out (not redealt)."""
        return np.asarray(self.ri[:, R_OUTCOME] == OUTCOME_PLAYED)

    def outcome_counts(self) -> dict[str, int]:
        """Rows by outcome (:data:`OUTCOMES`: played, all-pass, weak-redeal)."""
        codes = np.bincount(self.ri[:, R_OUTCOME].astype(np.int64), minlength=len(OUTCOMES))
        return {name: int(codes[k]) for k, name in enumerate(OUTCOMES)}


COLUMNS: dict[str, tuple[str, int]] = {
    "game": ("rg", G_GAME),
    "attempt": ("rg", G_ATTEMPT),
    "deal_in_game": ("rg", G_DEAL_IN_GAME),
    "outcome": ("ri", R_OUTCOME),
    "redeal_by": ("ri", R_REDEAL_BY),
    "declarer": ("ri", R_DECLARER),
    "bid": ("ri", R_BID),
    "trump": ("ri", R_TRUMP),
    "friend_seat": ("ri", R_FRIEND_SEAT),
    "points": ("ri", R_POINTS),
    "tricks": ("ri", R_TRICKS),
    "success": ("ri", R_SUCCESS),
}
"""The row columns analyses read by name: (the array, the column)."""


def policy_arrays(players: tuple[PlayerSpec, ...], profile: RuleProfile
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Kernel inputs for the seats' players: policy codes (MAX_PLAYERS,) int64 and
    parameters (MAX_PLAYERS, N_POLICY_PARAMS) float64; a player without bidding values
    of its own bids with those tuned for ``profile``."""
    policies = np.zeros(MAX_PLAYERS, np.int64)
    pp = np.zeros((MAX_PLAYERS, N_POLICY_PARAMS), np.float64)
    for s, spec in enumerate(players):
        policies[s] = POLICY_NAMES.index(spec.policy)
        pp[s, PP_AGGRESSIVENESS] = spec.aggressiveness
        pp[s, PP_WORLDS] = spec.worlds
        pp[s, PP_ROLLOUTS] = spec.rollouts
        pp[s, PP_NOISE] = spec.noise
        pp[s, PP_FROM_TRICK] = spec.from_trick
        pp[s, PP_TO_TRICK] = spec.to_trick
        pp[s, PP_SEARCH_ON] = SEARCH_ON.index(spec.search_on)
        pp[s, PP_SEARCH_SIDE] = SEARCH_SIDE.index(spec.search_side)
        (spec.resolved(profile).params or HeuristicParams()).fill(pp[s])
    return policies, pp


def deck_array(profile: RuleProfile) -> np.ndarray:
    """The kernel's ``deck_cards``: the deck's cards low to high; with two decks, its
    physical cards followed by the card kinds that may be called.

    >>> from mighty_sim.rules.profile import load_profile
    >>> len(deck_array(load_profile("standard"))), len(deck_array(load_profile("russian-8p")))
    (53, 153)
    """
    cards = cards_of(profile.card_mask)
    if profile.deck_copies == 2:
        cards += cards_of(profile.deck_mask)
    return np.array(cards, np.int64)




def play_batch(
    profile: RuleProfile,
    *,
    seed: int,
    game_start: int,
    games: int,
    players: tuple[PlayerSpec, ...],
    ledger: int = 1,
    record_tricks: bool = False,
    to_target: bool = False,
) -> Batch:
    """Play games ``game_start .. game_start+games-1`` of ``ledger`` deals each; with
    ``to_target``, each game ends when a player's total reaches the profile's
    ``ledger_target`` (after at most ``ledger`` deals)."""
    if len(players) != profile.players:
        raise ValueError(f"players: need {profile.players}, got {len(players)}")
    if games < 0 or ledger < 1 or game_start < 0:
        raise ValueError("games, game_start must be >= 0 and ledger >= 1")
    if to_target and profile.ledger_target <= 0:
        raise ValueError(f"profile {profile.name}: no ledger_target to play to")
    target = float(profile.ledger_target) if to_target else 0.0
    params = compile_profile(profile)
    deck_cards = deck_array(profile)
    policies, pp = policy_arrays(players, profile)
    kernel = games_kernel()
    parts: list[Batch] = []
    done = 0
    # rows a game: a first guess, then what the games so far took; a game that does not
    # fit is left out by the kernel and played in the next call, with room to spare
    per_game = deals_per_game(ledger, to_target) * 1.4 + 0.5
    room = 256
    while done < games or not parts:
        todo = games - done
        cap = max(int(todo * per_game) + 64, room)
        tcap = cap * profile.tricks if record_tricks else 1
        # column-major: each column contiguous, taken by Arrow without a transpose, and
        # the columns of seats not at the table never touched
        rg = np.zeros((N_G, cap), np.int64).T
        ri = np.zeros((N_R, cap), np.int8).T
        ru = np.zeros((N_U * profile.deck_copies, cap), np.uint64).T
        rf = np.zeros((N_F, cap), np.float64).T
        rw = np.zeros((MAX_PLAYERS, cap), np.int16).T
        rh = np.zeros(cap * HISTORY, np.int16)  # the auctions, row after row
        ti = np.zeros((tcap, N_T), np.int8)
        g, rows, trows = kernel(
            np.uint64(seed), game_start + done, todo, ledger, target, policies, pp, params,
            deck_cards, record_tricks, (rg, ri, ru, rf, rw, rh, ti),
        )
        if g == 0 and todo > 0:  # not even one game fitted
            if cap > 4 * 60_000 * deals_per_game(ledger, to_target):
                aggr = sorted({f"{p.aggressiveness:+g}" for p in players})
                raise ValueError(f"game {game_start + done} did not end: its deals were "
                                 "redealt 60,000 times in a row (all passed or a hand was "
                                 f"shown weak every time; profile {profile.name}, "
                                 f"aggressiveness {', '.join(aggr)})")
            room = cap * 2
            continue
        if g:
            per_game = max(per_game, rows / g * 1.1)
        ti = ti[:trows]
        calls = int(ri[:rows, R_HIST_LEN].sum())
        parts.append(Batch(rg[:rows], ri[:rows], ru[:rows], rf[:rows], rw[:rows], rh[:calls],
                           ti, g))
        done += g
        if todo == 0:
            break
    if len(parts) == 1:
        return parts[0]
    def joined(name: str) -> np.ndarray:
        return np.asfortranarray(np.concatenate([getattr(p, name) for p in parts]))

    return Batch(joined("rg"), joined("ri"), joined("ru"), joined("rf"), joined("rw"),
                 np.concatenate([p.rh for p in parts]), np.concatenate([p.ti for p in parts]),
                 sum(p.games for p in parts))
