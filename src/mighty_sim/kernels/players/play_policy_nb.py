"""The card play of the heuristic players, as kernels (``heuristic``, ``baseline``), and
the random player's card.

``baseline`` is the first heuristic, kept as it was as a yardstick for duels: it leads by
``lead_nb`` and follows by ``follow_nb``, winning with the cheapest card that beats the
trick so far. ``heuristic`` plays as a club player: :func:`follow_club_nb` reasons about
the seats still to play (see its docstring).
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from ..layout import POLICY_BASELINE, POLICY_RANDOM
from ..params import (
    BID_TRICKS,
    HUNTER_NEXT_PLAYER,
    MODE_CALLED,
    P_BID_UNIT,
    P_HAND_SIZE,
    P_HUNTED_POWERLESS,
    P_HUNTER_RULE,
    P_HUNTER_TRICKS,
    P_JOKER_POWERLESS,
    P_JOKERS,
    P_PLAYERS,
)
from ..rng_nb import below_at_nb
from ..rules.rules_nb import (
    JOKER_BIT,
    NO_TRUMP,
    POINT_MASK,
    above_nb,
    bit_nb,
    fold_nb,
    has_nb,
    highest_card_nb,
    hunter_of_nb,
    in_tricks_nb,
    is_point_nb,
    joker_has_power_nb,
    kth_card_nb,
    lowest_card_nb,
    masters_nb,
    mighty_of_nb,
    popcount_nb,
    suit_mask_nb,
    suit_to_follow_nb,
    trick_winner_nb,
)
from .lead_fit import FIT_PLAYERS, FIT_TRICK, fitted_lead_nb
from .shed_fit import fitted_shed_nb

_RANK_0 = np.uint64(sum(1 << (13 * s) for s in range(4)))  # the 2 of every suit
_JOKER_MASK = np.uint64(1 << JOKER_BIT)
_RANKS = np.uint64(0x1FFF)  # the 13 ranks of one suit


@njit(cache=True)
def dump_value_nb(card: int, trump: int, mighty: int) -> int:
    """Cost of giving a card away: low ranks first, points, trumps and specials last."""
    if card == JOKER_BIT or card == mighty:
        return 100
    rank = card % 13
    v = rank
    if card // 13 == trump:
        v += 20
    if rank >= 8:
        v += 8
    return v


@njit(cache=True, inline="always")
def random_play_at_nb(state: np.uint64, legal: np.uint64, powered_lead: bool,
                      demand_card: int) -> tuple[np.uint64, int, int, bool]:
    """The random player's card: a legal card, a suit for a joker led with power, a
    demand (one time in two) with the card that may demand the joker; drawn from a
    stream's state held in a register (``rng_nb.below_at_nb``), returned first."""
    state, k = below_at_nb(state, popcount_nb(legal))
    card = kth_card_nb(legal, k)
    suit = -1
    if card == JOKER_BIT and powered_lead:
        state, suit = below_at_nb(state, 4)
    demand = False
    if card == demand_card:
        state, half = below_at_nb(state, 2)
        demand = half < 1
    return state, card, suit, demand


@njit(cache=True, inline="always")
def random_play_nb(st: np.ndarray, legal: np.uint64, powered_lead: bool,
                   demand_card: int) -> tuple[int, int, bool]:
    """:func:`random_play_at_nb` drawing from stream ``st``."""
    st[0], card, suit, demand = random_play_at_nb(st[0], legal, powered_lead, demand_card)
    return card, suit, demand


