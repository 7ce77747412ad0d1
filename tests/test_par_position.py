"""`mighty-sim par --hand ...`: one deal given card by card (analysis.par_position).

The deal given on the command line must become the same play state as the kernel's own
deal: recorded heuristic deals, written out as the options a user would type, are
compared with the recorded state at trick 1 (seats turned so that the declarer is first).
The answers are those of the search on that state; bad input is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mighty_sim.analysis.par_position import deal_state, make_deal, parse_contract
from mighty_sim.cli.commands import main
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels.layout import (
    MAX_PLAYERS,
    OUTCOME_PLAYED,
    R_BID,
    R_DECLARER,
    R_FRIEND_CARD,
    R_FRIEND_MODE,
    R_LEAD_REQUEST,
    R_OUTCOME,
    R_TRUMP,
    U_BLIND,
    U_DISCARDS,
)
from mighty_sim.kernels.loop.play_nb import (
    H_DISCARDS,
    N_H,
    N_S,
    S_BID,
    S_DECLARER,
    S_FRIEND,
    S_LEADER,
    S_MODE,
    S_REQUEST,
    S_TRUMP,
)
from mighty_sim.kernels.params import MODE_FIRST_TRICK, compile_profile
from mighty_sim.kernels.search.dd_nb import dd_reaches_nb, dd_value_nb
from mighty_sim.kernels.search.par_nb import first_tricks_nb, recorded_position_nb
from mighty_sim.rules.cards import card_name, format_cards
from mighty_sim.rules.profile import BUILTIN_PROFILES, TRUMPS, load_profile

ONE_DECK = [n for n in BUILTIN_PROFILES if load_profile(n).deck_copies == 1]
LOPSIDED = ["JK AS KS QS JS 10S AH KH AD AC", "9S 8S 7S 6S QH JH 10H 9H KD QD",
            "5S 4S 3S 2S 8H 7H 6H JD 10D 9D", "5H 4H 3H 2H 8D 7D 6D 5D KC QC",
            "4D 3D 2D JC 10C 9C 8C 7C 6C 5C"]


def _options(batch, row: int, n: int) -> tuple[list[str], str, str, str, str | None]:  # type: ignore[no-untyped-def]
    """A recorded deal as the text a user gives: hands after the exchange from the
    declarer on, the discards, the contract, the friend, the lead request."""
    ri, ru = batch.ri, batch.ru
    d = int(ri[row, R_DECLARER])
    hands = [int(ru[row, s]) for s in range(n)]
    hands[d] = (hands[d] | int(ru[row, U_BLIND])) & ~int(ru[row, U_DISCARDS])
    text = [format_cards(hands[(d + i) % n]) for i in range(n)]
    called = int(ri[row, R_FRIEND_CARD])
    friend = card_name(called) if called >= 0 else "none"
    request = int(ri[row, R_LEAD_REQUEST])
    return (text, format_cards(int(ru[row, U_DISCARDS])),
            f"{int(ri[row, R_BID])}{TRUMPS[int(ri[row, R_TRUMP])]}", friend,
            TRUMPS[request] if request >= 0 else None)


@pytest.mark.parametrize("name", ONE_DECK)
def test_a_deal_given_as_text_is_the_recorded_deal(name: str) -> None:
    profile = load_profile(name)
    n = profile.players
    params = compile_profile(profile)
    batch = play_batch(profile, seed=5, game_start=0, games=120,
                       players=parse_players("heuristic", n), record_tricks=True)
    first = first_tricks_nb(batch.ri, profile.hand_size)
    rs, rh, rt = np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64), np.zeros(MAX_PLAYERS, np.int64)
    compared = 0
    for row in np.flatnonzero(batch.ri[:, R_OUTCOME] == OUTCOME_PLAYED):
        if batch.ri[row, R_FRIEND_MODE] == MODE_FIRST_TRICK:
            continue
        hands, blind, contract, friend, request = _options(batch, row, n)
        s, h, tr, _ = deal_state(make_deal(profile, hands, blind, contract, friend, request))
        recorded_position_nb(batch.ri, batch.ru, batch.ti, row, first[row], params, 1,
                             rs, rh, rt)
        d = int(batch.ri[row, R_DECLARER])
        assert [int(h[i]) for i in range(n)] == [int(rh[(d + i) % n]) for i in range(n)]
        assert h[H_DISCARDS] == rh[H_DISCARDS]
        for field in (S_BID, S_TRUMP, S_MODE, S_REQUEST):
            assert s[field] == rs[field], (row, field)
        assert s[S_DECLARER] == 0 and rs[S_DECLARER] == rs[S_LEADER] == d
        assert (s[S_FRIEND] < 0) == (rs[S_FRIEND] < 0)
        if s[S_FRIEND] >= 0:
            assert (s[S_FRIEND] + d) % n == rs[S_FRIEND]
        compared += 1
    assert compared >= 60


def test_one_deal_from_the_command_line() -> None:
    args = ["par", *sum((["--hand", h] for h in LOPSIDED), []), "--blind", "4C 3C 2C",
            "--contract", "18S", "--friend", "KD"]
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)  # a first run's compile notice is on stderr
    deal = make_deal(load_profile("standard"), LOPSIDED, "4C 3C 2C", "18S", "KD")
    s, h, tr, params = deal_state(deal)
    par = dd_value_nb(s.copy(), h.copy(), tr.copy(), params, np.zeros(1, np.int64))
    assert out["par"]["par"] == par
    assert out["makes"]["makes"] == (par >= 18)
    for bid in (par, par + 1):  # the null-window answer on both sides of the par
        assert dd_reaches_nb(s.copy(), h.copy(), tr.copy(), params, np.zeros(1, np.int64),
                             bid) == (bid <= par)
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 0
    assert f"takes {par} points" in text.output


def test_a_search_not_yet_compiled_is_announced(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The first `par --hand` on a machine compiles the search for half a minute: it says
    so on standard error before it waits; once the cache holds the search, it says
    nothing."""
    from mighty_sim import kernels

    args = ["par", *sum((["--hand", h] for h in LOPSIDED), []), "--blind", "4C 3C 2C",
            "--contract", "18S", "--friend", "KD", "--makes-only"]
    monkeypatch.setattr(kernels, "cache_dir", lambda: tmp_path)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "compiling the double-dummy search" in result.stderr
    assert "compiling" not in result.stdout
    (tmp_path / "kernels_x").mkdir()
    (tmp_path / "kernels_x" / "dd_nb.dd_target_work_nb-184.py311.nbi").touch()
    assert kernels.is_cached("dd_nb.dd_target_work_nb")
    assert not kernels.is_cached("dd_nb.dd_target_work_nb", "par_nb.par_rows_nb")
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "compiling" not in result.output


