"""Double-dummy par of recorded deals: each played deal of a batch taken up at the start
of a given trick (its earlier tricks replayed as recorded) and solved by
:func:`.dd_nb.dd_target_work_nb` (from the top, :data:`.dd_nb.TOP`; one table for all
the deals); the rest of its recorded play replayed after, to check that the
recorded deal is what was rebuilt.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit, var
from ..layout import (
    MAX_PLAYERS,
    OUTCOME_PLAYED,
    R_BID,
    R_DECLARER,
    R_FRIEND_CARD,
    R_FRIEND_MODE,
    R_FRIEND_SEAT,
    R_LEAD_REQUEST,
    R_OUTCOME,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    R_TRUMP_CHANGED,
    T_CARDS,
    T_DEMAND,
    T_JOKER_SUIT,
    T_LEADER,
    T_NO,
    U_BLIND,
    U_DISCARDS,
)
from ..loop.play_nb import (
    N_H,
    N_S,
    S_CAPTURED,
    S_DECLARER,
    S_FRIEND,
    S_K,
    S_LEADER,
    S_N,
    S_TRICK_NO,
    S_WON,
    apply_play_nb,
    start_play_nb,
    to_play_nb,
)
from ..params import (
    BID_TRICKS,
    MODE_FIRST_TRICK,
    P_BID_UNIT,
    P_HAND_SIZE,
    P_PLAYERS,
    P_TOTAL_POINTS,
)
from .dd_nb import TOP, Work, bits_for_nb, dd_target_work_nb, work_nb

# what par_nb writes a row: the par, the trick it is taken from, positions searched,
# whether the replay matched the record
PAR_VALUE, PAR_FROM, PAR_NODES, PAR_MATCH, N_PAR = range(5)


@njit(cache=True)
def _replay_trick_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, ti: np.ndarray,
                     t: int, params: np.ndarray, scratch: np.ndarray) -> bool:
    """Play recorded trick row ``t`` of ``ti`` into the state; False when its leader or
    number is not the state's (the record is not this deal's play)."""
    if ti[t, T_NO] != s[S_TRICK_NO] or ti[t, T_LEADER] != s[S_LEADER]:
        return False
    for _ in range(s[S_N]):
        seat = to_play_nb(s)
        c = ti[t, T_CARDS + s[S_K]]
        if not (h[seat] >> np.uint64(c)) & np.uint64(1):
            return False
        apply_play_nb(s, h, tr, seat, c, ti[t, T_JOKER_SUIT], ti[t, T_DEMAND] == 1, params,
                      False, scratch, 0)
    return True


@njit(cache=True, nrt=True)
def recorded_position_nb(ri: np.ndarray, ru: np.ndarray, ti: np.ndarray, r: int, t: int,
                         params: np.ndarray, from_trick: int, s: np.ndarray, h: np.ndarray,
                         tr: np.ndarray) -> int:
    """Played row ``r`` of ``ri`` (its first trick row ``t`` of ``ti``) at the start of
    trick ``from_trick`` (trick 2 at the earliest in first-trick friend mode) in
    ``s``/``h``/``tr``: the contract after the exchange, the tricks before replayed.
    Returns the trick row to replay next, or -1 when the record does not replay."""
    n = params[P_PLAYERS]
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    declarer = int(ri[r, R_DECLARER])  # the row's int8 columns as the play's ints
    for p in range(n):
        hands[p] = ru[r, p]
    discards = ru[r, U_DISCARDS]
    hands[declarer] = (hands[declarer] | ru[r, U_BLIND]) & ~discards
    mode = int(ri[r, R_FRIEND_MODE])
    start_play_nb(s, h, tr, params, hands, discards,
                  (declarer, int(ri[r, R_BID]), int(ri[r, R_TRUMP]), ri[r, R_TRUMP_CHANGED] == 1),
                  (mode, int(ri[r, R_FRIEND_CARD]), int(ri[r, R_LEAD_REQUEST])), False)
    start = max(from_trick, 2) if mode == MODE_FIRST_TRICK else from_trick
    scratch = np.zeros((1, ti.shape[1]), np.int8)
    while s[S_TRICK_NO] < start:
        if (t < 0 or t >= ti.shape[0]
                or not _replay_trick_nb(s, h, tr, ti, t, params, scratch)):
            return -1
        t += 1
    return t


@njit(cache=True, nrt=True)
def first_tricks_nb(ri: np.ndarray, tricks: int) -> np.ndarray:
    """Each row's first trick row in its batch's ``ti`` (-1 for a row not played): every
    played row has its ``tricks`` tricks there, in row order (:mod:`.layout`)."""
    first = np.full(ri.shape[0], -1, np.int64)
    t = 0
    for r in range(ri.shape[0]):
        if ri[r, R_OUTCOME] == OUTCOME_PLAYED:
            first[r] = t
            t += tricks
    return first


@njit(cache=True)
def par_nb(ri: np.ndarray, ru: np.ndarray, ti: np.ndarray, params: np.ndarray,
           from_trick: int, out: np.ndarray) -> None:
    """For each row ``r`` of ``ri`` (a batch recorded with tricks): ``out[r, PAR_VALUE]``
    the declarer side's double-dummy count (points, or tricks in trick-bid profiles)
    from the start of trick ``from_trick`` (:func:`recorded_position_nb`), -1 for a deal
    not played; ``out[r, PAR_MATCH]`` 1 when the whole recorded play replays to the
    recorded result."""
    par_rows_nb((ri, ru, ti), params, from_trick, var(0), ri.shape[0], var(-1),
                var(1 << 30), out, var(0), work_nb(par_bits_nb(params, from_trick)), var(0))


@njit(cache=True)
def par_bits_nb(params: np.ndarray, from_trick: int) -> int:
    """The size in bits of the one table :func:`par_rows_nb` solves deals from the start
    of ``from_trick`` in: as large as a deal from there needs (:func:`.dd_nb.bits_for_nb`)."""
    return bits_for_nb(params[P_PLAYERS] * (params[P_HAND_SIZE] - from_trick + 1))


@njit(cache=True, nogil=True, nrt=True)
def par_rows_nb(rows: tuple[np.ndarray, np.ndarray, np.ndarray], params: np.ndarray,
                from_trick: int, r0: int, r1: int, lo: int, hi: int, out: np.ndarray,
                limit: int, work: Work, solve0: int) -> None:
    """:func:`par_nb` for rows ``r0 .. r1-1`` of ``rows`` (``ri``, ``ru``, ``ti``; ``out``
    rows the same), each par found
    only as far as ``lo`` and ``hi`` tell success from failure (:func:`.dd_nb.dd_target_nb`):
    ``lo`` for a par of at most ``lo``, at least ``hi`` for one of at least ``hi``, the
    par itself between. Whether a bid from ``lo + 1`` to ``hi`` makes needs no more, and
    a hand far from every bid costs one search. With ``limit`` > 0 a deal whose search
    passes ``limit`` positions is left unanswered: its par :data:`.dd_nb.GAVE_UP`.
    ``work``: the search's arrays (:func:`.dd_nb.search_work` of :func:`par_bits_nb`),
    one table for the solves of the rows, never cleared: row ``r``'s entries are its
    own by its solve number ``solve0 + r``. A caller keeping the arrays across batches
    gives each batch a ``solve0`` past the numbers of those before (at least their
    rows), so that no entry of another deal answers. Releases the GIL: threads may
    solve row ranges side by side, each in its own arrays."""
    ri, ru, ti = rows
    first = first_tricks_nb(ri, params[P_HAND_SIZE])
    s = np.zeros(N_S, np.int64)
    h = np.zeros(N_H, np.uint64)
    tr = np.zeros(MAX_PLAYERS, np.int64)
    scratch = np.zeros((1, ti.shape[1]), np.int8)
    nodes = np.zeros(1, np.int64)
    for r in range(r0, r1):
        out[r, :] = -1
        if ri[r, R_OUTCOME] != OUTCOME_PLAYED:
            continue
        t = recorded_position_nb(ri, ru, ti, r, first[r], params, from_trick, s, h, tr)
        ok = t >= 0
        if not ok:
            out[r, PAR_MATCH] = 0
            continue
        nodes[0] = 0
        out[r, PAR_FROM] = s[S_TRICK_NO]
        out[r, PAR_VALUE] = dd_target_work_nb(s.copy(), h.copy(), tr.copy(), params, nodes,
                                              var(TOP), lo, hi,
                                              work, solve0 + r, limit)
        out[r, PAR_NODES] = nodes[0]
        end = min(first[r] + params[P_HAND_SIZE], ti.shape[0])
        while ok and t < end:
            ok = _replay_trick_nb(s, h, tr, ti, t, params, scratch)
            t += 1
        ok = (ok and s[S_FRIEND] == ri[r, R_FRIEND_SEAT]
              and _side_count_nb(s, params, s[S_FRIEND], False) == ri[r, R_POINTS]
              and _side_count_nb(s, params, s[S_FRIEND], True) == ri[r, R_TRICKS])
        out[r, PAR_MATCH] = 1 if ok else 0


@njit(cache=True, inline="always")
def _side_count_nb(s: np.ndarray, params: np.ndarray, friend: int, tricks_bid: bool) -> int:
    """What the declarer's side has at the end of a deal: points (the deck's less what
    the defence took) or, in trick-bid profiles, tricks."""
    points, tricks = params[P_TOTAL_POINTS], 0
    for p in range(params[P_PLAYERS]):
        if p == s[S_DECLARER] or p == friend:
            tricks += s[S_WON + p]
        else:
            points -= s[S_CAPTURED + p]
    return tricks if tricks_bid else points


@njit(cache=True, nogil=True, nrt=True)
def card_costs_nb(rows: tuple[np.ndarray, np.ndarray, np.ndarray], params: np.ndarray,
                  from_trick: int, r0: int, r1: int, out: tuple[np.ndarray, np.ndarray,
                                                                np.ndarray],
                  work: Work) -> None:
    """The card-by-card yardstick of rows ``r0 .. r1-1`` of ``rows`` (``ri``, ``ru``,
    ``ti``, recorded with their tricks): ``pars[r]`` the double-dummy par at the start of
    trick ``from_trick`` (as :func:`par_rows_nb`), and ``costs[r, t - 1, k]`` what the
    k-th card of trick t gave away: the par before it less the par after it for a card
    of the declarer's side, the par after less the par before for a defender's (the
    final count after the deal's last card). Never negative: no card raises its own
    side's par. -1 for cards before ``from_trick`` and rows not played or whose record
    does not replay (``pars[r]`` -1). ``work``: the search's arrays
    (:func:`.dd_nb.work_nb` of :func:`par_bits_nb`), a solve number a position."""
    ri, ru, ti = rows
    costs, pars, given = out
    n = params[P_PLAYERS]
    hand_size = params[P_HAND_SIZE]
    tricks_bid = params[P_BID_UNIT] == BID_TRICKS
    first = first_tricks_nb(ri, hand_size)
    s = np.zeros(N_S, np.int64)
    h = np.zeros(N_H, np.uint64)
    tr = np.zeros(MAX_PLAYERS, np.int64)
    nodes = np.zeros(1, np.int64)
    solve = 0
    for r in range(r0, r1):
        costs[r, :, :] = -1
        given[r, :, :] = -1
        pars[r] = -1
        if ri[r, R_OUTCOME] != OUTCOME_PLAYED:
            continue
        t = recorded_position_nb(ri, ru, ti, r, first[r], params, from_trick, s, h, tr)
        if t < 0:
            continue
        friend = int(ri[r, R_FRIEND_SEAT])
        solve += 1
        cur = dd_target_work_nb(s.copy(), h.copy(), tr.copy(), params, nodes, var(TOP),
                                var(-1), var(1 << 30), work, solve, var(0))
        start = cur
        end = first[r] + hand_size
        ok = True
        while ok and t < end:
            trick = s[S_TRICK_NO]
            if ti[t, T_NO] != trick or ti[t, T_LEADER] != s[S_LEADER]:
                ok = False
                break
            for k in range(n):
                seat = to_play_nb(s)
                c = ti[t, T_CARDS + k]
                if not (h[seat] >> np.uint64(c)) & np.uint64(1):
                    ok = False
                    break
                apply_play_nb(s, h, tr, seat, c, ti[t, T_JOKER_SUIT], ti[t, T_DEMAND] == 1,
                              params, False, ti, 0)
                if trick == hand_size and k == n - 1:
                    after = _side_count_nb(s, params, friend, tricks_bid)
                else:
                    solve += 1
                    after = dd_target_work_nb(s.copy(), h.copy(), tr.copy(), params, nodes,
                                              cur, var(-1), var(1 << 30), work, solve,
                                              var(0))
                ours = seat == s[S_DECLARER] or seat == friend
                cost = cur - after if ours else after - cur
                costs[r, trick - 1, k] = cost
                if k == 0:
                    given[r, trick - 1, :] = 0
                given[r, trick - 1, 0 if ours else 1] += cost
                cur = after
            t += 1
        if ok and cur == (ri[r, R_TRICKS] if tricks_bid else ri[r, R_POINTS]):
            pars[r] = start
        else:
            costs[r, :, :] = -1
            given[r, :, :] = -1