@njit(cache=True)
def play_decide_nb(
    policy: int, st: np.ndarray, seat: int, hand: np.uint64, legal: np.uint64,
    at: tuple[np.ndarray, int, int, int, int, int, bool, int], partner_mask: int,
    declarer_side: bool, memory: tuple[np.uint64, np.uint64, int, float, int, LeadFit],
    players: int,
    params: np.ndarray, win_idx: int,
) -> tuple[int, int, bool]:
    """(card, joker suit named or -1, demand) for the seat to play.

    ``at`` is the trick as it stands: its cards (``trick``), how many are played, the
    leader, trump, the trick's number, the suit a led joker named, whether the joker was
    demanded, and ``demand_card``, the card that, led now, may demand the joker (-1 if none);
    ``partner_mask`` has bit s set for each seat known to be on this seat's side;
    ``memory`` is (``seen``, every card played before this trick; ``gone``, the card
    kinds of which no copy is left outside its hand, this trick's cards counted (see
    :func:`gone_kinds_nb`), and every card the profile's deck does not have;
    ``behind``, the seats still to play (bit s); ``hostile``, how many of them it
    counts as opponents, :func:`hostile_behind_nb`; the declarer; the fitted lead's
    inputs, :func:`lead_fit_at_nb`); ``win_idx`` the index in
    ``trick`` of the card winning it so far when the caller knows it, else -1.
    """
    trick, n_played, leader, trump, trick_no, joker_suit, demanded, demand_card = at
    seen, gone, behind, hostile, declarer, fit = memory
    powered_lead = not in_tricks_nb(params[P_JOKER_POWERLESS], trick_no)
    if policy == POLICY_RANDOM:
        return random_play_nb(st, legal, n_played == 0 and powered_lead, demand_card)
    mighty = mighty_of_nb(params, trump)
    if n_played == 0:
        return lead_nb(hand, legal, trump, trick_no, demand_card,
                       (declarer_side, params[P_BID_UNIT] != BID_TRICKS, fit), seen,
                       mighty, (powered_lead, joker_fades_nb(params, trick_no)),
                       params[P_HUNTER_TRICKS],
                       policy != POLICY_BASELINE, gone)
    # following: who is winning so far, and is it a partner?
    idx = win_idx
    if idx < 0:
        idx = trick_winner_nb(trick, n_played, trump, trick_no, joker_suit, demanded, params)
    win_seat = (leader + idx) % players
    points = 0
    for i in range(n_played):
        c = trick[i]
        if is_point_nb(c):
            points += 1
    last = n_played == players - 1
    w = trick[idx]
    partner_wins = (partner_mask >> win_seat) & 1 == 1
    # a cheap "which cards beat the card winning now" (winners_nb) where it says what
    # trick_winner would; the whole trick asked card by card where it may not: a
    # powerless joker led (the card played sets the suit), a hunter that
    # would take the power of a joker in the trick (next-player hunter rule). Mighty
    # setting the suit needs no exception: Mighty wins the trick.
    simple = winners_apply_nb(trick, n_played, legal, trump, params)
    wins = np.uint64(0)
    suit = -1
    joker_power = False
    club = policy != POLICY_BASELINE
    if not partner_wins or club:
        suit = suit_to_follow_nb(trick, n_played, trump, trick_no, joker_suit, params)
        # the joker's power matters only when it is winning or may be played (or, to the
        # heuristic, when an unseen joker may beat its card, and what beats a joker
        # winning: led with its power, Mighty alone, not the suit it named)
        if club or w == JOKER_BIT or has_nb(legal, JOKER_BIT):
            joker_power = joker_has_power_nb(trick, n_played, trump, trick_no, demanded,
                                             params)
        if not simple:
            m = legal
            while m:
                c = lowest_card_nb(m)
                m &= ~bit_nb(c)
                trick[n_played] = c
                if trick_winner_nb(trick, n_played + 1, trump, trick_no, joker_suit,
                                   demanded, params) == n_played:
                    wins |= bit_nb(c)
                trick[n_played] = -1
    if not club:
        return follow_nb(legal, w, partner_wins, simple, wins, suit, joker_power, points,
                         last, trick_no, trump, mighty), -1, False
    if simple:
        wins = winners_nb(legal, w, suit, trump, mighty, joker_power)
    opp_behind = popcount_nb(np.uint64(behind & ~partner_mask))
    card = follow_club_nb(
        legal, w, partner_wins, wins, (suit, points, joker_power, players - 1, hostile,
                                       popcount_nb(np.uint64(behind & partner_mask))),
        ~gone, opp_behind, trick_no, trump, mighty,
        (params[P_BID_UNIT] == BID_TRICKS, takes_over_nb(params), params[P_HAND_SIZE],
         fit_code_nb(fitted_nb(params), declarer_side, partner_mask, win_seat, declarer)))
    return card, -1, False


@njit(cache=True, inline="always")
def follow_nb(
    legal: np.uint64, w: int, partner_wins: bool, simple: bool, wins: np.uint64, suit: int,
    joker_power: bool, points: int, last: bool, trick_no: int, trump: int, mighty: int,
) -> int:
    """The heuristic follower's card: ``w`` is the card winning the trick so far and
    ``points`` the points in it; ``partner_wins`` whether a known partner played ``w``.
    The cards of ``legal`` that would beat ``w`` are ``wins`` when not ``simple``, else
    found here from the suit to follow and the joker's power."""
    if partner_wins:
        if last or w == mighty or w == JOKER_BIT:
            # the lowest-ranked side point card, the lowest suit's on a tie
            give = side_points_nb(legal, trump, mighty)
            if give:
                return _lowest_rank_nb(give)
        return _cheapest_nb(legal, trump, mighty)
    # an opponent (or nobody known) is winning: win cheaply when it is worth it
    if simple:
        wins = winners_nb(legal, w, suit, trump, mighty, joker_power)
    wins = worth_winning_nb(wins, points, last, trick_no, mighty)
    if wins:
        return cheapest_winner_nb(wins, trump, mighty)
    return _cheapest_nb(legal, trump, mighty)


