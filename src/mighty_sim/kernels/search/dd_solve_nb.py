"""The double-dummy search's inner loop (:mod:`.dd_nb`): the position of a ply in a few
words instead of the play state machine's arrays.

A ply keeps the hands, the cards out of play, the trick's cards and the trick's running
state: the suit to follow, the card winning so far and whether a joker in the trick has
power. A seat's legal cards and a card's effect on that state are the batch kernel's own
(:func:`.tricks_nb.legal_cards_nb`, :func:`.tricks_nb.trick_after_nb`): a card played
updates the winner by one mask test, and neither a follower's legal cards nor the move
order scan the trick. The moves, the table, the bounds and the order are those
:mod:`.dd_nb` describes.

Ply ``d`` of the work arrays (:func:`.dd_nb.work_nb`): ``fs[d]`` the scalars at the
``F_*`` indices, ``hd[d]`` each seat's hand, then the cards out of play at ``D_GONE``
(finished tricks and the discards) and the trick's cards at ``D_TRICK``, ``tc[d]`` the
trick's cards in the order played; ``keys[:, d]`` its table key, the cards whose rank
decided its value (:mod:`.dd_table_nb`) and its hands in relative ranks.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit, var
from ..borrow_nb import borrow
from ..layout import MAX_PLAYERS
from ..loop.play_nb import (
    H_DISCARDS,
    H_SEEN,
    MAX_MOVES,
    S_CAPTURED,
    S_DEMANDED,
    S_FRIEND,
    S_FRIEND_HAS_LED,
    S_HUNTER,
    S_JOKER_SUIT,
    S_K,
    S_LEADER,
    S_N,
    S_REQUEST,
    S_TRICK_NO,
    S_TRUMP,
    S_WON,
    moves_of_nb,
)
from ..loop.tricks_nb import TrickRules, legal_cards_nb, trick_after_nb, trick_rules_nb
from ..params import (
    BID_TRICKS,
    HUNTER_LEAD_DEMAND,
    P_BID_UNIT,
    P_HAND_SIZE,
    P_HUNTED_POWERLESS,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_JOKER_POWERLESS,
    P_TOTAL_POINTS,
)
from ..players.play_policy_nb import dump_value_nb, winners_nb
from ..rules.rules_nb import (
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
    popcount_nb,
    suit_mask_nb,
    suit_to_follow_nb,
    trick_winner_nb,
)
from .dd_table_nb import (
    WAYS,
    equals_mark_nb,
    frame_key_nb,
    in_play_nb,
    pattern_nb,
    probe_nb,
    rank_mark_nb,
    ranks_of_nb,
    relative_nb,
    store_nb,
    suit_counts_nb,
    trick_mark_nb,
)

USE_PRUNING, USE_TABLE, USE_BOUNDS, USE_EQUALS = 1, 2, 4, 8
USE_ORDER, USE_LAST, USE_DECIDED, USE_RANKS = 16, 32, 64, 128
"""The parts of the search: alpha-beta cuts, the table of positions at a trick's start,
the bounds from the points still in play, equal cards searched once, moves ordered by
what they do to the trick, the last trick played out without a search, a trick's
points counted once no card still to come can take it, table entries that hold for
every position with the same cards deciding (:mod:`.dd_table_nb`; without it, for the
positions of the same cards in relative ranks)."""

# a ply's scalars (fs)
F_LEADER, F_TRICK_NO, F_K, F_JOKER_SUIT, F_DEMANDED, F_FRIEND_HAS_LED = 0, 1, 2, 3, 4, 5
F_OTHERS, F_SIDE_TRICKS, F_SUIT, F_WIN, F_POWER, F_TRICK_POINTS = 6, 7, 8, 9, 10, 11
N_F = 12
# a ply's masks (hd): the hands at 0..n-1, then
D_GONE, D_TRICK = MAX_PLAYERS, MAX_PLAYERS + 1
N_D = MAX_PLAYERS + 2

_JOKER = np.uint64(1) << np.uint64(JOKER_BIT)
_NONE = np.uint64(0)
GAVE_UP = -(1 << 22)
"""What a search returns when it ends at its limit of positions, unanswered."""


Work = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
             np.ndarray]
"""A search's arrays (:func:`.dd_nb.work_nb`): the table, then the plies' work space."""


@njit(cache=True, inline="always")
def move_code_nb(card: int, suit: int, demand: int) -> int:
    """A move as one number: the card, the suit named for a joker led, the demand."""
    return card | (suit + 1) << 6 | demand << 9


@njit(cache=True, inline="always")
def distinct_of_nb(hand: np.uint64, gone: np.uint64, legal: np.uint64, special: np.uint64
                   ) -> np.uint64:
    """``legal`` without the cards that play as a higher card of the same hand: the next
    card up of the same suit with the same point value, every card between them out of
    play; the ``special`` cards (the joker, Mighty, the hunter) are kept."""
    hand = hand & ~special
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
def load_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray, side: int,
            f: np.ndarray, hd: np.ndarray, tc: np.ndarray) -> None:
    """A play state ``s``/``h``/``tr`` (:mod:`.play_nb`, one deck) as a ply: ``f``,
    ``hd``, ``tc``; a trick under way with its running state found from its cards."""
    n = s[S_N]
    trump = s[S_TRUMP]
    trick_no = s[S_TRICK_NO]
    k = s[S_K]
    for p in range(n):
        hd[p] = h[p]
    hd[D_GONE] = h[H_SEEN] | h[H_DISCARDS]
    others, side_tricks = 0, 0
    for p in range(n):
        if (side >> p) & 1:
            side_tricks += s[S_WON + p]
        else:
            others += s[S_CAPTURED + p]
    f[F_LEADER] = s[S_LEADER]
    f[F_TRICK_NO] = trick_no
    f[F_K] = k
    f[F_JOKER_SUIT] = s[S_JOKER_SUIT]
    f[F_DEMANDED] = s[S_DEMANDED]
    f[F_FRIEND_HAS_LED] = s[S_FRIEND_HAS_LED]
    f[F_OTHERS] = others
    f[F_SIDE_TRICKS] = side_tricks
    in_trick = _NONE
    points = 0
    for i in range(k):
        tc[i] = tr[i]
        in_trick |= bit_nb(tr[i])
        if is_point_nb(tr[i]):
            points += 1
    hd[D_TRICK] = in_trick
    f[F_TRICK_POINTS] = points
    powered_lead = not in_tricks_nb(params[P_JOKER_POWERLESS], trick_no)
    power = powered_lead
    f[F_SUIT], f[F_WIN] = -1, 0
    if k > 0:
        demanded = s[S_DEMANDED] == 1
        hunter = s[S_HUNTER]
        if (demanded and params[P_HUNTER_RULE] == HUNTER_LEAD_DEMAND and hunter >= 0
                and in_tricks_nb(params[P_HUNTER_TRICKS], trick_no) and tr[0] == hunter):
            power = powered_lead and params[P_HUNTED_POWERLESS] == 0
        f[F_SUIT] = suit_to_follow_nb(tr, k, trump, trick_no, s[S_JOKER_SUIT], params)
        f[F_WIN] = trick_winner_nb(tr, k, trump, trick_no, s[S_JOKER_SUIT], demanded, params)
    f[F_POWER] = 1 if power else 0


@njit(cache=True, inline="always")
def range_nb(f: np.ndarray, hp: np.ndarray, n: int, params: np.ndarray) -> tuple[int, int]:
    """The least and the most the side can end with from ply ``f``/``hp``: what it has
    taken (its tricks, or the points no opponent has taken, the discards' among them),
    and that plus every point (or trick) still in play."""
    if params[P_BID_UNIT] == BID_TRICKS:
        have = f[F_SIDE_TRICKS]
        return have, have + params[P_HAND_SIZE] - f[F_TRICK_NO] + 1
    most = params[P_TOTAL_POINTS] - f[F_OTHERS]
    in_play = hp[D_TRICK]
    for p in range(n):
        in_play |= hp[p]
    return most - popcount_nb(in_play & POINT_MASK), most


@njit(cache=True)
def solve_nb(pos: tuple[np.ndarray, np.ndarray, np.ndarray], params: np.ndarray,
             side: int, uses: int, nodes: np.ndarray, work: Work, bits: int,
             lo: int, hi: int, tag: np.uint64, limit: int) -> int:
    """The side's final count from a play state ``pos`` (``s``, ``h``, ``tr``) in the
    search arrays ``work`` (``tt``, ``fs``, ``hd``, ``tc``, ``moves``, ``frame``,
    ``keys``, :func:`.dd_nb.work_nb`): fail-soft alpha-beta with the parts of
    the search ``uses`` names, every line with none (:func:`.dd_nb.dd_window_nb` and
    the rest describe the search); :data:`GAVE_UP` as soon as ``nodes[0]`` passes
    ``limit`` > 0 (the table then holds only what searches ended, which stays true).
    ``tag`` names the search in the table (:mod:`.dd_table_nb`): a table that held
    other searches (other tags) is used as it is, and the search finds it as a fresh
    one. Iterative, one frame a ply
    (``fs``/``hd``/``tc`` the positions of the line searched, ``moves`` each ply's moves
    and their order, ``frame`` each ply's window, progress and bounds, ``keys`` each
    ply's table key and the cards that decided its value): Numba's cache
    does not reload recursive functions. Every array is the caller's and borrowed
    (:mod:`.borrow_nb`): the views taken a ply are not reference-counted."""
    s0, h0, tr0 = pos
    tt, fs, hd, tc, moves, frame, keys = work
    s0, h0, tr0, params, nodes = borrow(s0), borrow(h0), borrow(tr0), borrow(params), \
        borrow(nodes)
    tt, keys = borrow(tt), borrow(keys)
    fs, hd, tc, moves, frame = borrow(fs), borrow(hd), borrow(tc), borrow(moves), \
        borrow(frame)
    # -- the contract and the rules, for the whole search ------------------------------
    n = s0[S_N]
    trump = s0[S_TRUMP]
    friend = s0[S_FRIEND]
    request = s0[S_REQUEST]
    hunter = s0[S_HUNTER]
    hand_size = params[P_HAND_SIZE]
    by_tricks = params[P_BID_UNIT] == BID_TRICKS
    total = params[P_TOTAL_POINTS]
    r = trick_rules_nb(params, trump, hunter)
    mighty = r.mighty
    key_hunter = hunter_of_nb(params, trump)
    special = _JOKER | r.mighty_bit
    if key_hunter >= 0:
        special |= bit_nb(key_hunter)
    prune = uses & USE_PRUNING != 0
    ranks = uses & USE_RANKS != 0  # else every card is named and no marks are kept
    while (1 << bits) < WAYS:  # a bucket at least (work_nb's table has one at least)
        bits += 1
    # -- the frames ----------------------------------------------------------------------
    mc, ms, md, mo = moves[0], moves[1], moves[2], moves[3]
    sc = moves[4, 0]  # the move order's work space
    # each ply's window, the window searched (what its result bounds), best so far,
    # moves, next move, whether it asked the table, taken so far, whether the side is to play
    alpha, beta, w0, w1, best = frame[0], frame[1], frame[2], frame[3], frame[4]
    nm, nxt, slot, now, ours = frame[5], frame[6], frame[7], frame[8], frame[9]
    rlo, rhi = frame[10], frame[11]  # the least and most the side can end with
    # the move of the best value so far; a lead's ply: its last lead to cut (a killer,
    # tried first at the ply's next positions: on heuristic-played `standard` deals from
    # tricks 5 and 4, 11% and 15% fewer positions; at every ply, 19% and 6%)
    bm, killer = frame[12], frame[13]
    killer[:] = -1
    # each ply's frame key (dd_table_nb), the cards whose rank decided its value so far,
    # the mark of the trick its move before ended, the moves left out as equal, the
    # cards that decided its best move's value; its hands in relative ranks (rows 5 on)
    fk, marks, tmark, drop, bmark = keys[0], keys[1], keys[2], keys[3], keys[4]
    tmark[0] = _NONE
    load_nb(s0, h0, tr0, params, side, fs[0], hd[0], tc[0])
    alpha[0], beta[0] = lo, hi
    d = 0
    entering = True  # at a new position of ply d; else back at ply d with a move's value
    value = 0
    while True:
        if entering:
            entering = False
            nodes[0] += 1
            if limit > 0 and nodes[0] > limit:
                return GAVE_UP
            f, hp, tp = fs[d], hd[d], tc[d]
            trick_no = f[F_TRICK_NO]
            k = f[F_K]
            taken = f[F_SIDE_TRICKS] if by_tricks else total - f[F_OTHERS]
            known = trick_no > hand_size
            marks[d] = _NONE
            drop[d] = _NONE
            if known:  # the play is over
                value = taken
            elif uses & USE_LAST and k == 0 and trick_no == hand_size:
                value, marks[d] = _last_trick_nb((f, hp, tc[d + 1]), n, side, taken,
                                                 by_tricks, r, hunter, trump, params,
                                                 (mc[d], ms[d], md[d]), ranks)
                known = True
            elif uses & USE_BOUNDS:  # what the side can still gain or lose bounds the value
                if k == 0 or d == 0:  # within a trick nothing is taken: the ply before's
                    rlo[d], rhi[d] = range_nb(f, hp, n, params)
                else:
                    rlo[d], rhi[d] = rlo[d - 1], rhi[d - 1]
                lo, hi = rlo[d], rhi[d]
                if uses & USE_DECIDED and k > 0:
                    lo2, hi2 = _decided_nb(f, hp, tp, n, side, lo, hi, alpha[d], beta[d],
                                           by_tricks, trump, r)
                    if ranks and (lo2 != lo or hi2 != hi):  # the winner's rank decided
                        marks[d] = rank_mark_nb(tp[f[F_WIN]], mighty)
                    lo, hi = lo2, hi2
                if hi <= alpha[d]:
                    value, known = hi, True
                elif lo >= beta[d]:
                    value, known = lo, True
            if not known:
                slot[d] = -1
                if uses & USE_TABLE and k == 0:
                    now[d] = taken
                    alive = in_play_nb(hp, n)
                    fk[d] = frame_key_nb(hp, n, trick_no, f[F_LEADER], f[F_FRIEND_HAS_LED],
                                         mighty, key_hunter, alive)
                    slot[d] = 1  # stored to at the end
                    relative_nb(hp, n, alive, keys[5:, d])
                    found, lo, hi, named = probe_nb(tt, bits, tag, fk[d], keys[5:, d], n,
                                                    suit_counts_nb(alive), alive, not ranks)
                    if found:
                        marks[d] = named
                        lo, hi = taken + lo, taken + hi
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
                seat = f[F_LEADER] + k
                if seat >= n:
                    seat -= n
                hand = hp[seat]
                powered_lead = not in_tricks_nb(r.joker_powerless, trick_no)
                request_now = -1
                if k == 0 and seat == friend and f[F_FRIEND_HAS_LED] == 0:
                    request_now = request
                legal = legal_cards_nb(r, hand, k, trick_no, request_now, f[F_SUIT],
                                       f[F_DEMANDED] == 1, tp[k - 1] if k > 0 else -1)
                if uses & USE_EQUALS:
                    every = legal
                    legal = distinct_of_nb(hand, hp[D_GONE], legal, special)
                    drop[d] = every & ~legal
                # -- the moves (play_nb.moves_nb) -----------------------------------------
                demand_card = _demand_card_nb(r, hand, trick_no, hunter) if k == 0 else -1
                count = moves_of_nb(legal, k == 0 and powered_lead, demand_card, mc[d],
                                    ms[d], md[d])
                nm[d] = count
                mine = (side >> seat) & 1
                ours[d] = mine
                # -- their order -----------------------------------------------------------
                if uses & USE_ORDER:
                    _order_nb((hp, tp, f), seat, side, n, mine, trump, mighty,
                              (r.late_power, powered_lead), params, (mc[d], count), mo[d], sc)
                    if k == 0 and killer[d] >= 0:
                        _first_nb(mc[d], ms[d], md[d], mo[d], count, killer[d])
                else:
                    for i in range(count):
                        mo[d, i] = i
                nxt[d] = -1  # no move searched yet
                best[d] = -1 if mine else 1 << 30
        if nxt[d] >= 0:  # the value of ply d's move nxt[d]
            child = marks[d + 1] | tmark[d + 1]
            marks[d] |= child
            if ours[d]:
                if value > best[d]:
                    best[d], bm[d] = value, mo[d, nxt[d]]
                    bmark[d] = child
                if prune and best[d] > alpha[d]:
                    alpha[d] = best[d]
            else:
                if value < best[d]:
                    best[d], bm[d] = value, mo[d, nxt[d]]
                    bmark[d] = child
                if prune and best[d] < beta[d]:
                    beta[d] = best[d]
        nxt[d] += 1
        if nxt[d] < nm[d] and not (prune and alpha[d] >= beta[d]):
            i = mo[d, nxt[d]]
            _play_nb((fs[d], hd[d], tc[d]), (fs[d + 1], hd[d + 1], tc[d + 1]), n,
                     (mc[d, i], ms[d, i], md[d, i] == 1), side, friend, trump, r, params)
            tmark[d + 1] = _NONE
            if ranks and fs[d, F_K] == n - 1:  # the move ended the trick: by a rank?
                win = fs[d + 1, F_LEADER] - fs[d, F_LEADER]
                if win < 0:
                    win += n
                tmark[d + 1] = trick_mark_nb(tc[d + 1], n, win, mighty)
            alpha[d + 1], beta[d + 1] = alpha[d], beta[d]
            d += 1
            entering = True
            continue
        value = best[d]  # every move searched, or a cut: the value of ply d
        if value >= w1[d] if ours[d] else value <= w0[d]:  # a cut: its move alone decided
            marks[d] = bmark[d]
            if fs[d, F_K] == 0:
                i = bm[d]
                killer[d] = move_code_nb(mc[d, i], ms[d, i], md[d, i])
        elif ranks and drop[d]:  # every move counted, the equal ones left out too
            seat = fs[d, F_LEADER] + fs[d, F_K]
            if seat >= n:
                seat -= n
            marks[d] = equals_mark_nb(drop[d], hd[d, seat], special, marks[d])
        if slot[d] >= 0:  # at least value unless only an upper bound; at most unless
            alive = in_play_nb(hd[d], n)  # only a lower one
            counts = suit_counts_nb(alive)
            held = ranks_of_nb(marks[d], alive) if ranks else counts
            store_nb(tt, bits, tag, fk[d], held, pattern_nb(keys[5:, d], n, counts, held),
                     not ranks, value - now[d], value > w0[d], value < w1[d])
        d -= 1
        if d < 0:
            return value


@njit(cache=True, inline="always")
def _play_nb(frm: tuple[np.ndarray, np.ndarray, np.ndarray],
             to: tuple[np.ndarray, np.ndarray, np.ndarray], n: int,
             move: tuple[int, int, bool], side: int, friend: int, trump: int,
             r: TrickRules, params: np.ndarray) -> None:
    """Ply ``to`` (``g``/``hq``/``tq``): ply ``frm`` (``f``/``hp``/``tp``) after ``move``'s
    card is played (naming ``named`` for a joker led, ``demand`` for the hunter led), as
    :func:`.tricks_nb.play_tricks_nb` places a card and closes a trick."""
    f, hp, tp = frm
    g, hq, tq = to
    card, named, demand = move
    g[:N_F] = f[:N_F]
    for p in range(n):
        hq[p] = hp[p]
    hq[D_GONE] = hp[D_GONE]
    k = f[F_K]
    for i in range(k):
        tq[i] = tp[i]
    seat = f[F_LEADER] + k
    if seat >= n:
        seat -= n
    b = bit_nb(card)
    hq[seat] = hp[seat] & ~b
    tq[k] = card
    in_trick = hp[D_TRICK] | b
    if is_point_nb(card):
        g[F_TRICK_POINTS] += 1
    if k == 0:
        g[F_JOKER_SUIT] = named
        g[F_DEMANDED] = 1 if demand else 0
        if seat == friend:
            g[F_FRIEND_HAS_LED] = 1
    suit, win, power = trick_after_nb(r, tq, k, named, demand,
                                      (f[F_SUIT], f[F_WIN], f[F_POWER] == 1), trump,
                                      f[F_TRICK_NO], (g[F_JOKER_SUIT], g[F_DEMANDED] == 1),
                                      params)
    if k + 1 < n:
        g[F_SUIT], g[F_WIN], g[F_POWER] = suit, win, 1 if power else 0
        g[F_K] = k + 1
        hq[D_TRICK] = in_trick
        return
    # -- the trick's end (play_nb.end_trick_nb) ------------------------------------------
    winner = f[F_LEADER] + win
    if winner >= n:
        winner -= n
    if (side >> winner) & 1:
        g[F_SIDE_TRICKS] += 1
    else:
        g[F_OTHERS] += g[F_TRICK_POINTS]
    hq[D_GONE] = hp[D_GONE] | in_trick
    hq[D_TRICK] = _NONE
    g[F_LEADER] = winner
    g[F_TRICK_NO] = f[F_TRICK_NO] + 1
    g[F_K] = 0
    g[F_JOKER_SUIT] = -1
    g[F_DEMANDED] = 0
    g[F_TRICK_POINTS] = 0
    g[F_SUIT] = -1
    g[F_WIN] = 0


@njit(cache=True, inline="always")
def _by_mask_nb(late_power: bool, powered_lead: bool, first: int, k: int) -> bool:
    """Whether, with ``k`` >= 1 cards of a trick played (``first`` the lead), one mask
    (:func:`.policy_nb.winners_nb` against the card winning so far) tells which cards
    still to come take the trick, as :func:`.tricks_nb.trick_after_nb` settles it: not
    when the second card sets the suit after a joker led without power, nor when a card
    played can take a joker's power (``late_power``)."""
    return not late_power and not (k == 1 and first == JOKER_BIT and not powered_lead)


@njit(cache=True, inline="always")
def _demand_card_nb(r: TrickRules, hand: np.uint64, trick_no: int, hunter: int) -> int:
    """The card a leader holding ``hand`` may lead demanding the joker: the hunter when
    the rules let it demand in this trick and the hand lacks the joker, else -1."""
    if r.lead_demand and in_tricks_nb(r.hunter_tricks, trick_no) and not hand & _JOKER:
        return hunter
    return -1


@njit(cache=True, inline="always")
def _decided_nb(f: np.ndarray, hp: np.ndarray, tp: np.ndarray, n: int, side: int,
                lo: int, hi: int, alpha: int, beta: int, by_tricks: bool, trump: int,
                r: TrickRules) -> tuple[int, int]:
    """The bounds ``lo``/``hi`` in a trick under way once no hand still to play holds a
    card that beats the card winning it (:func:`.policy_nb.winners_nb`, unless a card
    played can change what the cards before it are worth): the points already in the
    trick (or the trick) go to the winner's side. Only asked where the points would
    take a bound past the window ``alpha``/``beta``."""
    k = f[F_K]
    leader = f[F_LEADER]
    winner = leader + f[F_WIN]
    if winner >= n:
        winner -= n
    gain = 1 if by_tricks else f[F_TRICK_POINTS]
    ours = (side >> winner) & 1 == 1
    if lo + gain < beta if ours else hi - gain > alpha:
        return lo, hi  # no cut either way
    if not _by_mask_nb(r.late_power, not in_tricks_nb(r.joker_powerless, f[F_TRICK_NO]),
                       tp[0], k):
        return lo, hi
    rest = _NONE
    for i in range(k, n):
        seat = leader + i
        if seat >= n:
            seat -= n
        rest |= hp[seat]
    if winners_nb(rest, tp[f[F_WIN]], f[F_SUIT], trump, r.mighty, f[F_POWER] == 1):
        return lo, hi
    if ours:
        return lo + gain, hi
    return lo, hi - gain


@njit(cache=True, inline="always")
def _last_trick_nb(pos: tuple[np.ndarray, np.ndarray, np.ndarray], n: int, side: int,
                   taken: int, by_tricks: bool, r: TrickRules, hunter: int, trump: int,
                   params: np.ndarray, moves: tuple[np.ndarray, np.ndarray, np.ndarray],
                   ranks: bool) -> tuple[int, np.uint64]:
    """The side's final count from the start of the last trick (one card a hand, so
    every follower's card is forced): the leader's best choice of a suit named for a
    joker and of a demand, each played out card by card (``tq`` work space); and, for a
    search whose entries name cards (``ranks``), the cards whose rank decided a way it
    went (:func:`.dd_table_nb.trick_mark_nb`)."""
    f, hp, tq = pos
    mc, ms, md = moves
    trick_no = f[F_TRICK_NO]
    leader = f[F_LEADER]
    powered_lead = not in_tricks_nb(r.joker_powerless, trick_no)
    hand = hp[leader]
    count = moves_of_nb(hand, powered_lead, _demand_card_nb(r, hand, trick_no, hunter), mc,
                        ms, md)
    mine = (side >> leader) & 1 == 1
    best = -1 if mine else 1 << 30
    marks = _NONE
    for i in range(count):
        tq[0] = mc[i]
        named, demand = ms[i], md[i] == 1
        points = 1 if is_point_nb(mc[i]) else 0
        suit, win, power = trick_after_nb(r, tq, 0, named, demand,
                                          (var(-1), var(0), powered_lead), trump, trick_no,
                                          (named, demand), params)
        seat = leader
        for k in range(1, n):
            seat += 1
            if seat == n:
                seat = 0
            c = lowest_card_nb(hp[seat])
            tq[k] = c
            if is_point_nb(c):
                points += 1
            suit, win, power = trick_after_nb(r, tq, k, -1, False, (suit, win, power),
                                              trump, trick_no, (named, demand), params)
        winner = leader + win
        if winner >= n:
            winner -= n
        if ranks:
            marks |= trick_mark_nb(tq, n, win, r.mighty)
        ours = (side >> winner) & 1 == 1
        if by_tricks:
            v = taken + 1 if ours else taken
        else:
            v = taken if ours else taken - points
        if mine:
            best = max(best, v)
        else:
            best = min(best, v)
    return best, marks


@njit(cache=True, inline="always")
def _order_nb(pos: tuple[np.ndarray, np.ndarray, np.ndarray], seat: int, side: int, n: int,
              mine: int, trump: int, mighty: int, flags: tuple[bool, bool],
              params: np.ndarray, moves: tuple[np.ndarray, int], order: np.ndarray,
              sc: np.ndarray) -> None:
    """``order[:nm]``: the moves ``mc[:nm]`` of ``seat`` in the order they are searched,
    the likeliest to cut first. A lead: Mighty and the joker, then cards no other hand
    can beat in their suit, then low cards of suits whose top card a partner holds, then
    the rest high to low. A follower: the cheapest card that takes the trick so far
    (``dump_value_nb``; which cards take it: one mask, :func:`.policy_nb.winners_nb`,
    unless a card played can change what the cards before it are worth), then the cards
    that leave it to a partner, points first, then those that leave it to an opponent,
    cheapest first and points last. (Measured against high cards first on random and
    played positions of 6 and 7 tricks left: 25-45% fewer positions in all.) ``sc`` is
    work space for the moves' scores."""
    hp, tp, f = pos
    late_power, powered_lead = flags
    mc, nm = moves
    k = f[F_K]
    others = _NONE  # a lead's: the cards of the other hands, of the partners'
    partner = _NONE
    if k == 0:
        for p in range(n):
            if p != seat:
                others |= hp[p]
                if (side >> p) & 1 == mine:
                    partner |= hp[p]
    fast = k > 0 and _by_mask_nb(late_power, powered_lead, tp[0], k)
    wins = _NONE
    win_seat = -1
    if fast:
        cards = _NONE
        for i in range(nm):
            cards |= bit_nb(mc[i])
        wins = winners_nb(cards, tp[f[F_WIN]], f[F_SUIT], trump, mighty, f[F_POWER] == 1)
        win_seat = f[F_LEADER] + f[F_WIN]
        if win_seat >= n:
            win_seat -= n
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
                w = seat if takes else win_seat
            else:
                tp[k] = c
                idx = trick_winner_nb(tp, k + 1, trump, f[F_TRICK_NO], f[F_JOKER_SUIT],
                                      f[F_DEMANDED] == 1, params)
                tp[k] = -1
                takes = idx == k
                w = f[F_LEADER] + idx
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
def _first_nb(mc: np.ndarray, ms: np.ndarray, md: np.ndarray, order: np.ndarray, nm: int,
              code: int) -> None:
    """Move the move ``code`` (:func:`move_code_nb`), if it is among the ``nm`` moves,
    to the front of ``order``, the others keeping their order."""
    for j in range(nm):
        i = order[j]
        if move_code_nb(mc[i], ms[i], md[i]) == code:
            while j > 0:
                order[j] = order[j - 1]
                j -= 1
            order[0] = i
            return


@njit(cache=True, nrt=True)
def follower_wins_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                     cards: np.uint64) -> tuple[bool, np.uint64, int]:
    """For the seat to play in a trick under way, what the search's move order knows:
    (whether one mask tells, the cards of ``cards`` that would take the trick, the seat
    winning it so far), the trick replayed from its lead through the search's own ply
    update (:func:`_play_nb`), as the search reaches it. One mask tells unless a card
    played can change what the cards before it are worth (a powerless joker led, the
    hunter under the next-player rule). For the tests."""
    n = s[S_N]
    k = s[S_K]
    trump = s[S_TRUMP]
    f = np.zeros((2, N_F), np.int64)
    hd = np.zeros((2, N_D), np.uint64)
    tc = np.zeros((2, MAX_PLAYERS), np.int64)
    start = s.copy()
    start[S_K] = 0
    start[S_JOKER_SUIT] = -1
    start[S_DEMANDED] = 0
    hands = h.copy()
    for i in range(k):
        seat = (s[S_LEADER] + i) % n
        hands[seat] |= bit_nb(tr[i])
    load_nb(start, hands, tr, params, var(0), f[0], hd[0], tc[0])
    r = trick_rules_nb(params, trump, s[S_HUNTER])
    for i in range(k):
        _play_nb((f[0], hd[0], tc[0]), (f[1], hd[1], tc[1]), n,
                 (tr[i], s[S_JOKER_SUIT] if i == 0 else var(-1),
                  i == 0 and s[S_DEMANDED] == 1), var(0), s[S_FRIEND], trump, r, params)
        f[0, :] = f[1]
        hd[0, :] = hd[1]
        tc[0, :] = tc[1]
    powered_lead = not in_tricks_nb(params[P_JOKER_POWERLESS], s[S_TRICK_NO])
    if not _by_mask_nb(r.late_power, powered_lead, tr[0], k):
        return False, _NONE, -1
    wins = winners_nb(cards, tc[0, f[0, F_WIN]], f[0, F_SUIT], trump, r.mighty,
                      f[0, F_POWER] == 1)
    return True, wins, (f[0, F_LEADER] + f[0, F_WIN]) % n
