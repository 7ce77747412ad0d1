"""The tricks of a deal in one loop, for ``random`` and ``heuristic`` seats (the batch
kernel's deals of one deck or two and the PIMC player's rollouts).

The same play as :func:`.play_nb.play_until_nb` (the same cards, the same draws from
the stream, the same trick rows), with the trick's state in local variables instead of
the play state's arrays, the legal cards of a seat found from the suit to follow kept
for the trick, and the card winning the trick kept as it is played (a card played takes
it when ``policy_nb.winners_nb``, the heuristic follower's own test, says it beats it),
so that neither a follower's legality nor the heuristic's "who wins now" scans the
trick. Where a card played can change what the cards before it are worth (a powerless
joker led: the second card sets the suit; a hunter played after the joker takes its
power under the next-player rule), the winner is found from the whole trick. With two
decks the seats decide on card kinds and play a kind's lowest copy (:mod:`.play_nb`). The
play state ``s``/``h``/``tr`` (:mod:`.play_nb`) is read at the start and left as
``play_until_nb`` leaves it at the end of the deal. A seat's legal cards and a card's
effect on the trick (:func:`legal_cards_nb`, :func:`trick_after_nb`) serve the
double-dummy search too (:mod:`.dd_solve_nb`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._jit import njit, var
from ..layout import POLICY_BASELINE, POLICY_RANDOM
from ..params import (
    BID_TRICKS,
    FRIEND_KIND_FRIEND,
    HUNTER_LEAD_DEMAND,
    HUNTER_NEXT_PLAYER,
    MODE_CALLED,
    MODE_FIRST_TRICK,
    P_BID_UNIT,
    P_FIRST_NO_HUNTER,
    P_FIRST_NO_JOKER,
    P_FIRST_NO_TRUMP,
    P_HAND_SIZE,
    P_HUNTED_POWERLESS,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_JOKER_NO_LEAD,
    P_JOKER_POWERLESS,
    P_JOKERS,
    P_MIGHTY_ANSWERS,
    P_MIGHTY_LEAD_DEMANDS,
    P_MIGHTY_SETS_FROM,
)
from ..players.play_policy_nb import (
    called_suit_nb,
    fit_code_nb,
    fitted_nb,
    follow_club_nb,
    follow_nb,
    hostile_behind_nb,
    joker_fades_nb,
    lead_fit_at_nb,
    lead_nb,
    play_decide_nb,
    random_play_at_nb,
    seats_behind_nb,
    takes_over_nb,
    winners_nb,
)
from ..rng_nb import below_at_nb
from ..rules.rules_nb import (
    JOKER_BIT,
    NO_TRUMP,
    POINT_MASK,
    bit_nb,
    copy_of_nb,
    fold_nb,
    in_tricks_nb,
    lowest_card_nb,
    mighty_of_nb,
    popcount_nb,
    suit_mask_nb,
    suit_to_follow_nb,
    trick_winner_nb,
)
from .play_nb import (
    H_DECK,
    H_JOKERS_SEEN,
    H_PLANE1,
    H_SEEN,
    H_SEEN2,
    S_CALLED,
    S_CAPTURED,
    S_DECKS,
    S_DECLARER,
    S_DEMANDED,
    S_FRIEND,
    S_FRIEND_HAS_LED,
    S_HUNTER,
    S_JOKER_SUIT,
    S_K,
    S_KIND,
    S_LEADER,
    S_MODE,
    S_N,
    S_REQUEST,
    S_REVEALED,
    S_TRICK_NO,
    S_TRUMP,
    S_VOIDS,
    S_WON,
    TR_PHYSICAL,
    club_memory_nb,
    partners_of_nb,
    record_trick_nb,
    take_copy_nb,
    void_shown_nb,
)

_JOKER = np.uint64(1) << np.uint64(JOKER_BIT)
_NONE = np.uint64(0)
_ONE = np.uint64(1)


class TrickRules(NamedTuple):
    """The profile's rules for the cards of a trick under one contract
    (:func:`trick_rules_nb`), read once a deal by the one-loop play and the double-dummy
    search."""

    mighty: int
    mighty_bit: np.uint64
    hunter: int
    lead_demand: bool  # the hunter led may demand the joker
    next_player: bool  # the joker must follow the hunter
    hunted_powerless: bool
    hunter_tricks: int
    joker_powerless: int
    joker_no_lead: int
    mighty_answers: bool
    mighty_lead_demands: bool
    mighty_sets_from: int
    first_restrict: np.uint64  # cards not to lead to trick 1 while others may be led
    late_power: bool  # a card played after a joker can take its power


@njit(cache=True, inline="always")
def trick_rules_nb(params: np.ndarray, trump: int, hunter: int) -> TrickRules:
    """The rules of the cards of a trick under ``trump``, ``hunter`` the hunter (-1
    none)."""
    mighty = mighty_of_nb(params, trump)
    hunter_rule = params[P_HUNTER_RULE]
    next_player = hunter_rule == HUNTER_NEXT_PLAYER
    hunted_powerless = params[P_HUNTED_POWERLESS] != 0
    first_restrict = _NONE
    if params[P_FIRST_NO_TRUMP] and trump != NO_TRUMP:
        first_restrict |= suit_mask_nb(trump)
    if params[P_FIRST_NO_JOKER]:
        first_restrict |= _JOKER
    if params[P_FIRST_NO_HUNTER] and hunter >= 0:
        first_restrict |= bit_nb(hunter)
    return TrickRules(mighty, bit_nb(mighty), hunter,
                      hunter_rule == HUNTER_LEAD_DEMAND and hunter >= 0, next_player,
                      hunted_powerless, params[P_HUNTER_TRICKS], params[P_JOKER_POWERLESS],
                      params[P_JOKER_NO_LEAD], params[P_MIGHTY_ANSWERS] != 0,
                      params[P_MIGHTY_LEAD_DEMANDS] != 0, params[P_MIGHTY_SETS_FROM],
                      first_restrict, next_player and hunted_powerless)


@njit(cache=True, inline="always")
def legal_cards_nb(r: TrickRules, hand: np.uint64, k: int, trick_no: int, request: int,
                   suit: int, demanded: bool, previous: int) -> np.uint64:
    """The legal cards of ``hand`` (:func:`.rules_nb.legal_plays_nb`) from the trick's
    running state: ``k`` cards played, ``request`` the suit the seat must lead if it can
    (-1 none), ``suit`` the suit to follow, ``previous`` the card played before."""
    if k == 0:
        legal = hand
        if request >= 0 and hand & suit_mask_nb(request):
            legal = hand & suit_mask_nb(request)
        if in_tricks_nb(r.joker_no_lead, trick_no) and legal & ~_JOKER:
            legal &= ~_JOKER
        if trick_no == 1 and legal & ~r.first_restrict:
            legal &= ~r.first_restrict
        return legal
    legal = _NONE
    if hand & _JOKER:
        if r.next_player:
            if r.hunter >= 0 and previous == r.hunter:
                legal = _JOKER
        elif demanded:
            legal = _JOKER
            if r.mighty_answers:
                legal |= hand & r.mighty_bit
    if legal == _NONE:
        legal = hand
        if suit >= 0:
            follow = hand & suit_mask_nb(suit)
            if follow:
                legal = follow | (hand & (r.mighty_bit | _JOKER))
    return legal


@njit(cache=True, inline="always")
def trick_after_nb(r: TrickRules, tr: np.ndarray, k: int, named: int, demand: bool,
                   state: tuple[int, int, bool], trump: int, trick_no: int,
                   lead: tuple[int, bool], params: np.ndarray
                   ) -> tuple[int, int, bool]:
    """The trick's running state after its ``k``-th card ``tr[k]`` (naming ``named`` and
    demanding ``demand`` when led), from the ``state`` before it: (the suit to follow,
    the index of the card winning so far, whether a joker in the trick has power).
    ``lead`` is the lead's named suit and demand."""
    suit, win, power = state
    joker_suit, demanded = lead
    card = tr[k]
    powered_lead = not in_tricks_nb(r.joker_powerless, trick_no)
    if k == 0:
        if card == JOKER_BIT:
            suit = named if powered_lead else -1
        elif card == r.mighty and not r.mighty_lead_demands:
            suit = -1
        else:
            suit = card // 13
        power = powered_lead
        if (demand and r.lead_demand and in_tricks_nb(r.hunter_tricks, trick_no)
                and card == r.hunter):
            power = powered_lead and not r.hunted_powerless
        return suit, 0, power
    if r.mighty_sets_from > 0 and trick_no >= r.mighty_sets_from and card == r.mighty:
        suit = r.mighty // 13
    if k == 1 and tr[0] == JOKER_BIT and not powered_lead:
        suit = card // 13  # a powerless joker led: the second card sets the suit
        win = trick_winner_nb(tr, 2, trump, trick_no, joker_suit, demanded, params)
    elif r.late_power:  # a hunter anywhere in the trick takes a joker's power
        hunted = card == r.hunter
        joker_before = False
        for i in range(k):
            hunted |= tr[i] == r.hunter
            joker_before |= tr[i] == JOKER_BIT
        if card == r.hunter and joker_before:  # the cards before it are weighed anew
            win = trick_winner_nb(tr, k + 1, trump, trick_no, joker_suit, demanded, params)
        elif winners_nb(bit_nb(card), tr[win], suit, trump, r.mighty, power and not hunted):
            win = k
    elif winners_nb(bit_nb(card), tr[win], suit, trump, r.mighty, power):
        win = k
    return suit, win, power


