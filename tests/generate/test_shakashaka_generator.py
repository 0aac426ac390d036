"""The Shakashaka generator's geometry: 45-degree rectangles cut cells into triangles, shapes
never share a side, and a packing is a valid solution of its own fully numbered puzzle."""

from __future__ import annotations

import random

import pytest

from bench.generate import instance_from_grid
from bench.puzzles import get_puzzle
from bench.puzzles.shakashaka.generate import (
    diamond,
    numbers,
    pack,
    render,
    touching,
    upright,
)
from bench.puzzles.shakashaka.rules import BLACK, E, N, S, W


def cells(quarters):
    out: dict[tuple[int, int], set[int]] = {}
    for r, c, q in quarters:
        out.setdefault((r, c), set()).add(q)
    return out


def test_the_smallest_diamond_is_four_half_cells_around_a_grid_point():
    # the grid point (1, 1): u = 2, v = 0
    assert cells(diamond(1, -1, 1, 1)) == {(0, 0): {S, E}, (0, 1): {S, W}, (1, 0): {N, E},
                                           (1, 1): {N, W}}


def test_a_larger_diamond_has_white_cells_inside_and_halves_on_its_sides():
    got = cells(diamond(2, 0, 2, 1))  # top corner at (1, 1), 2 steps down-right, 1 down-left
    assert all(len(qs) in (2, 4) for qs in got.values())
    assert sum(len(qs) == 4 for qs in got.values()) == 1  # one whole white cell inside
    assert sum(len(qs) for qs in got.values()) == 8 * 2 * 1  # 2 quarters per cell half


def test_upright_rectangles_are_whole_cells_and_touching_is_symmetric():
    assert cells(upright(1, 2, 2, 3)) == {(r, c): {N, E, S, W} for r in (1, 2)
                                          for c in (2, 3, 4)}
    for q in (N, E, S, W):
        for t in touching((5, 5, q)):
            assert (5, 5, q) in set(touching(t))


@pytest.mark.parametrize("seed", range(8))
def test_a_packing_is_a_solution_of_its_numbered_puzzle(seed):
    rng = random.Random(seed)
    rows, cols = rng.randint(4, 14), rng.randint(4, 14)
    grid = render(rows, cols, pack(rows, cols, rng))
    given = numbers(grid)
    inst = instance_from_grid("shakashaka", [[given.get((r, c), BLACK) if v == BLACK else None
                                              for c, v in enumerate(row)]
                                             for r, row in enumerate(grid)])
    assert get_puzzle("shakashaka").verify(inst, grid) == []
    assert sum(v != BLACK for row in grid for v in row) > rows * cols // 3  # mostly shapes


def test_generated_puzzles_leave_the_board_mostly_white():
    """The uniqueness repair once took out every shape of a 6x6 (seed 3): an all-black board
    with nothing to decide. Such a packing is packed anew."""
    from bench.generate import generate_one
    from bench.puzzles.shakashaka.generate import MIN_WHITE, white_share

    assert white_share([[BLACK] * 6] * 6) == 0.0
    for seed in (1, 2, 3):
        g = generate_one("shakashaka", 6, 6, seed=seed)
        assert white_share(g.solution) >= MIN_WHITE
        assert get_puzzle("shakashaka").verify(g.instance, g.solution) == []
