"""The play of a deal (docs/rules.md, standard: Play and Scoring) as a state machine on
small arrays, so the batch engine, the odds kernel, the PIMC player's rollouts and the
double-dummy search advance it the same way, with one deck or two.

A play state is three arrays, all preallocated by the caller:

- ``s`` int64 (``N_S``): contract and trick state at the ``S_*`` indices, with each
  seat's captured points at ``S_CAPTURED + seat`` and tricks won at ``S_WON + seat``,
  and the voids shown at ``S_VOIDS``;
- ``h`` uint64 (``N_H``): each seat's hand at index ``seat`` (with two decks its first
  deck's cards, the second's at ``H_PLANE1 + seat``), then ``H_SEEN`` (card kinds of
  finished tricks), ``H_DISCARDS`` (the declarer's discards), ``H_DECK`` (the deck) and,
  at ``H_CANT + seat``, the cards (kinds) every player knows that seat cannot hold,
  inferred from its plays (kept only when ``s[S_TRACK]`` is 1, for PIMC players), and
  with two decks the declarer's discards a deck at a time (``H_DISCARDS_P0``, ``_P1``);
- ``tr`` int64 (``MAX_PLAYERS``; ``2 * MAX_PLAYERS`` with two decks): card kinds of the
  current trick in play order, -1 beyond, and with two decks the physical cards played
  at ``TR_PHYSICAL + k``.

With two decks the rules and policies see kinds (:func:`.rules_nb.fold_nb`): a kind chosen
is played as its lowest copy, of two identical cards the first played wins, and the
friend is the first player other than the declarer to play a copy of the called card
(``s[S_FRIEND]`` is -1 until then).

``play_until_nb`` plays the random and heuristic seats' cards (in one loop: a call
that passes arrays costs more than the work of a card) and stops when a PIMC seat
is to play, which then decides and plays with ``apply_play_nb``; the deal is over when
``s[S_TRICK_NO]`` passes the hand size. :func:`.tricks_nb.play_tricks_nb` is the same play
in one loop with the trick's state in local variables, for the batch kernels.
"""
from __future__ import annotations

import numpy as np

from ...rules.cards import PLANE_BITS
from .._jit import njit, var
from ..layout import (
    MAX_PLAYERS,
    POLICY_BASELINE,
    POLICY_HEURISTIC,
    POLICY_PIMC,
    POLICY_RANDOM,
    T_CARDS,
    T_DEMAND,
    T_JOKER_SUIT,
    T_LEADER,
    T_NO,
    T_POINTS,
    T_WINNER,
)
from ..params import (
    FRIEND_KIND_FRIEND,
    FRIEND_KIND_OPEN_SOLO,
    FRIEND_KIND_SECRET_SOLO,
    HUNTER_LEAD_DEMAND,
    MODE_CALLED,
    MODE_FIRST_TRICK,
    P_BID_UNIT,
    P_DECK_COPIES,
    P_DECK_MASK,
    P_HAND_SIZE,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_JOKER_POWERLESS,
    P_JOKERS,
    P_PLAYERS,
    P_TOTAL_POINTS,
)
from ..players.play_policy_nb import (
    called_suit_nb,
    fitted_nb,
    gone_kinds_nb,
    hostile_behind_nb,
    lead_fit_at_nb,
    play_decide_nb,
    seats_behind_nb,
)
from ..rng_nb import chance_nb
from ..rules.rules_nb import (
    JOKER_BIT,
    JOKER_PAIR,
    bit_nb,
    copy_of_nb,
    fold_nb,
    has_nb,
    hunter_of_nb,
    in_tricks_nb,
    is_point_nb,
    kind_nb,
    legal_plays_nb,
    lowest_card_nb,
    mighty_of_nb,
    popcount_nb,
    settle_nb,
    suit_mask_nb,
    suit_to_follow_nb,
    trick_winner_nb,
)

