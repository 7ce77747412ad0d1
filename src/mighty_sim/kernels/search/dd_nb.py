"""Double-dummy search: what the declarer's side takes against best defence when every
hand is seen, from any point of a one-deck play (docs/rules.md; every special-card rule
of the profile, as the batch kernel's one-loop play :mod:`.tricks_nb` applies them; the
moves the PIMC player weighs, :func:`.play_nb.moves_nb`: a card, each suit named for a
joker led with power, the hunter led with or without the demand).

The side is the declarer and the friend the state names (the holder of the called card,
known to the search); in first-trick friend mode the friend is only known once the
first trick is over, so the search starts from trick 2 there. The value is what the
contract counts: the side's points (the discards included), or its tricks in trick-bid
profiles.

:func:`dd_value_nb` is an alpha-beta search (:func:`.dd_solve_nb.solve_nb`, each ply's
position in a few words) with a transposition table of the positions at a trick's start
(:mod:`.dd_table_nb`: bounds on what the side takes from there on, an entry holding for
every position that agrees with it on the cards whose rank decided the result, as DDS's
entries do), moves ordered by what they do to the trick, a lead that
cut the search at the same ply before tried first, the last trick played out without a
search (every follower's card is forced) and a trick's points counted for its winner's
side as soon as no card still to come can take it; :func:`dd_reaches_nb` the same search
asking only whether the side reaches a target (a contract makes), which prunes far
more; :func:`dd_target_nb` the value by such searches alone, from a guess;
:func:`minimax_nb` the same game searched exhaustively without any pruning or table, the
yardstick the search is tested against.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

from .._jit import njit, var
from ..layout import MAX_PLAYERS
from ..loop.play_nb import (
    MAX_MOVES,
    S_DECLARER,
    S_FRIEND,
    S_MODE,
    S_N,
    S_TRICK_NO,
)
from ..params import MODE_FIRST_TRICK
from ..rules.rules_nb import popcount_nb
from .dd_solve_nb import GAVE_UP as GAVE_UP
from .dd_solve_nb import N_D, N_F, load_nb, range_nb, solve_nb
from .dd_solve_nb import USE_BOUNDS as USE_BOUNDS
from .dd_solve_nb import USE_DECIDED as USE_DECIDED
from .dd_solve_nb import USE_EQUALS as USE_EQUALS
from .dd_solve_nb import USE_LAST as USE_LAST
from .dd_solve_nb import USE_ORDER as USE_ORDER
from .dd_solve_nb import USE_PRUNING as USE_PRUNING
from .dd_solve_nb import USE_RANKS as USE_RANKS
from .dd_solve_nb import USE_TABLE as USE_TABLE
from .dd_solve_nb import Work as Work
from .dd_solve_nb import follower_wins_nb as follower_wins_nb
from .dd_table_nb import WAYS

MAX_PLIES = 64
"""Cards left to play, at most (a one-deck deal plays at most 53)."""
TT_BITS = 24
"""The transposition table's entries, at most: 2**TT_BITS from 45 cards left (trick 2
of `standard`) up, 2**22 from 40, 2**20 below, and fewer still for short endings
(:func:`table_bits_nb`)."""
SEARCH_VERSION = 4
"""Changes with every change to the search that changes the positions it visits: the
positions and times of a kept par chunk are those of the search that solved it (the
chunk says which), a deal left unanswered at a position limit is solved again by
another search, and the whole-deal timing log in ``benchmarks/logs`` is named by it. A
test holds the positions of a few endings by version: a search that visits others
fails it until this is raised."""
EXACT_SINCE = 4
"""The first search version whose answered pars ``par`` takes from kept chunks: a par is
exact whatever the search that found it, so a new search does not solve again what an
older one answered. A search version found to give a wrong par raises this past it."""
TOP = 1 << 30
"""The first target of :func:`dd_target_nb` that starts at the most the side can still
end with: its searches then fail down to the value (at the side's plies every move must
be tried to show a target out of reach, at the other side's one refuting move does,
and the side holds two seats of five), and one search that reaches it ends. On
heuristic-played `standard` deals, against starting from what the players took: 1.2
times fewer positions from trick 5 (400 deals), 1.4 from trick 3 (40), and on whole
deals 2.3 at the median and 1.7 in all (85 deals)."""
USE_ALL = (USE_PRUNING | USE_TABLE | USE_BOUNDS | USE_EQUALS | USE_ORDER | USE_LAST
           | USE_DECIDED | USE_RANKS)
"""Every part of the search (:mod:`.dd_solve_nb`'s ``USE_*`` bits)."""


@njit(cache=True)
def side_of_nb(s: np.ndarray) -> int:
    """Bit mask of the declarer's side: the declarer and the friend, when there is one;
    -1 while a first-trick friend is still unknown."""
    if s[S_MODE] == MODE_FIRST_TRICK and s[S_TRICK_NO] == 1:
        return -1
    side = 1 << s[S_DECLARER]
    if s[S_FRIEND] >= 0:
        side |= 1 << s[S_FRIEND]
    return side


@njit(cache=True)
def dd_search_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                 nodes: np.ndarray, uses: int) -> int:
    """:func:`dd_value_nb` with only the parts of the search that ``uses`` names
    (``USE_*`` bits; each gives the same value, faster): what the benchmark weighs."""
    return dd_window_nb(s, h, tr, params, nodes, uses, var(-1), var(1 << 30))


