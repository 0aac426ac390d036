"""The ASP formulations count exactly the solutions the rule verifier accepts on small grids with
many solutions (brute force over every grid), so their rules are the puzzle's rules and the
counting projection (``val`` atoms) neither loses nor multiplies solutions; the rule files are
real files shipped beside their modules."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest

from bench.instance import parse_instance
from bench.puzzles import get_puzzle
from bench.records import Task
from bench.registry import formulations
from bench.run.execute import execute
from bench.variants import variants
from tests.conftest import ROOT

#: (puzzle, instance grid, values an open cell may take)
CASES = {
    "nurikabe": ("3 . .\n. . .\n. . 2", ("#", ".")),
    "yinyang": ("b . .\n. . .\n. . w", ("b", "w")),
    "shakashaka": (". . .\n. . .", (".", "◢", "◣", "◤", "◥")),
    "fillomino": ("2 . .\n. . 3", (1, 2, 3, 4, 5, 6)),
    "shikaku": ("4 . . .\n. . . 4", None),
}


def brute_force(puzzle: str, text: str, values: tuple[object, ...] | None) -> int:
    inst = parse_instance(f"puzzle: {puzzle}\n\n{text}\n")
    cells = [(r, c) for r in range(inst.rows) for c in range(inst.cols)]
    clues = inst.clues()
    given = {(r, c): v for r, c, v in clues}
    if puzzle == "shikaku":  # rectangle ids: clue k's cell holds id k
        given = {(r, c): k for k, (r, c, _) in enumerate(clues)}
        values = tuple(range(len(clues)))
    elif puzzle == "nurikabe":
        given = {cell: "." for cell in given}
    elif puzzle == "shakashaka":
        given = {cell: "#" for cell in given}
    free = [cell for cell in cells if cell not in given]
    check = get_puzzle(puzzle).check
    found = 0
    assert values is not None
    for choice in itertools.product(values, repeat=len(free)):
        grid: list[list[object]] = [[None] * inst.cols for _ in range(inst.rows)]
        for (r, c), v in [*given.items(), *zip(free, choice, strict=True)]:
            grid[r][c] = v
        found += not check(inst, grid)
    return found


ASP = [pytest.param(cls.puzzle, form.label, id=f"{cls.puzzle}/{form.label}")
       for cls in formulations() if cls.kind == "asp" for form in variants(cls)]


@pytest.mark.parametrize(("puzzle", "label"), ASP)
def test_counts_every_solution_the_checker_accepts(tmp_path: Path, puzzle: str, label: str):
    text, values = CASES[puzzle]
    expected = brute_force(puzzle, text, values)
    assert expected >= 2  # a case worth counting
    path = tmp_path / f"{puzzle}.txt"
    path.write_text(f"puzzle: {puzzle}\n\n{text}\n")
    res = execute(Task(str(path), label, "clingo", 60.0, count=expected + 5))
    assert res.status == "solved", res.message
    assert res.count == expected


def test_every_puzzle_has_an_asp_formulation():
    assert {cls.puzzle for cls in formulations() if cls.kind == "asp"} == set(CASES)


def test_rule_files_are_package_data():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["formulations"]
    shipped = {p for pattern in patterns for p in (ROOT / "formulations").glob(pattern)}
    lp = set((ROOT / "formulations").rglob("*.lp"))
    assert lp and lp <= shipped


@pytest.mark.parametrize("label", ["asp-reach[connect=reach,implied=all]",
                                   "asp-reach[connect=edge,implied=all]"])
def test_yinyang_implied_rules_keep_a_one_colour_cycle(label: str):
    # the unique solution has a black ring round the border (a cycle): the implied rules
    # (no checkerboard, at most two colour changes round the border) must not cut it off
    res = execute(Task(str(ROOT / "tests" / "data" / "yinyang-5x5-ring.txt"), label, "clingo",
                       60.0, count=2))
    assert res.status == "solved", res.message
    assert res.known is True and res.count == 1
