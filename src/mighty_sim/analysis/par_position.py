"""Double-dummy par of one deal given card by card (``mighty-sim par --hand ...``): every
seat's hand after the exchange, the declarer's discards, the contract and the friend
call; whether the contract makes and what the declarer's side takes with best play on
both sides (:mod:`mighty_sim.kernels.search.dd_nb`).

A whole deal is the search's hardest question: seconds to minutes on a `standard` deal
(docs/double-dummy.md). Whether the contract makes is answered first, by the search
with a null window, which is several times faster than the exact par.

>>> from mighty_sim.rules.profile import load_profile
>>> p = load_profile("standard")
>>> parse_contract("15s", p), parse_contract("20NT", p)
((15, 0), (20, 4))
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..rules.cards import card_name, format_cards, parse_cards
from ..rules.profile import NO_TRUMP, TRUMPS, RuleProfile
from ..workers import polled_pool

if TYPE_CHECKING:
    from ..engine.search import Position

_CONTRACT = re.compile(r"^\s*(\d+)\s*(S|H|D|C|NT)\s*$", re.IGNORECASE)


def parse_contract(text: str, profile: RuleProfile) -> tuple[int, int]:
    """(bid, trump code) of a contract such as ``15S`` or ``20NT``; ValueError when it
    is not one the profile can bid."""
    m = _CONTRACT.match(text)
    if m is None:
        raise ValueError(f"--contract: not a contract: {text!r} (expected e.g. 15S, 20NT)")
    bid, trump = int(m.group(1)), TRUMPS.index(m.group(2).upper())
    if not profile.min_bid <= bid <= profile.max_bid:
        raise ValueError(f"--contract: {profile.name} bids {profile.min_bid} to "
                         f"{profile.max_bid}, got {bid}")
    return bid, trump


@dataclass(frozen=True)
class Deal:
    """One deal after the exchange: ``hands`` the declarer's first, then each seat in
    turn of play (card masks); ``discards`` the declarer's; ``called`` the card called
    for a friend (-1: no friend); ``request`` the suit asked of the friend's first lead
    in a top no-trump contract (-1: none)."""

    profile: RuleProfile
    hands: tuple[int, ...]
    discards: int
    bid: int
    trump: int
    called: int
    request: int


def make_deal(profile: RuleProfile, hands: list[str], discards: str, contract: str,
              friend: str, lead_request: str | None = None) -> Deal:
    """A :class:`Deal` from card texts, checked: one hand a seat of the profile's size,
    the discards, every card of the deck once; the contract; ``friend`` a card or
    ``none``. ValueError (one line, naming the option) otherwise.

    >>> from mighty_sim.rules.profile import load_profile
    >>> p = load_profile("standard")
    >>> deck = [card_name(c) for c in range(53) if p.deck_mask >> c & 1]
    >>> d = make_deal(p, [" ".join(deck[i:i + 10]) for i in range(0, 50, 10)],
    ...               " ".join(deck[50:]), "15S", "KH")
    >>> d.bid, d.trump, card_name(d.called)
    (15, 0, 'KH')
    """
    if profile.deck_copies != 1:
        raise ValueError(f"{profile.name} plays two decks; the double-dummy search plays "
                         "one-deck profiles only")
    if len(hands) != profile.players:
        raise ValueError(f"--hand: give {profile.players} hands (the declarer's first, then "
                         f"each seat in turn of play), got {len(hands)}")
    masks = [_cards(h, "--hand") for h in hands]
    for i, m in enumerate(masks):
        if m.bit_count() != profile.hand_size:
            raise ValueError(f"--hand: hand {i + 1} has {m.bit_count()} cards, "
                             f"{profile.name} plays {profile.hand_size}")
    x = _cards(discards, "--blind")
    if x.bit_count() != profile.blind_size:
        raise ValueError(f"--blind: the declarer sets aside {profile.blind_size} cards, "
                         f"got {x.bit_count()}")
    seen = 0
    for m in [*masks, x]:
        if seen & m:
            raise ValueError(f"--hand/--blind: {format_cards(seen & m)} given twice")
        seen |= m
    if seen & ~profile.deck_mask:
        raise ValueError(f"--hand/--blind: {format_cards(seen & ~profile.deck_mask)} not in "
                         f"the {profile.name} deck")
    if seen != profile.deck_mask:
        raise ValueError(f"--hand/--blind: missing {format_cards(profile.deck_mask & ~seen)}")
    bid, trump = parse_contract(contract, profile)
    if friend.strip().lower() == "none":
        if "none" not in profile.friend_modes:
            raise ValueError(f"--friend: {profile.name} does not play without a friend")
        called = -1
    else:
        if "called" not in profile.friend_modes:
            raise ValueError(f"--friend: {profile.name} does not call a friend by a card")
        called = _cards(friend, "--friend")
        if called.bit_count() != 1 or not called & profile.deck_mask:
            raise ValueError(f"--friend: one card of the {profile.name} deck, or none; "
                             f"got {friend!r}")
        called = called.bit_length() - 1
    request = -1
    if lead_request:
        if not (profile.nt_lead_request and trump == NO_TRUMP and bid == profile.max_bid
                and called >= 0):
            raise ValueError(f"--lead-request: only in a {profile.max_bid} NT contract with a "
                             "called friend, where the profile allows it")
        if lead_request.upper() not in TRUMPS[:4]:
            raise ValueError(f"--lead-request: a suit S, H, D or C, got {lead_request!r}")
        request = TRUMPS.index(lead_request.upper())
    return Deal(profile, tuple(masks), x, bid, trump, called, request)


def deal_state(deal: Deal) -> Position:
    """The search's position at the deal's first trick, the declarer in seat 0.

    >>> pos = deal_state(_example())
    >>> pos.trick_no, pos.side >= 0  # trick 1; KD is in seat 1's hand: the sides are known
    (1, True)
    """
    from ..engine.search import deal_position

    return deal_position(deal.profile, deal.hands, discards=deal.discards, bid=deal.bid,
                         trump=deal.trump, called=deal.called, request=deal.request)


def _cards(text: str, option: str) -> int:
    try:
        return parse_cards(text)
    except ValueError as e:
        raise ValueError(f"{option}: {e}") from None


def _solve(deal: Deal, makes: int, exact: bool) -> tuple[int, int, float]:
    """In a worker: (1 or 0, whether the contract makes; or with ``exact`` the par,
    searched on the side of the bid ``makes`` found, from the top of that side (failing
    searches cost least, :data:`..engine.search.TOP`); positions searched; seconds
    searching)."""
    from ..engine.search import TOP, search_arrays, solve_position, warm_search

    pos = deal_state(deal)
    bid = deal.bid
    warm_search(pos)  # loaded before the clock starts
    t = time.perf_counter()
    work = search_arrays(pos)
    if not exact:  # one null-window search at the bid
        guess, lo, hi = bid, bid - 1, bid
    elif makes:  # the par is at least the bid
        guess, lo, hi = TOP, bid, TOP
    else:  # below the bid
        guess, lo, hi = bid - 1, -1, bid - 1
    value, nodes = solve_position(pos, guess=guess, lo=lo, hi=hi, work=work)
    if not exact:
        value = int(value >= bid)
    return value, nodes, time.perf_counter() - t


def solve_deal(deal: Deal, *, exact: bool = True,
               on_step: Callable[[str, dict[str, object]], None] | None = None
               ) -> dict[str, object]:
    """Whether ``deal``'s contract makes with best play on both sides and, with
    ``exact``, the par (points, or tricks in trick-bid profiles), each with the
    positions searched and the seconds it took; solved in a worker process, so that
    Ctrl-C ends it at once. ``on_step(name, result)`` is called as each answer comes.

    >>> out = solve_deal(_example())
    >>> out["makes"]["makes"], out["par"]["par"]  # type: ignore[index]
    (True, 20)
    """
    p = deal.profile
    out: dict[str, object] = {"profile": p.name, "contract": f"{deal.bid}{TRUMPS[deal.trump]}",
                              "friend": card_name(deal.called) if deal.called >= 0 else "none"}
    with polled_pool(1) as run:  # one worker for both questions
        made, nodes, secs = run(_solve, [(deal, 0, False)])[0]
        out["makes"] = {"makes": bool(made), "positions": nodes, "seconds": secs}
        if on_step is not None:
            on_step("makes", out["makes"])  # type: ignore[arg-type]
        if exact:
            value, nodes, secs = run(_solve, [(deal, made, True)])[0]
            out["par"] = {"par": value, "positions": nodes, "seconds": secs}
            if on_step is not None:
                on_step("par", out["par"])  # type: ignore[arg-type]
    return out


def _example() -> Deal:
    """A lopsided `standard` deal for the examples: 18 spades, the friend called by KD."""
    from ..rules.profile import load_profile

    hands = ["JK AS KS QS JS 10S AH KH AD AC", "9S 8S 7S 6S QH JH 10H 9H KD QD",
             "5S 4S 3S 2S 8H 7H 6H JD 10D 9D", "5H 4H 3H 2H 8D 7D 6D 5D KC QC",
             "4D 3D 2D JC 10C 9C 8C 7C 6C 5C"]
    return make_deal(load_profile("standard"), hands, "4C 3C 2C", "18S", "KD")