(
    S_N, S_DECLARER, S_BID, S_TRUMP, S_CHANGED, S_MODE, S_CALLED, S_REQUEST, S_FRIEND,
    S_KIND, S_REVEALED, S_FRIEND_HAS_LED, S_HUNTER, S_LEADER, S_TRICK_NO, S_K,
    S_JOKER_SUIT, S_DEMANDED, S_TRACK, S_DECKS, S_CAPTURED,
) = range(21)
S_WON = S_CAPTURED + MAX_PLAYERS
S_VOIDS = S_WON + MAX_PLAYERS
"""The suits each seat has shown void in (it did not follow them with a card other than
Mighty or the joker): bit ``4 * seat + suit``."""
N_S = S_VOIDS + 1
H_SEEN, H_DISCARDS, H_DECK, H_CANT = MAX_PLAYERS, MAX_PLAYERS + 1, MAX_PLAYERS + 2, MAX_PLAYERS + 3
H_PLANE1 = H_CANT + MAX_PLAYERS
# two decks: the kinds both copies of which were played, and the jokers played
H_SEEN2, H_JOKERS_SEEN = H_PLANE1 + MAX_PLAYERS, H_PLANE1 + MAX_PLAYERS + 1
# two decks: the declarer's discards a deck at a time (physical; ``H_DISCARDS`` has kinds),
# which a PIMC seat's worlds deal as the hidden pile
H_DISCARDS_P0, H_DISCARDS_P1 = H_JOKERS_SEEN + 1, H_JOKERS_SEEN + 2
N_H = H_DISCARDS_P1 + 1
TR_PHYSICAL = MAX_PLAYERS


@njit(cache=True)
def start_play_nb(
    s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray, hands: np.ndarray,
    discards: np.uint64, contract: tuple[int, int, int, bool],
    friend_call: tuple[int, int, int], track: bool,
) -> None:
    """Set up the play of a contract: ``hands`` after the exchange (with two decks, the
    second deck's cards at ``H_PLANE1 + seat``), the friend found from the called card
    (s.2.3; with two decks, only whether another seat holds a copy), the declarer to lead
    the first trick."""
    declarer, bid, trump, changed = contract
    mode, called, request = friend_call
    n = params[P_PLAYERS]
    two = params[P_DECK_COPIES] == 2
    for p in range(MAX_PLAYERS):
        h[p] = hands[p] if p < n else np.uint64(0)
        h[H_CANT + p] = 0
        h[H_PLANE1 + p] = hands[H_PLANE1 + p] if two and p < n else np.uint64(0)
        tr[p] = -1
    h[H_SEEN] = 0
    h[H_SEEN2] = 0
    h[H_JOKERS_SEEN] = 0
    s[S_VOIDS] = 0
    h[H_DISCARDS] = discards
    h[H_DISCARDS_P0] = 0
    h[H_DISCARDS_P1] = 0
    h[H_DECK] = np.uint64(params[P_DECK_MASK])
    friend = var(-1)
    kind = var(FRIEND_KIND_OPEN_SOLO)
    if mode == MODE_CALLED:
        kind = FRIEND_KIND_SECRET_SOLO
        copies = JOKER_PAIR if called == JOKER_BIT else bit_nb(called)
        for p in range(n):
            if p != declarer and (h[p] | h[H_PLANE1 + p]) & copies:
                kind = FRIEND_KIND_FRIEND
                if not two:  # with two decks, the first to play a copy
                    friend = p
    elif mode == MODE_FIRST_TRICK:
        kind = FRIEND_KIND_SECRET_SOLO
    open_play_nb(s, params, declarer, bid, trump, changed, mode, called, request, friend, kind)
    s[S_TRACK] = 1 if track else 0


@njit(cache=True)
def open_play_nb(
    s: np.ndarray, params: np.ndarray, declarer: int, bid: int, trump: int, changed: bool,
    mode: int, called: int, request: int, friend: int, kind: int,
) -> None:
    """Write a contract into a fresh play state ``s``: the declarer leads trick 1."""
    s[:] = 0
    s[S_N] = params[P_PLAYERS]
    s[S_DECLARER] = declarer
    s[S_BID] = bid
    s[S_TRUMP] = trump
    s[S_CHANGED] = 1 if changed else 0
    s[S_MODE] = mode
    s[S_CALLED] = called
    s[S_REQUEST] = request
    s[S_FRIEND] = friend
    s[S_KIND] = kind
    s[S_HUNTER] = hunter_of_nb(params, trump)
    s[S_LEADER] = declarer
    s[S_TRICK_NO] = 1
    s[S_JOKER_SUIT] = -1
    s[S_DECKS] = params[P_DECK_COPIES]