@njit(cache=True, inline="always")
def takes_over_nb(params: np.ndarray) -> bool:
    """Whether the heuristic takes a partner's trick over when the seats behind may beat
    it: in one-deck point games of five players or more (measured: the card-by-card
    yardstick and the duel in ``standard``; in trick-scored profiles, where a partner's
    trick counts as much, with two decks, and with three or four players, where the
    declarer's side is one or two seats, it lost duels against the baseline)."""
    return (params[P_BID_UNIT] != BID_TRICKS and params[P_JOKERS] < 2
            and params[P_PLAYERS] >= 5)


@njit(cache=True, inline="always")
def fitted_nb(params: np.ndarray) -> bool:
    """Whether a heuristic defender that cannot take the trick chooses its card by the
    fitted score (:mod:`.shed_fit`, fitted on `standard`): in one-deck point games
    (measured: the yardstick in `standard`, the duels in `standard` and `russian-3p` to
    `-5p`; on the declarer's side the fit gained nothing against double-dummy and lost
    duels; trick-scored and two-deck profiles keep the rules)."""
    return params[P_BID_UNIT] != BID_TRICKS and params[P_JOKERS] < 2


@njit(cache=True, inline="always")
def fit_code_nb(fitted: bool, declarer_side: bool, mine: int, win_seat: int,
                declarer: int) -> int:
    """:func:`follow_club_nb`'s fit code for a follower: 0 where the fitted score does not
    choose (not :func:`fitted_nb`, or the declarer's side), 1 where it does, 2 where it
    does and the defender cannot tell the side of the seat winning the trick (it knows
    no partner, the friend hidden, and that seat is not the declarer)."""
    if not fitted or declarer_side:
        return 0
    return 2 if mine == 0 and win_seat != declarer else 1


@njit(cache=True, inline="always")
def joker_fades_nb(params: np.ndarray, trick_no: int) -> bool:
    """Whether a joker has no power from the trick after ``trick_no`` on while it has
    some in it (``standard``: trick 9; never where the last trick keeps its power)."""
    powerless = params[P_JOKER_POWERLESS]
    return not in_tricks_nb(powerless, trick_no) and in_tricks_nb(powerless, trick_no + 1)


@njit(cache=True, inline="always")
def seats_behind_nb(n: int, leader: int, seat: int) -> int:
    """The seats still to play in a trick after ``seat`` (bit s): after it and before the
    leader, around the table."""
    after = ((1 << n) - 1) & ~((2 << seat) - 1)
    before = (1 << leader) - 1
    return after & before if seat < leader else after | before


@njit(cache=True, inline="always")
def hostile_behind_nb(behind: int, mine: int, seat: int, n: int, declarer: int,
                      known: bool) -> float:
    """How many of the seats ``behind`` are opponents of ``seat``, as it can tell:
    those not among its partners ``mine`` when it knows the sides (``known``); else, for
    the declarer, each other seat but one in ``n - 1`` (the friend it does not know);
    for a defender, the declarer and each other seat one time in ``n - 2`` (the friend
    hidden among them)."""
    if known:
        return float(popcount_nb(np.uint64(behind & ~mine)))
    count = popcount_nb(np.uint64(behind))
    if seat == declarer:
        return count * (n - 2) / (n - 1)
    d = (behind >> declarer) & 1
    return d + (count - d) / (n - 2)


@njit(cache=True, inline="always")
def gone_kinds_nb(p0: np.uint64, p1: np.uint64, seen: np.uint64, seen2: np.uint64,
                  jokers_left: int) -> np.uint64:
    """The card kinds of which a player of a two-deck deal can meet no copy any more,
    counted by copies: those it holds both copies of (``p0``, ``p1``: its planes), has
    seen twice (``seen2``), or holds one copy of and has seen the other (``seen``: kinds
    seen once or more); the joker once none is left outside (``jokers_left`` 0). With
    one deck a kind held or seen is gone: ``hand | seen``."""
    gone = (p0 & p1) | seen2 | (fold_nb(p0, p1) & seen)
    if jokers_left > 0:
        return gone & ~_JOKER_MASK
    return gone | _JOKER_MASK


