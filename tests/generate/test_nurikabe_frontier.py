"""The frontier counter of few-clue Nurikabe (:mod:`bench.puzzles.nurikabe.frontier`):
its exact counts against the ASP formulation's on clingo, on random small grids with two or
three clues (many solutions, none, one), and its answer on committed two-clue puzzles."""

from __future__ import annotations

import contextlib
import gc
import itertools
import math
import random
from pathlib import Path

import pytest

from bench.generate import instance_from_grid
from bench.instance import format_instance, read_instance
from bench.puzzles.nurikabe import (
    frontier,
    frontier_arrays,
    frontier_bounds,
    frontier_enclosed,
    frontier_moves,
    frontier_planar,
)
from bench.puzzles.nurikabe.frontier import Count, FrontierTooBig, count, orientations
from bench.puzzles.nurikabe.frontier_bounds import GUARD, spans
from bench.puzzles.nurikabe.frontier_enclosed import enclosed, lift
from bench.puzzles.nurikabe.frontier_planar import _feasible, _reduced, joinable
from bench.puzzles.nurikabe.rules import BLACK, WHITE
from bench.puzzles.registry import get_puzzle
from bench.records import Task
from bench.run.execute import execute
from tests.conftest import INSTANCES

TWO = INSTANCES / "nurikabe" / "two"
Grid = list[list[int | None]]


def random_grid(seed: int, clues: tuple[int, ...] = (2, 2, 3),
                shapes: tuple[tuple[int, int], ...] = ((4, 5), (5, 5), (5, 6), (6, 5), (4, 6)),
                white_share: tuple[float, float] = (0.55, 0.8)) -> Grid:
    """A grid of one of ``shapes`` with a number of clues drawn from ``clues`` on a share of
    white drawn from ``white_share``, from ``seed``."""
    rng = random.Random(seed)
    rows, cols = rng.choice(list(shapes))
    k = rng.choice(list(clues))
    cells = rng.sample([(r, c) for r in range(rows) for c in range(cols)], k)
    white = max(k, int(rows * cols * rng.uniform(*white_share)))
    cuts = sorted(rng.sample(range(1, white), k - 1))
    sizes = [b - a for a, b in zip([0, *cuts], [*cuts, white], strict=True)]
    grid: Grid = [[None] * cols for _ in range(rows)]
    for (r, c), size in zip(cells, sizes, strict=True):
        grid[r][c] = size
    return grid


def asp_count(grid: Grid, tmp_path: Path, cap: int) -> int:
    """Solutions up to ``cap`` by ``asp-reach`` on clingo, through the harness."""
    path = tmp_path / "instance.txt"
    path.write_text(format_instance(instance_from_grid("nurikabe", grid, {})), encoding="utf-8")
    res = execute(Task(str(path), "asp-reach", "clingo", time_limit=60, count=cap))
    if res.status == "infeasible":
        return 0
    assert res.status == "solved" and res.count is not None, res.message
    return res.count


@pytest.mark.parametrize("seed", range(16))
def test_the_count_is_the_asp_formulations(seed: int, tmp_path: Path) -> None:
    grid = random_grid(seed)
    exact = count(grid).solutions
    assert exact == asp_count(grid, tmp_path, 1000)
    assert count(grid, cap=2).solutions == min(exact, 2)


def test_the_random_grids_have_many_none_and_one() -> None:
    """The cases above are not all of one answer (the comparison could fail either way)."""
    counts = {count(random_grid(seed)).solutions for seed in range(16)}
    assert 0 in counts and any(n > 20 for n in counts) and any(1 <= n <= 5 for n in counts)


def test_a_transposed_grid_has_the_same_count() -> None:
    """The frontier runs along the shorter side: a wide grid is counted transposed."""
    for seed in range(6):
        grid = random_grid(seed)
        wide = [list(col) for col in zip(*grid, strict=True)]
        assert count(wide).solutions == count(grid).solutions


@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_every_orientation_has_the_same_count(seed: int) -> None:
    grid = random_grid(seed)
    counts = [count(grid, turn=t).solutions for t in range(len(orientations(grid)))]
    assert len(counts) in (4, 8) and len(set(counts)) == 1


