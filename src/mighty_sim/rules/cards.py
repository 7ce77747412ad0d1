"""Cards as bitmasks: the one place where the bit layout is stated.

Layout (docs/rules.md, Words used throughout)
---------------------------
A card is one bit of an integer mask::

    bit = suit * 13 + rank_index          for the 52 ordinary cards
    bit = 52                              for the joker

with suits in the order ``S H D C`` (suit index 0..3) and ranks from low to high,
``2 3 4 5 6 7 8 9 10 J Q K A`` (rank index 0..12). So ``2S`` is bit 0, ``AS`` bit 12,
``AD`` bit 38 and ``JK`` bit 52. A hand is the OR of its cards' bits and fits in 53 bits
(a ``uint64`` in the kernels).

Two decks (docs/rules.md, russian profiles,
:attr:`mighty_sim.rules.profile.RuleProfile.deck_copies` = 2): a
physical card is ``plane * 64 + bit``, where ``plane`` 0 or 1 is the deck it comes from and
``bit`` is as above, except that each deck brings two jokers, at bits 52 and 53. A two-deck
hand is then one 118-bit Python integer (two ``uint64`` "planes" in the kernels). The rules
see only a card's *kind* (:func:`kind_of`: its one-deck bit, 52 for every joker); which copy
was played matters only for the order of play.

>>> kind_of(64 + 12), kind_of(117), fold(copies(12) | (1 << 53))  == (1 << 12) | (1 << 52)
(12, 52, True)

Every other constant here is derived from the layout. Text is converted to masks only at
the edges (parsing user input, printing results).

>>> parse_cards("AS 10h jk")  == (1 << 12) | (1 << 21) | (1 << 52)
True
>>> format_cards(parse_cards("jk 10♥ a♠"))
'JK AS 10H'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

SUITS: str = "SHDC"
"""Suit letters by suit index."""
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""Rank names by rank index, low to high."""
N_SUITS = 4
N_RANKS = 13
JOKER_BIT = N_SUITS * N_RANKS  # 52
N_CARD_KINDS = JOKER_BIT + 1  # 53 distinct cards
JOKER: int = 1 << JOKER_BIT
FULL_DECK: int = (1 << N_CARD_KINDS) - 1
SUIT_MASKS: tuple[int, ...] = tuple(((1 << N_RANKS) - 1) << (s * N_RANKS) for s in range(N_SUITS))
FIRST_POINT_RANK = 8  # the 10: a card is a point card when its rank index is at least this
POINT_RANKS: tuple[int, ...] = tuple(range(FIRST_POINT_RANK, N_RANKS))  # 10 J Q K A
HONOR_RANKS: tuple[int, ...] = (9, 10, 11, 12)  # J Q K A
POINT_CARDS: int = sum(1 << (s * N_RANKS + r) for s in range(N_SUITS) for r in POINT_RANKS)

_UNICODE_SUITS = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_RANK_ALIASES = {"T": "10"}
_TOKEN = re.compile(r"^(10|[2-9TJQKA])([SHDC])$")


PLANE_BITS = 64
"""Bits per plane of a two-deck mask: a physical card is ``plane * 64 + bit``."""
JOKER2_BIT = JOKER_BIT + 1  # 53: a deck's second joker, in two-deck profiles
_PLANE_MASK = (1 << PLANE_BITS) - 1
_JOKER_PAIR = JOKER | (1 << JOKER2_BIT)


def kind_of(card: int) -> int:
    """The kind (one-deck bit, 52 for any joker) of a physical card id.

    >>> kind_of(12), kind_of(76), kind_of(53)
    (12, 12, 52)
    """
    b = card & (PLANE_BITS - 1)
    return JOKER_BIT if b >= JOKER_BIT else b


def fold(mask: int) -> int:
    """The kinds present in a mask of physical cards (a one-deck mask is its own fold).

    >>> fold((1 << 12) | (1 << 76)) == 1 << 12
    True
    """
    f = (mask | (mask >> PLANE_BITS)) & _PLANE_MASK
    if f & _JOKER_PAIR:
        f = (f & ~_JOKER_PAIR) | JOKER
    return f