@njit(cache=True, inline="always")
def worth_winning_nb(wins: np.uint64, points: int, last: bool, trick_no: int,
                     mighty: int) -> np.uint64:
    """The cards of ``wins`` worth winning a trick of ``points`` with: any when it holds
    points (the card's own count: a point card may always win), is the last to play or
    one of the last tricks; Mighty only for two points or more, the joker for one (but
    in trick 9)."""
    if not (points >= 1 or last or trick_no >= 9):
        wins &= POINT_MASK
    if points + (1 if is_point_nb(mighty) else 0) < 2 and trick_no < 10:
        wins &= ~bit_nb(mighty)
    if points < 1 and trick_no != 9:
        wins &= ~_JOKER_MASK
    return wins


@njit(cache=True, inline="always")
def cheapest_winner_nb(wins: np.uint64, trump: int, mighty: int) -> int:
    """The cheapest of a non-empty mask of cards that win the trick: a side card by rank
    (only the suit to follow can win), then a trump by rank, the joker, Mighty."""
    mighty_bit = bit_nb(mighty)
    plain = wins & ~mighty_bit & ~_JOKER_MASK
    if trump != NO_TRUMP:
        plain &= ~suit_mask_nb(trump)
    if plain:
        return _lowest_rank_nb(plain)
    trumps = wins & ~mighty_bit & ~_JOKER_MASK
    if trumps:
        return lowest_card_nb(trumps)
    if wins & _JOKER_MASK:
        return JOKER_BIT
    return mighty


@njit(cache=True, inline="always")
def standing_nb(cards: np.uint64, threats: np.uint64, suit: int, trump: int, mighty: int,
                joker_power: bool) -> np.uint64:
    """The cards of ``cards`` (cards that would win the trick: of the suit to follow,
    trumps, Mighty, the joker) that, once winning it, no card of ``threats`` beats: what
    ``winners_nb`` says card by card, in masks. Mighty stands; the joker with power
    stands unless Mighty is a threat; any other card only when neither is, a trump
    above every threatening trump, a card of the suit to follow above every threatening
    card of its suit and no threatening trump (with two decks, a card whose other copy
    is the highest threat stands too: of two copies the first played wins)."""
    mighty_bit = bit_nb(mighty)
    out = cards & mighty_bit
    if threats & mighty_bit:
        return out
    if joker_power:
        out |= cards & _JOKER_MASK
        if threats & _JOKER_MASK:
            return out
    rest = cards & ~mighty_bit & ~_JOKER_MASK
    trump_threats = np.uint64(0)
    if trump != NO_TRUMP:
        t_mask = suit_mask_nb(trump)
        trump_threats = threats & t_mask & ~mighty_bit
        mine = rest & t_mask
        out |= mine & _from_nb(highest_card_nb(trump_threats)) if trump_threats else mine
        rest &= ~t_mask
    if rest and not trump_threats and 0 <= suit < 4:
        side = threats & suit_mask_nb(suit) & ~mighty_bit
        out |= rest & _from_nb(highest_card_nb(side)) if side else rest
    return out


@njit(cache=True, inline="always")
def _from_nb(card: int) -> np.uint64:
    """The cards from ``card`` up in bit order: a copy of a threat (two decks) does not
    beat the copy played first."""
    return above_nb(card) | bit_nb(card)


@njit(cache=True, inline="always")
def threats_nb(outside: np.uint64, suit: int, trump: int, mighty: int, points: int,
               opp_behind: int) -> np.uint64:
    """The unseen cards the opponents still to play are taken to beat a card with: all
    of them but Mighty and the joker on a trick worth less than two points (their holders
    keep them for richer tricks), and no trump while the suit led has at least two unseen
    cards an opponent behind (they follow suit rather than ruff)."""
    t = outside
    if points < 2:
        t &= ~(bit_nb(mighty) | _JOKER_MASK)
    if 0 <= suit < 4 and suit != trump and trump != NO_TRUMP:
        if popcount_nb(outside & suit_mask_nb(suit)) >= 2 * opp_behind:
            t &= ~suit_mask_nb(trump) | bit_nb(mighty)
    return t


