"""The double-dummy search (kernels.search.dd_nb) against the same game searched exhaustively,
nothing pruned: random contracts on random deals of every one-deck profile, played at
random to endings of one to four tricks (taken up mid-trick too; up to five in the slow
test), every friend mode; each part of the search alone and left out; and an ending whose
value is worked out by hand."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest

from mighty_sim.kernels.layout import MAX_PLAYERS
from mighty_sim.kernels.loop.play_nb import (
    N_H,
    N_S,
    S_DECLARER,
    S_DEMANDED,
    S_FRIEND,
    S_JOKER_SUIT,
    S_K,
    S_LEADER,
    S_N,
    S_TRICK_NO,
    S_TRUMP,
    legal_now_nb,
    start_play_nb,
    to_play_nb,
)
from mighty_sim.kernels.params import MODE_CALLED, P_HAND_SIZE, compile_profile
from mighty_sim.kernels.rules.rules_nb import trick_winner_nb
from mighty_sim.kernels.search.dd_nb import (
    SEARCH_VERSION,
    TOP,
    TT_BITS,
    USE_ALL,
    USE_BOUNDS,
    USE_DECIDED,
    USE_EQUALS,
    USE_LAST,
    USE_ORDER,
    USE_PRUNING,
    USE_RANKS,
    USE_TABLE,
    dd_reaches_nb,
    dd_search_nb,
    dd_target_nb,
    dd_target_work_nb,
    dd_value_nb,
    dd_window_nb,
    follower_wins_nb,
    minimax_nb,
    search_work,
    side_of_nb,
    work_nb,
)
from mighty_sim.rules.cards import parse_cards
from mighty_sim.rules.profile import BUILTIN_PROFILES, TRUMPS, RuleProfile, load_profile
from mighty_sim.verify.dd_reference import reference_value
from mighty_sim.verify.positions import random_ending, random_plain_deal, random_small_deal

ONE_DECK = [n for n in BUILTIN_PROFILES if load_profile(n).deck_copies == 1]


def _ending(name: str, seed: int, tricks_left: int) -> tuple[np.ndarray, ...]:
    profile = load_profile(name)
    params = compile_profile(profile)
    return (*random_ending(profile, params, seed, tricks_left), params)


def _check_endings(name: str, seeds: range, tricks: tuple[int, ...]) -> int:
    """Search every ending (seed, tricks[seed % len(tricks)] tricks left) both ways;
    returns how many there were (a first-trick friend still unknown is skipped)."""
    searched = 0
    for seed in seeds:
        s, h, tr, params = _ending(name, seed, tricks[seed % len(tricks)])
        if side_of_nb(s) < 0:
            continue
        nodes_ab, nodes_all = np.zeros(1, np.int64), np.zeros(1, np.int64)
        value = dd_value_nb(s.copy(), h.copy(), tr.copy(), params, nodes_ab)
        assert value == minimax_nb(s.copy(), h.copy(), tr.copy(), params, nodes_all), seed
        guess = seed % 22  # any count, one out of the range now and then
        assert dd_target_nb(s.copy(), h.copy(), tr.copy(), params, np.zeros(1, np.int64),
                            guess, -1, 1 << 30) == value, (seed, guess)
        assert 0 <= value
        assert nodes_ab[0] <= nodes_all[0]
        searched += 1
    return searched


@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_the_search_finds_the_exhaustive_value(name: str) -> None:
    assert _check_endings(name, range(120), (1, 2, 3)) >= 100
    assert _check_endings(name, range(120, 140), (4,)) >= 15


def _target(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray, guess: int,
            lo: int, hi: int) -> int:
    return int(dd_target_nb(s.copy(), h.copy(), tr.copy(), params, np.zeros(1, np.int64),
                            guess, lo, hi))


@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_a_window_gives_the_value_inside_it_and_a_bound_outside(name: str) -> None:
    """Every window around, below and above the value, every target of the contract
    question, and the value by null-window searches alone (``dd_target_nb``) from every
    guess around it and far off and with the bounds a caller knows (the value at least,
    or at most, a count), on endings of 2-4 tricks."""
    checked = 0
    for seed in range(60):
        s, h, tr, params = _ending(name, seed, 2 + seed % 3)
        if side_of_nb(s) < 0:
            continue
        value = dd_value_nb(s.copy(), h.copy(), tr.copy(), params, np.zeros(1, np.int64))
        by_targets = partial(_target, s, h, tr, params)
        for guess in (*range(value - 3, value + 4), -50, 50):
            assert by_targets(guess, -1, 1 << 30) == value, (seed, guess)
        for known in range(value - 2, value + 1):
            assert by_targets(known + 1, known, 1 << 30) == value, (seed, known)
        for known in range(value, value + 3):
            assert by_targets(known - 1, -1, known) == value, (seed, known)
        for lo in range(value - 3, value + 3):
            for hi in (lo + 1, lo + 3):
                got = dd_window_nb(s.copy(), h.copy(), tr.copy(), params,
                                   np.zeros(1, np.int64), USE_ALL, lo, hi)
                if lo < value < hi:
                    assert got == value, (seed, lo, hi)
                elif value <= lo:
                    assert value <= got <= lo, (seed, lo, hi)
                else:
                    assert hi <= got <= value, (seed, lo, hi)
        for target in range(value - 2, value + 3):
            assert dd_reaches_nb(s.copy(), h.copy(), tr.copy(), params,
                                 np.zeros(1, np.int64), target) == (value >= target)
        checked += 1
    assert checked >= 40


def test_one_table_kept_across_solves_gives_each_its_value() -> None:
    """Endings solved one after another in the same arrays, the table never cleared
    (as ``par`` solves a dataset's deals), each under its own number: the values of
    fresh searches. Each ending twice: as dealt, then with the next seat declaring
    alone, the same hands (the same table keys) and another side to count for. Each
    also in a table of 64 entries, smaller than the search asks for: the same value,
    only entries lost. In either table the positions of a search in a fresh one: what
    other searches left in the table changes nothing."""
    work, small = work_nb(TT_BITS), work_nb(6)
    solve, differ = 0, 0
    for name in ONE_DECK[:3]:
        for seed in range(30):
            s, h, tr, params = _ending(name, seed, 1 + seed % 4)
            if side_of_nb(s) < 0:
                continue
            other = s.copy()
            other[S_DECLARER] = (s[S_DECLARER] + 1) % s[S_N]
            other[S_FRIEND] = -1
            values = []
            for state in (s, other):
                value = dd_value_nb(state.copy(), h.copy(), tr.copy(), params,
                                    np.zeros(1, np.int64))
                solve += 1
                for kept, fresh in ((work, search_work(TT_BITS)), (small, work_nb(6))):
                    nodes = np.zeros(2, np.int64)
                    for i, arrays in enumerate((kept, fresh)):
                        got = dd_target_work_nb(state.copy(), h.copy(), tr.copy(), params,
                                                nodes[i:], seed % 21, -1, 1 << 30, arrays,
                                                solve, 0)
                        assert got == value, (name, seed, solve)
                    assert nodes[0] == nodes[1], (name, seed, solve)
                values.append(value)
            differ += values[0] != values[1]
    assert solve >= 100 and differ >= 20


@pytest.mark.slow
@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_the_search_finds_the_exhaustive_value_on_longer_endings(name: str) -> None:
    assert _check_endings(name, range(1000, 1200), (3, 4)) >= 160
    assert _check_endings(name, range(2000, 2004), (5,)) >= 2  # up to 10**8 positions each


def _check_reference(name: str, seeds: range, tricks: tuple[int, ...]) -> int:
    """The search against the minimax on the reference rules (verify.dd_reference), on
    endings of ``tricks[seed % len(tricks)]`` tricks and, for every fifth seed, a whole
    deal of a reduced deck; returns how many were compared."""
    profile = load_profile(name)
    params = compile_profile(profile)
    compared = 0
    for seed in seeds:
        if seed % 5 == 0:
            s, h, tr, p = random_small_deal(profile, params, seed, 3)
        else:
            s, h, tr, p = (*random_ending(profile, params, seed, tricks[seed % len(tricks)]),
                           params)
        if side_of_nb(s) < 0:
            continue
        value = dd_value_nb(s.copy(), h.copy(), tr.copy(), p, np.zeros(1, np.int64))
        assert value == reference_value(profile, s, h, tr, int(p[P_HAND_SIZE])), (name, seed)
        compared += 1
    return compared


@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_the_search_agrees_with_the_reference_minimax(name: str) -> None:
    assert _check_reference(name, range(250), (1, 2, 3)) >= 200


@pytest.mark.slow
@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_the_search_agrees_with_the_reference_minimax_on_longer_endings(name: str) -> None:
    assert _check_reference(name, range(3000, 3120), (4,)) >= 90
    assert _check_reference(name, range(4001, 4005), (5,)) >= 3


@pytest.mark.slow
@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_five_trick_endings_against_every_line_with_a_table(name: str) -> None:
    """Endings of five tricks in numbers: against the search of every line with exact
    values kept at tricks' starts and nothing else (no cut, no bound, no equal cards,
    no order), whose table the reference minimax checks on shorter endings."""
    profile = load_profile(name)
    params = compile_profile(profile)
    compared = 0
    for seed in range(5000, 5300):
        s, h, tr = random_ending(profile, params, seed, 5)
        if side_of_nb(s) < 0:
            continue
        nodes = np.zeros(1, np.int64)
        value = dd_value_nb(s.copy(), h.copy(), tr.copy(), params, nodes)
        assert value == dd_search_nb(s, h, tr, params, nodes, USE_TABLE), (name, seed)
        compared += 1
    assert compared >= 250


@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_whole_deals_of_a_reduced_deck(name: str) -> None:
    """Deals of three and four cards a player from the cards with rules of their own,
    searched from trick 1 (the first-trick rules apply) to the end both ways."""
    profile = load_profile(name)
    params = compile_profile(profile)
    searched = 0
    for seed in range(60):
        s, h, tr, small = random_small_deal(profile, params, seed, 3 if seed % 4 else 4)
        if side_of_nb(s) < 0:  # first-trick friend mode: from trick 2, as the search does
            continue
        nodes = np.zeros(1, np.int64)
        value = dd_value_nb(s.copy(), h.copy(), tr.copy(), small, nodes)
        assert value == minimax_nb(s, h, tr, small, nodes), seed
        searched += 1
    assert searched >= 30


PARTS = (USE_PRUNING, USE_TABLE, USE_BOUNDS, USE_EQUALS, USE_ORDER, USE_LAST, USE_DECIDED,
         USE_RANKS)
# each part alone with alpha-beta (the decided tricks refine the bounds, the ranks the
# table's entries, so with them)
ALONE = [USE_PRUNING | p for p in (USE_TABLE, USE_BOUNDS, USE_EQUALS, USE_ORDER, USE_LAST)] \
    + [USE_PRUNING | USE_BOUNDS | USE_DECIDED, USE_PRUNING | USE_TABLE | USE_RANKS]


@pytest.mark.parametrize("uses", ALONE + [USE_ALL & ~p for p in PARTS])
def test_each_part_of_the_search_alone_and_left_out_keeps_the_value(uses: int) -> None:
    searched = 0
    for name in ("standard", "ucla-4p", "russian-3p"):
        for seed in range(40):
            s, h, tr, params = _ending(name, 500 + seed, 2 + seed % 2)
            if side_of_nb(s) < 0:
                continue
            nodes = np.zeros(1, np.int64)
            exact = minimax_nb(s.copy(), h.copy(), tr.copy(), params, nodes)
            assert dd_search_nb(s, h, tr, params, nodes, uses) == exact, (name, seed)
            searched += 1
    assert searched >= 100


@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_entries_naming_only_the_deciding_cards_give_the_exact_tables_values(name: str
                                                                            ) -> None:
    """Endings of five and six tricks (long enough for an entry to serve positions that
    differ in cards it does not name): the value, and the value found by null-window
    searches from guesses around it (entries whose bounds came from other windows),
    as the search whose entries hold for the same cards in relative ranks only finds
    it."""
    compared = 0
    for seed in range(40):
        s, h, tr, params = _ending(name, 900 + seed, 5 + seed % 2)
        if side_of_nb(s) < 0:
            continue
        exact = dd_search_nb(s.copy(), h.copy(), tr.copy(), params, np.zeros(1, np.int64),
                             USE_ALL & ~USE_RANKS)
        assert dd_value_nb(s.copy(), h.copy(), tr.copy(), params,
                           np.zeros(1, np.int64)) == exact, (seed,)
        for guess in (exact - 2, exact + 1, 1 << 30):
            assert _target(s, h, tr, params, guess, -1, 1 << 30) == exact, (seed, guess)
        compared += 1
    assert compared >= 30


def _plain_deal_values(name: str, seed: int, tricks: int) -> tuple[int, list[int]]:
    """The value of a :func:`random_plain_deal` by the search without a table, and as the
    search and its null-window searches from guesses below and above it find it."""
    profile = load_profile(name)
    s, h, tr, small = random_plain_deal(profile, compile_profile(profile), seed, tricks)
    if side_of_nb(s) < 0:  # a first-trick friend still unknown
        return -1, []

    def nodes() -> np.ndarray:
        return np.zeros(1, np.int64)

    exact = dd_search_nb(s.copy(), h.copy(), tr.copy(), small, nodes(), USE_ALL & ~USE_TABLE)
    found = [dd_value_nb(s.copy(), h.copy(), tr.copy(), small, nodes())]
    for guess in (exact - 2, exact + 1, 1 << 30):
        found.append(int(dd_target_nb(s.copy(), h.copy(), tr.copy(), small, nodes(), guess,
                                      -1, 1 << 30)))
    return exact, found


# Deals where an entry that does not name the lower of two equal cards, the higher one
# named, serves a position where a card lies between them and gives a wrong value: 6 of
# about 54,000 plain deals searched with that mark (dd_table_nb.equals_mark_nb) left out
EQUAL_CARDS_DEALS = [("russian-4p", 23188, 5), ("russian-5p", 29759, 6),
                     ("russian-5p", 32921, 6), ("ucla-5p", 51715, 5), ("ucla-4p", 58088, 6),
                     ("russian-5p", 64541, 6)]


@pytest.mark.parametrize(("name", "seed", "tricks"), EQUAL_CARDS_DEALS)
def test_an_entry_names_the_lower_of_two_equal_cards_it_searched_once(name: str, seed: int,
                                                                     tricks: int) -> None:
    exact, found = _plain_deal_values(name, seed, tricks)
    assert found == [exact] * 4


@pytest.mark.parametrize("name", ONE_DECK, ids=lambda n: Path(n).stem)
def test_deals_rich_in_equal_low_cards_keep_the_value(name: str) -> None:
    """Whole deals of four to six tricks dealt mostly from the low cards of two suits,
    against the search without a table."""
    searched = 0
    for seed in range(150):
        exact, found = _plain_deal_values(name, seed, 4 + seed % 3)
        if found:
            assert found == [exact] * 4, seed
            searched += 1
    assert searched >= 100


SEARCH_POSITIONS = {
    4: [885, 710, 443, 4532, 1479, 997787, 98, 7605, 1322, 1601, 5578, 2745, 506, 6291, 695,
        705, 1034, 641659, 88, 5023, 825, 2272, 5224, 1533, 3526, 688, 245, 5272, 1305,
        1298824, 100, 8881, 149, 1762, 5677, 2318],
}
"""The positions the par's search visits on the endings of
:func:`test_the_search_version_names_the_positions_it_visits`, by ``SEARCH_VERSION``."""


def test_the_search_version_names_the_positions_it_visits() -> None:
    """A par chunk a stopped ``par`` run kept, and the whole-deal timing log kept in
    ``benchmarks/logs``, hold the positions of the search that solved them, named by
    ``dd_nb.SEARCH_VERSION``. A change to the search that visits other positions fails
    here until the version is raised and its positions written above."""
    found = []
    profiles = (  # the rules the positions were written for (a rule change is no search's)
        load_profile("standard"),
        load_profile("ucla-5p").replace(rank_gap_unit="rank", rank_gap_after_blind=6,
                                        nt_lead_request=True, weak_redealer="requester"),
        load_profile("russian-5p").replace(joker_powerless_tricks=(1, -1),
                                           friend_modes=("called", "first-trick", "none")),
    )
    for profile in profiles:
        params = compile_profile(profile)
        for seed in range(12):
            s, h, tr = random_ending(profile, params, 4100 + seed, 5 + seed % 3)
            if side_of_nb(s) < 0:
                continue
            nodes = np.zeros(1, np.int64)
            dd_target_nb(s, h, tr, params, nodes, TOP, -1, 1 << 30)  # as par solves
            found.append(int(nodes[0]))
    assert SEARCH_VERSION in SEARCH_POSITIONS, "a new search version: write its positions"
    assert found == SEARCH_POSITIONS[SEARCH_VERSION]


def _scripted(profile: RuleProfile, hands_text: list[str], trick_no: int
              ) -> tuple[np.ndarray, ...]:
    """Seat 0 declarer at 13, hearts trump, KC called: the position at the start of
    ``trick_no`` with the seats holding ``hands_text``, led by the declarer."""
    params = compile_profile(profile)
    hands = np.zeros(MAX_PLAYERS, np.uint64)
    for seat, cards in enumerate(hands_text):
        hands[seat] = np.uint64(parse_cards(cards))
    s, h, tr = np.zeros(N_S, np.int64), np.zeros(N_H, np.uint64), np.zeros(MAX_PLAYERS, np.int64)
    called = parse_cards("KC").bit_length() - 1
    start_play_nb(s, h, tr, params, hands, np.uint64(0), (0, 13, TRUMPS.index("H"), False),
                  (MODE_CALLED, called, -1), False)
    s[S_TRICK_NO] = trick_no
    return s, h, tr, params


def test_a_two_trick_ending_worked_out_by_hand() -> None:
    """Standard, hearts trump, the last two tricks, nothing special left. Declarer (seat 0,
    AD 2D) leads; the friend (seat 1, KC 3D, called by KC) must follow diamonds once; seat 2
    holds KD 4D, seats 3 and 4 low diamonds. Leading AD first, the defence keeps KD for
    the last trick and takes KD and the friend's KC (2 points); leading 2D first, KD must
    take trick 9 or fall to AD with KC in trick 10: the defence takes 1 point at best. So
    the side takes 20 - 1 = 19 of the deal's points (the earlier tricks are not in the
    state: their points count for the side, as nobody else took them)."""
    profile = load_profile("standard")
    s, h, tr, params = _scripted(profile, ["AD 2D", "KC 3D", "KD 4D", "5D 6D", "7D 8D"], 9)
    assert side_of_nb(s) == 0b11
    nodes = np.zeros(1, np.int64)
    assert dd_value_nb(s, h, tr, params, nodes) == 19
    assert minimax_nb(s, h, tr, params, nodes) == 19


def test_the_last_trick_played_out_takes_the_leaders_best_demand() -> None:
    """A house rule where the joker keeps its power in the last trick: declarer (seat 0)
    leads the hunter 3C to it, the friend holds KC, an opponent the joker. Without the
    demand the joker takes KC (the side ends with 19); with it the joker is powerless
    and KC takes the trick (20). The last trick, played out without a search, must
    weigh both leads."""
    profile = load_profile("standard").replace(name="powered-last", joker_powerless_tricks=(1,))
    s, h, tr, params = _scripted(profile, ["3C", "KC", "JK", "5D", "6D"], 10)
    nodes = np.zeros(1, np.int64)
    assert minimax_nb(s, h, tr, params, nodes) == 20
    assert dd_value_nb(s, h, tr, params, nodes) == 20
    assert dd_search_nb(s, h, tr, params, nodes, USE_LAST) == 20


@pytest.mark.parametrize("name", ONE_DECK)
def test_the_move_orders_winning_cards_are_the_trick_winners(name: str) -> None:
    """Where the move order finds a follower's cards that take the trick by one mask
    (``follower_wins_nb``), the mask and the seat winning so far are what the trick's
    winner says with each legal card added, in random tricks under way."""
    told = 0
    for seed in range(1500):
        s, h, tr, params = _ending(name, seed, 1 + seed % 10)
        k = int(s[S_K])
        if k == 0:
            continue
        seat = to_play_nb(s)
        legal = legal_now_nb(s, h, tr, seat, params)
        fast, wins, win_seat = follower_wins_nb(s, h, tr, params, legal)
        if not fast:
            continue
        told += 1
        n, leader = int(s[S_N]), int(s[S_LEADER])
        args = (int(s[S_TRUMP]), int(s[S_TRICK_NO]), int(s[S_JOKER_SUIT]), s[S_DEMANDED] == 1,
                params)
        assert win_seat == (leader + trick_winner_nb(tr, k, *args)) % n, seed
        for c in range(64):
            if int(legal) >> c & 1:
                trick = tr.copy()
                trick[k] = c
                takes = trick_winner_nb(trick, k + 1, *args) == k
                assert takes == bool(int(wins) >> c & 1), (seed, c)
    if load_profile(name).hunter_rule == "lead-demand":
        assert told > 500  # the rules where one mask tells
