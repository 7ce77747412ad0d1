"""Exact weak-hand probabilities (RULES.md s.2.2), by counting over card categories.

The weak-hand scale gives each card one of a few weights (Mighty, joker, other honours,
tens, the rest). The number of hands with a given score is a product of binomials over
how many cards of each category the hand holds, so the exact probability that a hand
qualifies is a short sum, for any profile's deck and scale.

>>> from mighty_sim.profile import load_profile
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


def weak_hand_probability(profile: RuleProfile) -> Fraction:
    """Exact probability that a uniformly dealt hand may be shown as weak."""
    cats = weight_categories(profile)
    size = profile.hand_size
    limit = Fraction(profile.weak_threshold)
    good = 0
    for counts in product(*(range(min(n, size) + 1) for _, n in cats[:-1])):
        k_rest = size - sum(counts)
        if not 0 <= k_rest <= cats[-1][1]:
            continue
        score = sum((w * k for (w, _), k in zip(cats, counts, strict=False)), Fraction(0))
        if score < limit if profile.weak_strict else score <= limit:
            ways = comb(cats[-1][1], k_rest)
            for (_, n), k in zip(cats, counts, strict=False):
                ways *= comb(n, k)
            good += ways
    return Fraction(good, comb(profile.deck_size, size))
