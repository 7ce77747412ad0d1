"""Differential check: the Numba rule kernels against the reference engine, decision by
decision.

Random legal deals are played in the reference engine; every play decision (the legal
set), every trick (the winner), every settlement and every dealt hand's weak-hand score
is recorded and then recomputed by the kernels in one batch call each. Any difference is
a mismatch. With two decks the kernels' rules are asked about card kinds (hands and
tricks folded), as the two-deck play kernel asks them. Deal ``i`` uses
``DealStream(seed, i)``, so a chunk of deals is reproducible on its own and chunks can
run in parallel.

>>> report = check_deals("standard", seed=1, start=0, count=20)
>>> report.mismatches, report.deals
(0, 20)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..dataset.counts import Counts
from ..kernels.params import FRIEND_KINDS, compile_profile
from ..kernels.rules import rules_nb
from ..kernels.rules.rules_nb import weak_score2_batch_nb
from ..reference.game import play_deal
from ..reference.players import RandomPlayer
from ..reference.records import DealRecord, PlayView
from ..reference.rng import DealStream
from ..reference.rules import point_count, weak_hand_score
from ..rules.cards import SUITS, fold, kind_of, planes
from ..rules.profile import TRUMPS, RuleProfile, load_profile


@dataclass
class DiffReport(Counts):
    """What a differential run compared and what differed."""

    deals: int = 0
    played: int = 0
    decisions: int = 0
    tricks: int = 0
    settlements: int = 0
    hands: int = 0
    choices: int = 0
    """Auction and contract decisions whose legal lists were compared."""
    attempts: int = 0
    """Dealt attempts of whole games compared decision by decision (verify.parity)."""
    attempt_decisions: int = 0
    """Auction actions and cards played in those attempts."""
    mismatches: int = 0
    examples: list[str] = field(default_factory=list)

    def merge(self, other: DiffReport) -> DiffReport:
        """Add another report's counts and (up to ten) examples to this one."""
        self.add(other)
        self.examples.extend(other.examples[: max(0, 10 - len(self.examples))])
        return self


class RecordingPlayer(RandomPlayer):
    """The random player, keeping every play view it decided from in ``log``."""

    def __init__(self, log: list[PlayView]) -> None:
        self.log = log

    def play(self, view: PlayView, rng: DealStream):  # type: ignore[no-untyped-def]
        self.log.append(view)
        return super().play(view, rng)


def _suit(s: str | None) -> int:
    return -1 if s is None else SUITS.index(s)


def check_invariants(profile: RuleProfile, record: DealRecord) -> list[str]:
    """Conservation laws a finished deal must keep; returns the broken ones."""
    problems = []
    all_cards = record.blind
    for h in record.hands:
        if all_cards & h:
            problems.append("a card was dealt twice")
        all_cards |= h
    if all_cards != profile.card_mask or len(record.deck) != profile.deck_size:
        problems.append("the deal does not hold the deck")
    r = record.result
    if r.outcome != "played":
        return problems
    played_cards = [c for t in record.tricks for c in t.cards]
    if len(set(played_cards)) != len(played_cards):
        problems.append("a card was played twice")
    in_play = sum(1 << c for c in played_cards) | r.discards
    if in_play != profile.card_mask:
        problems.append("played cards and discards are not the deck")
    captured = sum(t.points for t in record.tricks) + point_count(r.discards)
    if captured != profile.total_points:
        problems.append(f"{captured} points in all, not {profile.total_points}")
    if profile.scoring == "zero-sum" and sum(r.payouts) != 0:
        problems.append(f"payouts sum to {sum(r.payouts)}")
    taken = r.declarer_points if profile.bid_unit == "points" else r.declarer_tricks
    if r.success != (r.bid is not None and taken >= r.bid):
        problems.append("success does not match points >= bid")
    return problems


def record_random_deals(
    profile: RuleProfile, *, seed: int, start: int, count: int
) -> tuple[list[DealRecord], list[PlayView]]:
    """Random deals ``start .. start+count-1`` (deal i: dealer and first bidder i mod n,
    stream ``DealStream(seed, i)``) and every play view decided from, in order."""
    n = profile.players
    log: list[PlayView] = []
    players = [RecordingPlayer(log) for _ in range(n)]
    records = [
        play_deal(profile, players, dealer=i % n, first_bidder=i % n, stream=DealStream(seed, i))
        for i in range(start, start + count)
    ]
    return records, log


