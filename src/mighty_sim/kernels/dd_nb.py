"""Double-dummy search: what the declarer's side takes against best defence when every
hand is seen, from any point of a one-deck play (docs/rules.md; every special-card rule
comes from the play state machine of :mod:`.play_nb`, the same moves the PIMC player
weighs, :func:`.play_nb.moves_nb`: a card, each suit named for a joker led with power,
the hunter led with or without the demand).

The side is the declarer and the friend the state names (the holder of the called card,
known to the search); in first-trick friend mode the friend is only known once the
first trick is over, so the search starts from trick 2 there. The value is what the
contract counts: the side's points (the discards included), or its tricks in trick-bid
profiles.

:func:`dd_value_nb` is an alpha-beta search with a transposition table of the positions
at a trick's start (keyed on every hand in relative ranks, the leader and the trick;
storing bounds on what the side takes from there on), moves ordered by what they do to
the trick (:func:`_order_nb`), a lead that cut the search at the same ply before tried
first; :func:`dd_reaches_nb` the same search asking only
whether the side reaches a target (a contract makes), which prunes far more;
:func:`dd_target_nb` the value by such searches alone, from a guess;
:func:`minimax_nb` the same game searched exhaustively without any pruning or table, the
yardstick the search is tested against.
"""

from __future__ import annotations

import numpy as np

from ._jit import njit
from .borrow_nb import borrow
from .layout import MAX_PLAYERS, N_T
from .params import (
    BID_TRICKS,
    HUNTER_LEAD_DEMAND,
    HUNTER_NEXT_PLAYER,
    MODE_FIRST_TRICK,
    P_BID_UNIT,
    P_HAND_SIZE,
    P_HUNTED_POWERLESS,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_JOKER_POWERLESS,
    P_TOTAL_POINTS,
)
from .play_nb import (
    H_CANT,
    H_DISCARDS,
    H_SEEN,
    MAX_MOVES,
    N_H,
    N_S,
    S_CAPTURED,
    S_DECLARER,
    S_DEMANDED,
    S_FRIEND,
    S_FRIEND_HAS_LED,
    S_JOKER_SUIT,
    S_K,
    S_LEADER,
    S_MODE,
    S_N,
    S_TRICK_NO,
    S_TRUMP,
    S_WON,
    apply_play_nb,
    legal_now_nb,
    moves_nb,
    to_play_nb,
)
from .policy_nb import dump_value_nb, winners_nb
from .rng_nb import GOLDEN, mix64_nb
from .rules_nb import (
    JOKER_BIT,
    POINT_MASK,
    above_nb,
    bit_nb,
    has_nb,
    highest_card_nb,
    hunter_of_nb,
    in_tricks_nb,
    is_point_nb,
    lowest_card_nb,
    mighty_of_nb,
    pext_nb,
    popcount_nb,
    suit_mask_nb,
    suit_to_follow_nb,
    trick_winner_nb,
)

_RANKS = np.uint64(0x1FFF)  # a suit's 13 cards, shifted down to bit 0
MAX_PLIES = 64
"""Cards left to play, at most (a one-deck deal plays at most 53)."""
TT_BITS = 22
"""The transposition table's entries, at most: 2**TT_BITS, from 40 cards left (trick 3
of `standard`) up; 2**(TT_BITS - 2) at most with fewer, and fewer still for short
endings (:func:`table_bits_nb`)."""


USE_PRUNING, USE_TABLE, USE_BOUNDS, USE_EQUALS, USE_ORDER = 1, 2, 4, 8, 16
"""The parts of the search (:func:`dd_search_nb`): alpha-beta cuts, the table of
positions at a trick's start, the bounds from the points still in play, equal cards
searched once, moves ordered by what they do to the trick."""
USE_ALL = 31


@njit(cache=True)
def side_of_nb(s: np.ndarray) -> int:
    """Bit mask of the declarer's side: the declarer and the friend, when there is one;
    -1 while a first-trick friend is still unknown."""
    if s[S_MODE] == MODE_FIRST_TRICK and s[S_TRICK_NO] == 1:
        return -1
    side = 1 << s[S_DECLARER]
    if s[S_FRIEND] >= 0:
        side |= 1 << s[S_FRIEND]
    return side


