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
(or an opponent still to play), the last three tricks (``FEATURES``, ``WEIGHTS``).

The weights are the least-squares fit of every legal card's cost (the double-dummy par
after it less the best card's, from the defence's side) less the mean cost of its
follow's cards, over `standard` deals played by the heuristic, tricks 5 to 9. Measured
against the rule it replaces (give a partner's trick the lowest side point card, else
throw the cheapest card): docs/players.md.

>>> len(FEATURES) == len(WEIGHTS)
True
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from ..rules.rules_nb import (
    JOKER_BIT,
    NO_TRUMP,
    above_nb,
    bit_nb,
    is_point_nb,
    lowest_card_nb,
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
)
WEIGHTS = np.array([0.348, -0.176, 2.284, 0.189, -0.14, -0.273, -0.121, 0.028, -0.97,
                    -0.552, -0.255, 0.377, -0.091, -0.198, 0.211, 1.949, -0.264, -0.48,
                    -0.248])
"""Fitted by ``analysis/fit_shed.py`` (8,000 `standard` deals, seed 3; the features in
the order of ``FEATURES``)."""
WEIGHTS.flags.writeable = False
_DECK = np.uint64((1 << (JOKER_BIT + 1)) - 1)


@njit(cache=True, inline="always")
def chance_nb(unseen: int, beat: int, held: int) -> float:
    """The chance that ``held`` of ``unseen`` cards, drawn at random, include one of
    ``beat`` given cards (the product stops where the other cards run out).

    >>> round(chance_nb(10, 1, 5), 3)
    0.5
    """
    miss = 1.0
    for i in range(min(held, unseen - beat)):
        miss *= (unseen - beat - i) / (unseen - i)
    return 1.0 - miss


@njit(cache=True)
def fitted_shed_nb(legal: np.uint64, outside: np.uint64, beat: int, trump: int, mighty: int,
                   at: tuple[bool, int, int, int, int]) -> int:
    """The card of ``legal`` (none of which takes the trick) of lowest fitted score, the
    lowest card on a tie. ``outside`` are the cards the seat has not seen, ``beat`` how
    many of them beat the card winning the trick; ``at`` is (a known partner winning it,
    the known partners and the other seats still to play, the cards each of them holds,
    how many tricks follow this one)."""
    partner_wins, mates, opps, left, after = at
    w = WEIGHTS
    deck = outside & _DECK
    unseen = popcount_nb(deck)
    pw = 1.0 if partner_wins else 0.0
    p_mate = (1.0 - pw) * chance_nb(unseen, beat, mates * left)
    p_opp = (1.0 - pw) * chance_nb(unseen, beat, opps * left)
    late = 1.0 if after <= 2 else 0.0
    # the point card's terms that depend on the trick alone
    pt_trick = (w[0] + w[8] * pw + w[9] * p_mate + w[10] * p_opp + w[12] * late
                + w[11] * pw * (1.0 if opps > 0 else 0.0)
                + w[18] * (1.0 - pw) * (1.0 if mates == 0 else 0.0))
    best, best_score = -1, np.inf
    m = legal
    while m:
        c = lowest_card_nb(m)
        m &= ~bit_nb(c)
        special = c == JOKER_BIT or c == mighty
        score = w[2] if special else 0.0
        if c == JOKER_BIT:
            score += w[7] * 13.0 / 12.0
        else:
            su = c // 13
            rank = (c % 13) / 12.0
            trumpc = 1.0 if su == trump and trump != NO_TRUMP and not special else 0.0
            smask = suit_mask_nb(su) & ~bit_nb(mighty)
            higher = popcount_nb(deck & smask & above_nb(c))
            held = popcount_nb(legal & smask)
            master = 1.0 if higher == 0 and trumpc == 0.0 and not special else 0.0
            score += (w[1] * trumpc + w[3] * master + w[4] * min(higher, 4) / 4.0
                      + w[5] * held / 10.0 + w[6] * (1.0 if held == 1 else 0.0)
                      + w[7] * rank + w[13] * master * late + w[15] * trumpc * rank
                      + w[17] * master * held / 10.0)
            if trumpc == 0.0 and not special and is_point_nb(c):
                score += (pt_trick + w[14] * master
                          + w[16] * (1.0 if deck & smask == 0 else 0.0))
        if score < best_score:
            best, best_score = c, score
    return best