@njit(cache=True, inline="always")
def kinds_held_nb(s: np.ndarray, h: np.ndarray, seat: int) -> np.uint64:
    """The card kinds in ``seat``'s hand (its hand itself with one deck)."""
    if s[S_DECKS] == 2:
        return fold_nb(h[seat], h[H_PLANE1 + seat])
    return h[seat]


@njit(cache=True)
def to_play_nb(s: np.ndarray) -> int:
    """The seat whose turn it is."""
    seat = s[S_LEADER] + s[S_K]  # < 2n: no division
    return seat - s[S_N] if seat >= s[S_N] else seat


@njit(cache=True)
def lead_request_nb(s: np.ndarray, seat: int) -> int:
    """The suit ``seat`` must lead if able (the 20-NT friend's request), else -1."""
    if (s[S_K] == 0 and seat == s[S_FRIEND] and s[S_REQUEST] >= 0
            and s[S_FRIEND_HAS_LED] == 0):
        return s[S_REQUEST]
    return -1


@njit(cache=True)
def legal_now_nb(
    s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, params: np.ndarray,
) -> np.uint64:
    """Legal cards (kinds) of ``seat``, the seat to play."""
    return legal_plays_nb(kinds_held_nb(s, h, seat), tr, s[S_K], s[S_TRUMP], s[S_TRICK_NO],
                          s[S_JOKER_SUIT], s[S_DEMANDED] == 1, lead_request_nb(s, seat),
                          params)


@njit(cache=True)
def partners_of_nb(seat: int, n: int, declarer: int, friend: int, revealed: bool,
                   kind: int) -> int:
    """Bit mask of the seats ``seat`` knows to be on its side."""
    partners = 0
    if seat == declarer:
        if friend >= 0 and revealed:
            partners = 1 << friend
    elif seat == friend:
        partners = 1 << declarer
    elif revealed or kind != FRIEND_KIND_FRIEND:
        for p in range(n):
            if p != declarer and p != friend:
                partners |= 1 << p
    return partners


@njit(cache=True)
def demand_card_nb(s: np.ndarray, h: np.ndarray, seat: int, params: np.ndarray) -> int:
    """The card that, led by ``seat`` now, may demand the joker; -1 if none."""
    if (s[S_K] == 0 and params[P_HUNTER_RULE] == HUNTER_LEAD_DEMAND and s[S_HUNTER] >= 0
            and in_tricks_nb(params[P_HUNTER_TRICKS], s[S_TRICK_NO])
            and not has_nb(kinds_held_nb(s, h, seat), JOKER_BIT)):
        return s[S_HUNTER]
    return -1


