"""``mighty-sim odds``: how often does each contract make with this hand?

For a known 10-card hand at the auction (optionally with its blind known, after the
exchange), the unseen cards are dealt at random ``samples`` times and each deal is played
out with the hand's owner as declarer in every trump and NT (:mod:`..engine.odds`; the
runs of every strain's deals on parallel threads, every strain on the same deals). The
declarer side's points (tricks in trick-bid profiles) do not depend on the bid (the
contract is kept as declared), so one set of deals per strain answers every bid of that
strain: for each contract, the success probability with a 95% Wilson interval and the
expected payout to the declarer.

With ``double_dummy``, each deal is also taken up after the players' exchange and friend
call and solved double dummy (:mod:`..engine.search`: the most the declarer's side can
take against best defence, every hand seen), the same deals giving each contract's
double-dummy success probability beside the players'. Only whether each bid makes is
needed, so a par is searched no further than the bids' range.
A whole deal takes seconds to minutes to solve (docs/odds.md): a few samples, not
thousands.

>>> from mighty_sim.rules.cards import parse_cards
>>> from mighty_sim.rules.profile import load_profile
>>> table = hand_odds(load_profile("standard"), parse_cards("AS JK AH KH QH JH 10H AD AC 2S"),
...                   samples=300)
>>> hearts_13 = next(r for r in table if r["trump"] == "H" and r["bid"] == 13)
>>> hearts_13["p_success"] > 0.95
True
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed

import numpy as np

from ..engine.odds import StrainRows, StrainTally, play_strains, tally_strains
from ..engine.players import PlayerSpec, parse_players
from ..engine.search import ParSolver, drop_kept
from ..rules.cards import format_cards
from ..rules.profile import TRUMPS, RuleProfile
from .stats import wilson_interval


def check_hand_odds(profile: RuleProfile, hand: int, blind: int = 0, samples: int = 1,
                    players: tuple[PlayerSpec, ...] | None = None,
                    double_dummy: bool = False) -> tuple[PlayerSpec, ...]:
    """The players :func:`hand_odds` seats (``players``, else heuristic ones), once its
    arguments are checked: a ValueError names the first that is wrong, before anything is
    compiled or played. With two decks the hand and blind are physical cards
    (:func:`~mighty_sim.rules.cards.parse_physical`).

    >>> from mighty_sim.rules.profile import load_profile
    >>> check_hand_odds(load_profile("standard"), 0b111)
    Traceback (most recent call last):
    ...
    ValueError: hand: give exactly 10 cards (got 3: 4S 3S 2S)
    >>> from mighty_sim.rules.cards import parse_physical
    >>> seven = load_profile("russian-7p")
    >>> hand = parse_physical("JK JK AS AS KS QS JS 10S AH AH KH AD AC 2C")
    >>> check_hand_odds(seven, hand, double_dummy=True)
    Traceback (most recent call last):
    ...
    ValueError: profile russian-7p: double-dummy odds are for one-deck profiles only
    """
    if double_dummy and profile.deck_copies != 1:
        raise ValueError(f"profile {profile.name}: double-dummy odds are for one-deck "
                         "profiles only")
    for name, cards in (("hand", hand), ("blind", blind)):
        if cards & ~profile.card_mask:
            raise ValueError(f"{name}: {format_cards(cards & ~profile.card_mask)} not in the "
                             f"{profile.name} deck")
    if hand.bit_count() != profile.hand_size:
        raise ValueError(f"hand: give exactly {profile.hand_size} cards "
                         f"(got {hand.bit_count()}: {format_cards(hand)})")
    if blind and (blind & hand or blind.bit_count() != profile.blind_size):
        raise ValueError(f"blind: give exactly {profile.blind_size} cards not in the hand")
    if not 1 <= samples <= 10_000_000:
        raise ValueError(f"samples: must be 1 to 10,000,000, got {samples}")
    return players or parse_players("heuristic", profile.players)


def hand_odds(
    profile: RuleProfile,
    hand: int,
    *,
    samples: int = 10_000,
    seed: int = 0,
    blind: int = 0,
    players: tuple[PlayerSpec, ...] | None = None,
    double_dummy: bool = False,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, object]]:
    """Every contract's success probability (95% Wilson interval) and expected payout;
    with ``double_dummy``, its double-dummy success probability too (``dd_p_success``,
    ``dd_ci_low``, ``dd_ci_high``), solved on ``workers`` threads (all cores by
    default). ``progress`` is called with the deals done as they are: the deals played
    (samples times strains), or with ``double_dummy`` the deals solved. Without
    ``double_dummy`` the deals are played a chunk at a time and only tallied
    (:func:`~mighty_sim.engine.odds.tally_strains`): the memory taken does not grow with
    ``samples``."""
    specs = check_hand_odds(profile, hand, blind, samples, players, double_dummy)
    pars = None
    if double_dummy:
        rows = play_strains(profile, hand, samples=samples, seed=seed, players=specs,
                            blind=blind, record_tricks=True)
        tally = StrainTally.of_rows(rows)
        pars = _pars(rows, workers, progress)
    else:
        tally = tally_strains(profile, hand, samples=samples, seed=seed, players=specs,
                              blind=blind, progress=progress)
    out: list[dict[str, object]] = []
    for t, trump in enumerate(TRUMPS):
        for bid in range(profile.min_bid, profile.max_bid + 1):
            made = tally.made(t, bid)  # taken: points, or tricks in trick-bid profiles
            low, high = wilson_interval(made, samples)
            row: dict[str, object] = {"trump": trump, "bid": bid,
                                      "p_success": made / samples, "ci_low": low,
                                      "ci_high": high,
                                      "expected_score": tally.expected_payout(t, bid)}
            if pars is not None:
                made = int((pars[t] >= bid).sum())
                low, high = wilson_interval(made, samples)
                row |= {"dd_p_success": made / samples, "dd_ci_low": low, "dd_ci_high": high}
            out.append(row)
    return out


DD_CHUNK = 2
"""Samples a thread solves at a time (in the search table the thread keeps,
:class:`..engine.search.ParSolver`)."""


def _pars(rows: StrainRows, workers: int | None,
          progress: Callable[[int], None] | None) -> np.ndarray:
    """(strains, samples): each sample's double-dummy count from trick 1 (trick 2 in
    first-trick friend mode, the first trick as the players played it), known only as
    far as the bids tell success from failure: ``min_bid - 1`` for every failure."""
    profile = rows.profile
    strains, samples = rows.ri.shape[0], rows.ri.shape[1]
    out = np.zeros((strains, samples), np.int64)
    tasks = [(t, r0, min(r0 + DD_CHUNK, samples)) for r0 in range(0, samples, DD_CHUNK)
             for t in range(strains)]
    threads: set[int] = set()  # the pool's, whose tables are dropped at the end
    bad: list[int] = []

    def solve(task: tuple[int, int, int]) -> int:
        t, r0, r1 = task
        threads.add(threading.get_ident())
        solver = ParSolver(profile, rows.ri[t], rows.ru[t], rows.ti[t], 1)  # thread's table
        solver.solve(r0, r1, lo=profile.min_bid - 1, hi=profile.max_bid)
        out[t, r0:r1] = solver.value[r0:r1]
        bad.extend(np.flatnonzero(~solver.replayed[r0:r1]).tolist())
        return r1 - r0

    pool = ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1)
    try:
        for f in as_completed([pool.submit(solve, task) for task in tasks]):
            done = f.result()
            if progress is not None:
                progress(done)
    except BaseException:  # Ctrl-C: the deals not begun are dropped, none waited for
        pool.shutdown(wait=False, cancel_futures=True)
        drop_kept(threads)
        raise
    pool.shutdown()
    drop_kept(threads)  # the pool's tables
    if bad:  # pragma: no cover - a kernel fault
        raise RuntimeError("a sample's recorded play did not replay for its par")
    return out
