"""Exact weak-hand probabilities (docs/rules.md, standard: Auction), by counting over card
categories.

The weak-hand scale gives each card one of a few weights (Mighty, joker, other honours,
tens, the rest). The number of hands with a given score is a product of binomials over
how many cards of each category the hand holds, so the exact probability that a hand
qualifies is a short sum, for any profile's deck and scale.

>>> from mighty_sim.rules.profile import load_profile
>>> weak_hand_probability(load_profile("standard"))
Fraction(18990476, 443161355)
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

from .cards import JOKER, POINT_CARDS, parse_card
from .profile import RuleProfile

_TENS = sum(1 << (13 * s + 8) for s in range(4))


def weight_categories(profile: RuleProfile) -> list[tuple[Fraction, int]]:
    """(weight, number of cards) for each weight category of the profile's deck."""
    deck = profile.deck_mask
    mighty = parse_card(profile.mighty) & deck
    honors = (POINT_CARDS & ~_TENS & deck) & ~mighty
    tens = _TENS & deck & ~mighty
    jokers = profile.jokers if deck & JOKER else 0
    rest = profile.deck_size - mighty.bit_count() - honors.bit_count() - tens.bit_count() - jokers
    return [
        (Fraction(profile.weak_mighty), mighty.bit_count()),
        (Fraction(profile.weak_joker), jokers),
        (Fraction(profile.weak_honor), honors.bit_count()),
        (Fraction(profile.weak_ten), tens.bit_count()),
        (Fraction(0), rest),
    ]


def _qualifying_vectors(profile: RuleProfile) -> list[tuple[int, ...]]:
    """Category counts (one per category of :func:`weight_categories`) of a qualifying hand."""
    cats = weight_categories(profile)
    size = profile.hand_size
    limit = Fraction(profile.weak_threshold)
    out = []
    for counts in product(*(range(min(n, size) + 1) for _, n in cats[:-1])):
        k_rest = size - sum(counts)
        if not 0 <= k_rest <= cats[-1][1]:
            continue
        score = sum((w * k for (w, _), k in zip(cats, counts, strict=False)), Fraction(0))
        if score < limit if profile.weak_strict else score <= limit:
            out.append((*counts, k_rest))
    return out


def weak_deal_probability(profile: RuleProfile) -> Fraction:
    """Exact probability that at least one hand of a deal may be shown as weak.

    Inclusion-exclusion over the players: P(some hand qualifies) = sum over k of
    (-1)^(k+1) C(n, k) P(k given hands all qualify), the last term by dynamic programming
    over the cards each qualifying hand takes from each category.

    >>> from mighty_sim.rules.profile import load_profile
    >>> p = weak_deal_probability(load_profile("standard"))
    >>> 0.20 < float(p) < 0.22
    True
    """
    sizes = tuple(n for _, n in weight_categories(profile))
    vectors = _qualifying_vectors(profile)
    size, deck = profile.hand_size, profile.deck_size
    states: dict[tuple[int, ...], int] = {sizes: 1}
    total = Fraction(0)
    all_ways = 1
    for k in range(1, profile.players + 1):
        nxt: dict[tuple[int, ...], int] = {}
        for rem, ways in states.items():
            for v in vectors:
                if all(x <= r for x, r in zip(v, rem, strict=True)):
                    w = ways
                    for x, r in zip(v, rem, strict=True):
                        w *= comb(r, x)
                    key = tuple(r - x for x, r in zip(v, rem, strict=True))
                    nxt[key] = nxt.get(key, 0) + w
        states = nxt
        all_ways *= comb(deck - (k - 1) * size, size)
        p_all = Fraction(sum(states.values()), all_ways)
        total += (-1) ** (k + 1) * comb(profile.players, k) * p_all
    return total


def weak_hand_probability(profile: RuleProfile) -> Fraction:
    """Exact probability that a uniformly dealt hand may be shown as weak."""
    cats = weight_categories(profile)
    good = 0
    for counts in _qualifying_vectors(profile):
        ways = 1
        for (_, n), k in zip(cats, counts, strict=True):
            ways *= comb(n, k)
        good += ways
    return Fraction(good, comb(profile.deck_size, profile.hand_size))