def test_the_best_orientation_has_the_clues_first() -> None:
    grid: Grid = [[None] * 6 for _ in range(5)]
    grid[4][5], grid[3][5] = 9, 8  # bottom right: read from there (columns across: 5 wide)
    best = orientations(grid)[0]
    assert len(best[0]) == 5 and best[0][0] is not None and best[0][1] is not None


def test_a_committed_two_clue_puzzle_is_unique_and_a_moved_clue_is_not(tmp_path: Path) -> None:
    inst = read_instance(TWO / "gen-nurikabe-8x8-s4-clues2-0.txt")
    grid: Grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    assert count(grid).solutions == 1
    # the smaller island's clue moved into the frame's corner: many walls fit again
    (r, c, v), _ = sorted(inst.clues(), key=lambda t: int(t[2]))
    grid[r][c] = None
    grid[0][0] = int(v) if grid[0][0] is None else grid[0][0]
    assert count(grid, cap=2).solutions == 2 == asp_count(grid, tmp_path, 2)


def test_a_state_budget_stops_the_count() -> None:
    inst = read_instance(TWO / "gen-nurikabe-8x8-s4-clues2-0.txt")
    grid: Grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    with pytest.raises(FrontierTooBig, match=r"states at cell \(\d+, \d+\), over 100"):
        count(grid, max_states=100)


@pytest.mark.parametrize(("grid", "message"), [
    ([[None, None], [None, None]], r"a grid without clues"),
    ([[0, None], [None, None]], r"clue 0 at \(0, 0\) is below 1"),
])
def test_bad_grids_are_clear_errors(grid: Grid, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        count(grid)


def test_more_white_than_cells_has_no_solution() -> None:
    assert count([[3, None], [None, 2]]).solutions == 0


def brute_count(grid: Grid) -> int:
    """Solutions by trying every wall of the right size among the cells without a clue, each
    checked by the puzzle's rule checker: an exhaustion independent of the frontier."""
    rows, cols = len(grid), len(grid[0])
    free = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] is None]
    walls = rows * cols - sum(v for row in grid for v in row if v is not None)
    if walls < 0:
        return 0
    inst = instance_from_grid("nurikabe", grid, {})
    rules = get_puzzle("nurikabe")
    found = 0
    for chosen in itertools.combinations(free, walls):
        wall = set(chosen)
        solution = [[BLACK if (r, c) in wall else WHITE for c in range(cols)]
                    for r in range(rows)]
        found += not rules.verify(inst, solution)
    return found


def tiny_grid(seed: int) -> Grid:
    """A grid of 12-20 cells with one to three clues on 55-85 % white, from ``seed``, small
    enough for :func:`brute_count`."""
    return random_grid(seed, (1, 2, 2, 3, 3), ((3, 4), (4, 4), (3, 5), (4, 5), (3, 6)),
                       (0.55, 0.85))


TINY = [s for s in range(200) if math.comb(
    sum(v is None for row in tiny_grid(s) for v in row),
    max(0, sum(len(row) for row in tiny_grid(s))
        - sum(v for row in tiny_grid(s) for v in row if v is not None))) <= 6000][:60]


@pytest.mark.parametrize("seed", TINY)
def test_the_count_is_the_brute_forces_in_every_orientation(seed: int) -> None:
    """The bounds that drop states (cells still needed to join a colour's components, a clue
    to come, a wall cell between two islands still growing) drop no solution: the count of
    every orientation is the brute force's."""
    grid = tiny_grid(seed)
    exact = brute_count(grid)
    assert [count(grid, turn=t).solutions for t in range(len(orientations(grid)))] \
        == [exact] * len(orientations(grid))


def test_the_tiny_grids_have_many_none_and_one() -> None:
    counts = [brute_count(tiny_grid(s)) for s in TINY]
    assert len(counts) >= 40
    assert counts.count(0) >= 5 and sum(n == 1 for n in counts) >= 3 and max(counts) > 5


def medium_grid(seed: int) -> Grid:
    """A 6x6, 6x7 or 7x6 grid with two or three clues on 60-80 % white, from ``seed``: a
    frontier wide enough for colours to interleave on it."""
    return random_grid(seed, (2, 3), ((6, 6), (6, 7), (7, 6)), (0.6, 0.8))