def planes(mask: int) -> tuple[int, int]:
    """A mask of physical cards as the kernels hold it: its first deck's cards and its
    second's, each a one-plane mask (a one-deck mask is its first plane).

    >>> planes((1 << 12) | (1 << 76))
    (4096, 4096)
    """
    return mask & _PLANE_MASK, mask >> PLANE_BITS


def copies(kind: int) -> int:
    """Mask of every physical card of a kind, in both planes (both jokers of each plane).

    >>> bin(copies(0))
    '0b10000000000000000000000000000000000000000000000000000000000000001'
    """
    one = _JOKER_PAIR if kind == JOKER_BIT else 1 << kind
    return one | (one << PLANE_BITS)


def unfold(kinds: int) -> int:
    """Mask of every physical copy of the kinds in a one-deck mask (see :func:`copies`).

    >>> unfold(JOKER) == copies(JOKER_BIT)
    True
    """
    m = kinds & ~JOKER
    if kinds & JOKER:
        m |= _JOKER_PAIR
    return m | (m << PLANE_BITS)


def card_bit(rank_index: int, suit_index: int) -> int:
    """Bit number of the card with this rank and suit index.

    >>> card_bit(12, 0)  # AS
    12
    """
    if not (0 <= rank_index < N_RANKS and 0 <= suit_index < N_SUITS):
        raise ValueError(f"rank index {rank_index} or suit index {suit_index} out of range")
    return suit_index * N_RANKS + rank_index


def suit_of(bit: int) -> int:
    """Suit index of a card bit; -1 for the joker.

    >>> suit_of(parse_card("KH").bit_length() - 1)
    1
    """
    return -1 if bit == JOKER_BIT else bit // N_RANKS


def rank_of(bit: int) -> int:
    """Rank index of a card bit (0 = '2' .. 12 = 'A'); -1 for the joker."""
    return -1 if bit == JOKER_BIT else bit % N_RANKS


def parse_suit(text: str) -> int:
    """Suit index of a suit letter or symbol.

    >>> parse_suit("h"), parse_suit("♣")
    (1, 3)
    """
    t = _UNICODE_SUITS.get(text.strip(), text.strip().upper())
    if len(t) != 1 or t not in SUITS:
        raise ValueError(f"not a suit: {text!r} (expected one of S H D C)")
    return SUITS.index(t)


@lru_cache(maxsize=1024)
def parse_card(token: str) -> int:
    """Single-card mask of one card token (``AS``, ``10H``, ``TD``, ``JK``, ``A♠``).

    >>> parse_card("td") == parse_card("10D") == 1 << 34
    True
    """
    raw = token.strip()
    t = "".join(_UNICODE_SUITS.get(ch, ch) for ch in raw).upper()
    if t in ("JK", "JOKER"):
        return JOKER
    m = _TOKEN.match(t)
    if m is None:
        raise ValueError(f"not a card: {token!r} (expected e.g. AS, 10H, TD, JK)")
    rank = _RANK_ALIASES.get(m.group(1), m.group(1))
    return 1 << card_bit(RANKS.index(rank), SUITS.index(m.group(2)))


def parse_cards(text: str) -> int:
    """Mask of the cards in ``text`` (separated by spaces or commas); ``""`` gives 0.

    Raises :class:`ValueError` on an unknown token or a card named twice.

    >>> parse_cards("")
    0
    >>> format_cards(parse_cards("2c, ks,AH"))
    'KS AH 2C'
    """
    if not isinstance(text, str):
        raise ValueError(f"card text must be a string, not {type(text).__name__}")
    mask = 0
    for token in re.split(r"[\s,]+", text.strip()):
        if not token:
            continue
        bit = parse_card(token)
        if mask & bit:
            raise ValueError(f"card named twice: {token!r}")
        mask |= bit
    return mask