@njit(cache=True, inline="always")
def follow_club_nb(
    legal: np.uint64, w: int, partner_wins: bool, wins: np.uint64,
    at: tuple[int, int, bool, int, float, int], outside: np.uint64, opp_behind: int,
    trick_no: int, trump: int, mighty: int, scoring: tuple[bool, bool, int, int],
) -> int:
    """The heuristic follower's card, reasoning about the seats still to play.

    ``wins`` are the cards of ``legal`` that beat ``w``, the card winning the trick so
    far; ``at`` is (the suit to follow, the trick's points, the joker's power, the number
    of other players, among whom the unseen cards lie, how many of the seats still
    to play it counts as opponents: a friend not known yet is one of several, and how
    many of them are known partners); ``outside``
    the cards it has not seen (not in its hand, the finished tricks or this one) and
    ``opp_behind`` how many seats still to play are not known partners; ``scoring``
    whether the profile scores tricks, whether the follower takes a partner's
    threatened trick over (:func:`takes_over_nb`), the hand size (the tricks) and
    whether a card that cannot take the trick is chosen by the fitted score (a
    defender, where :func:`fitted_nb`): 0 not, 1 yes, 2 yes and the side of the seat
    winning the trick is unknown to it (:func:`fit_code_nb`).

    - No card takes the trick, the fitted score chooses: the card of lowest
      :func:`.shed_fit.fitted_shed_nb`. Otherwise:
    - A known partner wins: with no opponent behind, or a card no unseen card beats,
      it is given the lowest side point card that an unseen card outranks (a master of
      its suit is a trick of its own to come, kept: :func:`beaten_nb`); otherwise the
      follower takes the trick over with its cheapest card that stands against the
      unseen cards when the trick is worth it (where it pays, :func:`takes_over_nb`),
      else sheds (:func:`shed_nb`).
    - An opponent wins: with no opponent behind, the cheapest card that wins when the
      trick is worth it (as the baseline), but a trick without points (before the last
      two tricks) only with a side card of the suit led; with opponents behind, the cheapest winning
      card that stands against what they may hold, else the cheapest winning card
      unless they beat it three times in four (each unseen card that beats it is
      behind with odds the seats behind over the other players): then the trick is
      given up cheaply (second hand low: a card that the seats behind beat only feeds
      their trick). Not taking it, with only known partners behind and an unseen card
      that beats the trick, it gives them a side point card (not a master).
    - In trick-scored profiles every trick is worth winning and points are not fed.
    """
    suit, points, joker_power, others, hostile, mates_behind = at
    tricks_scored, take_over, hand_size, fitted = scoring
    worth_pts = 2 if tricks_scored else points
    if fitted > 0 and not (winners_nb(legal, w, suit, trump, mighty, joker_power)
                           if partner_wins else wins):
        # a defender no card of which takes the trick: the fitted choice (shed_fit)
        beat = -1  # counted only where a side point card may be given
        if side_points_nb(legal, trump, mighty):
            beat = popcount_nb(winners_nb(outside, w, suit, trump, mighty, joker_power))
        return fitted_shed_nb(legal, outside, beat, trump, mighty,
                              (partner_wins, mates_behind, opp_behind,
                               hand_size + 1 - trick_no, hand_size - trick_no,
                               fitted == 2))
    if partner_wins:
        if opp_behind == 0 or not winners_nb(
                threats_nb(outside, suit, trump, mighty, max(worth_pts, 2), opp_behind), w,
                suit, trump, mighty, joker_power):
            give = beaten_nb(side_points_nb(legal, trump, mighty), outside, mighty)
            if give and not tricks_scored:
                return _lowest_rank_nb(give)
            return _shed_nb(legal, trump, mighty, tricks_scored)
        # the partner's card may be beaten behind: take the trick over with a card that
        # stands, when the trick is worth it
        over = worth_winning_nb(winners_nb(legal, w, suit, trump, mighty, joker_power),
                                worth_pts, False, trick_no, mighty)
        if over and take_over:  # (only where points are scored: ``rich`` counts them)
            rich = points + (1 if over & POINT_MASK else 0)
            stand = standing_nb(over, threats_nb(outside, suit, trump, mighty, rich,
                                                 opp_behind), suit, trump, mighty, joker_power)
            if stand:
                return cheapest_winner_nb(stand, trump, mighty)
        return _shed_nb(legal, trump, mighty, tricks_scored)
    wins = worth_winning_nb(wins, worth_pts, opp_behind == 0, trick_no, mighty)
    if opp_behind == 0 and worth_pts == 0 and trick_no < hand_size - 1 and 0 <= suit < 4:
        # the last to play takes a trick without points (but in the last two tricks) only
        # with the suit led: a trump or a special card spent on it is one the richer
        # tricks lack
        wins &= suit_mask_nb(suit) if suit != trump else np.uint64(0)
    if wins and opp_behind > 0:
        # the points the seats behind would spend Mighty or the joker on: a trick of a
        # trick-scored profile is one trick, worth no special card
        rich = 1 if tricks_scored else points + (1 if wins & POINT_MASK else 0)
        threats = threats_nb(outside, suit, trump, mighty, rich, opp_behind)
        stand = standing_nb(wins, threats, suit, trump, mighty, joker_power)
        if stand:
            return cheapest_winner_nb(stand, trump, mighty)
        # no card stands: the cheapest winner, unless the seats behind beat it three
        # times in four (each unseen card that beats it is in an opponent's hand behind
        # with odds hostile / others)
        c = cheapest_winner_nb(wins, trump, mighty)
        beaten_by = popcount_nb(winners_nb(threats, c, suit, trump, mighty, joker_power))
        if (1.0 - hostile / others) ** beaten_by > 0.25:
            return c
        return _shed_nb(legal, trump, mighty, tricks_scored)
    if wins:
        return cheapest_winner_nb(wins, trump, mighty)
    if opp_behind == 0 and mates_behind > 0 and not tricks_scored and winners_nb(
            outside, w, suit, trump, mighty, joker_power):
        # only partners behind, and one of them may take the trick: feed it a point
        give = beaten_nb(side_points_nb(legal, trump, mighty), outside, mighty)
        if give:
            return _lowest_rank_nb(give)
    return _shed_nb(legal, trump, mighty, tricks_scored)