@njit(cache=True)
def play_until_nb(
    st: np.ndarray, s: np.ndarray, h: np.ndarray, tr: np.ndarray, policies: np.ndarray,
    params: np.ndarray, noise: float, record: bool, ti: np.ndarray, t_used: int,
    limit: int = 1 << 30,
) -> int:
    """Play the ``random`` and ``heuristic`` seats' cards until the deal ends, a PIMC seat
    is to play or ``limit`` cards are played (``s`` tells which); with ``noise`` > 0, each
    card is a random one with that probability. Returns the trick rows used."""
    n = s[S_N]
    hand_size = params[P_HAND_SIZE]
    hunter_rule = params[P_HUNTER_RULE] == HUNTER_LEAD_DEMAND and s[S_HUNTER] >= 0
    while s[S_TRICK_NO] <= hand_size and limit > 0:
        limit -= 1
        k = s[S_K]
        seat = s[S_LEADER] + k
        if seat >= n:
            seat -= n
        policy = policies[seat]
        if policy == POLICY_PIMC:
            return t_used
        if noise > 0.0 and chance_nb(st, int(noise * 1000.0), 1000):
            policy = POLICY_RANDOM
        trick_no = s[S_TRICK_NO]
        hand = kinds_held_nb(s, h, seat)
        legal = legal_plays_nb(hand, tr, k, s[S_TRUMP], trick_no, s[S_JOKER_SUIT],
                               s[S_DEMANDED] == 1, lead_request_nb(s, seat), params)
        demand_card = var(-1)  # demand_card_nb's test on values at hand: no arrays passed here
        if (k == 0 and hunter_rule and in_tricks_nb(params[P_HUNTER_TRICKS], trick_no)
                and not has_nb(hand, JOKER_BIT)):
            demand_card = s[S_HUNTER]
        declarer, friend = s[S_DECLARER], s[S_FRIEND]
        revealed = s[S_REVEALED] == 1
        partners = partners_of_nb(seat, n, declarer, friend, revealed, s[S_KIND])
        in_trick = np.uint64(0)
        for i in range(k):
            in_trick |= bit_nb(tr[i])
        gone, partners, ours, known = club_memory_nb(
            h, seat, hand, (h[H_SEEN] | in_trick, h[H_SEEN2], ~h[H_DECK]),
            params[P_JOKERS] - int(h[H_JOKERS_SEEN]),
            s[S_DECKS] == 2 and policy != POLICY_BASELINE,
            (declarer, friend, revealed, s[S_KIND], s[S_CALLED], s[S_MODE]), partners)
        behind = seats_behind_nb(n, s[S_LEADER], seat)
        hostile = hostile_behind_nb(behind, partners, seat, n, declarer, known)
        fit = lead_fit_at_nb(
            k == 0 and policy == POLICY_HEURISTIC and fitted_nb(params) and ours,
            (seat, n, trick_no),
            called_suit_nb(s[S_MODE], s[S_CALLED], revealed), partners, s[S_VOIDS])
        card, suit, demand = play_decide_nb(
            policy, st, seat, hand, legal,
            (tr, k, s[S_LEADER], s[S_TRUMP], trick_no, s[S_JOKER_SUIT], s[S_DEMANDED] == 1,
             demand_card), partners, ours, (h[H_SEEN], gone, behind, hostile, declarer, fit),
            n, params, -1)
        if s[S_DECKS] == 2:
            card = copy_of_nb(h[seat], h[H_PLANE1 + seat], card)
        if k + 1 < n and s[S_TRACK] == 0:  # mid-trick: no trick to close, no inference
            note_void_nb(s, tr, seat, card, params)
            place_card_nb(s, h, tr, seat, card, suit, demand)
        else:
            t_used = apply_play_nb(s, h, tr, seat, card, suit, demand, params, record, ti,
                                   t_used)
    return t_used


@njit(cache=True, inline="always")
def club_memory_nb(
    h: np.ndarray, seat: int, hand: np.uint64, cards: tuple[np.uint64, np.uint64, np.uint64],
    jokers_out: int, by_copies: bool, sides: tuple[int, int, bool, int, int, int], mine: int,
) -> tuple[np.uint64, int, bool, bool]:
    """What a heuristic seat to play remembers: (``gone``, the cards it will not meet;
    its known partners, ``mine`` and the declarer when it holds a called card; whether it
    is on the declarer's side; whether it knows the sides). ``cards`` are the kinds seen
    (finished tricks and this one), those seen twice (two decks) and those the deck lacks;
    ``jokers_out`` the jokers not seen played; with ``by_copies`` (two decks, the
    heuristic) it counts copies (:func:`gone_kinds_nb`) and plays a called card's copy as
    the declarer's friend; ``sides`` is (declarer, friend, revealed, friend kind, called
    card, friend mode)."""
    seen_now, seen2, absent = cards
    declarer, friend, revealed, kind, called, mode = sides
    ours = seat == declarer or seat == friend
    known = revealed or kind != FRIEND_KIND_FRIEND or seat == friend
    gone = hand | seen_now | absent
    if by_copies:
        gone = absent | gone_kinds_nb(h[seat], h[H_PLANE1 + seat], seen_now, seen2,
                                      jokers_out - jokers_held_nb(h, seat))
        if holds_called_nb(hand, seat, declarer, friend, called, mode):
            mine |= 1 << declarer  # a called card's holder is a friend
            ours = True
            known = True
    return gone, mine, ours, known


@njit(cache=True, inline="always")
def holds_called_nb(hand: np.uint64, seat: int, declarer: int, friend: int, called: int,
                    mode: int) -> bool:
    """Whether ``seat`` holds a copy of the called card while no friend is known yet
    (two decks: the first other player to play a copy becomes the friend); the
    heuristic then plays it as the declarer's friend."""
    return (mode == MODE_CALLED and friend < 0 and seat != declarer and called >= 0
            and (hand >> np.uint64(called)) & np.uint64(1) == 1)


@njit(cache=True, inline="always")
def jokers_held_nb(h: np.ndarray, seat: int) -> int:
    """Jokers in ``seat``'s hand (two decks: up to two a plane)."""
    return popcount_nb(h[seat] & JOKER_PAIR) + popcount_nb(h[H_PLANE1 + seat] & JOKER_PAIR)


