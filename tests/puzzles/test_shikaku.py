from __future__ import annotations

import pytest

from bench.instance import parse_instance
from bench.puzzles import get_puzzle
from bench.puzzles.shikaku.rules import candidate_rectangles, shapes

RULES = get_puzzle("shikaku")
# 2 . 4 .    solution: column 0 | columns 1-2 | column 3
# . . . 2
INST = parse_instance("puzzle: shikaku\n\n2 . 4 .\n. . . 2\n", "small.txt")
GOOD = [[0, 1, 1, 2], [0, 1, 1, 2]]


def test_accepts_a_valid_solution_with_any_ids():
    assert RULES.verify(INST, GOOD) == []
    assert RULES.verify(INST, [[7, 3, 3, 9], [7, 3, 3, 9]]) == []


@pytest.mark.parametrize(
    ("grid", "needle"),
    [
        ([[0, 0, 1, 1], [0, 1, 1, 1]], "not a rectangle"),  # L-shape for 0
        ([[0, 0, 0, 0], [0, 0, 0, 0]], "holds 3 numbers"),
        ([[0, 1, 1, 1], [0, 1, 1, 2]], "not a rectangle"),
        ([[0, 1, 2, 3], [0, 1, 2, 3]], "holds 0 numbers"),  # column 1 has no clue
        ([[0, 0, 1, 2], [0, 0, 1, 2]], "area 4 but holds the number 2"),
        ([[0, 1, 1, 2]], "rows"),
        ([[0, 1, 1, 2], [0, 1, 1]], "row 1"),
        ([[0, 1, 1, 2], [0, 1, 1, "2"]], "not an integer"),
        ([[0, 1, 1, 2], [0, 1, 1, True]], "not an integer"),
    ],
)
def test_rejects_wrong_grids(grid, needle):
    problems = RULES.verify(INST, grid)
    assert problems, "the verifier accepted a wrong grid"
    assert any(needle in p for p in problems), problems


def test_candidates_hold_exactly_one_clue_of_their_area():
    rects = candidate_rectangles(INST)
    clues = INST.clues()
    for rect in rects:
        inside = [INST.grid[r][c] for r, c in rect.cells() if INST.grid[r][c] is not None]
        assert inside == [clues[rect.clue][2]] == [rect.height * rect.width]
    # clue 4 at (0, 2): 2x2 at left 1 or 2 (left 2 would take the 2 at (1, 3)) and no 1x4
    assert {(r.top, r.left, r.height, r.width) for r in rects if r.clue == 1} == {(0, 1, 2, 2)}


def test_shapes():
    assert shapes(6, 3, 10) == [(1, 6), (2, 3), (3, 2)]
    assert shapes(7, 2, 2) == []


def test_render_draws_walls_between_rectangles():
    text = RULES.render(INST, GOOD)
    assert text.splitlines()[1] == "|2|  4| |"
