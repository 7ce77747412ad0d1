"""Analysis tables against counts computed independently from the raw rows, and the
exact weak-hand values against brute-force enumeration."""

from __future__ import annotations

import json
import math
import statistics
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import polars as pl
import pyarrow.dataset as ds
import pytest
from click.testing import CliRunner
from conftest import STANDARD

from mighty_sim.analysis.tables import analyze_dataset, wilson_interval
from mighty_sim.cli.commands import main
from mighty_sim.dataset.config import RunConfig
from mighty_sim.dataset.runner import run_simulation
from mighty_sim.engine.players import parse_players
from mighty_sim.reference.rules import weak_hand_qualifies
from mighty_sim.rules.weak import weak_deal_probability, weak_hand_probability


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("analysis") / "run"
    config = RunConfig(STANDARD, deals=4000, seed=21, players=parse_players("heuristic", 5),
                       ledger=10, shard_games=150)
    run_simulation(config, out, workers=1)
    return out


@pytest.fixture(scope="module")
def rows(dataset: Path) -> list[dict[str, object]]:
    """The files' rows as stored, each seat list joined from its seat columns here."""
    rows = ds.dataset(dataset / "deals", format="parquet", partitioning="hive").to_table(
    ).to_pylist()
    for r in rows:
        for name in ("hands", "weak_scores", "payouts"):
            r[name] = [r.pop(f"{name}_{s}") for s in range(STANDARD.players)]
    return rows


@pytest.fixture(scope="module")
def tables(dataset: Path) -> dict[str, object]:
    return analyze_dataset(dataset)  # type: ignore[return-value]


def test_bid_success_matches_raw_counts(rows: list[dict], tables: dict) -> None:  # type: ignore[type-arg]
    n: Counter[tuple[object, ...]] = Counter()
    made: Counter[tuple[object, ...]] = Counter()
    for r in rows:
        if r["outcome"] != "played":
            continue
        key = (r["bid"], "NT" if r["trump"] == "NT" else "suit", r["friend_mode"])
        n[key] += 1
        made[key] += bool(r["success"])
    table = tables["bid_success"]
    got = {(d["bid"], d["trump_kind"], d["friend_mode"]): d for d in table.to_dicts()}
    assert set(got) == set(n)
    for key, d in got.items():
        assert (d["n"], d["successes"]) == (n[key], made[key])
        assert (d["ci_low"], d["ci_high"]) == pytest.approx(wilson_interval(made[key], n[key]))
        assert d["ci_low"] <= d["rate"] <= d["ci_high"]
    assert sum(n.values()) == 4000


def test_wilson_interval_known_value() -> None:
    # Wilson 95% interval for 8 of 10 (Newcombe 1998, method 3): 0.490 to 0.943
    low, high = wilson_interval(8, 10)
    assert round(low, 3) == 0.490 and round(high, 3) == 0.943


def test_redeal_matches_raw_counts(rows: list[dict], tables: dict) -> None:  # type: ignore[type-arg]
    hands_ok = sum(s <= 0.5 for r in rows for s in r["weak_scores"])
    deals_ok = sum(any(s <= 0.5 for s in r["weak_scores"]) for r in rows)
    weak = sum(r["outcome"] == "weak-redeal" for r in rows)
    got = {d["measure"]: d for d in tables["redeal"].to_dicts()}
    assert got["hand eligible"]["count"] == hands_ok
    assert got["hand eligible"]["n"] == 5 * len(rows)
    assert got["deal with an eligible hand"]["count"] == deals_ok
    assert got["weak-hand redeal happened"]["count"] == weak
    assert got["hand eligible"]["exact_fraction"] == "18990476/443161355"
    # the simulated rate is consistent with the exact value (within 5 standard errors)
    for measure in ("hand eligible", "deal with an eligible hand"):
        d = got[measure]
        se = (d["exact"] * (1 - d["exact"]) / d["n"]) ** 0.5
        assert abs(d["rate"] - d["exact"]) < 5 * se


def test_redeal_without_a_weak_hand_redeal_has_no_eligibility(tmp_path: Path) -> None:
    """A profile without the weak-hand redeal (russian) has the redeal rates only: no hand
    is eligible for a redeal it does not have."""
    from mighty_sim.rules.profile import load_profile

    russian = load_profile("russian-5p")
    out = tmp_path / "r5"
    run_simulation(RunConfig(russian, 500, 3, parse_players("heuristic", 5)), out)
    measures = analyze_dataset(out)["redeal"]["measure"].to_list()
    assert measures == ["weak-hand redeal happened", "all-pass redeal happened"]