@pytest.mark.parametrize("seed", range(12))
def test_every_orientation_counts_the_same_on_wider_frontiers(seed: int) -> None:
    """Each orientation meets other frontiers, so a rule dropping a frontier that has a
    completion (a planarity rule taking nested joins of two colours for crossing ones drops
    solutions here in 7 of these 12 grids) gives orientations different counts."""
    grid = medium_grid(seed)
    counts = [count(grid, turn=t).solutions for t in range(len(orientations(grid)))]
    assert len(set(counts)) == 1


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_a_wider_frontier_counts_the_asp_formulations(seed: int, tmp_path: Path) -> None:
    grid = medium_grid(seed)
    exact = count(grid).solutions
    assert 1 <= exact < 1000 and exact == asp_count(grid, tmp_path, 1000)


def codes(*cells: tuple[int, int]) -> tuple[int, ...]:
    """A frontier of (colour, label) cells as the programme codes it."""
    return tuple(colour * 64 + label for colour, label in cells)


def test_crossing_joins_of_two_colours_are_not_joinable() -> None:
    # X Y X Y, all four apart: the X join and the Y join below the frontier would cross
    assert not joinable(codes((0, 0), (1, 1), (0, 2), (1, 3)))
    assert not joinable((-1, *codes((0, 0), (2, 1), (1, 2), (0, 3), (2, 4))))
    # the same with the Xs joined above: the Ys join below
    assert joinable(codes((0, 0), (1, 1), (0, 0), (1, 3)))
    # Z X Z X Z with the first Zs joined above: the Xs join inside, the Zs around them
    assert joinable(codes((2, 0), (0, 1), (2, 0), (0, 2), (2, 3)))
    # neighbours of a colour join directly; a lone cell needs nothing
    assert joinable(codes((0, 0), (0, 1), (1, 2), (2, 3)))


def test_the_planarity_rule_drops_states_on_a_committed_puzzle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule bites: the committed 8x8 two-clue puzzle meets frontiers it drops."""
    inst = read_instance(TWO / "gen-nurikabe-8x8-s4-clues2-0.txt")
    grid: Grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    seen: list[bool] = []
    real = frontier_bounds.joinable

    def spy(front: tuple[int, ...]) -> bool:
        seen.append(real(front))
        return seen[-1]

    monkeypatch.setattr(frontier_bounds, "joinable", spy)
    assert count(grid).solutions == 1
    assert seen.count(False) > 0 and seen.count(True) > 0


def test_joining_two_cells_takes_a_cell_in_each_column_between() -> None:
    # wall (colour 2) in columns 0 and 4 apart, an island between: below them, 0 to 4
    front = codes((2, 0), (0, 1), (0, 1), (0, 1), (2, 2))
    assert spans(front, 2, 9) == 5
    # column 0 placed last: the cell right of it (below column 1) starts the path
    assert spans(front, 2, 0) == 4
    # columns 0 and 2 joined above already: from column 2 to 4
    assert spans(codes((2, 0), (0, 1), (2, 0), (0, 1), (2, 2)), 2, 9) == 3


def test_the_diagonal_colour_is_dropped_where_the_2x2_rule_cannot_bite(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Profiles differing only in the colour above the cell placed, where the next cell's
    2x2 block cannot be all wall, are one state: the committed 8x8 s2 puzzle's widest step
    holds 9,514 states (10,760 with that colour kept always), its count still 1. A variant
    forgetting the colour always (the 2x2 rule lost) miscounts the brute-force grids above."""
    inst = read_instance(TWO / "gen-nurikabe-8x8-s2-clues2-0.txt")
    grid: Grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    monkeypatch.setattr(frontier_moves, "enclosed", lambda codes, k: 0)  # without the room bound
    assert count(grid) == Count(1, 9514)


def test_the_quick_answers_of_joinable_are_the_full_searchs() -> None:
    """:func:`joinable` answers at once when one colour at most is split: the same answer as
    the search over chords, on random frontiers of three colours (some not joinable)."""
    rng = random.Random(7)
    answers = []
    for _ in range(3000):
        front = tuple(-1 if rng.random() < 0.1 else colour * 64 + colour * 3 + rng.randint(0, 2)
                      for colour in (rng.randint(0, 2) for _ in range(rng.randint(1, 10))))
        answers.append(joinable(front))
        assert answers[-1] == _feasible(_reduced(tuple(q for q in front if q >= 0)))
    assert answers.count(False) > 50 and answers.count(True) > 50