@njit(cache=True, inline="always")
def side_points_nb(legal: np.uint64, trump: int, mighty: int) -> np.uint64:
    """The point cards of ``legal`` a follower gives a partner's trick: side suits' only
    (neither trumps nor Mighty)."""
    give = legal & POINT_MASK & ~bit_nb(mighty)
    if trump != NO_TRUMP:
        give &= ~suit_mask_nb(trump)
    return give


@njit(cache=True, inline="always")
def beaten_nb(cards: np.uint64, outside: np.uint64, mighty: int) -> np.uint64:
    """The side cards of ``cards`` that an unseen card of their suit outranks (Mighty
    not counted): the others are their suit's masters, tricks of their own to come."""
    out = np.uint64(0)
    for suit in range(4):
        mine = cards & suit_mask_nb(suit)
        if mine:
            out |= mine & ~masters_nb(mine, outside & suit_mask_nb(suit) & ~bit_nb(mighty))
    return out


@njit(cache=True, inline="always")
def _lowest_rank_nb(mask: np.uint64) -> int:
    """The lowest-ranked card of a mask, the lowest suit's on a tie; -1 without a suit
    card. The four suits folded onto one 13-bit rank mask: its lowest bit is the rank."""
    ranks = (mask | (mask >> np.uint64(13)) | (mask >> np.uint64(26))
             | (mask >> np.uint64(39))) & _RANKS
    if not ranks:
        return -1
    return lowest_card_nb(mask & (_RANK_0 << np.uint64(lowest_card_nb(ranks))))


@njit(cache=True)
def winners_apply_nb(trick: np.ndarray, n_played: int, legal: np.uint64, trump: int,
                     params: np.ndarray) -> bool:
    """Whether ``winners_nb`` says, for every card of ``legal``, what ``trick_winner_nb``
    would with the card added to the first ``n_played`` cards of ``trick``."""
    if n_played == 1 and trick[0] == JOKER_BIT:
        return False
    if params[P_HUNTER_RULE] == HUNTER_NEXT_PLAYER and params[P_HUNTED_POWERLESS]:
        if has_nb(legal, hunter_of_nb(params, trump)):
            for i in range(n_played):
                if trick[i] == JOKER_BIT:
                    return False
    return True


@njit(cache=True, inline="always")
def winners_nb(legal: np.uint64, w: int, suit: int, trump: int, mighty: int,
               joker_power: bool) -> np.uint64:
    """The cards of ``legal`` that would beat ``w``, the card winning the trick so far
    (every card at once; with two decks, card kinds: a copy of ``w`` does not beat it)."""
    mighty_bit = bit_nb(mighty)
    wins = legal & mighty_bit
    if w == mighty:  # of two Mighties (two decks), the first played wins
        return np.uint64(0)
    if joker_power:
        wins |= legal & _JOKER_MASK
    if w == JOKER_BIT and joker_power:
        return wins & ~_JOKER_MASK
    ws = -1 if w == JOKER_BIT else w // 13
    rest = legal & ~mighty_bit & ~_JOKER_MASK
    if trump != NO_TRUMP:
        trumps = rest & suit_mask_nb(trump)
        wins |= trumps & above_nb(w) if ws == trump else trumps
        if ws == trump:
            return wins
    if 0 <= suit < 4 and suit != trump:
        follow = rest & suit_mask_nb(suit)
        wins |= follow & above_nb(w) if ws == suit else follow
    return wins