def test_score_variance_matches_raw_payouts(rows: list[dict], tables: dict) -> None:  # type: ignore[type-arg]
    by_role: dict[str, list[float]] = defaultdict(list)
    by_seat: dict[int, list[float]] = defaultdict(list)
    played = sorted((r for r in rows if r["outcome"] == "played"), key=lambda r: r["deal_id"])
    for r in played:
        for seat, v in enumerate(r["payouts"]):
            role = ("declarer" if seat == r["declarer"] else
                    "friend" if seat == r["friend_seat"] else "defender")
            by_role[role].append(v)
            by_seat[seat].append(v)
    got = {(d["scope"], d["group"]): d for d in tables["score_variance"].to_dicts()}
    for role, values in by_role.items():
        d = got[("per deal, by role", role)]
        assert d["n"] == len(values)
        assert d["mean"] == pytest.approx(statistics.fmean(values))
        assert d["variance"] == pytest.approx(statistics.variance(values))
    for seat, values in by_seat.items():
        d = got[("per deal, by seat", str(seat))]
        assert d["mean"] == pytest.approx(statistics.fmean(values))
        ledgers = [sum(values[i : i + 10]) for i in range(0, len(values) - 9, 10)]
        dl = got[("per ledger of 10 deals, by seat", str(seat))]
        assert dl["n"] == len(ledgers)
        assert dl["mean"] == pytest.approx(statistics.fmean(ledgers))
        assert dl["sd"] == pytest.approx(statistics.stdev(ledgers))
    assert sum(got[("per deal, by seat", str(s))]["mean"] for s in range(5)) == pytest.approx(
        0, abs=1e-9)


def _tiny_profile():  # type: ignore[no-untyped-def]
    keep = {"AS", "AD", "KS", "QH", "10C", "10D", "2S", "3S", "4S"}
    from mighty_sim.rules.cards import card_name

    remove = tuple(card_name(b) for b in range(52) if card_name(b) not in keep)
    return STANDARD.replace(
        players=3, hand_size=3, blind_size=1, deal_packets=(3,), deck_remove=remove,
        min_bid=1, max_bid=6, back_run_threshold=2, hunter="", hunter_tricks=(2, 3),
    )


def test_exact_per_hand_and_per_deal_values_by_brute_force() -> None:
    tiny = _tiny_profile()
    cards = [b for b in range(53) if tiny.deck_mask >> b & 1]
    assert len(cards) == 10
    hands = list(combinations(cards, 3))
    ok_hands = sum(weak_hand_qualifies(tiny, sum(1 << c for c in h)) for h in hands)
    assert weak_hand_probability(tiny) == Fraction(ok_hands, len(hands))
    deals = ok_deals = 0
    for h0 in hands:
        rest0 = [c for c in cards if c not in h0]
        for h1 in combinations(rest0, 3):
            rest1 = [c for c in rest0 if c not in h1]
            for h2 in combinations(rest1, 3):
                deals += 1
                ok_deals += any(weak_hand_qualifies(tiny, sum(1 << c for c in h))
                                for h in (h0, h1, h2))
    assert deals == 16800
    assert weak_deal_probability(tiny) == Fraction(ok_deals, deals)


def test_analyze_cli_formats(dataset: Path) -> None:
    r = CliRunner().invoke(main, ["analyze", str(dataset), "--format", "json"])
    assert r.exit_code == 0
    data = json.loads(r.stdout)
    assert {"bid_success", "redeal", "score_variance"} <= set(data)
    assert all({"n", "successes"} <= set(row) for row in data["bid_success"])
    r = CliRunner().invoke(main, ["analyze", str(dataset), "--format", "csv"])
    assert r.exit_code == 0 and "# bid_success" in r.stdout
    r = CliRunner().invoke(main, ["analyze", str(dataset)])
    assert r.exit_code == 0 and "score_variance" in r.stdout


def test_analyze_rejects_a_folder_without_run(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["analyze", str(tmp_path)])
    assert r.exit_code == 2 and "holds no run" in r.stderr


# -- house-rule comparison and reports -------------------------------------------------------