@njit(cache=True)
def _taken_nb(s: np.ndarray, params: np.ndarray, side: int) -> int:
    """What the side has taken so far, counted as at the end of the play (``result_nb``):
    its tricks, or the points no opponent has taken (the discards' among them)."""
    if params[P_BID_UNIT] == BID_TRICKS:
        tricks = 0
        for p in range(s[S_N]):
            if (side >> p) & 1:
                tricks += s[S_WON + p]
        return tricks
    others = 0
    for p in range(s[S_N]):
        if not (side >> p) & 1:
            others += s[S_CAPTURED + p]
    return params[P_TOTAL_POINTS] - others


@njit(cache=True)
def _range_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
              side: int) -> tuple[int, int]:
    """The least and the most the side can end with from here: what it has, and that
    plus every point (or trick) still in play."""
    if params[P_BID_UNIT] == BID_TRICKS:
        have = _taken_nb(s, params, side)
        return have, have + params[P_HAND_SIZE] - s[S_TRICK_NO] + 1
    in_play = np.uint64(0)
    for p in range(s[S_N]):
        in_play |= h[p]
    for i in range(s[S_K]):
        in_play |= bit_nb(tr[i])
    most = _taken_nb(s, params, side)  # every point no opponent has taken
    return most - popcount_nb(in_play & POINT_MASK), most


@njit(cache=True)
def _key_nb(s: np.ndarray, h: np.ndarray, params: np.ndarray, canon: np.ndarray
            ) -> np.uint64:
    """What the rest of the play from a trick's start depends on, hashed: every hand in
    relative ranks, the leader, the trick number, whether the friend has led (a 20-NT
    lead request). Relative ranks: within a suit, the cards still in play keep their
    order and their point value but not their rank (a hand of 5 and 9 of a suit whose
    2, 3, 4, 6, 7, 8 are gone plays as one of 2 and 3), so positions that differ only by
    which low cards went share an entry; where Mighty and the hunter are (they have rules
    of their own) is part of the key. The side and the contract are the search's own.
    ``canon`` is work space of at least ``MAX_PLAYERS`` entries."""
    n = s[S_N]
    trump = s[S_TRUMP]
    mighty = mighty_of_nb(params, trump)
    hunter = hunter_of_nb(params, trump)
    z = np.uint64(s[S_TRICK_NO] * 16 + s[S_LEADER] * 2 + s[S_FRIEND_HAS_LED])
    where = 0  # the seats of Mighty and the hunter, 15 when gone
    for p in range(n):
        hand = h[p]
        canon[p] = hand & bit_nb(JOKER_BIT)
        if has_nb(hand, mighty):
            where |= p + 1
        if hunter >= 0 and has_nb(hand, hunter):
            where |= (p + 1) << 4
    alive = np.uint64(0)
    for p in range(n):
        alive |= h[p]
    for suit in range(4):
        # a card's relative rank is its place among the suit's cards in play of its
        # kind (plain from 0, points from 8): the hand's bits gathered at the set bits of
        # those cards
        shift = np.uint64(suit * 13)
        points = (alive & POINT_MASK) >> shift & _RANKS
        plain = (alive & ~POINT_MASK) >> shift & _RANKS
        for p in range(n):
            x = h[p] >> shift & _RANKS
            canon[p] |= (pext_nb(x, plain) | pext_nb(x, points) << np.uint64(8)) << shift
    z = mix64_nb(z * GOLDEN + np.uint64(where))
    for p in range(n):
        z = mix64_nb(z * GOLDEN + canon[p])
    return z | np.uint64(1)  # never 0, the empty entry