@njit(cache=True, inline="always")
def _cheapest_nb(legal: np.uint64, trump: int, mighty: int) -> int:
    """The card of a non-empty mask cheapest to give away (``dump_value_nb``; the lowest
    card on a tie): the lowest side card by rank against the lowest trump, then Mighty,
    then the joker."""
    special = bit_nb(mighty) | _JOKER_MASK
    plain = legal & ~special
    trumps = np.uint64(0)
    if trump != NO_TRUMP:
        trumps = plain & suit_mask_nb(trump)
        plain &= ~trumps
    best, best_v = -1, 10_000
    if plain:
        best = _lowest_rank_nb(plain)
        best_v = dump_value_nb(best, trump, mighty)
    if trumps:
        c = lowest_card_nb(trumps)
        v = dump_value_nb(c, trump, mighty)
        if v < best_v or (v == best_v and c < best):
            best, best_v = c, v
    if best >= 0:
        return best
    return lowest_card_nb(legal & special)


@njit(cache=True, inline="always")
def _shed_nb(legal: np.uint64, trump: int, mighty: int, tricks_scored: bool) -> int:
    """The club follower's card to give away when it does not take the trick: in
    trick-scored profiles the cheapest (short suits become voids to ruff tricks with),
    else :func:`shed_nb`."""
    if tricks_scored:
        return _cheapest_nb(legal, trump, mighty)
    return shed_nb(legal, trump, mighty)


