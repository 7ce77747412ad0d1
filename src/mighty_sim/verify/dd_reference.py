"""A plain double-dummy minimax on the reference rules, written apart from the kernels:
the yardstick for :mod:`mighty_sim.kernels.search.dd_nb` in the tests.

Every legal card (:func:`mighty_sim.reference.rules.legal_plays`), every suit a led
joker with power may name, the hunter led with and without the demand, each trick won by
:func:`~mighty_sim.reference.rules.trick_winner`; every line searched to the end, the only
shortcut a memo of what the rest of the play is worth from a trick's start (exact values,
no bounds). Slow: endings of up to three or four tricks.

>>> from mighty_sim.rules.profile import load_profile
>>> from mighty_sim.kernels.params import compile_profile
>>> from mighty_sim.verify.positions import random_ending
>>> p = load_profile("standard")
>>> s, h, tr = random_ending(p, compile_profile(p), seed=3, tricks_left=1)
>>> 0 <= reference_value(p, s, h, tr) <= 20
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

import numpy as np

from ..kernels.loop.play_nb import (
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
    S_REQUEST,
    S_TRICK_NO,
    S_TRUMP,
    S_WON,
)
from ..kernels.params import MODE_FIRST_TRICK
from ..reference import rules
from ..rules.cards import JOKER_BIT, SUITS, cards_of
from ..rules.profile import TRUMPS, RuleProfile


@dataclass(frozen=True)
class _Position:
    hands: tuple[int, ...]
    leader: int
    trick_no: int
    played: tuple[int, ...]
    joker_suit: str | None
    demanded: bool
    friend_has_led: bool


def reference_value(profile: RuleProfile, s: np.ndarray, h: np.ndarray, tr: np.ndarray,
                    last: int | None = None) -> int:
    """What the declarer's side ends with, from the kernel play state ``s``/``h``/``tr``,
    with best play on both sides: its points (the discards and every point no defender
    took), or its tricks in trick-bid profiles. -1 while a first-trick friend is unknown.
    ``last``: the play's last trick, when not the profile's (a reduced deck's deal,
    :func:`~mighty_sim.verify.positions.random_small_deal`)."""
    last = profile.hand_size if last is None else last
    n = int(s[S_N])
    if s[S_MODE] == MODE_FIRST_TRICK and s[S_TRICK_NO] == 1:
        return -1
    side = {int(s[S_DECLARER])} | ({int(s[S_FRIEND])} if s[S_FRIEND] >= 0 else set())
    friend = int(s[S_FRIEND]) if s[S_FRIEND] >= 0 else None
    trump = TRUMPS[int(s[S_TRUMP])]
    request = SUITS[int(s[S_REQUEST])] if s[S_REQUEST] >= 0 else None
    tricks = profile.bid_unit == "tricks"

    def gain(cards: tuple[int, ...], winner: int) -> int:
        """What a finished trick adds to the side's count."""
        if tricks:
            return int(winner in side)
        return 0 if winner in side else -rules.point_count(_mask(cards))

    def moves(pos: _Position, seat: int) -> list[tuple[int, str | None, bool]]:
        lead = not pos.played
        state = rules.TrickState(
            trump, pos.trick_no, pos.played, pos.joker_suit, pos.demanded,
            request if lead and seat == friend and not pos.friend_has_led else None)
        out: list[tuple[int, str | None, bool]] = []
        for c in cards_of(rules.legal_plays(profile, pos.hands[seat], state)):
            powerless = profile.resolve_tricks(profile.joker_powerless_tricks)
            if lead and c == JOKER_BIT and pos.trick_no not in powerless:
                out += [(c, suit, False) for suit in SUITS]
            elif (lead and profile.hunter_rule == "lead-demand"
                  and c == rules.hunter_card(profile, trump)
                  and pos.trick_no in profile.resolve_tricks(profile.hunter_tricks)
                  and not pos.hands[seat] >> JOKER_BIT & 1):
                out += [(c, None, False), (c, None, True)]
            else:
                out.append((c, None, False))
        return out

    @cache
    def rest(pos: _Position) -> int:
        """What the rest of the play adds to the side's count (side maximises)."""
        if pos.trick_no > last:
            return 0
        seat = (pos.leader + len(pos.played)) % n
        values = []
        for card, suit, demand in moves(pos, seat):
            hands = list(pos.hands)
            hands[seat] &= ~(1 << card)
            nxt = replace(pos, hands=tuple(hands), played=pos.played + (card,))
            if not pos.played:
                nxt = replace(nxt, joker_suit=suit, demanded=demand,
                              friend_has_led=pos.friend_has_led or seat == friend)
            if len(nxt.played) < n:
                values.append(rest(nxt))
                continue
            state = rules.TrickState(trump, pos.trick_no, nxt.played, nxt.joker_suit,
                                     nxt.demanded)
            winner = (pos.leader + rules.trick_winner(profile, state)) % n
            after = _Position(nxt.hands, winner, pos.trick_no + 1, (), None, False,
                              nxt.friend_has_led)
            values.append(gain(nxt.played, winner) + rest(after))
        return max(values) if seat in side else min(values)

    k = int(s[S_K])
    start = _Position(
        tuple(int(h[p]) for p in range(n)), int(s[S_LEADER]), int(s[S_TRICK_NO]),
        tuple(int(c) for c in tr[:k]),
        SUITS[int(s[S_JOKER_SUIT])] if k and s[S_JOKER_SUIT] >= 0 else None,
        bool(k and s[S_DEMANDED]), bool(s[S_FRIEND_HAS_LED]))
    if tricks:
        have = sum(int(s[S_WON + p]) for p in side)
    else:
        have = profile.total_points - sum(int(s[S_CAPTURED + p]) for p in range(n)
                                          if p not in side)
    return have + rest(start)


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m
