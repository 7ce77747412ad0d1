"""The double-dummy search's transposition table (:mod:`.dd_solve_nb`): bounds on what
the side takes from a trick's start on, each entry holding for every position that
agrees with it on the cards that decided the result.

A position at a trick's start is looked up in two steps. Its **frame** must be the
entry's exactly: the trick, the leader, whether the friend has led, the seats of Mighty,
the hunter and the joker, where Mighty and the hunter rank among the cards of their
suit still in play, and how many plain cards and how many point cards of each suit each
hand holds (:func:`frame_key_nb`). Within a frame, an entry names for each suit the
number of its highest cards still in play that decided the result (its **ranks**,
:func:`ranks_of_nb`), and the position must have those cards in the same hands (its
**pattern** under those ranks, :func:`pattern_nb`). The lower cards of a suit then
differ only in which of them a hand holds, never in how many of each kind: no line of
play searched compared them by rank, so each line plays out the same (the same tricks to
the same seats, the same point cards in them) with any of them. This is how DDS, the
bridge solver, keys its table ("winning ranks"); points make a card's kind part of it
here.

The search marks the cards whose rank decided something: the card that took a trick over
a card of its own suit (:func:`trick_mark_nb`); the card winning a trick that no card
still to come can take; the lower of two equal cards searched once, where the higher
is named (:func:`equals_mark_nb`). A position's marks are those of every line searched
from it and of the entries it used; where a move cut the search (the value only a bound
that one move shows), that move's alone. A suit's ranks run from its highest card still
in play down to its lowest marked card. Without ``USE_RANKS`` every card is named: an
entry then holds for the positions of the same cards in relative ranks only, and a
position's bucket is found from its pattern too.

An entry is two words: the frame key, its low 16 bits the ranks (4 bits a suit); the
pattern, its low 24 bits the bounds (12 bits each). A bucket is :data:`WAYS` rows (two
cache lines): a header, the tag of the search whose entries it holds (a bucket of
another search is taken as empty, and emptied when the search first stores in it, so
that a search visits the same positions whatever the table held before), then the
entries. The positions of one frame share a bucket, however many patterns it holds (on
100 heuristic-played deals from trick 4, buckets of eight entries, before the header
took a row, searched 4% fewer positions than buckets of four; from trick 2, sixteen
searched 3% fewer than eight, in no less time). Without ``USE_RANKS``, where a frame
holds far more patterns, a bucket found by the frame alone loses entries the search
needs (on one deal from trick 4, 35 times the positions with four entries a bucket,
3.5 times with eight), so that search finds its bucket by the pattern too.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from ..rng_nb import GOLDEN, mix64_nb
from ..rules.rules_nb import (
    JOKER_BIT,
    POINT_MASK,
    above_nb,
    bit_nb,
    has_nb,
    highest_card_nb,
    lowest_card_nb,
    pext_nb,
    popcount_nb,
    suit_mask_nb,
)

WAYS = 8
"""Rows a bucket: the header, then ``WAYS - 1`` entries."""
UNBOUNDED = 1 << 20
"""A bound not known."""
_JOKER = np.uint64(1) << np.uint64(JOKER_BIT)
_NONE = np.uint64(0)
_ONE = np.uint64(1)
_RANKS_MASK = np.uint64(0xFFFF)
_BOUNDS_MASK = np.uint64(0xFFFFFF)
_FRAME_BIT = np.uint64(1) << np.uint64(16)  # set in every frame key: an empty entry is 0
_BOUND_OFFSET = 2048  # a bound of -2047..2047 in 12 bits; the ends stand for unbounded
_B12 = np.uint64(0xFFF)
_TWELVE = np.uint64(12)


@njit(cache=True, inline="always")
def in_play_nb(hp: np.ndarray, n: int) -> np.uint64:
    """The cards of the hands ``hp[:n]`` but the joker (at a trick's start, every card
    still in play but the joker)."""
    alive = _NONE
    for p in range(n):
        alive |= hp[p]
    return alive & ~_JOKER


@njit(cache=True, inline="always")
def _below_nb(alive: np.uint64, card: int) -> int:
    """Where ``card`` ranks in its suit among ``alive``: the cards of its suit below it,
    plus one; 0 when it is out of play."""
    if card < 0 or not has_nb(alive, card):
        return 0
    return 1 + popcount_nb(alive & suit_mask_nb(card // 13) & (bit_nb(card) - _ONE))


@njit(cache=True, inline="always")
def frame_key_nb(hp: np.ndarray, n: int, trick_no: int, leader: int, friend_has_led: int,
                 mighty: int, hunter: int, alive: np.uint64) -> np.uint64:
    """The frame of a position at a trick's start (the module's doc), hashed, its low
    16 bits clear for the ranks and bit 16 set."""
    points = alive & POINT_MASK
    plain = alive & ~POINT_MASK
    where = 0  # the seats of Mighty, the hunter and the joker, 0 when gone
    z = _NONE
    for p in range(n):
        hand = hp[p]
        if has_nb(hand, mighty):
            where |= p + 1
        if hunter >= 0 and has_nb(hand, hunter):
            where |= (p + 1) << 4
        if hand & _JOKER:
            where |= (p + 1) << 8
        counts = _NONE
        for suit in range(4):
            m = hand & suit_mask_nb(suit)
            counts |= np.uint64(popcount_nb(m & plain) | popcount_nb(m & points) << 4) \
                << np.uint64(8 * suit)
        z += mix64_nb(counts + np.uint64(p + 1) * GOLDEN)
    head = (trick_no * 16 + leader * 2 + friend_has_led) | where << 12 \
        | _below_nb(alive, mighty) << 24 | _below_nb(alive, hunter) << 28
    z += mix64_nb(np.uint64(head) ^ np.uint64(0x5bd1e995))
    return (z & ~_RANKS_MASK) | _FRAME_BIT


@njit(cache=True, inline="always")
def suit_counts_nb(alive: np.uint64) -> int:
    """How many cards of each suit ``alive`` holds, 4 bits a suit."""
    counts = 0
    for suit in range(4):
        counts |= popcount_nb(alive & suit_mask_nb(suit)) << (4 * suit)
    return counts


@njit(cache=True, inline="always")
def relative_nb(hp: np.ndarray, n: int, alive: np.uint64, rh: np.ndarray) -> None:
    """``rh[:n]``: each hand in relative ranks, the cards of ``alive`` packed (each
    suit's from its lowest up, the suits in turn)."""
    for p in range(n):
        rh[p] = pext_nb(hp[p], alive)


@njit(cache=True, inline="always")
def ranks_of_nb(marks: np.uint64, alive: np.uint64) -> int:
    """The ranks of an entry (4 bits a suit) from the cards ``marks`` of a position whose
    cards in play are ``alive``: in each suit the cards from the highest down to the
    lowest marked."""
    ranks = 0
    for suit in range(4):
        m = alive & suit_mask_nb(suit)
        marked = marks & m
        if marked:
            ranks |= popcount_nb(m & ~(bit_nb(lowest_card_nb(marked)) - _ONE)) << (4 * suit)
    return ranks


@njit(cache=True, inline="always")
def top_cards_nb(alive: np.uint64, ranks: int) -> np.uint64:
    """The cards of ``alive`` that ``ranks`` names: each suit's highest, as many as its
    4 bits say."""
    out = _NONE
    for suit in range(4):
        m = alive & suit_mask_nb(suit)
        drop = popcount_nb(m) - ((ranks >> (4 * suit)) & 15)
        for _ in range(drop):
            m &= m - _ONE
        out |= m
    return out


@njit(cache=True, inline="always")
def pattern_nb(rh: np.ndarray, n: int, counts: int, ranks: int) -> np.uint64:
    """Which hand holds each card that ``ranks`` names, hashed: the hands ``rh[:n]`` in
    relative ranks (:func:`relative_nb`) of a position with ``counts`` cards a suit
    (:func:`suit_counts_nb`), each suit's named cards its highest."""
    top = _NONE
    off = 0
    for suit in range(4):
        c = (counts >> (4 * suit)) & 15
        r = (ranks >> (4 * suit)) & 15
        top |= ((_ONE << np.uint64(r)) - _ONE) << np.uint64(off + c - r)
        off += c
    z = mix64_nb(np.uint64(ranks) * GOLDEN + np.uint64(0x27d4eb2f165667c5))
    for p in range(n):
        z += mix64_nb((rh[p] & top) + np.uint64(p + 1) * GOLDEN)
    return z


@njit(cache=True, inline="always")
def _encode_nb(lo: int, hi: int) -> np.uint64:
    lo = max(lo, 1 - _BOUND_OFFSET)
    hi = min(hi, _BOUND_OFFSET - 1)
    return np.uint64(lo + _BOUND_OFFSET) << _TWELVE | np.uint64(hi + _BOUND_OFFSET)


@njit(cache=True, inline="always")
def _decode_nb(w: np.uint64) -> tuple[int, int]:
    lo = int((w >> _TWELVE) & _B12) - _BOUND_OFFSET
    hi = int(w & _B12) - _BOUND_OFFSET
    if lo <= 1 - _BOUND_OFFSET:
        lo = -UNBOUNDED
    if hi >= _BOUND_OFFSET - 1:
        hi = UNBOUNDED
    return lo, hi


@njit(cache=True, inline="always")
def _bucket_nb(frame: np.uint64, pattern: np.uint64, every: bool, bits: int) -> int:
    """The first of the bucket's entries: by the frame alone, or with ``every`` (every
    entry names every card, so that a position's pattern is known before its entries
    are) by frame and pattern."""
    x = frame ^ mix64_nb(pattern) if every else frame
    return int(x >> np.uint64(64 - bits)) & ~(WAYS - 1)


@njit(cache=True, inline="always")
def probe_nb(tt: np.ndarray, bits: int, tag: np.uint64, frame: np.uint64, rh: np.ndarray,
             n: int, counts: int, alive: np.uint64, every: bool
             ) -> tuple[bool, int, int, np.uint64]:
    """The entries of ``tt`` (``2**bits`` rows) that hold for a position (its hands in
    relative ranks ``rh``, its ``counts`` a suit, its cards ``alive``; ``every``: the
    search without ``USE_RANKS``) in the search ``tag``: (whether any does, the tightest
    bounds they give together, the cards they name in it)."""
    full = _NONE
    if every:
        full = pattern_nb(rh, n, counts, counts)
    b = _bucket_nb(frame, full, every, bits)
    found = False
    lo, hi = -UNBOUNDED, UNBOUNDED
    named = _NONE
    if tt[b, 0] != tag:  # another search's bucket
        return found, lo, hi, named
    for j in range(b + 1, b + WAYS):
        w0 = tt[j, 0]
        if (w0 ^ frame) & ~_RANKS_MASK:
            continue
        ranks = int(w0 & _RANKS_MASK)
        w1 = tt[j, 1]
        if (w1 ^ (full if every else pattern_nb(rh, n, counts, ranks))) & ~_BOUNDS_MASK:
            continue
        elo, ehi = _decode_nb(w1)
        lo, hi = max(lo, elo), min(hi, ehi)
        if not every:
            named |= top_cards_nb(alive, ranks)
        found = True
    return found, lo, hi, named


@njit(cache=True, inline="always")
def store_nb(tt: np.ndarray, bits: int, tag: np.uint64, frame: np.uint64, ranks: int,
             pattern: np.uint64, every: bool, value: int, at_least: bool, at_most: bool
             ) -> None:
    """Keep in ``tt`` that the positions of ``frame``, ``ranks`` and ``pattern`` are worth
    at least ``value`` (``at_least``) and/or at most ``value`` (``at_most``), with what
    an entry of the same positions held; in an empty slot of the bucket, else in place
    of one of its entries. A bucket of another search than ``tag`` is emptied first."""
    b = _bucket_nb(frame, pattern, every, bits)
    if tt[b, 0] != tag:
        tt[b, 0] = tag
        for j in range(b + 1, b + WAYS):
            tt[j, 0] = _NONE
    w0 = frame | np.uint64(ranks)
    key1 = pattern & ~_BOUNDS_MASK
    lo, hi = -UNBOUNDED, UNBOUNDED
    at = -1
    for j in range(b + 1, b + WAYS):
        if tt[j, 0] == w0 and tt[j, 1] & ~_BOUNDS_MASK == key1:
            lo, hi = _decode_nb(tt[j, 1])
            at = j
            break
        if at < 0 and tt[j, 0] == _NONE:
            at = j
    if at < 0:  # a full bucket: an entry chosen by the new one's pattern
        at = b + 1 + int((pattern >> np.uint64(30)) % np.uint64(WAYS - 1))
    if at_least:
        lo = max(lo, value)
    if at_most:
        hi = min(hi, value)
    tt[at, 0] = w0
    tt[at, 1] = key1 | _encode_nb(lo, hi)


@njit(cache=True, inline="always")
def rank_mark_nb(card: int, mighty: int) -> np.uint64:
    """``card`` as a mark: none for the joker and Mighty, whose power is not their rank."""
    if card == JOKER_BIT or card == mighty:
        return _NONE
    return bit_nb(card)


@njit(cache=True, inline="always")
def trick_mark_nb(tq: np.ndarray, n: int, win: int, mighty: int) -> np.uint64:
    """The mark of a finished trick ``tq[:n]`` won by its ``win``-th card: that card
    when it beat a card of its own suit (by rank), else none (it won by its suit, or by
    being the joker or Mighty)."""
    w = tq[win]
    if w == JOKER_BIT or w == mighty:
        return _NONE
    suit = w // 13
    for i in range(n):
        if i != win and tq[i] != JOKER_BIT and tq[i] // 13 == suit:
            return bit_nb(w)
    return _NONE


@njit(cache=True, inline="always")
def equals_mark_nb(dropped: np.uint64, hand: np.uint64, special: np.uint64,
                   marks: np.uint64) -> np.uint64:
    """``marks`` with the cards ``dropped`` from a seat's moves as playing like the next
    card up of its ``hand`` (:func:`.dd_solve_nb.distinct_of_nb`) marked where that card
    is among the cards marks name (so that the two stay equal wherever the entry is
    used): from the highest down, as each such card joins the names."""
    hand = hand & ~special
    x = dropped
    while x:
        c = highest_card_nb(x)
        x &= ~bit_nb(c)
        m = suit_mask_nb(c // 13)
        up = lowest_card_nb(hand & m & above_nb(c))
        marked = marks & m
        if marked and lowest_card_nb(marked) <= up:
            marks |= bit_nb(c)
    return marks
