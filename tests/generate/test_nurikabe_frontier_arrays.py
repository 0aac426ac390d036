"""The frontier programme's steps over arrays (:mod:`bench.puzzles.nurikabe.frontier_arrays`)
hold the dict steps' states: the same profiles and tallies in the same order with the same
numbers, and the same answers, counts and witnesses, with and without excluded solutions."""

from __future__ import annotations

import pytest

from bench.puzzles.nurikabe import frontier, frontier_arrays
from bench.puzzles.nurikabe.frontier import count, solve
from bench.puzzles.nurikabe.frontier_bounds import Profile
from tests.generate.test_nurikabe_frontier import Grid, random_grid

SEEDS = range(3000, 3030)
#: each step's states: (profile, [(tally, number)]) in order
Layers = list[list[tuple[Profile, list[tuple[int, int]]]]]


def grid_of(seed: int) -> Grid:
    """A 4x5 to 6x6 grid of one to three clues (many with several solutions)."""
    return random_grid(seed, (1, 2, 2, 3), ((4, 5), (5, 5), (5, 6), (6, 5), (6, 6)), (0.45, 0.8))


def answers(grid: Grid) -> list[object]:
    """The count and the solutions one by one, each excluded in turn (up to four)."""
    out: list[object] = [count(grid)]
    walls: list[frozenset[tuple[int, int]]] = []
    for _ in range(4):
        found = solve(grid, exclude=tuple(walls))
        out.append(found)
        if found.colours is None:
            break
        k = sum(v is not None for row in grid for v in row)
        walls.append(frozenset((r, c) for r, row in enumerate(found.colours)
                               for c, v in enumerate(row) if v == k))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_the_arrays_answer_as_the_dicts(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Counts, witnesses (the first of each merge) and peak states are the dict steps' on
    random grids, each solution excluded in turn; also with the numbers as Python integers
    and the merge's keys unpacked (two sort keys) from the start."""
    grid = grid_of(seed)
    with_arrays = answers(grid)
    monkeypatch.setattr(frontier_arrays, "EXACT", 1)
    monkeypatch.setattr(frontier_arrays, "PACKED", 0)
    as_objects = answers(grid)
    monkeypatch.setattr(frontier_arrays, "fits", lambda sw, every: False)
    with_dicts = answers(grid)
    assert with_arrays == with_dicts == as_objects


def test_some_grids_have_several_solutions_and_some_none() -> None:
    """The grids above test the merges: several solutions (witnesses chosen among many) and
    none (every state dropped) both occur."""
    counts = [count(grid_of(s)).solutions for s in SEEDS]
    assert sum(n > 1 for n in counts) >= 5 and 0 in counts


def layers_of(grid: Grid) -> Layers:
    """Every step's states over arrays, as (profile, [(tally, number)]) in order."""
    rows, cols, clue_at, sizes = frontier._grid_of(grid, 0)
    agree = [[-1] * (len(sizes) + 1) for _ in range(rows * cols)]
    sw = frontier.Sweep(rows, cols, clue_at, sizes, False, agree, None, 10**7, False)
    layer = frontier_arrays.first(sw, 0)
    out = []
    for cell in range(rows * cols):
        stepped = frontier_arrays.step(layer, sw, *divmod(cell, cols))
        assert stepped is not None
        layer = stepped
        out.append([(key, [(int(t), int(n)) for t, n in zip(
            layer.tally[layer.starts[i]:layer.starts[i + 1]],
            layer.count[layer.starts[i]:layer.starts[i + 1]], strict=True)])
            for i, key in enumerate(layer.keys)])
    return out


def dict_layers_of(grid: Grid) -> Layers:
    """Every step's states over dicts, as :func:`layers_of` lists them."""
    rows, cols, clue_at, sizes = frontier._grid_of(grid, 0)
    agree = [[-1] * (len(sizes) + 1) for _ in range(rows * cols)]
    sw = frontier.Sweep(rows, cols, clue_at, sizes, False, agree, None, 10**7, False)
    states = frontier._first(sw, 0)
    out = []
    for cell in range(rows * cols):
        stepped = frontier._step(states, sw, *divmod(cell, cols))
        assert stepped is not None
        states = stepped[0]
        out.append([(key, [(t, v >> sw.above) for t, v in tallies.items()])
                    for key, tallies in states.items()])
    return out


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_every_layer_is_the_dict_steps_states_in_their_order(seed: int) -> None:
    """Step by step, the profiles, their tallies and numbers, in the dict steps' order."""
    grid = grid_of(seed)
    assert layers_of(grid) == dict_layers_of(grid)
