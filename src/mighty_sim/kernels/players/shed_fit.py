"""The defender's fitted choice of a card that does not take the trick: a linear score
of each legal card, fitted to the double-dummy cost of every card of such follows
(``analysis/fit_shed.py``), the card of lowest score played.

A defender that no legal card lets take the trick chooses what it gives the trick and
what it keeps: a point card for a trick its side may win, a low card from a suit whose
length it keeps, its master cards for later, never Mighty or the joker. The score weighs
each legal card by what it is (a side point card, a trump, Mighty or the joker, the
highest unseen card of its suit, how many unseen cards of its suit rank above it, how
many of its suit the seat holds, its rank) and by what the trick may become: a known
partner winning it, the chance that a partner still to play holds a card that beats it
(or an opponent still to play), the seat winning it of a side the defender cannot
tell while the friend is hidden, the last three tricks (``FEATURES``, ``WEIGHTS``).

The weights are the least-squares fit of every legal card's cost (the double-dummy par
after it less the best card's, from the defence's side) less the mean cost of its
follow's cards, over `standard` deals played by the heuristic, tricks 5 to 9. Measured
against the rule it replaces (give a partner's trick the lowest side point card, else
throw the cheapest card): docs/players.md.

>>> len(FEATURES) == len(WEIGHTS)
True
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ...rules.cards import FIRST_POINT_RANK
from .._jit import njit
from ..rules.rules_nb import (
    JOKER_BIT,
    NO_TRUMP,
    POINT_MASK,
    above_nb,
    bit_nb,
    lowest_card_nb,
    masters_nb,
    popcount_nb,
    suit_mask_nb,
)

FEATURES = (
    "side point card", "trump", "Mighty or the joker", "highest unseen of its suit",
    "unseen cards of its suit above it (of 4)", "cards of its suit held (of 10)",
    "the last card of its suit", "rank (of 12)", "point card, a partner winning",
    "point card, the chance a partner behind beats the trick (no partner winning)",
    "point card, the chance an opponent behind beats it (no partner winning)",
    "point card, a partner winning, an opponent behind", "point card, last three tricks",
    "highest unseen, last three tricks", "highest unseen point card", "trump x rank",
    "point card, no unseen card of its suit", "highest unseen x cards of its suit held",
    "point card, no partner behind (no partner winning)",
    "point card, the side of the seat winning unknown",
    "point card, the side of the seat winning unknown, no seat behind",
)
WEIGHTS = np.array([0.35, -0.165, 2.307, 0.202, -0.128, -0.261, -0.107, 0.025, -0.968,
                    -0.554, -0.227, 0.391, -0.135, -0.163, 0.222, 1.882, -0.243, -0.495,
                    -0.177, -0.258, -0.399])
"""Fitted by ``analysis/fit_shed.py`` (8,000 `standard` deals, seed 3, played with the
weights before these, which had no terms for a winner of unknown side; the features in
the order of ``FEATURES``)."""
WEIGHTS.flags.writeable = False
_W = tuple(float(x) for x in WEIGHTS)
"""The weights as compile-time constants (a global tuple is folded into the kernel)."""
MONOTONE = WEIGHTS[4] <= 0 and WEIGHTS[7] > 0 and WEIGHTS[7] + WEIGHTS[15] > 0
"""Whether, within a suit, a card's score falls with the unseen cards above it and rises
with its rank, as :func:`fitted_shed_nb` scores only the lowest card of each kind (point
card or not, highest unseen of its suit or not); a fit that breaks it fails the tests."""
_DECK = np.uint64((1 << (JOKER_BIT + 1)) - 1)
_ONE = np.uint64(1)
_JOKER = np.uint64(1 << JOKER_BIT)


def card_features(card: int, legal: int, outside: int, trump: int, mighty: int,
                  at: Mapping[str, int]) -> list[float]:
    """The ``FEATURES`` of one legal card, in plain Python: what ``analysis/fit_shed.py``
    fits the weights on, and what :func:`fitted_shed_nb` scores in its own, faster way
    (``tests/test_club_player.py`` checks that both choose the same card). ``at`` holds
    ``pw`` (a known partner winning the trick), ``unknown`` (the winner's side unknown),
    ``mates`` and ``opps`` (the seats behind), ``left`` (their cards), ``after`` (tricks
    after this one) and ``beat`` (unseen cards that beat the trick).

    >>> f = card_features(12, 1 << 12 | 1, 1 << 11, 3, 51,  # AC, holding 2C; KC unseen
    ...                   dict(pw=1, unknown=0, mates=0, opps=0, left=5, after=5, beat=0))
    >>> f[0], f[3], f[8]  # a side point card, its suit's highest unseen, a partner winning
    (1.0, 1.0, 1.0)
    """
    outside &= int(_DECK)
    special = card in (JOKER_BIT, mighty)
    pw = float(at["pw"])
    unseen = bin(outside).count("1")
    p_mate = (1 - pw) * chance_among_nb(unseen, at["beat"], at["mates"] * at["left"])
    p_opp = (1 - pw) * chance_among_nb(unseen, at["beat"], at["opps"] * at["left"])
    late = float(at["after"] <= 2)
    f = [0.0] * len(FEATURES)
    f[2] = float(special)
    if card == JOKER_BIT:
        f[7] = 13 / 12
        return f
    su, rank = card // 13, (card % 13) / 12
    trumpc = float(su == trump and trump != NO_TRUMP and not special)
    smask = ((1 << 13) - 1) << (13 * su) & ~(1 << mighty)
    higher = bin(outside & smask & ~((2 << card) - 1)).count("1")
    held = bin(legal & smask).count("1")
    master = float(higher == 0 and not trumpc and not special)
    pt = float(not trumpc and not special and card % 13 >= FIRST_POINT_RANK)
    f[0:8] = [pt, trumpc, float(special), master, min(higher, 4) / 4, held / 10,
              float(held == 1), rank]
    f[8:19] = [pt * pw, pt * p_mate, pt * p_opp, pt * pw * (at["opps"] > 0), pt * late,
               master * late, master * pt, trumpc * rank, pt * (outside & smask == 0),
               master * held / 10, pt * (1 - pw) * (at["mates"] == 0)]
    unknown = pt * at["unknown"]
    f[19:21] = [unknown, unknown * (at["mates"] + at["opps"] == 0)]
    return f


@njit(cache=True, inline="always")
def _lowest_bit_nb(mask: np.uint64) -> np.uint64:
    """The lowest set bit of a mask (none of an empty one)."""
    return mask & (~mask + _ONE)


@njit(cache=True, inline="always")
def chance_among_nb(unseen: int, beat: int, held: int) -> float:
    """The chance that ``held`` of ``unseen`` cards, dealt at random, include one of
    ``beat`` given cards: one less the chance that none of them is among the held ones,
    a product over the fewer of the two (one division).

    >>> round(chance_among_nb(10, 1, 5), 3), chance_among_nb(10, 0, 5), chance_among_nb(10, 6, 5)
    (0.5, 0.0, 1.0)
    """
    if beat <= 0 or held <= 0:
        return 0.0
    if held + beat > unseen:
        return 1.0
    # the same product over the held cards or over the given ones: the shorter
    k, other = (beat, held) if beat < held else (held, beat)
    num, den = 1.0, 1.0
    for i in range(k):
        num *= unseen - other - i
        den *= unseen - i
    return 1.0 - num / den


@njit(cache=True)
def fitted_shed_nb(legal: np.uint64, outside: np.uint64, beat: int, trump: int, mighty: int,
                   at: tuple[bool, int, int, int, int, bool]) -> int:
    """The card of ``legal`` (none of which takes the trick) of lowest fitted score, the
    lowest card on a tie. ``outside`` are the cards the seat has not seen, ``beat`` how
    many of them beat the card winning the trick (-1, not counted, when no side point
    card is legal); ``at`` is (a known partner winning it, the known partners and the
    other seats still to play, the cards each of them holds, how many tricks follow this
    one, whether the seat winning it is neither a known partner nor the declarer: the
    friend hidden, a partner or the friend)."""
    partner_wins, mates, opps, left, after, unknown = at
    w = _W
    deck = outside & _DECK
    late = 1.0 if after <= 2 else 0.0
    # the point card's terms that depend on the trick alone (``beat`` is -1 when no
    # side point card is legal: none is needed)
    pt_trick = 0.0
    if beat >= 0:
        unseen = popcount_nb(deck)
        if partner_wins:
            pt_trick = w[0] + w[8] + w[12] * late + (w[11] if opps > 0 else 0.0)
        else:
            pt_trick = (w[0] + w[9] * chance_among_nb(unseen, beat, mates * left)
                        + w[10] * chance_among_nb(unseen, beat, opps * left) + w[12] * late
                        + (w[18] if mates == 0 else 0.0))
            if unknown:
                pt_trick += w[19] + (w[20] if mates + opps == 0 else 0.0)
    master_late = w[3] + w[13] * late
    best, best_score = -1, np.inf
    mighty_bit = bit_nb(mighty)
    plain = legal & ~mighty_bit & ~_JOKER
    for su in range(4):  # the suit's terms once, then each card's
        mine = plain & suit_mask_nb(su)
        if not mine:
            continue
        smask = suit_mask_nb(su) & ~mighty_bit
        unseen_s = deck & smask
        held = float(popcount_nb(legal & smask))
        is_trump = su == trump and trump != NO_TRUMP
        base = w[5] * 0.1 * held + (w[6] if held == 1.0 else 0.0)
        per_rank = w[7] / 12.0
        if is_trump:
            base += w[1]
            per_rank += w[15] / 12.0
        # the candidates: within a suit the score falls with the unseen cards above a card
        # and rises with its rank (``MONOTONE``), so of the cards alike in being a point
        # card and the highest unseen of their suit the lowest scores lowest
        if is_trump:
            m = _lowest_bit_nb(mine)
        else:
            masters = masters_nb(mine, unseen_s)
            rest = mine & ~masters
            m = (_lowest_bit_nb(rest & ~POINT_MASK) | _lowest_bit_nb(rest & POINT_MASK)
                 | _lowest_bit_nb(masters & ~POINT_MASK) | _lowest_bit_nb(masters & POINT_MASK))
        first = 13 * su
        while m:
            c = lowest_card_nb(m)
            m &= ~bit_nb(c)
            r = c - first
            higher = popcount_nb(unseen_s & above_nb(c))
            score = base + w[4] * 0.25 * min(higher, 4) + per_rank * r
            if not is_trump:
                if higher == 0:  # the highest unseen card of a side suit
                    score += master_late + w[17] * 0.1 * held
                    if r >= FIRST_POINT_RANK:
                        score += w[14]
                if r >= FIRST_POINT_RANK:
                    score += pt_trick + (w[16] if not unseen_s else 0.0)
            if score < best_score:
                best, best_score = c, score
    if best >= 0:
        return best
    # Mighty and the joker, weighed above any other card, only when nothing else is legal
    if legal & mighty_bit:
        return mighty
    return JOKER_BIT