def test_compare_same_rules_gives_zero_differences() -> None:
    from mighty_sim.analysis.compare import compare_profiles

    twin = STANDARD.replace(name="twin")
    df = compare_profiles([STANDARD, twin], deals=3000, seed=5,
                          players=parse_players("heuristic", 5))
    diffs = df.filter(df["profile"] == "twin")
    assert diffs.height == 16  # the same players, and players tuned for each (the same)
    assert sorted(set(diffs["players"])) == ["adapted", "same"]
    assert all(d == 0 and lo == 0 and hi == 0 for d, lo, hi in
               zip(diffs["diff"], diffs["ci_low"], diffs["ci_high"], strict=True))


def test_compare_tunes_players_for_a_rule_without_values() -> None:
    """A house rule nobody tuned for is tuned before the adapted comparison, and said so;
    --fixed-players (adapted=False) plays the first profile's players only."""
    from mighty_sim.analysis.compare import compare_profiles

    timid = STANDARD.replace(name="harsh", back_run_threshold=12)
    notes: list[str] = []
    df = compare_profiles([STANDARD, timid], deals=1000, seed=2,
                          players=parse_players("heuristic", 5), note=notes.append)
    assert sorted(set(df["players"])) == ["adapted", "same"]
    assert len(notes) == 1 and notes[0].startswith("players tuned for harsh")
    fixed = compare_profiles([STANDARD, timid], deals=1000, seed=2,
                             players=parse_players("heuristic", 5), adapted=False)
    assert set(fixed["players"]) == {"same"}
    assert fixed.equals(df.filter(df["players"] == "same"))


def test_compare_pairs_the_same_deals() -> None:
    """No back-run double: the play is identical, only failed back-run payouts halve; the
    paired difference must equal the one computed by hand from the two batches."""
    from mighty_sim.analysis.compare import compare_profiles
    from mighty_sim.dataset.schema import deals_table
    from mighty_sim.engine.batch import play_batch

    players = parse_players("heuristic", 5)
    soft = STANDARD.replace(name="soft", double_back_run=False)
    df = compare_profiles([STANDARD, soft], deals=4000, seed=9, players=players,
                          adapted=False)
    got = {r["metric"]: r for r in df.filter(df["profile"] == "soft").to_dicts()}
    assert got["success_rate"]["diff"] == 0 and got["mean_bid"]["diff"] == 0

    def declarer_payouts(profile):  # type: ignore[no-untyped-def]
        rows = deals_table(play_batch(profile, seed=9, game_start=0, games=4000,
                                      players=players), 5).to_pylist()
        return {r["game"]: r["payouts"][r["declarer"]] for r in rows if r["outcome"] == "played"}

    a, b = declarer_payouts(STANDARD), declarer_payouts(soft)
    diffs = [b[g] - a[g] for g in a]
    assert got["declarer_payout"]["diff"] == pytest.approx(statistics.fmean(diffs))
    assert got["declarer_payout"]["diff"] > 0  # failing a back run costs less
    assert got["declarer_payout"]["ci_low"] > 0


def test_compare_datasets_cli(dataset: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    config = RunConfig(STANDARD.replace(name="soft", double_back_run=False), deals=4000,
                       seed=21, players=parse_players("heuristic", 5), ledger=10,
                       shard_games=150)
    run_simulation(config, other, workers=1)
    r = CliRunner().invoke(main, ["compare", str(dataset), str(other), "--format", "json"])
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)
    bid = [x for x in rows if x["metric"] == "mean_bid" and x["diff"] is not None]
    assert bid and bid[0]["diff"] == 0 and bid[0]["ci_high"] == 0  # paired: same deals
    r = CliRunner().invoke(main, ["compare", "--profile", "standard"])
    assert r.exit_code == 2 and "two or more" in r.stderr