def test_an_island_under_another_colours_joins_is_enclosed() -> None:
    """An island (colour 0 or 1 of two) whose frontier cells lie between a component of another
    colour on their left and one on their right is enclosed; not when a component of that
    colour has cells on both sides of one of the island's (it may join them above), nor when
    the other colour is on one side only, nor for the wall (colour 2)."""
    # wall components in columns 0 and 3, island 1 between them
    assert enclosed(codes((2, 0), (1, 1), (1, 1), (2, 2)), 2) == 1 << 4 * 1 + 2
    # island 0 in columns 0 and 3, island 1 between: enclosed too (island 0 joins below)
    assert enclosed(codes((0, 0), (2, 1), (1, 2), (2, 1), (0, 3)), 2) == 1 << 4 * 1 + 0
    # the wall in columns 0 and 4 is one component (joined above): nothing to join below
    assert enclosed(codes((2, 0), (1, 1), (1, 1), (0, 2), (2, 0)), 2) == 0
    # a wall component with cells on both sides of the island's cell in column 2
    assert enclosed(codes((2, 0), (2, 1), (1, 2), (2, 1), (2, 3)), 2) == 0
    # the other colour's components on the left only
    assert enclosed(codes((2, 0), (2, 1), (1, 2), (1, 2)), 2) == 0
    # the wall itself between two island components is no island
    assert enclosed(codes((0, 0), (2, 1), (0, 2)), 2) == 0


def test_the_lift_keeps_the_guard_bits_of_tallies_with_enough_cells() -> None:
    """Island 0 (10 cells) enclosed with room for 6 more: a tally must hold 4 of its cells;
    island 1 and the wall are free."""
    pos = [9, 18, 0]  # island 0, island 1, the wall (frontier_bounds.Sweep.pos for two)
    guards = sum(GUARD << p for p in pos)
    add = lift(1 << 2, [10, 5], pos, GUARD, 6)  # island 0 enclosed by the wall
    for cells in range(9):
        tally = cells << 9 | 3 << 18 | 7
        assert (tally + add & guards == guards) == (cells >= 4)
    assert lift(1 << 2, [10, 5], pos, GUARD, 10) == 0  # the room suffices: no bound
    assert lift(1 << 4 + 2, [10, 5], pos, GUARD, 6) == 0  # island 1 needs 5 at most


def test_the_room_bound_drops_states_on_a_committed_puzzle() -> None:
    """The enclosed islands' room bound bites on the committed 8x8 s2 puzzle: 9,299 states in
    its widest step (9,514 without it, the test above), the count still 1."""
    inst = read_instance(TWO / "gen-nurikabe-8x8-s2-clues2-0.txt")
    grid: Grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    assert count(grid) == Count(1, 9299)


def room_grid(seed: int) -> Grid:
    """A 5x8 to 7x7 grid with two or three clues on 60-85 % white: wide enough for islands to
    be enclosed by another colour's joins."""
    return random_grid(seed, (2, 2, 3), ((6, 6), (7, 7), (6, 7), (7, 6), (5, 8)), (0.6, 0.85))


