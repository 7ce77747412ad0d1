"""Golden playthroughs: a few fixed games of every built-in profile written out decision
by decision in tests/golden/<profile>.txt (as OpenSpiel keeps its playthroughs).

Each file holds two games of random players (which the reference engine plays alike,
checked here too) and two of heuristic players. Any change to what the engine does with
these deals, a rule, a player or the dealing, shows as a diff of the file. When a change
is meant, write the files again with ``python tests/write_golden.py [PROFILE ...]`` and
read the diff; the test itself only reads them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mighty_sim.dataset.schema import bid_name, deals_table, tricks_table
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.rules.cards import PLANE_BITS, format_cards
from mighty_sim.rules.profile import list_profiles, load_profile
from mighty_sim.verify.parity import compare_games

GOLDEN = Path(__file__).parent / "golden"
SEED = 2026
GAMES = 2
LEDGER = 2


def _cards(row: dict[str, Any], column: str, seat: int | None = None) -> str:
    value = row[column] if seat is None else row[column][seat]
    mask = int(value)
    if f"{column}_deck2" in row:
        second = row[f"{column}_deck2"] if seat is None else row[f"{column}_deck2"][seat]
        return f"{format_cards(mask)} / {format_cards(int(second))}"
    return format_cards(mask)


def _payout(v: float) -> str:
    return f"{v:+g}"


def render(name: str, players: str) -> list[str]:
    """The games, one line a decision or result."""
    profile = load_profile(name)
    n = profile.players
    batch = play_batch(profile, seed=SEED, game_start=0, games=GAMES,
                       players=parse_players(players, n), ledger=LEDGER, record_tricks=True)
    tricks: dict[int, list[dict[str, Any]]] = {}
    for t in tricks_table(batch, n).to_pylist():
        tricks.setdefault(t["deal_id"], []).append(t)
    lines = []
    for row in deals_table(batch, n).to_pylist():
        lines += [
            f"== {players} players, game {row['game']}, attempt {row['deal_id'] & 0xFFFF} "
            f"(deal {row['deal_in_game']} of the game)",
            f"dealer {row['dealer']}, first bidder {row['first_bidder']}",
            *(f"hand {s}: {_cards(row, 'hands', s)}" for s in range(n)),
            f"blind: {_cards(row, 'blind')}",
            f"weak-hand scores: {' '.join(f'{w:g}' for w in row['weak_scores'])}",
            f"auction: {' '.join(bid_name(c) for c in row['bid_history'])}",
            f"outcome: {row['outcome']}"
            + (f" (shown by seat {row['redeal_by']})" if row["redeal_by"] is not None else ""),
        ]
        if row["outcome"] != "played":
            continue
        lines += [
            f"declarer {row['declarer']} won {row['auction_bid']}{row['auction_trump']}, "
            f"plays {row['bid']}{row['trump']}"
            + (" (changed)" if row["trump_changed"] else ""),
            f"discards: {_cards(row, 'discards')}",
            f"friend: {row['friend_mode']}"
            + (f" {row['friend_card']}" if row["friend_card"] else "")
            + (f", lead request {row['lead_request']}" if row["lead_request"] else "")
            + f" -> {row['friend_kind']}"
            + (f" seat {row['friend_seat']}" if row["friend_seat"] is not None else ""),
        ]
        for t in tricks.get(row["deal_id"], []):
            extra = (f", joker names {t['joker_suit']}" if t["joker_suit"] else "") + (
                ", joker demanded" if t["demand"] else "")
            lines.append(f"trick {t['trick']}: {t['leader']} leads {' '.join(t['cards'])}"
                         f"{extra} -> seat {t['winner']}, {t['points']} points")
        lines.append(
            f"result: {row['declarer_points']} points, {row['declarer_tricks']} tricks, "
            f"{'made' if row['success'] else 'failed'}; payouts "
            f"{' '.join(_payout(v) for v in row['payouts'])}")
    return lines


def playthrough(name: str) -> str:
    header = [f"# {name}: golden playthrough, seed {SEED}, {GAMES} games of {LEDGER} deals "
              f"per player type; fingerprint {load_profile(name).fingerprint()}",
              f"# two-deck cards: first deck / second deck (bit {PLANE_BITS} and up)"
              if load_profile(name).deck_copies == 2 else "# one deck"]
    return "\n".join(header + render(name, "random") + render(name, "heuristic")) + "\n"


@pytest.mark.parametrize("name", list_profiles())
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = playthrough(name)
    assert path.read_text() == text, (
        f"{path} differs from what the engine plays now; if the change is meant, write it "
        "again with `python tests/write_golden.py` and read the diff")
    # the random games are the reference engine's too, decision by decision
    report = compare_games(name, seed=SEED, start=0, count=GAMES, ledger=LEDGER)
    assert report.mismatches == 0, report.examples
    assert text.count("trick 1:") >= 2 * GAMES * LEDGER
