"""The PIMC player (perfect-information Monte Carlo) as a kernel.

At each card it plays, a PIMC seat:

1. samples ``worlds`` deals of the cards it has not seen, consistent with everything it
   knows: its own hand, the cards played, each seat's hand size, the cards each seat has
   shown it cannot hold (``H_CANT``, inferred from every play by :func:`play_nb.infer_nb`:
   suits not followed, a joker demand not answered...), the declarer's discards when it
   is the declarer (the other seats put the discards in a hidden pile of their size), and
   a revealed friend; in a world where the friend is still hidden, the friend is whoever
   holds the called card there;
2. plays every legal move (a card; for a led joker with power each suit named; for a led
   hunter the demand or not) in every world and finishes the deal with ``heuristic``
   players for all seats, ``rollouts`` times (rollouts after the first let each player
   play a random legal card with probability ``noise``);
3. chooses the move with the highest mean payout for itself, side points breaking ties.

Sampling deals the unseen cards in a random order, each to a random seat with room that
may hold it (weighted by room); when no seat with room may hold a card, an augmenting
path moves cards between holders (a breadth-first search), so a world is always found
when one exists. The auction, exchange and friend call of a PIMC seat are the
heuristic's.

Policy parameters (``pp`` row): ``[PP_WORLDS]`` worlds, ``[PP_ROLLOUTS]`` rollouts a
world and move, ``[PP_NOISE]`` the rollout players' random-card probability.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from ..borrow_nb import copy_nb
from ..layout import MAX_PLAYERS, N_T, POLICY_HEURISTIC, PP_NOISE, PP_ROLLOUTS, PP_WORLDS
from ..loop.play_nb import (
    H_CANT,
    H_DECK,
    H_DISCARDS,
    H_DISCARDS_P0,
    H_DISCARDS_P1,
    H_PLANE1,
    H_SEEN,
    MAX_MOVES,
    S_CALLED,
    S_DECKS,
    S_DECLARER,
    S_FRIEND,
    S_K,
    S_KIND,
    S_MODE,
    S_N,
    S_REVEALED,
    S_TRACK,
    apply_play_nb,
    kinds_held_nb,
    moves_nb,
    payout_of_nb,
    result_nb,
)
from ..loop.tricks_nb import play_tricks_nb
from ..params import (
    FRIEND_KIND_FRIEND,
    FRIEND_KIND_SECRET_SOLO,
    MODE_CALLED,
)
from ..rng_nb import below_nb, shuffle_nb
from ..rules.rules_nb import (
    JOKER_BIT,
    bit_nb,
    copy_of_nb,
    fold_nb,
    has_nb,
    kth_card_nb,
    lowest_card_nb,
    popcount_nb,
)

W1 = MAX_PLAYERS + 1
"""Two decks: where a world's second-deck cards of holder q are (``w[W1 + q]``)."""


@njit(cache=True, nrt=True)
def sample_world_nb(
    st: np.ndarray, s: np.ndarray, h: np.ndarray, tr: np.ndarray, me: int, w: np.ndarray,
) -> bool:
    """Deal the cards ``me`` has not seen into ``w``: ``w[q]`` for each other seat and,
    when ``me`` is not the declarer, ``w[n]`` for the hidden discard pile; ``w[me]`` is
    ``me``'s hand. Returns False only when no consistent world exists.

    With two decks the cards dealt are kinds, each as often as it has copies ``me`` has
    not seen (the other seats' and, when ``me`` is not the declarer, the hidden discards':
    the copies the deck has less those ``me`` holds or saw played), a holder's copies to
    its first free physical ids (``w[q]``, ``w[W1 + q]``: ``w`` has ``2 * W1`` words);
    ``H_CANT`` forbids kinds."""
    iw, uw = sample_work_nb()
    return sample_into_nb(st, (s, h, tr), me, w, iw, uw)


@njit(cache=True, nrt=True)
def sample_work_nb() -> tuple[np.ndarray, np.ndarray]:
    """The work arrays of :func:`sample_into_nb`, allocated once for many worlds."""
    return np.zeros((5, 128), np.int64), np.zeros(MAX_PLAYERS + 1, np.uint64)