@njit(cache=True)
def distinct_nb(s: np.ndarray, h: np.ndarray, seat: int, legal: np.uint64,
                params: np.ndarray) -> np.uint64:
    """``legal`` without the cards that play as a higher card of the same hand: the next
    card up of the same suit with the same point value, every card between them gone
    (in finished tricks or the discards); the joker, Mighty and the hunter, which have
    rules of their own, are kept."""
    trump = s[S_TRUMP]
    hunter = hunter_of_nb(params, trump)
    special = bit_nb(JOKER_BIT) | bit_nb(mighty_of_nb(params, trump))
    if hunter >= 0:
        special |= bit_nb(hunter)
    gone = h[H_SEEN] | h[H_DISCARDS]
    hand = h[seat] & ~special
    out = legal
    x = legal & ~special
    while x:
        c = lowest_card_nb(x)
        x &= ~bit_nb(c)
        above = hand & suit_mask_nb(c // 13) & above_nb(c)
        if not above:
            continue
        c2 = lowest_card_nb(above)
        between = above_nb(c) & (bit_nb(c2) - np.uint64(1))
        if is_point_nb(c) == is_point_nb(c2) and not between & ~gone:
            out &= ~bit_nb(c)
    return out


@njit(cache=True)
def follower_wins_nb(s: np.ndarray, tr: np.ndarray, params: np.ndarray, cards: np.uint64
                     ) -> tuple[bool, np.uint64, int]:
    """For the seat to play in a trick under way: (whether one mask tells, ``cards``
    that would take the trick, the seat winning it so far). One mask tells (the test of
    the batch kernel's heuristic follower, :func:`.policy_nb.winners_nb`) unless a card
    played can change what the cards before it are worth: a powerless joker led (the
    second card sets the suit), the hunter under the next-player rule with its power
    over the joker. Instead of the trick's winner found anew for every card."""
    k = s[S_K]
    n = s[S_N]
    trump = s[S_TRUMP]
    trick_no = s[S_TRICK_NO]
    powered_lead = not in_tricks_nb(params[P_JOKER_POWERLESS], trick_no)
    if (params[P_HUNTER_RULE] == HUNTER_NEXT_PLAYER and params[P_HUNTED_POWERLESS] != 0) or (
            k == 1 and tr[0] == JOKER_BIT and not powered_lead):
        return False, np.uint64(0), -1
    idx = trick_winner_nb(tr, k, trump, trick_no, s[S_JOKER_SUIT], s[S_DEMANDED] == 1,
                          params)
    win_seat = s[S_LEADER] + idx
    if win_seat >= n:
        win_seat -= n
    joker_power = powered_lead
    hunter = hunter_of_nb(params, trump)
    if (s[S_DEMANDED] == 1 and params[P_HUNTER_RULE] == HUNTER_LEAD_DEMAND and hunter >= 0
            and tr[0] == hunter and in_tricks_nb(params[P_HUNTER_TRICKS], trick_no)):
        joker_power = powered_lead and params[P_HUNTED_POWERLESS] == 0
    suit = suit_to_follow_nb(tr, k, trump, trick_no, s[S_JOKER_SUIT], params)
    wins = winners_nb(cards, tr[idx], suit, trump, mighty_of_nb(params, trump), joker_power)
    return True, wins, win_seat


@njit(cache=True)
def _order_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, side: int,
              params: np.ndarray, mc: np.ndarray, nm: int, order: np.ndarray,
              sc: np.ndarray) -> None:
    """``order[:nm]``: the moves ``mc[:nm]`` of ``seat`` in the order they are searched,
    the likeliest to cut first. A lead: Mighty and the joker, then cards no other hand
    can beat in their suit, then low cards of suits whose top card a partner holds, then
    the rest high to low. A follower: the cheapest card that takes the trick so far
    (``dump_value_nb``; which cards take it: :func:`follower_wins_nb`), then the cards
    that leave it to a partner, points first, then those that leave it to an opponent,
    cheapest first and points last. (Measured against high cards first on random and
    played positions of 6 and 7 tricks left: 25-45% fewer positions in all.) ``sc`` is
    work space for the moves' scores."""
    k = s[S_K]
    n = s[S_N]
    trump = s[S_TRUMP]
    mighty = mighty_of_nb(params, trump)
    mine = (side >> seat) & 1
    others = np.uint64(0)  # a lead's: the cards of the other hands, of the partners'
    partner = np.uint64(0)
    for p in range(n if k == 0 else 0):
        if p != seat:
            others |= h[p]
            if (side >> p) & 1 == mine:
                partner |= h[p]
    fast, wins, win_seat = False, np.uint64(0), -1
    if k > 0:
        cards = np.uint64(0)
        for i in range(nm):
            cards |= bit_nb(mc[i])
        fast, wins, win_seat = follower_wins_nb(s, tr, params, cards)
    seat_k = s[S_LEADER] + k
    if seat_k >= n:
        seat_k -= n
    for i in range(nm):
        c = mc[i]
        cost = dump_value_nb(c, trump, mighty)
        if k == 0:
            if c == mighty or c == JOKER_BIT:
                v = 3000
            elif not others & suit_mask_nb(c // 13) & above_nb(c) & ~bit_nb(mighty):
                v = 2000 + cost
            else:
                v = cost
                rest = others & suit_mask_nb(c // 13) & ~bit_nb(mighty)
                if rest and has_nb(partner, highest_card_nb(rest)):
                    v = 1500 - cost  # low to a partner's top card
        else:
            if fast:
                takes = wins & bit_nb(c) != 0
                w = seat_k if takes else win_seat
            else:
                tr[k] = c
                idx = trick_winner_nb(tr, k + 1, trump, s[S_TRICK_NO], s[S_JOKER_SUIT],
                                      s[S_DEMANDED] == 1, params)
                tr[k] = -1
                takes = idx == k
                w = s[S_LEADER] + idx
                if w >= n:
                    w -= n
            pt = 1 if is_point_nb(c) else 0
            if takes:
                v = 2000 - cost
            elif (side >> w) & 1 == mine:
                v = 1000 + 200 * pt - cost
            else:
                v = -200 * pt - cost
        sc[i] = v * MAX_MOVES + i  # ties (a joker's named suits): a fixed order
    for i in range(nm):
        order[i] = i
    for i in range(1, nm):  # insertion sort, highest first
        j = i
        while j > 0 and sc[order[j - 1]] < sc[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1


@njit(cache=True, inline="always")
def _move_code_nb(card: int, suit: int, demand: int) -> int:
    """A move as one number: the card, the suit named for a joker led, the demand."""
    return card | (suit + 1) << 6 | demand << 9


@njit(cache=True)
def _first_nb(mc: np.ndarray, ms: np.ndarray, md: np.ndarray, order: np.ndarray, nm: int,
              code: int) -> None:
    """Move the move ``code`` (``_move_code_nb``; -1 none), if it is among the ``nm``
    moves, to the front of ``order``, the others keeping their order."""
    if code < 0:
        return
    for j in range(nm):
        i = order[j]
        if _move_code_nb(mc[i], ms[i], md[i]) == code:
            while j > 0:
                order[j] = order[j - 1]
                j -= 1
            order[0] = i
            return


_UNBOUNDED = 1 << 20  # a bound not known
_OFFSET = 1 << 21
_LOW32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, inline="always")
def _pack_nb(lo: int, hi: int) -> np.uint64:
    """A table entry's bounds in one word, beside its key (one cache line an entry)."""
    return np.uint64(lo + _OFFSET) << np.uint64(32) | np.uint64(hi + _OFFSET)


@njit(cache=True, inline="always")
def _unpack_nb(x: np.uint64) -> tuple[int, int]:
    """The bounds ``_pack_nb`` packed."""
    return np.int64(x >> np.uint64(32)) - _OFFSET, np.int64(x & _LOW32) - _OFFSET


@njit(cache=True)
def _solve_nb(s0: np.ndarray, h0: np.ndarray, tr0: np.ndarray, params: np.ndarray,
              uses: int, nodes: np.ndarray, tt: np.ndarray,
              bits: int, ss: np.ndarray, hs: np.ndarray, ts: np.ndarray, moves: np.ndarray,
              frame: np.ndarray, keys: np.ndarray, canon: np.ndarray, ti: np.ndarray,
              lo: int, hi: int, salt: np.uint64) -> int:
    """The side's final count from a position: fail-soft alpha-beta with the parts of
    the search ``uses`` names, every line with none. The table's keys are the positions'
    (:func:`_key_nb`) xor ``salt`` (even): a table that held another position's search
    is used as it is under another salt, its entries never matching. Iterative, one frame a ply
    (``ss``/``hs``/``ts`` the positions of the line searched, ``moves`` each ply's
    moves and their order, ``frame`` each ply's window, progress and bounds): Numba's cache does
    not reload recursive functions. Positions at a trick's start keep in the table the
    bounds found on what the side takes from there on. Every array is the caller's and
    borrowed (:mod:`.borrow_nb`): the views taken a ply are not reference-counted, which
    was a third of the search's time."""
    s0, h0, tr0, params, nodes = borrow(s0), borrow(h0), borrow(tr0), borrow(params), \
        borrow(nodes)
    tt, keys, ti = borrow(tt), borrow(keys), borrow(ti)
    canon = borrow(canon)
    ss, hs, ts, moves, frame = borrow(ss), borrow(hs), borrow(ts), borrow(moves), \
        borrow(frame)
    side = side_of_nb(s0)
    if side < 0:
        return -1
    prune = uses & USE_PRUNING != 0
    mc, ms, md, mo = moves[0], moves[1], moves[2], moves[3]
    sc = moves[4, 0]  # the move order's work space
    # each ply's window, the window searched (what its result bounds), best so far,
    # moves, next move, table slot, taken so far, whether the side is to play
    alpha, beta, w0, w1, best = frame[0], frame[1], frame[2], frame[3], frame[4]
    nm, nxt, slot, now, ours = frame[5], frame[6], frame[7], frame[8], frame[9]
    rlo, rhi = frame[10], frame[11]  # the least and most the side can end with (_range_nb)
    # the move of the best value so far; a lead's ply: its last lead to cut (a killer,
    # tried first at the ply's next positions: on heuristic-played `standard` deals from
    # tricks 5 and 4, 11% and 15% fewer positions; at every ply, 19% and 6%)
    bm, killer = frame[12], frame[13]
    killer[:] = -1
    ss[0, :] = s0
    hs[0, :] = h0
    ts[0, :] = tr0
    alpha[0], beta[0] = lo, hi
    d = 0
    entering = True  # at a new position of ply d; else back at ply d with a move's value
    value = 0
    while True:
        if entering:
            entering = False
            nodes[0] += 1
            s, h, tr = ss[d], hs[d], ts[d]
            known = s[S_TRICK_NO] > params[P_HAND_SIZE]
            if known:  # the play is over
                value = _taken_nb(s, params, side)
            elif uses & USE_BOUNDS:  # what the side can still gain or lose bounds the value
                if s[S_K] == 0 or d == 0:  # within a trick nothing is taken: the ply before's
                    rlo[d], rhi[d] = _range_nb(s, h, tr, params, side)
                else:
                    rlo[d], rhi[d] = rlo[d - 1], rhi[d - 1]
                lo, hi = rlo[d], rhi[d]
                if hi <= alpha[d]:
                    value, known = hi, True
                elif lo >= beta[d]:
                    value, known = lo, True
            if not known:
                slot[d] = -1
                if uses & USE_TABLE and s[S_K] == 0:
                    now[d] = _taken_nb(s, params, side)
                    keys[d] = _key_nb(s, h, params, canon) ^ salt
                    k = np.int64(keys[d] >> np.uint64(64 - bits))
                    slot[d] = k
                    if tt[k, 0] == keys[d]:
                        lo, hi = _unpack_nb(tt[k, 1])
                        lo, hi = now[d] + lo, now[d] + hi
                        if lo >= beta[d] or lo == hi:
                            value, known = lo, True
                        elif hi <= alpha[d]:
                            value, known = hi, True
                        else:
                            alpha[d], beta[d] = max(alpha[d], lo), min(beta[d], hi)
            if known:
                d -= 1
                if d < 0:
                    return value
            else:
                w0[d], w1[d] = alpha[d], beta[d]
                seat = to_play_nb(s)
                legal = legal_now_nb(s, h, tr, seat, params)
                if uses & USE_EQUALS:
                    legal = distinct_nb(s, h, seat, legal, params)
                nm[d] = moves_nb(s, h, seat, legal, params, mc[d], ms[d], md[d])
                if uses & USE_ORDER:
                    _order_nb(s, h, tr, seat, side, params, mc[d], nm[d], mo[d], sc)
                else:
                    mo[d, :nm[d]] = np.arange(nm[d])
                if uses & USE_ORDER and s[S_K] == 0:
                    _first_nb(mc[d], ms[d], md[d], mo[d], nm[d], killer[d])
                nxt[d] = -1  # no move searched yet
                ours[d] = (side >> seat) & 1
                best[d] = -1 if ours[d] else 1 << 30
        if nxt[d] >= 0:  # the value of ply d's move nxt[d]
            if ours[d]:
                if value > best[d]:
                    best[d], bm[d] = value, mo[d, nxt[d]]
                if prune and best[d] > alpha[d]:
                    alpha[d] = best[d]
            else:
                if value < best[d]:
                    best[d], bm[d] = value, mo[d, nxt[d]]
                if prune and best[d] < beta[d]:
                    beta[d] = best[d]
        nxt[d] += 1
        if nxt[d] < nm[d] and not (prune and alpha[d] >= beta[d]):
            i = mo[d, nxt[d]]
            ss[d + 1, :] = ss[d]
            hs[d + 1, :H_CANT] = hs[d, :H_CANT]  # one deck, no inferences: nothing beyond
            ts[d + 1, :] = ts[d]
            apply_play_nb(ss[d + 1], hs[d + 1], ts[d + 1], to_play_nb(ss[d]), mc[d, i],
                          ms[d, i], md[d, i] == 1, params, False, ti, 0, 0)
            alpha[d + 1], beta[d + 1] = alpha[d], beta[d]
            d += 1
            entering = True
            continue
        value = best[d]  # every move searched, or a cut: the value of ply d
        if ss[d, S_K] == 0 and (value >= w1[d] if ours[d] else value <= w0[d]):  # a cut
            i = bm[d]
            killer[d] = _move_code_nb(mc[d, i], ms[d, i], md[d, i])
        k = slot[d]
        if k >= 0:
            lo, hi = -_UNBOUNDED, _UNBOUNDED  # a new entry: nothing known yet
            if tt[k, 0] == keys[d]:
                lo, hi = _unpack_nb(tt[k, 1])
            if value > w0[d]:  # not an upper bound only: at least value
                lo = max(lo, value - now[d])
            if value < w1[d]:  # not a lower bound only: at most value
                hi = min(hi, value - now[d])
            tt[k, 0] = keys[d]
            tt[k, 1] = _pack_nb(lo, hi)
        d -= 1
        if d < 0:
            return value


@njit(cache=True)
def dd_search_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                 nodes: np.ndarray, uses: int) -> int:
    """:func:`dd_value_nb` with only the parts of the search that ``uses`` names
    (``USE_*`` bits; each gives the same value, faster): what the benchmark weighs."""
    return dd_window_nb(s, h, tr, params, nodes, uses, -1, 1 << 30)


@njit(cache=True)
def table_bits_nb(s: np.ndarray, h: np.ndarray) -> int:
    """The table's size in bits for a search from a position: smaller for fewer cards
    left (clearing the table is most of a short ending's time). The largest table pays
    only for the longest searches: with 2**22 entries instead of 2**20, the par from
    trick 2 of heuristic-played `standard` deals took 1.34 times fewer positions and
    1.23 times less time (8 deals), from tricks 4 and 5 the same positions and time
    within 3%."""
    left = 0
    for p in range(s[S_N]):
        left += popcount_nb(h[p])
    return min(TT_BITS if left >= 40 else TT_BITS - 2, 8 + left // 2)


@njit(cache=True)
def work_nb(bits: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                       np.ndarray, np.ndarray, np.ndarray]:
    """The arrays of a search (:func:`_solve_nb`): an empty table of 2**``bits``
    entries, then the work space of the plies; a caller solving many positions keeps
    them (:func:`dd_target_work_nb`)."""
    tt = np.zeros((1 << bits, 2), np.uint64)
    top = MAX_PLIES + 1
    return (tt, np.zeros((top, N_S), np.int64),
            np.zeros((top, N_H), np.uint64), np.zeros((top, MAX_PLAYERS), np.int64),
            np.zeros((5, top, MAX_MOVES), np.int64), np.zeros((14, top), np.int64),
            np.zeros(top, np.uint64), np.zeros(MAX_PLAYERS, np.uint64),
            np.zeros((1, N_T), np.int64))


@njit(cache=True)
def dd_window_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                 nodes: np.ndarray, uses: int, lo: int, hi: int) -> int:
    """The search within the window ``lo`` < value < ``hi``: the value when it lies in
    the window, else a bound on it on the side it falls (at most ``lo``, at least
    ``hi``); -1 before a first-trick friend is known."""
    if side_of_nb(s) < 0:
        return -1
    bits = table_bits_nb(s, h) if uses & USE_TABLE else 0
    tt, ss, hs, ts, moves, frame, keys, canon, ti = work_nb(bits)
    return _solve_nb(s, h, tr, params, uses, nodes, tt, bits, ss, hs, ts,
                     moves, frame, keys, canon, ti, lo, hi, np.uint64(0))


@njit(cache=True)
def dd_target_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                 nodes: np.ndarray, guess: int, lo: int, hi: int) -> int:
    """:func:`dd_value_nb` as far as it lies in [``lo``, ``hi``] (``lo`` for a value of
    at most ``lo``, at least ``hi`` for one of at least ``hi``), found by null-window
    searches alone ("does the side reach at least T?"), one table kept from each search
    to the next (the bounds it holds hold for any window): T first the ``guess``, then
    the bound each search returns, until the least and the most the side can end with
    meet. A good guess (what the players took) saves searches: on `standard` deals
    played by heuristic players, 1.2 times fewer positions than one search with the
    widest window from trick 5, 1.3 from trick 3, 12 on whole deals (tables of 2**20
    entries both). -1 before a first-trick friend is known."""
    return dd_target_work_nb(s, h, tr, params, nodes, guess, lo, hi,
                             work_nb(table_bits_nb(s, h)), 0)


