"""Card text and masks (docs/rules.md, Words used throughout)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mighty_sim.rules.cards import (
    FULL_DECK,
    JOKER,
    POINT_CARDS,
    SUIT_MASKS,
    card_name,
    format_cards,
    parse_card,
    parse_cards,
    points_in,
)


def test_layout() -> None:
    assert parse_card("2S") == 1 << 0
    assert parse_card("AS") == 1 << 12
    assert parse_card("2H") == 1 << 13
    assert parse_card("AC") == 1 << 51
    assert parse_card("JK") == JOKER == 1 << 52
    assert FULL_DECK.bit_count() == 53
    assert POINT_CARDS.bit_count() == 20
    assert sum(m.bit_count() for m in SUIT_MASKS) == 52


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AS", "AS"), ("as", "AS"), ("10H", "10H"), ("TH", "10H"), ("th", "10H"),
        ("jk", "JK"), ("A♠", "AS"), ("10♥", "10H"), ("k♦", "KD"), ("2♣", "2C"),
    ],
)
def test_parse_forms(text: str, canonical: str) -> None:
    assert format_cards(parse_cards(text)) == canonical


def test_empty_text_is_no_cards() -> None:
    assert parse_cards("") == 0 and parse_cards("   ") == 0 and format_cards(0) == ""


def test_canonical_order() -> None:
    assert format_cards(parse_cards("2C AH JK 10S 3S KD")) == "JK 10S 3S AH KD 2C"


@pytest.mark.parametrize("bad", ["1S", "11H", "AX", "JKK", "A", "S", "10", "AS AS", "ZZ", "♠A"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_cards(bad)


def test_points() -> None:
    assert points_in(parse_cards("AS KS QS JS 10S 9S JK")) == 5


@given(st.integers(min_value=0, max_value=FULL_DECK))
def test_round_trip(mask: int) -> None:
    assert parse_cards(format_cards(mask)) == mask


@given(st.lists(st.integers(min_value=0, max_value=52), unique=True))
def test_round_trip_any_case_and_separator(cards: list[int]) -> None:
    text = ", ".join(card_name(b).lower() for b in cards)
    assert parse_cards(text) == sum(1 << b for b in cards)


@given(st.text(max_size=12))
def test_garbage_is_a_value_error(text: str) -> None:
    try:
        mask = parse_cards(text)
    except ValueError as e:
        assert str(e)  # a message, one line
        assert "\n" not in str(e)
    else:
        assert 0 <= mask <= FULL_DECK


@settings(deadline=None)  # the first example compiles the kernel
@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_pext_gathers_the_masked_bits(x: int, m: int) -> None:
    """The kernels' PEXT (one instruction where the CPU has it) and its loop against the
    definition: bit i of the result is x's bit at m's i-th set bit."""
    import numpy as np

    from mighty_sim.kernels.rules.rules_nb import pext_loop_nb, pext_nb

    want = sum(((x >> b) & 1) << i for i, b in enumerate(b for b in range(64) if m >> b & 1))
    assert int(pext_nb(np.uint64(x), np.uint64(m))) == want
    assert int(pext_loop_nb(np.uint64(x), np.uint64(m))) == want


@settings(deadline=None)  # the first example compiles the kernel
@given(st.integers(0, 2**64 - 1), st.integers(0, 63))
def test_kth_card_is_the_kth_set_bit(m: int, k: int) -> None:
    """The kernels' k-th card of a mask (one PDEP where the CPU has it) and its loop
    against the definition: the k-th set bit from the bottom, 64 past the last."""
    import numpy as np

    from mighty_sim.kernels.rules.rules_nb import kth_card_loop_nb, kth_card_nb

    bits = [b for b in range(64) if m >> b & 1]
    want = bits[k] if k < len(bits) else 64
    assert kth_card_nb(np.uint64(m), k) == want
    assert kth_card_loop_nb(np.uint64(m), k) == want