@njit(cache=True)
def sample_into_nb(st: np.ndarray, state: tuple[np.ndarray, np.ndarray, np.ndarray],
                   me: int, w: np.ndarray, iw: np.ndarray, uw: np.ndarray) -> bool:
    """:func:`sample_world_nb` with its work arrays given (:func:`sample_work_nb`): a
    holder's room, the cards to deal, the search's path and queue and which holders
    are dealt to in ``iw``'s rows, what each may not hold in ``uw``."""
    s, h, tr = state
    n = s[S_N]
    declarer = s[S_DECLARER]
    two = s[S_DECKS] == 2
    holders = n + 1
    room, cards, prev, queue, active = iw[0], iw[1], iw[2], iw[3], iw[4]
    forbid = uw
    m = 0
    for q in range(holders):
        w[q] = 0
        if two:
            w[W1 + q] = 0
        room[q] = 0
        active[q] = 0
        forbid[q] = 0
        if q == me or (q == n and me == declarer):
            continue
        active[q] = 1
        if q < n:
            forbid[q] = h[H_CANT + q]
        if not two:
            room[q] = popcount_nb(h[H_DISCARDS] if q == n else h[q])
            continue
        p0 = h[H_DISCARDS_P0] if q == n else h[q]
        p1 = h[H_DISCARDS_P1] if q == n else h[H_PLANE1 + q]
        room[q] = popcount_nb(p0) + popcount_nb(p1)
        for x in (p0, p1):  # the copies it holds, as kinds
            while x:
                c = lowest_card_nb(x)
                x &= ~bit_nb(c)
                cards[m] = JOKER_BIT if c > JOKER_BIT else c
                m += 1
    if not two:  # the unseen cards, low to high
        unknown = h[H_DECK] & ~h[H_SEEN] & ~h[me]
        for i in range(s[S_K]):
            unknown &= ~bit_nb(tr[i])
        if me == declarer:
            unknown &= ~h[H_DISCARDS]
        while unknown:
            c = lowest_card_nb(unknown)
            unknown &= ~bit_nb(c)
            cards[m] = c
            m += 1
    shuffle_nb(st, cards, m)
    for i in range(m):
        c = cards[i]
        cb = bit_nb(c)
        total = 0
        for q in range(holders):
            if active[q] and not forbid[q] & cb:
                total += room[q]
        if total > 0:
            r = below_nb(st, total)
            for q in range(holders):
                if active[q] and not forbid[q] & cb:
                    if r < room[q]:
                        _give_nb(w, q, c, two)
                        room[q] -= 1
                        break
                    r -= room[q]
            continue
        # every holder that may hold c is full: find a path of moves to one with room
        head, tail = 0, 0
        for q in range(holders):
            prev[q] = -2
            if active[q] and not forbid[q] & cb:
                prev[q] = -1
                queue[tail] = q
                tail += 1
        end = -1
        while head < tail and end < 0:
            e = queue[head]
            head += 1
            for f in range(holders):
                if active[f] and prev[f] == -2 and _kinds_nb(w, e, two) & ~forbid[f]:
                    prev[f] = e
                    if room[f] > 0:
                        end = f
                        break
                    queue[tail] = f
                    tail += 1
        if end < 0:
            return False
        f = end
        room[f] -= 1
        while prev[f] >= 0:
            e = prev[f]
            movable = _kinds_nb(w, e, two) & ~forbid[f]
            d = kth_card_nb(movable, below_nb(st, popcount_nb(movable)))
            _take_nb(w, e, d, two)
            _give_nb(w, f, d, two)
            f = e
        _give_nb(w, f, c, two)
    w[me] = h[me]
    if two:
        w[W1 + me] = h[H_PLANE1 + me]
    return True