@njit(cache=True)
def dd_target_work_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                      nodes: np.ndarray, guess: int, lo: int, hi: int,
                      work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                  np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                  np.ndarray], solve: int) -> int:
    """:func:`dd_target_nb` in the arrays ``work`` (:func:`work_nb`, a table of at
    least ``table_bits_nb`` bits) as they are, ``solve`` numbering the search: a caller
    solving many positions gives each its own number and keeps the arrays, which a
    solve need not clear (clearing a fresh table costs a position 1 to 5 ms)."""
    side = side_of_nb(s)
    if side < 0:
        return -1
    tt, ss, hs, ts, moves, frame, keys, canon, ti = work
    bits = table_bits_nb(s, h)
    salt = mix64_nb(np.uint64(solve) * GOLDEN) & ~np.uint64(1)
    lower, upper = _range_nb(s, h, tr, params, side)  # the value lies in [lower, upper]
    lower, upper = max(lower, lo), min(upper, hi)
    g = guess
    while lower < upper:
        target = min(max(g, lower + 1), upper)
        g = _solve_nb(s, h, tr, params, USE_ALL, nodes, tt, bits, ss, hs,
                      ts, moves, frame, keys, canon, ti, target - 1, target, salt)
        if g < target:  # at most g
            upper = g
        else:  # at least g
            lower = g
    return lower


@njit(cache=True)
def dd_value_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                nodes: np.ndarray) -> int:
    """What the declarer's side takes from play state ``s``/``h``/``tr`` (``play_nb``;
    not tracking inferences) with every hand seen and best play on both sides, by
    alpha-beta search; -1 in first-trick friend mode before the first trick is over.
    ``nodes[0]`` is increased by the positions searched."""
    return dd_search_nb(s, h, tr, params, nodes, USE_ALL)


@njit(cache=True)
def dd_reaches_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                  nodes: np.ndarray, target: int) -> bool:
    """Whether the declarer's side takes at least ``target`` with best play on both
    sides (a contract makes when ``target`` is its bid): the search with the null window
    just below ``target``: on played `standard` deals from tricks 5 and 4, a third and a
    quarter of the positions of :func:`dd_value_nb`. False before a first-trick friend is known."""
    return dd_window_nb(s, h, tr, params, nodes, USE_ALL, target - 1, target) >= target


@njit(cache=True)
def minimax_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
               nodes: np.ndarray) -> int:
    """:func:`dd_value_nb` by searching every line of play to its end, nothing pruned."""
    return dd_search_nb(s, h, tr, params, nodes, 0)