@njit(cache=True)
def _partners_nb(n: int, declarer: int, friend: int, revealed: bool, kind: int) -> int:
    """Every seat's known partners (``play_nb.partners_of_nb``), seat s's mask at bits
    8s to 8s+7."""
    packed = 0
    for p in range(n):
        packed |= partners_of_nb(p, n, declarer, friend, revealed, kind) << (8 * p)
    return packed


@njit(cache=True)
def _under_way_nb(s: np.ndarray, tr: np.ndarray, k0: int, trump: int, trick_no: int,
                  params: np.ndarray, hunt_now: bool, hunter: int, joker_power: bool,
                  hunted_powerless: bool
                  ) -> tuple[int, bool, int, bool, int, int, np.uint64]:
    """The running state of a trick whose first ``k0`` cards are played (a PIMC
    rollout's first trick; the batch kernel starts every trick empty):
    (the joker's named suit, the demand, the suit to follow, the joker's power, the
    index of the card winning, the trick's points, its cards). Not inlined: kept out of
    the trick loop's code."""
    joker_suit = s[S_JOKER_SUIT]
    demanded = s[S_DEMANDED] == 1
    suit = suit_to_follow_nb(tr, k0, trump, trick_no, joker_suit, params)
    if demanded and hunt_now and tr[0] == hunter:
        joker_power = joker_power and not hunted_powerless
    win = trick_winner_nb(tr, k0, trump, trick_no, joker_suit, demanded, params)
    trick_points = 0
    in_trick = _NONE
    for i in range(k0):
        in_trick |= bit_nb(tr[i])
        if bit_nb(tr[i]) & POINT_MASK:
            trick_points += 1
    return joker_suit, demanded, suit, joker_power, win, trick_points, in_trick