@njit(cache=True, inline="always")
def _give_nb(w: np.ndarray, q: int, kind: int, two: bool) -> None:
    """Put ``kind`` in holder ``q``'s cards of a world; with two decks a copy, the first
    free physical one (a joker the first free of the four, in ``JOKER_IDS`` order)."""
    b = bit_nb(kind)
    if not two:
        w[q] |= b
        return
    if kind == JOKER_BIT:
        for i in range(4):
            plane = W1 * (i % 2)
            j = bit_nb(JOKER_BIT + i // 2)
            if not w[plane + q] & j:
                w[plane + q] |= j
                return
    if w[q] & b:
        w[W1 + q] |= b
    else:
        w[q] |= b


@njit(cache=True, inline="always")
def _take_nb(w: np.ndarray, q: int, kind: int, two: bool) -> None:
    """Take ``kind`` from holder ``q`` of a world (two decks: the copy given last)."""
    b = bit_nb(kind)
    if not two:
        w[q] &= ~b
        return
    if kind == JOKER_BIT:
        for i in range(3, -1, -1):
            plane = W1 * (i % 2)
            j = bit_nb(JOKER_BIT + i // 2)
            if w[plane + q] & j:
                w[plane + q] &= ~j
                return
    if w[W1 + q] & b:
        w[W1 + q] &= ~b
    else:
        w[q] &= ~b


@njit(cache=True, inline="always")
def _kinds_nb(w: np.ndarray, q: int, two: bool) -> np.uint64:
    """The kinds holder ``q`` of a world holds."""
    return fold_nb(w[q], w[W1 + q]) if two else w[q]


@njit(cache=True, nrt=True)
def pimc_decide_nb(
    pp_row: np.ndarray, st: np.ndarray, s: np.ndarray, h: np.ndarray, tr: np.ndarray,
    seat: int, legal: np.uint64, params: np.ndarray,
) -> tuple[int, int, bool]:
    """(card, joker suit, demand) of ``seat``, a PIMC seat to play (see the module
    docstring)."""
    mc = np.empty(MAX_MOVES, np.int64)
    ms = np.empty(MAX_MOVES, np.int64)
    md = np.empty(MAX_MOVES, np.int64)
    nm = moves_nb(s, h, seat, legal, params, mc, ms, md)
    if nm == 1:
        return mc[0], ms[0], md[0] == 1
    values = np.zeros(nm, np.float64)
    w = np.zeros(2 * W1, np.uint64)
    sw = s.copy()
    hw = h.copy()
    s2 = s.copy()
    h2 = h.copy()
    tr2 = tr.copy()
    ti = np.zeros((1, N_T), np.int8)
    heuristic = np.full(MAX_PLAYERS, POLICY_HEURISTIC, np.int64)
    iw, uw = sample_work_nb()
    _values_nb(pp_row, st, (s, h, tr), seat, params, (mc, ms, md, nm), values,
               (w, sw, hw, s2, h2, tr2, ti, iw, uw), heuristic)
    best = 0
    for i in range(1, nm):
        if values[i] > values[best]:
            best = i
    return mc[best], ms[best], md[best] == 1


@njit(cache=True, nrt=False)
def _values_nb(
    pp_row: np.ndarray, st: np.ndarray, state: tuple[np.ndarray, np.ndarray, np.ndarray],
    seat: int, params: np.ndarray, moves: tuple[np.ndarray, np.ndarray, np.ndarray, int],
    values: np.ndarray, work: tuple[np.ndarray, ...], heuristic: np.ndarray,
) -> None:
    """Add up each move's payouts over the worlds and rollouts into ``values`` (steps 1
    and 2 of the module docstring): ``state`` the play state (``s``, ``h``, ``tr``),
    ``moves`` the moves (cards, suits, demands, how many); ``work`` the other arrays,
    :func:`pimc_decide_nb`'s, which it keeps alive."""
    s, h, tr = state
    mc, ms, md, nm = moves
    w, sw, hw, s2, h2, tr2, ti, iw, uw = work
    worlds = max(1, int(pp_row[PP_WORLDS]))
    rollouts = max(1, int(pp_row[PP_ROLLOUTS]))
    noise = pp_row[PP_NOISE]
    n = s[S_N]
    declarer = s[S_DECLARER]
    two = s[S_DECKS] == 2
    for _ in range(worlds):
        if not sample_into_nb(st, (s, h, tr), seat, w, iw, uw):
            continue  # pragma: no cover - the real deal is always a consistent world
        copy_nb(sw, s, s.shape[0])
        copy_nb(hw, h, h.shape[0])
        for q in range(n):
            hw[q] = w[q]
            if two:
                hw[H_PLANE1 + q] = w[W1 + q]
        if seat != declarer:
            hw[H_DISCARDS] = _kinds_nb(w, n, two)
            if two:
                hw[H_DISCARDS_P0], hw[H_DISCARDS_P1] = w[n], w[W1 + n]
        sw[S_TRACK] = 0
        if sw[S_MODE] == MODE_CALLED and sw[S_REVEALED] == 0:
            # the friend is whoever holds the called card in this world (two decks: there
            # is one when another seat holds a copy, the first to play one)
            sw[S_FRIEND] = -1
            sw[S_KIND] = FRIEND_KIND_SECRET_SOLO
            for q in range(n):
                if q != declarer and has_nb(kinds_held_nb(sw, hw, q), sw[S_CALLED]):
                    sw[S_KIND] = FRIEND_KIND_FRIEND
                    if not two:
                        sw[S_FRIEND] = q
        for i in range(nm):
            for r in range(rollouts):
                copy_nb(s2, sw, sw.shape[0])
                copy_nb(h2, hw, hw.shape[0])
                copy_nb(tr2, tr, tr.shape[0])
                card = copy_of_nb(h2[seat], h2[H_PLANE1 + seat], mc[i]) if two else mc[i]
                apply_play_nb(s2, h2, tr2, seat, card, ms[i], md[i] == 1, params, False, ti, 0)
                play_tricks_nb(st, s2, h2, tr2, heuristic, params, noise if r > 0 else 0.0,
                               False, ti, 0)
                d, f, x, points, _, _ = result_nb(s2, params)
                side = seat == s2[S_DECLARER] or seat == s2[S_FRIEND]
                values[i] += payout_of_nb(s2, seat, d, f, x) + 0.001 * (
                    points if side else -points)