def test_the_room_bound_keeps_every_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The room bound drops no solution: the counts with it are the counts without it (no
    island ever enclosed), on grids where it drops states."""
    grids = [room_grid(s) for s in range(1000, 1024)]
    counts = [count(g) for g in grids]
    monkeypatch.setattr(frontier_moves, "enclosed", lambda codes, k: 0)
    without = [count(g) for g in grids]
    assert [n.solutions for n in counts] == [n.solutions for n in without]
    assert sum(n.solutions > 0 for n in counts) >= 8
    assert sum(n.states < m.states for n, m in zip(counts, without, strict=True)) >= 4


@pytest.mark.parametrize(("name", "value", "grid"), [
    ("BOTTOM", 2, medium_grid(1)),  # a row and two columns fewer: the room too small
    ("SIDES", 8, random_grid(100, (2,), ((6, 6), (7, 7), (6, 7)), (0.65, 0.85))),
])
def test_an_over_strong_room_bound_miscounts(monkeypatch: pytest.MonkeyPatch, name: str,
                                             value: int, grid: Grid) -> None:
    """Over-strong variants of the room bound drop solutions, so the count tests catch them:
    the bottom row and the outer columns taken as two wide, or an enclosed row taken to need
    eight cells of the encloser and of the wall (the exact figure is two: one per side)."""
    exact = count(grid).solutions
    monkeypatch.setattr(frontier_enclosed, name, value)
    assert count(grid).solutions != exact


def test_four_clues_count_the_same_with_and_without_the_room_bound(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The room bound's bits hold four colours per island, so it stays off above three clues:
    on this 4x5 grid of four clues (one solution) the wall's colour 4 read as island 1's bit
    once made two of the orientations count 0."""
    grid = random_grid(57, (4,), ((4, 5), (5, 5), (4, 6)), (0.5, 0.8))
    assert sum(v is not None for row in grid for v in row) == 4
    turns = range(len(orientations(grid)))
    counts = [count(grid, turn=t).solutions for t in turns]
    monkeypatch.setattr(frontier_moves, "enclosed", lambda codes, k: 0)  # without the room bound
    assert counts == [count(grid, turn=t).solutions for t in turns] == [1] * len(counts)


def test_the_caches_by_frontier_are_emptied_after_each_run() -> None:
    """A long process (the generator) keeps no frontier in ``enclosed``'s, ``joinable``'s
    or its helpers' caches between runs, also when a run stops at the state budget."""
    inst = read_instance(TWO / "gen-nurikabe-8x8-s4-clues2-0.txt")
    grid: Grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    # every cache of the two modules (enclosed, joinable and its helpers), found by name
    caches = list({id(v): v for m in (frontier_enclosed, frontier_planar)
                   for v in vars(m).values() if hasattr(v, "cache_clear")}.values())
    assert len(caches) == 4
    for run in (lambda: count(grid), lambda: frontier.solve(grid),
                lambda: count(grid, max_states=100)):
        enclosed(codes((0, 0), (2, 1), (0, 2)), 2)
        for cache in caches:  # each holds something before the run
            if cache is not enclosed:
                cache(())
        assert all(cache.cache_info().currsize > 0 for cache in caches), caches
        with contextlib.suppress(FrontierTooBig):
            run()
        assert [cache.cache_info().currsize for cache in caches] == [0] * len(caches)


@pytest.mark.parametrize("before", [True, False])
def test_the_garbage_collector_is_off_during_a_run_and_as_before_after(
        monkeypatch: pytest.MonkeyPatch, before: bool) -> None:
    """The states hold no cycle, so the collector is off while the cells are swept; after the
    run (also one stopped by the state budget) it is as it was before."""
    inst = read_instance(TWO / "gen-nurikabe-8x8-s4-clues2-0.txt")
    grid: Grid = [[None if v is None else int(v) for v in row] for row in inst.grid]
    during: list[bool] = []
    real = frontier_arrays.step

    def spy(*args: object) -> object:
        during.append(gc.isenabled())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(frontier_arrays, "step", spy)
    enabled = gc.isenabled()
    try:
        (gc.enable if before else gc.disable)()
        assert count(grid).solutions == 1
        with pytest.raises(FrontierTooBig):
            count(grid, max_states=100)
        assert gc.isenabled() is before
    finally:
        (gc.enable if enabled else gc.disable)()
    assert during and not any(during)


def test_joinable_is_the_search_on_frontiers_with_runs_and_gaps() -> None:
    """:func:`joinable` answers from the frontier with its empty cells and repeated codes left
    out: the same answer as the search over chords on the whole frontier, on random frontiers
    of three colours with runs of one component and empty cells (some not joinable)."""
    rng = random.Random(11)
    answers = []
    for _ in range(3000):
        front: list[int] = []
        for _ in range(rng.randint(1, 8)):
            colour = rng.randint(0, 2)
            cell = -1 if rng.random() < 0.15 else colour * 64 + colour * 3 + rng.randint(0, 2)
            front += [cell] * rng.randint(1, 3)
        answers.append(joinable(tuple(front)))
        assert answers[-1] == _feasible(_reduced(tuple(q for q in front if q >= 0)))
    assert answers.count(False) > 50 and answers.count(True) > 50
