"""The PIMC player: its worlds respect what is known, it is deterministic, it plays well."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from mighty_sim.cli.commands import main
from mighty_sim.engine.batch import play_batch
from mighty_sim.engine.players import parse_players
from mighty_sim.kernels._jit import njit
from mighty_sim.kernels.layout import (
    MAX_PLAYERS,
    N_R,
    N_T,
    OUTCOME_PLAYED,
    R_DECLARER,
    R_FRIEND_SEAT,
    R_OUTCOME,
    R_POINTS,
    T_CARDS,
    T_DEMAND,
    T_LEADER,
    T_NO,
    T_WINNER,
)
from mighty_sim.kernels.loop.play_nb import H_CANT, H_SEEN, N_H, N_S, play_until_nb, start_play_nb
from mighty_sim.kernels.params import MODE_CALLED, P_MIN_BID, compile_profile
from mighty_sim.kernels.players.pimc_nb import sample_world_nb
from mighty_sim.kernels.rng_nb import seed_stream_nb
from mighty_sim.kernels.rules.rules_nb import mighty_of_nb
from mighty_sim.rules.cards import cards_of
from mighty_sim.rules.profile import load_profile

STANDARD = load_profile("standard")
JOKER = 52
SUIT = 0x1FFF


def _shown_voids(tricks: list[tuple[int, list[int]]], mighty: int, n: int) -> dict[int, int]:
    """Suits each seat has shown it lacks, read from the plays themselves (not from the
    kernel's inference): a plain suit card led, a follower plays another suit's card that
    is neither Mighty nor the joker (both may always be played)."""
    void: dict[int, int] = {s: 0 for s in range(n)}
    for leader, cards in tricks:
        lead = cards[0]
        if lead in (JOKER, mighty):
            continue
        for i, c in enumerate(cards[1:], start=1):
            if c not in (JOKER, mighty) and c // 13 != lead // 13:
                void[(leader + i) % n] |= SUIT << (13 * (lead // 13))
    return void


@njit(cache=True, nrt=True)
def worlds_after_nb(
    seed: np.uint64, hands: np.ndarray, discards: np.uint64, declarer: int,
    trump: int, mode: int, called: int, params: np.ndarray, policies: np.ndarray,
    plays: int, me: int, out: np.ndarray, ti: np.ndarray, state: np.ndarray,
) -> int:
    """Play ``plays`` cards of a contract from ``hands`` (after the exchange) with
    ``policies``, then sample ``out.shape[0]`` worlds for seat ``me`` into ``out``
    (row: each seat's hidden hand, then the pile). Finished tricks go to ``ti``; ``state``
    receives ``h`` (hands, seen, discards, deck, cannot-hold masks) and then the current
    trick. Returns the finished tricks."""
    st = np.zeros(1, np.uint64)
    seed_stream_nb(st, seed, np.uint64(0))
    s = np.zeros(N_S, np.int64)
    h = np.zeros(N_H, np.uint64)
    tr = np.full(MAX_PLAYERS, -1, np.int64)
    start_play_nb(s, h, tr, params, hands, discards,
                  (declarer, params[P_MIN_BID], trump, False), (mode, called, -1), True)
    used = play_until_nb(st, s, h, tr, policies, params, 0.0, True, ti, 0, plays)
    w = np.zeros(MAX_PLAYERS + 1, np.uint64)
    for i in range(out.shape[0]):
        if not sample_world_nb(st, s, h, tr, me, w):
            return -1
        for q in range(out.shape[1]):
            out[i, q] = w[q]
    for i in range(N_H):
        state[i] = h[i]
    for i in range(MAX_PLAYERS):
        state[N_H + i] = np.uint64(tr[i] + 1)  # 0 = no card
    return used


def _world_case(seed: int, plays: int, me: int, policies: str,
                worlds: int = 12) -> tuple[np.ndarray, ...]:
    """Deal at random, play ``plays`` cards, sample worlds for ``me``."""
    rng = np.random.default_rng(seed)
    params = compile_profile(STANDARD)
    deck = np.array(cards_of(STANDARD.deck_mask), np.int64)
    rng.shuffle(deck)
    n = STANDARD.players
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    for s in range(n):
        for c in deck[10 * s: 10 * s + 10]:
            hands[s] |= np.uint64(1 << int(c))
    discards = np.uint64(sum(1 << int(c) for c in deck[50:53]))  # declarer 0 kept its hand
    trump = int(rng.integers(0, 5))
    called = int(mighty_of_nb(params, trump))
    pol = np.array([["random", "heuristic"].index(p) for p in policies.split(",")]
                   + [1] * (MAX_PLAYERS - n), np.int64)
    out = np.zeros((worlds, n + 1), np.uint64)
    ti = np.zeros((12, N_T), np.int8)
    state = np.zeros(N_H + MAX_PLAYERS, np.uint64)
    used = worlds_after_nb(np.uint64(seed), hands, discards, 0, trump, MODE_CALLED, called,
                           params, pol, plays, me, out, ti, state)
    assert used >= 0, "the sampler found no world although the real deal is one"
    return out, ti[:used], state, hands, discards, np.int64(trump)


@pytest.mark.parametrize("policies", ["random,random,random,random,random",
                                      "heuristic,heuristic,heuristic,heuristic,heuristic"])
def test_sampled_worlds_never_contradict_what_is_known(policies: str) -> None:
    n = STANDARD.players
    params = compile_profile(STANDARD)
    checked = differing = 0
    for seed in range(150):
        plays = 5 + seed % 40
        me = seed % n
        out, ti, state, hands, discards, trump = _world_case(seed, plays, me, policies)
        h = state[:N_H]
        current = [int(c) - 1 for c in state[N_H:] if c != 0]
        mighty = int(mighty_of_nb(params, int(trump)))
        tricks = [(int(r[T_LEADER]), [int(c) for c in r[T_CARDS:T_CARDS + n]]) for r in ti]
        if current:  # led by the last trick's winner, the declarer (0) at the start
            tricks.append((int(ti[-1][T_WINNER]) if len(ti) else 0, current))
        void = _shown_voids(tricks, mighty, n)
        seen = int(h[H_SEEN]) | sum(1 << c for c in current)
        unknown = STANDARD.deck_mask & ~seen & ~int(h[me])
        if me == 0:
            unknown &= ~int(discards)
        for q in range(n):  # the inference is sound: no seat holds a card it "cannot"
            assert int(h[q]) & int(h[H_CANT + q]) == 0
        for w in out:
            assert int(w[me]) == int(h[me])
            union = 0
            for q in range(n + 1):
                if q == me or (q == n and me == 0):
                    continue
                size = 3 if q == n else int(h[q]).bit_count()
                assert int(w[q]).bit_count() == size
                assert union & int(w[q]) == 0
                union |= int(w[q])
                if q < n:
                    assert int(w[q]) & void[q] == 0, "a world gives a seat a suit it showed void"
                    assert int(w[q]) & int(h[H_CANT + q]) == 0
            assert union == unknown
            for r in ti:  # a joker demand not answered (Mighty may answer it instead)
                if r[T_DEMAND] == 1:
                    for i in range(1, n):
                        q = (int(r[T_LEADER]) + i) % n
                        if int(r[T_CARDS + i]) not in (JOKER, mighty) and q != me:
                            assert not int(w[q]) >> JOKER & 1
            checked += 1
            differing += any(int(w[q]) != int(h[q]) for q in range(n) if q != me)
    assert checked == 150 * 12 and differing > checked // 2


def test_inference_catches_a_suit_not_followed() -> None:
    """Over many deals, a seat that did not follow a plain lead has the whole suit (less
    the cards already out) in its cannot-hold mask."""
    n = STANDARD.players
    params = compile_profile(STANDARD)
    found = 0
    for seed in range(60):
        _, ti, state, _, _, trump = _world_case(seed, 30, 1, "random,random,random,random,random",
                                                worlds=1)
        mighty = int(mighty_of_nb(params, int(trump)))
        tricks = [(int(r[T_LEADER]), [int(c) for c in r[T_CARDS:T_CARDS + n]]) for r in ti]
        void = _shown_voids(tricks, mighty, n)
        h = state[:N_H]
        for q in range(n):
            out_now = void[q] & STANDARD.deck_mask & ~int(h[H_SEEN])
            assert out_now & ~int(h[H_CANT + q]) & ~(1 << mighty) == 0
            found += out_now != 0
    assert found > 20


def test_pimc_rows_do_not_depend_on_batching() -> None:
    players = parse_players("pimc:worlds=4,heuristic,random,heuristic,heuristic", 5)
    whole = play_batch(STANDARD, seed=8, game_start=0, games=40, players=players)
    first = play_batch(STANDARD, seed=8, game_start=0, games=25, players=players)
    rest = play_batch(STANDARD, seed=8, game_start=25, games=15, players=players)
    assert whole.ri.shape[1] == N_R
    np.testing.assert_array_equal(whole.rg, np.concatenate([first.rg, rest.rg]))
    np.testing.assert_array_equal(whole.ri, np.concatenate([first.ri, rest.ri]))
    np.testing.assert_array_equal(whole.rf, np.concatenate([first.rf, rest.rf]))


@pytest.mark.parametrize("profile", ["standard", "russian-7p"])
def test_pimc_before_its_first_searched_trick_plays_the_heuristics_cards(profile: str) -> None:
    """``from=T``: the heuristic's cards before trick T (bidding, exchange and call are the
    heuristic's anyway): past the last trick the rows are the heuristic's, card for card;
    from the second-last trick on PIMC's own cards begin, and only there."""
    rules = load_profile(profile)
    last = rules.tricks
    heuristic = play_batch(rules, seed=6, game_start=0, games=60, record_tricks=True,
                           players=parse_players("heuristic", rules.players))
    never = play_batch(rules, seed=6, game_start=0, games=60, record_tricks=True,
                       players=parse_players(f"pimc:worlds=4:from={last + 1}", rules.players))
    np.testing.assert_array_equal(never.ri, heuristic.ri)
    np.testing.assert_array_equal(never.ti, heuristic.ti)
    late = play_batch(rules, seed=6, game_start=0, games=60, record_tricks=True,
                      players=parse_players(f"pimc:worlds=4:from={last - 1}", rules.players))
    np.testing.assert_array_equal(late.ri[:, :R_POINTS], heuristic.ri[:, :R_POINTS])
    before = late.ti[:, T_NO] < last - 1
    np.testing.assert_array_equal(late.ti[before], heuristic.ti[before])
    assert (late.ti[~before] != heuristic.ti[~before]).any()


def test_pimc_searches_only_the_cards_its_options_name() -> None:
    """``to=``, ``on=`` and ``side=`` leave the other cards to the heuristic. Past
    ``to=`` nothing is searched: a deal whose trick ``to`` is the heuristic's has the
    heuristic's next trick. Searching the second-last trick only: with ``on=lead`` a
    trick whose lead is the heuristic's is the heuristic's whole trick (its followers
    see the same cards); with ``on=follow`` every lead is the heuristic's; with
    ``side=`` the leads of the other side are. Each searches some card: some row
    differs from the heuristic's."""
    rules = STANDARD
    last = rules.tricks

    def rows(player: str) -> np.ndarray:
        batch = play_batch(rules, seed=6, game_start=0, games=80, record_tricks=True,
                           players=parse_players(player, rules.players))
        return batch.ti

    heuristic = rows("heuristic")
    base = f"pimc:worlds=4:from={last - 1}"
    at = heuristic[:, T_NO] == last - 1
    before = heuristic[:, T_NO] == last - 2
    to = rows(f"pimc:worlds=4:from={last - 2}:to={last - 2}")
    same = (to[before] == heuristic[before]).all(axis=1)
    np.testing.assert_array_equal(to[at][same], heuristic[at][same])
    assert not same.all()
    lead = rows(f"{base}:on=lead")[at]
    same_lead = lead[:, T_CARDS] == heuristic[at, T_CARDS]
    np.testing.assert_array_equal(lead[same_lead], heuristic[at][same_lead])
    assert not same_lead.all()
    follow = rows(f"{base}:on=follow")[at]
    np.testing.assert_array_equal(follow[:, T_CARDS], heuristic[at, T_CARDS])
    assert (follow != heuristic[at]).any()
    batch = play_batch(rules, seed=6, game_start=0, games=80,
                       players=parse_players("heuristic", rules.players))
    played = batch.ri[:, R_OUTCOME] == OUTCOME_PLAYED
    declarer = batch.ri[played, R_DECLARER].astype(int)
    friend = batch.ri[played, R_FRIEND_SEAT].astype(int)
    leader = heuristic[at, T_LEADER].astype(int)
    ours = (leader == declarer) | (leader == friend)
    for side, other in (("declarer", ~ours), ("defence", ours)):
        searched = rows(f"{base}:side={side}")[at]
        np.testing.assert_array_equal(searched[other, T_CARDS], heuristic[at][other, T_CARDS])
        assert (searched != heuristic[at]).any()


def test_pimc_beats_the_heuristic_in_a_duplicate_duel() -> None:
    """PIMC, which bids as the heuristic and rolls out with it, plays the cards better: a
    PIMC that fell back to the heuristic's cards, or chose them badly, gains nothing."""
    from mighty_sim.analysis.duel import duel

    r = duel(STANDARD, "pimc:worlds=16", "heuristic", deals=1000, seed=5)
    assert r["ci_low"] > 0
    assert r["declarer"]["ci_low"] > 0  # type: ignore[index]


@pytest.mark.parametrize(
    ("players", "message"),
    [("pimc:worlds=0", "worlds must be in"), ("pimc:depth=3", "unknown option"),
     ("pimc:from=0", "from must be in"), ("heuristic:from=9", "pimc only"),
     ("pimc:from=5:to=4", "to= must not be before from="), ("pimc:on=first", "on must be"),
     ("heuristic:side=defence", "pimc only"),
     ("heuristic:noise=0.1", "pimc only"), ("pimc:noise=x", "noise must be a number")],
)
def test_bad_pimc_options_are_one_line_errors(players: str, message: str) -> None:
    r = CliRunner().invoke(main, ["duel", "--players", players, "--players", "heuristic",
                                  "--deals", "10"])
    assert r.exit_code == 2 and message in r.stderr and "Traceback" not in r.output


def test_simulate_with_a_pimc_seat_records_its_settings(tmp_path: object) -> None:
    import json
    from pathlib import Path

    out = Path(str(tmp_path)) / "run"
    r = CliRunner().invoke(main, ["simulate", "--deals", "30", "--seed", "4", "--workers", "1",
                                  "--players", "pimc:worlds=3,heuristic:1,random,heuristic,"
                                  "heuristic", "--out", str(out)])
    assert r.exit_code == 0, r.stderr
    from mighty_sim.engine.heuristic import tuned_for

    players = json.loads((out / "_run.json").read_text())["config"]["players"]
    tuned = tuned_for(load_profile("standard")).to_dict()  # the values bid with, recorded
    assert players[0] == {"policy": "pimc", "aggressiveness": 0.0, "worlds": 3, "rollouts": 1,
                          "noise": 0.0, "params": tuned}
    assert players[1] == {"policy": "heuristic", "aggressiveness": 1.0, "params": tuned}
    assert players[2] == {"policy": "random", "aggressiveness": 0.0}
