from __future__ import annotations

import importlib
from typing import Any

import pytest

from bench.instance import format_instance, parse_instance
from bench.puzzles import get_puzzle
from tests.conftest import assert_malformed

RULES = get_puzzle("fillomino")
# The module is fetched after get_puzzle(): importing a puzzle module before the first
# get_puzzle() call would register only that puzzle and stop get_puzzle() from loading the rest.
polyominoes = importlib.import_module("bench.puzzles.fillomino.rules").polyominoes
# 2 . . 4    solution: 2 2 1 4
# . 3 . .              1 3 2 4
# . . 2 .              3 3 2 4
# . . 1 .              2 2 1 4
INST = parse_instance("puzzle: fillomino\n\n2 . . 4\n. 3 . .\n. . 2 .\n. . 1 .\n", "small.txt")
GOOD = [[2, 2, 1, 4], [1, 3, 2, 4], [3, 3, 2, 4], [2, 2, 1, 4]]


def change(grid: list[list[Any]], *cells: tuple[int, int, Any]) -> list[list[Any]]:
    out = [row[:] for row in grid]
    for r, c, v in cells:
        out[r][c] = v
    return out


def test_accepts_a_valid_solution():
    assert RULES.verify(INST, GOOD) == []


def test_equal_numbers_may_touch_at_corners_but_not_share_edges():
    inst = parse_instance("puzzle: fillomino\n\n. . . .\n. . . .\n")
    # two L-shaped 3s and two 1s, each pair meeting only at a corner
    assert RULES.verify(inst, [[3, 3, 1, 3], [3, 1, 3, 3]]) == []
    # two dominoes of 2s sharing an edge are one group of 4
    assert RULES.verify(inst, [[2, 2, 2, 2], [1, 3, 3, 3]]) == [
        "region of 2s at (0,0) has 4 cell(s), too big for 2"
    ]
    assert RULES.verify(inst, [[1, 2, 2, 1], [3, 3, 3, 1]]) == [
        "region of 1s at (0,3) has 2 cell(s), too big for 1"
    ]


def test_polyominoes_split_equal_numbers_by_connectivity():
    groups = polyominoes([[1, 2, 2, 1], [2, 1, 3, 3]])
    assert [(n, len(cells)) for n, cells in groups] == [(1, 1), (2, 2), (1, 1), (2, 1), (1, 1),
                                                        (3, 2)]
    assert groups[0][1] == [(0, 0)]


@pytest.mark.parametrize(
    ("grid", "needle"),
    [
        (change(GOOD, (0, 2, 2)), "region of 2s at (0,0) has 5 cell(s), too big for 2"),
        (change(GOOD, (3, 3, 1)), "region of 4s at (0,3) has 3 cell(s), too small for 4"),
        (change(GOOD, (3, 3, 1)), "region of 1s at (3,2) has 2 cell(s), too big for 1"),
        (change(GOOD, (1, 1, 2)), "given number 3 at (1,1) was changed to 2"),
        (change(GOOD, (0, 0, 1), (0, 1, 1)), "given number 2 at (0,0) was changed to 1"),
        (change(GOOD, (0, 1, "2")), "cell (0,1) holds '2', not a positive integer"),
        (change(GOOD, (0, 1, 2.0)), "holds 2.0, not a positive integer"),
        (change(GOOD, (0, 2, True)), "holds True, not a positive integer"),
        (change(GOOD, (0, 2, 0)), "holds 0, not a positive integer"),
        (change(GOOD, (0, 2, None)), "holds None, not a positive integer"),
        (GOOD[:3], "grid has 3 rows, expected 4"),
        ([*GOOD[:3], [2, 2, 1]], "row 3 does not have 4 cells"),
    ],
)
def test_rejects_wrong_grids(grid, needle):
    problems = RULES.verify(INST, grid)
    assert problems, "the verifier accepted a wrong grid"
    assert any(needle in p for p in problems), problems


@pytest.mark.parametrize(
    ("content", "line", "needle"),
    [
        ("puzzle: fillomino\n\n2 .\n. x\n", 4, "illegal token 'x'"),
        ("puzzle: fillomino\n\n2 .\n. 0\n", 4, "at least 1"),
        ("puzzle: fillomino\n\n2 .\n. -1\n", 4, "illegal token '-1'"),
        ("puzzle: fillomino\n\n2 .\n. . .\n", 4, "ragged grid"),
        ("puzzle: fillomino\n\n. .\n. 5\n", 4, "given number 5 at row 1, column 1 is larger"),
        ("puzzle: fillomino\n\n. . .\n1 . .\n1 . .\n", 4, "given 1s at row 1, column 0 and row 2"),
    ],
)
def test_rejects_malformed_instances(write, content, line, needle):
    assert_malformed(write("bad.txt", content), line, needle)


def test_multidigit_numbers_round_trip():
    inst = parse_instance("puzzle: fillomino\n\n12 . . .\n. . . .\n. . . .\n")
    assert inst.grid[0] == (12, None, None, None)
    assert parse_instance(format_instance(inst)).grid == inst.grid


def test_render_draws_polyomino_borders():
    assert RULES.render(INST).splitlines()[0] == "2 . . 4"
    lines = RULES.render(INST, GOOD).splitlines()
    assert lines[0] == "+-+-+-+-+"
    assert lines[1] == "|2 2|1|4|"
    assert lines[2] == "+-+-+-+ +"