def test_report_writes_markdown_and_pictures(dataset: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["report", str(dataset), "--out", str(tmp_path / "rep")])
    assert r.exit_code == 0, r.stderr
    md = (tmp_path / "rep" / "report.md").read_text()
    pictures = sorted(p.name for p in (tmp_path / "rep").glob("*.png"))
    assert len(pictures) == 4
    for name in pictures:
        assert f"]({name})" in md
        assert (tmp_path / "rep" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "## bid_success" in md and "18990476/443161355" in md
    page = (tmp_path / "rep" / "report.html").read_text()
    assert page.startswith("<!doctype html>") and all(f'src="{n}"' in page for n in pictures)
    assert "<h2>score_variance</h2><table>" in page


@pytest.mark.parametrize("script", ["bid_success", "redeal", "variance"])
def test_analysis_scripts_run(dataset: Path, script: str) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, str(root / "analysis" / f"{script}.py"),
                           str(dataset)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "shape:" in proc.stdout  # printed Polars tables


def test_balance_script_runs() -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, str(root / "analysis" / "balance.py"), "standard",
                           str(root / "data" / "profiles" / "hunter-3h.toml"), "2000"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "hunter-3h" in proc.stdout and "success_rate" in proc.stdout


def test_success_by_hand_and_points_match_raw_counts(rows: list[dict], tables: dict) -> None:  # type: ignore[type-arg]
    n: Counter[int] = Counter()
    made: Counter[int] = Counter()
    pts: Counter[int] = Counter()
    for r in rows:
        if r["outcome"] == "played":
            k = r["declarer_hand_points"]
            n[k] += 1
            made[k] += bool(r["success"])
            pts[k] += r["declarer_points"]
    got = {d["declarer_hand_points"]: d for d in tables["success_by_points"].to_dicts()}
    assert set(got) == set(n)
    for k, d in got.items():
        assert (d["n"], d["successes"]) == (n[k], made[k])
        assert d["mean_points"] == pytest.approx(pts[k] / n[k])
    assert tables["success_by_hand"]["n"].sum() == sum(n.values())


def test_remaining_tables_match_raw_rows(rows: list[dict], tables: dict) -> None:  # type: ignore[type-arg]
    # weak-hand score distribution over every dealt hand
    scores = Counter(s for r in rows for s in r["weak_scores"])
    got = {d["score"]: d["hands"] for d in tables["weak_scores"].to_dicts()}
    assert got == dict(scores)
    # success by hand shape at auction time
    shape: Counter[tuple[object, ...]] = Counter()
    for r in rows:
        if r["outcome"] == "played":
            key = (int(r["declarer_strength"] // 1), r["declarer_trump_length"],
                   r["declarer_has_mighty"], r["declarer_has_joker"])
            shape[key] += 1
    table = tables["success_by_hand"].to_dicts()
    assert {(d["strength"], d["declarer_trump_length"], d["declarer_has_mighty"],
             d["declarer_has_joker"]): d["n"] for d in table} == dict(shape)
    # payout by position after the dealer
    by_pos: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r["outcome"] == "played":
            for seat, v in enumerate(r["payouts"]):
                by_pos[str((seat - r["dealer"]) % 5)].append(v)
    sv = {(d["scope"], d["group"]): d for d in tables["score_variance"].to_dicts()}
    for pos, values in by_pos.items():
        d = sv[("per deal, seat after the dealer", pos)]
        assert d["n"] == len(values) and d["mean"] == pytest.approx(statistics.fmean(values))
        assert d["median"] == sorted(values)[math.ceil(0.5 * len(values)) - 1]


def test_games_to_a_target_counted_from_the_raw_rows(tmp_path: Path) -> None:
    from mighty_sim.analysis.tables import game_results, scan_deals
    from mighty_sim.rules.profile import load_profile

    ucla = load_profile("ucla-4p")
    config = RunConfig(ucla, deals=80, seed=6, players=parse_players("heuristic", 4),
                       ledger=200, to_target=True)
    run_simulation(config, tmp_path / "run")
    assert "games" in analyze_dataset(tmp_path / "run")
    table = game_results(scan_deals(tmp_path / "run"), 4, 1000)
    rows = sorted(scan_deals(tmp_path / "run").collect().to_dicts(), key=lambda r: r["deal_id"])
    lengths: dict[int, int] = {}
    totals: dict[int, list[float]] = {}
    first_dealer: dict[int, int] = {}
    for r in rows:
        first_dealer.setdefault(r["game"], r["dealer"])
        if r["outcome"] == "played":
            lengths[r["game"]] = lengths.get(r["game"], 0) + 1
            t = totals.setdefault(r["game"], [0.0] * 4)
            for s in range(4):
                t[s] += r["payouts"][s]
    assert len(lengths) == 80
    mean = table.filter(pl.col("measure").str.starts_with("deals a game"))["value"][0]
    assert mean == pytest.approx(sum(lengths.values()) / 80)
    wins = [0] * 4
    for game, t in totals.items():
        wins[(t.index(max(t)) - first_dealer[game]) % 4] += 1
    by_pos = table.filter(pl.col("measure").str.starts_with("wins")).sort("group")
    assert [round(v * 80) for v in by_pos["value"]] == wins
    reached = table.filter(pl.col("measure") == "reached the target")["value"][0]
    assert reached == sum(max(t) >= 1000 for t in totals.values()) / 80
