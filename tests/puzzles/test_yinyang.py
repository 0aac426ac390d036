from __future__ import annotations

from typing import Any

import pytest

from bench.instance import format_instance, parse_instance, read_instance
from bench.puzzles import get_puzzle
from tests.conftest import INSTANCES, assert_malformed

RULES = get_puzzle("yinyang")
# w . . b    solution: w w w b
# . b . .              w b w b
# . . w .              w b w b
# . . . .              w b b b
INST = parse_instance("puzzle: yinyang\n\nw . . b\n. b . .\n. . w .\n. . . .\n", "small.txt")
GOOD = [list("wwwb"), list("wbwb"), list("wbwb"), list("wbbb")]


def change(grid: list[list[Any]], *cells: tuple[int, int, Any]) -> list[list[Any]]:
    out = [row[:] for row in grid]
    for r, c, v in cells:
        out[r][c] = v
    return out


def test_reads_the_seed():
    inst = read_instance(INSTANCES / "yinyang" / "seed-01.txt")
    assert (inst.puzzle, inst.rows, inst.cols) == ("yinyang", 6, 6)
    assert inst.grid[1][2] == "w" and inst.grid[4][1] == "b" and inst.grid[0][0] is None
    assert inst.clues()[-2:] == [(5, 2, "b"), (5, 3, "w")]
    assert parse_instance(format_instance(inst), inst.path).grid == inst.grid


def test_accepts_a_valid_solution():
    assert RULES.verify(INST, GOOD) == []


@pytest.mark.parametrize(
    ("grid", "needle"),
    [
        (change(GOOD, (0, 0, "b")), "given white stone at (0,0) is black"),
        (change(GOOD, (1, 1, "w")), "given black stone at (1,1) is white"),
        (change(GOOD, (3, 1, "w")),
         "black cells form 2 separate groups (starting at (0,3), (1,1))"),
        (change(GOOD, (0, 1, "b")), "white cells form 2 separate groups"),
        (change(GOOD, (1, 0, "b"), (2, 0, "b")), "2x2 block of black cells at (1,0)"),
        (change(GOOD, (1, 3, "w"), (2, 3, "w")), "2x2 block of white cells at (1,2)"),
        (change(GOOD, (0, 1, "x")), "cell (0,1) holds 'x', not 'b' or 'w'"),
        (change(GOOD, (0, 1, "W")), "not 'b' or 'w'"),
        (GOOD[:3], "grid has 3 rows, expected 4"),
        ([*GOOD[:3], list("wbb")], "row 3 does not have 4 cells"),
    ],
)
def test_rejects_wrong_grids(grid, needle):
    problems = RULES.verify(INST, grid)
    assert problems, "the verifier accepted a wrong grid"
    assert any(needle in p for p in problems), problems


def test_single_colour_grids():
    # no special rule: the missing colour is an empty (connected) set, so a single-colour grid
    # is valid when it has no 2x2 block and no given stone of the other colour
    line = parse_instance("puzzle: yinyang\n\nw . .\n")
    assert RULES.verify(line, [list("www")]) == []
    assert RULES.verify(line, [list("wbb")]) == []
    assert RULES.verify(line, [list("wbw")]) == [
        "white cells form 2 separate groups (starting at (0,0), (0,2))"
    ]
    assert RULES.verify(line, [list("bww")]) == ["given white stone at (0,0) is black"]
    both = parse_instance("puzzle: yinyang\n\nw . b\n")
    assert RULES.verify(both, [list("www")]) == ["given black stone at (0,2) is white"]
    assert RULES.verify(both, [list("wwb")]) == []
    square = parse_instance("puzzle: yinyang\n\n. .\n. .\n")
    assert RULES.verify(square, [list("ww"), list("ww")]) == ["2x2 block of white cells at (0,0)"]
    assert RULES.verify(square, [list("wb"), list("wb")]) == []


@pytest.mark.parametrize(
    ("content", "line", "needle"),
    [
        ("puzzle: yinyang\n\nw x\n. .\n", 3, "illegal token 'x'"),
        ("puzzle: yinyang\n\nw .\n. W\n", 4, "illegal token 'W'"),
        ("puzzle: yinyang\n\nw .\n. 1\n", 4, "illegal token '1'"),
        ("puzzle: yinyang\n\nw . .\n. .\n", 4, "ragged grid"),
        ("puzzle: yinyang\n\n. . .\n. b b\n. b b\n", 4, "2x2 block of given black stones at row 1"),
        ("puzzle: yinyang\n\n. . .\nw b .\nb w .\n", 4, "checkerboard 2x2 block"),
    ],
)
def test_rejects_malformed_instances(write, content, line, needle):
    assert_malformed(write("bad.txt", content), line, needle)


def test_render_marks_given_stones():
    assert RULES.render(INST).splitlines()[0] == "w . . b"
    assert RULES.render(INST, GOOD).splitlines() == ["W w w B", "w B w b", "w b W b", "w b b b"]