@njit(cache=True)
def play_tricks_nb(
    st: np.ndarray, s: np.ndarray, h: np.ndarray, tr: np.ndarray, policies: np.ndarray,
    params: np.ndarray, noise: float, record: bool, ti: np.ndarray, t_used: int,
) -> int:
    """Play every remaining card of a deal whose seats are all ``random`` or
    ``heuristic`` and whose state does not track inferences (``s[S_TRACK]`` 0), from any
    point of a trick; with ``noise`` > 0, each card is a random one with that
    probability. Returns the trick rows used, as ``play_until_nb``."""
    n = s[S_N]
    two = s[S_DECKS] == 2
    at = TR_PHYSICAL if two else 0  # where the physical cards of the trick are
    hand_size = params[P_HAND_SIZE]
    trump = s[S_TRUMP]
    declarer = s[S_DECLARER]
    mode = s[S_MODE]
    called = s[S_CALLED]
    request = s[S_REQUEST]
    hunter = s[S_HUNTER]
    r = trick_rules_nb(params, trump, hunter)
    hunter_bit = bit_nb(hunter) if hunter >= 0 else _NONE
    friend = s[S_FRIEND]
    kind = s[S_KIND]
    revealed = s[S_REVEALED] == 1
    friend_has_led = s[S_FRIEND_HAS_LED] == 1
    partners = _partners_nb(n, declarer, friend, revealed, kind)
    seen = h[H_SEEN]
    leader = s[S_LEADER]
    trick_no = s[S_TRICK_NO]
    k0 = s[S_K]  # cards already in the first trick
    noisy = noise > 0.0
    noise_in_1000 = int(noise * 1000.0)
    random_seats = 0  # bit s: seat s plays at random
    baseline_seats = 0  # bit s: seat s plays as the baseline heuristic
    for p in range(n):
        if policies[p] == POLICY_RANDOM:
            random_seats |= 1 << p
        elif policies[p] == POLICY_BASELINE:
            baseline_seats |= 1 << p
    tricks_scored = params[P_BID_UNIT] == BID_TRICKS
    take_over = takes_over_nb(params)
    fitted = fitted_nb(params)
    seen2 = h[H_SEEN2]  # two decks: kinds both copies of which were played
    jokers_seen = int(h[H_JOKERS_SEEN])
    jokers = params[P_JOKERS]
    absent = ~h[H_DECK]  # the cards the profile's deck does not have
    voids = s[S_VOIDS]  # the suits each seat has shown void in (play_nb.S_VOIDS)
    state = st[0]  # the stream's state in a register, stored back where others draw
    while trick_no <= hand_size:
        powered_lead = not in_tricks_nb(r.joker_powerless, trick_no)
        hunt_now = r.lead_demand and in_tricks_nb(r.hunter_tricks, trick_no)
        joker_suit = var(-1)
        demanded = var(False)
        suit = -1  # the suit to follow
        joker_power = powered_lead  # of a joker in this trick, as known so far
        win = var(0)
        trick_points = 0
        in_trick = _NONE
        if k0 > 0:  # a trick under way: its state from its cards
            joker_suit, demanded, suit, joker_power, win, trick_points, in_trick = (
                _under_way_nb(s, tr, k0, trump, trick_no, params, hunt_now, hunter,
                              joker_power, r.hunted_powerless))
        seat = leader + k0
        if seat >= n:
            seat -= n
        for k in range(k0, n):
            hand = fold_nb(h[seat], h[H_PLANE1 + seat]) if two else h[seat]
            # -- the seat's legal cards (rules_nb.legal_plays_nb) ------------------------
            request_now = -1
            if k == 0 and seat == friend and not friend_has_led:
                request_now = request
            legal = legal_cards_nb(r, hand, k, trick_no, request_now, suit, demanded,
                                   tr[k - 1] if k > 0 else -1)
            # -- the seat's decision ---------------------------------------------------------
            demand_card = var(-1)
            if k == 0 and hunt_now and not hand & _JOKER:
                demand_card = hunter
            at_random = (random_seats >> seat) & 1 == 1
            if noisy:
                state, draw = below_at_nb(state, 1000)
                at_random = at_random or draw < noise_in_1000
            if at_random:
                state, card, named, demand = random_play_at_nb(
                    state, legal, k == 0 and powered_lead, demand_card)
            elif k > 0 and legal & (legal - _ONE) == _NONE:
                card, named, demand = lowest_card_nb(legal), -1, False  # a forced card
            else:  # the heuristic's memory and partners
                club = (baseline_seats >> seat) & 1 == 0
                gone, mine, ours, known = club_memory_nb(
                    h, seat, hand, (seen | in_trick, seen2, absent), jokers - jokers_seen,
                    two and club, (declarer, friend, revealed, kind, called, mode),
                    (partners >> (8 * seat)) & 0xFF)
                if k == 0:  # the heuristic leader (policy_nb.play_decide_nb's lead)
                    fit = lead_fit_at_nb(fitted and club and ours, (seat, n, trick_no),
                                         called_suit_nb(mode, called, revealed), mine, voids)
                    card, named, demand = lead_nb(hand, legal, trump, trick_no, demand_card,
                                                  (ours, not tricks_scored, fit), seen, r.mighty,
                                                  (powered_lead, joker_fades_nb(params,
                                                                                trick_no)),
                                                  r.hunter_tricks, club, gone)
                elif not (k == 1 and tr[0] == JOKER_BIT) and not (
                        r.late_power and legal & hunter_bit and in_trick & _JOKER):
                    # the follower from the winning card, suit and joker power kept here (where
                    # policy_nb.play_decide_nb's "simple" holds)
                    win_seat = leader + win
                    if win_seat >= n:
                        win_seat -= n
                    power = joker_power and not (r.late_power and in_trick & hunter_bit)
                    partner_wins = (mine >> win_seat) & 1 == 1
                    if not club:
                        card = follow_nb(legal, tr[win], partner_wins, True, _NONE, suit, power,
                                         trick_points, k == n - 1, trick_no, trump, r.mighty)
                    else:
                        behind = seats_behind_nb(n, leader, seat)
                        opp_behind = popcount_nb(np.uint64(behind & ~mine))
                        wins = _NONE  # not asked when a partner wins
                        hostile = 0.0  # asked only against opponents, some still to play
                        if not partner_wins:
                            wins = winners_nb(legal, tr[win], suit, trump, r.mighty, power)
                            if opp_behind > 0:
                                hostile = hostile_behind_nb(behind, mine, seat, n, declarer,
                                                            known)
                        card = follow_club_nb(
                            legal, tr[win], partner_wins, wins,
                            (suit, trick_points, power, n - 1, hostile,
                             popcount_nb(np.uint64(behind & mine))), ~gone,
                            opp_behind, trick_no, trump, r.mighty,
                            (tricks_scored, take_over, hand_size,
                             fit_code_nb(fitted, ours, mine, win_seat, declarer)))
                    named, demand = -1, False
                else:  # the heuristic, which draws nothing
                    behind = seats_behind_nb(n, leader, seat)
                    hostile = hostile_behind_nb(behind, mine, seat, n, declarer, known)
                    card, named, demand = play_decide_nb(
                        policies[seat], st, seat, hand, legal,
                        (tr, k, leader, trump, trick_no, joker_suit, demanded, demand_card),
                        mine, ours, (seen, gone, behind, hostile, declarer,
                                     lead_fit_at_nb(False, (seat, n, trick_no), -1, mine,
                                                    voids)),
                        n, params, win)
            # -- the card into the trick (play_nb.place_card_nb) -----------------------------
            if two:
                copy = copy_of_nb(h[seat], h[H_PLANE1 + seat], card)
                tr[TR_PHYSICAL + k] = copy
                take_copy_nb(h, seat, copy)
            else:
                h[seat] = hand & ~bit_nb(card)
            tr[k] = card
            if mode == MODE_CALLED and card == called and seat != declarer and not revealed:
                if friend < 0 and kind == FRIEND_KIND_FRIEND:
                    friend = seat  # two decks: the first other player to play a copy
                if seat == friend:
                    revealed = True
                    partners = _partners_nb(n, declarer, friend, revealed, kind)
            if two:  # copies seen: a kind's second copy, the jokers one by one
                if (seen | in_trick) & bit_nb(card):
                    seen2 |= bit_nb(card)
                if card == JOKER_BIT:
                    jokers_seen += 1
            if k > 0:  # a void shown (the card kind against the suit to follow)
                voids |= void_shown_nb(seat, card, suit, r.mighty)
            in_trick |= bit_nb(card)
            if bit_nb(card) & POINT_MASK:
                trick_points += 1
            if k == 0:
                joker_suit = named
                demanded = demand
                if seat == friend:
                    friend_has_led = True
            suit, win, joker_power = trick_after_nb(r, tr, k, named, demand,
                                                    (suit, win, joker_power), trump, trick_no,
                                                    (joker_suit, demanded), params)
            seat += 1
            if seat == n:
                seat = 0
        # -- the trick's end (play_nb.end_trick_nb) --------------------------------------
        winner = leader + win
        if winner >= n:
            winner -= n
        pts = trick_points
        seen |= in_trick
        s[S_CAPTURED + winner] += pts
        s[S_WON + winner] += 1
        if record:
            record_trick_nb(ti, t_used, trick_no, leader, winner, pts, joker_suit,
                            demanded, tr, at, n)
            t_used += 1
        if trick_no == 1 and mode == MODE_FIRST_TRICK:
            if winner != declarer:
                friend = winner
                kind = FRIEND_KIND_FRIEND
            revealed = True
            partners = _partners_nb(n, declarer, friend, revealed, kind)
        for i in range(n):
            tr[i] = -1
        leader = winner
        trick_no += 1
        k0 = 0
    s[S_FRIEND] = friend
    s[S_KIND] = kind
    s[S_REVEALED] = 1 if revealed else 0
    s[S_FRIEND_HAS_LED] = 1 if friend_has_led else 0
    s[S_LEADER] = leader
    s[S_TRICK_NO] = trick_no
    s[S_K] = 0
    s[S_JOKER_SUIT] = -1
    s[S_DEMANDED] = 0
    h[H_SEEN] = seen
    h[H_SEEN2] = seen2
    s[S_VOIDS] = voids
    h[H_JOKERS_SEEN] = np.uint64(jokers_seen)
    st[0] = state
    return t_used