@njit(cache=True)
def table_bits_nb(s: np.ndarray, h: np.ndarray) -> int:
    """The table's size in bits for a search from a position: smaller for fewer cards
    left (clearing the table is most of a short ending's time, and a larger table's
    entries miss the processor's caches more often). A larger table pays only for the
    longest searches, where a smaller one loses entries it would use again. The par of
    heuristic-played `standard` deals, positions with 2**24 entries against 2**22:
    from trick 2, 2.05 times fewer in all and 1.01 at the median (40 deals; the
    slowest 38 s against 180 s; 2**26: 1.12 times fewer again, and on whole deals of
    100 to 250 million positions 1.02 to 1.08 times fewer, in about the same time: 8
    deals); from trick 3, 1.02 times fewer, in more time (300 deals). With 2**22
    against 2**20: from trick 2, 1.34 times fewer positions (8 deals); from tricks 4
    and 5 the same positions and time within 3%."""
    left = 0
    for p in range(s[S_N]):
        left += popcount_nb(h[p])
    return bits_for_nb(left)


@njit(cache=True)
def bits_for_nb(left: int) -> int:
    """:func:`table_bits_nb` for a position of ``left`` cards left in the hands."""
    bits = TT_BITS if left >= 45 else TT_BITS - 2 if left >= 40 else TT_BITS - 4
    return min(bits, 8 + left // 2)


@njit(cache=True, nrt=True)
def work_nb(bits: int
            ) -> Work:
    """The arrays of a search (:func:`.dd_solve_nb.solve_nb`): an empty table of
    2**``bits`` entries, then the work space of the plies; a caller solving many
    positions keeps them (:func:`dd_target_work_nb`)."""
    tt = np.zeros((max(1 << bits, WAYS), 2), np.uint64)  # a bucket at least
    top = MAX_PLIES + 1
    return (tt, np.zeros((top, N_F), np.int64), np.zeros((top, N_D), np.uint64),
            np.zeros((top, MAX_PLAYERS), np.int64), np.zeros((5, top, MAX_MOVES), np.int64),
            np.zeros((14, top), np.int64), np.zeros((5 + MAX_PLAYERS, top), np.uint64))


def search_work(bits: int) -> Work:
    """:func:`work_nb`'s arrays allocated by NumPy, for a caller outside Numba: NumPy
    maps a large zeroed table as fresh pages, zeroed by the system as the search first
    touches them, where Numba's ``np.zeros`` writes every byte first (a table of 2**24
    entries, 256 MiB: 0.1 to 0.5 s, against a whole deal's median search of about 2 s;
    a short search touches a few pages).

    >>> [a.shape for a in search_work(4)][:2]
    [(16, 2), (65, 12)]
    >>> search_work(0)[0].shape  # one bucket at least
    (8, 2)
    """
    _, fs, hd, tc, moves, frame, keys = work_nb(0)
    return np.zeros((max(1 << bits, WAYS), 2), np.uint64), fs, hd, tc, moves, frame, keys


_kept: dict[int, tuple[int, Work]] = {}
"""The search's arrays each thread keeps from one batch of deals to the next, by the
thread's identity: (the table's bits, the arrays). The system zeroes a fresh table's
pages as a search first touches them, about 20 ms a whole deal, more than the whole
search of one whole deal in fifteen in a kept table."""
_kept_lock = threading.Lock()
_solves = [0]  # the solve numbers given in this process, in any thread's table


def kept_work(bits: int, rows: int) -> tuple[Work, int]:
    """:func:`search_work`'s arrays of a table of 2**``bits`` entries, kept for this
    thread's next call (one table a thread, of the last size asked; :func:`drop_kept`
    frees them), and the first of ``rows`` solve numbers that no search in this process
    has had: a batch's row ``r`` solved as number ``first + r`` (``par_nb.par_rows_nb``'s
    ``solve0``) answers from its own entries only.

    >>> work, first = kept_work(4, 10)
    >>> again, second = kept_work(4, 3)
    >>> again is work, second - first
    (True, 10)
    >>> drop_kept()
    """
    me = threading.get_ident()
    with _kept_lock:
        held = _kept.get(me)
        first = _solves[0]
        _solves[0] += rows
    if held is None or held[0] != bits:
        held = (bits, search_work(bits))
        with _kept_lock:
            _kept[me] = held
    return held[1], first


def drop_kept(threads: Iterable[int] | None = None) -> None:
    """Frees the arrays that the threads ``threads`` (their identities,
    ``threading.get_ident()``; None: every thread of this process) keep
    (:func:`kept_work`; a whole deal's table is 256 MiB): at the end of a run, whose
    threads may live on (a Dask worker's, a pool's), leaving the tables of other runs'
    threads in the process to them. A thread solving now keeps its arrays to the end of
    its call.

    >>> _ = kept_work(4, 1)
    >>> drop_kept([])  # no thread named: this thread's table is kept
    >>> threading.get_ident() in _kept
    True
    >>> drop_kept([threading.get_ident()])
    >>> threading.get_ident() in _kept
    False
    """
    with _kept_lock:
        if threads is None:
            _kept.clear()
        else:
            for t in threads:
                _kept.pop(t, None)


@njit(cache=True)
def dd_window_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                 nodes: np.ndarray, uses: int, lo: int, hi: int) -> int:
    """The search within the window ``lo`` < value < ``hi``: the value when it lies in
    the window, else a bound on it on the side it falls (at most ``lo``, at least
    ``hi``); -1 before a first-trick friend is known."""
    if side_of_nb(s) < 0:
        return -1
    bits = table_bits_nb(s, h) if uses & USE_TABLE else 0
    return solve_nb((s, h, tr), params, side_of_nb(s), uses, nodes, work_nb(bits), bits,
                    lo, hi, np.uint64(0), var(0))