@njit(cache=True, inline="always")
def open_to_infer_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, card: int
                     ) -> tuple[np.uint64, np.uint64]:
    """(the kind of ``card`` as a mask, the cards :func:`infer_nb` may still find ``seat``
    cannot hold: not seen, not in the trick, not known already). With two decks ``card``
    is physical and the cards are kinds: a kind seen once may have a copy left."""
    if s[S_DECKS] == 2:
        c = bit_nb(kind_nb(card))
        return c, h[H_DECK] & ~h[H_SEEN2] & ~h[H_CANT + seat] & ~c
    c = bit_nb(card)
    unknown = h[H_DECK] & ~h[H_SEEN] & ~h[H_CANT + seat] & ~c
    for i in range(s[S_K]):
        unknown &= ~bit_nb(tr[i])
    return c, unknown


@njit(cache=True)
def infer_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, card: int,
             params: np.ndarray) -> None:
    """Add to ``h[H_CANT + seat]`` every card ``seat`` is now known not to hold: a card x
    such that, held beside ``card``, it would have made ``card`` illegal (a suit not
    followed, a demand not answered...). Only public facts are used: the friend's lead
    request counts once the friend is revealed. With two decks ``card`` is physical and
    the cards are kinds (a seat that cannot hold a kind holds no copy of it)."""
    k = s[S_K]
    req = lead_request_nb(s, seat) if s[S_REVEALED] == 1 else -1
    c, unknown = open_to_infer_nb(s, h, tr, seat, card)
    # the rules of play name suits, and Mighty, the joker and the hunter by themselves:
    # beside ``card``, every other card of a suit makes it legal or illegal alike, so one
    # card of each suit's other cards is tried, and each of the three alone
    trump = s[S_TRUMP]
    specials = bit_nb(mighty_of_nb(params, trump)) | ~(bit_nb(JOKER_BIT) - np.uint64(1))
    hunter = hunter_of_nb(params, trump)
    if hunter >= 0:
        specials |= bit_nb(hunter)
    while unknown:
        x = lowest_card_nb(unknown)
        xb = bit_nb(x)
        alike = xb if xb & specials else unknown & suit_mask_nb(x // 13) & ~specials
        unknown &= ~alike
        legal = legal_plays_nb(xb | c, tr, k, trump, s[S_TRICK_NO], s[S_JOKER_SUIT],
                               s[S_DEMANDED] == 1, req, params)
        if not legal & c:
            h[H_CANT + seat] |= alike


@njit(cache=True, inline="always")
def note_void_nb(s: np.ndarray, tr: np.ndarray, seat: int, card: int, params: np.ndarray
                 ) -> None:
    """Note in ``s[S_VOIDS]`` that ``seat``, about to play ``card`` (physical with two
    decks) into the trick, shows a void: the card is of another suit than the one to
    follow, and neither Mighty nor the joker."""
    k = s[S_K]
    if k == 0:
        return
    kind = kind_nb(card) if s[S_DECKS] == 2 else card
    su = suit_to_follow_nb(tr, k, s[S_TRUMP], s[S_TRICK_NO], s[S_JOKER_SUIT], params)
    s[S_VOIDS] |= void_shown_nb(seat, kind, su, mighty_of_nb(params, s[S_TRUMP]))


@njit(cache=True, inline="always")
def void_shown_nb(seat: int, kind: int, suit: int, mighty: int) -> int:
    """The ``S_VOIDS`` bit that ``seat`` shows by playing card kind ``kind`` to a trick
    whose suit to follow is ``suit`` (-1: none): a card of another suit, neither Mighty nor
    the joker; else 0. The one test of both play loops."""
    if 0 <= suit < 4 and kind != JOKER_BIT and kind != mighty and kind // 13 != suit:
        return 1 << (4 * seat + suit)
    return 0


@njit(cache=True, inline="always")
def take_copy_nb(h: np.ndarray, seat: int, card: int) -> None:
    """Take physical ``card`` (two decks) from ``seat``'s hand."""
    if card >= PLANE_BITS:
        h[H_PLANE1 + seat] &= ~bit_nb(card - PLANE_BITS)
    else:
        h[seat] &= ~bit_nb(card)


@njit(cache=True)
def place_card_nb(
    s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, card: int, suit: int,
    demand: bool,
) -> bool:
    """Put ``card`` (a physical card with two decks) of ``seat`` into the trick (a lead
    sets the joker's suit and the demand; the called card reveals the friend); returns
    False when it completes the trick, which ``apply_play_nb`` then closes. Small enough
    for LLVM to inline: the play loop calls it for every card but a trick's last instead
    of ``apply_play_nb`` (measured in one process: 6-12% faster with heuristic players,
    17-19% random)."""
    k = s[S_K]
    kind = card
    if s[S_DECKS] == 2:
        kind = kind_nb(card)
        tr[TR_PHYSICAL + k] = card
        take_copy_nb(h, seat, card)
        seen = h[H_SEEN]  # copies seen (the heuristic's memory)
        for i in range(k):
            seen |= bit_nb(tr[i])
        if seen & bit_nb(kind):
            h[H_SEEN2] |= bit_nb(kind)
        if kind == JOKER_BIT:
            h[H_JOKERS_SEEN] += np.uint64(1)
    else:
        h[seat] &= ~bit_nb(card)
    tr[k] = kind
    if s[S_MODE] == MODE_CALLED and kind == s[S_CALLED] and seat != s[S_DECLARER]:
        if s[S_FRIEND] < 0 and s[S_KIND] == FRIEND_KIND_FRIEND:
            s[S_FRIEND] = seat  # two decks: the first other player to play a copy
        if seat == s[S_FRIEND]:
            s[S_REVEALED] = 1
    if k == 0:
        s[S_JOKER_SUIT] = suit
        s[S_DEMANDED] = 1 if demand else 0
        if seat == s[S_FRIEND]:
            s[S_FRIEND_HAS_LED] = 1
    if k + 1 < s[S_N]:
        s[S_K] = k + 1
        return True
    return False


@njit(cache=True)
def apply_play_nb(
    s: np.ndarray, h: np.ndarray, tr: np.ndarray, seat: int, card: int, suit: int,
    demand: bool, params: np.ndarray, record: bool, ti: np.ndarray, t_used: int,
) -> int:
    """Play ``card`` (naming ``suit`` for a led joker, ``demand`` for a led hunter; a
    physical card with two decks) for ``seat``, the seat to play; at a trick's end find its
    winner, count its points and, with ``record``, write it to trick row ``t_used`` of
    ``ti``. Returns the trick rows used."""
    if s[S_TRACK] == 1:
        infer_nb(s, h, tr, seat, card, params)
    note_void_nb(s, tr, seat, card, params)
    if place_card_nb(s, h, tr, seat, card, suit, demand):
        return t_used
    t_used, seen = end_trick_nb(s, tr, params, record, ti, t_used)
    h[H_SEEN] |= seen
    return t_used


@njit(cache=True)
def end_trick_nb(
    s: np.ndarray, tr: np.ndarray, params: np.ndarray, record: bool, ti: np.ndarray,
    t_used: int,
) -> tuple[int, np.uint64]:
    """Close a full trick: its winner, its points to the winner, the trick row ``t_used``
    with the cards played when ``record``, a first-trick friend, the next trick's leader.
    Returns (trick rows used, mask of the trick's kinds)."""
    n = s[S_N]
    trick_no = s[S_TRICK_NO]
    leader = s[S_LEADER]
    idx = trick_winner_nb(tr, n, s[S_TRUMP], trick_no, s[S_JOKER_SUIT], s[S_DEMANDED] == 1,
                          params)
    winner = leader + idx
    if winner >= n:
        winner -= n
    pts = 0
    seen = np.uint64(0)
    for i in range(n):
        seen |= bit_nb(tr[i])
        if is_point_nb(tr[i]):
            pts += 1
    s[S_CAPTURED + winner] += pts
    s[S_WON + winner] += 1
    if record:
        record_trick_nb(ti, t_used, trick_no, leader, winner, pts, s[S_JOKER_SUIT],
                        s[S_DEMANDED] == 1, tr, TR_PHYSICAL if s[S_DECKS] == 2 else 0, n)
        t_used += 1
    if trick_no == 1 and s[S_MODE] == MODE_FIRST_TRICK:
        if winner != s[S_DECLARER]:
            s[S_FRIEND] = winner
            s[S_KIND] = FRIEND_KIND_FRIEND
        s[S_REVEALED] = 1
    for i in range(n):
        tr[i] = -1
    s[S_LEADER] = winner
    s[S_TRICK_NO] = trick_no + 1
    s[S_K] = 0
    s[S_JOKER_SUIT] = -1
    s[S_DEMANDED] = 0
    return t_used, seen


@njit(cache=True)
def record_trick_nb(
    ti: np.ndarray, t_used: int, trick_no: int, leader: int, winner: int,
    points: int, joker_suit: int, demanded: bool, tr: np.ndarray, at: int, n: int,
) -> None:
    """Write a finished trick (its cards ``tr[at:at + n]``) into trick row ``t_used`` of
    ``ti``. A call of its own: inlined into the trick loops, its int8 stores made the
    batch kernel's random play 9% slower with no trick recorded (`bench_against.py`)."""
    ti[t_used, T_NO] = trick_no
    ti[t_used, T_LEADER] = leader
    ti[t_used, T_WINNER] = winner
    ti[t_used, T_POINTS] = points
    ti[t_used, T_JOKER_SUIT] = joker_suit
    ti[t_used, T_DEMAND] = 1 if demanded else 0
    for i in range(MAX_PLAYERS):
        ti[t_used, T_CARDS + i] = tr[at + i] if i < n else -1


@njit(cache=True)
def result_nb(s: np.ndarray, params: np.ndarray) -> tuple[float, float, float, int, int, bool]:
    """Settlement of a finished play: (declarer, friend, each defender payout, declarer
    side's points, its tricks, success)."""
    n = s[S_N]
    declarer, friend = s[S_DECLARER], s[S_FRIEND]
    defenders_points = 0
    tricks = 0
    for p in range(n):
        if p != declarer and p != friend:
            defenders_points += s[S_CAPTURED + p]
        else:
            tricks += s[S_WON + p]
    points = params[P_TOTAL_POINTS] - defenders_points
    taken = points if params[P_BID_UNIT] == 0 else tricks
    bid = s[S_BID]
    d, f, x = settle_nb(params, bid, s[S_TRUMP], taken, s[S_KIND], s[S_CHANGED] == 1)
    return d, f, x, points, tricks, taken >= bid


@njit(cache=True)
def payout_of_nb(s: np.ndarray, seat: int, d: float, f: float, x: float) -> float:
    """The payout of ``seat`` from a settlement's three figures."""
    if seat == s[S_DECLARER]:
        return d
    if seat == s[S_FRIEND]:
        return f
    return x


MAX_MOVES = 64
"""Moves of one seat, at most (:func:`moves_nb`)."""


@njit(cache=True)
def moves_nb(
    s: np.ndarray, h: np.ndarray, seat: int, legal: np.uint64, params: np.ndarray,
    mc: np.ndarray, ms: np.ndarray, md: np.ndarray,
) -> int:
    """Every distinct move of ``seat`` from ``legal``, written to ``mc``/``ms``/``md``
    (at most ``MAX_MOVES``): (card, joker suit named or -1, demand 0/1), a card once, a
    joker led with power once a suit, the card that may demand the joker both ways.
    Returns how many. The moves the PIMC player and the double-dummy search weigh."""
    powered = not in_tricks_nb(params[P_JOKER_POWERLESS], s[S_TRICK_NO])
    return moves_of_nb(legal, s[S_K] == 0 and powered, demand_card_nb(s, h, seat, params),
                       mc, ms, md)


@njit(cache=True, inline="always")
def moves_of_nb(legal: np.uint64, joker_names: bool, demand_card: int, mc: np.ndarray,
                ms: np.ndarray, md: np.ndarray) -> int:
    """The moves of :func:`moves_nb` from a seat's legal cards: ``joker_names`` when a
    joker played now is led with power (once a suit), ``demand_card`` the card that may
    demand the joker (both ways; -1 none). Returns how many."""
    nm = 0
    x = legal
    while x:
        c = lowest_card_nb(x)
        x &= ~bit_nb(c)
        if joker_names and c == JOKER_BIT:
            for suit in range(4):
                mc[nm], ms[nm], md[nm] = c, suit, 0
                nm += 1
        elif c == demand_card:
            for dem in range(2):
                mc[nm], ms[nm], md[nm] = c, -1, dem
                nm += 1
        else:
            mc[nm], ms[nm], md[nm] = c, -1, 0
            nm += 1
    return nm
