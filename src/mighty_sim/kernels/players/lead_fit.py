"""The declarer's side's fitted lead of trick 2: a linear score of each legal card, fitted
to what each lead is worth when the heuristic plays the deal out (``analysis/fit_lead.py``),
the card of lowest score led.

Trick 2's lead is the first the declarer's side chooses knowing how trick 1 fell, and
the rules' lead there (draw trumps with the top trump while it is the highest unseen)
cost the most of any lead in the fit's data. The score weighs each legal card by what it
is (a trump, Mighty, the joker, a side card that is the highest unseen of its suit, a
side point or low card, its rank, how many of its suit the leader holds and how many are
unseen, whether it is the lowest of its suit in hand), by where its known partner sits
(next to play, or last) and by the voids shown in trick 1 (a seat that did not follow
the suit led holds none of it): the opponents' and the partner's (``FEATURES``,
``WEIGHTS``).

The weights are the least-squares fit of every legal lead's cost (the leader's payout
when the heuristic plays the rest of the real deal after the best lead, less its payout
after this one) less the mean cost of its lead's cards, over `standard` deals played by
the heuristic. A score of what the leader can see, fitted to many deals, estimates each
lead's cost given what it sees. Measured against the rules it replaces: docs/players.md.

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
    above_nb,
    bit_nb,
    lowest_card_nb,
    popcount_nb,
    suit_mask_nb,
)

FEATURES = (
    "trump", "Mighty", "joker", "side, highest unseen of its suit", "side point card",
    "rank (of 12)", "cards of its suit held (of 10)", "the last card of its suit",
    "unseen cards of its suit (of 10)", "unseen cards of its suit above it (of 4)",
    "the lowest of its suit in hand", "side, highest unseen, no unseen trump",
    "side point card, Mighty or the joker unseen", "side, the partner next",
    "side, the partner last", "side, highest unseen, the partner next",
    "side low card, the partner last",
    "side, no unseen card of its suit", "trump x unseen trumps (of 10)",
    "the called card's suit, the friend hidden", "side low card, a known partner next",
    "trump x rank", "side point card, the partner next", "side x unseen trumps (of 10)",
    "side, an opponent void in it", "side, an opponent void in it, trumps unseen",
    "side, the partner void in it", "side low card, an opponent void in it",
    "side, highest unseen, an opponent void in it",
    "trump, the partner next", "trump, the partner last",
    "side point card, an opponent void in it", "side low card x cards held (of 10)",
    "side, the partner third", "side, the partner fourth",
)
WEIGHTS = np.array([3.645, 1.679, -0.654, 0.747, 2.287, -0.245, 2.887, -0.26, 0.655, -1.308,
                    0.166, -0.906, -3.236, -2.258, -0.94, -2.334, -0.308, 0, -4.303, -0.223,
                    0.105, 0.129, -0.028, 1.198, 0.738, -1.074, 0, 0.501, 0.948, -1.465,
                    -0.308, -0.71, -0.566, -1.281, -1.157])
"""Fitted by ``analysis/fit_lead.py`` (the trick-2 leads of the declarer's side in 12,000
`standard` deals of seed 3; the features in the order of ``FEATURES``)."""
WEIGHTS.flags.writeable = False
_W = tuple(float(x) for x in WEIGHTS)
"""The weights as compile-time constants (a global tuple is folded into the kernel)."""
FIT_TRICK = 2
"""The trick whose lead the fitted score chooses."""
FIT_PLAYERS = 5
"""The number of players of the games where it chooses: fitted on `standard`, it gains
in `russian-5p` too and loses in `russian-4p` (docs/players.md)."""
_DECK = np.uint64((1 << (JOKER_BIT + 1)) - 1)
_ONE = np.uint64(1)


def card_features(card: int, hand: int, outside: int, trump: int, mighty: int,
                  at: Mapping[str, int]) -> list[float]:
    """The ``FEATURES`` of one legal lead, in plain Python: what ``analysis/fit_lead.py``
    fits the weights on, and what :func:`fitted_lead_nb` scores in its own way
    (``tests/test_club_player.py`` checks that both choose the same card). ``at`` holds
    ``pal_pos`` (how many seats after the leader its known partner plays, 1 to n - 1;
    0 when it knows none), ``n``, ``called_suit`` (the called card's suit while the
    friend is hidden, else -1), ``mate_next`` (a known partner plays next), ``opp_void``
    and ``pal_void`` (the suits the other seats, and its known partners, have shown void
    in: bit per suit).

    >>> f = card_features(12, 1 << 12 | 1, 1 << 11, 3, 51, dict(pal_pos=1, n=5,
    ...     called_suit=-1, mate_next=1, opp_void=0, pal_void=0))
    >>> f[3], f[13], f[15]  # A♣: the highest unseen of a side suit, the partner next
    (1.0, 1.0, 1.0)
    """
    f = [0.0] * len(FEATURES)
    if card == JOKER_BIT:
        f[2] = 1.0
        return f
    if card == mighty:
        f[1] = 1.0
        return f
    n = at["n"]
    su, r = card // 13, card % 13
    smask = (((1 << 13) - 1) << (13 * su)) & ~(1 << mighty)
    tmask = (((1 << 13) - 1) << (13 * trump)) & ~(1 << mighty) if trump != NO_TRUMP else 0
    unseen_s = outside & smask
    higher = bin(unseen_s & ~((2 << card) - 1)).count("1")
    held = bin(hand & smask).count("1")
    lowest = (hand & smask & ((1 << card) - 1)) == 0
    trumpc = trump != NO_TRUMP and su == trump
    side = not trumpc
    master = side and higher == 0
    pt = side and r >= FIRST_POINT_RANK and not master
    low = side and not master and r < FIRST_POINT_RANK
    ut = bin(outside & tmask).count("1")
    pal = at["pal_pos"]
    opp_v = bool(at["opp_void"] >> su & 1)
    pal_v = bool(at["pal_void"] >> su & 1)
    special_out = bool(outside >> mighty & 1 or outside >> JOKER_BIT & 1)
    f[0], f[3], f[4], f[5] = float(trumpc), float(master), float(pt), r / 12
    f[6], f[7], f[8] = held / 10, float(held == 1), bin(unseen_s).count("1") / 10
    f[9], f[10] = min(higher, 4) / 4, float(lowest)
    f[11], f[12] = float(master and ut == 0), float(pt and special_out)
    f[13], f[14] = float(side and pal == 1), float(side and pal == n - 1)
    f[15], f[16] = float(master and pal == 1), float(low and pal == n - 1)
    f[17] = float(side and unseen_s == 0)
    f[18], f[19] = float(trumpc) * ut / 10, float(su == at["called_suit"])
    f[20], f[21] = float(low and at["mate_next"]), float(trumpc) * r / 12
    f[22], f[23] = float(pt and pal == 1), float(side) * ut / 10
    f[24], f[25] = float(side and opp_v), float(side and opp_v and ut > 0)
    f[26], f[27] = float(side and pal_v), float(low and opp_v)
    f[28], f[29] = float(master and opp_v), float(trumpc and pal == 1)
    f[30], f[31] = float(trumpc and pal == n - 1), float(pt and opp_v)
    f[32], f[33] = float(low) * held / 10, float(side and pal == 2)
    f[34] = float(side and pal == 3)
    return f


@njit(cache=True)
def fitted_lead_nb(hand: np.uint64, legal: np.uint64, outside: np.uint64, trump: int,
                   mighty: int, at: tuple[int, int, int, bool, int, int]) -> int:
    """The card of ``legal`` of lowest fitted score (the lowest card on a tie): ``outside``
    the cards the leader has not seen, ``at`` (its known partner's place after it or 0,
    the number of players, the called card's suit while the friend is hidden or -1, a
    known partner next, the suits the opponents and its partners have shown void in), as
    :func:`card_features` reads them."""
    pal_pos, n, called_suit, mate_next, opp_void, pal_void = at
    w = _W
    deck = outside & _DECK
    mighty_bit = bit_nb(mighty)
    t_mask = suit_mask_nb(trump) & ~mighty_bit if trump != NO_TRUMP else np.uint64(0)
    ut = float(popcount_nb(deck & t_mask))
    special_out = deck & (mighty_bit | bit_nb(JOKER_BIT)) != 0
    best, best_score = -1, np.inf
    m = legal
    while m:
        c = lowest_card_nb(m)
        m &= ~bit_nb(c)
        score = 0.0
        if c == JOKER_BIT:
            score += w[2]
        elif c == mighty:
            score += w[1]
        else:
            su = c // 13
            r = c - 13 * su
            smask = suit_mask_nb(su) & ~mighty_bit
            unseen_s = deck & smask
            higher = popcount_nb(unseen_s & above_nb(c))
            held = float(popcount_nb(hand & smask))
            score += (w[5] * r / 12.0 + w[6] * held / 10.0 + (w[7] if held == 1.0 else 0.0)
                      + w[8] * popcount_nb(unseen_s) / 10.0 + w[9] * min(higher, 4) / 4.0
                      + (w[10] if hand & smask & (bit_nb(c) - _ONE) == 0 else 0.0))
            if su == called_suit:
                score += w[19]
            if su == trump:
                score += (w[0] + w[18] * ut / 10.0 + w[21] * r / 12.0
                          + (w[29] if pal_pos == 1 else 0.0)
                          + (w[30] if pal_pos == n - 1 else 0.0))
            else:
                master = higher == 0
                pt = not master and r >= FIRST_POINT_RANK
                low = not master and r < FIRST_POINT_RANK
                opp_v = (opp_void >> su) & 1 == 1
                score += w[23] * ut / 10.0 + (w[33] if pal_pos == 2 else 0.0) + (
                    w[34] if pal_pos == 3 else 0.0)
                if pal_pos == 1:
                    score += w[13]
                if pal_pos == n - 1:
                    score += w[14]
                if not unseen_s:
                    score += w[17]
                if opp_v:
                    score += w[24] + (w[25] if ut > 0.0 else 0.0)
                if (pal_void >> su) & 1:
                    score += w[26]
                if master:
                    score += (w[3] + (w[11] if ut == 0.0 else 0.0)
                              + (w[15] if pal_pos == 1 else 0.0) + (w[28] if opp_v else 0.0))
                if pt:
                    score += (w[4] + (w[12] if special_out else 0.0)
                              + (w[22] if pal_pos == 1 else 0.0) + (w[31] if opp_v else 0.0))
                if low:
                    score += ((w[16] if pal_pos == n - 1 else 0.0)
                              + (w[20] if mate_next else 0.0) + (w[27] if opp_v else 0.0)
                              + w[32] * held / 10.0)
        if score < best_score:
            best, best_score = c, score
    return best