@njit(cache=True)
def dd_target_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                 nodes: np.ndarray, guess: int, lo: int, hi: int) -> int:
    """:func:`dd_value_nb` as far as it lies in [``lo``, ``hi``] (``lo`` for a value of
    at most ``lo``, at least ``hi`` for one of at least ``hi``), found by null-window
    searches alone ("does the side reach at least T?"), one table kept from each search
    to the next (the bounds it holds hold for any window): T first the ``guess``, then
    the bound each search returns, until the least and the most the side can end with
    meet. A search that fails costs far less than one that succeeds, so the guess is
    best above the value (:data:`TOP`): on `standard` deals played by heuristic players,
    searches from what the players took searched 1.2 times fewer positions than one
    search with the widest window from trick 5, 1.3 from trick 3, 12 on whole deals
    (tables of 2**20 entries both), and searches from the top fewer still. -1 before a
    first-trick friend is known."""
    return dd_target_work_nb(s, h, tr, params, nodes, guess, lo, hi,
                             work_nb(table_bits_nb(s, h)), var(0), var(0))


@njit(cache=True)
def dd_target_work_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                      nodes: np.ndarray, guess: int, lo: int, hi: int,
                      work: Work, solve: int, limit: int) -> int:
    """:func:`dd_target_nb` in the arrays ``work`` (:func:`work_nb`; of a table smaller than
    ``table_bits_nb`` asks for, its entries only) as they are, ``solve`` numbering the
    search (``solve`` >= 0): a caller solving many positions gives each its own number
    and keeps the arrays, which a solve need not clear (clearing a fresh table costs a
    position 1 to 5 ms). With ``limit`` > 0, :data:`GAVE_UP` once ``nodes[0]`` passes
    it unanswered: the positions a search visits do not depend on what the table held
    before (another search's buckets are taken as empty, :mod:`.dd_table_nb`), so
    whether a position is answered within a limit is the same on every run."""
    return dd_target_uses_nb(s, h, tr, params, nodes, guess, lo, hi, work, solve, limit,
                             USE_ALL)