@pytest.mark.parametrize(("change", "message"), [
    ({"hand": LOPSIDED[:4]}, "give 5 hands"),
    ({"blind": "4C 3C"}, "sets aside 3 cards"),
    ({"blind": "4C 3C 3C"}, "--blind: card named twice"),
    ({"blind": "4C 3C 9S"}, "given twice"),
    ({"contract": "21S"}, "bids 13 to 20"),
    ({"contract": "15X"}, "not a contract"),
    ({"lead_request": "H"}, "--lead-request"),
    ({"friend": "KD AD"}, "--friend: one card"),
    ({"friend": "XX"}, "--friend: not a card"),
])
def test_bad_deals_are_one_line_errors(change: dict[str, object], message: str) -> None:
    given: dict[str, object] = {"hand": LOPSIDED, "blind": "4C 3C 2C", "contract": "18S",
                                "friend": "KD", "lead_request": None}
    given.update(change)
    args = ["par", *sum((["--hand", h] for h in given["hand"]), []),  # type: ignore[attr-defined]
            "--blind", given["blind"], "--contract", given["contract"], "--friend", given["friend"]]
    if given["lead_request"]:
        args += ["--lead-request", given["lead_request"]]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_deal_options_are_refused_beside_a_dataset(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["par", str(tmp_path), "--contract", "15S"])
    assert result.exit_code == 2
    assert "--contract: only with --hand" in result.output


def test_a_contract_is_read_as_bid_and_strain() -> None:
    p = load_profile("standard")
    assert parse_contract(" 16h ", p) == (16, TRUMPS.index("H"))
    with pytest.raises(ValueError, match="13 to 20"):
        parse_contract("12NT", p)
