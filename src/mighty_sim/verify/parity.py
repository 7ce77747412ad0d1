"""The batch engine against the reference engine, decision by decision, on whole games.

Both engines' random players draw from the same counter-based streams, so the batch
kernel playing games ``start .. start+count-1`` makes exactly the reference engine's
decisions as long as both agree on every rule. Each dealt attempt is compared in the
order the decisions were made: the deal (dealer, first bidder, hands, blind), every
auction action (bid, pass, weak hand shown), the outcome, the contract as won and as
played (trump change or raise), the discards, the friend call (mode, card, lead
request) and its resolution (seat, kind), then every trick card by card (leader, cards
in order, joker suit, demand, winner, points) and the settlement. The first difference
of an attempt is reported with where it happened.

Beside it, :func:`compare_auction_choices` asks the kernels for the legal bids and the
allowed contract changes at every auction and contract decision the reference engine
offered, and compares the lists in order (the random players index into them).

>>> report = compare_games("ucla-5p", seed=3, start=0, count=20, ledger=2)
>>> report.mismatches, report.attempts >= 40
(0, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..dataset.schema import bid_name, deals_table, row_cards, tricks_table
from ..engine.batch import play_batch
from ..engine.players import parse_players
from ..kernels.params import compile_profile
from ..kernels.rules.auction_nb import (
    kth_legal_bid_nb,
    kth_other_contract_nb,
    legal_bid_count_nb,
    other_contract_count_nb,
)
from ..reference.game import play_deal, play_ledger
from ..reference.players import RandomPlayer
from ..reference.records import (
    AuctionView,
    Bid,
    ContractView,
    DealRecord,
    ExchangeView,
    FriendCall,
    Pass,
    WeakHandShown,
)
from ..reference.rng import DealStream
from ..rules.cards import card_name, kind_of
from ..rules.profile import TRUMPS, RuleProfile, load_profile
from .differential import DiffReport, note_mismatch


def _history(rec: DealRecord) -> list[str]:
    """The auction as the dataset writes it (``2:15S``, ``3:pass``, ``0:weak``)."""
    out = []
    for a in rec.actions:
        if isinstance(a, Bid):
            out.append(f"{a.seat}:{a.number}{a.trump}")
        elif isinstance(a, Pass):
            out.append(f"{a.seat}:pass")
        elif isinstance(a, WeakHandShown):
            out.append(f"{a.seat}:weak")
    return out


def _first_difference(p: RuleProfile, row: dict[str, Any], tricks: list[dict[str, Any]],
                      rec: DealRecord) -> str | None:
    """Where the batch engine's attempt first differs from the reference's, or None."""
    n = p.players
    checks: list[tuple[str, object, object]] = [
        ("dealer, first bidder", (row["dealer"], row["first_bidder"]),
         (rec.dealer, rec.first_bidder)),
        ("hands", [row_cards(row, "hands", s) for s in range(n)], list(rec.hands)),
        ("blind", row_cards(row, "blind"), rec.blind),
    ]
    history = _history(rec)
    for k in range(max(len(row["bid_history"]), len(history))):
        kernel = bid_name(row["bid_history"][k]) if k < len(row["bid_history"]) else None
        checks.append((f"auction action {k + 1}", kernel, history[k] if k < len(history)
                       else None))
    r = rec.result
    checks.append(("outcome", row["outcome"], r.outcome))
    if (found := _first(checks)) or r.outcome != "played":
        return found
    checks = []
    if True:
        won = [a for a in rec.actions if isinstance(a, Bid)][-1]
        call = next(a for a in rec.actions if isinstance(a, FriendCall))
        checks += [
            ("declarer", row["declarer"], r.declarer),
            ("contract won", (row["auction_bid"], row["auction_trump"]),
             (won.number, won.trump)),
            ("discards", row_cards(row, "discards"), r.discards),
            ("contract played", (row["bid"], row["trump"], row["trump_changed"]),
             (r.bid, r.trump, r.trump_changed)),
            ("friend call", (row["friend_mode"], row["friend_card"], row["lead_request"]),
             (call.mode, None if call.card is None else card_name(kind_of(call.card)),
              call.lead_request)),
            ("friend", (row["friend_seat"], row["friend_kind"]), (r.friend_seat,
                                                                   r.friend_kind)),
        ]
        if tricks:  # recorded
            for kt, rt in zip(tricks, rec.tricks, strict=False):
                cards = [card_name(kind_of(c)) for c in rt.cards]
                checks.append((f"trick {rt.number}", (kt["leader"], kt["cards"],
                               kt["joker_suit"], kt["demand"], kt["winner"], kt["points"]),
                               (rt.leader, cards, rt.joker_suit, rt.demand, rt.winner,
                                rt.points)))
            checks.append(("number of tricks", len(tricks), len(rec.tricks)))
        checks += [
            ("points, tricks", (row["declarer_points"], row["declarer_tricks"]),
             (r.declarer_points, r.declarer_tricks)),
            ("success", row["success"], r.success),
            ("payouts", [Fraction(v) for v in row["payouts"]], list(r.payouts)),
        ]
    return _first(checks)


def _first(checks: list[tuple[str, object, object]]) -> str | None:
    for what, kernel, reference in checks:
        if kernel != reference:
            return f"{what}: kernel {kernel}, reference {reference}"
    return None


def compare_games(profile: RuleProfile | str, *, seed: int, start: int, count: int,
                  ledger: int = 2, kernel_profile: RuleProfile | None = None) -> DiffReport:
    """Games ``start .. start+count-1`` of ``ledger`` deals played by random players in
    the batch kernel and in the reference engine, compared decision by decision
    (``attempts`` counts the dealt attempts compared, ``attempt_decisions`` the auction
    actions and cards among them)).
    ``kernel_profile`` gives the kernel other rules, to show that a difference is seen."""
    p = load_profile(profile) if isinstance(profile, str) else profile
    n = p.players
    batch = play_batch(kernel_profile or p, seed=seed, game_start=start, games=count,
                       players=parse_players("random", n), ledger=ledger, record_tricks=True)
    rows = deals_table(batch, n).to_pylist()
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for t in tricks_table(batch, n).to_pylist():
        by_deal.setdefault(int(t["deal_id"]), []).append(t)
    report = DiffReport()
    k = 0
    for game in range(start, start + count):
        attempts = play_ledger(p, [RandomPlayer()] * n, seed=seed, game=game,
                               deals=ledger).attempts
        for attempt, rec in enumerate(attempts):
            if k >= len(rows) or rows[k]["deal_id"] != game << 16 | attempt:
                note_mismatch(report, f"game {game} attempt {attempt}: no such row in the kernel's")
                return report
            row = rows[k]
            k += 1
            report.attempts += 1
            report.attempt_decisions += len(_history(rec)) + sum(len(t.cards)
                                                                 for t in rec.tricks)
            difference = _first_difference(p, row, by_deal.get(int(row["deal_id"]), []), rec)
            if difference:
                note_mismatch(report, f"{p.name} game {game} attempt {attempt}: {difference}")
    if k != len(rows):
        note_mismatch(report, f"{p.name}: the kernel wrote {len(rows) - k} more attempts")
    return report


class _ChoiceRecorder(RandomPlayer):
    """The random player, keeping every auction view and contract view it decided from
    (a contract view marked by whether the blind was seen: a deal starts with the
    auction, so ``exchanged`` is cleared there)."""

    def __init__(self, log: list[tuple[str, Any]]) -> None:
        self.log = log
        self.exchanged = False

    def auction(self, view: AuctionView, rng: DealStream):  # type: ignore[no-untyped-def]
        self.exchanged = False
        self.log.append(("auction", view))
        return super().auction(view, rng)

    def exchange(self, view: ExchangeView, rng: DealStream) -> int:
        self.exchanged = True
        return super().exchange(view, rng)

    def contract(self, view: ContractView, rng: DealStream) -> tuple[int, str]:
        self.log.append(("after the blind" if self.exchanged else "before the blind", view))
        return super().contract(view, rng)


def compare_auction_choices(profile: RuleProfile | str, *, seed: int, start: int,
                            count: int, kernel_profile: RuleProfile | None = None
                            ) -> DiffReport:
    """At every auction and contract decision of reference deals ``start ..
    start+count-1``, the kernels' list of legal bids (or allowed contracts) against the
    reference engine's, in order (``kernel_profile``: other rules for the kernels)."""
    p = load_profile(profile) if isinstance(profile, str) else profile
    params = compile_profile(kernel_profile or p)
    n = p.players
    log: list[tuple[str, Any]] = []
    players = [_ChoiceRecorder(log) for _ in range(n)]
    for i in range(start, start + count):
        play_deal(p, players, dealer=i % n, first_bidder=i % n, stream=DealStream(seed, i))
    report = DiffReport()
    for what, view in log:
        report.choices += 1
        if what == "auction":
            bids = [a for a in view.history if isinstance(a, Bid)]
            high = (bids[-1].number, TRUMPS.index(bids[-1].trump)) if bids else (0, 0)
            kernel = [kth_legal_bid_nb(params, high[0], high[1], k)
                      for k in range(legal_bid_count_nb(params, high[0], high[1]))]
            reference = [(b, TRUMPS.index(t)) for b, t in view.legal_bids]
        else:
            cur = (view.bid, TRUMPS.index(view.trump))
            before = what == "before the blind"  # rank-gap profiles
            others = [kth_other_contract_nb(params, cur[0], cur[1], k, before)
                      for k in range(other_contract_count_nb(params, cur[0], cur[1], before))]
            kernel = [cur] + [(int(b), int(t)) for b, t in others]
            reference = [(b, TRUMPS.index(t)) for b, t in view.legal_contracts]
        kernel = [(int(b), int(t)) for b, t in kernel]
        if kernel != reference:
            note_mismatch(report, f"{p.name}: {what} choices differ: kernel {kernel}, reference "
                          f"{reference} for {view}")
    return report


__all__ = ["compare_auction_choices", "compare_games"]