@njit(cache=True)
def dd_target_uses_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                      nodes: np.ndarray, guess: int, lo: int, hi: int, work: Work,
                      solve: int, limit: int, uses: int) -> int:
    """:func:`dd_target_work_nb` with only the parts of the search that ``uses`` names
    (``USE_*`` bits): what the benchmark weighs on played deals."""
    side = side_of_nb(s)
    if side < 0:
        return -1
    tt = work[0]
    bits = table_bits_nb(s, h)
    while (1 << bits) > tt.shape[0]:  # a smaller table than the position asks for
        bits -= 1
    tag = np.uint64(solve) + np.uint64(1)  # never 0, a fresh table's
    fs, hd, tc = work[1], work[2], work[3]
    load_nb(s, h, tr, params, side, fs[0], hd[0], tc[0])
    lower, upper = range_nb(fs[0], hd[0], s[S_N], params)  # the value lies in [lower, upper]
    lower, upper = max(lower, lo), min(upper, hi)
    g = guess
    while lower < upper:
        target = min(max(g, lower + 1), upper)
        g = solve_nb((s, h, tr), params, side, uses, nodes, work, bits, target - 1, target,
                     tag, limit)
        if g == GAVE_UP:
            return GAVE_UP
        if g < target:  # at most g
            upper = g
        else:  # at least g
            lower = g
    return lower


@njit(cache=True)
def dd_value_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                nodes: np.ndarray) -> int:
    """What the declarer's side takes from play state ``s``/``h``/``tr`` (``play_nb``;
    not tracking inferences) with every hand seen and best play on both sides, by
    alpha-beta search; -1 in first-trick friend mode before the first trick is over.
    ``nodes[0]`` is increased by the positions searched."""
    return dd_search_nb(s, h, tr, params, nodes, USE_ALL)


@njit(cache=True)
def dd_reaches_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
                  nodes: np.ndarray, target: int) -> bool:
    """Whether the declarer's side takes at least ``target`` with best play on both
    sides (a contract makes when ``target`` is its bid): the search with the null window
    just below ``target``: on played `standard` deals from tricks 5 and 4, a third and a
    quarter of the positions of :func:`dd_value_nb`. False before a first-trick friend is known."""
    return dd_window_nb(s, h, tr, params, nodes, USE_ALL, target - 1, target) >= target


@njit(cache=True)
def minimax_nb(s: np.ndarray, h: np.ndarray, tr: np.ndarray, params: np.ndarray,
               nodes: np.ndarray) -> int:
    """:func:`dd_value_nb` by searching every line of play to its end, nothing pruned."""
    return dd_search_nb(s, h, tr, params, nodes, var(0))
