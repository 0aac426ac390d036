"""The Nurikabe rules: token parsing, validation and the checker on right and wrong grids."""

from __future__ import annotations

import pytest

from bench.instance import Instance, InstanceError, parse_instance
from bench.puzzles import get_puzzle

PUZZLE = get_puzzle("nurikabe")

TEXT = """puzzle: nurikabe
source: test

2 . . .
. . . 2
. . 1 .
2 . . .
"""
#: the solution: islands {(0,0),(0,1)}, {(0,3),(1,3)}, {(2,2)}, {(2,0),(3,0)}
GOOD = ("..#.", "###.", ".#.#", ".###")


def grid(*rows: str) -> list[list[str]]:
    return [list(r) for r in rows]


@pytest.fixture
def inst() -> Instance:
    return parse_instance(TEXT)


def problems(inst: Instance, *rows: str) -> list[str]:
    return PUZZLE.verify(inst, grid(*rows))


def test_correct_grid_accepted(inst: Instance) -> None:
    assert problems(inst, *GOOD) == []


def test_disconnected_wall(inst: Instance) -> None:
    found = problems(inst, "..#.", "##..", ".#.#", ".###")  # (0,2) cut off
    assert any("2 separate groups" in p for p in found)


def test_two_by_two_pool(inst: Instance) -> None:
    found = problems(inst, "..#.", "###.", "##.#", ".###")
    assert any("2x2 block of black cells at (1,0)" in p for p in found)


def test_island_with_two_numbers(inst: Instance) -> None:
    found = problems(inst, "..#.", "###.", "...#", ".###")
    assert any("holds 2 numbers [1, 2]" in p for p in found)


def test_island_of_wrong_size(inst: Instance) -> None:
    found = problems(inst, ".##.", "###.", ".#.#", ".###")
    assert any("island at (0,0) of 1 cell(s) holds the number 2" in p for p in found)


def test_island_without_number(inst: Instance) -> None:
    found = problems(inst, "..#.", "###.", ".#.#", ".##.")
    assert any("island at (3,3) of 1 cell(s) holds no number" in p for p in found)


def test_clue_black_and_bad_cells(inst: Instance) -> None:
    assert any("clue 2 at (0,0) is black" in p for p in problems(inst, "#.#.", *GOOD[1:]))
    assert any("not '#' or '.'" in p for p in problems(inst, "x.#.", *GOOD[1:]))
    assert PUZZLE.verify(inst, [["."]]) != []


def test_validate_and_parse() -> None:
    with pytest.raises(InstanceError, match=r":5: clue 7 .* larger than the grid"):
        parse_instance("puzzle: nurikabe\n\n. .\n. .\n7 .\n")
    with pytest.raises(InstanceError, match="column 1"):
        parse_instance("puzzle: nurikabe\n\n. x\n")
    with pytest.raises(InstanceError):
        parse_instance("puzzle: nurikabe\n\n0 .\n")



@pytest.mark.parametrize(("root", "problem"), [
    ("9 9", "row 9, column 9 is outside the 2x3 grid"),
    ("0 3", "row 0, column 3 is outside the 2x3 grid"),
    ("x", "expected ROW COL, two numbers counted from 0"),
    ("1", "expected ROW COL"), ("-1 0", "expected ROW COL"), ("1 2 3", "expected ROW COL"),
    ("0 1", "row 0, column 1 holds the clue 2: a clue cell is white")])
def test_a_bad_black_root_header_is_refused_when_read(root: str, problem: str) -> None:
    """``black-root: ROW COL`` (read by mip-seed[root=hint]) names a cell of the grid without
    a clue or the file is malformed, not read and then skipped for a header it has."""
    with pytest.raises(InstanceError) as e:
        parse_instance(f"puzzle: nurikabe\nblack-root: {root}\n\n. 2 .\n. . .\n", "x.txt")
    message = str(e.value)
    assert message.startswith(f"x.txt: bad header 'black-root: {root}': "), message
    assert problem in message and "\n" not in message, message
    ok = parse_instance("puzzle: nurikabe\nblack-root: 1 2\n\n. 2 .\n. . .\n")
    assert ok.header["black-root"] == "1 2"

def test_render(inst: Instance) -> None:
    assert PUZZLE.render(inst, grid(*GOOD)).splitlines() == ["2 . # .", "# # # 2", ". # 1 #",
                                                             "2 # # #"]
    assert PUZZLE.render(inst).splitlines()[2] == ". . 1 ."