@njit(cache=True, inline="always")
def shed_nb(legal: np.uint64, trump: int, mighty: int) -> int:
    """The club follower's card to give away when it does not take the trick: the lowest
    card of its longest side suit (a short suit's cards guard it), point cards last; a
    trump or a special card only when it has nothing else."""
    plain = legal & ~bit_nb(mighty) & ~_JOKER_MASK
    if trump != NO_TRUMP:
        plain &= ~suit_mask_nb(trump)
    if not plain:
        return _cheapest_nb(legal, trump, mighty)
    low = lowest_card_nb(plain)
    if not plain & ~suit_mask_nb(low // 13):  # one suit (following it): its lowest card
        return low
    best, best_key = -1, 10_000
    for suit in range(4):
        mine = plain & suit_mask_nb(suit)
        if not mine:
            continue
        c = lowest_card_nb(mine)
        key = (13 - popcount_nb(mine)) * 16 + c % 13
        if is_point_nb(c):
            key += 400
        if key < best_key:
            best, best_key = c, key
    return best


LeadFit = tuple[bool, tuple[int, int, int, bool, int, int]]
"""Whether a leader leads by :func:`.lead_fit.fitted_lead_nb`, and that score's inputs."""
NO_LEAD_FIT: LeadFit = (False, (0, 0, -1, False, 0, 0))
"""A lead the rules choose (as :func:`lead_fit_at_nb` returns it where the score does not
apply), for callers outside the play loops."""


@njit(cache=True, inline="always")
def called_suit_nb(mode: int, called: int, revealed: bool) -> int:
    """The called card's suit while the friend it names is hidden, else -1 (the joker's
    too)."""
    if mode != MODE_CALLED or revealed or called < 0 or called == JOKER_BIT:
        return -1
    return called // 13


@njit(cache=True, inline="always")
def lead_fit_at_nb(use: bool, at: tuple[int, int, int], called_suit: int, mine: int,
                   voids: int) -> LeadFit:
    """Whether the leader leads by the fitted score, and its inputs: ``use`` where the
    caller allows it (a heuristic leader of the declarer's side in a one-deck point game,
    :func:`fitted_nb`), in trick ``lead_fit.FIT_TRICK`` of a game of
    ``lead_fit.FIT_PLAYERS`` players; ``at`` is (the leader, the number of players, the
    trick), ``mine`` its known partners and ``voids`` the suits every seat has shown void
    in (``play_nb.S_VOIDS``). Elsewhere the inputs are not worked out."""
    seat, n, trick_no = at
    if not (use and trick_no == FIT_TRICK and n == FIT_PLAYERS):
        return False, (0, n, -1, False, 0, 0)
    pal, opp_void, pal_void = -1, 0, 0
    for p in range(n):
        if p == seat:
            continue
        if (mine >> p) & 1:
            pal_void |= (voids >> (4 * p)) & 0xF
            if pal < 0:
                pal = p
        else:
            opp_void |= (voids >> (4 * p)) & 0xF
    pal_pos = 0 if pal < 0 else (pal - seat if pal > seat else pal - seat + n)
    mate_next = (mine >> (seat + 1 if seat + 1 < n else 0)) & 1 == 1
    return True, (pal_pos, n, called_suit, mate_next, opp_void, pal_void)


@njit(cache=True)
def lead_nb(
    hand: np.uint64, legal: np.uint64, trump: int, trick_no: int, demand_card: int,
    side: tuple[bool, bool, LeadFit], seen: np.uint64, mighty: int,
    joker: tuple[bool, bool], hunter_tricks: int, club: bool, gone: np.uint64,
) -> tuple[int, int, bool]:
    """The heuristic leader's (card, joker suit named or -1, demand): ``demand_card`` the
    card that may demand the joker now (-1 if none), ``side`` whether the leader is on the
    declarer's side, whether the profile scores card points and the fitted lead's inputs
    (:func:`lead_fit_at_nb`: where it applies, the leader plays the card of lowest
    :func:`.lead_fit.fitted_lead_nb` after the hunt), ``seen`` every card of the finished
    tricks, ``hunter_tricks`` the profile's tricks where the hunter may demand, ``joker``
    whether a joker led now has power and whether it has none from the next trick on;
    ``gone`` the card kinds of which no copy is left outside its hand (:func:`gone_kinds_nb`),
    which the heuristic counts by copies where the baseline takes a kind seen once as
    gone; ``club`` whether it plays as the heuristic or the baseline."""
    declarer_side, for_points, fit = side
    # 1. hunt the joker while it is out and not ours
    out = not has_nb(gone, JOKER_BIT) if club else not has_nb(seen, JOKER_BIT)
    if (demand_card >= 0 and has_nb(legal, demand_card) and out
            and in_tricks_nb(hunter_tricks, trick_no) and trick_no < 10):
        return demand_card, -1, True
    outside = ~gone if club else ~(hand | seen)
    powered_lead, fades = joker
    if club and has_nb(legal, JOKER_BIT) and powered_lead and fades:
        # the joker's last trick with its power: a joker kept to the end is lost
        return JOKER_BIT, (trump if trump != NO_TRUMP else 0), False
    use_fit, fit_at = fit
    if use_fit:  # the declarer's side's fitted lead of trick 2 (lead_fit)
        card = fitted_lead_nb(hand, legal, outside, trump, mighty, fit_at)
        if card == JOKER_BIT and powered_lead:
            return card, (trump if trump != NO_TRUMP else 0), False
        return card, -1, False
    # 2. declarer side draws trumps while opponents may hold some: with its top trump
    # when no unseen trump beats it (the heuristic; else its lowest), the baseline always
    if declarer_side and trump != NO_TRUMP:
        trumps = legal & suit_mask_nb(trump)
        unseen = popcount_nb(outside & suit_mask_nb(trump))
        if popcount_nb(trumps) >= 2 and unseen > 0:
            if has_nb(legal, JOKER_BIT) and powered_lead and trick_no < 9:
                return JOKER_BIT, trump, False
            top = highest_card_nb(trumps)
            if club and outside & suit_mask_nb(trump) & above_nb(top) & ~bit_nb(mighty):
                return lowest_card_nb(trumps), -1, False  # no king led into the ace
            return top, -1, False
    # 3. cash a sure winner: the highest outstanding card of a side suit; in point games a
    # defender (the heuristic) not while Mighty or the joker is out, whose holder would
    # take the ace and the points with it, and it leads Mighty's suit to draw Mighty out
    attack = club and for_points and not declarer_side
    cash = not attack or not outside & (bit_nb(mighty) | _JOKER_MASK)
    for suit in range(4 if cash else 0):
        if suit == trump:
            continue
        mine = legal & suit_mask_nb(suit)
        if not mine:
            continue
        top = highest_card_nb(mine)
        if top != mighty and not outside & suit_mask_nb(suit) & above_nb(top):
            return top, -1, False
    # 4. otherwise the lowest card of the shortest side suit, never a point if avoidable
    # (key: length * 16 + rank, +400 a trump, +200 a point; the lowest card on a tie)
    best, best_key = -1, 10_000
    plain = legal & ~bit_nb(mighty) & ~_JOKER_MASK
    for suit in range(4):
        mine = plain & suit_mask_nb(suit)
        if not mine:
            continue
        c = lowest_card_nb(mine)
        key = popcount_nb(hand & suit_mask_nb(suit)) * 16 + c % 13
        if suit == trump:
            key += 400
        if is_point_nb(c):
            key += 200
        if attack and suit == mighty // 13 and suit != trump and outside & bit_nb(mighty):
            key -= 100  # a defender's Mighty attack: Mighty's suit may draw it out
        if key < best_key:
            best, best_key = c, key
    if best < 0:
        best = _cheapest_nb(legal, trump, mighty)
        if best == JOKER_BIT and powered_lead:
            return best, (trump if trump != NO_TRUMP else 0), False
    return best, -1, False

