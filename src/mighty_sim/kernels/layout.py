"""The kernels' output layout and policy numbering, free of Numba.

Plain ints that the kernels fold into constants and that the Python side (the engine,
the dataset writer, analyses) reads the result arrays with. Kept apart from the kernels
so that a process which runs an ahead-of-time compiled kernel (:mod:`mighty_sim.engine.aot`)
never imports Numba.

>>> N_R, N_T, POLICY_NAMES[POLICY_HEURISTIC]
(23, 14, 'heuristic')
"""

from __future__ import annotations

MAX_PLAYERS = 8
HISTORY = 64
"""Calls of an auction kept, at most (the int16 history ``rh``: the rows' calls one after
another)."""
OUTCOMES = ("played", "all-pass", "weak-redeal")
"""A dealt attempt's outcome (the dataset's ``outcome``) by its OUTCOME_* code."""
OUTCOME_PLAYED, OUTCOME_ALL_PASS, OUTCOME_WEAK = range(len(OUTCOMES))

# One row per dealt attempt, in column-major arrays (each column contiguous, allocated so
# by the engine) of the narrowest type that holds the column: what the dataset's Arrow
# columns take without a copy, and the fewest fresh pages for the batch to touch.
# int8 columns ``ri``:
(
    R_DEALER, R_FIRST_BIDDER, R_OUTCOME, R_REDEAL_BY, R_DECLARER, R_BID, R_TRUMP,
    R_AUCTION_BID, R_AUCTION_TRUMP, R_TRUMP_CHANGED, R_FRIEND_MODE, R_FRIEND_CARD,
    R_FRIEND_SEAT, R_FRIEND_KIND, R_POINTS, R_TRICKS, R_SUCCESS, R_LEAD_REQUEST,
    R_HIST_LEN, R_TRUMP_LENGTH, R_HAS_MIGHTY, R_HAS_JOKER, R_HAND_POINTS, N_R,
) = range(24)
# int64 columns ``rg``: the game, the attempt (the stream of the deal), the counted deal
G_GAME, G_ATTEMPT, G_DEAL_IN_GAME, N_G = range(4)
# uint64 card sets ``ru``: the hands by seat, then the blind and the discards
U_BLIND, U_DISCARDS, N_U = MAX_PLAYERS, MAX_PLAYERS + 1, MAX_PLAYERS + 2
# float64 ``rf``: the payouts by seat, then the declarer's strength at auction time
F_STRENGTH, N_F = MAX_PLAYERS, MAX_PLAYERS + 1
# int16 ``rw``: the weak-hand scores by seat, in quarter points
# one row per trick, row-major int8 ``ti`` (a trick's columns side by side, its cards the
# last): the tricks of each played row in order, every one of them (a played row has the
# hand size's tricks, a redeal none), so that a trick's row follows from the rows'
# outcomes and needs no column
T_NO, T_LEADER, T_WINNER, T_POINTS, T_JOKER_SUIT, T_DEMAND, T_CARDS = range(7)
N_T = T_CARDS + MAX_PLAYERS

POLICY_NAMES = ("random", "heuristic", "pimc", "baseline")
# pimc plays by pimc_nb; it bids, exchanges and calls as the heuristic. baseline is the
# first heuristic, kept unchanged as a yardstick for duels (policy_nb's baseline branches)
POLICY_RANDOM, POLICY_HEURISTIC, POLICY_PIMC, POLICY_BASELINE = range(len(POLICY_NAMES))
# a seat's policy parameters: the aggressiveness (points added to the bid ceiling), a
# PIMC player's worlds, rollouts, noise, the first and last tricks it searches and which
# of its cards there (SEARCH_*: the heuristic plays the others), and the heuristic's
# bidding parameters (see mighty_sim.engine.players.HeuristicParams)
(
    PP_AGGRESSIVENESS, PP_WORLDS, PP_ROLLOUTS, PP_NOISE, PP_BID_BASE, PP_STRENGTH_SCALE,
    PP_NT_MARGIN, PP_SOLO_THRESHOLD, PP_CHANGE_MARGIN, PP_WEAK_SHOW, PP_RAISE_MARGIN,
    PP_STRAIN_FIT, PP_FRIEND_MARGIN, PP_BURY, PP_FROM_TRICK, PP_TO_TRICK, PP_SEARCH_ON,
    PP_SEARCH_SIDE, N_POLICY_PARAMS,
) = range(19)
SEARCH_ON = ("all", "lead", "follow")
"""A PIMC player's ``on=``: the cards it searches by their place in the trick
(PP_SEARCH_ON, the index)."""
SEARCH_SIDE = ("all", "declarer", "defence")
"""A PIMC player's ``side=``: whether it searches as the declarer or the friend, as a
defender, or as either (PP_SEARCH_SIDE, the index). The friend is the seat the play
state names: a called card's holder from the first card with one deck, with two decks
or a first-trick friend only once the deal has shown it (until then it searches as a
defender)."""
PP_BIDDING = (PP_AGGRESSIVENESS, PP_BID_BASE, PP_STRENGTH_SCALE, PP_NT_MARGIN,
              PP_SOLO_THRESHOLD, PP_CHANGE_MARGIN, PP_WEAK_SHOW, PP_RAISE_MARGIN,
              PP_STRAIN_FIT, PP_FRIEND_MARGIN, PP_BURY)
"""The parameters of the auction, exchange, contract and friend call: a PIMC player bids
and exchanges as the heuristic does, with these."""
DEFAULT_WORLDS = 40