def decision_arrays(
    log: list[PlayView], players: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kernel inputs of recorded play decisions: hands (N,) uint64, played (N, players)
    int64, the six int64 columns (6, N) n_played trump trick joker_suit demanded
    lead_request, and the reference's legal sets (N,) uint64."""
    m = len(log)
    hands = np.zeros(m, np.uint64)
    played = np.full((m, players), -1, np.int64)
    ints = np.zeros((6, m), np.int64)
    expected = np.zeros(m, np.uint64)
    for k, v in enumerate(log):  # two decks: the kernels' rules see kinds (fold)
        hands[k] = fold(v.hand)
        played[k, : len(v.played)] = v.played
        ints[:, k] = (len(v.played), TRUMPS.index(v.trump), v.trick_no, _suit(v.joker_suit),
                      int(v.demanded), _suit(v.lead_request))
        expected[k] = fold(v.legal)
    return hands, played, ints, expected


def check_deals(
    profile: RuleProfile | str, *, seed: int, start: int, count: int
) -> DiffReport:
    """Play deals ``start .. start+count-1`` in the reference engine and compare every
    decision, trick, settlement and weak-hand score with the kernels."""
    p = load_profile(profile) if isinstance(profile, str) else profile
    params = compile_profile(p)
    records, log = record_random_deals(p, seed=seed, start=start, count=count)
    report = DiffReport()
    for i, record in enumerate(records, start):
        for problem in check_invariants(p, record):
            note_mismatch(report, f"deal {i}: {problem}")
    report.deals = count
    _compare_decisions(p, params, log, report)
    played = [r for r in records if r.result.outcome == "played"]
    report.played = len(played)
    _compare_tricks(p, params, played, report)
    _compare_settlements(p, params, played, report)
    _compare_weak_scores(p, params, records, report)
    return report


def note_mismatch(report: DiffReport, text: str) -> None:
    """Count a mismatch and keep its text among the first ten examples."""
    report.mismatches += 1
    if len(report.examples) < 10:
        report.examples.append(text)


def _compare_decisions(
    p: RuleProfile, params: np.ndarray, log: list[PlayView], report: DiffReport
) -> None:
    hands, played, ints, expected = decision_arrays(log, p.players)
    m = len(log)
    out = np.zeros(m, np.uint64)
    rules_nb.legal_plays_batch_nb(hands, played, ints[0], ints[1], ints[2], ints[3], ints[4],
                                  ints[5], params, out)
    report.decisions += m
    for k in map(int, np.flatnonzero(out != expected)[:10]):
        note_mismatch(report, f"legal plays differ: reference {int(expected[k]):#x}, "
                      f"kernel {int(out[k]):#x} for {log[k]}")
    report.mismatches += max(0, int(np.count_nonzero(out != expected)) - 10)


def _compare_tricks(
    p: RuleProfile, params: np.ndarray, records: list[DealRecord], report: DiffReport
) -> None:
    tricks = [(r.result.trump, t) for r in records for t in r.tricks]
    m = len(tricks)
    played = np.zeros((m, p.players), np.int64)
    ints = np.zeros((5, m), np.int64)  # n trump trick joker_suit demanded
    expected = np.zeros(m, np.int64)
    for k, (trump, t) in enumerate(tricks):
        played[k] = [kind_of(c) for c in t.cards]
        ints[:, k] = (len(t.cards), TRUMPS.index(trump or "NT"), t.number,
                      _suit(t.joker_suit), int(t.demand))
        expected[k] = (t.winner - t.leader) % p.players
    out = np.zeros(m, np.int64)
    rules_nb.trick_winner_batch_nb(played, ints[0], ints[1], ints[2], ints[3], ints[4], params,
                                   out)
    report.tricks += m
    for k in map(int, np.flatnonzero(out != expected)):
        note_mismatch(report, f"trick winner differs: reference {expected[k]}, kernel {out[k]} "
                      f"for {tricks[k]}")


def _compare_settlements(
    p: RuleProfile, params: np.ndarray, records: list[DealRecord], report: DiffReport
) -> None:
    m = len(records)
    ints = np.zeros((5, m), np.int64)  # bid trump taken kind changed
    for k, r in enumerate(records):
        res = r.result
        taken = res.declarer_points if p.bid_unit == "points" else res.declarer_tricks
        ints[:, k] = (res.bid or 0, TRUMPS.index(res.trump or "NT"), taken,
                      FRIEND_KINDS.index(res.friend_kind or "friend"), int(res.trump_changed))
    out = np.zeros((m, 3), np.float64)
    rules_nb.settle_batch_nb(params, ints[0], ints[1], ints[2], ints[3], ints[4], out)
    report.settlements += m
    for k, r in enumerate(records):
        res = r.result
        assert res.declarer is not None
        for seat, paid in enumerate(res.payouts):
            if seat == res.declarer:
                kernel = out[k, 0]
            elif seat == res.friend_seat:
                kernel = out[k, 1]
            else:
                kernel = out[k, 2]
            if Fraction(kernel) != paid:
                note_mismatch(report, f"payout of seat {seat} differs: reference {paid}, "
                              f"kernel {kernel} in {res}")
                break


def _compare_weak_scores(
    p: RuleProfile, params: np.ndarray, records: list[DealRecord], report: DiffReport
) -> None:
    full = [h for r in records for h in r.hands]
    hands, second = (np.array(p, np.uint64) for p in zip(*map(planes, full), strict=True))
    out = np.zeros(hands.shape[0], np.int64)
    weak_score2_batch_nb(hands, second, params, out)
    report.hands += hands.shape[0]
    for k in range(hands.shape[0]):
        ref = weak_hand_score(p, full[k])
        if ref * 4 != out[k]:
            note_mismatch(report, f"weak-hand score differs: reference {ref}, kernel {out[k] / 4}")


__all__ = [
    "DiffReport",
    "RecordingPlayer",
    "check_deals",
    "check_invariants",
    "note_mismatch",
    "decision_arrays",
    "record_random_deals",
]