def card_name(bit: int) -> str:
    """Text of one card bit.

    >>> card_name(52), card_name(21)
    ('JK', '10H')
    """
    if 0 <= bit < 2 * PLANE_BITS and bit & (PLANE_BITS - 1) <= JOKER2_BIT:
        bit = kind_of(bit)  # a card of a two-deck profile names its kind
    if bit == JOKER_BIT:
        return "JK"
    if not 0 <= bit < JOKER_BIT:
        raise ValueError(f"not a card bit: {bit}")
    return RANKS[bit % N_RANKS] + SUITS[bit // N_RANKS]


def cards_of(mask: int) -> list[int]:
    """Bit indices in a mask of any width (two-deck physical cards included), low to high.

    >>> cards_of(parse_cards("2S AS JK"))
    [0, 12, 52]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_bits(mask: int) -> Iterator[int]:
    """Card bits of ``mask`` in canonical order: joker, then S H D C, each high to low.

    >>> list(iter_bits(parse_cards("2S AS JK")))
    [52, 12, 0]
    """
    if mask & JOKER:
        yield JOKER_BIT
    for s in range(N_SUITS):
        for r in range(N_RANKS - 1, -1, -1):
            b = s * N_RANKS + r
            if mask >> b & 1:
                yield b


def format_cards(mask: int) -> str:
    """Canonical text of a mask: joker first, then suits S H D C, ranks high to low.

    >>> format_cards(parse_cards("3C JK 10S 4S"))
    'JK 10S 4S 3C'
    """
    if not isinstance(mask, int) or mask < 0 or mask >> (PLANE_BITS + JOKER2_BIT + 1):
        raise ValueError(f"not a card mask: {mask!r}")
    if not mask >> N_CARD_KINDS:
        return " ".join(card_name(b) for b in iter_bits(mask))
    return " ".join(  # two decks: a kind as often as its copies
        " ".join([card_name(b)] * (mask & copies(b)).bit_count()) for b in iter_bits(fold(mask))
    )


JOKER_IDS: tuple[int, ...] = (JOKER_BIT, PLANE_BITS + JOKER_BIT, JOKER2_BIT,
                              PLANE_BITS + JOKER2_BIT)
"""Physical ids of the jokers of a two-deck profile, in the order they enter the deck."""


def parse_physical(text: str) -> int:
    """Two-deck mask of the cards in ``text``: a card named twice is its two copies (the
    first from deck 0), a joker named up to four times takes the ids of :data:`JOKER_IDS`.

    >>> format_cards(parse_physical("AS jk AS jk 2c"))
    'JK JK AS AS 2C'
    >>> parse_physical("AS") == parse_cards("AS")
    True
    """
    mask = 0
    for token in re.split(r"[\s,]+", text.strip()):
        if not token:
            continue
        kind = parse_card(token).bit_length() - 1
        ids = JOKER_IDS if kind == JOKER_BIT else (kind, PLANE_BITS + kind)
        free = [c for c in ids if not mask >> c & 1]
        if not free:
            raise ValueError(f"card named more often than two decks hold it: {token!r}")
        mask |= 1 << free[0]
    return mask


def card_count(mask: int) -> int:
    """Number of cards in a mask.

    >>> card_count(parse_cards("AS KS JK"))
    3
    """
    return int(mask).bit_count()


def points_in(mask: int) -> int:
    """Point cards (A K Q J 10) in a mask.

    >>> points_in(parse_cards("AS 10H 9H JK"))
    2
    """
    return (mask & POINT_CARDS).bit_count()


def to_mask(card: str | int) -> int:
    """A card given as text or as a single-card mask, as a single-card mask."""
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, int) and not isinstance(card, bool):
        if card <= 0 or card & (card - 1) or card >> N_CARD_KINDS:
            raise ValueError(f"not a single-card mask: {card!r}")
        return card
    raise ValueError(f"a card is its text or a single-card mask, not {card!r}")

